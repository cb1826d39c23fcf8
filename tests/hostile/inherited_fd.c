// attack: the judge was started with descriptor 7 open on a file it can
// read and the submission should not (here: the answer); read it.
// setup: fd
#include <stdio.h>
#include <unistd.h>
int main(void) {
    char buf[4096];
    ssize_t n = read(7, buf, sizeof buf);
    if (n > 0) {
        fwrite(buf, 1, (size_t)n, stdout);
        return 0;
    }
    puts("0\n0");
    return 0;
}
