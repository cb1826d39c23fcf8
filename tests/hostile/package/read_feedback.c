// attack: an interactive submission that, once the validator has written its secret into its feedback directory (and its working directory), looks for it everywhere the judge keeps files (its TMPDIR, the scratch directory) and guesses it at once
// setup: interactive (tests/hostile_package.rs)
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int found = -1;

static void walk(const char *dir, int depth) {
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d || depth < 0) { if (d) closedir(d); return; }
    while (found < 0 && (e = readdir(d))) {
        char p[PATH_MAX];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) walk(p, depth - 1);
        else if (!strcmp(e->d_name, "secret.txt")) {
            FILE *f = fopen(p, "r");
            if (f && fscanf(f, "%d", &found) != 1) found = -1;
            if (f) fclose(f);
        }
    }
    closedir(d);
}

int main(void) {
    char ready[32];
    if (scanf("%31s", ready) != 1) return 0;
    walk("@TMP@", 6);
    if (found < 0) walk("/tmp", 6);
    printf("%d\n", found < 0 ? 0 : found);
    fflush(stdout);
    return 0;
}
