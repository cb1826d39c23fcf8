//! Scoring problems end to end: a legacy/2023-07 package graded by
//! testdata.yaml with an output validator writing score.txt, a 2025-09
//! package with test_group.yaml subtasks, a prerequisite and
//! score_multiplier.txt checked against submissions.yaml scores, and a
//! judge.toml problem whose four shards merge to the score of one run.

mod common;
use common::*;

/// Echo the input's first number.
const ECHO_C: &str = r#"#include <stdio.h>
int main(void){long long x;if(scanf("%lld",&x)!=1)return 1;printf("%lld\n",x);return 0;}"#;

/// Echo, but 0 for inputs of 100 or more.
const SMALL_ONLY_C: &str = r#"#include <stdio.h>
int main(void){long long x;if(scanf("%lld",&x)!=1)return 1;printf("%lld\n",x<100?x:0);return 0;}"#;

/// A Kattis output validator: the output must be the input's first number;
/// the input's second number, when positive, is the case's score, written
/// to score.txt (`points`) or score_multiplier.txt (`fraction`).
fn validator(file: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {{
    FILE *in = fopen(argv[1], "r");
    double x, p = 0, y;
    if (!in || fscanf(in, "%lf %lf", &x, &p) < 1) return 1;
    if (scanf("%lf", &y) != 1 || y != x) return 43;
    if (p > 0) {{
        char path[4096];
        snprintf(path, sizeof path, "%s{file}", argv[3]);
        FILE *f = fopen(path, "w");
        fprintf(f, "%g\n", p);
        fclose(f);
    }}
    return 42;
}}
"#
    )
}

fn legacy_package(s: &Scratch) -> std::path::PathBuf {
    let p = "leg";
    s.write(
        &format!("{p}/problem.yaml"),
        "problem_format_version: 2023-07-draft\ntype: scoring\nname: Echo\nlimits:\n  time_limit: 1\nvalidation: custom score\n",
    );
    s.write(
        &format!("{p}/data/testdata.yaml"),
        "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
    );
    s.write(
        &format!("{p}/data/secret/testdata.yaml"),
        "on_reject: continue\nrange: 0 100\ngrader_flags: sum accept_if_any_accepted\n",
    );
    s.write(
        &format!("{p}/data/secret/a/testdata.yaml"),
        "on_reject: break\naccept_score: 20\nrange: 0 20\ngrader_flags: min\n",
    );
    s.write(
        &format!("{p}/data/secret/b/testdata.yaml"),
        "on_reject: continue\ngrader_flags: sum\n",
    );
    s.write(&format!("{p}/data/sample/1.in"), "5\n");
    s.write(&format!("{p}/data/sample/1.ans"), "5\n");
    for (case, input) in [
        ("a/1", "1"),
        ("a/2", "2"),
        ("a/3", "300"),
        ("a/4", "4"),
        ("b/1", "7 30"),
        ("b/2", "500 50"),
    ] {
        s.write(&format!("{p}/data/secret/{case}.in"), format!("{input}\n"));
        s.write(&format!("{p}/data/secret/{case}.ans"), "-\n");
    }
    s.write(
        &format!("{p}/output_validators/v/v.c"),
        validator("score.txt"),
    );
    s.write(&format!("{p}/submissions/accepted/echo.c"), ECHO_C);
    s.write(
        &format!("{p}/submissions/partially_accepted/small.c"),
        SMALL_ONLY_C,
    );
    s.path().join(p)
}

#[test]
fn a_legacy_package_is_graded_as_problemtools_grades_it() {
    let s = Scratch::new();
    let package = legacy_package(&s);
    let small = package.join("submissions/partially_accepted/small.c");
    let mut cmd = s.judge();
    cmd.arg("run")
        .arg(&package)
        .arg("--submission")
        .arg(&small)
        .args(["--format", "json", "-j", "1"]);
    let ran = run(cmd);
    let report = ran.json();
    let score = &report["scores"][0];
    // a: break at 3.in (300 → 0), score min(20, 20, 0) = 0, verdict WA;
    // b: 7 → 30 points from score.txt, 500 → WA, reject 0: sum 30;
    // secret: sum 30, and WA: neither a nor b is accepted, so
    // accept_if_any_accepted does not apply.
    assert_eq!(score["score"], 30.0, "{score}");
    assert_eq!(score["model"], "kattis grader");
    assert_eq!(score["max_score"], 100.0);
    let case = |name: &str| {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["case"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(case("secret/b/1.in")["partial"]["points"], 30.0);
    assert_eq!(case("secret/b/1.in")["score"], 30.0);
    assert_eq!(case("secret/a/1.in")["score"], 20.0);
    assert_eq!(case("secret/a/3.in")["verdict"], "WA");
    // a breaks at 3.in: 4.in is not judged, and one worker launching in
    // order never started it.
    let after = case("secret/a/4.in");
    assert_eq!(after["verdict"], "SKIP", "{after}");
    assert!(
        after["message"]
            .as_str()
            .unwrap()
            .contains("on_reject: break")
    );
    assert!(after.get("exit").is_none(), "4.in was run: {after}");
    let groups = score["groups"].as_array().unwrap();
    let a = groups.iter().find(|g| g["name"] == "secret/a").unwrap();
    assert_eq!((&a["score"], &a["verdict"]), (&0.0.into(), &"WA".into()));
    assert_eq!(score["verdict"], "WA", "neither group is accepted: {score}");

    // -v: a scoring problem's case lines come graded, as the summary has
    // them (4.in SKIP by the grader's break, not by the launch-time note).
    let mut cmd = s.judge();
    cmd.arg("run")
        .arg(&package)
        .arg("--submission")
        .arg(&small)
        .args(["-v", "-j", "1"]);
    let ran = run(cmd);
    let line = ran
        .stdout
        .lines()
        .find(|l| l.contains("secret/a/4.in"))
        .unwrap_or_else(|| panic!("{}", ran.stdout));
    assert!(
        line.starts_with("SKIP") && line.contains("on_reject: break"),
        "{}",
        ran.stdout
    );

    // verify: the accepted echo scores 100; small.c is partially accepted
    // only if the grader accepts it, which it does not: a disagreement
    // named with the score.
    let mut cmd = s.judge();
    cmd.arg("verify").arg(&package);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("accepted/echo.c") && ran.stdout.contains("score 100/100"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("expected a partial score (some points, not all, accepted by the grader); got 30/100, the grader's verdict WA"),
        "{}",
        ran.stdout
    );
    // Accept a group when any of it is accepted: now partially accepted.
    s.write(
        "leg/data/secret/a/testdata.yaml",
        "on_reject: break\naccept_score: 20\nrange: 0 20\ngrader_flags: min accept_if_any_accepted\n",
    );
    let mut cmd = s.judge();
    cmd.arg("verify").arg(&package);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("OK: 2 of 2"), "{}", ran.stdout);
}

fn new_package(s: &Scratch) -> std::path::PathBuf {
    let p = "new";
    s.write(
        &format!("{p}/problem.yaml"),
        "problem_format_version: 2025-09\ntype: scoring\nname: Echo\nuuid: 1\nlimits:\n  time_limit: 1\n",
    );
    s.write(
        &format!("{p}/data/secret/g1/test_group.yaml"),
        "max_score: 40\nscore_aggregation: min\n",
    );
    s.write(
        &format!("{p}/data/secret/g2/test_group.yaml"),
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: secret/g1\n",
    );
    s.write(&format!("{p}/data/sample/1.in"), "5\n");
    s.write(&format!("{p}/data/sample/1.ans"), "-\n");
    for (case, input) in [
        ("g1/1", "1"),
        ("g1/2", "2"),
        ("g2/1", "3"),
        ("g2/2", "400 0.5"),
    ] {
        s.write(&format!("{p}/data/secret/{case}.in"), format!("{input}\n"));
        s.write(&format!("{p}/data/secret/{case}.ans"), "-\n");
    }
    s.write(
        &format!("{p}/output_validator/v.c"),
        validator("score_multiplier.txt"),
    );
    s.write(&format!("{p}/submissions/accepted/echo.c"), ECHO_C);
    s.write(
        &format!("{p}/submissions/wrong_answer/small.c"),
        SMALL_ONLY_C,
    );
    // Wrong from 2 up: fails g1, so g2 is not judged.
    s.write(
        &format!("{p}/submissions/wrong_answer/one.c"),
        r#"#include <stdio.h>
int main(void){long long x;if(scanf("%lld",&x)!=1)return 1;printf("%lld\n",x<2||x==5?x:0);return 0;}"#,
    );
    s.path().join(p)
}

#[test]
fn a_2025_09_package_scores_subtasks_against_submissions_yaml() {
    let s = Scratch::new();
    let package = new_package(&s);
    // echo: g1 40 + g2 (30 + 0.5 × 30) = 85; small: g1 40 + g2 30 = 70;
    // one: g1 fails, g2 requires it: 0, g2 not judged.
    s.write(
        "new/submissions/submissions.yaml",
        "accepted/echo.c:\n  score: 85\nwrong_answer/small.c:\n  score: [60, 80]\n  secret/g2:\n    score: 30\nwrong_answer/one.c:\n  score: 0\n  secret/g2:\n    score: 0\n",
    );
    let mut cmd = s.judge();
    cmd.arg("verify").arg(&package).args(["--report", "v.json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("OK: 3 of 3"), "{}", ran.stdout);
    let report: serde_json::Value = serde_json::from_str(&s.read("v.json")).unwrap();
    let programs: Vec<&serde_json::Value> = report["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["program"])
        .collect();
    let one = report["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["program"] == "wrong_answer/one.c")
        .unwrap_or_else(|| panic!("{programs:?}"))
        .clone();
    assert_eq!(one["score"], 0.0);
    assert_eq!(one["groups"][1]["verdict"], "SKIP", "{one}");
    let not_judged: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["program"] == "wrong_answer/one.c" && c["verdict"] == "SKIP")
        .collect();
    assert_eq!(not_judged.len(), 2, "both g2 cases: {not_judged:?}");
    assert!(
        not_judged[0]["message"]
            .as_str()
            .unwrap()
            .contains("requires secret/g1")
    );
    let echo = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["program"] == "accepted/echo.c" && c["case"] == "secret/g2/2.in")
        .unwrap()
        .clone();
    assert_eq!(echo["partial"]["fraction"], 0.5);
    assert_eq!(echo["score"], 15.0);

    // An expectation the score misses is named with both.
    s.write(
        "new/submissions/submissions.yaml",
        "accepted/echo.c:\n  score: 90\nwrong_answer/small.c:\n  secret/g2:\n    score: 60\n",
    );
    let mut cmd = s.judge();
    cmd.arg("verify").arg(&package);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("expected score 90; got 85/100"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("expected 60 on group secret/g2; got 30/60"),
        "{}",
        ran.stdout
    );
}

#[test]
fn bad_scoring_keys_are_named() {
    let s = Scratch::new();
    let package = new_package(&s);
    s.write(
        "new/data/secret/g2/test_group.yaml",
        "max_score: 60\nscore_aggregation: average\n",
    );
    let load = || {
        let mut cmd = s.judge();
        cmd.arg("run").arg(&package).args(["--submission", "true"]);
        run(cmd)
    };
    let ran = load();
    assert_eq!(ran.code, 2, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr.contains("g2/test_group.yaml: score_aggregation")
            && ran.stderr.contains("expected pass-fail, sum or min"),
        "{}",
        ran.stderr
    );
    s.write(
        "new/data/secret/g2/test_group.yaml",
        "max_score: 60\nrequire_pass: secret/g3\n",
    );
    let ran = load();
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("require_pass: \"secret/g3\" is not a test data group"),
        "{}",
        ran.stderr
    );
    // A group without max_score under secret's default 100.
    s.write(
        "new/data/secret/g2/test_group.yaml",
        "score_aggregation: sum\n",
    );
    let ran = load();
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("max_score: group secret/g2 is unbounded while secret's max_score is 100"),
        "{}",
        ran.stderr
    );
    // judge.toml: an unknown aggregation and a prerequisite written later.
    sum_cases(&s);
    s.write(
        "judge.toml",
        "[problem.sum]\n[problem.sum.group.a]\ncases = \"*\"\npoints = 10\nrequires = [\"b\"]\n[problem.sum.group.b]\ncases = \"*\"\npoints = 10\n",
    );
    let mut cmd = s.judge();
    cmd.arg("list");
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("problem.sum.group.a.requires")
            && ran
                .stderr
                .contains("\"b\" is not a group written before \"a\""),
        "{}",
        ran.stderr
    );
}

#[test]
fn four_shards_merge_to_the_score_of_one_run() {
    let s = Scratch::new();
    let examples = s.copy_tree(&examples(), "examples");
    let config = examples.join("judge.toml");
    let submission = examples.join("pairs/submissions/partially_accepted/int_overflow.c");
    let judge = |extra: &[&str]| {
        let mut cmd = s.judge();
        cmd.arg("--config")
            .arg(&config)
            .args(["run", "--problem", "pairs", "--submission"])
            .arg(&submission)
            .args(extra);
        run(cmd)
    };
    let whole = judge(&["--report", "whole.json"]);
    assert_eq!(whole.code, 1, "{}\n{}", whole.stdout, whole.stderr);
    // NDJSON: the finished event carries the scores.
    let lines = judge(&["--format", "ndjson"]);
    let last = lines.stdout.lines().last().unwrap_or_default();
    let finished: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(finished["event"], "finished");
    assert_eq!(finished["scores"][0]["score"], 30.0, "{last}");
    // The page: each group a row with its points beside its cases.
    let page = judge(&["--report", "whole.html"]);
    assert_eq!(page.code, 1);
    let html = s.read("whole.html");
    assert!(html.contains("id=\"scores\""), "no scores section");
    assert!(html.contains("<strong>30 / 100</strong>"), "no total");
    assert!(
        html.contains("<td class=\"num\">0 / 40</td>"),
        "no group row"
    );
    assert!(html.contains("requires s2, which was not passed"));
    assert!(whole.stdout.contains("score 30/100"), "{}", whole.stdout);
    // The terminal: a row per group, points, cases, verdict, aggregation.
    for row in [
        "s1     30/30   3/3 AC  AC       min",
        "s2     0/40    0/3 AC  WA       min",
        "s3     0/30    0/1 AC  SKIP     min — requires s2, which was not passed",
    ] {
        assert!(whole.stdout.contains(row), "{row}\n{}", whole.stdout);
    }
    // JUnit: the suite's score, maximum and groups, each case's points.
    let junit = judge(&["--format", "junit"]).stdout;
    for property in [
        r#"<property name="score" value="30"/>"#,
        r#"<property name="max_score" value="100"/>"#,
        r#"<property name="score.s1" value="30"/>"#,
        r#"<property name="score.s3" value="0"/>"#,
    ] {
        assert!(junit.contains(property), "{property}\n{junit}");
    }
    // A case of s1 (min over 30 points) carries all 30.
    let small = junit.find(r#"name="small/1.in""#).expect("small/1.in");
    assert!(
        junit[small..small + 200].contains(r#"<property name="score" value="30"/>"#),
        "{junit}"
    );
    // --fail-fast works per group: s2's score is decided at its first
    // failure, the rest of s2 is not run, s1 still scores.
    let fast = judge(&["--fail-fast", "-j", "1", "--format", "json"]);
    let report = fast.json();
    assert_eq!(report["scores"][0]["score"], 30.0, "{}", fast.stderr);
    assert_eq!(
        report["verdict"], "WA",
        "the failure, not a SKIP, is the verdict"
    );
    let messages: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "SKIP")
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages
            .iter()
            .filter(
                |m| m.starts_with("not run: --fail-fast stopped group s2 after medium/1.in failed")
            )
            .count(),
        2,
        "{messages:?}"
    );
    // judge limits goes on working on a scoring problem.
    let mut cmd = s.judge();
    cmd.arg("--config").arg(&config).args(["limits", "pairs"]);
    let limits = run(cmd);
    assert_eq!(limits.code, 0, "{}\n{}", limits.stdout, limits.stderr);
    assert!(
        limits.stdout.contains("ok   accepted/linear.c"),
        "{}",
        limits.stdout
    );
    let mut shards = Vec::new();
    for k in 1..=4 {
        let name = format!("shard{k}.json");
        let ran = judge(&["--partition", &format!("hash:{k}/4"), "--report", &name]);
        assert!(ran.code <= 1, "{}\n{}", ran.stdout, ran.stderr);
        shards.push(name);
    }
    let mut cmd = s.judge();
    cmd.arg("merge").args(&shards).args(["--format", "json"]);
    let merged = run(cmd).json();
    let one: serde_json::Value = serde_json::from_str(&s.read("whole.json")).unwrap();
    assert_eq!(merged["scores"], one["scores"], "{merged}");
    assert_eq!(merged["scores"][0]["score"], 30.0);
    let verdicts = |r: &serde_json::Value| -> Vec<String> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{} {}", c["case"], c["verdict"]))
            .collect()
    };
    assert_eq!(verdicts(&merged), verdicts(&one));
}

#[test]
fn stress_counts_partial_credit_as_a_disagreement() {
    let s = Scratch::new();
    let examples = s.copy_tree(&examples(), "examples");
    // The right sum, positions 1 2 whatever they hold: the checker gives
    // half credit, which stress reports although the case is accepted.
    s.write(
        "sum_only.c",
        r#"#include <stdio.h>
int main(void){long n,k;long long v,b=-1,c=-1;if(scanf("%ld",&n)!=1)return 1;
for(k=0;k<n;k++){if(scanf("%lld",&v)!=1)return 1;if(v>b){c=b;b=v;}else if(v>c)c=v;}
printf("%lld\n1 2\n",b+c);return 0;}"#,
    );
    s.write(
        "gen.c",
        r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc,char**argv){srand(atoi(argv[1]));int n=3+rand()%5;printf("%d\n",n);
for(int i=0;i<n;i++)printf("%d ",1+rand()%50);printf("\n");return 0;}"#,
    );
    let mut cmd = s.judge();
    cmd.arg("--config")
        .arg(examples.join("judge.toml"))
        .args([
            "stress",
            "pairs",
            "--submission",
            "sum_only.c",
            "--generator",
            "gen.c",
        ])
        .arg("--against")
        .arg(examples.join("pairs/submissions/accepted/linear.c"))
        .args(["--count", "50", "--out", "found"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("partial credit: 50% of the case's points"),
        "{all}"
    );
}

#[test]
fn an_interactive_validator_gives_partial_credit() {
    let s = Scratch::new();
    s.write(
        "inter/problem.yaml",
        "problem_format_version: 2025-09\ntype: [scoring, interactive]\nname: Twice\nuuid: 2\nlimits:\n  time_limit: 1\n",
    );
    s.write("inter/data/secret/1.in", "5\n");
    s.write("inter/data/secret/1.ans", "-\n");
    s.write("inter/data/secret/2.in", "8\n");
    s.write("inter/data/secret/2.ans", "-\n");
    // Tells the submission x and expects 2x back; when x is even it gives
    // 0.7 of the case's points (score_multiplier.txt).
    s.write(
        "inter/output_validator/v.c",
        r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    long x, y;
    if (!in || fscanf(in, "%ld", &x) != 1) return 1;
    printf("%ld\n", x);
    fflush(stdout);
    if (scanf("%ld", &y) != 1 || y != 2 * x) return 43;
    if (x % 2 == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%sscore_multiplier.txt", argv[3]);
        FILE *f = fopen(path, "w");
        fprintf(f, "0.7\n");
        fclose(f);
    }
    return 42;
}
"#,
    );
    s.write(
        "twice.c",
        r#"#include <stdio.h>
int main(void){long x;if(scanf("%ld",&x)!=1)return 1;printf("%ld\n",2*x);fflush(stdout);return 0;}"#,
    );
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "inter",
        "--submission",
        "twice.c",
        "--format",
        "json",
    ]);
    let ran = run(cmd);
    let report = ran.json();
    // Two cases of 50 points each (sum): 50 + 0.7 × 50.
    assert_eq!(report["scores"][0]["score"], 85.0, "{}", ran.stderr);
    assert_eq!(report["cases"][1]["partial"]["fraction"], 0.7);
}

/// The 2023-07 draft's `scoring:` maps in testdata.yaml (as the draft's own
/// example problem writes them) grade by subtasks, not by the legacy
/// default grader.
#[test]
fn a_2023_07_draft_scoring_map_in_testdata_yaml_grades_subtasks() {
    let s = Scratch::new();
    s.write(
        "d/problem.yaml",
        "problem_format_version: 2023-07-draft\ntype: scoring\nname: Echo\nlimits:\n  time_limit: 1\n",
    );
    s.write("d/data/sample/1.in", "1\n");
    s.write("d/data/sample/1.ans", "1\n");
    s.write(
        "d/data/secret/testdata.yaml",
        "scoring:\n  aggregation: sum\n",
    );
    for (group, score, input) in [("subtask1", 30, 5), ("subtask2", 70, 500)] {
        s.write(
            &format!("d/data/secret/{group}/testdata.yaml"),
            format!("scoring:\n  score: {score}\n  aggregation: min\n"),
        );
        s.write(&format!("d/data/secret/{group}/1.in"), format!("{input}\n"));
        s.write(
            &format!("d/data/secret/{group}/1.ans"),
            format!("{input}\n"),
        );
    }
    for (source, name, score) in [(ECHO_C, "echo", 100.0), (SMALL_ONLY_C, "small", 30.0)] {
        s.write(&format!("{name}.c"), source);
        let mut cmd = s.judge();
        cmd.args(["run", "d", "--format", "json", "--submission"])
            .arg(s.path().join(format!("{name}.c")));
        let report = run(cmd).json();
        assert_eq!(report["scores"][0]["score"], score, "{name}: {report:#}");
        assert_ne!(report["scores"][0]["model"], "kattis grader", "{report:#}");
    }
}

/// A judge error in scoring (here a score multiplier of 1.5, outside
/// 0..1) is the run's IE, exit 3, under `judge run` as under verify: not
/// an accepted run with its points.
#[test]
fn a_judge_error_in_scoring_makes_the_run_ie() {
    let s = Scratch::new();
    let package = new_package(&s);
    s.write("new/data/secret/g2/2.in", "400 1.5\n");
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission"])
        .arg(package.join("submissions/accepted/echo.c"))
        .arg(&package);
    let ran = run(cmd);
    let report = ran.json();
    assert_eq!(ran.code, 3, "{report:#}");
    assert_eq!(report["verdict"], "IE", "{report:#}");
    let errors = report["scores"][0]["errors"].to_string();
    assert!(errors.contains("outside"), "{errors}");
}
