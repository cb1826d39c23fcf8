//! Numbers a package file or a flag gives (issue 27, item 8): `1e300`,
//! negatives, NaN, infinities and zero where a time, a size or a factor is
//! read. Each is a configuration error (exit 2) naming the file and the key
//! and the range expected (a time limit file's is a warning, the file
//! passed over; a generators.yaml `retries` past 1000 is capped, said);
//! never a panic (`cannot convert float seconds to
//! Duration`, exit 101), never an allocation the size of the number.

mod common;
use common::*;

/// A package `pkg` with one case, and `problem.yaml` as given.
fn package(s: &Scratch, problem_yaml: &str) {
    s.write("pkg/problem.yaml", problem_yaml);
    s.write("pkg/data/secret/1.in", "1 2\n");
    s.write("pkg/data/secret/1.ans", "3\n");
    s.write(
        "pkg/submissions/accepted/cat.sh",
        "#!/bin/sh\nread a b\necho $((a + b))\n",
    );
}

fn assert_config_error(ran: &Ran, file: &str, key: &str, what: &str) {
    assert!(
        !ran.stderr.contains("panicked"),
        "{what}: a panic\n{}",
        ran.stderr
    );
    assert_eq!(ran.code, 2, "{what}: exit 2 expected\n{}", ran.stderr);
    assert!(
        ran.stderr.contains(file) && ran.stderr.contains(key),
        "{what}: the message must name {file} and {key}:\n{}",
        ran.stderr
    );
}

#[test]
fn problem_yaml_numbers_out_of_range_are_named_errors() {
    let legacy = "name: Sum\n";
    let v2023 = "problem_format_version: 2023-07-draft\nname: Sum\n";
    let v2025 = "problem_format_version: 2025-09\nname: Sum\n";
    let cases: &[(&str, &str, &str)] = &[
        (
            legacy,
            "limits:\n  time_limit: 1e300\n",
            "limits.time_limit",
        ),
        (v2025, "limits:\n  time_limit: -1\n", "limits.time_limit"),
        (v2025, "limits:\n  time_limit: .nan\n", "limits.time_limit"),
        (v2025, "limits:\n  time_limit: .inf\n", "limits.time_limit"),
        (v2023, "limits:\n  time_limit: 0\n", "limits.time_limit"),
        (
            v2023,
            "limits:\n  time_multipliers:\n    ac_to_time_limit: 1e300\n",
            "ac_to_time_limit",
        ),
        (
            v2025,
            "limits:\n  time_multipliers:\n    ac_to_time_limit: .nan\n",
            "ac_to_time_limit",
        ),
        (
            legacy,
            "limits:\n  time_multiplier: 1e300\n",
            "limits.time_multiplier",
        ),
        (
            v2025,
            "limits:\n  time_resolution: 1e-300\n",
            "limits.time_resolution",
        ),
        (v2025, "limits:\n  memory: 1e300\n", "limits.memory"),
        (v2025, "limits:\n  memory: 0.5\n", "limits.memory"),
        (v2025, "limits:\n  output: -5\n", "limits.output"),
        (
            v2025,
            "limits:\n  validation_time: 1e300\n",
            "limits.validation_time",
        ),
    ];
    for (head, limits, key) in cases {
        let s = Scratch::new();
        package(&s, &format!("{head}{limits}"));
        let what = format!("{head}{limits}");
        let ran = s.run_judge(&["run", "pkg", "--submission", "cat"]);
        assert_config_error(&ran, "problem.yaml", key, &what);
        assert!(
            ran.stderr.contains("out of range"),
            "{what}: {}",
            ran.stderr
        );
        let ran = s.run_judge(&["verify", "pkg"]);
        assert_config_error(&ran, "problem.yaml", key, &format!("verify: {what}"));
    }
}

#[test]
fn time_limit_files_out_of_range_are_warned_and_passed_over() {
    // A `.timelimit` or `domjudge-problem.ini` timelimit (files
    // problemtools does not read and BAPCtools calls deprecated) is warned
    // and passed over (issue 43): never a panic, never the whole package
    // refused.
    for (file, text) in [
        (".timelimit", "1e300\n"),
        (".timelimit", "-3\n"),
        (".timelimit", "fast\n"),
        ("domjudge-problem.ini", "timelimit='1e300'\n"),
        ("domjudge-problem.ini", "timelimit=nan\n"),
    ] {
        let s = Scratch::new();
        package(&s, "name: Sum\n");
        s.write(&format!("pkg/{file}"), text);
        let ran = s.run_judge(&["run", "pkg", "--submission", "cat"]);
        let said = format!("exit {}\n{}{}", ran.code, ran.stdout, ran.stderr);
        assert!(!said.contains("panicked"), "{text}: {said}");
        assert_ne!(ran.code, 2, "{text}: {said}");
        assert!(
            said.contains(file)
                && said.contains("expected a number of seconds")
                && said.contains("not used"),
            "{text}: {said}"
        );
    }
}

#[test]
fn flags_out_of_range_are_usage_errors() {
    let s = Scratch::new();
    package(&s, "name: Sum\n");
    for args in [
        &[
            "run",
            "pkg",
            "--submission",
            "cat",
            "--time-limit",
            "1e300s",
        ][..],
        &[
            "run",
            "pkg",
            "--submission",
            "cat",
            "--time-limit",
            "99999999999s",
        ],
        &["verify", "pkg", "--margin", "1e300"],
        &["verify", "pkg", "--margin", "NaN"],
    ] {
        let ran = s.run_judge(args);
        assert!(!ran.stderr.contains("panicked"), "{args:?}: {}", ran.stderr);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
    }
}

#[test]
fn generators_yaml_numbers_out_of_range_are_named_errors() {
    // A count BAPCtools cannot number the file past: the whole file's
    // error (a `retries` past the cap is a warning, below).
    let case = "      - big:\n          generate: gen.sh {seed}\n          count: \"-9223372036854775808..=9223372036854775807\"\n";
    let s = Scratch::new();
    package(&s, "name: Sum\n");
    s.script("pkg/generators/gen.sh", "echo 1 2");
    s.write(
        "pkg/generators/generators.yaml",
        format!("solution: /submissions/accepted/cat.sh\ndata:\n  secret:\n    data:\n{case}"),
    );
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_config_error(&ran, "generators.yaml", "count", case);
}

#[test]
fn a_retries_past_the_judges_cap_is_warned_and_capped() {
    // BAPCtools takes any whole number above 0; the judge tries at most
    // 1000 times, says so and makes the case (issue 43: not a refusal).
    let s = Scratch::new();
    package(&s, "name: Sum\n");
    s.script("pkg/generators/gen.sh", "echo 1 2");
    s.write(
        "pkg/generators/generators.yaml",
        "solution: /submissions/accepted/cat.sh\ndata:\n  secret:\n    data:\n      - big:\n          generate: gen.sh {seed}\n          retries: 4294967296\n",
    );
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "generators.yaml:7: data/secret/big: retries: 4294967296: more than the judge's 1000, 1000 used"
        ),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_merged_report_with_a_time_of_1e300_does_not_panic() {
    let s = Scratch::new();
    let report = r#"{"cases":[],"verdict":"AC","summary":{},"total":0,"jobs":1,"programs":[],"problems":[],"protections":{"isolation":"plain","on":[],"off":[]},"interrupted":false,"elapsed_ms":1e300,"version":1}"#;
    s.write("a.json", report);
    for format in ["json", "junit", "human"] {
        let ran = s.run_judge(&["merge", "a.json", "--format", format]);
        assert!(
            !ran.stderr.contains("panicked") && ran.code != 101,
            "{format}: {}",
            ran.stderr
        );
    }
}
