//! `judge new PROBLEM` (issue 41): each kind of new problem verifies as
//! written; what is already there is never replaced; the short name's rule.
//! The skeleton's programs are Python 3: without it, the verify half of
//! each test is not run (said in one line).

mod common;
use common::*;

fn python() -> bool {
    let there = installed("python3");
    if !there {
        eprintln!("new_problem: python3 not installed; the new problems were not verified");
    }
    there
}

/// `judge new` then `judge verify`, in a scratch directory.
fn new_and_verify(flags: &[&str]) -> (Scratch, serde_json::Value) {
    let s = Scratch::new();
    let mut args = vec!["new", "p"];
    args.extend_from_slice(flags);
    let made = s.run_judge(&args);
    assert_eq!(made.code, 0, "{}", made.stderr);
    if !python() {
        return (s, serde_json::Value::Null);
    }
    let verified = s.run_judge(&["verify", "p", "--format", "json"]);
    assert_eq!(verified.code, 0, "{}\n{}", verified.stdout, verified.stderr);
    (s, verified.json())
}

fn agreed(report: &serde_json::Value) -> Vec<(String, bool)> {
    report["verify"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["agrees"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_new_problem_verifies_and_its_wrong_submission_fails_only_the_secret_cases() {
    let (s, report) = new_and_verify(&[]);
    let yaml = s.read("p/problem.yaml");
    assert!(yaml.contains("problem_format_version: 2025-09\n"), "{yaml}");
    assert!(yaml.contains("name: \"p\"\n"), "{yaml}");
    if report.is_null() {
        return;
    }
    assert_eq!(
        agreed(&report),
        [
            ("accepted/solution.py".to_string(), true),
            ("wrong_answer/xor.py".to_string(), true)
        ]
    );
    // The generators made data/: one sample and ten secret cases.
    let count = |dir: &str| {
        std::fs::read_dir(s.path().join(dir))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "in")
            })
            .count()
    };
    assert_eq!((count("p/data/sample"), count("p/data/secret")), (1, 10));
}

#[test]
fn a_new_problem_with_a_checker_or_an_interactor_verifies() {
    for flags in [
        &["--checker"][..],
        &["--interactive", "--name", "Guess: the sum"],
    ] {
        let (s, report) = new_and_verify(flags);
        let validator = if flags[0] == "--checker" {
            "p/output_validator/checker.py"
        } else {
            "p/output_validator/interactor.py"
        };
        assert!(s.path().join(validator).is_file(), "{flags:?}");
        if report.is_null() {
            continue;
        }
        assert!(
            agreed(&report).iter().all(|(_, ok)| *ok),
            "{flags:?}: {report:#}"
        );
    }
}

#[test]
fn each_new_problem_has_its_own_uuid() {
    let s = Scratch::new();
    let uuid = |name: &str| {
        assert_eq!(s.run_judge(&["new", name]).code, 0);
        let yaml = s.read(&format!("{name}/problem.yaml"));
        let line = yaml.lines().find(|l| l.starts_with("uuid: ")).unwrap();
        line["uuid: ".len()..].to_string()
    };
    let (a, b) = (uuid("a"), uuid("b"));
    assert_ne!(a, b);
    for u in [&a, &b] {
        // Version 4, the RFC 4122 variant.
        assert_eq!(u.len(), 36, "{u}");
        assert_eq!(&u[14..15], "4", "{u}");
        assert!("89ab".contains(&u[19..20]), "{u}");
    }
}

#[test]
fn what_is_there_is_never_replaced() {
    let s = Scratch::new();
    s.write("taken/notes.txt", "mine");
    s.write("file", "mine");
    for target in ["taken", "file"] {
        let ran = s.run_judge(&["new", target]);
        assert_eq!(ran.code, 2, "{target}: {}", ran.stderr);
        assert!(
            ran.stderr
                .contains(&format!("{target}: exists and is not an empty directory")),
            "{}",
            ran.stderr
        );
    }
    assert_eq!(s.read("taken/notes.txt"), "mine");
    assert_eq!(s.read("file"), "mine");
    assert!(!s.path().join("taken/problem.yaml").exists());
    // An empty directory is the setter's start: it is used.
    std::fs::create_dir(s.path().join("empty")).unwrap();
    assert_eq!(s.run_judge(&["new", "empty"]).code, 0);
    assert!(s.path().join("empty/problem.yaml").is_file());
}

#[test]
fn the_short_name_is_letters_digits_dashes_and_underscores() {
    let s = Scratch::new();
    let ran = s.run_judge(&["new", "a b"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("may hold only letters, digits, `-` and `_`"),
        "{}",
        ran.stderr
    );
    assert!(!s.path().join("a b").exists());
    let ran = s.run_judge(&["new", "Hello-1", "-q"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("warning: Hello-1: the Kattis format asks for a short name of lowercase letters and digits only"),
        "{}",
        ran.stderr
    );
}
