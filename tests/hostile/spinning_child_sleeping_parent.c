// attack: children spin while the parent sleeps, then the parent answers
// and exits (the children are killed with it): only wall time shows in the
// parent's rusage. Each of two spinners tells the parent once it has used
// 0.6 s of CPU (1.2 s in all, past the 1 s limit however loaded the
// machine), and spins on; the parent waits for both, then answers.
// setup: plain
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
int main(void) {
    signal(SIGXCPU, SIG_IGN);
    int p[2];
    if (pipe(p) != 0) return 1;
    for (int k = 0; k < 2; k++) {
        if (fork() == 0) {
            signal(SIGXCPU, SIG_IGN);
            close(p[0]);
            while (cpu() < 0.6) {}
            if (write(p[1], "x", 1) != 1) return 1;
            for (volatile unsigned long i = 0;; i++) {}
        }
    }
    close(p[1]);
    char c;
    for (int k = 0; k < 2; k++)
        if (read(p[0], &c, 1) != 1) return 1;
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", a + b);
    return 0;
}
