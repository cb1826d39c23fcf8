//! A package's group settings (testdata.yaml, test_group.yaml) change the
//! validators' and the output validator's decisions for their groups, as
//! the Kattis formats say; a Kattis input validator that fails an assert
//! rejects, never accepts.

mod common;
use common::*;

/// Prints its input's one number divided by 3, to 4 decimals.
const THIRD_C: &str = r#"#include <stdio.h>
int main(void){double x; if (scanf("%lf",&x)!=1) return 1; printf("%.4f\n", x/3); return 0;}"#;

/// A Kattis input validator: one integer n on a line, 1 <= n <= MAX where
/// MAX is its first argument (default 1000).
const BOUNDED_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long max = argc > 1 ? atol(argv[1]) : 1000, n; char c;
    if (scanf("%ld%c", &n, &c) != 2 || c != '\n') { fprintf(stderr, "expected a number\n"); return 43; }
    if (n < 1 || n > max) { fprintf(stderr, "n = %ld is out of [1, %ld]\n", n, max); return 43; }
    return 42;
}"#;

fn third_package(s: &Scratch, version: &str, group_file: &str) {
    s.write("pkg/problem.yaml", format!("name: Third\n{version}"));
    s.write("pkg/data/sample/1.in", "3\n");
    s.write("pkg/data/sample/1.ans", "1\n");
    // 10 / 3 = 3.3333…: printed to 4 decimals, off by 3.3e-5.
    s.write("pkg/data/secret/exact/1.in", "10\n");
    s.write("pkg/data/secret/exact/1.ans", "3.33333333\n");
    s.write("pkg/data/secret/loose/1.in", "10\n");
    s.write("pkg/data/secret/loose/1.ans", "3.33333333\n");
    s.write(
        &format!("pkg/data/secret/loose/{group_file}"),
        "output_validator_args: float_tolerance 1e-3\n",
    );
}

/// `judge run pkg` with the compiled THIRD_C: its JSON report and the run.
fn run_third(s: &Scratch) -> (serde_json::Value, Ran) {
    let third = build("c", "third", THIRD_C);
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "--format", "json", "--submission"])
        .arg(&third);
    let ran = run(cmd);
    (ran.json(), ran)
}

fn verdicts(report: &serde_json::Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["case"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(case: &str, verdict: &str) -> (String, String) {
    (case.to_string(), verdict.to_string())
}

#[test]
fn a_groups_output_validator_args_set_the_default_validators_tolerance() {
    for (version, file) in [
        ("", "testdata.yaml"),
        ("problem_format_version: 2023-07-draft\n", "testdata.yaml"),
        ("problem_format_version: 2025-09\n", "test_group.yaml"),
    ] {
        let s = Scratch::new();
        third_package(&s, version, file);
        let (report, ran) = run_third(&s);
        assert_eq!(
            verdicts(&report),
            [
                pair("sample/1.in", "WA"),
                pair("secret/exact/1.in", "WA"),
                pair("secret/loose/1.in", "AC"),
            ],
            "{version}: {report:#}\n{}",
            ran.stderr
        );
    }
}

/// 2025-09 test case configuration: a case's own `NAME.yaml` changes that
/// case alone, over its group's settings; a group's scoring key there is
/// named, not silently dropped (`args` are the submission's: see
/// `args_reach_the_submission_from_the_group_or_the_case`).
#[test]
fn a_cases_own_yaml_sets_its_output_validator_args() {
    let s = Scratch::new();
    third_package(&s, "problem_format_version: 2025-09\n", "test_group.yaml");
    s.write("pkg/data/secret/exact/2.in", "10\n");
    s.write("pkg/data/secret/exact/2.ans", "3.33333333\n");
    s.write(
        "pkg/data/secret/exact/2.yaml",
        "output_validator_args: [float_tolerance, '1e-3']\nmax_score: 3\n",
    );
    // Over the group: loose's tolerance, then the case's own words.
    s.write(
        "pkg/data/secret/loose/1.yaml",
        "description: the loose one\n",
    );
    let (report, ran) = run_third(&s);
    assert_eq!(
        verdicts(&report),
        [
            pair("sample/1.in", "WA"),
            pair("secret/exact/1.in", "WA"),
            pair("secret/exact/2.in", "AC"),
            pair("secret/loose/1.in", "AC"),
        ],
        "{report:#}\n{}",
        ran.stderr
    );
    let warnings = report["warnings"].to_string();
    assert!(
        warnings.contains("exact/2.yaml: max_score: a test data group's key"),
        "{warnings}"
    );
    assert!(!warnings.contains("description"), "{warnings}");
}

#[test]
fn a_groups_input_validator_flags_change_what_is_valid() {
    let s = Scratch::new();
    s.write("pkg/problem.yaml", "name: Bounded\n");
    s.write("pkg/input_validators/bounded.c", BOUNDED_C);
    s.write("pkg/data/testdata.yaml", "input_validator_flags: 100\n");
    s.write("pkg/data/sample/1.in", "7\n");
    s.write("pkg/data/sample/1.ans", "7\n");
    s.write("pkg/data/secret/big/1.in", "50\n");
    s.write("pkg/data/secret/big/1.ans", "50\n");
    // The small group allows at most 10: its 50 is invalid.
    s.write(
        "pkg/data/secret/small/testdata.yaml",
        "input_validator_flags: 10\n",
    );
    s.write("pkg/data/secret/small/1.in", "50\n");
    s.write("pkg/data/secret/small/1.ans", "50\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert_ne!(ran.code, 0, "{out}");
    assert!(
        out.contains("small/1.in: invalid (input validator input_validators/bounded.c): n = 50 is out of [1, 10]"),
        "{out}"
    );
    assert!(!out.contains("big/1.in: invalid"), "{out}");
    assert!(out.contains("3 inputs checked, 1 invalid"), "{out}");
}

#[test]
fn a_failed_assert_in_a_kattis_validator_is_a_rejection_with_a_warning() {
    if !installed("python3") {
        println!("not run: python3 is not installed (an assert-based validator)");
        return;
    }
    let s = Scratch::new();
    s.write("pkg/problem.yaml", "name: Asserted\n");
    s.write(
        "pkg/input_validators/validate.py",
        "import sys\nn = int(sys.stdin.readline())\nassert 1 <= n <= 10, 'n out of range'\nsys.exit(42)\n",
    );
    s.write("pkg/data/sample/1.in", "7\n");
    s.write("pkg/data/sample/1.ans", "7\n");
    s.write("pkg/data/secret/1.in", "70\n");
    s.write("pkg/data/secret/1.ans", "70\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert_ne!(ran.code, 0, "{out}");
    assert!(
        out.contains("secret/1.in: invalid (input validator input_validators/validate.py, exit code 1): AssertionError: n out of range"),
        "{out}"
    );
    assert!(
        out.contains("ended with exit code 1, which the Kattis protocol does not define (42 valid, 43 invalid): counted as a rejection"),
        "{out}"
    );
    // The mutation probe counts those runs as rejections: no mutation of
    // `7` outside the range was accepted.
    assert!(
        !out.contains("accepted a mutated sample/1.in: a number"),
        "{out}"
    );
}

/// A Kattis answer validator: the answer is one integer on a line.
/// An answer validator: one number on a line; with `--even` after the
/// input's path (a group's output_validator_args), an even one.
const ONE_NUMBER_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) { long n; char c; if (scanf("%ld%c", &n, &c) == 2 && c == '\n' && getchar() == EOF) { if (argc > 2 && !strcmp(argv[argc - 1], "--even") && n % 2) { fprintf(stderr, "odd\n"); return 43; } return 42; } fprintf(stderr, "not one number\n"); return 43; }"#;

#[test]
fn the_2025_09_folders_of_known_bad_and_good_files() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Bounded\n",
    );
    s.write("pkg/input_validators/bounded.c", BOUNDED_C);
    s.write("pkg/answer_validators/one.c", ONE_NUMBER_C);
    s.write("pkg/data/sample/1.in", "7\n");
    s.write("pkg/data/sample/1.ans", "7\n");
    s.write("pkg/data/secret/1.in", "9\n");
    s.write("pkg/data/secret/1.ans", "9\n");
    // Rejected as it must be, and one the validator wrongly accepts.
    s.write("pkg/data/invalid_input/zero.in", "0\n");
    s.write("pkg/data/invalid_input/spaced.in", "5\n");
    s.write("pkg/data/invalid_answer/two.in", "5\n");
    s.write("pkg/data/invalid_answer/two.ans", "5 5\n");
    // Invalid only with their groups' arguments: the input validator's
    // (max 10), the answer validator's (--even, which would be an unknown
    // flag to a default output validator: there it is not one).
    s.write(
        "pkg/data/invalid_input/small/test_group.yaml",
        "input_validator_args: '10'\n",
    );
    s.write("pkg/data/invalid_input/small/eleven.in", "11\n");
    s.write(
        "pkg/data/invalid_answer/even/test_group.yaml",
        "output_validator_args: --even\n",
    );
    s.write("pkg/data/invalid_answer/even/three.in", "3\n");
    s.write("pkg/data/invalid_answer/even/three.ans", "3\n");
    s.write("pkg/data/invalid_output/wrong.in", "5\n");
    s.write("pkg/data/invalid_output/wrong.ans", "5\n");
    s.write("pkg/data/invalid_output/wrong.out", "6\n");
    s.write("pkg/data/valid_output/spaces.in", "5\n");
    s.write("pkg/data/valid_output/spaces.ans", "5\n");
    s.write("pkg/data/valid_output/spaces.out", "  5  \n\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert_ne!(ran.code, 0, "{out}");
    assert!(
        out.contains("invalid_input/spaced.in: every input validator accepted it, but data/invalid_input/ says it is invalid"),
        "{out}"
    );
    assert!(
        out.contains("invalid_input: 2 of 3 rejected as they must be"),
        "{out}"
    );
    assert!(
        out.contains("invalid_answer: 2 of 2 rejected as they must be"),
        "{out}"
    );
    assert!(
        out.contains("invalid_output: 1 of 1 rejected as they must be"),
        "{out}"
    );
    assert!(
        out.contains("valid_output: 1 of 1 accepted as they must be"),
        "{out}"
    );
    assert!(
        out.contains("answer validators: 2 answers checked, 0 invalid"),
        "{out}"
    );
    assert!(
        out.contains("validated") && out.contains("1 error"),
        "{out}"
    );
    // The input of a valid_output/ case must be valid input (2025-09).
    s.write("pkg/data/valid_output/zero.in", "0\n");
    s.write("pkg/data/valid_output/zero.ans", "0\n");
    s.write("pkg/data/valid_output/zero.out", "0\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        out.contains(
            "valid_output/zero.in: input validator input_validators/bounded.c rejected it"
        ),
        "{out}"
    );
    std::fs::remove_file(s.path().join("pkg/data/valid_output/zero.in")).unwrap();
    // A wrong answer in secret/ is caught by the answer validator.
    s.write("pkg/data/secret/1.ans", "nine\n");
    std::fs::remove_file(s.path().join("pkg/data/invalid_input/spaced.in")).unwrap();
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        out.contains("secret/1.ans: invalid answer (answer validator answer_validators/one.c): not one number"),
        "{out}"
    );
}

/// 2025-09 "Validation" of samples: a sample's `.out` must pass the output
/// validator against its `.ans`, and so must an `.ans` the statement shows
/// as it is; an `.ans` with an `.ans.statement` beside it is not shown, so
/// not checked. Legacy packages have no such rule.
#[test]
fn the_2025_09_samples_shown_must_pass_the_output_validator() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Even\n",
    );
    // Accepts an even number no larger than the answer's.
    s.write(
        "pkg/output_validator/even.c",
        "#include <stdio.h>\nint main(int c, char **v){ FILE *a=fopen(v[2],\"r\"); long x,y; if(!a||fscanf(a,\"%ld\",&x)!=1) return 1; if(scanf(\"%ld\",&y)!=1) return 43; return y%2==0&&y<=x?42:43; }\n",
    );
    s.write("pkg/data/sample/shown.in", "1\n");
    s.write("pkg/data/sample/shown.ans", "8\n");
    s.write("pkg/data/sample/odd.in", "2\n");
    s.write("pkg/data/sample/odd.ans", "9\n");
    s.write("pkg/data/sample/odd.out", "4\n");
    s.write("pkg/data/sample/hidden.in", "3\n");
    s.write("pkg/data/sample/hidden.ans", "7\n");
    s.write("pkg/data/sample/hidden.ans.statement", "6\n");
    s.write("pkg/data/sample/bad.in", "4\n");
    s.write("pkg/data/sample/bad.ans", "10\n");
    s.write("pkg/data/sample/bad.out", "12\n");
    s.write("pkg/data/secret/1.in", "5\n");
    s.write("pkg/data/secret/1.ans", "5\n");
    let validate = || {
        let mut cmd = s.judge();
        cmd.args(["validate", "pkg"]);
        let ran = run(cmd);
        (ran.code, format!("{}{}", ran.stdout, ran.stderr))
    };
    let (code, out) = validate();
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("sample/bad.out: the output check said WA")
            && out.contains("but a sample's .out must pass it"),
        "{out}"
    );
    assert!(
        out.contains("sample: 1 of 2 .out files accepted as they must be"),
        "{out}"
    );
    // Answers the checker rejects that are not shown as they are: warnings.
    for hidden in ["sample/hidden.ans", "sample/odd.ans", "secret/1.ans"] {
        assert!(
            out.contains(&format!(
                "warning: {}",
                s.path().join("pkg/data").join(hidden).display()
            )),
            "{hidden}: {out}"
        );
    }
    assert!(out.contains("1 error"), "{out}");
    // An odd .ans shown as it is: an error.
    std::fs::remove_file(s.path().join("pkg/data/sample/odd.out")).unwrap();
    let (_, out) = validate();
    assert!(
        out.contains("sample/odd.ans: the checker does not accept the answer file as an output")
            && out.contains("but a sample's .ans shown in the statement must pass it"),
        "{out}"
    );
    assert!(out.contains("2 errors"), "{out}");
    // A legacy package: no such rule (the rejected answer is a warning).
    s.write("pkg/problem.yaml", "name: Even\nvalidation: custom\n");
    std::fs::rename(
        s.path().join("pkg/output_validator"),
        s.path().join("pkg/output_validators"),
    )
    .unwrap();
    let (_, out) = validate();
    assert!(!out.contains(".out files accepted"), "{out}");
    assert!(!out.contains("shown in the statement must pass"), "{out}");
}

#[test]
fn an_output_validator_with_build_and_run_scripts() {
    let s = Scratch::new();
    s.write("p/problem.yaml", "name: Plus one\nvalidation: custom\n");
    s.write("p/data/sample/1.in", "3\n");
    s.write("p/data/sample/1.ans", "4\n");
    s.write(
        "p/output_validator/check.c",
        "#include <stdio.h>\nint main(int c, char **v){ FILE *a=fopen(v[2],\"r\"); long x,y; if(!a||fscanf(a,\"%ld\",&x)!=1) return 1; if(scanf(\"%ld\",&y)!=1) return 43; return x==y?42:43; }\n",
    );
    s.script("p/output_validator/build", "cc -O2 -o checker check.c");
    s.script(
        "p/output_validator/run",
        "exec \"$(dirname \"$0\")/checker\" \"$@\"",
    );
    s.write(
        "p/submissions/accepted/a.c",
        "#include <stdio.h>\nint main(){long x;scanf(\"%ld\",&x);printf(\"%ld\\n\",x+1);}\n",
    );
    s.write("p/submissions/wrong_answer/b.c", "int main(){return 0;}\n");
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // The package itself is never written: the build ran in a copy.
    assert!(!s.path().join("p/output_validator/checker").exists());
}

/// 2025-09 `constants`: `{{name}}` replaced in the output validator, the
/// submissions and test_group.yaml (the input validator's arguments), as
/// the format lists them; not in test data.
#[test]
fn constants_are_replaced_in_programs_and_group_files() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Constants\nconstants:\n  MAX_N: 10\n  GREETING: hi\n",
    );
    s.write("pkg/input_validators/bounded.c", BOUNDED_C);
    s.write(
        "pkg/data/secret/test_group.yaml",
        "input_validator_args: '{{MAX_N}}'\n",
    );
    s.write("pkg/data/sample/1.in", "3\n");
    s.write("pkg/data/sample/1.ans", "{{GREETING}}\n");
    s.write("pkg/data/secret/1.in", "7\n");
    s.write("pkg/data/secret/1.ans", "x\n");
    // A Python set literal unless replaced: the validator would crash. The
    // answer files (test data) keep their `{{GREETING}}` as written.
    s.write(
        "pkg/output_validator/check.py",
        "import sys\nt = sys.stdin.read().split()\nans = open(sys.argv[2]).read().split()\nkept = ans in (['{' * 2 + 'GREETING' + '}' * 2], ['x'])\nsys.exit(42 if kept and t == ['{{GREETING}}', str(2 * {{MAX_N}})] else 43)\n",
    );
    // Not C unless replaced: a compile error.
    s.write(
        "pkg/submissions/accepted/a.c",
        "#include <stdio.h>\nint main(void){printf(\"%s %d\\n\", \"{{GREETING}}\", 2 * {{MAX_N}});return 0;}\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "pkg"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(!ran.stderr.contains("constants"), "{}", ran.stderr);
    // `judge run PKG --submission` builds it as verify does.
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "-q", "--submission"])
        .arg(s.path().join("pkg/submissions/accepted/a.c"));
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // The group's argument is 10: 7 is valid, 11 is not.
    s.write("pkg/data/secret/2.in", "11\n");
    s.write("pkg/data/secret/2.ans", "x\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert!(out.contains("n = 11 is out of [1, 10]"), "{out}");
    assert!(out.contains("3 inputs checked, 1 invalid"), "{out}");
}

/// 2025-09: a test case's `NAME.files/` is copied into the submission's
/// working directory before it runs; the next case's directory is clean.
#[test]
fn a_cases_files_are_in_the_working_directory() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Files\n",
    );
    s.write("pkg/data/secret/1.in", "1\n");
    s.write("pkg/data/secret/1.ans", "from the file\n");
    s.write("pkg/data/secret/1.files/sub/extra.txt", "from the file\n");
    // Readable by the submission's user even when the setter's copy is not.
    std::fs::set_permissions(
        s.path().join("pkg/data/secret/1.files/sub/extra.txt"),
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    s.write("pkg/data/secret/2.in", "2\n");
    s.write("pkg/data/secret/2.ans", "none\n");
    s.write(
        "pkg/submissions/accepted/cat.c",
        "#include <stdio.h>\nint main(void){char b[64]; FILE *f = fopen(\"sub/extra.txt\", \"r\"); if (f && fgets(b, sizeof b, f)) fputs(b, stdout); else puts(\"none\"); return 0;}\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "pkg", "-j", "1"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
}

/// 2025-09 `args`: a group's `test_group.yaml` gives the submission
/// command-line arguments, a case's own `NAME.yaml` replaces them for that
/// case, and a case with neither runs with none.
#[test]
fn args_reach_the_submission_from_the_group_or_the_case() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Args\n",
    );
    s.write("pkg/data/sample/1.in", "0\n");
    s.write("pkg/data/sample/1.ans", "none\n");
    s.write(
        "pkg/data/secret/g/test_group.yaml",
        "args: [--from, group]\n",
    );
    s.write("pkg/data/secret/g/1.in", "2\n");
    s.write("pkg/data/secret/g/1.ans", "--from|group\n");
    s.write("pkg/data/secret/g/2.in", "2\n");
    s.write("pkg/data/secret/g/2.yaml", "args: ['two words', x]\n");
    // One argument with a space, not split into two.
    s.write("pkg/data/secret/g/2.ans", "two words|x\n");
    // An empty list replaces the group's: no arguments (also for a
    // subgroup's test_group.yaml).
    s.write("pkg/data/secret/g/3.in", "0\n");
    s.write("pkg/data/secret/g/3.yaml", "args: []\n");
    s.write("pkg/data/secret/g/3.ans", "none\n");
    s.write("pkg/data/secret/g/sub/test_group.yaml", "args: []\n");
    s.write("pkg/data/secret/g/sub/1.in", "0\n");
    s.write("pkg/data/secret/g/sub/1.ans", "none\n");
    s.write("pkg/data/secret/g/inherits/1.in", "2\n");
    s.write("pkg/data/secret/g/inherits/1.ans", "--from|group\n");
    s.write(
        "pkg/submissions/accepted/echo.c",
        "#include <stdio.h>\nint main(int argc, char **argv){ if (argc == 1) puts(\"none\"); for (int i = 1; i < argc; i++) printf(\"%s%c\", argv[i], i + 1 < argc ? '|' : '\\n'); return 0; }\n",
    );
    s.write(
        "pkg/submissions/wrong_answer/none.c",
        "#include <stdio.h>\nint main(void){ puts(\"none\"); return 0; }\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "pkg", "-j", "2", "--format", "json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(!ran.stderr.contains("args"), "no warning: {}", ran.stderr);
    // Input validators get the input_validator_args, then the case's args
    // (2025-09): the input says how many arguments the validator gets.
    s.write(
        "pkg/input_validators/count.c",
        "#include <stdio.h>\nint main(int argc, char **argv){ (void)argv; int k; if (scanf(\"%d\", &k) != 1) return 43; return argc - 1 == k ? 42 : 43; }\n",
    );
    let mut cmd = s.judge();
    cmd.args(["validate", "pkg"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
}

/// 2025-09: the package's included data (of `include/<language>/`, which replaces
/// `include/default/`; not code) is in the working directory on every run, as the spec's
/// "possibly overwriting ... included data" has it; a case's `NAME.files/`
/// overwrites a file of the same name; included code is built in, not
/// copied.
#[test]
fn included_data_is_in_the_working_directory() {
    let s = Scratch::new();
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Included\n",
    );
    // C has its own directory: default's is not used for it.
    s.write("pkg/include/default/table.txt", "from default\n");
    s.write("pkg/include/c/table.txt", "from include\n");
    s.write("pkg/include/c/helper.h", "#define GREETING \"hello\"\n");
    // An included file replaces the submission's own of that name.
    s.write(
        "pkg/submissions/accepted/dir/helper.h",
        "#define GREETING \"own\"\n",
    );
    s.write(
        "pkg/submissions/accepted/dir/main.c",
        "#include <stdio.h>\n#include \"helper.h\"\nint main(void){int n; if (scanf(\"%d\", &n) != 1) return 1; printf(\"%s %s 0\\n\", n == 1 ? \"from include\" : \"from the case\", GREETING); return 0;}\n",
    );
    s.write("pkg/data/secret/1.in", "1\n");
    s.write("pkg/data/secret/1.ans", "from include hello 0\n");
    s.write("pkg/data/secret/2.in", "2\n");
    s.write("pkg/data/secret/2.ans", "from the case hello 0\n");
    s.write("pkg/data/secret/2.files/table.txt", "from the case\n");
    // Prints the table's line, the header's greeting, and whether the
    // header was copied into the working directory (it is code: 0).
    s.write(
        "pkg/submissions/accepted/read.c",
        "#include <stdio.h>\n#include <string.h>\n#include \"helper.h\"\nint main(void){char b[64] = \"none\\n\"; FILE *f = fopen(\"table.txt\", \"r\"); if (f && !fgets(b, sizeof b, f)) strcpy(b, \"empty\\n\"); b[strcspn(b, \"\\n\")] = 0; printf(\"%s %s %d\\n\", b, GREETING, fopen(\"helper.h\", \"r\") != NULL); return 0;}\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "pkg", "-j", "2"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // And under `judge run --submission` as under verify.
    let mut cmd = s.judge();
    cmd.args(["run", "pkg", "--format", "json", "--submission"])
        .arg(s.path().join("pkg/submissions/accepted/read.c"));
    let report = run(cmd).json();
    assert_eq!(report["verdict"], "AC", "{report:#}");
}

/// A group's output_validator_flags come after problem.yaml's
/// validator_flags for the default validator too (they replaced them).
#[test]
fn a_groups_flags_add_to_the_problems_for_the_default_validator() {
    let s = Scratch::new();
    third_package(
        &s,
        "validator_flags: float_tolerance 1e-3\n",
        "testdata.yaml",
    );
    // With a byte order mark, as editors on some systems write it.
    s.write(
        "pkg/data/secret/exact/testdata.yaml",
        "\u{feff}output_validator_flags: case_sensitive\r\ndescription: exact\r\n",
    );
    let (report, ran) = run_third(&s);
    assert_eq!(
        verdicts(&report),
        [
            pair("sample/1.in", "AC"),
            pair("secret/exact/1.in", "AC"),
            pair("secret/loose/1.in", "AC"),
        ],
        "{report:#}\n{}",
        ran.stderr
    );
}
