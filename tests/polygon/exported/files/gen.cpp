// n numbers from 1 to hi, as `gen N HI SEED`: the seed is whatever the
// command line holds (testlib's way), so each test's command differs.
#include "testlib.h"
#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv) {
    registerGen(argc, argv, 1);
    long long n = std::atoll(argv[1]), hi = std::atoll(argv[2]);
    std::printf("%lld\n", n);
    for (long long i = 0; i < n; i++)
        std::printf("%lld%c", rnd.next(1LL, hi), i + 1 == n ? '\n' : ' ');
}
