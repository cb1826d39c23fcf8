// attack: a child spins while the parent sleeps, then the parent answers
// and exits (the child is killed with it): only wall time shows in the
// parent's rusage.
// setup: plain
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    signal(SIGXCPU, SIG_IGN);
    if (fork() == 0) {
        signal(SIGXCPU, SIG_IGN);
        for (volatile unsigned long i = 0;; i++) {}
    }
    sleep(2);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", a + b);
    return 0;
}
