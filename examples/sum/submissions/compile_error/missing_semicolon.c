#include <stdio.h>

int main(void) {
    printf("%d\n", 1 + 2)
    return 0;
}
