/* The physical floor of judging: posix_spawn the program on each input
 * (stdin from the file, stdout into a pipe), read its output, wait for it,
 * compare the bytes with the answer. No limits, no sandbox, no report.
 * Whatever a judge does beyond this is its own cost.
 *
 * usage: floor PROGRAM DIR COUNT   (DIR holds 1.in 1.ans … COUNT.in COUNT.ans)
 * exit: 0 every output equal to its answer, 1 otherwise, 2 on a system error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static ssize_t read_all(int fd, char *buf, size_t cap) {
    size_t n = 0;
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) return -1;
        if (r == 0) return (ssize_t)n;
        n += (size_t)r;
        if (n == cap) return (ssize_t)n;
    }
}

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
        int pipefd[2];
        if (in < 0 || pipe2(pipefd, O_CLOEXEC) != 0) return 2;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in, 0);
        posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
        pid_t pid;
        char *child_argv[] = {(char *)program, NULL};
        if (posix_spawn(&pid, program, &actions, NULL, child_argv, environ) != 0) return 2;
        posix_spawn_file_actions_destroy(&actions);
        close(in);
        close(pipefd[1]);
        ssize_t n = read_all(pipefd[0], out, sizeof out);
        close(pipefd[0]);
        int status;
        if (n < 0 || waitpid(pid, &status, 0) != pid) return 2;
        snprintf(path, sizeof path, "%s/%ld.ans", dir, i);
        int a = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t m = a < 0 ? -1 : read_all(a, ans, sizeof ans);
        if (a >= 0) close(a);
        if (m != n || memcmp(out, ans, (size_t)n) != 0 || status != 0) wrong = 1;
    }
    return wrong;
}
