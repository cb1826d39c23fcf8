//! Kattis-style problem packages as they are: `judge run PKG`, `judge run`
//! inside one, a judge.toml entry pointing at one, the default output
//! validator's flags, and `judge validate PKG` catching an invalid input,
//! a weak input validator and a weak output validator.

mod common;
use common::*;

/// A strict A+B input validator, Kattis exit codes (42 valid, 43 invalid).
const STRICT_VALIDATOR_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
static int c;
static void next(void) { c = getchar(); }
static void fail(const char *why) { fprintf(stderr, "%s\n", why); exit(43); }
static long number(long lo, long hi) {
    long v = 0; int neg = 0, digits = 0;
    if (c == '-') { neg = 1; next(); }
    if (c == '0') { next(); if ((c >= '0' && c <= '9') || neg) fail("leading zero"); return 0; }
    while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); if (++digits > 12) fail("too long"); next(); }
    if (!digits) fail("expected a number");
    if (neg) v = -v;
    if (v < lo || v > hi) fail("out of range");
    return v;
}
static void expect(int ch, const char *why) { if (c != ch) fail(why); next(); }
int main(void) {
    next();
    long t = number(1, 100);
    expect('\n', "expected the end of line 1");
    for (long i = 0; i < t; i++) {
        number(-1000000000, 1000000000);
        expect(' ', "expected one space");
        number(-1000000000, 1000000000);
        expect('\n', "expected the end of a line");
    }
    if (c != EOF) fail("expected the end of the file");
    return 42;
}
"#;

/// A Kattis output validator comparing every token; it insists on the
/// `--tokens` flag from problem.yaml's validator_flags.
const COMPARE_C: &str = r#"
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[4], "--tokens") != 0) return 1;
    FILE *ans = fopen(argv[2], "r");
    char path[4096];
    snprintf(path, sizeof path, "%sjudgemessage.txt", argv[3]);
    FILE *msg = fopen(path, "w");
    if (!ans || !msg) return 1;
    char a[256], o[256];
    for (int i = 0;; i++) {
        int ra = fscanf(ans, "%255s", a), ro = scanf("%255s", o);
        if (ra != 1 && ro != 1) { fprintf(msg, "%d tokens match\n", i); return 42; }
        if (ra != 1) { fprintf(msg, "extra output after token %d: %s\n", i, o); return 43; }
        if (ro != 1) { fprintf(msg, "the output ends after %d tokens; expected %s\n", i, a); return 43; }
        if (strcmp(a, o) != 0) { fprintf(msg, "token %d: expected %s, found %s\n", i + 1, a, o); return 43; }
    }
}
"#;

/// A+B data in a package: one sample, three secret cases.
fn package_data(s: &Scratch, pkg: &str) {
    ab_package_data(s, pkg);
    s.write(&format!("{pkg}/data/secret/10.in"), "1\n-5 5\n");
    s.write(&format!("{pkg}/data/secret/10.ans"), "0\n");
}

/// A package with a custom output validator (a C source in a program
/// directory) and a strict input validator.
fn custom_package(s: &Scratch, pkg: &str) {
    s.write(
        &format!("{pkg}/problem.yaml"),
        "name: A plus B\nsource: a test\nlicense: cc by-sa\nvalidation: custom\nvalidator_flags: --tokens\nlimits:\n  time_limit: 2\n  memory: 512\n  time_multiplier: 5\n",
    );
    package_data(s, pkg);
    s.write(
        &format!("{pkg}/input_validators/strict/validate.c"),
        STRICT_VALIDATOR_C,
    );
    s.write(
        &format!("{pkg}/output_validators/compare/compare.c"),
        COMPARE_C,
    );
}

fn names(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["case"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn judge_run_on_a_package_directory() {
    let s = Scratch::new();
    custom_package(&s, "pkg");
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "--format", "json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    let report = ran.json();
    assert_eq!(ran.code, 0, "{report:#}\n{}", ran.stderr);
    assert_eq!(
        names(&report),
        ["sample/1.in", "secret/1.in", "secret/2.in", "secret/10.in"],
        "samples first, natural order inside"
    );
    assert_eq!(report["cases"][1]["message"], "2 tokens match");
    let problem = &report["problems"][0];
    assert_eq!(problem["name"], "pkg");
    assert_eq!(problem["check"], "checker");
    assert_eq!(problem["time_limit_ms"], 2000.0);
    assert_eq!(problem["memory_limit_kib"], 512 * 1024);

    // A wrong submission: WA with the validator's judgemessage.
    let wrong = build("c", "wrong_on_seven", WRONG_ON_SEVEN_C);
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "--format", "json", "--submission"])
        .arg(&wrong);
    let ran = run(cmd);
    let report = ran.json();
    assert_eq!(ran.code, 1);
    let c = &report["cases"][2];
    assert_eq!(
        (&c["case"], &c["verdict"]),
        (&"secret/2.in".into(), &"WA".into())
    );
    assert_eq!(c["message"], "token 1: expected 14, found 49");

    // Inside the package with no arguments, and a part of its data.
    let mut cmd = s.judge();
    cmd.current_dir(s.path().join("pkg"))
        .args(["run", "--format", "json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.json()["summary"]["AC"], 4);
    let mut cmd = s.judge();
    cmd.args(["run", "pkg/data/secret", "--format", "json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(
        names(&ran.json()),
        ["secret/1.in", "secret/2.in", "secret/10.in"]
    );
}

#[test]
fn a_judge_toml_entry_names_a_package_and_overrides_it() {
    let s = Scratch::new();
    custom_package(&s, "problems/ab");
    s.write(
        "judge.toml",
        "[problem.ab]\npackage = \"problems/ab\"\ntime_limit = \"3s\"\n",
    );
    let mut cmd = s.judge();
    cmd.arg("list");
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let row = ran.stdout.lines().find(|l| l.starts_with("ab")).unwrap();
    assert!(
        row.contains("package")
            && row.contains("checker (kattis)")
            && row.contains(" 4 ")
            && row.contains("3s")
            && row.contains("512MiB"),
        "{row}"
    );
    let ab = build("c", "ab", AB_C);
    for args in [vec!["run"], vec!["run", "problems/ab"]] {
        let mut cmd = s.judge();
        cmd.args(args)
            .args(["--format", "json", "--submission"])
            .arg(&ab);
        let ran = run(cmd);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        let report = ran.json();
        assert_eq!(report["summary"]["AC"], 4, "{report:#}");
        assert_eq!(report["problems"][0]["name"], "ab");
        assert_eq!(report["problems"][0]["time_limit_ms"], 3000.0);
    }
    // A package that does not parse is a configuration error naming it.
    s.write("problems/ab/problem.yaml", "limits:\n  memory: [1, 2\n");
    let mut cmd = s.judge();
    cmd.arg("list");
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("judge.toml:2:11: problem.ab.package: ")
            && ran.stderr.contains("problem.yaml:"),
        "{}",
        ran.stderr
    );
}

#[test]
fn default_validator_flags_float_tolerance_and_case() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "validator_flags: float_tolerance 1e-3\n",
    );
    s.write("pkg/data/secret/close.in", "3.0004\n");
    s.write("pkg/data/secret/close.ans", "3\n");
    s.write("pkg/data/secret/far.in", "3.1\n");
    s.write("pkg/data/secret/far.ans", "3\n");
    s.write("pkg/data/secret/yes.in", "YES\n");
    s.write("pkg/data/secret/yes.ans", "yes\n");
    s.write("pkg/data/secret/spaces.in", "yes   no\n\n");
    s.write("pkg/data/secret/spaces.ans", "yes no\n");
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "--format", "json", "--submission", "cat"]);
    let report = run(cmd).json();
    let verdicts: Vec<(&str, &str)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["case"].as_str().unwrap(), c["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("secret/close.in", "AC"),
            ("secret/far.in", "WA"),
            ("secret/spaces.in", "AC"),
            ("secret/yes.in", "AC"),
        ],
        "{report:#}"
    );
    assert_eq!(report["problems"][0]["check"], "tokens");
    // case_sensitive and space_change_sensitive.
    s.write(
        "pkg/problem.yaml",
        "validation: default\nvalidator_flags: case_sensitive space_change_sensitive\n",
    );
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "pkg",
        "--format",
        "json",
        "--submission",
        "cat",
        "--filter",
        "secret/[sy]*",
    ]);
    let report = run(cmd).json();
    assert_eq!(report["cases"][0]["verdict"], "PE", "{report:#}");
    assert_eq!(report["cases"][1]["verdict"], "WA", "{report:#}");
}

#[test]
fn validate_a_package_catches_an_invalid_input_and_weak_tools() {
    let s = Scratch::new();
    s.write("pkg/problem.yaml", "name: A plus B\nvalidation: custom\n");
    package_data(&s, "pkg");
    s.write("pkg/data/secret/bad.in", "2\n1 2\n");
    s.write("pkg/data/secret/bad.ans", "3\n");
    s.write("pkg/input_validators/strict.c", STRICT_VALIDATOR_C);
    s.script(
        "pkg/input_validators/weak.sh",
        r#"read t || exit 43
case "$t" in ''|*[!0-9]*) echo "T is not a number" >&2; exit 43 ;; esac
exit 42"#,
    );
    // Compares the first token only.
    s.script(
        "pkg/output_validators/first.sh",
        r#"read got rest
read want rest < "$2"
[ "$got" = "$want" ] && exit 42
echo "the first token differs" > "$3judgemessage.txt"
exit 43"#,
    );
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = &ran.stdout;
    assert_eq!(ran.code, 1, "{out}\n{}", ran.stderr);
    assert!(
        out.contains("pkg/data/secret/bad.in: invalid (input validator input_validators/strict.c): expected a number"),
        "{out}"
    );
    assert!(!out.contains("input_validators/strict.c accepted"), "{out}");
    assert!(
        out.contains("pkg: input validator input_validators/weak.sh: 5 inputs checked, 0 invalid;"),
        "{out}"
    );
    assert!(
        out.contains("warning: pkg: input validator input_validators/weak.sh accepted a mutated sample/1.in: the last line (line 2) dropped; a validator should reject it"),
        "{out}"
    );
    assert!(
        out.contains("warning: pkg: checker output_validators/first.sh accepted a mutated answer of sample/1.in as an output: \"junk\" appended; a checker should reject it"),
        "{out}"
    );
    assert!(
        out.contains("pkg: checker output_validators/first.sh (kattis): 4 answer files given as outputs, 4 accepted"),
        "{out}"
    );
    assert!(out.contains("validated 9 files: 1 error,"), "{out}");
}

/// `judge run PKG/data/secret` through a `data/` that is a symlink into a
/// store of test data: the package's rules (here its float tolerance)
/// still apply.
#[test]
fn a_symlinked_data_directory_belongs_to_its_package() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "name: Close\nvalidator_flags: float_tolerance 1e-3\n",
    );
    s.write("store/secret/1.in", "1\n");
    s.write("store/secret/1.ans", "12\n");
    std::os::unix::fs::symlink("../store", s.path().join("pkg/data")).unwrap();
    // A store outside the package is followed when every user may read it
    // (the scratch directory itself is the tester's alone)…
    use std::os::unix::fs::PermissionsExt;
    let closed = |mode| std::fs::set_permissions(s.path(), std::fs::Permissions::from_mode(mode));
    closed(0o700).unwrap();
    let refused = s.run_judge(&[
        "run",
        "pkg/data/secret",
        "--submission",
        "echo 12.0001",
        "-q",
    ]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("leads outside the package")
            && refused.stderr.contains("chmod -R o+rX"),
        "{}",
        refused.stderr
    );
    closed(0o755).unwrap();
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "pkg/data/secret",
        "--submission",
        "echo 12.0001",
        "-q",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        !ran.stderr.contains("no judge.toml or problem package"),
        "{}",
        ran.stderr
    );
}

/// `limits.time_multipliers`: an `ac_to_time_limit` below 1 is refused
/// (the spec: a float >= 1), and a multiplier the judge does not use
/// (`time_limit_to_tle`) is named, not silently dropped.
#[test]
fn time_multipliers_are_checked_and_named() {
    let s = Scratch::new();
    package_data(&s, "pkg");
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 1\n  time_multipliers:\n    time_limit_to_tle: 1.5\n",
    );
    let ran = s.run_judge(&["run", "pkg", "--submission", "cat"]);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        out.contains("limits.time_multipliers.time_limit_to_tle: not acted on"),
        "{out}"
    );
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 0.5\n",
    );
    let ran = s.run_judge(&["run", "pkg", "--submission", "cat"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("ac_to_time_limit: 0.5 is below 1"),
        "{}",
        ran.stderr
    );
}

/// A typo'd key is unknown, said with the nearest known key, in every
/// file of the package the judge reads; a known key the judge does not
/// do keeps its own words; and `-q` keeps the warning (`judge --help`:
/// errors, warnings and the final line).
#[test]
fn an_unknown_key_is_named_with_a_suggestion_even_with_q() {
    let s = Scratch::new();
    package_data(&s, "pkg");
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Sum\ntime_limt: 1\nlanguages: all\nlimits:\n  memroy: 512\n",
    );
    s.write(
        "pkg/data/secret/test_group.yaml",
        "output_validator_arg: x\n",
    );
    for quiet in [false, true] {
        let mut args = vec!["run", "pkg", "--submission", "cat"];
        if quiet {
            args.push("-q");
        }
        let ran = s.run_judge(&args);
        let out = format!("{}{}", ran.stdout, ran.stderr);
        for said in [
            "problem.yaml: unknown key `time_limt` (did you mean `limits.time_limit`?); ignored",
            "problem.yaml: limits: unknown key `memroy` (did you mean `memory`?); ignored",
            "test_group.yaml: unknown key `output_validator_arg` (did you mean `output_validator_args`?); ignored",
            "problem.yaml: languages: not acted on",
        ] {
            assert!(out.contains(said), "-q {quiet}: {said}\n{out}");
        }
        assert!(!out.contains("time_limt: not acted on"), "{out}");
    }
}
