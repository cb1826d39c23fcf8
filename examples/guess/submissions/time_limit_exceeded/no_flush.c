/* Never flushes: its guess stays in stdio's buffer (a pipe is fully
 * buffered) while it waits for a reply, and the validator waits for the
 * guess, until the wall clock ends both. */
#include <stdio.h>
int main(void) {
    char reply[32];
    printf("500\n");
    if (scanf("%31s", reply) != 1) return 0;
    return 0;
}
