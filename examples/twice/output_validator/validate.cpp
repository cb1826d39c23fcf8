// The multi-pass validator of "Twice" (Kattis protocol). Pass 1: the
// submission reads a word and prints any number x; the validator keeps x
// in its feedback directory and asks for a second pass whose input is x
// (nextpass.in). Pass 2: the submission must print 2x.
#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    const std::string feedback = argv[3];
    std::FILE *message = std::fopen((feedback + "judgemessage.txt").c_str(), "a");
    long x;
    if (std::scanf("%ld", &x) != 1) {
        std::fprintf(message, "expected a number\n");
        return 43;
    }
    std::ifstream kept(feedback + "first");
    long first;
    if (!(kept >> first)) {
        std::ofstream(feedback + "first") << x << "\n";
        std::ofstream(feedback + "nextpass.in") << x << "\n";
        return 42;
    }
    if (x != 2 * first) {
        std::fprintf(message, "pass 2: %ld is not twice %ld\n", x, first);
        return 43;
    }
    std::fprintf(message, "pass 2: %ld is twice %ld\n", x, first);
    return 42;
}
