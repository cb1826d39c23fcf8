/* The two largest values in one pass: 100 points. */
#include <stdio.h>
int main(void) {
    long n; long long v; long bi = 0, si = 0; long long b = -1, s = -1;
    if (scanf("%ld", &n) != 1) return 1;
    for (long k = 1; k <= n; k++) {
        if (scanf("%lld", &v) != 1) return 1;
        if (v > b) { s = b; si = bi; b = v; bi = k; }
        else if (v > s) { s = v; si = k; }
    }
    printf("%lld\n%ld %ld\n", b + s, bi < si ? bi : si, bi < si ? si : bi);
    return 0;
}
