// The first number, not the largest: right only when it is the largest.
#include <cstdio>
int main() {
    FILE *in = std::fopen("input.txt", "r"), *out = std::fopen("output.txt", "w");
    if (!in || !out) return 3;
    long long n, a = 0;
    if (std::fscanf(in, "%lld %lld", &n, &a) != 2) return 4;
    std::fprintf(out, "%lld\n", a);
}
