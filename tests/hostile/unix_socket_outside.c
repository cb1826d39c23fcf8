// attack: connect to a world-connectable Unix socket outside the case
// (a path the test baked in as @SOCKET@; any /tmp or /run socket would do):
// the network namespace does not cover path sockets.
// setup: socket
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
int main(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    strncpy(addr.sun_path, "@SOCKET@", sizeof addr.sun_path - 1);
    int reached = fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", reached ? a + b : 0);
    return 0;
}
