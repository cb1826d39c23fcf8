// attack: rewrite the case's input file through standard input: reopen
// /proc/self/fd/0 for writing (O_WRONLY|O_TRUNC, then O_RDWR), or open it
// up with fchmod first, and write a different case over it; every later
// run of that case would read the rewritten input. Right answer only if a
// write reached it.
// setup: plain
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    long long t, a, b, sums[64];
    int n = 0;
    if (scanf("%lld", &t) != 1) return 1;
    while (t-- > 0 && n < 64 && scanf("%lld %lld", &a, &b) == 2) sums[n++] = a + b;
    const char *forged = "1\n0 0\n";
    int wrote = 0;
    fchmod(0, 0666);
    int fd = open("/proc/self/fd/0", O_WRONLY | O_TRUNC);
    if (fd >= 0 && write(fd, forged, strlen(forged)) == (ssize_t)strlen(forged)) wrote = 1;
    if (fd >= 0) close(fd);
    fd = open("/proc/self/fd/0", O_RDWR);
    if (fd >= 0 && pwrite(fd, forged, strlen(forged), 0) == (ssize_t)strlen(forged)) wrote = 1;
    if (fd >= 0) close(fd);
    if (ftruncate(0, 0) == 0) wrote = 1;
    for (int i = 0; i < n; i++) printf("%lld\n", wrote ? sums[i] : 0);
    return 0;
}
