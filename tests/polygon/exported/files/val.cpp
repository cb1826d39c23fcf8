// The first line is n (1..100), the second n numbers; group 1 holds
// numbers up to 100 only (the group comes on the command line).
#include "testlib.h"
int main(int argc, char **argv) {
    registerValidation(argc, argv);
    long long most = validator.group() == "1" ? 100 : 1000000000;
    int n = inf.readInt(1, 100, "n");
    inf.readEoln();
    for (int i = 0; i < n; i++) {
        if (i) inf.readSpace();
        inf.readLong(1, most, "a_i");
    }
    inf.readEoln();
    inf.readEof();
}
