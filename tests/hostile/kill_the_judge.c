// attack: kill the judge, so that no verdict is ever written: SIGKILL to
// its parent (the judge, when it can name it), to every process it may
// signal (kill(-1)), and to every other process it finds in /proc; and
// read each one's command line, looking for the judge's (`--submission`).
// It answers correctly only if a kill reached a process outside its own
// or it saw the judge's command line. The kill(-1) and the /proc spree run
// only where they cannot reach the tester's own session (inside a PID
// namespace, or as a sandbox user of the root judge's uid blocks), so that
// running the corpus by hand in a weaker sandbox does not end your desktop;
// the kill of the parent is always tried.
// setup: plain
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command line of a process, NULs as spaces; "" when unreadable. */
static void command_line(const char *pid, char *out, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
    out[0] = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n < 0) n = 0;
    for (ssize_t i = 0; i < n; i++)
        if (out[i] == 0) out[i] = ' ';
    out[n] = 0;
}

int main(void) {
    int reached = 0, saw_judge = 0;
    pid_t me = getpid(), parent = getppid();
    uid_t uid = getuid();
    int contained = parent == 0 || (uid >= 61000 && uid < 65534);
    if (parent > 1 && kill(parent, SIGKILL) == 0) reached++;
    DIR *proc = opendir("/proc");
    struct dirent *e;
    while (proc && (e = readdir(proc)) != NULL) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 1 || pid == me) continue;
        char cmd[4096];
        command_line(e->d_name, cmd, sizeof cmd);
        if (strstr(cmd, "--submission")) saw_judge = 1;
        if (contained && kill(pid, SIGKILL) == 0) reached++;
    }
    if (proc) closedir(proc);
    if (contained && kill(-1, SIGKILL) == 0) reached++;
    fprintf(stderr, "reached %d, saw the judge: %d, parent %d\n", reached, saw_judge, (int)parent);
    if (reached || saw_judge)
        printf("3\n7\n");
    else
        printf("0\n0\n");
    return 0;
}
