// attack: leave a 200 MiB SysV shared-memory segment behind; a later case
// that finds it has a channel from an earlier one (and the segment would
// stay charged to the slot, blaming later cases' MLE on them).
// setup: ipc (three cases, one worker)
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
int main(void) {
    int id = shmget(0x5eed, 0, 0);
    int found = id >= 0;
    if (!found) {
        id = shmget(0x5eed, 200 << 20, IPC_CREAT | 0666);
        char *p = id >= 0 ? shmat(id, 0, 0) : (void *)-1;
        // Not made: the attack was never tried (the test wants WA, not RE).
        if (p == (void *)-1) return 3;
        memset(p, 1, 200 << 20);
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found ? a + b : 0);
    return 0;
}
