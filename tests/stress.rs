//! `judge stress`: a planted bug in a small Rotation solver (wrong only on
//! boards that need 12 or more moves) is found and shrunk to one board of
//! the smallest failing length; a generator-driven run finds a bug in an
//! A+B program and writes the reference's answer.

mod common;
use common::*;
use judge::puzzles::{self, SolveOptions};

/// The examples' IDA* solver, wrong (12 × A) where the optimum is 12 or more.
fn planted_solver() -> String {
    let right =
        std::fs::read_to_string(examples().join("rotation/submissions/accepted/ida.c")).unwrap();
    let search = "for (depth = 0; !search(0, -1); depth++) {}";
    assert!(right.contains(search));
    right.replace(
        search,
        "depth = 0;\n        while (depth < 12 && !search(0, -1)) depth++;\n        if (depth == 12) { printf(\"AAAAAAAAAAAA\\n1\\n\"); continue; }",
    )
}

#[test]
fn a_planted_bug_on_long_boards_is_found_and_shrunk_to_one_board() {
    let s = Scratch::new();
    s.write("planted.c", planted_solver());
    let mut cmd = s.judge();
    cmd.args([
        "stress",
        "rotation",
        "--submission",
        "planted.c",
        "--length",
        "10..13",
        "--cases",
        "6",
        "--seed",
        "5",
        "--count",
        "20",
        "--out",
        "found",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("WA: case"), "{}", ran.stdout);
    let reproduce = ran
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: "))
        .expect(&ran.stdout);
    assert!(
        reproduce.starts_with("judge stress rotation --submission planted.c --seed ")
            && reproduce.contains("--count 1 --cases 6 --length 10..13"),
        "{reproduce}"
    );
    let written: Vec<String> = std::fs::read_dir(s.path().join("found"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written.len(), 2, "{written:?}");
    let input_name = written.iter().find(|n| n.ends_with(".in")).unwrap();
    let input = std::fs::read(s.path().join("found").join(input_name)).unwrap();
    let answer = std::fs::read(
        s.path()
            .join("found")
            .join(input_name.replace(".in", ".ans")),
    )
    .unwrap();
    // Exactly one board, and it needs 12 or more moves (12: the shrinker
    // found no failing board of length 11).
    let rotation = puzzles::find("rotation").unwrap();
    assert_eq!(rotation.validate(&input), Ok(1));
    let solved = rotation.solve(&input, &SolveOptions::default()).unwrap();
    assert_eq!(solved, answer, "the answer file is the reference's");
    let moves = String::from_utf8(solved).unwrap();
    let moves = moves.lines().next().unwrap();
    assert!(moves.len() >= 12, "{moves}");
    assert_eq!(moves.len(), 12, "shrunk to the shortest failing optimum");
    // The planted program really fails on it, and the answer passes.
    let check = rotation.check(&puzzles::CheckRequest {
        input: &input,
        output: b"AAAAAAAAAAAA\n1\n",
        answer: Some(&answer),
        lexmin: true,
        strict: false,
    });
    assert_eq!(check.verdict, judge::Verdict::WrongAnswer);
    // Never overwritten without --force: the same run again stops.
    let mut cmd = s.judge();
    cmd.args(reproduce.split(' ').skip(1))
        .args(["--out", "found"]);
    let again = run(cmd);
    assert_eq!(again.code, 2, "{}\n{}", again.stdout, again.stderr);
    assert!(
        again.stderr.contains("already exists: use --force"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_right_solver_shows_no_difference() {
    let s = Scratch::new();
    let mut cmd = s.judge();
    cmd.args(["stress", "rotation", "--submission"])
        .arg(examples().join("rotation/submissions/accepted/ida.c"))
        .args(["--length", "4..8", "--count", "3", "--cases", "4"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("no difference in 3 rounds (seeds 1..3)"),
        "{}",
        ran.stdout
    );
}

/// A+B over a count of pairs, wrong only when a = 7.
const WRONG_WHEN_A_IS_7_C: &str = "#include <stdio.h>\nint main(void){long long t,a,b; scanf(\"%lld\",&t); while(t--&&scanf(\"%lld %lld\",&a,&b)==2) printf(\"%lld\\n\", a==7 ? 0 : a+b); return 0;}\n";

#[test]
fn a_generator_against_a_reference_finds_and_writes_the_case() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("ab.c", AB_C);
    s.write("buggy.c", WRONG_WHEN_A_IS_7_C);
    s.script("gen.sh", "echo 1\necho \"$1 $(( $1 * 2 ))\"");
    let mut cmd = s.judge();
    cmd.args([
        "stress",
        "sum",
        "--submission",
        "buggy.c",
        "--against",
        "ab.c",
        "--generator",
        "./gen.sh",
        "--tries",
        "1",
        "--out",
        "found",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("round 7 (seed 7): WA"),
        "{}",
        ran.stdout
    );
    assert_eq!(s.read("found/stress-7.in"), "1\n7 14\n");
    assert_eq!(s.read("found/stress-7.ans"), "21\n");
}

/// Issue 41.7: `--generator "sh gen.sh"` names its script from the user's
/// directory, though the generator runs in a private one; a word that is
/// no file (`7`) stays as it is.
#[test]
fn a_generator_script_named_relative_to_the_working_directory_is_found() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("ab.c", AB_C);
    s.write("buggy.c", WRONG_WHEN_A_IS_7_C);
    // Not executable: run by `sh`, its path an argument. `$1` is the
    // fixed word 7, `$2` the seed.
    s.write("gens/gen.sh", "echo 1\necho \"$1 $2\"\n");
    let mut cmd = s.judge();
    cmd.args([
        "stress",
        "sum",
        "--submission",
        "buggy.c",
        "--against",
        "ab.c",
        "--generator",
        "sh gens/gen.sh 7",
        "--count",
        "3",
        "--tries",
        "1",
        "--out",
        "found",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("round 1 (seed 1): WA"),
        "{}",
        ran.stdout
    );
    assert_eq!(s.read("found/stress-1.in"), "1\n7 1\n");
}
