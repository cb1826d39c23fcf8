// attack: children spin while the parent sleeps, then the parent answers
// and exits (the children are killed with it): only wall time shows in the
// parent's rusage. Two spinners and 2.5 s of sleep pass the 1 s CPU limit
// even on a loaded machine where each gets a fraction of a core.
// setup: plain
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    signal(SIGXCPU, SIG_IGN);
    for (int k = 0; k < 2; k++) {
        if (fork() == 0) {
            signal(SIGXCPU, SIG_IGN);
            for (volatile unsigned long i = 0;; i++) {}
        }
    }
    usleep(2500000);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", a + b);
    return 0;
}
