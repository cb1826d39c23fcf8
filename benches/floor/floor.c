/* The physical floor of judging: posix_spawn the program on each input
 * (stdin from the file, stdout into a pipe), read its output, wait for it,
 * compare the bytes with the answer. No limits, no sandbox, no report.
 * Whatever a judge does beyond this is its own cost.
 *
 * usage: floor PROGRAM DIR COUNT   (DIR holds 1.in 1.ans … COUNT.in COUNT.ans)
 * exit: 0 every output equal to its answer, 1 otherwise, 2 on a system error.
 */
#include "spawn_read.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor PROGRAM DIR COUNT\n");
        return 2;
    }
    const char *program = argv[1];
    const char *dir = argv[2];
    long count = strtol(argv[3], NULL, 10);
    static char out[1 << 16], ans[1 << 16], path[4096];
    int wrong = 0;
    for (long i = 1; i <= count; i++) {
        snprintf(path, sizeof path, "%s/%ld.in", dir, i);
        int in = open(path, O_RDONLY | O_CLOEXEC);
        if (in < 0) return 2;
        char *child_argv[] = {(char *)program, NULL};
        int status;
        ssize_t n = spawn_read(child_argv, in, out, sizeof out, &status);
        close(in);
        if (n < 0) return 2;
        snprintf(path, sizeof path, "%s/%ld.ans", dir, i);
        int a = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t m = a < 0 ? -1 : read_all(a, ans, sizeof ans);
        if (a >= 0) close(a);
        if (m != n || memcmp(out, ans, (size_t)n) != 0 || status != 0) wrong = 1;
    }
    return wrong;
}
