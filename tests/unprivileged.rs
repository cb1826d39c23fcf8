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
