//! The built-in puzzles through the command line, with seed-style mini
//! submissions: a classic Rotation IDA* in C++ (right, or with one planted
//! bug) and small scripts for the other puzzles. Each gets the right
//! verdict and message through `judge run --submission` and `judge check`.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// The classic IDA* of the seeds (h = 8 − most frequent centre digit),
/// with switches that plant one bug each.
const ROTATION_IDA: &str = r#"
#include <cstdio>
#include <cstring>
#include <algorithm>
static const int g[8][7] = {{0,2,6,11,15,20,22},{1,3,8,12,17,21,23},{10,9,8,7,6,5,4},{19,18,17,16,15,14,13},
                            {23,21,17,12,8,3,1},{22,20,15,11,6,2,0},{13,14,15,16,17,18,19},{4,5,6,7,8,9,10}};
static const int centre[8] = {6,7,8,11,12,15,16,17};
static const int inv[8] = {5,4,7,6,1,0,3,2};
static int q[24], path[64], depth;
static bool reverse_order = false;
static int h() { int c[4] = {0}; for (int i = 0; i < 8; i++) c[q[centre[i]]]++; return 8 - std::max(c[1], std::max(c[2], c[3])); }
static void pull(int m) { int t = q[g[m][0]]; for (int i = 0; i < 6; i++) q[g[m][i]] = q[g[m][i + 1]]; q[g[m][6]] = t; }
static bool dfs(int u, int last) {
    int e = h(); if (u + e > depth) return false; if (e == 0) return true;
    for (int k = 0; k < 8; k++) { int m = reverse_order ? 7 - k : k;
        if (last >= 0 && m == inv[last]) continue;
        pull(m); path[u] = m; if (dfs(u + 1, m)) return true; pull(inv[m]); }
    return false;
}
int main(int argc, char **argv) {
    bool drop_last = false, wrong_digit = false, one_more = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "reverse")) reverse_order = true;
        if (!strcmp(argv[i], "drop-last")) drop_last = true;
        if (!strcmp(argv[i], "wrong-digit")) wrong_digit = true;
        if (!strcmp(argv[i], "one-more")) one_more = true;
    }
    static int boards[100000][24]; int n = 0;
    while (scanf("%d", &q[0]) == 1 && q[0]) { for (int i = 1; i < 24; i++) scanf("%d", &q[i]); memcpy(boards[n++], q, sizeof q); }
    if (drop_last) n--;
    for (int b = 0; b < n; b++) {
        memcpy(q, boards[b], sizeof q);
        depth = 0; while (!dfs(0, -1)) depth++;
        if (depth == 0) { puts("No moves needed"); }
        else {
            for (int i = 0; i < depth; i++) putchar('A' + path[i]);
            if (one_more && b == 0) { putchar('A'); putchar('F'); }  // a move and its inverse: legal, longer
            putchar('\n');
        }
        printf("%d\n", wrong_digit && b == n - 1 ? q[6] % 3 + 1 : q[6]);
    }
}
"#;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A scratch tree with the shipped rotation sample and boards of length 5.
fn rotation_cases(s: &Scratch) {
    for name in ["sample", "len05"] {
        s.write(
            &format!("cases/rotation/{name}.in"),
            std::fs::read(repo(&format!("cases/rotation/{name}.in"))).unwrap(),
        );
        s.write(
            &format!("cases/rotation/{name}.ans"),
            std::fs::read(repo(&format!("cases/rotation/{name}.ans"))).unwrap(),
        );
    }
}

fn run_rotation(s: &Scratch, ida: &Path, bug: &str, filter: &str) -> serde_json::Value {
    let mut cmd = s.judge();
    let submission = format!("{} {bug}", ida.display());
    cmd.args([
        "run",
        "cases/rotation",
        "--problem",
        "rotation",
        "--format",
        "json",
        "--filter",
        filter,
        "--submission",
        &submission,
    ]);
    run(cmd).json()
}

#[test]
fn rotation_mini_submissions_through_judge_run() {
    let s = Scratch::new();
    rotation_cases(&s);
    let ida = build("c++", "rotation_ida", ROTATION_IDA);
    // (bug, case, verdict, message)
    let expectations = [
        (
            "right",
            "sample.in",
            "AC",
            "2 cases, all shortest and smallest",
        ),
        (
            "right",
            "len05.in",
            "AC",
            "5 cases, all shortest and smallest",
        ),
        (
            "reverse",
            "sample.in",
            "WA",
            "case 2, output line 3: not the smallest of the shortest answers: position 1: found H, smallest is D; expected DDHH",
        ),
        (
            "drop-last",
            "sample.in",
            "WA",
            "output ends after 1 of 2 cases",
        ),
        ("wrong-digit", "sample.in", "WA", "case 2, output line 4"),
        (
            "one-more",
            "sample.in",
            "WA",
            "case 1, output line 1: 4 moves, optimum is 2",
        ),
    ];
    for (bug, case, verdict, message) in expectations {
        let report = run_rotation(&s, &ida, bug, case);
        let c = &report["cases"][0];
        assert_eq!(c["verdict"], verdict, "{bug} on {case}: {c:#}");
        let got = c["message"].as_str().unwrap();
        assert!(got.contains(message), "{bug} on {case}: {got}");
    }
}

#[test]
fn rotation_mini_submissions_through_judge_check() {
    let s = Scratch::new();
    rotation_cases(&s);
    let ida = build("c++", "rotation_ida", ROTATION_IDA);
    let input = s.path().join("cases/rotation/sample.in");
    let answer = s.path().join("cases/rotation/sample.ans");
    for (bug, code, word) in [
        ("right", 0, "ok"),
        ("reverse", 1, "wrong answer"),
        ("drop-last", 1, "wrong answer"),
        ("one-more", 1, "wrong answer"),
    ] {
        let output = std::process::Command::new(&ida)
            .arg(bug)
            .stdin(std::fs::File::open(&input).unwrap())
            .output()
            .unwrap()
            .stdout;
        let out_path = s.write(&format!("{bug}.out"), output);
        let mut cmd = s.judge();
        cmd.args(["check", "rotation"])
            .arg(&input)
            .arg(&out_path)
            .arg(&answer);
        let ran = run(cmd);
        assert_eq!(ran.code, code, "{bug}: {}", ran.stderr);
        assert_eq!(ran.stderr.lines().count(), 1, "one line: {}", ran.stderr);
        assert!(ran.stderr.starts_with(word), "{bug}: {}", ran.stderr);
    }
    // lexmin = false accepts the H..A answer (shortest, not smallest).
    let output = std::process::Command::new(&ida)
        .arg("reverse")
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap()
        .stdout;
    let out_path = s.write("reverse.out", output);
    let mut cmd = s.judge();
    cmd.args(["check", "rotation", "--lexmin", "false"])
        .arg(&input)
        .arg(&out_path);
    assert_eq!(run(cmd).code, 0);
}

#[test]
fn an_answer_file_the_checker_proves_wrong_is_ie_never_wa() {
    let s = Scratch::new();
    rotation_cases(&s);
    s.write("cases/rotation/sample.ans", "AC\n2\nDDHG\n2\n");
    let ida = build("c++", "rotation_ida", ROTATION_IDA);
    let report = run_rotation(&s, &ida, "right", "sample.in");
    let c = &report["cases"][0];
    assert_eq!(c["verdict"], "IE", "{c:#}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("answer file wrong for case 2"),
        "{c:#}"
    );
}

/// Scripts that print a fixed output, as tiny wrong (or right) submissions.
fn script(s: &Scratch, name: &str, output: &str) -> PathBuf {
    s.script(name, &format!("cat >/dev/null\nprintf '%s' '{output}'"))
}

fn judge_one(
    s: &Scratch,
    problem: &str,
    case_dir: &str,
    submission: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let mut cmd = s.judge();
    cmd.args([
        "run",
        case_dir,
        "--problem",
        problem,
        "--format",
        "json",
        "--submission",
    ])
    .arg(submission)
    .args(extra);
    run(cmd).json()
}

#[test]
fn other_puzzles_mini_submissions() {
    let s = Scratch::new();
    for (puzzle, name) in [
        ("booksort", "sample"),
        ("swap", "sample"),
        ("flip", "sample"),
        ("pilots", "sample"),
    ] {
        for ext in ["in", "ans"] {
            s.write(
                &format!("{puzzle}/{name}.{ext}"),
                std::fs::read(repo(&format!("cases/{puzzle}/{name}.{ext}"))).unwrap(),
            );
        }
    }
    // (puzzle, output, extra flags, verdict, message part)
    let cases: &[(&str, &str, &[&str], &str, &str)] = &[
        ("booksort", "2\n3\n5 or more\n", &[], "AC", ""),
        ("booksort", "2\n4\n5 or more\n", &[], "WA", "case 2"),
        ("booksort", "2\n3\n", &[], "WA", "case 3"),
        ("flip", "4\n", &[], "AC", ""),
        ("flip", "Impossible\n", &[], "WA", "optimum is 4"),
        ("flip", "3\n", &[], "WA", "optimum is 4"),
        // A shortest sequence that is not the smallest: AC by the statement,
        // WA when judge.toml (here --lexmin) demands the canonical one.
        ("swap", "4\n1222\n1424\n4344\n3242\n", &[], "AC", ""),
        (
            "swap",
            "4\n1222\n1424\n4344\n3242\n",
            &["--lexmin", "true"],
            "WA",
            "smallest",
        ),
        ("swap", "4\n1222\n1433\n3242\n4344\n", &[], "WA", "1433"),
        ("swap", "3\n1222\n1424\n3242\n", &[], "WA", "target"),
        ("pilots", "6\n4 4\n4 3\n4 1\n1 4\n1 3\n1 1\n", &[], "AC", ""),
        (
            "pilots",
            "6\n1 1\n1 3\n1 4\n4 1\n4 3\n5 0\n",
            &[],
            "WA",
            "\"5\"",
        ),
        (
            "pilots",
            "7\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n1 1\n",
            &[],
            "WA",
            "turned twice",
        ),
    ];
    for (i, (puzzle, output, extra, verdict, message)) in cases.iter().enumerate() {
        let program = script(&s, &format!("mini-{i}.sh"), output);
        let report = judge_one(&s, puzzle, puzzle, &program, extra);
        let c = &report["cases"][0];
        assert_eq!(c["verdict"], *verdict, "{puzzle} {output:?}: {c:#}");
        assert!(
            c["message"].as_str().unwrap().contains(message),
            "{puzzle} {output:?}: {c:#}"
        );
    }
}

#[test]
fn validate_solve_gen_stats_from_the_command_line() {
    let s = Scratch::new();
    // gen refuses to overwrite, and writes what validate accepts.
    let mut cmd = s.judge();
    cmd.args([
        "gen", "rotation", "--count", "3", "--seed", "5", "--length", "13", "--out", "g",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let mut cmd = s.judge();
    cmd.args([
        "gen", "rotation", "--count", "3", "--seed", "5", "--length", "13", "--out", "g",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("already exist"), "{}", ran.stderr);
    let mut cmd = s.judge();
    cmd.args(["validate", "g", "--problem", "rotation"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    // A broken input: file, line, column and reason.
    s.write(
        "bad/1.in",
        "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 4\n0\n",
    );
    let mut cmd = s.judge();
    cmd.args(["validate", "bad", "--problem", "rotation"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout.contains("bad/1.in:1:47: found \"4\""),
        "{}",
        ran.stdout
    );
    // solve prints the reference byte for byte.
    let mut cmd = s.judge();
    cmd.args(["solve", "rotation"])
        .arg(repo("cases/rotation/sample.in"));
    let ran = run(cmd);
    assert_eq!(ran.stdout, "AC\n2\nDDHH\n2\n");
    // stats over the whole space.
    let mut cmd = s.judge();
    cmd.args(["stats", "flip"]);
    let ran = run(cmd);
    assert!(ran.stdout.contains("61,440"), "{}", ran.stdout);
}
