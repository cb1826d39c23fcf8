// attack: hold 16 memfds of 60 MiB each under a 64 MiB memory limit: a
// memfd's pages are in no address space once written (RLIMIT_AS does not
// count them). Right answer only if all 960 MiB were held.
// setup: memory (--memory-limit 64MiB)
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void) {
    static char block[1 << 20];
    memset(block, 7, sizeof block);
    int held = 0;
    for (int i = 0; i < 16; i++) {
        int fd = memfd_create("hoard", 0);
        if (fd < 0) break;
        int ok = 1;
        for (int m = 0; m < 60 && ok; m++)
            ok = pwrite(fd, block, sizeof block, (off_t)m << 20) == (ssize_t)sizeof block;
        if (!ok) break;
        held++;
    }
    long long t, a, b;
    if (scanf("%lld", &t) != 1) return 1;
    while (t-- > 0 && scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", held == 16 ? a + b : 0);
    return 0;
}
