// One test on standard output: two numbers up to argv[1].
#include "testlib.h"
#include <cstdio>
int main(int argc, char **argv) {
    registerGen(argc, argv, 1);
    long long hi = std::atoll(argv[1]);
    std::printf("%lld %lld\n", rnd.next(0LL, hi), rnd.next(0LL, hi));
}
