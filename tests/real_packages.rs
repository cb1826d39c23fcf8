//! Shapes seen in contests' published Kattis packages beyond the corpus,
//! each on a small package of the test's own: a Python validator split
//! into a main file and a helper module, a validator in a language the
//! judge builds no tools in (named, not passed over), and the legacy
//! `grading:` map of problem.yaml.

mod common;
use common::*;

/// A pass-fail package: a number in, its double out; the output is
/// judged by `output_validators/chk/`, the input by
/// `input_validators/val/`, each a Python program of several files.
fn package(s: &Scratch) {
    s.write(
        "p/problem.yaml",
        "source: Test\nlicense: cc0\nvalidation: custom\n",
    );
    s.write("p/data/sample/1.in", "3\n");
    s.write("p/data/sample/1.ans", "6\n");
    s.write("p/data/secret/1.in", "21\n");
    s.write("p/data/secret/1.ans", "42\n");
    s.write(
        "p/submissions/accepted/double.py",
        "print(2 * int(input()))\n",
    );
    s.write(
        "p/submissions/wrong_answer/triple.py",
        "print(3 * int(input()))\n",
    );
}

fn verify(s: &Scratch) -> Ran {
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    run(cmd)
}

/// A validator directory of Python files: the main one is found as
/// BAPCtools and problemtools find it (a name starting with `main`), or
/// as the judge finds a submission's (the one file testing `__name__`,
/// even when a helper sorts before it); the others are its modules.
#[test]
fn a_python_validator_with_a_helper_module_runs_its_main_file() {
    let s = Scratch::new();
    package(&s);
    // A helper first by name; the file to run tests __name__.
    s.write(
        "p/output_validators/chk/a_tokens.py",
        "def tokens(f):\n    return f.read().split()\n",
    );
    s.write(
        "p/output_validators/chk/check.py",
        "import sys\nfrom a_tokens import tokens\n\ndef main():\n    ok = tokens(open(sys.argv[2])) == tokens(sys.stdin)\n    sys.exit(42 if ok else 43)\n\nif __name__ == \"__main__\":\n    main()\n",
    );
    // `main.py` and the module it imports; `zz.py` would reject all.
    s.write("p/input_validators/val/limits.py", "LOW, HIGH = 1, 100\n");
    s.write(
        "p/input_validators/val/main.py",
        "import sys\nfrom limits import LOW, HIGH\nline = sys.stdin.read()\nok = line == line.strip() + '\\n' and LOW <= int(line) <= HIGH\nsys.exit(42 if ok else 43)\n",
    );
    s.write("p/input_validators/val/zz.py", "import sys\nsys.exit(43)\n");
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("OK: 2 of 2"), "{}", ran.stdout);

    let mut cmd = s.judge();
    cmd.args(["validate", "p"]);
    let ran = run(cmd);
    assert!(
        !ran.stdout.contains("cannot tell how to run")
            && !ran.stderr.contains("cannot tell how to run"),
        "{}\n{}",
        ran.stdout,
        ran.stderr
    );
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("input_validators/val: 2 inputs checked, 0 invalid")
            && all.contains("checker output_validators/chk (kattis): 2 answer files given as outputs, 2 accepted"),
        "{all}"
    );
    // An input the validator's module rejects is named.
    s.write("p/data/secret/2.in", "500\n");
    s.write("p/data/secret/2.ans", "1000\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "p"]);
    let ran = run(cmd);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("data/secret/2.in: invalid (input validator input_validators/val)"),
        "{all}"
    );
}

/// A validator in a language the judge builds no tools in is named in a
/// warning with its file, never left out in silence.
#[test]
fn a_java_input_validator_is_named_not_passed_over() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/output_validators/chk/check.py",
        "import sys\nsys.exit(42 if open(sys.argv[2]).read().split() == sys.stdin.read().split() else 43)\n",
    );
    s.write(
        "p/input_validators/Validator.java",
        "public class Validator { public static void main(String[] a) { System.exit(42); } }\n",
    );
    let mut cmd = s.judge();
    cmd.args(["validate", "p"]);
    let ran = run(cmd);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("input_validators/Validator.java: a .java program") && all.contains("skipped"),
        "{all}"
    );
}

/// Legacy problem.yaml's `grading:` map: `show_test_data_groups` (what a
/// scoreboard shows) is read past; `objective` is named as not acted on.
#[test]
fn legacy_grading_map_names_only_what_matters() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/problem.yaml",
        "source: Test\nlicense: cc0\ntype: scoring\ngrading:\n  show_test_data_groups: true\n  objective: min\n",
    );
    s.write(
        "p/submissions/accepted/double.py",
        "print(2 * int(input()))\n",
    );
    std::fs::remove_dir_all(s.path().join("p/submissions/wrong_answer")).unwrap();
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr
            .contains("problem.yaml: grading.objective: not acted on"),
        "{}",
        ran.stderr
    );
    assert!(
        !ran.stderr.contains("show_test_data_groups")
            && !ran.stderr.contains("grading: not acted on"),
        "{}",
        ran.stderr
    );
}

/// A DOMjudge problem archive needs no problem.yaml (DOMjudge's import
/// reads one only when it is there): a directory with a
/// `domjudge-problem.ini`, `data/` and `submissions/` is a package, judged
/// with the default settings and the ini's time limit.
#[test]
fn a_domjudge_archive_with_only_its_ini_is_a_package() {
    let s = Scratch::new();
    s.write(
        "d/domjudge-problem.ini",
        "probid = 'C'\nname = 'Double'\ntimelimit = '2'\ncolor = '#00ff00'\n",
    );
    s.write("d/data/sample/1.in", "3\n");
    s.write("d/data/sample/1.ans", "6\n");
    s.write("d/data/secret/1.in", "21\n");
    s.write("d/data/secret/1.ans", "42\n");
    s.write(
        "d/submissions/accepted/double.py",
        "print(2 * int(input()))\n",
    );
    s.write(
        "d/submissions/wrong_answer/plus.py",
        "# @EXPECTED_RESULTS@: WRONG-ANSWER\nprint(int(input()) + 3)\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "d", "--format", "json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(all.contains("domjudge-problem.ini timelimit"), "{all}");
    // `judge run` on its data finds the package above it, too.
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "d/data/secret",
        "--submission",
        "d/submissions/accepted/double.py",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("AC: 1/1"), "{}", ran.stdout);
}
