// attack: die of SIGXCPU at once, to pass a crash off as a time-out (a
// TLE "1.000s used, counted by its cgroup" where the program used 1 ms):
// a verdict may state only what the judge measured.
// setup: plain
#include <signal.h>
int main(void) {
    raise(SIGXCPU);
    return 0;
}
