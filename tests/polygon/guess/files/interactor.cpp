#include "testlib.h"
#include <cstdio>
#include <string>
// Guess the hidden number in 1..n with at most 20 queries: "? x" is
// answered "<", ">" or "=", the guess "! x" ends the game. The number of
// queries goes to tout for the checker.
int main(int argc, char **argv) {
    registerInteraction(argc, argv);
    int n = inf.readInt(1, 1000000, "n");
    int secret = inf.readInt(1, n, "secret");
    std::printf("%d\n", n);
    std::fflush(stdout);
    for (int queries = 0; queries <= 20; queries++) {
        std::string op = ouf.readToken();
        int x = ouf.readInt(1, n, "x");
        if (op == "!") {
            if (x != secret) quitf(_wa, "guessed %d, the number was %d", x, secret);
            tout << queries << std::endl;
            quitf(_ok, "found in %d queries", queries);
        }
        if (op != "?") quitf(_pe, "expected ? or !, found %s", op.c_str());
        std::printf("%s\n", x < secret ? "<" : x > secret ? ">" : "=");
        std::fflush(stdout);
    }
    quitf(_wa, "more than 20 queries");
}
