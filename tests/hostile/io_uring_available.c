// attack: set up an io_uring: its requests make sockets (IORING_OP_SOCKET,
// an AF_UNIX one included), open and connect without the system calls the
// seccomp filter sees, so a ring that can be made gets past every rule of
// the filter.
// setup: plain
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    unsigned params[30]; // struct io_uring_params (120 bytes)
    memset(params, 0, sizeof params);
    long ring = syscall(SYS_io_uring_setup, 4, params);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", ring >= 0 ? a + b : 0);
    return 0;
}
