// attack: two children spin 2.7 s of CPU each (SIGXCPU ignored); the parent
// waits for them through a pipe and never reaps them, so rusage never sees
// their time. Then it answers correctly: AC under a 1 s limit if only the
// main process's CPU is counted.
// setup: plain
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static void spin(double seconds) {
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (;;) {
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
        if (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9 > seconds) break;
    }
}
int main(void) {
    signal(SIGXCPU, SIG_IGN);
    int p[2];
    if (pipe(p) != 0) return 1;
    for (int i = 0; i < 2; i++)
        if (fork() == 0) {
            signal(SIGXCPU, SIG_IGN);
            close(p[0]);
            spin(2.7);
            _exit(0);
        }
    close(p[1]);
    char c;
    while (read(p[0], &c, 1) > 0) {}
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", a + b);
    return 0;
}
