//! External checkers on real programs: a testlib checker written in C and
//! compiled by the judge from source (every exit code, a crash, a time-out,
//! an undefined code), a Kattis output validator with feedback files,
//! configuration errors, `judge check` with an external checker, and `judge
//! validate` running and probing input validators and checkers.

mod common;
use common::*;
use std::time::{Duration, Instant};

fn case(report: &serde_json::Value, name: &str) -> serde_json::Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["case"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {report:#}"))
        .clone()
}

/// A testlib-protocol checker: `checker IN OUT ANS`. It compares the first
/// token of the output with the answer's, and acts out the other outcomes
/// when the output asks it to.
const TESTLIB_CHECKER_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "FAIL expected 3 arguments, got %d\n", argc - 1); return 3; }
    FILE *in = fopen(argv[1], "r"), *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    if (!in || !out || !ans) { fprintf(stderr, "FAIL cannot open a file\n"); return 3; }
    char o[64] = "", a[64] = "";
    if (fscanf(out, "%63s", o) != 1) { fprintf(stderr, "wrong output format the output is empty\n"); return 2; }
    if (fscanf(ans, "%63s", a) != 1) { fprintf(stderr, "FAIL the answer is empty\n"); return 3; }
    if (!strcmp(o, "segv")) { volatile int *p = 0; *p = 1; }
    if (!strcmp(o, "sleep")) sleep(30);
    if (!strcmp(o, "seven")) { fprintf(stderr, "points 7\n"); return 7; }
    if (!strcmp(o, "fail")) { fprintf(stderr, "FAIL the answer file is broken\n"); return 3; }
    if (!strcmp(o, "pe")) { fprintf(stderr, "\n  wrong output format extra spaces\n"); return 2; }
    if (strcmp(o, a)) { fprintf(stderr, "wrong answer expected %s, found %s\n", a, o); return 1; }
    fprintf(stderr, "ok the answer is %s\n", a);
    return 0;
}
"#;

/// Cases whose input is what the `cat` submission prints.
fn checker_cases(s: &Scratch) {
    for (name, input, answer) in [
        ("ac", "42\n", "42\n"),
        ("wa", "41\n", "42\n"),
        ("pe", "pe\n", "42\n"),
        ("fail", "fail\n", "42\n"),
        ("seven", "seven\n", "42\n"),
        ("segv", "segv\n", "42\n"),
        ("sleep", "sleep\n", "42\n"),
    ] {
        s.write(&format!("cases/echo/{name}.in"), input);
        s.write(&format!("cases/echo/{name}.ans"), answer);
    }
}

#[test]
fn testlib_checker_from_source_every_exit_code_crash_and_timeout() {
    let s = Scratch::new();
    checker_cases(&s);
    s.write("checkers/check.c", TESTLIB_CHECKER_C);
    s.write(
        "judge.toml",
        "[problem.echo]\ncheck = \"checker\"\nchecker = \"checkers/check.c\"\nchecker_protocol = \"testlib\"\nchecker_time_limit = \"1s\"\n",
    );
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "-j", "2", "--submission", "cat"]);
    let started = Instant::now();
    let ran = run(cmd);
    let elapsed = started.elapsed();
    let report = ran.json();
    let expect = |name: &str, verdict: &str, message: &str| {
        let c = case(&report, &format!("{name}.in"));
        assert_eq!(c["verdict"], verdict, "{name}: {c:#}");
        let got = c["message"].as_str().unwrap();
        assert!(got.contains(message), "{name}: {got:?} lacks {message:?}");
    };
    expect("ac", "AC", "ok the answer is 42");
    expect("wa", "WA", "wrong answer expected 42, found 41");
    expect("pe", "PE", "wrong output format extra spaces");
    expect(
        "fail",
        "IE",
        "checker checkers/check.c failed (exit code 3): FAIL the answer file is broken",
    );
    expect(
        "seven",
        "IE",
        // Exit 7 is testlib's quitp: partial credit, read as 0 to 1 of
        // the case's points (docs/scoring.md); 7 is out of range.
        "gave 7 of the case's points; the judge reads testlib's partial credit as 0 to 1",
    );
    expect("segv", "IE", "crashed: killed by SIGSEGV (signal 11)");
    expect("sleep", "IE", "timed out (limit 1.0s)");
    // IE in the run: exit 3, never blamed on the submission.
    assert_eq!(ran.code, 3, "{}", ran.stderr);
    assert_eq!(report["problems"][0]["check"], "checker");
    assert!(
        elapsed < Duration::from_secs(10),
        "the sleeping checker was not cut at its limit: {elapsed:?}"
    );
}

#[test]
fn kattis_output_validator_with_feedback_files() {
    let s = Scratch::new();
    s.write("cases/k/right.in", "5\n");
    s.write("cases/k/right.ans", "5\n");
    s.write("cases/k/wrong.in", "4\n");
    s.write("cases/k/wrong.ans", "5\n");
    s.write("cases/k/zero.in", "zero\n");
    s.write("cases/k/zero.ans", "5\n");
    s.write("cases/k/team.in", "team\n");
    s.write("cases/k/team.ans", "5\n");
    // validator IN ANS FEEDBACK_DIR/ < OUTPUT; the feedback directory ends
    // with a slash, so both "$3judgemessage.txt" and "$3/…" work.
    s.script(
        "validate.sh",
        r#"[ -f "$1" ] || exit 1
[ -d "$3" ] || exit 1
read got
read want < "$2"
case "$got" in
  zero) exit 0 ;;
  team) echo "team only" > "$3/teammessage.txt"; exit 43 ;;
esac
if [ "$got" = "$want" ]; then echo "correct: $got" > "$3judgemessage.txt"; exit 42; fi
printf '\nexpected %s, got %s\nsecond line\n' "$want" "$got" > "$3/judgemessage.txt"
exit 43"#,
    );
    s.write(
        "judge.toml",
        "[problem.k]\nchecker = \"./validate.sh\"\nchecker_protocol = \"kattis\"\n",
    );
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission", "cat"]);
    let ran = run(cmd);
    let report = ran.json();
    let right = case(&report, "right.in");
    assert_eq!(right["verdict"], "AC", "{right:#}");
    assert_eq!(right["message"], "correct: 5");
    let wrong = case(&report, "wrong.in");
    assert_eq!(wrong["verdict"], "WA");
    assert_eq!(wrong["message"], "expected 5, got 4 …");
    let team = case(&report, "team.in");
    assert_eq!(
        (&team["verdict"], &team["message"]),
        (&"WA".into(), &"team only".into())
    );
    let zero = case(&report, "zero.in");
    assert_eq!(zero["verdict"], "IE");
    assert!(
        zero["message"]
            .as_str()
            .unwrap()
            .contains("exit code 0, which the Kattis protocol does not define (42 AC, 43 WA)"),
        "{zero:#}"
    );
    assert_eq!(ran.code, 3);
}

#[test]
fn checker_configuration_errors() {
    let s = Scratch::new();
    s.write("cases/p/1.in", "1\n");
    s.write("cases/p/1.ans", "1\n");
    let error = |toml: &str| {
        s.write("judge.toml", toml);
        let mut cmd = s.judge();
        cmd.args(["run", "--submission", "cat"]);
        let ran = run(cmd);
        assert_eq!(ran.code, 2, "{toml}: {}", ran.stderr);
        ran.stderr
    };
    let e = error("[problem.p]\ncheck = \"checker\"\n");
    assert!(
        e.contains("judge.toml:2:9: problem.p: check = \"checker\" needs checker = \"CMD\""),
        "{e}"
    );
    let e = error("[problem.p]\ncheck = \"tokens\"\nchecker = \"x\"\n");
    assert!(
        e.contains("judge.toml:3:11: problem.p: checker = \"…\" is only used"),
        "{e}"
    );
    let e = error("[problem.p]\nchecker = \"x\"\nchecker_protocl = \"kattis\"\n");
    assert!(
        e.contains("judge.toml:3:1: unknown field `checker_protocl`"),
        "{e}"
    );
    let e = error("[problem.p]\nchecker = \"x\"\nchecker_protocol = \"domjudge\"\n");
    assert!(
        e.contains("judge.toml:3:20: unknown variant `domjudge`"),
        "{e}"
    );
    // A checker that cannot be built or found is one usage error before
    // any case runs, not an IE per case.
    s.write("broken.cpp", "this is not C++\n");
    let e = error("[problem.p]\nchecker = \"broken.cpp\"\n");
    assert!(
        e.contains("problem p: checker: broken.cpp: cannot build") && e.contains("c++ failed"),
        "{e}"
    );
    let e = error("[problem.p]\nchecker = \"./missing\"\n");
    assert!(e.contains("missing not found"), "{e}");
}

#[test]
fn judge_check_uses_the_external_checker() {
    let s = Scratch::new();
    s.script(
        "check.sh",
        r#"if cmp -s "$2" "$3"; then echo "ok same" >&2; exit 0; fi
echo "wrong answer differs" >&2; exit 1"#,
    );
    s.write("in", "1\n");
    s.write("good", "3\n");
    s.write("bad", "4\n");
    s.write("ans", "3\n");
    s.write("judge.toml", "[problem.p]\nchecker = \"check.sh\"\n");
    for (output, code, text) in [("good", 0, "ok same"), ("bad", 1, "wrong answer differs")] {
        let mut cmd = s.judge();
        cmd.args(["check", "p", "in", output, "ans"]);
        let ran = run(cmd);
        assert_eq!(ran.code, code, "{}", ran.stderr);
        assert_eq!(ran.stderr.trim(), text);
    }
}

/// A strict A+B input validator (T, then T lines "a b"; no leading zeros,
/// single spaces, LF, nothing after): rejects every probe mutation.
const STRICT_VALIDATOR_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#ifndef VALID
#define VALID 0
#define INVALID 3
#endif
static int c;
static void next(void) { c = getchar(); }
static void fail(const char *why) { fprintf(stderr, "FAIL %s\n", why); exit(INVALID); }
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
    return VALID;
}
"#;

#[test]
fn validate_runs_validators_and_probes_them_and_the_checker() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("cases/sum/bad.in", "2\n1 2\n");
    s.write("cases/sum/bad.ans", "3\n");
    s.write("strict.c", STRICT_VALIDATOR_C);
    // Weak: looks at the first line only.
    s.script(
        "weak.sh",
        r#"read t || exit 3
case "$t" in ''|*[!0-9]*) echo "FAIL T is not a number" >&2; exit 3 ;; esac
exit 0"#,
    );
    // Weak: compares the first token only.
    s.script(
        "first.sh",
        r#"read got rest < "$2"
read want rest < "$3"
[ "$got" = "$want" ] && exit 0
echo "wrong answer first token differs" >&2; exit 1"#,
    );
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\nvalidator = [\"strict.c\", \"weak.sh\"]\nchecker = \"first.sh\"\n",
    );
    let mut cmd = s.judge();
    cmd.arg("validate");
    let ran = run(cmd);
    let out = &ran.stdout;
    assert_eq!(
        ran.code, 1,
        "an invalid input fails validate: {out}\n{}",
        ran.stderr
    );
    assert!(
        out.contains("bad.in: invalid (input validator strict.c): FAIL expected a number"),
        "{out}"
    );
    // The strict validator rejects every mutation; the weak one does not.
    assert!(!out.contains("input validator strict.c accepted"), "{out}");
    assert!(
        out.contains("input validator strict.c: 4 inputs checked, 1 invalid;")
            && out.contains("all rejected"),
        "{out}"
    );
    for what in [
        "an extra space at the end of line 1",
        "a leading zero: \"1\" became \"01\" (line 1)",
        "\"junk\" appended at the end",
        "the last line (line 2) dropped",
    ] {
        assert!(
            out.contains(&format!("warning: sum: input validator weak.sh accepted a mutated 2.in: {what}; a validator should reject it")),
            "{what}: {out}"
        );
    }
    // The weak checker accepts a dropped line and junk, not a changed token.
    assert!(
        out.contains("warning: sum: checker first.sh accepted a mutated answer of 10.in as an output: \"junk\" appended"),
        "{out}"
    );
    assert!(
        out.contains("checker first.sh accepted a mutated answer of 1.in as an output: the last line (line 2) dropped"),
        "{out}"
    );
    assert!(!out.contains("a token changed"), "{out}");
    assert!(out.contains("validated 7 files: 1 error, "), "{out}");

    // With the invalid file gone and strict tools, validate is clean.
    std::fs::remove_file(s.path().join("cases/sum/bad.in")).unwrap();
    std::fs::remove_file(s.path().join("cases/sum/bad.ans")).unwrap();
    s.script(
        "exact.sh",
        r#"cmp -s "$2" "$3" && exit 0
echo "wrong answer differs" >&2; exit 1"#,
    );
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\nvalidator = \"strict.c\"\nchecker = \"exact.sh\"\n",
    );
    let mut cmd = s.judge();
    cmd.arg("validate");
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("validated 6 files: 0 errors, 0 warnings"),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_python_checker_runs_with_python3_or_says_it_is_missing() {
    let s = Scratch::new();
    s.write("cases/p/1.in", "1\n");
    s.write("cases/p/1.ans", "5\n");
    s.write("cases/p/2.in", "2\n");
    s.write("cases/p/2.ans", "6\n");
    // Not executable: the judge runs a .py checker with python3.
    s.write(
        "check.py",
        "import sys\nout, ans = open(sys.argv[2]).read().split(), open(sys.argv[3]).read().split()\nif out == ans:\n    sys.exit(0)\nprint('wrong answer expected', ans, 'found', out, file=sys.stderr)\nsys.exit(1)\n",
    );
    s.write("judge.toml", "[problem.p]\nchecker = \"check.py\"\n");
    // No extension: a `.sh` file is a Bash source (the CLICS table), which
    // would need bash on PATH.
    s.script("five", "echo 5");
    // Without python3 on PATH the checker cannot run: one clear error before
    // any case, exit 2.
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission", "./five"])
        .env("PATH", s.path().join("no-such-dir"));
    let ran = run(cmd);
    assert_eq!(ran.code, 2, "{}", ran.stdout);
    assert!(
        ran.stderr
            .contains("problem p: checker: check.py: program not found on PATH: python3"),
        "{}",
        ran.stderr
    );
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission", "./five"]);
    let ran = run(cmd);
    if python {
        let report = ran.json();
        assert_eq!(ran.code, 1, "{}", ran.stderr);
        assert_eq!(report["cases"][0]["verdict"], "AC", "{report:#}");
        assert_eq!(report["cases"][1]["verdict"], "WA");
        assert_eq!(
            report["cases"][1]["message"],
            "wrong answer expected ['6'] found ['5']"
        );
    } else {
        assert_eq!(ran.code, 2, "{}", ran.stdout);
        assert!(ran.stderr.contains("python3"), "{}", ran.stderr);
    }
}

#[test]
fn a_source_checker_is_built_once_and_cached_across_runs() {
    let s = Scratch::new();
    let cache = s.path().join("cache");
    // testlib.h one level up from the checker: found there.
    s.write(
        "checkers/testlib.h",
        "#include <cstdio>\n#define QUIT_OK() do { std::fprintf(stderr, \"ok same\\n\"); return 0; } while (0)\n",
    );
    s.write(
        "checkers/eq/check.cpp",
        "#include \"testlib.h\"\n#include <fstream>\n#include <string>\nint main(int, char **argv) { std::ifstream o(argv[2]), a(argv[3]); std::string x, y; o >> x; a >> y; if (x == y) QUIT_OK(); std::fprintf(stderr, \"wrong answer %s\\n\", x.c_str()); return 1; }\n",
    );
    s.write("in", "1\n");
    s.write("good", "3\n");
    s.write("ans", "3\n");
    s.write(
        "judge.toml",
        "[problem.p]\nchecker = \"checkers/eq/check.cpp\"\n",
    );
    let check = || {
        let mut cmd = s.judge();
        cmd.env("JUDGE_CACHE_DIR", &cache)
            .args(["check", "p", "in", "good", "ans"]);
        run(cmd)
    };
    let first = check();
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stderr.trim(), "ok same");
    let entries = || -> Vec<std::path::PathBuf> {
        std::fs::read_dir(cache.join("tools"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    };
    let built = entries();
    assert_eq!(built.len(), 1, "{built:?}");
    let modified = std::fs::metadata(built[0].join("program"))
        .unwrap()
        .modified()
        .unwrap();
    let second = check();
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(entries(), built, "the second run compiles nothing");
    assert_eq!(
        std::fs::metadata(built[0].join("program"))
            .unwrap()
            .modified()
            .unwrap(),
        modified
    );
    // A change of the header is a new build.
    s.write(
        "checkers/testlib.h",
        "#include <cstdio>\n#define QUIT_OK() do { std::fprintf(stderr, \"ok equal\\n\"); return 0; } while (0)\n",
    );
    let third = check();
    assert_eq!(third.stderr.trim(), "ok equal");
    assert_eq!(entries().len(), 2);
}

/// A trusted tool's temporary files (a validator's, a compiler's `cc*.s`
/// left when it is killed at its limit) go to its run's own directory,
/// which the judge removes: never into the judge's TMPDIR.
#[test]
fn a_tools_temporary_files_stay_out_of_the_judges_tmpdir() {
    let s = Scratch::new();
    s.write("p/problem.yaml", "name: Echo\nvalidation: custom\n");
    s.write("p/data/secret/1.in", "1\n");
    s.write("p/data/secret/1.ans", "1\n");
    s.write(
        "p/output_validators/v/v.c",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void){char p[4096]; const char *t = getenv(\"TMPDIR\"); if (!t) return 1; snprintf(p, sizeof p, \"%s/validator-was-here\", t); FILE *f = fopen(p, \"w\"); if (!f) return 1; fclose(f); return 42;}\n",
    );
    s.write("echo.c", "#include <stdio.h>\nint main(void){int x; scanf(\"%d\",&x); printf(\"%d\\n\",x); return 0;}\n");
    let tmp = s.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut cmd = s.judge();
    cmd.env("TMPDIR", &tmp)
        .args(["run", "p", "--format", "json", "--submission", "echo.c"]);
    let report = run(cmd).json();
    assert_eq!(report["verdict"], "AC", "{report:#}");
    assert_eq!(
        leftovers(&tmp),
        Vec::<String>::new(),
        "left in the judge's TMPDIR"
    );
}
