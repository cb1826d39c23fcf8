// attack: leave a POSIX message queue, with a message in it, behind; a
// later case that opens it has a channel from an earlier one.
// setup: ipc (three cases, one worker)
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
int main(void) {
    mqd_t q = mq_open("/judge-attack", O_RDWR);
    int found = q != (mqd_t)-1;
    if (!found) {
        struct mq_attr attr = {0};
        attr.mq_maxmsg = 1;
        attr.mq_msgsize = 8;
        q = mq_open("/judge-attack", O_RDWR | O_CREAT, 0666, &attr);
        // Not made: the attack was never tried (the test wants WA, not RE).
        if (q == (mqd_t)-1 || mq_send(q, "x", 1, 0) != 0) return 3;
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found ? a + b : 0);
    return 0;
}
