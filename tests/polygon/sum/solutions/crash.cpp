#include <cstdio>
#include <cstdlib>
int main() { long long a, b; if (std::scanf("%lld %lld", &a, &b) != 2) return 1; if (a == 0) std::abort(); std::printf("%lld\n", a + b); }
