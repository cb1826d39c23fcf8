// Several tests in one run, as Polygon's multi-test generators write
// them: `multigen FIRST LAST` writes the files FIRST, FIRST+1, ..., LAST
// in its working directory, test i's two numbers up to 1000 * i.
#include "testlib.h"
#include <cstdio>
#include <string>
int main(int argc, char **argv) {
    registerGen(argc, argv, 1);
    int first = std::atoi(argv[1]), last = std::atoi(argv[2]);
    for (int i = first; i <= last; i++) {
        FILE *f = std::fopen(std::to_string(i).c_str(), "w");
        if (!f) return 1;
        long long hi = 1000LL * i;
        std::fprintf(f, "%lld %lld\n", rnd.next(0LL, hi), rnd.next(0LL, hi));
        std::fclose(f);
    }
}
