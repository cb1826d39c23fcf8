//! Issue 43: a problem with generation is not a problem with judging.
//! `judge verify` and `judge run` judge the cases that are in `data/` even
//! when generators/generators.yaml has entries the judge cannot use (each
//! a warning naming the file, the line and the entry); `judge gen` fails on
//! those and reads BAPCtools' older forms as BAPCtools read them: an empty
//! entry (a hand-made case whose files are already in `data/`), a command
//! that is a `.in` path (a copy), `input:` (the command), `type:` and
//! `visualizer:` (read past), `testdata.yaml` (written as it is).

mod common;
use common::*;

const SUM_C: &str = "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n";

/// A sum package: its solution, a generator `pair.sh A B`, the hand-made
/// files given (path under the package, content), and generators.yaml.
fn package(s: &Scratch, files: &[(&str, &str)], yaml: &str) {
    s.write("p/problem.yaml", "name: Sum\n");
    s.write("p/submissions/accepted/sum.c", SUM_C);
    s.write("p/submissions/wrong_answer/zero.sh", "#!/bin/sh\necho 0\n");
    s.script("p/generators/pair.sh", "echo \"$1 $2\"");
    for (rel, text) in files {
        s.write(&format!("p/{rel}"), text);
    }
    s.write("p/generators/generators.yaml", yaml);
}

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

/// The files under `data/` (the manifest aside), sorted.
fn data_files(s: &Scratch) -> Vec<String> {
    let data = s.path().join("p/data");
    let mut names: Vec<String> = walkdir::WalkDir::new(&data)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(&data).ok()?.display().to_string();
            (rel != ".judge-gen.json").then_some(rel)
        })
        .collect();
    names.sort();
    names
}

const HAND_MADE: [(&str, &str); 3] = [
    ("data/sample/1.in", "1 2\n"),
    ("data/sample/1.ans", "3\n"),
    ("data/secret/hand.in", "20 22\n"),
];

#[test]
fn an_empty_entry_is_a_hand_made_case_verify_judges_it_and_gen_keeps_it() {
    let s = Scratch::new();
    package(
        &s,
        &HAND_MADE,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      '1':\n  secret:\n    data:\n      hand:\n      made: pair.sh 3 4\n",
    );
    let verify = s.run_judge(&["verify", "p"]);
    assert_eq!(verify.code, 0, "{}", all(&verify));
    // Every case is judged: the hand-made ones and the generated one.
    assert!(verify.stdout.contains("on 3 cases"), "{}", all(&verify));
    assert!(
        verify.stderr.contains(
            "p/generators/generators.yaml:5: data/sample/1: an empty entry, BAPCtools' old form of a hand-made case"
        ),
        "{}",
        verify.stderr
    );
    assert!(
        verify
            .stderr
            .contains("generators.yaml:8: data/secret/hand: an empty entry"),
        "{}",
        verify.stderr
    );
    // The author's files are as they were; the missing answer is made.
    assert_eq!(s.read("p/data/sample/1.in"), "1 2\n");
    assert_eq!(s.read("p/data/sample/1.ans"), "3\n");
    assert_eq!(s.read("p/data/secret/hand.in"), "20 22\n");
    assert_eq!(s.read("p/data/secret/hand.ans"), "42\n");
    // `judge gen` reads it as BAPCtools did before 2023: nothing of the
    // author's is written or owned, so `--clean` never removes it.
    let made = s.run_judge(&["gen", "p", "--clean"]);
    assert_eq!(made.code, 0, "{}", all(&made));
    assert!(
        made.stderr.contains("2 hand-made in data/ (empty entries)"),
        "{}",
        made.stderr
    );
    let manifest = s.read("p/data/.judge-gen.json");
    assert!(!manifest.contains("sample/1.in"), "{manifest}");
    assert!(!manifest.contains("secret/hand.in"), "{manifest}");
    assert!(manifest.contains("secret/hand.ans"), "{manifest}");
    assert_eq!(
        data_files(&s),
        [
            "sample/1.ans",
            "sample/1.in",
            "secret/hand.ans",
            "secret/hand.in",
            "secret/made.ans",
            "secret/made.in"
        ]
    );
    let dry = s.run_judge(&["gen", "p", "--dry-run"]);
    assert!(
        dry.stdout
            .contains("data/secret/hand: kept: data/secret/hand.in as it is (an empty entry)"),
        "{}",
        all(&dry)
    );
    // Without its input in data/ the entry cannot be made: gen fails on
    // it, naming it; verify judges the rest.
    std::fs::remove_file(s.path().join("p/data/secret/hand.in")).expect("rm");
    let made = s.run_judge(&["gen", "p"]);
    assert_eq!(made.code, 1, "{}", all(&made));
    assert!(
        made.stderr
            .contains("data/secret/hand: an empty entry is a hand-made case whose files are in data/, and data/secret/hand.in is not there"),
        "{}",
        made.stderr
    );
    let verify = s.run_judge(&["verify", "p"]);
    assert_eq!(verify.code, 0, "{}", all(&verify));
    assert!(verify.stdout.contains("on 2 cases"), "{}", all(&verify));
}

#[test]
fn a_bare_string_is_a_command_or_the_old_form_of_copy() {
    let s = Scratch::new();
    package(
        &s,
        &[("generators/manual/big.in", "100 200\n")],
        "solution: /submissions/accepted/sum.c\ndata:\n  secret:\n    data:\n      - small: pair.sh 1 1\n      - big: manual/big.in\n",
    );
    let made = s.run_judge(&["gen", "p"]);
    assert_eq!(made.code, 0, "{}", all(&made));
    assert_eq!(s.read("p/data/secret/1-small.in"), "1 1\n");
    assert_eq!(s.read("p/data/secret/2-big.in"), "100 200\n");
    assert_eq!(s.read("p/data/secret/2-big.ans"), "300\n");
    // BAPCtools warns the same ("Use the new `copy: path/to/case` key").
    assert!(
        made.stderr.contains(
            "generators.yaml:6: data/secret/big: manual/big.in: the old form of copy: manual/big"
        ),
        "{}",
        made.stderr
    );
}

#[test]
fn older_keys_are_read_as_the_bapctools_that_wrote_them() {
    let s = Scratch::new();
    package(
        &s,
        &[],
        "solution: /submissions/accepted/sum.c\nvisualizer: /visualizers/vis.py\ndata:\n  sample:\n    type: directory\n    data:\n      one:\n        type: testcase\n        input: pair.sh 1 2\n        visualizer:\n  secret:\n    testdata.yaml:\n      output_validator_flags: space_change_sensitive\n    random_salt: 5\n    retries: 0\n    data:\n      two:\n        input: pair.sh 2 {seed}\n",
    );
    let made = s.run_judge(&["gen", "p", "--format", "json"]);
    assert_eq!(made.code, 0, "{}", all(&made));
    assert_eq!(s.read("p/data/sample/one.in"), "1 2\n");
    assert_eq!(s.read("p/data/sample/one.ans"), "3\n");
    // `input:` is the command, seeded as `generate:` is (random_salt of
    // the wrong kind: warned, the one above kept, as BAPCtools keeps it).
    let two = &made.json()["cases"][1];
    assert_eq!(two["source"], "generate");
    assert_eq!(two["command"], "pair.sh 2 {seed}");
    let seed = two["seed"].as_u64().expect("a seed");
    assert_eq!(s.read("p/data/secret/two.in"), format!("2 {seed}\n"));
    assert_eq!(
        s.read("p/data/secret/testdata.yaml"),
        "output_validator_flags: space_change_sensitive\n"
    );
    for said in [
        "generators.yaml:2: visualizer: a deprecated key, ignored",
        "generators.yaml:5: data/sample: type: directory: BAPCtools' old marker of a directory",
        "generators.yaml:8: data/sample/one: type: testcase: BAPCtools' old marker of a case",
        "generators.yaml:9: data/sample/one: input: the old name of generate:",
        "generators.yaml:10: data/sample/one: visualizer: BAPCtools' old visualizer key",
        "generators.yaml:14: data/secret: random_salt: expected text: ignored, the one above applies",
        "generators.yaml:15: data/secret: retries: 0: expected a whole number above 0: ignored",
        "generators.yaml:18: data/secret/two: input: the old name of generate:",
    ] {
        assert!(made.stderr.contains(said), "{said}\n{}", made.stderr);
    }
    let verify = s.run_judge(&["verify", "p"]);
    assert_eq!(verify.code, 0, "{}", all(&verify));
}

#[test]
fn entries_the_judge_cannot_use_are_warnings_in_verify_and_errors_in_gen() {
    let s = Scratch::new();
    // A hand-made secret case is in data/; the entries around it are
    // broken one way each, and one reaches outside the package.
    s.write("outside/leak.in", "6 6\n");
    package(
        &s,
        &HAND_MADE,
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      '1':\n      link:\n        in: 1 2\n        ans.download: {link: in}\n  secret:\n    data:\n      hand:\n      absolute: /bin/echo 1 2\n      twice: pair.sh {seed} {seed}\n      quote: pair.sh 'open\n      leak:\n        copy: ../../outside/leak\n      fine: pair.sh 5 5\n",
    );
    let verify = s.run_judge(&["verify", "p"]);
    assert_eq!(verify.code, 0, "{}", all(&verify));
    assert!(verify.stdout.contains("on 3 cases"), "{}", all(&verify));
    for said in [
        "generators.yaml:8: data/sample/link: ans.download: link: in: an ans file links only to an ans file",
        "generators.yaml:12: data/secret/absolute: generate: /bin/echo: the program must be relative to generators/",
        "generators.yaml:13: data/secret/twice: generate: {seed} may appear at most once",
        "generators.yaml:14: data/secret/quote: generate: no closing quotation",
        "generators.yaml:16: data/secret/leak: copy: ../../outside/leak: outside the package",
    ] {
        assert!(
            verify
                .stderr
                .contains(&format!("warning: p/generators/{said}")),
            "{said}\n{}",
            verify.stderr
        );
    }
    assert!(
        verify.stderr.contains("5 entries left out"),
        "{}",
        verify.stderr
    );
    assert!(!s.path().join("p/data/secret/leak.in").exists());
    assert_eq!(s.read("p/data/secret/fine.in"), "5 5\n");
    // `judge gen`: the same entries are its failures (exit 1), the rest
    // made (BAPCtools: "Rule contained errors. SKIPPED.").
    let made = s.run_judge(&["gen", "p"]);
    assert_eq!(made.code, 1, "{}", all(&made));
    assert!(
        made.stderr.contains(
            "p/generators/generators.yaml:16: data/secret/leak: copy: ../../outside/leak: outside the package (judge gen reads only inside it): not made"
        ),
        "{}",
        made.stderr
    );
    assert!(made.stderr.contains("5 failed"), "{}", made.stderr);
    assert!(!s.path().join("p/data/secret/leak.in").exists());
}

#[test]
fn a_generators_yaml_that_cannot_be_read_leaves_data_judged_as_it_is() {
    for (yaml, said) in [
        (
            "data:\n  secret:\n    data:\n      a: [1\n",
            "generators.yaml:5: did not find expected ',' or ']'",
        ),
        (
            "data:\n  secret:\n    include: [nothing]\n",
            "generators.yaml:3: data/secret: include \"nothing\": no case or group before this",
        ),
        (
            "generators:\n  out: [../../outside/gen.sh]\ndata:\n",
            "generators.yaml:2: generators.out: ../../outside/gen.sh: outside the package",
        ),
    ] {
        let s = Scratch::new();
        package(&s, &HAND_MADE, yaml);
        s.write("p/data/secret/hand.ans", "42\n");
        let verify = s.run_judge(&["verify", "p"]);
        assert_eq!(verify.code, 0, "{yaml}: {}", all(&verify));
        assert!(
            verify.stdout.contains("on 2 cases"),
            "{yaml}: {}",
            all(&verify)
        );
        assert!(
            verify.stderr.contains(said)
                && verify
                    .stderr
                    .contains("data/ is judged as it is: nothing generated"),
            "{yaml}: {}",
            verify.stderr
        );
        let run = s.run_judge(&["run", "p", "--submission", "p/submissions/accepted/sum.c"]);
        assert_eq!(run.code, 0, "{yaml}: {}", all(&run));
        // Where BAPCtools cannot parse the file it makes nothing: neither
        // does `judge gen` (exit 2), and data/ is untouched.
        let made = s.run_judge(&["gen", "p"]);
        assert_eq!(made.code, 2, "{yaml}: {}", all(&made));
        assert!(made.stderr.contains(said), "{yaml}: {}", made.stderr);
        assert_eq!(
            data_files(&s),
            [
                "sample/1.ans",
                "sample/1.in",
                "secret/hand.ans",
                "secret/hand.in"
            ]
        );
    }
}
