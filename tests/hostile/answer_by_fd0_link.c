// attack: read the link of standard input (/proc/self/fd/0), swap ".in" for
// ".ans" and print that file: AC on every case if the answers are visible.
// setup: files (the cases are named on the command line one by one)
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[4096];
    ssize_t n = readlink("/proc/self/fd/0", path, sizeof path - 8);
    if (n > 3) {
        path[n] = 0;
        char *dot = strrchr(path, '.');
        if (dot) {
            strcpy(dot, ".ans");
            FILE *f = fopen(path, "r");
            if (f) {
                int c;
                while ((c = fgetc(f)) != EOF) putchar(c);
                return 0;
            }
        }
    }
    puts("0\n0");
    return 0;
}
