// A random pair: the seed and the largest value from the command line.
#include <cstdio>
#include <cstdlib>
#include <random>

int main(int argc, char **argv) {
    if (argc < 3) return 1;
    std::mt19937_64 rng(std::strtoull(argv[1], nullptr, 10));
    long long max = std::atoll(argv[2]);
    std::uniform_int_distribution<long long> value(0, max);
    std::printf("%lld %lld\n", value(rng), value(rng));
}
