// attack: leave a System V semaphore set and a message queue behind (no
// shared memory, which the judge might be the only one to look for); a
// later case that finds either has a channel from an earlier one.
// setup: ipc (three cases, one worker)
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
int main(void) {
    int found = semget(0x5eee, 0, 0) >= 0 || msgget(0x5eef, 0) >= 0;
    if (!found) {
        // Not made: the attack was never tried (the test wants WA, not RE).
        if (semget(0x5eee, 1, IPC_CREAT | 0666) < 0 || msgget(0x5eef, IPC_CREAT | 0666) < 0)
            return 3;
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found ? a + b : 0);
    return 0;
}
