// attack: leave the working directory empty but marked — an extended
// attribute, a mode, its times — so a judge that reuses an empty
// directory hands the marks to the next case, a channel between cases.
// setup: ipc (three cases, one worker)
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#define MARK_TIME 1234567
int main(void) {
    struct stat st;
    char value[8];
    int found = getxattr(".", "user.judge-note", value, sizeof value) > 0;
    if (stat(".", &st) == 0)
        found |= (st.st_mode & 07777) == 0751 || st.st_mtime == MARK_TIME ||
                 st.st_atime == MARK_TIME;
    setxattr(".", "user.judge-note", "1", 1, 0);
    chmod(".", 0751);
    struct timeval times[2] = {{MARK_TIME, 0}, {MARK_TIME, 0}};
    utimes(".", times);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found ? a + b : 0);
    return 0;
}
