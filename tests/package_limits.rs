//! `judge limits` and `judge stress` on a package directory, with no
//! judge.toml: a Polygon package (tests/polygon/sum) and a Kattis package
//! (examples/twice) are measured as `judge verify` reads them, and stress
//! compares with the package's own reference solution.

mod common;

use common::{Ran, Scratch, examples};
use std::path::Path;

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

#[test]
fn limits_measures_a_polygon_package() {
    let s = Scratch::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/sum");
    let pkg = s.copy_tree(&from, "sum");
    let ran = s.run_judge(&["limits", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    // The main solution sets the limit; the time-limit-exceeded one is
    // checked against it.
    assert!(ran.stdout.contains("sum.cpp: slowest"), "{}", all(&ran));
    assert!(ran.stdout.contains("(the package has 1s)"), "{}", all(&ran));
    assert!(ran.stdout.contains("slow.cpp: TLE"), "{}", all(&ran));
    // --write would write into the package: refused before any run.
    let ran = s.run_judge(&["limits", pkg.to_str().unwrap(), "--write"]);
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(ran.stderr.contains("is a package"), "{}", all(&ran));
}

#[test]
fn limits_measures_a_kattis_package() {
    let s = Scratch::new();
    let pkg = s.copy_tree(&examples().join("twice"), "twice");
    let ran = s.run_judge(&["limits", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert!(
        ran.stdout.contains("accepted/double.py: slowest"),
        "{}",
        all(&ran)
    );
    let ran = s.run_judge(&["limits", s.path().join("nothing").to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(
        ran.stderr.contains("not a package directory"),
        "{}",
        all(&ran)
    );
}

#[test]
fn stress_compares_with_a_polygon_packages_main_solution() {
    let s = Scratch::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/sum");
    let pkg = s.copy_tree(&from, "sum");
    s.write(
        "gen.py",
        "import sys, random\nrandom.seed(int(sys.argv[1]))\nprint(random.randint(0, 10**6), random.randint(0, 10**6))\n",
    );
    let wrong = pkg.join("solutions/small.cpp");
    let ran = s.run_judge(&[
        "stress",
        pkg.to_str().unwrap(),
        "--submission",
        wrong.to_str().unwrap(),
        "--generator",
        "gen.py",
        "--count",
        "20",
    ]);
    assert_eq!(ran.code, 1, "{}", all(&ran));
    assert!(ran.stdout.contains("WA"), "{}", all(&ran));
    assert!(s.path().join("stress/stress-1.ans").is_file());
}
