//! Polygon packages as they are (tests/polygon/): `judge verify` gives
//! each solution its tagged verdict with the groups' points, `judge run`
//! scores groups with dependencies, and a `std::` checker named without
//! its source is judged with that checker's meaning.

mod common;
use common::*;
use std::path::Path;

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

fn package(s: &Scratch, name: &str) -> std::path::PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/polygon")
        .join(name);
    s.copy_tree(&from, name)
}

#[test]
fn verify_gives_each_solution_its_tagged_verdict_and_points() {
    let s = Scratch::new();
    let root = package(&s, "sum");
    let ran = s.run_judge(&["verify", root.to_str().unwrap()]);
    assert!((ran.code == 0), "{}", all(&ran));
    let out = all(&ran);
    for (name, got) in [
        ("sum.cpp", "AC 6, score 100/100"),
        ("small.cpp", "AC 4 WA 2, score 40/100"),
        ("slow.cpp", "AC 4 TLE 2, score 40/100"),
        ("crash.cpp", "RE 1"),
    ] {
        let line = out.lines().find(|l| l.contains(name)).unwrap_or_default();
        assert!(line.contains(got), "{name}: {line}\n{out}");
    }
    // A tag that does not fit fails verify: the tags are what is checked.
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    std::fs::write(
        root.join("problem.xml"),
        xml.replace("tag=\"wrong-answer\"", "tag=\"accepted\""),
    )
    .unwrap();
    let ran = s.run_judge(&["verify", root.to_str().unwrap()]);
    assert!(ran.code != 0, "{}", all(&ran));
    assert!(all(&ran).contains("small.cpp"), "{}", all(&ran));
}

#[test]
fn groups_score_with_their_policies_and_dependencies() {
    let s = Scratch::new();
    let root = package(&s, "sum");
    // A crash on sample 02 fails group 0, on which group 1 depends, on
    // which group 2 depends: nothing scores.
    let ran = s.run_judge(&[
        "run",
        root.to_str().unwrap(),
        "--submission",
        root.join("solutions/crash.cpp").to_str().unwrap(),
    ]);
    let out = all(&ran);
    assert!(out.contains("score 0/100"), "{out}");
    let ran = s.run_judge(&[
        "run",
        root.to_str().unwrap(),
        "--submission",
        root.join("solutions/small.cpp").to_str().unwrap(),
    ]);
    let out = all(&ran);
    assert!(out.contains("40/40"), "complete-group's points: {out}");
    assert!(out.contains("0/60"), "each-test, both wrong: {out}");
}

#[test]
fn a_standard_checker_named_without_its_source_keeps_its_meaning() {
    let s = Scratch::new();
    let root = package(&s, "sum");
    std::fs::remove_file(root.join("files/check.cpp")).unwrap();
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    std::fs::write(
        root.join("problem.xml"),
        xml.replace("name=\"check.cpp\"", "name=\"std::rcmp6.cpp\""),
    )
    .unwrap();
    s.write(
        "close.py",
        "a, b = map(int, input().split())\nprint(f\"{a + b + 1e-7:.7f}\")\n",
    );
    let ran = s.run_judge(&[
        "run",
        root.to_str().unwrap(),
        "--submission",
        s.path().join("close.py").to_str().unwrap(),
    ]);
    assert!((ran.code == 0), "within 1e-6: {}", all(&ran));
    assert!(all(&ran).contains("std::rcmp6.cpp"), "named: {}", all(&ran));
}
