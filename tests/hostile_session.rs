//! Item 1 of the hostile corpus under a terminal: `tests/attacks.rs` runs
//! every judge without one, so `tests/hostile/controlling_terminal.c`
//! cannot show there that a program is kept off the operator's terminal.
//! Here the judge runs as an operator's shell would start it: the leader
//! of a session whose controlling terminal is a pseudo-terminal. A program
//! of the judge's (the submission, and a trusted checker) must not be able
//! to open `/dev/tty`, nor push keystrokes into the terminal (TIOCSTI).

mod common;
use common::*;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

/// Run `command` as the leader of a new session whose controlling
/// terminal is a fresh pseudo-terminal (its standard streams stay as the
/// command has them). The terminal's master is held until it ends.
fn run_on_a_terminal(mut command: Command) -> Ran {
    let (master, slave) = pty();
    let master = OwnedFd::from(master);
    let slave_fd = slave.as_raw_fd();
    // SAFETY: setsid and ioctl between fork and exec, on a descriptor
    // the child inherited.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 || libc::ioctl(slave_fd, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let ran = run(command);
    drop((slave, master));
    ran
}

/// The setup is sound: a program started the ordinary way from a process
/// on a terminal can open `/dev/tty` (so the judge's can, unless it stops
/// them).
#[test]
fn a_plain_child_of_a_terminal_session_can_open_dev_tty() {
    let mut c = Command::new("sh");
    c.args(["-c", "exec 3<>/dev/tty && echo opened"]);
    let ran = run_on_a_terminal(c);
    assert_eq!(ran.stdout.trim(), "opened", "{}", ran.stderr);
}

fn cases(s: &Scratch) {
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
}

fn the_submission_cannot_reach_the_terminal(unprivileged: bool) {
    let s = Scratch::new();
    cases(&s);
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/controlling_terminal.c"),
    )
    .unwrap();
    let program = build("c", "controlling_terminal", &source);
    let mut c = if unprivileged {
        let copy = s.path().join("bin/attack");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&program, &copy).unwrap();
        let c = unprivileged_judge(&s);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        (c, copy)
    } else {
        (s.judge(), program)
    };
    c.0.env("TMPDIR", &tmp).args([
        "run",
        "--problem",
        "sum",
        "--check",
        "tokens",
        "cases",
        "--format",
        "json",
        "--submission",
    ]);
    c.0.arg(&c.1);
    let ran = run_on_a_terminal(c.0);
    let report = ran.json();
    let case = &report["cases"][0];
    // WA: the program ran, and none of its ways to the terminal worked.
    assert_eq!(case["verdict"], "WA", "{case:#}\n{}", ran.stderr);
    assert_eq!(leftovers(&tmp), Vec::<String>::new());
}

#[test]
fn a_submission_cannot_reach_the_operators_terminal_as_the_tester() {
    the_submission_cannot_reach_the_terminal(false);
}

#[test]
fn a_submission_cannot_reach_the_operators_terminal_unprivileged() {
    the_submission_cannot_reach_the_terminal(true);
}

/// A trusted tool (a checker of the Kattis protocol) runs in its own
/// session too: this one accepts only when it cannot open `/dev/tty`.
#[test]
fn a_checker_cannot_reach_the_operators_terminal() {
    let s = Scratch::new();
    cases(&s);
    s.script(
        "check.sh",
        "cat >/dev/null\nif (exec 3<>/dev/tty) 2>/dev/null; then exit 43; fi\nexit 42",
    );
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases\"\ncheck = \"checker\"\nchecker = \"./check.sh\"\nchecker_protocol = \"kattis\"\n",
    );
    let answer = s.script("sum.sh", "printf '3\\n7\\n'");
    let mut c = s.judge();
    c.args(["run", "--format", "json", "--submission"])
        .arg(answer);
    let ran = run_on_a_terminal(c);
    let report = ran.json();
    assert_eq!(
        report["cases"][0]["verdict"], "AC",
        "{:#}\n{}",
        report["cases"][0], ran.stderr
    );
}
