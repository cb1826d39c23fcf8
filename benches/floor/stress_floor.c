/* The physical floor of a stress round: posix_spawn the generator with the
 * round's seed and read the input it prints, write it to a file, posix_spawn
 * the submission and the reference on it (stdin from the file, stdout into
 * a pipe), read both outputs, wait, compare the bytes. No limits, no
 * sandbox, no checker. Whatever `judge stress` does beyond this is its own
 * cost.
 *
 * usage: stress_floor GENERATOR SUBMISSION REFERENCE ROUNDS
 * exit: 0 no difference, 1 a difference, 2 on a system error.
 */
#include "spawn_read.h"

/* Run argv and read its stdout; -1 on a system error or a failed exit. */
static ssize_t run(char **argv, int in, char *out, size_t cap) {
    int status;
    ssize_t n = spawn_read(argv, in, out, cap, &status);
    return n < 0 || status != 0 ? -1 : n;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: stress_floor GENERATOR SUBMISSION REFERENCE ROUNDS\n");
        return 2;
    }
    long rounds = strtol(argv[4], NULL, 10);
    static char input[1 << 16], mine[1 << 16], theirs[1 << 16], seed[32];
    for (long i = 1; i <= rounds; i++) {
        snprintf(seed, sizeof seed, "%ld", i);
        char *gen_argv[] = {argv[1], seed, NULL};
        ssize_t n = run(gen_argv, -1, input, sizeof input);
        if (n < 0) return 2;
        int f = open("round.in", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (f < 0 || write(f, input, (size_t)n) != n) return 2;
        close(f);
        char *sub_argv[] = {argv[2], NULL};
        char *ref_argv[] = {argv[3], NULL};
        f = open("round.in", O_RDONLY | O_CLOEXEC);
        ssize_t a = run(sub_argv, f, mine, sizeof mine);
        lseek(f, 0, SEEK_SET);
        ssize_t b = run(ref_argv, f, theirs, sizeof theirs);
        close(f);
        if (a < 0 || b < 0) return 2;
        if (a != b || memcmp(mine, theirs, (size_t)a) != 0) return 1;
    }
    return 0;
}
