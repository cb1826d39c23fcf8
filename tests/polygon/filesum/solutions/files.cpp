#include <cstdio>
int main() {
    FILE *in = std::fopen("input.txt", "r");
    FILE *out = std::fopen("output.txt", "w");
    long long a, b;
    if (!in || !out || std::fscanf(in, "%lld %lld", &a, &b) != 2) return 1;
    std::fprintf(out, "%lld\n", a + b);
}
