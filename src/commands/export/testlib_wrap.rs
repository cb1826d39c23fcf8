//! testlib programs in C++ as Kattis programs: the program's source is
//! included as `testlib_program.h` with its `main` renamed, the headers
//! beside it (testlib.h) are copied along, and a `main` written here calls
//! it with the arguments testlib expects. An `on_exit` handler (glibc)
//! turns testlib's exit code, however the program ends (`quitf` calls
//! `exit`), into Kattis': a checker's or interactor's 0 → 42 (accepted),
//! 1 and 2 (WA, PE) → 43, testlib's partial credit → 42 with
//! score_multiplier.txt, anything else → 1 (a judge error); a validator's
//! 0 → 42 (valid), anything else → 43.

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
pub fn write(role: Role, source: &Path, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let copy = |from: &Path, to: &Path| {
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| format!("{}: cannot copy: {e}", from.display()))
    };
    copy(source, &dir.join("testlib_program.h"))?;
    if let Some(parent) = source.parent() {
        let entries =
            std::fs::read_dir(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
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
    let text = format!("{HEAD}{main}");
    std::fs::write(dir.join("main.cpp"), text).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Whether `path` is a C++ source the wrapper can include.
pub fn is_cpp(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x == "cpp" || x == "cc" || x == "cxx" || x == "c++")
}

const HEAD: &str = r#"/* A testlib program as a Kattis program (written by judge export). The
 * program is testlib_program.h with its main renamed; the exit handler
 * below maps testlib's exit codes to Kattis' however the program ends. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#define main judge_testlib_main
#include "testlib_program.h"
#undef main

static char judge_dir[4096];

static void judge_feedback_exit(int code, void *) {
    std::fflush(stdout);
    std::fflush(stderr);
    double fraction = -1;
    if (code == 7) {
        char path[4200], line[4096];
        std::snprintf(path, sizeof path, "%s/judgemessage.txt", judge_dir);
        FILE *m = std::fopen(path, "r");
        while (m && std::fgets(line, sizeof line, m))
            if (std::strncmp(line, "points ", 7) == 0) fraction = std::atof(line + 7);
        if (m) std::fclose(m);
    } else if (code >= 50 && code <= 150) {
        fraction = (code - 50) / 100.0;
    }
    if (fraction >= 0 && fraction <= 1) {
        char path[4200];
        std::snprintf(path, sizeof path, "%s/score_multiplier.txt", judge_dir);
        FILE *f = std::fopen(path, "w");
        if (!f) _exit(1);
        std::fprintf(f, "%.9g\n", fraction);
        std::fclose(f);
        _exit(42);
    }
    _exit(code == 0 ? 42 : (code == 1 || code == 2) ? 43 : 1);
}

static bool judge_setup(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s input answer feedback_dir\n", argv[0]);
        return false;
    }
    std::snprintf(judge_dir, sizeof judge_dir, "%s", argv[3]);
    char message[4200];
    std::snprintf(message, sizeof message, "%s/judgemessage.txt", judge_dir);
    return std::freopen(message, "w", stderr) != nullptr;
}
"#;

const CHECKER_MAIN: &str = r#"
int main(int argc, char **argv) {
    if (!judge_setup(argc, argv)) return 1;
    static char out[4200];
    std::snprintf(out, sizeof out, "%s/team_output", judge_dir);
    FILE *f = std::fopen(out, "wb");
    if (!f) return 1;
    static char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) std::fwrite(buf, 1, n, f);
    std::fclose(f);
    char *args[] = {argv[0], argv[1], out, argv[2], nullptr};
    on_exit(judge_feedback_exit, nullptr);
    std::exit(judge_testlib_main(4, args));
}
"#;

const INTERACTOR_MAIN: &str = r#"
int main(int argc, char **argv) {
    if (!judge_setup(argc, argv)) return 1;
    static char tout[4200];
    std::snprintf(tout, sizeof tout, "%s/interactor_output", judge_dir);
    char *args[] = {argv[0], argv[1], tout, argv[2], nullptr};
    on_exit(judge_feedback_exit, nullptr);
    std::exit(judge_testlib_main(4, args));
}
"#;

const VALIDATOR_MAIN: &str = r#"
static void judge_validator_exit(int code, void *) {
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code == 0 ? 42 : 43);
}

int main(int argc, char **argv) {
    on_exit(judge_validator_exit, nullptr);
    std::exit(judge_testlib_main(argc, argv));
}
"#;
