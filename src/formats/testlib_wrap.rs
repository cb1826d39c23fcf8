//! testlib programs in C++ as Kattis programs. The program's source is
//! kept as it is (`testlib_program.h`, its `main` the real `main`), the
//! headers beside it (testlib.h) are copied along, and `main.cpp` includes
//! it after a static object whose constructor runs before `main`: it forks,
//! the child runs the testlib program with the arguments testlib expects
//! (a checker and an interactor re-executed through `/proc/self/exe` with
//! them; a validator goes on into `main` with the Kattis flags, where
//! testlib reads `--testset`/`--group`), and the parent maps the child's
//! exit status to Kattis'. So every way the program ends counts: testlib's
//! `quit` paths, a `return` or falling off the end of `main`, `exit`, a
//! signal; and nothing depends on glibc (`on_exit`) or on a testlib
//! version's internals (POSIX `fork`/`execv`/`waitpid` only; builds with
//! musl and clang).
//!
//! A checker's or interactor's 0 → 42 (accepted), testlib's WA, PE, dirt
//! and unexpected EOF (1, 2, 4, 8) → 43, `quitp` (7, `points X` in the
//! message) and `_pc` as TESTSYS numbers it (50–150) → 42 with
//! score_multiplier.txt, anything else (3 = `_fail`, a signal) → 1, a
//! judge error; a validator's 0 → 42 (valid), another exit code → 43, a
//! signal → 1.

use crate::formats::error::ExportError;
use std::path::Path;

/// Which testlib program is wrapped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `checker input output answer` → `validator input answer feedback_dir < output`.
    Checker,
    /// `interactor input tout answer` → `validator input answer feedback_dir`,
    /// the submission on the standard streams.
    Interactor,
    /// `validator [flags] < input` with 42/43.
    Validator,
}

/// Write the wrapped program into `dir` (a Kattis program folder):
/// `main.cpp`, `testlib_program.h` and the headers beside `source`.
pub fn write(role: Role, source: &Path, dir: &Path) -> Result<(), ExportError> {
    std::fs::create_dir_all(dir).map_err(ExportError::io(dir, ""))?;
    let copy = |from: &Path, to: &Path| {
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(ExportError::io(from, "cannot copy"))
    };
    copy(source, &dir.join("testlib_program.h"))?;
    if let Some(parent) = source.parent() {
        let entries = std::fs::read_dir(parent).map_err(ExportError::io(parent, ""))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let header = path
                .extension()
                .is_some_and(|x| x == "h" || x == "hpp" || x == "hh");
            if header && path.is_file() {
                copy(&path, &dir.join(entry.file_name()))?;
            }
        }
    }
    let main = match role {
        Role::Checker => CHECKER_MAIN,
        Role::Interactor => INTERACTOR_MAIN,
        Role::Validator => VALIDATOR_MAIN,
    };
    let text = format!("{HEAD}{main}{TAIL}");
    std::fs::write(dir.join("main.cpp"), text).map_err(ExportError::io(dir, ""))
}

/// Whether `path` is a C++ source the wrapper can include.
pub fn is_cpp(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x == "cpp" || x == "cc" || x == "cxx" || x == "c++")
}

const HEAD: &str = r#"/* A testlib program as a Kattis program (written by judge export). The
 * program is testlib_program.h, unchanged. Before its main runs, the
 * constructor below forks: the child runs the program the way testlib
 * expects, the parent waits and turns the child's exit status into a
 * Kattis exit code. POSIX only (no glibc extension). */
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace judge_wrap {

static const char *const CHILD = "JUDGE_TESTLIB_WRAPPED";

[[noreturn]] inline void fail(const char *what) {
    std::fprintf(stderr, "judge testlib wrapper: %s: %s\n", what, std::strerror(errno));
    std::fflush(stderr);
    _exit(1);
}

/* The command line, from /proc/self/cmdline (main's argv is not ours yet). */
inline std::vector<std::string> arguments() {
    std::vector<std::string> out;
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0) fail("/proc/self/cmdline");
    std::string all;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) all.append(buf, size_t(n));
    close(fd);
    size_t at = 0;
    while (at < all.size()) {
        size_t end = all.find('\0', at);
        if (end == std::string::npos) end = all.size();
        out.push_back(all.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

/* Wait for the child; its exit code, or -1 when a signal ended it. */
inline int wait_for(pid_t child) {
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) fail("waitpid");
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    std::fprintf(stderr, "judge testlib wrapper: the program was ended by signal %d\n",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* The child: testlib's arguments, its messages into judgemessage.txt. */
[[noreturn]] inline void run_as(const std::vector<std::string> &args, int message) {
    if (message >= 0 && dup2(message, 2) < 0) fail("dup2");
    std::vector<char *> argv;
    for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    setenv(CHILD, "1", 1);
    execv("/proc/self/exe", argv.data());
    fail("execv /proc/self/exe");
}

/* A checker's or interactor's exit code as Kattis'. */
[[noreturn]] inline void feedback_exit(int code, const std::string &dir) {
    double fraction = -1;
    if (code == 7) {
        std::string path = dir + "/judgemessage.txt";
        FILE *m = std::fopen(path.c_str(), "r");
        char line[4096];
        while (m && std::fgets(line, sizeof line, m))
            if (std::strncmp(line, "points ", 7) == 0) fraction = std::atof(line + 7);
        if (m) std::fclose(m);
    } else if (code >= 50 && code <= 150) {
        fraction = (code - 50) / 100.0;
    }
    if (fraction >= 0 && fraction <= 1) {
        std::string path = dir + "/score_multiplier.txt";
        FILE *f = std::fopen(path.c_str(), "w");
        if (!f) fail("score_multiplier.txt");
        std::fprintf(f, "%.9g\n", fraction);
        std::fclose(f);
        _exit(42);
    }
    bool rejected = code == 1 || code == 2 || code == 4 || code == 8;
    _exit(code == 0 ? 42 : rejected ? 43 : 1);
}

/* `input answer feedback_dir [flags]` from Kattis: the feedback dir and
 * judgemessage.txt opened for the child's stderr. */
inline int open_message(const std::vector<std::string> &args) {
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: %s input answer feedback_dir\n",
                     args.empty() ? "validator" : args[0].c_str());
        _exit(1);
    }
    std::string path = args[3] + "/judgemessage.txt";
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) fail(path.c_str());
    return fd;
}

static void start();

struct Start {
    Start() {
        if (std::getenv(CHILD) == nullptr) start();
    }
};

} // namespace judge_wrap
"#;

const CHECKER_MAIN: &str = r#"
/* Kattis: `checker input answer feedback_dir < output`; testlib:
 * `checker input output answer`. The output is copied to
 * feedback_dir/team_output first. */
namespace judge_wrap {
static void start() {
    std::vector<std::string> args = arguments();
    int message = open_message(args);
    std::string out = args[3] + "/team_output";
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) fail(out.c_str());
    char buf[1 << 16];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("reading the output");
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(fd, buf + done, size_t(n - done));
            if (w < 0) fail(out.c_str());
            done += w;
        }
    }
    close(fd);
    std::fflush(nullptr);
    pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) run_as({args[0], args[1], out, args[2]}, message);
    close(message);
    feedback_exit(wait_for(child), args[3]);
}
} // namespace judge_wrap
"#;

const INTERACTOR_MAIN: &str = r#"
/* Kattis: `interactor input answer feedback_dir`, the submission on the
 * standard streams; testlib: `interactor input tout answer`. */
namespace judge_wrap {
static void start() {
    std::vector<std::string> args = arguments();
    int message = open_message(args);
    std::string tout = args[3] + "/interactor_output";
    std::fflush(nullptr);
    pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) run_as({args[0], args[1], tout, args[2]}, message);
    /* The submission sees the end of its input when the interactor ends,
     * not when this waiting parent does. */
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        close(null);
    }
    close(message);
    feedback_exit(wait_for(child), args[3]);
}
} // namespace judge_wrap
"#;

const VALIDATOR_MAIN: &str = r#"
/* Kattis: `validator [flags] < input` with 42/43; the child goes on into
 * main with the flags (testlib reads --testset and --group from them). */
namespace judge_wrap {
static void start() {
    std::fflush(nullptr);
    pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) return;
    int code = wait_for(child);
    _exit(code == 0 ? 42 : code < 0 ? 1 : 43);
}
} // namespace judge_wrap
"#;

const TAIL: &str = r#"
static judge_wrap::Start judge_wrap_start;

#include "testlib_program.h"
"#;
