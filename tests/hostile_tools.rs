//! The package's own programs are contained (SECURITY.md, "Package
//! programs"): an output validator of a hostile package tries to write
//! the package's answer and input files, plant files in its data
//! directory, /tmp and HOME, open `core_pattern` for writing, trace the
//! judge and open a Unix socket. It accepts only when every attempt is
//! refused, so a submission the package declares accepted agrees only
//! then. Run as the tests' user (root in CI) and unprivileged.
//!
//! `HOSTILE_TOOLS_JUDGE=/path/to/judge` runs another judge binary instead
//! (an older judge lets every attempt through, and as root is stopped by
//! the trace).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn package(s: &Scratch) {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/tools/escape_validator.c"),
    )
    .unwrap();
    assert!(source.starts_with("// attack: "));
    s.write("pkg/problem.yaml", "name: Tools\nvalidation: custom\n");
    s.write("pkg/data/secret/1.in", "1\n");
    s.write("pkg/data/secret/1.ans", "1\n");
    s.write("pkg/output_validators/escape/escape.c", source);
    s.write("pkg/submissions/accepted/echo.sh", "#!/bin/sh\ncat\n");
}

fn judge(s: &Scratch, unprivileged: bool) -> Command {
    let mut c = if unprivileged {
        unprivileged_judge(s)
    } else {
        s.judge()
    };
    if let Some(other) = std::env::var_os("HOSTILE_TOOLS_JUDGE") {
        let mut o = Command::new(other);
        o.current_dir(s.path());
        if unprivileged && is_root() {
            use std::os::unix::process::CommandExt;
            o.uid(NOBODY).gid(NOBODY);
        }
        c = o;
    }
    c
}

fn contained(unprivileged: bool) {
    let s = Scratch::new();
    package(&s);
    let mut c = judge(&s, unprivileged);
    c.args(["verify", "pkg", "--format", "json"]);
    let ran = run(c);
    let report = ran.json();
    let case = &report["cases"][0];
    assert_eq!(
        case["verdict"], "AC",
        "the validator escaped: {case:#}\nprotections: {:#}\nstderr: {}",
        report["protections"], ran.stderr
    );
    assert!(
        protection_on(&report, "package programs"),
        "{:#}",
        report["protections"]
    );
    assert_eq!(s.read("pkg/data/secret/1.ans"), "1\n");
    assert_eq!(s.read("pkg/data/secret/1.in"), "1\n");
}

#[test]
fn a_packages_validator_reaches_nothing_but_its_directory_as_the_tester() {
    contained(false);
}

#[test]
fn a_packages_validator_reaches_nothing_but_its_directory_unprivileged() {
    contained(true);
}
