// attack: the case's .ans is a symbolic link to a file elsewhere; read the
// link's target directly (its path is baked in by the test as @TARGET@).
// setup: symlink
#include <stdio.h>
int main(void) {
    FILE *f = fopen("@TARGET@", "r");
    if (f) {
        int c;
        while ((c = fgetc(f)) != EOF) putchar(c);
        return 0;
    }
    puts("0\n0");
    return 0;
}
