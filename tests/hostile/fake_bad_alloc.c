// attack: print a runtime's allocation-failure message and exit, to pass
// a crash off as a memory-limit verdict at a few hundred KiB: the message
// is the program's word, the judge's measurement must agree.
// setup: plain
#include <stdio.h>
int main(void) {
    fputs("terminate called after throwing an instance of 'std::bad_alloc'\n"
          "  what():  std::bad_alloc\nMemoryError\nCannot allocate memory\n",
          stderr);
    return 1;
}
