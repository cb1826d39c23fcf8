// Reads input.txt and writes output.txt, as the problem says.
#include <cstdio>
int main() {
    FILE *in = std::fopen("input.txt", "r"), *out = std::fopen("output.txt", "w");
    if (!in || !out) return 3;
    long long n, best = 0, a;
    if (std::fscanf(in, "%lld", &n) != 1) return 4;
    for (long long i = 0; i < n; i++)
        if (std::fscanf(in, "%lld", &a) == 1 && a > best) best = a;
    std::fprintf(out, "%lld\n", best);
}
