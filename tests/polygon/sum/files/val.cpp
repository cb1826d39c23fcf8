#include "testlib.h"
// Group 1 (tests 3 and 4) holds small numbers only: the judge passes the
// testset and the group on the command line, as Polygon does.
int main(int argc, char **argv) {
    registerValidation(argc, argv);
    int most = validator.group() == "1" ? 1000 : 1000000;
    inf.readInt(0, most, "a");
    inf.readSpace();
    inf.readInt(0, most, "b");
    inf.readEoln();
    inf.readEof();
}
