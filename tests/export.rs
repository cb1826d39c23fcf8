//! `judge export`: every kind of package the repository holds (examples/
//! Kattis packages of 2023-07 and 2025-09, judge.toml problems, and a
//! scoring package written here) exported to Kattis legacy, 2023-07,
//! 2025-09 and DOMjudge, then `judge verify`ed: each submission gets the
//! verdicts (and score) it got from the source. A 2025-09 → legacy →
//! 2025-09 round trip keeps limits, groups and scores; OUT is never
//! written over without --force.

mod common;

use common::{Scratch, examples};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Each submission's verdict counts, score and whether it agreed, by path
/// (DOMjudge's folder names read as the judge's).
///
/// With the run cache on, one per test: an export's run is reused only
/// when its run request (program, input, limits, files) is the source's,
/// so a limit or an input file the export changed runs again and shows.
fn verdicts(s: &Scratch, args: &[&str]) -> BTreeMap<String, (Value, Value, Value)> {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", s.path().join("run-cache"))
        .env_remove("JUDGE_NO_CACHE")
        .args(args)
        .args(["--format", "json", "-j", "2"]);
    let ran = common::run(cmd);
    let json = ran.json();
    let subs = json["verify"]["submissions"]
        .as_array()
        .unwrap_or_else(|| panic!("no verify section: {}", ran.stderr))
        .clone();
    subs.into_iter()
        .map(|x| {
            let path = x["path"]
                .as_str()
                .unwrap()
                .replace("compiler_error/", "compile_error/")
                .replace("output_limit/", "output_limit_exceeded/");
            (
                path,
                (x["got"].clone(), x["score"].clone(), x["agrees"].clone()),
            )
        })
        .collect()
}

fn export(s: &Scratch, args: &[&str]) -> common::Ran {
    let mut all = vec!["export"];
    all.extend(args);
    let ran = s.run_judge(&all);
    assert_eq!(ran.code, 0, "export {args:?}: {}", ran.stderr);
    ran
}

fn unzip(zip: &Path, to: &Path) {
    let file = std::fs::File::open(zip).unwrap();
    let mut archive = zip::ZipArchive::new(file).unwrap();
    archive.extract(to).unwrap();
}

/// The examples' Kattis packages give the same verdicts from every export.
#[test]
fn example_packages_give_the_same_verdicts_in_every_format() {
    let s = Scratch::new();
    // The packages side by side: most of a verify is waiting out the
    // time-limit submissions' wall clock, which overlaps.
    std::thread::scope(|scope| {
        let each: Vec<_> = ["guess", "twice", "gensum"]
            .into_iter()
            .map(|name| {
                let s = &s;
                scope.spawn(move || same_verdicts_in_every_format(s, name))
            })
            .collect();
        for package in each {
            package.join().expect("a package's thread panicked");
        }
    });
    let yaml = s.read("guess-legacy/problem.yaml");
    assert!(yaml.contains("validation: custom interactive"), "{yaml}");
    // A 2023-07 package lets submissions write files; 2025-09 says so.
    let modern = s.read("guess-2025/problem.yaml");
    assert!(modern.contains("allow_file_writing: true"), "{modern}");
    assert_eq!(s.read("guess-legacy/.timelimit").trim(), "1");
    assert!(
        s.path()
            .join("guess-legacy/output_validators/validator/validate.cpp")
            .is_file()
    );
    assert!(
        s.path()
            .join("twice-2025/output_validator/validate.cpp")
            .is_file()
    );
    let ini = s.read("guess-domjudge/domjudge-problem.ini");
    assert!(
        ini.contains("timelimit='1'") && ini.contains("name='Guess the number'"),
        "{ini}"
    );
}

/// `name` of the examples, verified, exported to every format, and each
/// export verified: the same verdicts as the source.
fn same_verdicts_in_every_format(s: &Scratch, name: &str) {
    let source = s.copy_tree(&examples().join(name), name);
    let source = source.to_str().unwrap();
    let want = verdicts(s, &["verify", source]);
    assert!(!want.is_empty(), "{name}: no submissions");
    let mut outs = Vec::new();
    for (version, out) in [
        ("legacy", format!("{name}-legacy")),
        ("2023-07", format!("{name}-2023")),
        ("2025-09", format!("{name}-2025")),
    ] {
        export(s, &[source, "--to", "kattis", "--version", version, &out]);
        outs.push((format!("Kattis {version}"), s.path().join(out)));
    }
    let zip = format!("{name}.zip");
    let ran = export(s, &[source, "--to", "domjudge", &zip]);
    // A 2023-07 package (guess) lets submissions write files; DOMjudge
    // gives them no writable directory, and the export says so.
    let writes = s.read(&format!("{name}/problem.yaml")).contains("2023-07");
    assert_eq!(
        ran.stderr
            .contains("submissions writing files: the source lets them write in their working directory; DOMjudge gives them none"),
        writes,
        "{name}: {}",
        ran.stderr
    );
    let dir = s.path().join(format!("{name}-domjudge"));
    unzip(&s.path().join(&zip), &dir);
    assert!(dir.join("domjudge-problem.ini").is_file());
    outs.push(("DOMjudge".to_string(), dir));
    // The exports are judged side by side: most of a verify is waiting
    // out the time-limit submissions' wall clock, which overlaps.
    std::thread::scope(|scope| {
        let runs: Vec<_> = outs
            .iter()
            .map(|(what, out)| {
                let out = out.to_str().unwrap();
                (what, scope.spawn(move || verdicts(s, &["verify", out])))
            })
            .collect();
        for (what, run) in runs {
            let got = run.join().expect("a verify thread panicked");
            assert_eq!(got, want, "{name} as {what}");
        }
    });
}

/// judge.toml problems (a testlib checker, groups by glob with points and
/// a prerequisite) export as packages whose submissions get the same
/// verdicts and scores; a 2025-09 scoring export agrees with every
/// expectation, as its source does.
#[test]
fn judge_toml_problems_export_with_their_verdicts_and_scores() {
    let s = Scratch::new();
    s.copy_tree(&examples(), "ex");
    let config = "ex/judge.toml";
    let want = verdicts(&s, &["--config", config, "verify", "pairs"]);
    for version in ["2025-09", "legacy"] {
        let out = format!("pairs-{version}");
        let ran = s.run_judge(&[
            "--config",
            config,
            "export",
            "pairs",
            "--version",
            version,
            &out,
        ]);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        let got = verdicts(&s, &["verify", &out]);
        for (path, (counts, score, agrees)) in &want {
            let (c, sc, a) = &got[path];
            assert_eq!(sc, score, "pairs {version}: {path}");
            assert_eq!(a, agrees, "pairs {version}: {path}");
            if version == "2025-09" {
                // The prerequisite is carried: the same cases are skipped.
                assert_eq!(c, counts, "pairs {version}: {path}");
            }
        }
    }
    let ran = s.run_judge(&[
        "--config", config, "export", "sum", "--to", "kattis", "sum-2025",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stderr.contains("presentation error"), "{}", ran.stderr);
    let want = verdicts(&s, &["--config", config, "verify", "sum"]);
    let got = verdicts(&s, &["verify", "sum-2025"]);
    for (path, (counts, _, _)) in &want {
        let expected = if path.starts_with("presentation_error/") {
            // Kattis has no PE: the wrapped checker says WA (named on stderr).
            serde_json::json!({"WA": counts["PE"]})
        } else {
            counts.clone()
        };
        assert_eq!(got[path].0, expected, "sum: {path}");
    }
}

/// A scoring package of its own: two groups (pass-fail 40, sum 60 over
/// three cases), an input validator with group arguments, limits.
fn scoring_package(s: &Scratch) -> std::path::PathBuf {
    s.write(
        "sq/problem.yaml",
        "problem_format_version: 2025-09\nname: Squares\ntype: scoring\nlimits:\n  time_limit: 2.5\n  memory: 512\n  output: 16\n",
    );
    s.write("sq/data/sample/1.in", "3\n");
    s.write("sq/data/sample/1.ans", "9\n");
    s.write(
        "sq/data/secret/test_group.yaml",
        "max_score: 100\nscore_aggregation: sum\n",
    );
    s.write(
        "sq/data/secret/g1/test_group.yaml",
        "max_score: 40\nscore_aggregation: pass-fail\ninput_validator_args: [--max, \"100\"]\n",
    );
    s.write("sq/data/secret/g1/1.in", "7\n");
    s.write("sq/data/secret/g1/1.ans", "49\n");
    s.write("sq/data/secret/g1/2.in", "10\n");
    s.write("sq/data/secret/g1/2.ans", "100\n");
    s.write(
        "sq/data/secret/g2/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\n",
    );
    for (i, n) in [(1, 5u64), (2, 1000), (3, 123456)] {
        s.write(&format!("sq/data/secret/g2/{i}.in"), format!("{n}\n"));
        s.write(
            &format!("sq/data/secret/g2/{i}.ans"),
            format!("{}\n", n * n),
        );
    }
    s.write(
        "sq/input_validators/check.py",
        "import sys\nargs = sys.argv[1:]\nlimit = int(args[args.index('--max') + 1]) if '--max' in args else 10**6\nn = int(sys.stdin.read())\nsys.exit(42 if 0 < n <= limit else 43)\n",
    );
    // Not a program: carried with the folder all the same.
    s.write("sq/input_validators/limits.h", "#define MAX 1000000\n");
    s.write(
        "sq/submissions/accepted/sq.py",
        "n = int(input())\nprint(n * n)\n",
    );
    s.write(
        "sq/submissions/partially_accepted/small.py",
        "n = int(input())\nprint(n * n if n < 100 else 0)\n",
    );
    s.write("sq/submissions/wrong_answer/zero.py", "input()\nprint(0)\n");
    s.write(
        "sq/submissions/submissions.yaml",
        "partially_accepted/small.py:\n  score: 60\n  secret/g1: {score: 40}\nwrong_answer/zero.py:\n  score: 0\n",
    );
    s.path().join("sq")
}

/// The group files' scoring keys, by group.
fn group_keys(root: &Path) -> BTreeMap<String, String> {
    let mut keys = BTreeMap::new();
    for group in ["secret", "secret/g1", "secret/g2"] {
        let text =
            std::fs::read_to_string(root.join("data").join(group).join("test_group.yaml")).unwrap();
        let value: serde_norway::Value = serde_norway::from_str(&text).unwrap();
        keys.insert(
            group.to_string(),
            format!("{:?} {:?}", value["max_score"], value["score_aggregation"]),
        );
    }
    keys
}

#[test]
fn a_scoring_package_round_trips_through_legacy_with_its_limits_groups_and_scores() {
    let s = Scratch::new();
    let source = scoring_package(&s);
    let want = verdicts(&s, &["verify", source.to_str().unwrap()]);
    assert_eq!(
        want["partially_accepted/small.py"].1,
        serde_json::json!(60.0)
    );
    export(
        &s,
        &["sq", "--to", "kattis", "--version", "legacy", "sq-legacy"],
    );
    let legacy = s.read("sq-legacy/data/secret/g2/testdata.yaml");
    assert!(legacy.contains("accept_score: 20"), "{legacy}");
    let g1 = s.read("sq-legacy/data/secret/g1/testdata.yaml");
    assert!(g1.contains("input_validator_flags: --max 100"), "{g1}");
    assert_eq!(s.read("sq-legacy/.timelimit").trim(), "2.5");
    assert!(
        s.path()
            .join("sq-legacy/input_validators/limits.h")
            .is_file()
    );
    assert!(
        s.path()
            .join("sq-legacy/input_validators/check.py")
            .is_file()
    );
    let got = verdicts(&s, &["verify", "sq-legacy"]);
    for (path, (_, score, _)) in &want {
        assert_eq!(&got[path].1, score, "legacy: {path}");
    }
    export(&s, &["sq-legacy", "--to", "kattis", "sq-back"]);
    let back: serde_norway::Value =
        serde_norway::from_str(&s.read("sq-back/problem.yaml")).unwrap();
    assert_eq!(back["limits"]["time_limit"], serde_norway::Value::from(2.5));
    assert_eq!(back["limits"]["memory"], serde_norway::Value::from(512));
    assert_eq!(back["limits"]["output"], serde_norway::Value::from(16));
    assert_eq!(back["type"], serde_norway::Value::from("scoring"));
    assert_eq!(group_keys(&s.path().join("sq-back")), group_keys(&source));
    let g1 = s.read("sq-back/data/secret/g1/test_group.yaml");
    assert!(g1.contains("input_validator_args"), "{g1}");
    let again = verdicts(&s, &["verify", "sq-back"]);
    for (path, (_, score, _)) in &want {
        assert_eq!(&again[path].1, score, "round trip: {path}");
    }
    // DOMjudge judges pass-fail: the scores are named as left out.
    let ran = s.run_judge(&["export", "sq", "--to", "domjudge", "sq-dj"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stderr.contains("type scoring"), "{}", ran.stderr);
    // Legacy has no submissions.yaml: each entry is named.
    let ran = s.run_judge(&["export", "sq", "--version", "legacy", "sq-legacy2"]);
    assert!(
        ran.stderr.contains("partially_accepted/small.py"),
        "{}",
        ran.stderr
    );
}

#[test]
fn an_existing_out_is_never_written_over_without_force() {
    let s = Scratch::new();
    let source = s.copy_tree(&examples().join("twice"), "twice");
    let source = source.to_str().unwrap();
    s.write("out/keep.txt", "mine\n");
    let ran = s.run_judge(&["export", source, "out"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("out: exists") && ran.stderr.contains("--force"),
        "{}",
        ran.stderr
    );
    assert_eq!(s.read("out/keep.txt"), "mine\n");
    s.write("dj.zip", "not a zip");
    let ran = s.run_judge(&["export", source, "--to", "domjudge", "dj.zip"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert_eq!(s.read("dj.zip"), "not a zip");
    export(&s, &[source, "out", "--force"]);
    assert!(!s.path().join("out/keep.txt").exists());
    assert!(s.path().join("out/problem.yaml").is_file());
    export(&s, &[source, "--to", "domjudge", "dj.zip", "--force"]);
    unzip(&s.path().join("dj.zip"), &s.path().join("dj"));
    assert!(s.path().join("dj/problem.yaml").is_file());
    // Nothing left beside OUT.
    let stray: Vec<_> = std::fs::read_dir(s.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".judge-export"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn unsupported_targets_and_sources_are_named() {
    let s = Scratch::new();
    let source = s.copy_tree(&examples().join("twice"), "twice");
    let ran = s.run_judge(&["export", source.to_str().unwrap(), "--to", "polygon", "p"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("--to polygon: not supported yet"),
        "{}",
        ran.stderr
    );
    let ran = s.run_judge(&["export", "nowhere", "p"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("nowhere: neither a package"),
        "{}",
        ran.stderr
    );
    // A Polygon package is a source (tests/export_polygon.rs); a broken
    // problem.xml is named with what it lacks.
    s.write("poly/problem.xml", "<problem/>\n");
    let ran = s.run_judge(&["export", "poly", "p"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("problem.xml") && ran.stderr.contains("<judging>"),
        "{}",
        ran.stderr
    );
    assert!(!s.path().join("p").exists());
}

/// Legacy reads only LaTeX statements: a Markdown statement with no LaTeX
/// one of its language is copied into a legacy export and named; beside
/// a LaTeX one, or into 2025-09, it is not.
#[test]
fn a_markdown_statement_is_named_in_a_legacy_export() {
    let s = Scratch::new();
    let source = s.copy_tree(&examples().join("twice"), "twice");
    s.write("twice/problem_statement/problem.en.md", "# Twice\n");
    s.write("twice/problem_statement/problem.sv.md", "# Två gånger\n");
    s.write("twice/problem_statement/problem.sv.tex", "Två gånger\n");
    let source = source.to_str().unwrap();
    let ran = export(
        &s,
        &[source, "--to", "kattis", "--version", "legacy", "legacy"],
    );
    assert!(
        ran.stderr.contains(
            "problem_statement/problem.en.md: Kattis legacy reads only LaTeX statements (problem.en.tex); copied"
        ),
        "{}",
        ran.stderr
    );
    assert!(!ran.stderr.contains("problem.sv.md"), "{}", ran.stderr);
    assert_eq!(
        s.read("legacy/problem_statement/problem.en.md"),
        "# Twice\n"
    );
    let ran = export(
        &s,
        &[source, "--to", "kattis", "--version", "2025-09", "modern"],
    );
    assert!(!ran.stderr.contains("LaTeX"), "{}", ran.stderr);
}
