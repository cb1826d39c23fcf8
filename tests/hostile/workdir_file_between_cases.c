// attack: leave files in the working directory (a plain one and a hidden
// one); a later case that finds them has a channel from an earlier one
// (the judge reuses a case's directory only when the run left it empty).
// setup: ipc (three cases, one worker)
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int found = access("note", F_OK) == 0 || access(".note", F_OK) == 0;
    FILE *f = fopen("note", "w");
    if (f) fclose(f);
    f = fopen(".note", "w");
    if (f) fclose(f);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found ? a + b : 0);
    return 0;
}
