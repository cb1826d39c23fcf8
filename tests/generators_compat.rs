//! generators.yaml read as BAPCtools reads it (issue 28): an unknown key is
//! a warning naming file and line and the rest is made; a sample's
//! statement and download files (given, or `{link: …}` to another of its
//! files); a case met twice through `include:`; problem.yaml constants with
//! other spellings (`{{N.word}}`); program directories with `build` and
//! `run` scripts; `judge verify` on a package whose data is generated makes
//! it first, once.

mod common;
use common::*;

const SUM_C: &str = "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n";

fn gen_in(s: &Scratch, dir: &str) -> Ran {
    s.run_judge(&["gen", dir])
}

fn read(s: &Scratch, rel: &str) -> String {
    s.read(rel)
}

/// A sum package: the solution, and generators.yaml as given.
fn sum_package(s: &Scratch, yaml: &str) {
    s.write("p/problem.yaml", "name: Sum\n");
    s.write("p/submissions/accepted/sum.c", SUM_C);
    s.script("p/generators/pair.sh", "echo \"$1 $2\"");
    s.write("p/generators/generators.yaml", yaml);
}

#[test]
fn unknown_keys_are_warned_with_their_line_and_the_rest_is_made() {
    let s = Scratch::new();
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      one:\n        in: \"1 2\"\n        colour: blue\n  secret:\n    sorting: fast\n    data:\n      two: pair.sh 3 4\nunknown_key:\n",
    );
    let ran = gen_in(&s, "p");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    for said in [
        "generators.yaml:7: data/sample/one: unknown case key \"colour\", ignored",
        "generators.yaml:9: data/secret: unknown directory key \"sorting\", ignored",
        "generators.yaml:12: unknown file key \"unknown_key\", ignored",
    ] {
        assert!(ran.stderr.contains(said), "{said}\n{}", ran.stderr);
    }
    assert_eq!(read(&s, "p/data/sample/one.ans"), "3\n");
    assert_eq!(read(&s, "p/data/secret/two.in"), "3 4\n");
    assert_eq!(read(&s, "p/data/secret/two.ans"), "7\n");
}

#[test]
fn a_samples_statement_and_download_files_are_written_links_as_their_targets() {
    let s = Scratch::new();
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      shown:\n        in.statement: \"1 2\"\n        ans.statement: \"3\"\n        in.download: {link: in.statement}\n        ans.download: {link: ans.statement}\n      both:\n        in: \"2 2\"\n        in.download: \"2  2\"\n        ans.download: {link: ans}\n  secret:\n    data:\n      hidden:\n        in: \"5 5\"\n        in.statement: \"x\"\n",
    );
    let ran = gen_in(&s, "p");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // A sample of statement and download files alone: no input, no answer.
    assert_eq!(read(&s, "p/data/sample/shown.in.statement"), "1 2\n");
    assert_eq!(read(&s, "p/data/sample/shown.in.download"), "1 2\n");
    assert_eq!(read(&s, "p/data/sample/shown.ans.download"), "3\n");
    assert!(!s.path().join("p/data/sample/shown.in").exists());
    assert!(!s.path().join("p/data/sample/shown.ans").exists());
    // A link to the answer the solution wrote.
    assert_eq!(read(&s, "p/data/sample/both.ans"), "4\n");
    assert_eq!(read(&s, "p/data/sample/both.ans.download"), "4\n");
    assert_eq!(read(&s, "p/data/sample/both.in.download"), "2  2\n");
    // Only a sample has them: said, and the rest of the case made.
    assert!(
        ran.stderr.contains(
            "generators.yaml:18: data/secret/hidden: in.statement: only a sample case has a statement or download file, ignored"
        ),
        "{}",
        ran.stderr
    );
    assert_eq!(read(&s, "p/data/secret/hidden.ans"), "10\n");
    assert!(!s.path().join("p/data/secret/hidden.in.statement").exists());
    // A link across kinds is refused, named.
    s.write(
        "p/generators/generators.yaml",
        "data:\n  sample:\n    data:\n      bad:\n        in: \"1 2\"\n        in.download: {link: ans}\n",
    );
    // That case is left out, a failure of `judge gen` (BAPCtools: the
    // rule's error, the rest made).
    let bad = gen_in(&s, "p");
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(
        bad.stderr.contains(
            "data/sample/bad: in.download: link: ans: an in file links only to an in file"
        ),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_case_included_twice_is_there_once_and_a_clash_keeps_the_first() {
    let s = Scratch::new();
    // `early` holds `1`'s include itself; including both `early` and
    // `sample` into `later` meets sample/1 twice: one case.
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      \"1\": {in: \"1 2\"}\n  secret:\n    data:\n      early:\n        data:\n          a: pair.sh 1 1\n        include: [\"1\"]\n      later:\n        include:\n          - early\n          - sample\n",
    );
    let ran = gen_in(&s, "p");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(!ran.stderr.contains("warning"), "{}", ran.stderr);
    assert_eq!(read(&s, "p/data/secret/later/1.in"), "1 2\n");
    assert_eq!(read(&s, "p/data/secret/later/a.ans"), "2\n");
    // Two different cases of one name: the first kept, the second said.
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      a: {in: \"1 2\"}\n  secret:\n    data:\n      early:\n        data:\n          a: pair.sh 1 1\n      later:\n        include:\n          - early\n          - sample\n",
    );
    let clash = gen_in(&s, "p");
    assert_eq!(clash.code, 0, "{}", clash.stderr);
    assert!(
        clash.stderr.contains(
            "generators.yaml:14: data/secret/later: include \"sample\": data/secret/later/a is data/secret/early/a already, not data/sample/a: kept as it is"
        ),
        "{}",
        clash.stderr
    );
    assert_eq!(read(&s, "p/data/secret/later/a.in"), "1 1\n");
}

#[test]
fn constants_with_spellings_fill_a_generators_command() {
    let s = Scratch::new();
    s.write(
        "c/problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\nuuid: 0b0b6d0a-3c9e-4a6e-9d1b-2f6f1c1d2e3f\ncredits: judge tests\nlicense: cc0\nconstants:\n  N:\n    value: 5\n    word: \"five\"\n    count: 5\n  M: 7\n  F:\n    value: 10.0\n    german: \"10,0\"\n  bad name: 3\n",
    );
    s.script("c/generators/echo.sh", "echo \"$*\"");
    s.script("c/submissions/accepted/cat.sh", "cat");
    s.write(
        "c/generators/generators.yaml",
        "solution: /submissions/accepted/cat.sh\ndata:\n  secret:\n    data:\n      a: echo.sh {{N}} {{N.value}} {{N.word}} {{M}} {{F}} {{F.german}} {{N.count}} {{Q}}\n",
    );
    let ran = gen_in(&s, "c");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(
        read(&s, "c/data/secret/a.in"),
        "5 5 five 7 10.0 10,0 {{N.count}} {{Q}}\n"
    );
    // What cannot be read is said and left out, never a refusal.
    for said in [
        "problem.yaml: constants: N.count: a number; a spelling is a string, ignored",
        "problem.yaml: constants: bad name: not a name",
    ] {
        assert!(ran.stderr.contains(said), "{said}\n{}", ran.stderr);
    }
}

#[test]
fn program_directories_with_build_and_run_scripts_generate() {
    let s = Scratch::new();
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  secret:\n    data:\n      ran: dir_run 1 2\n      built: dir_build 3 4\n",
    );
    s.script("p/generators/dir_run/run", "echo \"$1 $2\"");
    s.script(
        "p/generators/dir_build/build",
        "printf '#!/bin/sh\\necho \"$2 $1\"\\n' > run\nchmod +x run",
    );
    let ran = gen_in(&s, "p");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(read(&s, "p/data/secret/ran.in"), "1 2\n");
    assert_eq!(read(&s, "p/data/secret/built.in"), "4 3\n");
    assert_eq!(read(&s, "p/data/secret/built.ans"), "7\n");
}

#[test]
fn verify_generates_missing_data_first_then_not_again_and_keeps_hand_made_files() {
    let s = Scratch::new();
    sum_package(
        &s,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      \"1\": pair.sh 1 2\n  secret:\n    data:\n      big: pair.sh 30 40\n",
    );
    // A file the judge did not write is used, never replaced.
    s.write("p/data/sample/1.in", "2 2\n");
    s.write("p/data/sample/1.ans", "4\n");
    let first = s.run_judge(&["verify", "p"]);
    assert_eq!(first.code, 0, "{}\n{}", first.stdout, first.stderr);
    assert!(
        first.stderr.contains(
            "generated data/ from generators/generators.yaml first: 2 cases, 2 made, 0 unchanged, 0 failed; 1 file not the judge's kept"
        ),
        "{}",
        first.stderr
    );
    // Kept with no answer made from another input beside it.
    assert_eq!(read(&s, "p/data/sample/1.in"), "2 2\n");
    assert_eq!(read(&s, "p/data/sample/1.ans"), "4\n");
    assert_eq!(read(&s, "p/data/secret/big.ans"), "70\n");
    let second = s.run_judge(&["verify", "p"]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(
        second
            .stderr
            .contains("data/ is as generators/generators.yaml made it: nothing regenerated"),
        "{}",
        second.stderr
    );
    assert!(
        !second.stderr.contains("generated data/"),
        "{}",
        second.stderr
    );
    // A changed generators.yaml makes the data stale: made again (only
    // what changed), then `judge run` finds it up to date.
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      \"1\": pair.sh 1 2\n  secret:\n    data:\n      big: pair.sh 30 40\n      more: pair.sh 5 6\n",
    );
    let third = s.run_judge(&["verify", "p"]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert!(
        // `big` unchanged; the new case made, and sample/1 again (its
        // files are not the judge's, so never recorded as made).
        third
            .stderr
            .contains("3 cases, 2 made, 1 unchanged, 0 failed"),
        "{}",
        third.stderr
    );
    assert_eq!(read(&s, "p/data/secret/more.ans"), "11\n");
    // A generated file changed by hand is stale too.
    s.write("p/data/secret/more.ans", "12\n");
    let fourth = s.run_judge(&["run", "p", "--submission", "p/submissions/accepted/sum.c"]);
    assert!(
        fourth
            .stderr
            .contains("generated data/ from generators/generators.yaml first"),
        "{}",
        fourth.stderr
    );
}
