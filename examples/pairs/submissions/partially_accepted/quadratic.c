/* Every pair: right, but too slow for subtask 3 (N = 100000): 70 points. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    long long *a = malloc(sizeof *a * (size_t)n);
    for (long k = 0; k < n; k++) if (scanf("%lld", &a[k]) != 1) return 1;
    long long best = -1; long bi = 0, bj = 0;
    for (long i = 0; i < n; i++)
        for (long j = i + 1; j < n; j++)
            if (a[i] + a[j] > best) { best = a[i] + a[j]; bi = i; bj = j; }
    printf("%lld\n%ld %ld\n", best, bi + 1, bj + 1);
    return 0;
}
