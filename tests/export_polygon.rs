//! `judge export` of Polygon packages (tests/polygon/): the export to
//! Kattis 2025-09, legacy and DOMjudge gives each solution, in `judge
//! verify`, what the Polygon package gives it (its scores too, where the
//! target has groups with prerequisites), and the notes name what was not
//! carried (input-file/output-file, the interactor's checker, a standard
//! package's missing tests).

mod common;

use common::Scratch;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn package(s: &Scratch, name: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/polygon")
        .join(name);
    s.copy_tree(&from, name)
}

/// Each solution's score and whether it agreed with its expectation, by
/// file name.
fn verdicts(s: &Scratch, pkg: &Path) -> BTreeMap<String, (Value, Value)> {
    let ran = s.run_judge(&[
        "verify",
        pkg.to_str().unwrap(),
        "--format",
        "json",
        "-j",
        "2",
    ]);
    let json = ran.json();
    let subs = json["verify"]["submissions"]
        .as_array()
        .unwrap_or_else(|| panic!("no verify section: {}", ran.stderr))
        .clone();
    subs.into_iter()
        .map(|x| {
            let path = x["path"].as_str().unwrap();
            let name = path.rsplit('/').next().unwrap().to_string();
            (name, (x["score"].clone(), x["agrees"].clone()))
        })
        .collect()
}

fn export(s: &Scratch, pkg: &Path, args: &[&str], out: &str) -> (PathBuf, String) {
    let to = s.path().join(out);
    let mut all = vec!["export", pkg.to_str().unwrap()];
    all.extend(args);
    all.push(to.to_str().unwrap());
    let ran = s.run_judge(&all);
    assert_eq!(ran.code, 0, "export {args:?}: {}", ran.stderr);
    (to, ran.stderr)
}

#[test]
fn a_polygon_package_with_groups_exports_to_every_format() {
    let s = Scratch::new();
    let pkg = package(&s, "sum");
    let source = verdicts(&s, &pkg);
    assert_eq!(source.len(), 4, "{source:?}");
    assert!(source.values().all(|(_, agrees)| agrees == true));
    let (to, notes) = export(&s, &pkg, &["--to", "kattis"], "out-k2025");
    // The tests where Polygon has them: samples in data/sample, the
    // groups with their points and dependencies.
    assert!(to.join("data/sample/01.in").is_file());
    assert!(to.join("data/secret/2/05.in").is_file());
    let group = std::fs::read_to_string(to.join("data/secret/2/test_group.yaml")).unwrap();
    assert!(group.contains("score_aggregation: sum"), "{group}");
    assert!(group.contains("secret/1"), "{group}");
    assert!(to.join("submissions/run_time_error/crash.cpp").is_file());
    assert!(notes.contains("gen 1000000"), "{notes}");
    assert!(notes.contains("feedback-policy"), "{notes}");
    // 2025-09 says everything: the same verdicts and the same scores.
    assert_eq!(verdicts(&s, &to), source);
    for (args, out) in [
        (&["--to", "kattis", "--version", "legacy"][..], "out-legacy"),
        (&["--to", "domjudge"][..], "out-dj"),
    ] {
        let (to, notes) = export(&s, &pkg, args, out);
        let got = verdicts(&s, &to);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            source.keys().collect::<Vec<_>>()
        );
        assert!(got.values().all(|(_, agrees)| agrees == true), "{got:?}");
        // The grader has no prerequisites: said, by group.
        assert!(notes.contains("require_pass"), "{out}: {notes}");
    }
}

#[test]
fn an_interactive_polygon_package_exports_with_its_interactor_wrapped() {
    let s = Scratch::new();
    let pkg = package(&s, "guess");
    let source = verdicts(&s, &pkg);
    let (to, notes) = export(&s, &pkg, &["--to", "kattis"], "out-guess");
    let yaml = std::fs::read_to_string(to.join("problem.yaml")).unwrap();
    assert!(yaml.contains("interactive"), "{yaml}");
    assert!(notes.contains("checker files/check.cpp"), "{notes}");
    assert_eq!(verdicts(&s, &to), source);
}

#[test]
fn input_and_output_files_are_named_as_not_carried() {
    let s = Scratch::new();
    let pkg = package(&s, "filesum");
    let (to, notes) = export(&s, &pkg, &["--to", "kattis"], "out-filesum");
    assert!(notes.contains("input-file=\"input.txt\""), "{notes}");
    assert!(notes.contains("output-file=\"output.txt\""), "{notes}");
    assert!(notes.contains("std::ncmp"), "{notes}");
    // The solution that reads the standard input passes in the export.
    let got = verdicts(&s, &to);
    assert_eq!(got["stdio.cpp"].1, false, "{got:?}");
    assert!(to.join("submissions/rejected/stdio.cpp").is_file());
}

#[test]
fn a_standard_package_without_its_generated_tests_asks_for_gen() {
    let s = Scratch::new();
    let pkg = package(&s, "sum");
    std::fs::remove_file(pkg.join("tests/05")).unwrap();
    std::fs::remove_file(pkg.join("tests/05.a")).unwrap();
    let to = s.path().join("out");
    let ran = s.run_judge(&[
        "export",
        pkg.to_str().unwrap(),
        "--to",
        "kattis",
        to.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("judge gen"), "{}", ran.stderr);
    assert!(ran.stderr.contains("5 (`gen 1000000`)"), "{}", ran.stderr);
    assert!(!to.exists());
}
