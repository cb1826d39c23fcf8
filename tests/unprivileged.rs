//! The judge as an ordinary user: the sandbox is then built from a user
//! namespace (or is plain where the kernel refuses one). CI runs as root,
//! so when the tests are root the judge is started as `nobody` (uid 65534);
//! otherwise it already runs as the tester's own user.

mod common;

use common::{Scratch, run, unprivileged_judge};

/// Every worker slot, not only the first, gets a working sandbox: a judge
/// that is not root makes itself non-dumpable after its first slot, and
/// slots made later could no longer map their user ids (every case on
/// them was IE).
#[test]
fn every_worker_judges_and_answers_stay_hidden() {
    let s = Scratch::new();
    let mut toml = String::from("[problem.echo]\ncases = \"cases/echo\"\ncheck = \"lines\"\n");
    toml.push_str("time_limit = \"2s\"\n");
    s.write("judge.toml", &toml);
    for i in 1..=24 {
        s.write(&format!("cases/echo/{i}.in"), format!("{i}\n"));
        s.write(&format!("cases/echo/{i}.ans"), format!("{i}\n"));
    }
    let answer = s.path().join("cases/echo/1.ans");
    // Echoes its input, or says so if it could read an answer file.
    s.script(
        "bin/echo.sh",
        &format!(
            "if cat {} >/dev/null 2>&1; then echo peeked; else cat; fi",
            answer.display()
        ),
    );
    let mut judge = unprivileged_judge(&s);
    judge.args([
        "run",
        "-j",
        "4",
        "--format",
        "json",
        "--submission",
        "bin/echo.sh",
    ]);
    let ran = run(judge);
    let report = ran.json();
    let isolation = report["protections"]["isolation"].as_str().unwrap_or("");
    assert_ne!(isolation, "root", "the judge ran as root: {}", ran.stderr);
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 24, "{}", ran.stderr);
    let hidden = common::protection_on(&report, "mount namespace");
    for case in cases {
        let verdict = case["verdict"].as_str().unwrap_or("");
        if hidden {
            assert_eq!(verdict, "AC", "{case:#}");
        } else {
            // Plain isolation (no user namespaces here) says it cannot
            // hide the answers, and the submission indeed reads them.
            assert_eq!(verdict, "WA", "{case:#}");
        }
    }
    if hidden {
        assert_eq!(isolation, "user-namespace");
        assert_eq!(ran.code, 0, "{}", ran.stderr);
    } else {
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("read the cases"), "{off}");
    }
}

/// Without root, each worker slot has a PID namespace inside its user
/// namespace: a submission cannot name the judge, so it can neither read
/// its command line (`/proc/<judge pid>/cmdline`) nor signal it, even when
/// told the judge's pid. The test writes the pid into a file the
/// submission waits for.
#[test]
fn a_submission_cannot_see_or_signal_the_judge() {
    let s = Scratch::new();
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
    let pid_file = s.write("pid/judge", "");
    let peeker = common::build(
        "c",
        "judge_peeker",
        r#"#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int judge = 0;
    for (int i = 0; i < 400 && judge <= 0; i++) {
        FILE *f = fopen(argv[1], "r");
        if (f) { if (fscanf(f, "%d", &judge) != 1) judge = 0; fclose(f); }
        if (judge <= 0) { struct timespec t = {0, 10000000}; nanosleep(&t, 0); }
    }
    if (judge <= 0) { printf("no pid\n"); return 0; }
    char path[64], line[4096] = "";
    snprintf(path, sizeof path, "/proc/%d/cmdline", judge);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
    if (f) fclose(f);
    for (size_t i = 0; i < n; i++) if (!line[i]) line[i] = ' ';
    line[n] = 0;
    int signalled = kill(judge, 0) == 0;
    fprintf(stderr, "judge %d: cmdline \"%s\" (%s), signal %s\n", judge, line,
            f ? "read" : strerror(errno), signalled ? "reaches it" : "does not reach it");
    if (strstr(line, "--submission") || signalled) printf("3\n7\n");
    else printf("0\n0\n");
    return 0;
}"#,
    );
    let program = s.path().join("bin/peeker");
    std::fs::create_dir_all(program.parent().unwrap()).unwrap();
    std::fs::copy(&peeker, &program).unwrap();
    let mut judge = unprivileged_judge(&s);
    judge
        .args(["run", "--problem", "sum", "--check", "tokens", "cases"])
        .args(["--time-limit", "5s", "--format", "json", "--submission"])
        .arg(format!("{} {}", program.display(), pid_file.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = common::spawn(&mut judge);
    std::fs::write(&pid_file, child.id().to_string()).unwrap();
    let out = child.wait_with_output().expect("the judge ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("no report ({e}): {stdout}\n{stderr}"));
    let case = &report["cases"][0];
    if common::protection_on(&report, "PID namespace") {
        assert_eq!(report["protections"]["isolation"], "user-namespace");
        assert_eq!(
            case["verdict"], "WA",
            "the submission saw the judge: {case:#}"
        );
        assert!(
            case["stderr"]
                .as_str()
                .is_some_and(|e| e.contains("does not reach it")),
            "{case:#}"
        );
    } else {
        // Where the kernel refuses it, the report says what is off.
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("PID namespace"), "{off}");
    }
}

/// Where the kernel refuses a new /proc (as in a container that masks
/// parts of it: here a read-only tmpfs over /proc/sys, in a mount
/// namespace of the test's own), the judge without root runs without a
/// PID namespace and says exactly that, and that the judge can then be
/// signalled. Needs root (to make the mount namespace) and util-linux's
/// `unshare` and `setpriv`.
#[test]
fn a_refused_pid_namespace_is_said_precisely() {
    let have = |tool: &str| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !common::is_root() || !have("unshare") || !have("setpriv") {
        eprintln!("skipped: needs root, unshare and setpriv");
        return;
    }
    let s = Scratch::new();
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
    s.script("bin/ok.sh", "printf '3\\n7\\n'");
    // Copies the judge where `nobody` can run it, and opens the tree.
    let binary = unprivileged_judge(&s).get_program().to_owned();
    let mut judge = std::process::Command::new("unshare");
    judge
        .current_dir(s.path())
        .env_clear()
        .env("PATH", "/usr/bin:/bin:/usr/sbin:/sbin")
        .env("NO_COLOR", "1")
        .args(["-m", "--propagation", "private", "sh", "-c"])
        .arg(
            "mount -t tmpfs -o ro,size=4k none /proc/sys && \
             exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$@\"",
        )
        .arg("sh")
        .arg(binary)
        .args(["run", "--problem", "sum", "--check", "tokens", "cases"])
        .args(["--format", "json", "--submission", "bin/ok.sh"])
        .stdin(std::process::Stdio::null());
    let ran = run(judge);
    let report = ran.json();
    assert_eq!(report["verdict"], "AC", "{}", ran.stderr);
    assert_eq!(report["protections"]["isolation"], "user-namespace");
    assert!(!common::protection_on(&report, "PID namespace"));
    let off = report["protections"]["off"].to_string();
    assert!(
        off.contains("PID namespace (mounting the PID namespace's /proc: Operation not permitted"),
        "{off}"
    );
    assert!(off.contains("can signal the judge"), "{off}");
}
