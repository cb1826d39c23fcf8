//! Symbolic links checked out as text files (git with `core.symlinks =
//! false`): a package whose data, generator and validator header are such
//! links is read as if they were links; a link into BAPCtools' shared
//! headers reads the header from `JUDGE_BAPCTOOLS_HEADERS`, and says how to
//! fetch it when it is not there. Also BAPCtools' `.bad.` submissions.

mod common;
use common::*;

/// A package: `secret/b/` holds text links to `secret/a/`'s files, the
/// input validator's `validation.h` a text link into a BAPCtools checkout
/// and its `limits.h` one to a header elsewhere in the package, and
/// generator `g` a text link to the directory `gen`.
fn package(s: &Scratch) {
    s.write("p/problem.yaml", "name: Plus one\n");
    s.write("p/data/sample/1.in", "1\n");
    s.write("p/data/sample/1.ans", "2\n");
    s.write("p/data/secret/a/1.in", "41\n");
    s.write("p/data/secret/a/1.ans", "42\n");
    s.write("p/data/secret/b/1.in", "../a/1.in");
    s.write("p/data/secret/b/1.ans", "../a/1.ans");
    s.write(
        "p/submissions/accepted/plus.py",
        "print(int(input()) + 1)\n",
    );
    s.write(
        "p/input_validators/v/v.c",
        "#include \"validation.h\"\n#include \"limits.h\"\nint main(void){ long x; if (scanf(\"%ld\", &x) != 1 || x > LIMIT) return REJECT; return ACCEPT; }\n",
    );
    s.write(
        "p/input_validators/v/validation.h",
        "../../../../bapctools/resources/headers/validation.h",
    );
    s.write("p/input_validators/v/limits.h", "../../include_h/limits.h");
    s.write("p/include_h/limits.h", "#define LIMIT 100\n");
}

/// A header of this test's own, where the script would put BAPCtools'.
fn headers(s: &Scratch) -> std::path::PathBuf {
    s.write(
        "headers/validation.h",
        "#include <stdio.h>\n#define ACCEPT 42\n#define REJECT 43\n",
    );
    s.path().join("headers")
}

fn agrees(ran: &Ran, name: &str) -> bool {
    ran.stdout
        .lines()
        .any(|l| l.contains(name) && l.trim_start().starts_with("ok"))
}

#[test]
fn data_files_that_are_text_links_are_read_at_their_targets() {
    let s = Scratch::new();
    package(&s);
    // And a submission's header that is one, staged from its target.
    s.write(
        "p/submissions/accepted/two/main.c",
        "#include <stdio.h>\n#include \"plus.h\"\nint main(void){ int x; scanf(\"%d\", &x); printf(\"%d\\n\", PLUS(x)); return 0; }\n",
    );
    s.write("p/submissions/accepted/two/plus.h", "../../../lib/plus.h");
    s.write("p/lib/plus.h", "#define PLUS(x) ((x) + 1)\n");
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(agrees(&ran, "accepted/plus.py"), "{}", ran.stdout);
    assert!(agrees(&ran, "accepted/two"), "{}", ran.stdout);
}

#[test]
fn a_validator_header_linked_into_bapctools_reads_the_fetched_one() {
    let s = Scratch::new();
    package(&s);
    let dir = headers(&s);
    let mut cmd = s.judge();
    cmd.args(["validate", "p"])
        .env("JUDGE_BAPCTOOLS_HEADERS", &dir);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // The validator runs (its header's 42): an input over the in-package
    // header's LIMIT is refused by it.
    s.write("p/data/secret/a/2.in", "1000\n");
    s.write("p/data/secret/a/2.ans", "1001\n");
    let mut cmd = s.judge();
    cmd.args(["validate", "p"])
        .env("JUDGE_BAPCTOOLS_HEADERS", &dir);
    let ran = run(cmd);
    assert_ne!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        format!("{}{}", ran.stdout, ran.stderr).contains("secret/a/2.in"),
        "{}\n{}",
        ran.stdout,
        ran.stderr
    );
}

#[test]
fn a_missing_bapctools_header_names_the_script() {
    let s = Scratch::new();
    package(&s);
    std::fs::create_dir_all(s.path().join("empty")).unwrap();
    let mut cmd = s.judge();
    cmd.args(["validate", "p"])
        .env("JUDGE_BAPCTOOLS_HEADERS", s.path().join("empty"));
    let ran = run(cmd);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert_ne!(ran.code, 0, "{all}");
    assert!(
        all.contains("validation.h is a link to BAPCtools' header validation.h; run scripts/get-bapctools-headers.sh"),
        "{all}"
    );
}

#[test]
fn a_text_link_out_of_the_package_is_refused_by_name() {
    let s = Scratch::new();
    package(&s);
    s.write("secret.txt", "41\n");
    s.write("p/data/secret/b/1.in", "../../../../secret.txt");
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let ran = run(cmd);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert_ne!(ran.code, 0, "{all}");
    assert!(all.contains("leads outside the package: refused"), "{all}");
}

#[test]
fn a_generator_that_is_a_text_link_runs_from_a_directory_of_its_name() {
    let s = Scratch::new();
    s.write("q/problem.yaml", "name: Plus one\n");
    s.write(
        "q/submissions/accepted/plus.py",
        "print(int(input()) + 1)\n",
    );
    // The generator prints the length of the name of the directory it
    // runs from, as BAPCtools' `identity` generators seed from it.
    s.write(
        "q/generators/gen/gen.py",
        "import pathlib, sys\nprint(len(pathlib.Path(sys.argv[0]).parts[-2]))\n",
    );
    s.write("q/generators/g", "gen");
    s.write("q/generators/longer_name", "gen");
    s.write(
        "q/generators/generators.yaml",
        "solution: /submissions/accepted/plus.py\ndata:\n  sample:\n    data:\n      one: g\n  secret:\n    data:\n      long: longer_name\n      own: gen\n",
    );
    let ran = s.run_judge(&["gen", "q"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(s.read("q/data/sample/one.in"), "1\n");
    assert_eq!(s.read("q/data/secret/long.in"), "11\n");
    assert_eq!(s.read("q/data/secret/own.in"), "3\n");
    assert_eq!(s.read("q/data/secret/long.ans"), "12\n");
}

#[test]
fn a_bad_submission_agrees_when_it_misses_its_folders_verdict() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/submissions/accepted/wa.bad.py",
        "print(int(input()) + 2)\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(agrees(&ran, "accepted/wa.bad.py"), "{}", ran.stdout);
    // One that meets it disagrees, and says why.
    s.write(
        "p/submissions/accepted/ac.bad.py",
        "print(int(input()) + 1)\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("a `.bad.` submission, meant to miss its folder's verdict (AC), met it"),
        "{}",
        ran.stdout
    );
}
