// attack: a package's output validator reaches past its own directory
// (tests/hostile_tools.rs). It accepts (42) only when every attempt below
// is refused, and otherwise rejects (43) naming each that worked, so a
// submission the package declares accepted disagrees with its folder.
// Nothing is changed even when an attempt works: files are opened without
// truncation and closed, a created file is removed, a traced process is
// let go at once.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static char worked[4096];

static void note(const char *what) {
    strncat(worked, what, sizeof worked - strlen(worked) - 2);
    strcat(worked, " ");
}

static void try_write(const char *what, const char *path) {
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
        note(what);
        close(fd);
    }
}

static void try_create(const char *what, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/.judge-tool-planted-%d", dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        note(what);
        close(fd);
        unlink(path);
    }
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    char input[4096];
    snprintf(input, sizeof input, "%s", argv[1]);
    try_write("the-answer-file", argv[2]);
    try_write("the-input-file", argv[1]);
    try_create("the-data-directory", dirname(input));
    try_create("/tmp", "/tmp");
    const char *home = getenv("HOME");
    if (home) try_create("HOME", home);
    try_write("core_pattern", "/proc/sys/kernel/core_pattern");
    if (ptrace(PTRACE_SEIZE, getppid(), 0, 0) == 0) {
        ptrace(PTRACE_DETACH, getppid(), 0, 0);
        note("ptrace-of-the-judge");
    }
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s >= 0) {
        note("a-unix-socket");
        close(s);
    }
    char feedback[4096];
    snprintf(feedback, sizeof feedback, "%s/judgemessage.txt", argv[3]);
    FILE *m = fopen(feedback, "w");
    if (worked[0]) {
        if (m) fprintf(m, "escaped: %s\n", worked);
        fprintf(stderr, "escaped: %s\n", worked);
        return 43;
    }
    if (m) fputs("every attempt refused\n", m);
    return 42;
}
