//! `judge verify` on the shipped examples/ (every expected-verdict folder,
//! C, C++, Rust and Python submissions) and on copies of it changed to
//! disagree: a submission in the wrong folder, a declaration, a missing
//! interpreter.

mod common;
use common::*;

/// `judge verify ARGS` with the examples' (or a copy's) judge.toml.
fn verify(s: &Scratch, config: &std::path::Path, args: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.arg("--config").arg(config).arg("verify").args(args);
    run(cmd)
}

/// A copy of examples/ without the submissions that burn a second of CPU
/// per case, so that tests of disagreements stay quick.
fn quick_copy(s: &Scratch) -> std::path::PathBuf {
    let copy = s.copy_tree(&examples(), "examples");
    std::fs::remove_dir_all(copy.join("sum/submissions/time_limit_exceeded")).unwrap();
    copy
}

fn python_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.contains(".py ") && !l.starts_with("warning"))
        .collect()
}

#[test]
fn the_examples_verify() {
    let s = Scratch::new();
    let python = installed("python3");
    // Without python3 the Python submissions cannot run: allowed here, so
    // that the rest is still verified.
    let mut args = vec!["--report", "verify.json"];
    if !python {
        args.push("--allow-missing");
    }
    let ran = verify(&s, &examples().join("judge.toml"), &args);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let table = &ran.stdout;
    for line in [
        "sum: 17 submissions on 3 cases, time limit 500ms (run at 750ms)",
        "rotation: 3 submissions on 4 cases, time limit 1s (run at 1.5s)",
        "pairs: 5 submissions on 8 cases, time limit 500ms (run at 750ms)",
    ] {
        assert!(table.contains(line), "{table}");
    }
    for folder in [
        "accepted",
        "wrong_answer",
        "presentation_error",
        "time_limit_exceeded",
        "memory_limit_exceeded",
        "run_time_error",
        "output_limit_exceeded",
        "compile_error",
    ] {
        // Every folder has a C-family and a Python submission.
        let rows: Vec<&str> = table
            .lines()
            .filter(|l| l.contains(&format!(" {folder}/")))
            .collect();
        assert!(
            rows.iter()
                .any(|r| r.contains(".c ") || r.contains(".cpp ")),
            "{folder}: {rows:?}"
        );
        assert!(
            rows.iter().any(|r| r.contains(".py ")),
            "{folder}: {rows:?}"
        );
    }
    if python {
        assert!(
            table.contains("OK: 25 of 25 submissions as expected"),
            "{table}"
        );
        for line in python_lines(table) {
            assert!(line.trim_start().starts_with("ok"), "{line}");
        }
    } else {
        // No python3 here: the Python submissions are named as not run and,
        // with --allow-missing, do not fail the verification.
        for line in python_lines(table) {
            assert!(
                line.contains("not run: the Python 3 interpreter `python3` is not installed"),
                "{line}"
            );
        }
        assert!(table.contains("12 not run"), "{table}");
    }
    assert!(
        table.contains("ok    wrong_answer/overflow.c            WA            AC 2 WA 1"),
        "{table}"
    );
    assert!(
        table.contains("permitted RE"),
        "the judge.toml table: {table}"
    );
    assert!(
        table.contains("permitted AC TLE"),
        "the first-line declaration: {table}"
    );
    // The scoring example: each submission's score and its expected one,
    // with a group skipped after its prerequisite failed.
    for row in [
        "accepted/linear.c                  permitted AC, score 100       AC 8, score 100/100",
        "partially_accepted/quadratic.c     score 70, s1 30, s2 40, s3 0  AC 7 TLE 1, score 70/100",
        "partially_accepted/int_overflow.c  score 30, s1 30, s2 0, s3 0   AC 4 WA 3 SKIP 1, score 30/100",
    ] {
        assert!(table.contains(row), "{row}\n{table}");
    }
    if python {
        assert!(
            table.contains("partially_accepted/sum_only.py     score 50                      AC 8, score 50/100"),
            "{table}"
        );
    }
    // The report: every case of every submission, labelled with its
    // problem (three problems are verified).
    let report: serde_json::Value =
        serde_json::from_str(&s.read("verify.json")).expect("a JSON report");
    let cases = report["cases"].as_array().unwrap();
    assert!(cases.iter().all(|c| c["program"].is_string()), "{report}");
    let overflow: Vec<&str> = cases
        .iter()
        .filter(|c| c["program"] == "sum/wrong_answer/overflow.c")
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(overflow, ["AC", "AC", "WA"]);
    let spin = cases
        .iter()
        .find(|c| c["program"] == "sum/time_limit_exceeded/spin.c")
        .unwrap();
    assert_eq!(spin["verdict"], "TLE");
    assert_eq!(spin["time_limit_ms"], 500.0, "graded at the limit: {spin}");
    let indexes: Vec<u64> = cases.iter().map(|c| c["index"].as_u64().unwrap()).collect();
    assert!(indexes.windows(2).all(|w| w[0] < w[1]), "{indexes:?}");
    // Scores per problem and program, each group with its points.
    let scores = report["scores"].as_array().expect("scores in the report");
    let overflow = scores
        .iter()
        .find(|s| s["program"] == "pairs/partially_accepted/int_overflow.c")
        .expect("int_overflow.c's score");
    assert_eq!(overflow["score"], 30.0, "{overflow}");
    assert_eq!(overflow["max_score"], 100.0);
    let s3 = &overflow["groups"][2];
    assert_eq!(
        (&s3["name"], &s3["verdict"]),
        (&"s3".into(), &"SKIP".into()),
        "{s3}"
    );
    assert!(s3["note"].as_str().unwrap().contains("requires s2"), "{s3}");
    let skipped = cases
        .iter()
        .find(|c| {
            c["program"] == "pairs/partially_accepted/int_overflow.c" && c["case"] == "large/1.in"
        })
        .unwrap();
    assert_eq!(skipped["verdict"], "SKIP");
    assert!(
        skipped["message"]
            .as_str()
            .unwrap()
            .starts_with("not judged: group s3 requires s2"),
        "{skipped}"
    );
    // The verify outcome, and each submission's expectation and agreement.
    let v = &report["verify"];
    assert_eq!(v["outcome"], "OK", "{v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["total"], 25);
    let subs = v["submissions"].as_array().unwrap();
    assert_eq!(subs.len(), 25);
    let overflow = subs
        .iter()
        .find(|s| s["program"] == "sum/wrong_answer/overflow.c")
        .unwrap();
    assert_eq!(overflow["problem"], "sum");
    assert_eq!(overflow["path"], "wrong_answer/overflow.c");
    assert_eq!(overflow["expected"], "WA");
    assert_eq!(overflow["expected_from"], "folder");
    assert_eq!(overflow["permitted"], serde_json::json!(["AC", "WA"]));
    assert_eq!(overflow["required"], serde_json::json!(["WA"]));
    assert_eq!(overflow["status"], "ok");
    assert_eq!(overflow["agrees"], true);
    assert_eq!(overflow["got"], serde_json::json!({"AC": 2, "WA": 1}));
    let crash = subs
        .iter()
        .find(|s| s["program"] == "sum/run_time_error/crash.c")
        .unwrap();
    assert_eq!(crash["expected_from"], "judge.toml");
    assert_eq!(crash["required"], serde_json::Value::Null);
    // The problems carry their real limits, and the limit the runs had.
    let sum = &report["problems"][0];
    assert_eq!(sum["name"], "sum");
    assert_eq!(sum["time_limit_ms"], 500.0, "{sum}");
    assert_eq!(sum["run_time_limit_ms"], 750.0, "{sum}");
}

#[test]
fn a_submission_in_the_wrong_folder_fails_naming_it_and_the_case() {
    let s = Scratch::new();
    let copy = quick_copy(&s);
    let subs = copy.join("sum/submissions");
    std::fs::rename(
        subs.join("wrong_answer/overflow.c"),
        subs.join("accepted/overflow.c"),
    )
    .unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("  FAIL  accepted/overflow.c "),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "  FAIL sum/accepted/overflow.c: expected AC; got WA on 3-big.in: sum 1: expected 4000000000, found -294967296"
        ),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("1 disagrees"), "{}", ran.stdout);
    // The other way: an accepted program where a WA is required.
    std::fs::rename(
        subs.join("accepted/overflow.c"),
        subs.join("wrong_answer/overflow.c"),
    )
    .unwrap();
    std::fs::rename(subs.join("accepted/sum.c"), subs.join("wrong_answer/sum.c")).unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout.contains(
            "  FAIL sum/wrong_answer/sum.c: expected WA on some case; got AC 3 on 3 cases; slowest"
        ),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_first_line_declaration_replaces_the_folder() {
    let s = Scratch::new();
    let copy = quick_copy(&s);
    let subs = copy.join("sum/submissions");
    std::fs::create_dir_all(subs.join("time_limit_exceeded")).unwrap();
    let fast = format!("// judge: permitted AC TLE\n{AB_C}");
    std::fs::write(subs.join("time_limit_exceeded/fast.c"), fast).unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("  ok    time_limit_exceeded/fast.c         permitted AC TLE"),
        "{}",
        ran.stdout
    );
    // Without it, the folder's expectation holds: a TLE is required.
    std::fs::write(subs.join("time_limit_exceeded/fast.c"), AB_C).unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains("FAIL sum/time_limit_exceeded/fast.c: expected TLE on some case; got AC 3"),
        "{}",
        ran.stdout
    );
    // A declaration that does not parse fails that submission, naming the
    // file and line (not run); the others still run.
    std::fs::write(
        subs.join("time_limit_exceeded/fast.c"),
        format!("// judge: allowed AC\n{AB_C}"),
    )
    .unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("its expected results cannot be read")
            && ran
                .stdout
                .contains("time_limit_exceeded/fast.c:1: `judge: allowed …`"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("  ok    accepted/"), "{}", ran.stdout);
    // Under a judge.toml `expect` entry the table decides: a line that
    // does not parse is a warning, and the submission runs as the table
    // expects.
    let crash = subs.join("run_time_error/crash.c");
    let source = std::fs::read_to_string(&crash).unwrap();
    std::fs::write(&crash, format!("// judge: allowed AC\n{source}")).unwrap();
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert!(
        ran.stderr.contains("crash.c:1: `judge: allowed …`")
            && ran
                .stderr
                .contains("not used: judge.toml's expect gives this submission's expectation"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stdout.contains("  ok    run_time_error/crash.c"),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_missing_interpreter_fails_unless_allowed() {
    let s = Scratch::new();
    let copy = quick_copy(&s);
    let toml = std::fs::read_to_string(copy.join("judge.toml")).unwrap();
    std::fs::write(
        copy.join("judge.toml"),
        format!(
            "{toml}\n[language.python]\ninterpreter = \"no-such-python3 -c 'import sys; print(sys.executable)'\"\n"
        ),
    )
    .unwrap();
    // By default a submission that cannot run fails the verification,
    // naming the tool.
    let ran = verify(&s, &copy.join("judge.toml"), &["sum", "--report", "v.json"]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let rows = python_lines(&ran.stdout);
    assert_eq!(rows.len(), 7, "{}", ran.stdout);
    for row in rows {
        assert!(
            row.trim_start().starts_with("MISS")
                && row.contains(
                    "not run: the Python 3 interpreter `no-such-python3` is not installed"
                ),
            "{row}"
        );
    }
    assert!(
        ran.stdout.contains(
            "  MISS sum/accepted/sum.py: not run: the Python 3 interpreter `no-such-python3` is not installed (install it, or pass --allow-missing"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "FAIL: 8 of 15 submissions as expected, 7 not run: a compiler or interpreter is missing"
        ),
        "{}",
        ran.stdout
    );
    let report: serde_json::Value = serde_json::from_str(&s.read("v.json")).unwrap();
    assert_eq!(report["verify"]["ok"], false);
    assert_eq!(report["verify"]["not_run"], 7);
    let py = report["verify"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "accepted/sum.py")
        .unwrap();
    assert_eq!(py["status"], "not_run");
    assert_eq!(py["agrees"], false);

    // --allow-missing: listed as not run, with a warning, and no failure.
    let ran = verify(&s, &copy.join("judge.toml"), &["sum", "--allow-missing"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    for row in python_lines(&ran.stdout) {
        assert!(
            row.trim_start().starts_with("skip")
                && row.contains(
                    "not run: the Python 3 interpreter `no-such-python3` is not installed"
                ),
            "{row}"
        );
    }
    assert!(
        ran.stdout
            .contains("warning: sum/accepted/sum.py was not run: the Python 3 interpreter `no-such-python3` is not installed"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("OK: 8 of 15 submissions as expected, 7 not run (--allow-missing)"),
        "{}",
        ran.stdout
    );
}

#[test]
fn verify_needs_submissions() {
    let s = Scratch::new();
    sum_cases(&s);
    let ran = verify(&s, &s.path().join("judge.toml"), &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("no problem in") && ran.stderr.contains("has a submissions directory"),
        "{}",
        ran.stderr
    );
}

#[test]
fn verify_hides_the_answers_from_submissions() {
    let s = Scratch::new();
    let copy = quick_copy(&s);
    // A "submission" that prints the answer file of the case, read by its
    // absolute path; it only passes if it can read it.
    let answers = std::fs::canonicalize(copy.join("sum/cases")).unwrap();
    let peek = format!(
        r#"#include <stdio.h>
#include <string.h>
int main(void){{ char first[64] = ""; scanf("%63s", first);
  const char *names[] = {{"1-sample", "2-signs", "3-big"}}; char path[4096];
  for (int i = 0; i < 3; i++) {{
    snprintf(path, sizeof path, "%s/%s.in", "{dir}", names[i]);
    FILE *in = fopen(path, "r"); char f[64] = ""; if (!in) continue;
    fscanf(in, "%63s", f); fclose(in);
    if (strcmp(f, first)) continue;
    snprintf(path, sizeof path, "%s/%s.ans", "{dir}", names[i]);
    FILE *a = fopen(path, "r"); int c; if (!a) return 0;
    while ((c = fgetc(a)) != EOF) putchar(c);
    return 0; }}
  return 0; }}
"#,
        dir = answers.display()
    );
    std::fs::write(copy.join("sum/submissions/wrong_answer/peek.c"), peek).unwrap();
    let ran = verify(
        &s,
        &copy.join("judge.toml"),
        &["sum", "--format", "json", "--report", "v.json"],
    );
    let report: serde_json::Value = serde_json::from_str(&s.read("v.json")).unwrap();
    let hidden = report["protections"]["on"].as_array().is_some_and(|a| {
        a.iter()
            .any(|p| p.as_str().is_some_and(|p| p.starts_with("mount namespace")))
    });
    if hidden {
        // The cases are hidden: the peeker prints nothing, a WA, as its folder says.
        assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
        assert!(
            ran.stdout.contains("  ok    wrong_answer/peek.c"),
            "{}",
            ran.stdout
        );
    } else {
        // Not hidden on this machine (the report says so): it reads them.
        assert!(
            ran.stdout.contains("  FAIL  wrong_answer/peek.c"),
            "{}",
            ran.stdout
        );
    }
}

/// A source of a language the judge has no table for, in a verdict folder,
/// is not skipped: verify names it as not run and fails, unless
/// `--allow-missing`.
#[test]
fn a_source_of_an_unknown_language_is_named_and_fails_verify() {
    let s = Scratch::new();
    let copy = quick_copy(&s);
    s.write(
        "examples/sum/submissions/accepted/Sum.v",
        "pub fn main() void {}\n",
    );
    let ran = verify(&s, &copy.join("judge.toml"), &["sum"]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("accepted/Sum.v") && ran.stdout.contains(".v files"),
        "{}",
        ran.stdout
    );
    let allowed = verify(&s, &copy.join("judge.toml"), &["sum", "--allow-missing"]);
    assert!(
        allowed.stdout.contains("accepted/Sum.v"),
        "{}",
        allowed.stdout
    );
}

/// Verify's JUnit: a test case per submission, passing when it got what
/// it is expected to get, so that a passing verify is green in CI (the
/// guess example's WA, RE and TLE submissions pass); a submission that
/// disagrees is a `<failure>` with the details in system-out.
#[test]
fn verify_junit_has_a_test_case_per_submission_and_passes_when_verify_does() {
    if !installed("python3") || !installed("gcc") {
        println!("verify: skipped the JUnit test (python3 or gcc not installed)");
        return;
    }
    let s = Scratch::new();
    let guess = s.copy_tree(&examples().join("guess"), "guess");
    let junit = |s: &Scratch| {
        let mut cmd = s.judge();
        // The waiting TLE submissions wait a shorter wall clock (a quicker test).
        cmd.arg("verify")
            .arg(&guess)
            .args(["--format", "junit", "--wall-limit", "1s"]);
        run(cmd)
    };
    let ran = junit(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let xml = &ran.stdout;
    assert!(
        !xml.contains("<failure") && !xml.contains("<error"),
        "{xml}"
    );
    assert!(xml.contains(r#"failures="0" errors="0""#), "{xml}");
    // Seven submissions, one test case each, named by path.
    assert_eq!(xml.matches("<testcase ").count(), 7, "{xml}");
    for name in [
        "accepted/binary_search.c",
        "wrong_answer/count_up.py",
        "time_limit_exceeded/no_flush.c",
    ] {
        assert!(
            xml.contains(&format!(r#"<testcase name="{name}""#)),
            "{xml}"
        );
    }
    // The details: what it was expected to get and what it got.
    assert!(xml.contains("expected: WA (from folder)"), "{xml}");
    assert!(xml.contains("<system-out>"), "{xml}");

    // An accepted program in wrong_answer/ disagrees: one failure.
    std::fs::copy(
        guess.join("submissions/accepted/binary_search.py"),
        guess.join("submissions/wrong_answer/binary_search.py"),
    )
    .unwrap();
    let ran = junit(&s);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let xml = &ran.stdout;
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    let at = xml
        .find(r#"<testcase name="wrong_answer/binary_search.py""#)
        .expect("the disagreeing submission's test case");
    let rest = &xml[at..];
    let end = rest.find("</testcase>").unwrap_or(rest.len());
    assert!(rest[..end].contains("<failure"), "{}", &rest[..end]);
    assert!(rest[..end].contains("got: AC"), "{}", &rest[..end]);
}
