//! Expected verdicts as each contest format defines them: DOMjudge's
//! folders and `@EXPECTED_RESULTS@:` lines, `check_manually/` listed and
//! never counted, and a memory overrun in `run_time_error/` counted as the
//! run-time error Kattis and DOMjudge report it as.

mod common;
use common::*;

const PLUS_ONE_C: &str =
    "#include <stdio.h>\nint main(){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x+1);}\n";
/// Takes 1 MiB at a time and touches it, past any limit.
const HOG_C: &str = "#include <stdlib.h>\n#include <string.h>\nint main(){for(int i=0;i<4096;i++){char*p=malloc(1<<20); memset(p,1,1<<20);} return 0;}\n";

fn package(s: &Scratch, domjudge: bool) {
    s.write(
        "p/problem.yaml",
        "name: Plus one\nlimits:\n  memory: 64\n  time_limit: 1\n",
    );
    if domjudge {
        s.write("p/domjudge-problem.ini", "timelimit='1'\n");
    }
    s.write("p/data/sample/1.in", "1\n");
    s.write("p/data/sample/1.ans", "2\n");
    s.write("p/data/secret/1.in", "5\n");
    s.write("p/data/secret/1.ans", "6\n");
    s.write("p/submissions/accepted/a.c", PLUS_ONE_C);
    s.write("p/submissions/run_time_error/hog.c", HOG_C);
}

fn verify(s: &Scratch) -> Ran {
    let mut cmd = s.judge();
    cmd.args(["verify", "p", "-v"]);
    run(cmd)
}

fn row<'a>(ran: &'a Ran, name: &str) -> &'a str {
    ran.stdout
        .lines()
        .find(|l| l.contains(name))
        .unwrap_or_else(|| panic!("no row for {name}:\n{}", ran.stdout))
}

#[test]
fn a_memory_overrun_in_run_time_error_is_the_run_time_error_kattis_reports() {
    let s = Scratch::new();
    package(&s, false);
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let hog = row(&ran, "run_time_error/hog.c");
    assert!(
        hog.trim_start().starts_with("ok") && hog.contains("MLE 2"),
        "{hog}"
    );

    // The judge's own submissions (no package) keep MLE apart from RE.
    let t = Scratch::new();
    t.write(
        "judge.toml",
        "[problem.p]\ncases = \"cases\"\nmemory_limit = \"64MiB\"\n",
    );
    t.write("cases/1.in", "1\n");
    t.write("cases/1.ans", "2\n");
    t.write("submissions/p/run_time_error/hog.c", HOG_C);
    let mut cmd = t.judge();
    cmd.args(["verify"]);
    let own = run(cmd);
    assert_ne!(own.code, 0, "{}", own.stdout);
    assert!(
        own.stdout.contains("expected RE; got MLE"),
        "{}\n{}",
        own.stdout,
        own.stderr
    );
}

#[test]
fn domjudge_folders_and_expected_results() {
    let s = Scratch::new();
    package(&s, true);
    s.write("p/submissions/compiler_error/ce.c", "int main({\n");
    s.write("p/submissions/no_output/none.c", "int main(){return 0;}\n");
    s.write(
        "p/submissions/check_manually/loop.c",
        "int main(){for(;;);}\n",
    );
    // In wrong_answer/, but the source says it may also time out: the line
    // wins over the folder.
    s.write(
        "p/submissions/wrong_answer/slow.c",
        "#include <stdio.h>\n// @EXPECTED_RESULTS@: WRONG-ANSWER, TIMELIMIT\nint main(){int x;scanf(\"%d\",&x);if(x==5)for(;;);printf(\"%d\\n\",x+1);}\n",
    );
    // A directory submission declares its results in any of its files (as
    // DOMjudge's own example does, in a text file beside a source whose
    // comment names the tag in prose: that one is passed over, warned).
    s.write(
        "p/submissions/multiple/silent/main.c",
        "/* The @EXPECTED_RESULTS@: tag in expected_result.txt is used. */\nint main(){return 0;}\n",
    );
    s.write(
        "p/submissions/multiple/silent/expected_result.txt",
        "@EXPECTED_RESULTS@: CORRECT, NO-OUTPUT\n",
    );
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let silent = row(&ran, "multiple/silent");
    assert!(
        silent.trim_start().starts_with("ok") && silent.contains("WA 2"),
        "{silent}"
    );
    assert!(
        ran.stderr
            .contains("silent/main.c:1: @EXPECTED_RESULTS@: \"TAG\"")
            && ran.stderr.contains("passed over"),
        "{}",
        ran.stderr
    );
    for (name, expected, got) in [
        ("compiler_error/ce.c", "CE", "CE 2"),
        ("no_output/none.c", "no_output", "WA 2"),
        ("check_manually/loop.c", "check_manually", "TLE 2"),
        (
            "wrong_answer/slow.c",
            "permitted AC WA TLE, required WA TLE",
            "AC 1 TLE 1",
        ),
        ("run_time_error/hog.c", "RE", "MLE 2"),
    ] {
        let line = row(&ran, name);
        assert!(
            line.trim_start().starts_with("ok") && line.contains(expected) && line.contains(got),
            "{line}"
        );
    }

    // DOMjudge's remapped Kattis names read as its own; a tag that does
    // not read makes that submission not run, named with its line, and
    // fails verify while every other submission still runs.
    s.write(
        "p/submissions/run_time_error/exit3.c",
        "// @EXPECTED_RESULTS@:   RUN_TIME_ERROR , ACCEPTED  \nint main(){return 3;}\n",
    );
    s.write(
        "p/submissions/accepted/prose.c",
        "// How to use the @EXPECTED_RESULTS@: tag.\n// @EXPECTED_RESULTS@: CORRECT\nint main(){return 0;}\n",
    );
    let ran = verify(&s);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let exit3 = row(&ran, "run_time_error/exit3.c");
    assert!(
        exit3.trim_start().starts_with("ok") && exit3.contains("RE 2"),
        "{exit3}"
    );
    let prose = row(&ran, "accepted/prose.c");
    assert!(
        prose.contains("its expected results cannot be read")
            && prose.contains(
                "prose.c:2: @EXPECTED_RESULTS@: appears again on line 2 (first on line 1)"
            ),
        "{prose}\n{}",
        ran.stdout
    );
    assert!(
        row(&ran, "compiler_error/ce.c")
            .trim_start()
            .starts_with("ok"),
        "{}",
        ran.stdout
    );
    std::fs::remove_file(s.path().join("p/submissions/accepted/prose.c")).unwrap();

    // An expected result that does not happen fails, naming the format's
    // count of the judge's verdict.
    s.write(
        "p/submissions/accepted/hog2.c",
        format!("// @EXPECTED_RESULTS@: TIMELIMIT\n{HOG_C}"),
    );
    let ran = verify(&s);
    assert_ne!(ran.code, 0);
    assert!(
        ran.stdout
            .contains("got RE (MLE: DOMjudge counts it so) on sample/1.in"),
        "{}",
        ran.stdout
    );
}

#[test]
fn submissions_yaml_globs_braces_and_entrypoints() {
    let s = Scratch::new();
    package(&s, false);
    s.write(
        "p/problem.yaml",
        "problem_format_version: 2025-09\nname: Plus one\nlimits:\n  memory: 64\n  time_limit: 1\n",
    );
    // Wrong on 5, or too slow on 5: brace alternatives name both.
    s.write(
        "p/submissions/mixed/greedy.c",
        "#include <stdio.h>\nint main(){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x==5?0:x+1);}\n",
    );
    s.write(
        "p/submissions/mixed/lazy.c",
        "#include <stdio.h>\nint main(){int x;scanf(\"%d\",&x);if(x==5)for(;;);printf(\"%d\\n\",x+1);}\n",
    );
    // Two C files and a third one that is not part of it: the entry point
    // names the main file (the others compile with it).
    s.write(
        "p/submissions/other/multi/run.c",
        "#include <stdio.h>\nint inc(int);\nint main(void){int x; scanf(\"%d\",&x); printf(\"%d\\n\", inc(x)); return 0;}\n",
    );
    s.write(
        "p/submissions/other/multi/inc.c",
        "int inc(int x) { return x + 1; }\n",
    );
    s.write(
        "p/submissions/submissions.yaml",
        "\"mixed/{greedy,lazy}.c\":\n  permitted: [AC, WA, TLE]\n  required: [WA, TLE]\n  message: either fails\nother/multi:\n  entrypoint: run.c\n  permitted: [AC]\n  required: [AC]\n\"*/hog.c\":\n  score: 10\n",
    );
    let ran = verify(&s);
    let out = format!("{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, 0, "{out}");
    for name in ["mixed/greedy.c", "mixed/lazy.c", "other/multi"] {
        let line = row(&ran, name);
        assert!(line.trim_start().starts_with("ok"), "{line}");
    }
    assert!(
        row(&ran, "mixed/lazy.c").contains("permitted AC WA TLE, required WA TLE"),
        "{out}"
    );
    assert!(out.contains("*/hog.c: score: not acted on"), "{out}");
    assert!(
        out.contains("{greedy,lazy}.c: message: not checked"),
        "{out}"
    );
    // A glob matches within one directory: the folder's own rule still
    // holds where the file says nothing.
    s.write(
        "p/submissions/submissions.yaml",
        "\"*.c\":\n  permitted: [WA]\n",
    );
    let ran = verify(&s);
    let hog = row(&ran, "run_time_error/hog.c");
    assert!(
        hog.trim_start().starts_with("ok") && hog.contains("RE"),
        "{hog}"
    );

    // 2025-09: a glob under a verdict folder adds to the folder's rule
    // ("an additional requirement, instead of replacing"): lazy.c's TLE is
    // not permitted in wrong_answer/ whatever its entry permits. An entry
    // named as the folder overrides the folder's default, key by key.
    s.write(
        "p/submissions/wrong_answer/lazy.c",
        s.read("p/submissions/mixed/lazy.c"),
    );
    std::fs::remove_dir_all(s.path().join("p/submissions/mixed")).unwrap();
    s.write(
        "p/submissions/submissions.yaml",
        "wrong_answer/*:\n  permitted: [AC, WA, TLE]\n  required: [WA, TLE]\n",
    );
    let ran = verify(&s);
    assert_eq!(ran.code, 1, "{}", ran.stdout);
    let lazy = row(&ran, "wrong_answer/lazy.c");
    assert!(lazy.trim_start().starts_with("FAIL"), "{}", ran.stdout);
    // For its TLE (the folder's permitted list), not for a missing WA.
    assert!(ran.stdout.contains("got TLE on"), "{}", ran.stdout);
    s.write(
        "p/submissions/submissions.yaml",
        "wrong_answer:\n  permitted: [AC, WA, TLE]\n",
    );
    // TLE permitted now, but `required` is the folder's still (WA), which
    // lazy.c (AC, TLE) does not show.
    let ran = verify(&s);
    let lazy = row(&ran, "wrong_answer/lazy.c");
    assert!(
        lazy.trim_start().starts_with("FAIL") && lazy.contains("permitted AC WA TLE, required WA"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("expected WA on some case"),
        "{}",
        ran.stdout
    );
    s.write(
        "p/submissions/submissions.yaml",
        "wrong_answer:\n  permitted: [AC, WA, TLE]\n  required: [WA, TLE]\n",
    );
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
}

/// Spins about a quarter of a second of CPU, then answers.
const SPIN_C: &str = "#include <stdio.h>\n#include <time.h>\nint main(){int x;scanf(\"%d\",&x);clock_t end=clock()+CLOCKS_PER_SEC/4;volatile long n=0;while(clock()<end)n++;printf(\"%d\\n\",x+1);}\n";

#[test]
fn a_package_without_a_time_limit_derives_it_from_its_accepted_submissions() {
    let s = Scratch::new();
    s.write("p/problem.yaml", "name: Plus one\n");
    s.write("p/data/sample/1.in", "1\n");
    s.write("p/data/sample/1.ans", "2\n");
    s.write("p/submissions/accepted/spin.c", SPIN_C);
    s.write(
        "p/submissions/time_limit_exceeded/loop.c",
        "int main(){for(;;);}\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "p", "--report", "v.json"]);
    let ran = run(cmd);
    let out = format!("{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, 0, "{out}");
    // 5 × ~0.25s (problemtools' multiplier), rounded up to whole seconds.
    assert!(
        out.contains("p: no time limit in the package: 2s, derived: 5 × the slowest accepted run"),
        "{out}"
    );
    let report: serde_json::Value = serde_json::from_str(&s.read("v.json")).unwrap();
    let problem = &report["problems"][0];
    assert_eq!(problem["time_limit_ms"], 2000.0, "{problem:#}");
    assert!(
        problem["time_limit_from"]
            .as_str()
            .unwrap()
            .starts_with("derived: 5 ×"),
        "{problem:#}"
    );
    // A limit in problem.yaml is used as it is, and named.
    s.write(
        "p/problem.yaml",
        "name: Plus one\nlimits:\n  time_limit: 3\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "p", "--report", "v.json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    let report: serde_json::Value = serde_json::from_str(&s.read("v.json")).unwrap();
    assert_eq!(report["problems"][0]["time_limit_ms"], 3000.0);
    assert_eq!(
        report["problems"][0]["time_limit_from"],
        "problem.yaml limits.time_limit"
    );
}

/// submissions.yaml says what a submission gets on named test data nodes
/// (a group, a glob of directories, one case): checked beside the whole.
#[test]
fn submissions_yaml_verdicts_per_test_data_node() {
    let s = Scratch::new();
    package(&s, false);
    s.write(
        "p/problem.yaml",
        "problem_format_version: 2025-09\nname: Plus one\nlimits:\n  memory: 64\n  time_limit: 1\n",
    );
    s.write("p/data/secret/big/2.in", "5\n");
    s.write("p/data/secret/big/2.ans", "6\n");
    // Right on the samples, wrong on every 5.
    s.write(
        "p/submissions/wrong_answer/five.c",
        "#include <stdio.h>\nint main(){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x==5?0:x+1);}\n",
    );
    // submissions.yaml as given, then `judge verify p -v` and these
    // arguments: (exit code, stdout and stderr).
    let verify_with = |yaml: &str, args: &[&str]| -> (i32, String) {
        s.write("p/submissions/submissions.yaml", yaml);
        let ran = s.run_judge(&[&["verify", "p", "-v"], args].concat());
        (ran.code, format!("{}\n{}", ran.stdout, ran.stderr))
    };
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  sample:\n    permitted: [AC]\n  \"secret/*\":\n    required: [WA]\n  secret/1:\n    permitted: [WA]\n",
        &[],
    );
    assert_eq!(code, 0, "{out}");
    let row = out
        .lines()
        .find(|l| l.contains("wrong_answer/five.c"))
        .unwrap_or_default();
    assert!(row.trim_start().starts_with("ok"), "{out}");
    assert!(!out.contains("not acted on"), "{out}");

    // The samples must fail: they do not, and the verdict names the node
    // and the case.
    let (code, out) = verify_with("wrong_answer/five.c:\n  sample:\n    required: [WA]\n", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("expected WA on sample (required); got 1 AC"),
        "{out}"
    );

    // Only AC is permitted under secret/big: the case that got WA is named.
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  secret/big:\n    permitted: [AC]\n",
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("on secret/big; got WA on secret/big/2.in"),
        "{out}"
    );

    // A node no case is in cannot show a required verdict.
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  secret/huge:\n    required: [TLE]\n",
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("on secret/huge (required); no case is in it"),
        "{out}"
    );

    // A node --filter left no case of is not checked, and that is said;
    // the nodes that have cases among those run still are.
    let samples = ["--filter", "sample/*"];
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  secret/big:\n    required: [WA]\n  sample:\n    permitted: [AC]\n",
        &samples,
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "the expectation on secret/big (required WA) was not checked: --filter left none of its cases"
        ),
        "{out}"
    );
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  secret/big:\n    required: [WA]\n  sample:\n    required: [WA]\n",
        &samples,
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("the required WA on sample was not checked: --filter chose the cases"),
        "{out}"
    );
    // The folder's own required WA, not shown on the samples, is said too.
    assert!(
        out.contains("the required verdict was not checked"),
        "{out}"
    );
    // Said with -q too, and kept in the JSON report.
    let ran = s.run_judge(&["verify", "p", "-q", "--filter", "sample/*"]);
    assert!(ran.stderr.contains("was not checked"), "{}", ran.stderr);
    let ran = s.run_judge(&["verify", "p", "--format", "json", "--filter", "sample/*"]);
    assert!(
        ran.json()["warnings"]
            .to_string()
            .contains("was not checked"),
        "{}",
        ran.stdout
    );
    // A permitted verdict is checked on whatever ran.
    let (code, out) = verify_with(
        "wrong_answer/five.c:\n  sample:\n    permitted: [WA]\n",
        &samples,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("on sample; got AC on sample/1.in"), "{out}");
}

/// A program that writes 2 MiB, then does `end`: `for(;;);` (runs on),
/// `return 0;` or `return 1;`.
fn flood(end: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <string.h>\nint main(){{static char b[1<<16]; memset(b,'x',sizeof b); for(int i=0;i<32;i++) fwrite(b,1,sizeof b,stdout); fflush(stdout); {end}}}\n"
    )
}

/// DOMjudge cuts output off at its limit and lets the program run on
/// (runguard's `--streamsize`), then orders its verdicts TIMELIMIT,
/// RUN-ERROR, OUTPUT-LIMIT: so a DOMjudge package's flood that runs on is a
/// time-out (its own example `test-fill-stdout` expects TIMELIMIT), one
/// that crashes a run error, one that ends well an output-limit. A Kattis
/// package's flood is killed at the limit at once.
#[test]
fn output_past_the_limit_follows_the_packages_judge() {
    let s = Scratch::new();
    package(&s, true);
    s.write(
        "p/problem.yaml",
        "name: Plus one\nlimits:\n  memory: 64\n  time_limit: 1\n  output: 1\n",
    );
    s.write(
        "p/submissions/time_limit_exceeded/fill.c",
        flood("for(;;);"),
    );
    s.write("p/submissions/output_limit/ends.c", flood("return 0;"));
    s.write("p/submissions/run_time_error/crash.c", flood("return 1;"));
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    for (name, got) in [
        ("time_limit_exceeded/fill.c", "TLE 2"),
        ("output_limit/ends.c", "OLE 2"),
        ("run_time_error/crash.c", "RE 2"),
    ] {
        let line = row(&ran, name);
        assert!(
            line.trim_start().starts_with("ok") && line.contains(got),
            "{line}"
        );
    }
    let run_json = |submission: &str| {
        let mut cmd = s.judge();
        cmd.args(["run", "p", "--format", "json", "--submission", submission]);
        run(cmd).json()
    };
    let report = run_json("p/submissions/output_limit/ends.c");
    assert!(
        report["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("the rest was cut off and the program ran to its end"),
        "{report:#}"
    );
    // Without domjudge-problem.ini: killed at the limit, OLE.
    std::fs::remove_file(s.path().join("p/domjudge-problem.ini")).unwrap();
    let report = run_json("p/submissions/time_limit_exceeded/fill.c");
    assert_eq!(report["cases"][0]["verdict"], "OLE", "{report:#}");
    assert!(
        report["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("the program was killed"),
        "{report:#}"
    );
}
