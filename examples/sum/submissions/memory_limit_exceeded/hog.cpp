// Allocates far past the 64MiB limit: std::bad_alloc.
#include <vector>
#include <cstdio>

int main() {
    std::vector<char> big(1u << 30, 1);
    std::printf("%d\n", big[12345]);
}
