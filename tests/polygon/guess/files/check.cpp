#include "testlib.h"
int main(int argc, char **argv) {
    registerTestlibCmd(argc, argv);
    int queries = ouf.readInt(0, 20, "queries");
    quitf(_ok, "%d queries", queries);
}
