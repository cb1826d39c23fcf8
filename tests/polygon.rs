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

#[test]
fn a_problem_with_input_txt_and_output_txt_is_run_so() {
    let s = Scratch::new();
    let root = package(&s, "filesum");
    let ran = s.run_judge(&["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert!(ran.code == 0, "{out}");
    let files = out
        .lines()
        .find(|l| l.contains("files.cpp"))
        .unwrap_or_default();
    assert!(
        files.contains("AC 2"),
        "reads input.txt, writes output.txt: {out}"
    );
    let stdio = out
        .lines()
        .find(|l| l.contains("stdio.cpp"))
        .unwrap_or_default();
    assert!(
        !stdio.contains("AC 2"),
        "the standard streams are not the files: {out}"
    );
}

#[test]
fn an_interactor_talks_and_the_checker_judges_its_tout() {
    let s = Scratch::new();
    let root = package(&s, "guess");
    let ran = s.run_judge(&["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert!(ran.code == 0, "{out}");
    assert!(
        out.contains("AC 2 WA 1"),
        "linear search runs out of queries: {out}"
    );
}

#[test]
fn gen_checks_a_full_package_and_completes_a_standard_one() {
    let s = Scratch::new();
    let root = package(&s, "sum");
    let pkg = root.to_str().unwrap();
    let ran = s.run_judge(&["gen", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    assert!(all(&ran).contains("0 written, 1 the same"), "{}", all(&ran));
    // A test that is not what its generator makes is reported.
    std::fs::write(root.join("tests/05"), "1 1\n").unwrap();
    let ran = s.run_judge(&["gen", pkg]);
    assert_eq!(ran.code, 1, "{}", all(&ran));
    assert!(
        all(&ran).contains("test 5 (`gen 1000000`)"),
        "{}",
        all(&ran)
    );
    // The standard package: no generated test in it; gen makes its input
    // from the cmd and its answer with the main solution.
    std::fs::remove_file(root.join("tests/05")).unwrap();
    std::fs::remove_file(root.join("tests/05.a")).unwrap();
    // verify builds what the package lacks into the cache, never into the
    // package.
    let ran = s.run_judge(&["verify", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    assert!(
        root.join("tests/05").symlink_metadata().is_err(),
        "{}",
        all(&ran)
    );
    let ran = s.run_judge(&["gen", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/sum/tests");
    for name in ["05", "05.a"] {
        assert_eq!(
            std::fs::read(root.join("tests").join(name)).unwrap(),
            std::fs::read(original.join(name)).unwrap(),
            "{name}"
        );
    }
    let ran = s.run_judge(&["verify", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
}

#[test]
fn an_output_file_that_is_a_link_is_not_followed() {
    let s = Scratch::new();
    let root = package(&s, "filesum");
    // The right answer of test 1, where the judge could read it and the
    // program could not: were the link followed, test 1 would pass.
    let secret = s.write("secret.txt", "3\n");
    s.write(
        "link.cpp",
        format!(
            "#include <unistd.h>\nint main() {{ return symlink(\"{}\", \"output.txt\") == 0 ? 0 : 1; }}\n",
            secret.display()
        ),
    );
    let ran = s.run_judge(&[
        "run",
        root.to_str().unwrap(),
        "--submission",
        s.path().join("link.cpp").to_str().unwrap(),
    ]);
    let out = all(&ran);
    assert_ne!(ran.code, 0, "{out}");
    assert!(!out.contains("AC   filesum/01"), "{out}");
    assert!(out.contains("WA 2") || out.contains("WA: 0/2"), "{out}");
}

#[test]
fn stress_builds_a_package_generator_with_the_testlib_beside_it() {
    let s = Scratch::new();
    let root = package(&s, "sum");
    // files/gen.cpp includes "testlib.h", which is in files/ only.
    let ran = s.run_judge(&[
        "stress",
        root.to_str().unwrap(),
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
    let out = all(&ran);
    assert!(!out.contains("does not compile"), "{out}");
    assert!(out.contains("WA"), "{out}");
    assert!(out.contains("wrote stress/stress-"), "{out}");
}

/// Rewrite `root`'s problem.xml with `edit`.
fn edit_xml(root: &Path, edit: impl Fn(String) -> String) {
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    std::fs::write(root.join("problem.xml"), edit(xml)).unwrap();
}

#[test]
fn a_multi_test_generator_writes_several_tests_each_taking_its_file() {
    let s = Scratch::new();
    let root = package(&s, "multi");
    let pkg = root.to_str().unwrap();
    // A standard package: tests 2-4 are the files `multigen 2 4` writes
    // (from-file), test 5 is `gen 50`'s standard output.
    let ran = s.run_judge(&["gen", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    assert!(all(&ran).contains("4 written"), "{}", all(&ran));
    let read = |n: &str| std::fs::read_to_string(root.join("tests").join(n)).unwrap();
    // multigen writes test i's numbers up to 1000 * i: the files are
    // told apart, and each test has its own.
    let inputs: Vec<String> = ["02", "03", "04"].iter().map(|n| read(n)).collect();
    assert!(
        inputs[0] != inputs[1] && inputs[1] != inputs[2],
        "{inputs:?}"
    );
    for (n, input) in inputs.iter().enumerate() {
        let max = 1000 * (n as i64 + 2);
        assert!(
            input
                .split_whitespace()
                .all(|w| (0..=max).contains(&w.parse::<i64>().unwrap())),
            "test {}: {input}",
            n + 2
        );
    }
    let ran = s.run_judge(&["gen", pkg]);
    assert!(all(&ran).contains("0 written, 4 the same"), "{}", all(&ran));
    let ran = s.run_judge(&["verify", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    // A file the generator does not write fails that test, by name.
    edit_xml(&root, |x| x.replace("from-file=\"4\"", "from-file=\"9\""));
    let ran = s.run_judge(&["gen", pkg]);
    assert_eq!(ran.code, 1, "{}", all(&ran));
    assert!(
        all(&ran).contains("test 4 (`multigen 2 4`, from-file 9): the generator wrote no file 9"),
        "{}",
        all(&ran)
    );
    // from-file is a file name, never a path.
    edit_xml(&root, |x| {
        x.replace("from-file=\"9\"", "from-file=\"../4\"")
    });
    let ran = s.run_judge(&["gen", pkg]);
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(all(&ran).contains("from-file=\"../4\""), "{}", all(&ran));
}

#[test]
fn a_testset_script_makes_the_tests_without_cmd() {
    let s = Scratch::new();
    // The same tests made from problem.xml's cmd attributes, to compare.
    let by_cmd = package(&s, "multi");
    let ran = s.run_judge(&["gen", by_cmd.to_str().unwrap()]);
    assert!(ran.code == 0, "{}", all(&ran));
    let root = s.copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/multi"),
        "scripted",
    );
    let pkg = root.to_str().unwrap();
    let script = |lines: &str| {
        let lines = lines.to_string();
        move |x: String| {
            let mut x = x;
            for n in 2..=4 {
                x = x.replace(&format!(" from-file=\"{n}\""), "");
            }
            x.replace(" cmd=\"multigen 2 4\"", "")
                .replace(" cmd=\"gen 50\"", "")
                .replace("<tests>", &format!("<script>\n{lines}\n</script>\n<tests>"))
        }
    };
    edit_xml(&root, script("multigen 2 4 > {2-4}\ngen 50 > $"));
    let ran = s.run_judge(&["gen", pkg]);
    assert!(ran.code == 0, "{}", all(&ran));
    for name in ["02", "03", "04", "05", "05.a"] {
        assert_eq!(
            std::fs::read(root.join("tests").join(name)).unwrap(),
            std::fs::read(by_cmd.join("tests").join(name)).unwrap(),
            "{name}"
        );
    }
    // Errors name problem.xml's line of the script, its own line and the
    // token.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/multi/problem.xml"),
        root.join("problem.xml"),
    )
    .unwrap();
    edit_xml(&root, script("multigen 2 4 > {2-4}\ngen 50 > {5-x}"));
    let ran = s.run_judge(&["gen", pkg]);
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(
        all(&ran).contains("problem.xml:13: script line 2") && all(&ran).contains("`x`"),
        "{}",
        all(&ran)
    );
    // Judging is not generating (issue 43): verify warns and judges the
    // tests that are in the package.
    let ran = s.run_judge(&["verify", pkg]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert!(
        all(&ran).contains("problem.xml:13: script line 2")
            && all(&ran).contains("the script is not used; the tests in the package are judged"),
        "{}",
        all(&ran)
    );
    // A generated test no line makes: named, and doall.sh is not run.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/multi/problem.xml"),
        root.join("problem.xml"),
    )
    .unwrap();
    edit_xml(&root, script("multigen 2 4 > {2-4}"));
    std::fs::write(root.join("doall.sh"), "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::remove_file(root.join("tests/05")).unwrap();
    let ran = s.run_judge(&["gen", pkg]);
    assert_eq!(ran.code, 1, "{}", all(&ran));
    let out = all(&ran);
    assert!(
        out.contains("test 5: generated, but problem.xml gives it no cmd"),
        "{out}"
    );
    assert!(
        out.contains("doall.sh: not run (a package program); some generated tests"),
        "{out}"
    );
}

/// tests/polygon/exported is shaped as Polygon exports a standard package:
/// its manual tests without answers, `input.txt`/`output.txt`, Windows
/// binaries, a second testset, the checker's and validator's own tests,
/// statements, stresses, tags, solution notes, a `std::` checker whose
/// `files/check.cpp` was left out, and one element Polygon does not write.
#[test]
fn a_standard_package_as_polygon_exports_it() {
    let s = Scratch::new();
    let root = package(&s, "exported");
    let pkg = root.to_str().unwrap();
    // Before gen: validate builds the generated tests and the missing
    // answers into the cache, and the package is left as it is.
    let ran = s.run_judge(&["validate", pkg]);
    let out = all(&ran);
    // (Built now, or found built by an earlier run: the cache is shared.)
    assert!(
        out.contains("building 7 tests") || out.contains("built before (11 files"),
        "{out}"
    );
    assert!(!root.join("tests/01.a").exists(), "{out}");
    // gen makes the generated tests and every missing answer, the main
    // solution reading input.txt and writing output.txt.
    let ran = s.run_judge(&["gen", pkg]);
    let out = all(&ran);
    assert!(ran.code == 0, "{out}");
    assert!(out.contains("4 written"), "{out}");
    assert!(out.contains("3 answers made"), "{out}");
    let read = |n: &str| std::fs::read_to_string(root.join("tests").join(n)).unwrap();
    assert_eq!(read("01.a"), "9\n");
    assert_eq!(read("03.a"), "100\n");
    assert!(root.join("tests/07.a").is_file());
    // The known parts of problem.xml pass quietly; the one element
    // Polygon does not write is named by its line, and nothing is refused.
    let ran = s.run_judge(&["verify", pkg]);
    let out = all(&ran);
    assert!(ran.code == 0, "{out}");
    assert!(
        out.contains("problem.xml:113: <publication-settings>"),
        "{out}"
    );
    for quiet in [
        "<statements>",
        "<binary",
        "<stresses>",
        "<tags>",
        "<copy",
        "cpu-name",
        "note=",
    ] {
        assert!(!out.contains(quiet), "{quiet}: {out}");
    }
    assert!(out.contains("testset \"pretests\": not judged"), "{out}");
    let line = |name: &str| {
        out.lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("largest.cpp").contains("score 100/100"), "{out}");
    assert!(line("first.cpp").contains("WA"), "{out}");
    // A solution problem.xml lists that is not in the package is named by
    // its line, not verified, and verify still passes.
    std::fs::remove_file(root.join("solutions/first.cpp")).unwrap();
    let ran = s.run_judge(&["verify", pkg]);
    let out = all(&ran);
    assert!(ran.code == 0, "{out}");
    assert!(
        out.contains(
            "problem.xml:95: solution solutions/first.cpp (tag wrong-answer): not in the package"
        ),
        "{out}"
    );
}
