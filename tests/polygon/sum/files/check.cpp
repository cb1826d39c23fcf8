#include "testlib.h"
int main(int argc, char **argv) {
    registerTestlibCmd(argc, argv);
    long long want = ans.readLong(-1000000000000LL, 1000000000000LL, "answer");
    long long got = ouf.readLong(-1000000000000LL, 1000000000000LL, "output");
    if (!ouf.seekEof()) quitf(_pe, "extra output after the sum");
    if (got != want) quitf(_wa, "expected %lld, found %lld", want, got);
    quitf(_ok, "%lld", got);
}
