// The interactive validator of "Guess the number" (Kattis protocol):
// the secret number is the input; the submission guesses, at most 10
// times, and hears "higher", "lower" or "correct". Exit 42 when it found
// the number, 43 otherwise, with the reason in judgemessage.txt.
#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    std::ifstream in(argv[1]);
    std::FILE *message = std::fopen((std::string(argv[3]) + "judgemessage.txt").c_str(), "w");
    long secret;
    if (!(in >> secret) || !message) return 1;
    for (int guess = 1; guess <= 10; guess++) {
        long g;
        if (std::scanf("%ld", &g) != 1) {
            std::fprintf(message, "guess %d: expected a number, found the end of the output\n", guess);
            return 43;
        }
        if (g == secret) {
            std::printf("correct\n");
            std::fflush(stdout);
            std::fprintf(message, "found %ld in %d guesses\n", secret, guess);
            return 42;
        }
        std::printf(g < secret ? "higher\n" : "lower\n");
        std::fflush(stdout);
    }
    std::fprintf(message, "10 guesses and no %ld\n", secret);
    return 43;
}
