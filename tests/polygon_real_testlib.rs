//! The Polygon packages of tests/polygon/ with the REAL testlib.h
//! (MikeMirzayanov/testlib) in place of the small header they carry:
//! `judge verify`, `validate` (the group from `--group`), `gen` (a
//! standard package's generated test, its seed from the command line),
//! `stress --generator files/gen.cpp`, and the exports to Kattis and
//! DOMjudge verified again, with the wrapped checker, validator and
//! interactor built against the real header. The wrapper's exit-code
//! mapping (`quitp`, `_fail`, a `main` that returns) is checked on the
//! compiled output validator itself.
//!
//! testlib.h comes from `$JUDGE_TESTLIB_H`, or the path
//! `scripts/get-testlib.sh` writes by default
//! (`${XDG_CACHE_HOME:-~/.cache}/judge/testlib.h`). Without it the tests
//! pass after printing one line that names what they skipped.

mod common;

use common::Scratch;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The real testlib.h, when there is one.
fn real_testlib() -> Option<PathBuf> {
    let path = match std::env::var_os("JUDGE_TESTLIB_H") {
        Some(p) => PathBuf::from(p),
        None => {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
            cache.join("judge/testlib.h")
        }
    };
    let text = std::fs::read_to_string(&path).ok();
    // The small header of tests/polygon/ says it is not the real one.
    match text {
        Some(t) if t.contains("#define VERSION") && t.contains("registerTestlibCmd") => Some(path),
        _ => {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| {
                println!(
                    "skipped: tests/polygon_real_testlib.rs (verify, validate, gen, stress and export of tests/polygon/ with the real testlib.h): no testlib.h at {} (run scripts/get-testlib.sh or set JUDGE_TESTLIB_H)",
                    path.display()
                )
            });
            None
        }
    }
}

/// A package of tests/polygon/ with the real testlib.h in `files/`.
fn package(s: &Scratch, name: &str, testlib: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/polygon")
        .join(name);
    let root = s.copy_tree(&from, name);
    std::fs::copy(testlib, root.join("files/testlib.h")).unwrap();
    root
}

fn all(ran: &common::Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

/// Each solution's score and whether it agreed with its tag, by name.
fn verdicts(s: &Scratch, pkg: &Path) -> BTreeMap<String, (Value, Value)> {
    let ran = s.run_judge(&["verify", pkg.to_str().unwrap(), "--format", "json"]);
    let json = ran.json();
    let subs = json["verify"]["submissions"]
        .as_array()
        .unwrap_or_else(|| panic!("no verify section: {}", all(&ran)))
        .clone();
    subs.into_iter()
        .map(|x| {
            let path = x["path"].as_str().unwrap();
            let name = path.rsplit('/').next().unwrap().to_string();
            (name, (x["score"].clone(), x["agrees"].clone()))
        })
        .collect()
}

fn export(s: &Scratch, pkg: &Path, args: &[&str], out: &str) -> PathBuf {
    let to = s.path().join(out);
    let mut all = vec!["export", pkg.to_str().unwrap()];
    all.extend(args);
    all.push(to.to_str().unwrap());
    let ran = s.run_judge(&all);
    assert_eq!(ran.code, 0, "export {args:?}: {}", ran.stderr);
    to
}

#[test]
fn verify_validate_gen_and_stress_work_with_the_real_testlib() {
    let Some(testlib) = real_testlib() else {
        return;
    };
    let s = Scratch::new();
    let root = package(&s, "sum", &testlib);
    let dir = root.to_str().unwrap();

    let got = verdicts(&s, &root);
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got.values().all(|(_, agrees)| agrees == true), "{got:?}");
    assert_eq!(got["sum.cpp"].0, 100.0, "{got:?}");
    assert_eq!(got["small.cpp"].0, 40.0, "{got:?}");

    let ran = s.run_judge(&["validate", dir]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert!(
        all(&ran).contains("6 inputs checked, 0 invalid"),
        "{}",
        all(&ran)
    );
    // Group 1 allows at most 1000: the validator knows test 3's group
    // only from `--group 1` on its command line.
    std::fs::write(root.join("tests/03"), "2000 1\n").unwrap();
    let ran = s.run_judge(&["validate", dir]);
    assert_ne!(ran.code, 0, "{}", all(&ran));
    assert!(all(&ran).contains("[0, 1000]"), "{}", all(&ran));
    std::fs::write(root.join("tests/03"), "10 20\n").unwrap();

    // A standard package: test 5 made from `gen 1000000` (the real
    // testlib's generator seeded by its command line), its answer by the
    // main solution; a second gen finds the same bytes.
    std::fs::remove_file(root.join("tests/05")).unwrap();
    std::fs::remove_file(root.join("tests/05.a")).unwrap();
    let ran = s.run_judge(&["gen", dir]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert!(all(&ran).contains("1 written"), "{}", all(&ran));
    let input = std::fs::read_to_string(root.join("tests/05")).unwrap();
    let answer = std::fs::read_to_string(root.join("tests/05.a")).unwrap();
    let sum: i64 = input
        .split_whitespace()
        .map(|w| w.parse::<i64>().unwrap())
        .sum();
    assert_eq!(answer.trim(), sum.to_string(), "{input} → {answer}");
    let ran = s.run_judge(&["gen", dir]);
    assert!(all(&ran).contains("1 the same"), "{}", all(&ran));

    // stress builds files/gen.cpp with the testlib.h beside it.
    let ran = s.run_judge(&[
        "stress",
        dir,
        "--generator",
        root.join("files/gen.cpp").to_str().unwrap(),
        "--submission",
        root.join("solutions/small.cpp").to_str().unwrap(),
        // gen.cpp takes the seed as its bound: sums reach 1000 from here.
        "--seed",
        "900",
        "--count",
        "100",
    ]);
    assert!(all(&ran).contains("WA"), "{}", all(&ran));
    assert!(!all(&ran).contains("does not compile"), "{}", all(&ran));
}

#[test]
fn exports_built_against_the_real_testlib_give_the_same_verdicts() {
    let Some(testlib) = real_testlib() else {
        return;
    };
    let s = Scratch::new();
    let root = package(&s, "sum", &testlib);
    let source = verdicts(&s, &root);
    for (args, out) in [
        (&["--to", "kattis"][..], "k2025"),
        (&["--to", "kattis", "--version", "legacy"][..], "klegacy"),
        (&["--to", "domjudge"][..], "dj"),
    ] {
        let to = export(&s, &root, args, out);
        let got = verdicts(&s, &to);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            source.keys().collect::<Vec<_>>(),
            "{out}"
        );
        assert!(got.values().all(|(_, a)| a == true), "{out}: {got:?}");
        if out == "k2025" {
            assert_eq!(got, source, "2025-09 carries the scores too");
        }
        // The wrapped validator accepts every test and, with the group's
        // arguments carried, rejects a big number in group 1.
        let ran = s.run_judge(&["validate", to.to_str().unwrap()]);
        assert_eq!(ran.code, 0, "{out}: {}", all(&ran));
        if out != "dj" {
            std::fs::write(to.join("data/secret/1/03.in"), "2000 1\n").unwrap();
            let ran = s.run_judge(&["validate", to.to_str().unwrap()]);
            assert_ne!(ran.code, 0, "{out}: {}", all(&ran));
            assert!(all(&ran).contains("[0, 1000]"), "{out}: {}", all(&ran));
        }
    }

    let guess = package(&s, "guess", &testlib);
    let source = verdicts(&s, &guess);
    assert!(source.values().all(|(_, a)| a == true), "{source:?}");
    let to = export(&s, &guess, &["--to", "kattis"], "guess-k");
    assert_eq!(verdicts(&s, &to), source);
}

/// Run a compiled Kattis output validator on one output.
fn validate_output(program: &Path, dir: &Path, output: &str) -> (i32, String, Option<String>) {
    let feedback = dir.join("feedback");
    let _ = std::fs::remove_dir_all(&feedback);
    std::fs::create_dir_all(&feedback).unwrap();
    let mut child = Command::new(program)
        .args([dir.join("in"), dir.join("ans"), feedback.clone()])
        .env_remove("JUDGE_TESTLIB_WRAPPED")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(output.as_bytes())
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default();
    let score = std::fs::read_to_string(feedback.join("score_multiplier.txt")).ok();
    (code, message, score)
}

#[test]
fn the_wrapped_checker_maps_every_way_a_testlib_program_ends() {
    let Some(testlib) = real_testlib() else {
        return;
    };
    let s = Scratch::new();
    let root = package(&s, "sum", &testlib);
    // A checker that ends in each of testlib's ways, by the output.
    std::fs::write(
        root.join("files/check.cpp"),
        r#"#include "testlib.h"
int main(int argc, char **argv) {
    registerTestlibCmd(argc, argv);
    int x = ouf.readInt();
    if (x == 1) quitp(0.25, "a quarter");
    if (x == 2) quitf(_fail, "the checker fails");
    if (x == 3) quitf(_pe, "presentation");
    if (x == 4) return 0;
    if (x == 5) quitf(_wa, "wrong");
    quitf(_ok, "fine");
}
"#,
    )
    .unwrap();
    let to = export(&s, &root, &["--to", "kattis"], "k");
    let dir = to.join("output_validator");
    let program = dir.join("checker");
    let built = Command::new("c++")
        .args(["-std=gnu++17", "-O2", "-o"])
        .arg(&program)
        .arg(dir.join("main.cpp"))
        .status()
        .unwrap();
    assert!(built.success());
    std::fs::write(dir.join("in"), "1 2\n").unwrap();
    std::fs::write(dir.join("ans"), "3\n").unwrap();
    let cases = [
        ("1", 42, "points 0.25", Some("0.25")),
        ("2", 1, "FAIL the checker fails", None),
        ("3", 43, "wrong output format", None),
        // testlib's own guard fails a checker that returns without quit.
        ("4", 1, "must end with quit", None),
        ("5", 43, "wrong answer", None),
        ("6", 42, "ok fine", None),
        ("x", 43, "Expected integer", None),
    ];
    for (output, code, message, score) in cases {
        let (got, text, multiplier) = validate_output(&program, &dir, output);
        assert_eq!(got, code, "output {output}: {text}");
        assert!(text.contains(message), "output {output}: {text}");
        assert_eq!(
            multiplier.as_deref().map(str::trim),
            score,
            "output {output}"
        );
    }
}
