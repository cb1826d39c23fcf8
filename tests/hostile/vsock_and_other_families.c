// attack: sockets of families the network namespace does not cover, or
// that reach the kernel's less used code: bind an AF_VSOCK socket (the
// hypervisor's side of the machine), or make an AF_ALG (kernel crypto),
// AF_PACKET, AF_TIPC, AF_RDS, AF_KEY or Bluetooth one. Any one made wins.
// setup: plain
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/vm_sockets.h>
#include <unistd.h>
int main(void) {
    int won = 0;
    int fd = socket(AF_VSOCK, SOCK_STREAM, 0);
    if (fd >= 0) {
        struct sockaddr_vm addr;
        memset(&addr, 0, sizeof addr);
        addr.svm_family = AF_VSOCK;
        addr.svm_cid = VMADDR_CID_ANY;
        addr.svm_port = VMADDR_PORT_ANY;
        if (bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0) won = 1;
        close(fd);
    }
    int families[] = {AF_ALG, AF_PACKET, AF_TIPC, AF_RDS, AF_KEY, AF_BLUETOOTH};
    int types[] = {SOCK_SEQPACKET, SOCK_DGRAM, SOCK_RDM, SOCK_SEQPACKET, SOCK_RAW, SOCK_STREAM};
    for (unsigned i = 0; i < sizeof families / sizeof *families; i++) {
        fd = socket(families[i], types[i], families[i] == AF_KEY ? 2 : 0);
        if (fd >= 0) {
            won = 1;
            close(fd);
        }
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", won ? a + b : 0);
    return 0;
}
