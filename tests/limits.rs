//! `judge limits`: a time limit from the accepted submissions, the
//! time_limit_exceeded ones checked against its margin without a second
//! run, `--write` keeping judge.toml's comments; and the same re-grading in
//! `judge verify` ("sensitive to the time limit").

mod common;
use common::*;
use judge::commands::limits::{derive_limit, set_time_limit};
use std::time::Duration;

/// An A+B program that first burns `ms` of CPU time (by its own clock), or
/// forever with `None`.
fn spinner(ms: Option<u32>) -> String {
    let wait = match ms {
        Some(ms) => format!("while (clock() < (clock_t)({ms} * (CLOCKS_PER_SEC / 1000))) x++;"),
        None => "for (;;) x++;".to_string(),
    };
    format!(
        "#include <stdio.h>\n#include <time.h>\nint main(void) {{\n    volatile unsigned long x = 0;\n    {wait}\n    long long t, a, b;\n    if (scanf(\"%lld\", &t) != 1) return 0;\n    while (t-- > 0 && scanf(\"%lld %lld\", &a, &b) == 2) printf(\"%lld\\n\", a + b);\n    return 0;\n}}\n"
    )
}

#[test]
fn rounding_and_writing_keep_the_file() {
    assert_eq!(
        derive_limit(Duration::from_millis(81), 2.0, Duration::from_millis(100)),
        Duration::from_millis(200)
    );
    assert_eq!(
        derive_limit(Duration::from_millis(150), 2.0, Duration::from_millis(100)),
        Duration::from_millis(300),
        "exactly on a step stays there"
    );
    assert_eq!(
        derive_limit(Duration::from_micros(10), 3.0, Duration::from_millis(500)),
        Duration::from_millis(500),
        "at least one step"
    );
    assert_eq!(
        derive_limit(Duration::from_millis(700), 2.0, Duration::from_secs(1)),
        Duration::from_secs(2)
    );
    let text = "# top\ntime_limit = \"1s\"\n\n[problem.a]  # the first\ncases = \"a\"\ntime_limit = \"3s\"   # by hand\n\n[problem.b]\ncases = \"b\"\n";
    let a = set_time_limit(text, "a", Duration::from_millis(200)).unwrap();
    assert_eq!(
        a,
        "# top\ntime_limit = \"1s\"\n\n[problem.a]  # the first\ncases = \"a\"\ntime_limit = \"200ms\"   # by hand\n\n[problem.b]\ncases = \"b\"\n"
    );
    let b = set_time_limit(text, "b", Duration::from_millis(1500)).unwrap();
    assert!(
        b.ends_with("[problem.b]\ncases = \"b\"\ntime_limit = \"1.5s\"\n"),
        "{b}"
    );
    assert!(set_time_limit(text, "c", Duration::from_secs(1)).is_err());
}

#[test]
fn a_limit_from_the_accepted_and_a_sensitive_tle_submission() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "judge.toml",
        "# limits for A+B\n[problem.sum]\ncases = \"cases/sum\"\nsubmissions = \"subs\"\ntime_limit = \"1s\"   # set by hand\n",
    );
    s.write("subs/accepted/fast.c", spinner(Some(80)));
    s.write("subs/time_limit_exceeded/slowish.c", spinner(Some(250)));
    s.write("subs/time_limit_exceeded/forever.c", spinner(None));
    let mut cmd = s.judge();
    cmd.args(["limits", "sum", "--repeat", "2", "--write"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let out = &ran.stdout;
    assert!(
        out.contains("sum: 1 accepted submission on 3 cases, each case run 2 times (min / median)"),
        "{out}"
    );
    assert!(out.contains("  ok   accepted/fast.c: slowest "), "{out}");
    assert!(
        out.contains("rounded up to 200ms (judge.toml has 1s)"),
        "{out}"
    );
    assert!(
        out.contains("  ok   time_limit_exceeded/forever.c: TLE on 3 of 3 cases at 200ms"),
        "{out}"
    );
    assert!(
        out.contains("  ok   time_limit_exceeded/slowish.c: TLE on 3 of 3 cases at 200ms"),
        "{out}"
    );
    // Measured once at the margin (300ms), graded at 200ms: it finishes
    // within the margin, so it is sensitive, with its times.
    let warning = out
        .lines()
        .find(|l| l.starts_with("warning: time_limit_exceeded/slowish.c is sensitive"))
        .expect(out);
    assert!(
        warning.contains("times out at 200ms but finishes within the margin 300ms on 1.in 0.2"),
        "{warning}"
    );
    assert!(!out.contains("forever.c is sensitive"), "{out}");
    assert_eq!(
        s.read("judge.toml"),
        "# limits for A+B\n[problem.sum]\ncases = \"cases/sum\"\nsubmissions = \"subs\"\ntime_limit = \"200ms\"   # set by hand\n"
    );
    // A TLE submission that is fast enough is a disagreement.
    s.write("subs/time_limit_exceeded/quick.c", spinner(Some(1)));
    let mut cmd = s.judge();
    cmd.args(["limits", "sum"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("  FAIL time_limit_exceeded/quick.c: does not time out at 200ms"),
        "{}",
        ran.stdout
    );
}

#[test]
fn verify_grades_at_the_limit_and_names_a_sensitive_submission() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "judge.toml",
        // A generous wall clock: other tests may load the machine.
        "[problem.sum]\ncases = \"cases/sum\"\nsubmissions = \"subs\"\ntime_limit = \"500ms\"\nwall_limit = \"20s\"\n",
    );
    s.write("subs/accepted/ok.c", AB_C);
    s.write("subs/accepted/slowish.c", spinner(Some(600)));
    let mut cmd = s.judge();
    cmd.args(["verify", "--format", "json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    // The table goes to stderr when the report takes stdout.
    let table = &ran.stderr;
    assert!(
        table.contains("FAIL sum/accepted/slowish.c: expected AC; got TLE on 1.in: CPU time 0.6"),
        "{table}"
    );
    assert!(
        table.contains("is over the limit 0.500s (measured at the margin 0.750s, where it was AC)"),
        "{table}"
    );
    let warning = table
        .lines()
        .find(|l| {
            l.starts_with(
                "warning: sum/accepted/slowish.c is sensitive to the time limit: 1.in takes 0.6",
            )
        })
        .expect(table);
    assert!(
        warning.ends_with("TLE at the limit 500ms, AC at the margin 750ms"),
        "{warning}"
    );
    let report = ran.json();
    let slow: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["program"] == "accepted/slowish.c")
        .collect();
    assert_eq!(slow.len(), 3);
    assert!(
        slow.iter()
            .all(|c| c["verdict"] == "TLE" && c["time_limit_ms"] == 500.0)
    );
}
