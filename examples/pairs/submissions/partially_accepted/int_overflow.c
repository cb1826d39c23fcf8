/* Sums in int: right while values are small (subtask 1), wrong once two
 * values near 10^9 overflow it: 30 points. */
#include <stdio.h>
int main(void) {
    int n, v, b = -1, s = -1, bi = 0, si = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int k = 1; k <= n; k++) {
        if (scanf("%d", &v) != 1) return 1;
        if (v > b) { s = b; si = bi; b = v; bi = k; }
        else if (v > s) { s = v; si = k; }
    }
    int sum = b + s;
    printf("%d\n%d %d\n", sum, bi < si ? bi : si, bi < si ? si : bi);
    return 0;
}
