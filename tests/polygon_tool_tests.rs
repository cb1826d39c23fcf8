//! A Polygon package's own tests of its tools (problem.xml's
//! `<checker><testset>` and each `<validator><testset>`) run by `judge
//! verify`: a checker or validator that does not say what its tests
//! declare fails the verification, named with the test; and a package
//! written on Windows (`\r\n` line ends) is given to its programs as
//! Polygon's text-mode reads give it. The packages are written here.

mod common;
use common::*;
use std::path::PathBuf;

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

/// A checker with testlib's exit codes: the output's one number against
/// the answer's (0 equal, 1 not, 2 no number at all).
const CHECK_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 4) return 3;
    FILE *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    if (!out || !ans) return 3;
    long long o, a;
    if (fscanf(ans, "%lld", &a) != 1) { fprintf(stderr, "FAIL no answer\n"); return 3; }
    if (fscanf(out, "%lld", &o) != 1) { fprintf(stderr, "wrong output format\n"); return 2; }
    if (o != a) { fprintf(stderr, "expected %lld, found %lld\n", a, o); return 1; }
    fprintf(stderr, "ok %lld\n", o);
    return 0;
}
"#;

/// A strict validator (as testlib's on Linux): two numbers from 1 to 1000,
/// one space, a `\n` (a `\r` before it is not one), then the end.
const VALIDATE_C: &str = r#"#include <stdio.h>
static int number(void) {
    int c = getchar(), n = 0, digits = 0;
    while (c >= '0' && c <= '9') { n = n * 10 + (c - '0'); digits++; c = getchar(); }
    ungetc(c, stdin);
    if (!digits || n < 1 || n > 1000) { fprintf(stderr, "FAIL a number from 1 to 1000 expected\n"); return -1; }
    return n;
}
int main(void) {
    if (number() < 0) return 3;
    if (getchar() != ' ') { fprintf(stderr, "FAIL Expected space\n"); return 3; }
    if (number() < 0) return 3;
    if (getchar() != '\n') { fprintf(stderr, "FAIL Expected EOLN\n"); return 3; }
    if (getchar() != EOF) { fprintf(stderr, "FAIL Expected EOF\n"); return 3; }
    return 0;
}
"#;

/// A solution that reads its line as `gets` does and trusts every byte
/// before the `\n` to be a digit or a space: a `\r` crashes it.
const LINE_SUM_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char line[100];
    if (!fgets(line, sizeof line, stdin)) return 1;
    long long a = 0, b = 0, *n = &a;
    for (char *p = line; *p && *p != '\n'; p++) {
        if (*p == ' ') { n = &b; continue; }
        if (*p < '0' || *p > '9') abort();
        *n = *n * 10 + (*p - '0');
    }
    printf("%lld\n", a + b);
    return 0;
}
"#;

/// A full package: two tests, the checker and validator above with their
/// own tests (`checker_tests`, `validator_tests`: `<test verdict=…/>`
/// lines), the solutions `sum.c` (main) and `difference.c` (WA).
fn package(s: &Scratch, checker_tests: &str, validator_tests: &str) -> PathBuf {
    let count = |t: &str| t.matches("<test ").count();
    s.write(
        "plus/problem.xml",
        format!(
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="plus">
    <judging>
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test method="manual"/>
            </tests>
        </testset>
    </judging>
    <assets>
        <checker type="testlib">
            <source path="files/check.c" type="c.gcc"/>
            <testset>
                <test-count>{}</test-count>
                <input-path-pattern>files/tests/checker-tests/%02d</input-path-pattern>
                <output-path-pattern>files/tests/checker-tests/%02d.o</output-path-pattern>
                <answer-path-pattern>files/tests/checker-tests/%02d.a</answer-path-pattern>
                <tests>
{checker_tests}
                </tests>
            </testset>
        </checker>
        <validators>
            <validator>
                <source path="files/validate.c" type="c.gcc"/>
                <testset>
                    <test-count>{}</test-count>
                    <input-path-pattern>files/tests/validator-tests/%02d</input-path-pattern>
                    <tests>
{validator_tests}
                    </tests>
                </testset>
            </validator>
        </validators>
        <solutions>
            <solution tag="main"><source path="solutions/sum.c" type="c.gcc"/></solution>
            <solution tag="wrong-answer"><source path="solutions/difference.c" type="c.gcc"/></solution>
        </solutions>
    </assets>
</problem>
"#,
            count(checker_tests),
            count(validator_tests)
        ),
    );
    s.write("plus/files/check.c", CHECK_C);
    s.write("plus/files/validate.c", VALIDATE_C);
    s.write("plus/solutions/sum.c", SUM_C);
    s.write("plus/solutions/difference.c", DIFFERENCE_C);
    for (name, text) in [
        ("01", "3 4\n"),
        ("01.a", "7\n"),
        ("02", "10 20\n"),
        ("02.a", "30\n"),
    ] {
        s.write(&format!("plus/tests/{name}"), text);
    }
    s.path().join("plus")
}

/// Checker test `n`: an input, the output judged and the answer.
fn checker_test(s: &Scratch, n: usize, output: &str, answer: &str) {
    let dir = "plus/files/tests/checker-tests";
    s.write(&format!("{dir}/{n:02}"), "1 1\n");
    s.write(&format!("{dir}/{n:02}.o"), output);
    s.write(&format!("{dir}/{n:02}.a"), answer);
}

fn validator_test(s: &Scratch, n: usize, input: &str) {
    s.write(&format!("plus/files/tests/validator-tests/{n:02}"), input);
}

fn judge(s: &Scratch, args: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", s.path().join("cache"));
    cmd.args(args);
    run(cmd)
}

#[test]
fn tool_tests_that_agree_pass_and_are_counted() {
    let s = Scratch::new();
    let root = package(
        &s,
        r#"<test verdict="ok"/>
<test verdict="wrong-answer"/>
<test verdict="presentation-error"/>
<test verdict="crashed"/>"#,
        r#"<test verdict="valid"/>
<test verdict="invalid"/>
<test verdict="invalid"/>"#,
    );
    checker_test(&s, 1, "2\n", "2\n");
    checker_test(&s, 2, "3\n", "2\n");
    checker_test(&s, 3, "two\n", "2\n");
    checker_test(&s, 4, "2\n", "no answer\n");
    validator_test(&s, 1, "1000 1\n");
    validator_test(&s, 2, "1001 1\n");
    validator_test(&s, 3, "1 1");
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(
        out.contains(
            "Tool tests (the package's own, of its checker and validators): 7 of 7 as declared"
        ),
        "{out}"
    );
    assert!(
        out.contains("OK: 2 of 2 submissions as expected, 7 of 7 tool tests as declared"),
        "{out}"
    );
}

#[test]
fn a_checker_or_validator_that_disagrees_with_its_tests_fails_verify_naming_the_test() {
    let s = Scratch::new();
    let root = package(
        &s,
        r#"<test verdict="ok"/>
<test verdict="wrong-answer"/>"#,
        r#"<test verdict="valid"/>
<test verdict="invalid"/>"#,
    );
    checker_test(&s, 1, "2\n", "2\n");
    // Declared wrong, and the checker accepts it: what the tests catch.
    checker_test(&s, 2, "2\n", "2\n");
    validator_test(&s, 1, "5 5\n");
    // Declared invalid, and the validator takes it.
    validator_test(&s, 2, "6 6\n");
    let report = s.path().join("verify.json");
    let ran = judge(
        &s,
        &[
            "verify",
            root.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let out = all(&ran);
    assert_eq!(ran.code, 1, "{out}");
    assert!(
        out.contains("plus: checker test files/tests/checker-tests/02: declared WA, got AC: ok 2"),
        "{out}"
    );
    assert!(
        out.contains(
            "plus: validator files/validate.c test files/tests/validator-tests/02: declared invalid, got valid"
        ),
        "{out}"
    );
    assert!(
        out.contains("FAIL: 2 of 2 submissions as expected, 2 of 4 tool tests as declared"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let tests = json["verify"]["tool_tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4);
    let disagree: Vec<&str> = tests
        .iter()
        .filter(|t| t["agrees"] == false)
        .map(|t| t["test"].as_str().unwrap())
        .collect();
    assert_eq!(
        disagree,
        [
            "files/tests/checker-tests/02",
            "files/tests/validator-tests/02"
        ]
    );
    assert_eq!(json["verify"]["ok"], false);
    // JUnit: a test case each, failing where the tool disagrees.
    let junit = s.path().join("verify.xml");
    let ran = judge(
        &s,
        &[
            "verify",
            root.to_str().unwrap(),
            "--report",
            junit.to_str().unwrap(),
            "--format",
            "junit",
        ],
    );
    assert_eq!(ran.code, 1, "{}", all(&ran));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"name="checker test files/tests/checker-tests/02""#),
        "{xml}"
    );
    assert!(xml.contains(r#"message="declared WA, got AC""#), "{xml}");
    assert_eq!(xml.matches("<failure").count(), 2, "{xml}");
}

#[test]
fn a_tool_test_whose_file_is_missing_or_whose_verdict_is_unknown_is_named_and_not_run() {
    let s = Scratch::new();
    let root = package(
        &s,
        r#"<test verdict="ok"/>
<test verdict="maybe"/>"#,
        r#"<test verdict="valid"/>"#,
    );
    checker_test(&s, 1, "2\n", "2\n");
    checker_test(&s, 2, "2\n", "2\n");
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(
        out.contains("checker test 2: verdict \"maybe\": expected ok, wrong-answer, presentation-error or crashed; not run"),
        "{out}"
    );
    assert!(
        out.contains(
            "validator test 1: files/tests/validator-tests/01 is not in the package; not run"
        ),
        "{out}"
    );
    assert!(out.contains("1 of 1 tool test as declared"), "{out}");
}

#[test]
fn windows_line_ends_are_read_as_polygon_reads_them_and_the_package_is_untouched() {
    let s = Scratch::new();
    let root = package(&s, "", r#"<test verdict="valid"/>"#);
    // Written on Windows: every line ends with \r\n.
    s.write("plus/tests/01", "3 4\r\n");
    s.write("plus/tests/02", "10 20\r\n");
    s.write("plus/tests/01.a", "7\r\n");
    validator_test(&s, 1, "5 5\r\n");
    s.write("plus/solutions/sum.c", LINE_SUM_C);
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(
        out.contains(
            "3 test files have Windows line ends (\\r\\n): given to every program with \\n"
        ),
        "{out}"
    );
    assert!(out.contains("1 of 1 tool test as declared"), "{out}");
    // The package's files are as they were.
    assert_eq!(s.read("plus/tests/01"), "3 4\r\n");
    // A file whose first line ends with \n alone is not Windows text:
    // given byte for byte, it is not counted.
    s.write("plus/tests/02", "10 20\n\r\n");
    s.write("plus/tests/02.a", "30\n");
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert!(out.contains("2 test files have Windows line ends"), "{out}");
}
