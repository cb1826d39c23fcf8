/* Prints forever. */
#include <stdio.h>

int main(void) {
    for (;;) puts("3");
}
