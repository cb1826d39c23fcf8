/* Right numbers, wrong layout: all on one line (PE in strict mode). */
#include <stdio.h>

int main(void) {
    long long t, a, b;
    if (scanf("%lld", &t) != 1) return 0;
    while (t-- > 0 && scanf("%lld %lld", &a, &b) == 2) printf("%lld ", a + b);
    printf("\n");
    return 0;
}
