/* What the floor programs share: spawn a program with stdin from a file
 * and stdout into a pipe, read all it prints, wait for it. No limits, no
 * sandbox: the least a judge can do to run a program once.
 */
#ifndef SPAWN_READ_H
#define SPAWN_READ_H
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Read `fd` to its end or until `cap` bytes; -1 on an error. */
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

/* Run argv with stdin from `in` (-1: /dev/null), read its stdout into
 * `out`, wait; the bytes read, or -1 on a system error. The exit status
 * goes to *status. */
static ssize_t spawn_read(char **argv, int in, char *out, size_t cap, int *status) {
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (in >= 0)
        posix_spawn_file_actions_adddup2(&actions, in, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
    pid_t pid;
    int failed = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipefd[1]);
    if (failed) {
        close(pipefd[0]);
        return -1;
    }
    ssize_t n = read_all(pipefd[0], out, cap);
    close(pipefd[0]);
    if (waitpid(pid, status, 0) != pid) return -1;
    return n;
}
#endif
