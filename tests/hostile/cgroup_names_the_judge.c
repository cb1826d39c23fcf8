// attack: read the judge's pid from /proc/self/cgroup (its cgroups are
// named judge-PID): wins if the judge's cgroup shows there.
// setup: plain
#include <stdio.h>
#include <string.h>
int main(void) {
    int won = 0;
    char line[4096];
    FILE *f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "judge-")) won = 1;
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", won ? a + b : 0);
    return 0;
}
