//! `judge gen PACKAGE` from generators/generators.yaml: the data tree made
//! as BAPCtools names and seeds it, byte-identical and with nothing run on
//! a second pass, one changed generator remaking only its cases, a case the
//! validator rejects reported and not written, hand-made files kept.

mod common;
use common::*;

const RANDOM_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { unsigned long s = strtoul(argv[1], 0, 10); long n = atol(argv[2]); printf("%ld %lu\n", n, s % 1000); return 0; }"#;

const SUM_C: &str = "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n";

/// Accepts two non-negative numbers.
const VALIDATOR_C: &str = r#"#include <stdio.h>
int main(void){long a,b; if(scanf("%ld %ld",&a,&b)!=2||a<0||b<0){fprintf(stderr,"negative or missing\n");return 43;} return 42;}"#;

fn package(s: &Scratch) {
    s.write("p/problem.yaml", "name: Sum\n");
    s.write("p/generators/random.c", RANDOM_C);
    s.write("p/generators/manual/hand.in", "3 4\n");
    s.write("p/submissions/accepted/sum.c", SUM_C);
    s.write("p/input_validators/v.c", VALIDATOR_C);
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      - '': {in: \"1 2\", ans: \"3\"}\n      - hand: {copy: manual/hand}\n  secret:\n    test_group.yaml:\n      input_validator_args: ''\n    data:\n      - small: random.c {seed} 5\n      - big:\n          generate: random.c {seed} {count}000\n          count: 3\n",
    );
}

fn generate(s: &Scratch, extra: &[&str]) -> Ran {
    generate_in(s, "p", extra)
}

fn generate_in(s: &Scratch, dir: &str, extra: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.args(["gen", dir]).args(extra);
    run(cmd)
}

fn tree(s: &Scratch) -> Vec<(String, String)> {
    tree_of(s, "p/data")
}

fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            for p in walk(&path) {
                out.push(format!("{}/{p}", entry.file_name().to_string_lossy()));
            }
        } else {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    out
}

#[test]
fn a_tree_is_made_named_and_seeded_as_bapctools_does_then_kept() {
    let s = Scratch::new();
    package(&s);
    let first = generate(&s, &[]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let made = tree(&s);
    let names: Vec<&str> = made.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "sample/1.ans",
            "sample/1.in",
            "sample/2-hand.ans",
            "sample/2-hand.in",
            "secret/3-small.ans",
            "secret/3-small.in",
            "secret/4-big-1.ans",
            "secret/4-big-1.in",
            "secret/5-big-2.ans",
            "secret/5-big-2.in",
            "secret/6-big-3.ans",
            "secret/6-big-3.in",
            "secret/test_group.yaml",
        ]
    );
    // The seed: int(sha512(command).hexdigest(), 16) % 2**31, computed by
    // Python's own hashlib when it is here.
    if installed("python3") {
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import hashlib;print(int(hashlib.sha512(b'random.c {seed} 5').hexdigest(),16)%2**31)",
            ])
            .output()
            .unwrap();
        let seed: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        let small = &made
            .iter()
            .find(|(p, _)| p == "secret/3-small.in")
            .unwrap()
            .1;
        assert_eq!(small, &format!("5 {}\n", seed % 1000));
        let big2 = &made
            .iter()
            .find(|(p, _)| p == "secret/5-big-2.in")
            .unwrap()
            .1;
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import hashlib;print(int(hashlib.sha512(b':1random.c {seed} 2000').hexdigest(),16)%2**31)",
            ])
            .output()
            .unwrap();
        let seed: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        assert_eq!(big2, &format!("2000 {}\n", seed % 1000));
    } else {
        println!("not run: python3 is not installed (an independent seed computation)");
    }
    let small_ans = &made
        .iter()
        .find(|(p, _)| p == "secret/3-small.ans")
        .unwrap()
        .1;
    assert!(small_ans.ends_with('\n') && small_ans.trim().parse::<i64>().is_ok());

    // A second pass: nothing run, the same bytes.
    let second = generate(&s, &[]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(
        second
            .stderr
            .contains("6 cases: 0 made, 6 unchanged (nothing run), 0 failed"),
        "{}",
        second.stderr
    );
    assert_eq!(tree(&s), made);

    // One changed generator: only its cases are made again.
    s.write(
        "p/generators/random.c",
        RANDOM_C.replace("s % 1000", "s % 997"),
    );
    let third = generate(&s, &[]);
    assert!(
        third.stderr.contains("6 cases: 4 made, 2 unchanged"),
        "{}",
        third.stderr
    );
}

/// A case's own `yaml:` gives the input validators its arguments when the
/// case is made (as `judge validate` reads the written NAME.yaml after).
#[test]
fn a_cases_own_yaml_gives_the_validators_its_arguments() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/input_validators/v.c",
        r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv){long a,b; int sig = argc > 1 && !strcmp(argv[1], "--signed"); if(scanf("%ld %ld",&a,&b)!=2||(!sig&&(a<0||b<0))){fprintf(stderr,"negative or missing\n");return 43;} return 42;}"#,
    );
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  secret:\n    data:\n      signed:\n        in: \"-1 5\"\n        yaml:\n          input_validator_args: [--signed]\n      byargs:\n        in: \"-1 5\"\n        yaml:\n          args: [--signed]\n      unsigned: {in: \"-1 5\"}\n",
    );
    let ran = generate(&s, &[]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(s.read("p/data/secret/signed.ans"), "4\n", "{}", ran.stderr);
    assert!(s.path().join("p/data/secret/signed.yaml").exists());
    // A case's args reach the input validators too (after their own).
    assert_eq!(s.read("p/data/secret/byargs.ans"), "4\n", "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("data/secret/unsigned: rejected by input validator"),
        "{}",
        ran.stderr
    );
    let mut cmd = s.judge();
    cmd.args(["validate", "p"]);
    let validated = run(cmd);
    assert_eq!(
        validated.code, 0,
        "{}{}",
        validated.stdout, validated.stderr
    );
}

#[test]
fn rejected_cases_are_not_written_and_hand_made_files_survive() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  secret:\n    data:\n      good: {in: \"1 1\"}\n      bad: {in: \"-1 5\"}\n",
    );
    s.write("p/data/secret/hand.in", "9 9\n");
    s.write("p/data/secret/hand.ans", "18\n");
    let ran = generate(&s, &[]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "data/secret/bad: rejected by input validator input_validators/v.c: negative or missing"
        ),
        "{}",
        ran.stderr
    );
    assert!(!s.path().join("p/data/secret/bad.in").exists());
    assert_eq!(s.read("p/data/secret/good.ans"), "2\n");
    // --clean keeps what judge gen did not write; a hand edit of a made
    // file is not overwritten without --force.
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  secret:\n    data:\n      good: {in: \"2 2\"}\n",
    );
    s.write("p/data/secret/good.ans", "hand edit\n");
    let ran = generate(&s, &["--clean"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("data/secret/good.ans: not replaced"),
        "{}",
        ran.stderr
    );
    assert_eq!(s.read("p/data/secret/hand.in"), "9 9\n");
    assert_eq!(s.read("p/data/secret/good.ans"), "hand edit\n");
    let forced = generate(&s, &["--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(s.read("p/data/secret/good.ans"), "4\n");
    // --dry-run makes nothing and says how each case would be made.
    let dry = generate(&s, &["--dry-run"]);
    assert!(
        dry.stdout.contains("data/secret/good: inline"),
        "{}",
        dry.stdout
    );
}

#[test]
fn the_example_regenerates_byte_for_byte_and_a_copy_runs_nothing() {
    if !installed("python3") || !installed("g++") {
        println!("not run: python3 or g++ is not installed (the example's generators)");
        return;
    }
    let s = Scratch::new();
    let copy = s.copy_tree(&examples().join("gensum"), "p");
    // As committed: every case unchanged, nothing run.
    let kept = generate(&s, &[]);
    assert_eq!(kept.code, 0, "{}", kept.stderr);
    assert!(
        kept.stderr
            .contains("9 cases: 0 made, 9 unchanged (nothing run)"),
        "{}",
        kept.stderr
    );
    // From nothing: the same bytes.
    let committed = tree(&s);
    std::fs::remove_dir_all(copy.join("data")).unwrap();
    let made = generate(&s, &[]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert_eq!(tree(&s), committed);
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    let verified = run(cmd);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
}

#[test]
fn retries_take_the_next_seed_and_nondeterminism_is_caught() {
    let s = Scratch::new();
    package(&s);
    // Fails on an even seed: with retries it gets the next one.
    s.script(
        "p/generators/odd.sh",
        "if [ $(( $1 % 2 )) -eq 0 ]; then exit 1; fi\necho \"$1 1\"",
    );
    s.script(
        "p/generators/noisy.sh",
        "echo \"$(od -An -N2 -tu2 /dev/urandom | tr -d ' ') 1\"",
    );
    s.write(
        "p/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\nretries: 2\ndata:\n  secret:\n    data:\n      odd:\n        generate: odd.sh {seed}\n        count: 4\n      noisy: noisy.sh\n",
    );
    let ran = generate(&s, &[]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    for i in 1..=4 {
        let input = s.read(&format!("p/data/secret/odd-{i}.in"));
        let seed: u64 = input.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(seed % 2, 1, "odd-{i}: {input}");
    }
    let checked = generate(&s, &["--check-deterministic"]);
    assert_eq!(checked.code, 1, "{}", checked.stderr);
    assert!(
        checked
            .stderr
            .contains("generator `noisy.sh` is not deterministic"),
        "{}",
        checked.stderr
    );
}

/// A package whose validator takes `small` from its group (a ≤ 5 then).
fn include_package(s: &Scratch) {
    s.write("q/problem.yaml", "name: Sum\n");
    s.write("q/submissions/accepted/sum.c", SUM_C);
    s.script(
        "q/input_validators/v.sh",
        "read a b\nif [ \"$1\" = small ] && [ \"$a\" -gt 5 ]; then echo \"$a is too big for small\" >&2; exit 43; fi\nexit 42",
    );
    s.write(
        "q/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      - one: {in: \"1 2\"}\n      - nine: {in: \"9 1\"}\n  secret:\n    include: [sample]\n    data:\n      tiny:\n        test_group.yaml:\n          input_validator_args: small\n        include:\n          - one\n        data:\n          own: {in: \"2 2\"}\n",
    );
}

/// A case included into invalid_input/ is its input alone (the format has
/// no answer there).
#[test]
fn a_case_included_into_invalid_input_has_no_answer() {
    let s = Scratch::new();
    include_package(&s);
    s.write(
        "q/generators/generators.yaml",
        "solution: /submissions/accepted/sum.c\ndata:\n  sample:\n    data:\n      - nine: {in: \"9 1\"}\n  invalid_input:\n    include: [nine]\n",
    );
    let ran = generate_in(&s, "q", &[]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(s.read("q/data/sample/1-nine.ans"), "10\n");
    assert_eq!(s.read("q/data/invalid_input/1-nine.in"), "9 1\n");
    assert!(!s.path().join("q/data/invalid_input/1-nine.ans").exists());
}

#[test]
fn include_copies_earlier_cases_validated_with_their_new_group() {
    let s = Scratch::new();
    include_package(&s);
    let mut cmd = s.judge();
    cmd.args(["gen", "q", "--report", "gen.json"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    for (path, text) in [
        ("secret/1-one.in", "1 2\n"),
        ("secret/2-nine.in", "9 1\n"),
        ("secret/2-nine.ans", "10\n"),
        ("secret/tiny/1-one.in", "1 2\n"),
        ("secret/tiny/own.ans", "4\n"),
    ] {
        assert_eq!(s.read(&format!("q/data/{path}")), text, "{path}");
    }
    let report: serde_json::Value =
        serde_json::from_str(&s.read("gen.json")).expect("the report is JSON");
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 6, "{report}");
    let included = cases
        .iter()
        .find(|c| c["path"] == "q/data/secret/tiny/1-one")
        .expect("the included case is listed");
    assert_eq!(included["source"], "include");
    assert_eq!(included["included_from"], "q/data/sample/1-one");
    assert_eq!(included["validation"], "passed");
    assert_eq!(included["cache_hit"], false);
    // A second run makes nothing, includes too.
    let again = generate_in(&s, "q", &[]);
    assert!(
        again
            .stderr
            .contains("6 cases: 0 made, 6 unchanged (nothing run), 0 failed"),
        "{}",
        again.stderr
    );
    // The same case included into the `small` group fails there, named.
    s.write(
        "q/generators/generators.yaml",
        s.read("q/generators/generators.yaml")
            .replace("- one\n", "- nine\n"),
    );
    let rejected = generate_in(&s, "q", &[]);
    assert_eq!(rejected.code, 1, "{}", rejected.stderr);
    assert!(
        rejected
            .stderr
            .contains("data/secret/tiny/2-nine: rejected by input validator input_validators/v.sh: 9 is too big for small"),
        "{}",
        rejected.stderr
    );
    assert!(!s.path().join("q/data/secret/tiny/2-nine.in").exists());
    // An unknown key is an error naming the file, its line and the key.
    s.write(
        "q/generators/generators.yaml",
        "data:\n  sample:\n    data:\n      one: {in: \"1 2\"}\n  secret:\n    include:\n      - onne\n",
    );
    let unknown = generate_in(&s, "q", &[]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown.stderr.contains(
            "generators.yaml:7: data/secret: include \"onne\": no case or group before this has the key"
        ),
        "{}",
        unknown.stderr
    );
}

#[test]
fn the_json_report_lists_every_case_with_command_seed_cache_and_time() {
    let s = Scratch::new();
    package(&s);
    let first = generate(&s, &["--format", "json"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let report = first.json();
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 6);
    let small = cases
        .iter()
        .find(|c| c["name"] == "3-small")
        .expect("3-small");
    assert_eq!(small["command"], "random.c {seed} 5");
    assert_eq!(small["source"], "generate");
    let seed = small["seed"].as_u64().expect("a seed");
    assert_eq!(
        s.read("p/data/secret/3-small.in"),
        format!("5 {}\n", seed % 1000)
    );
    assert_eq!(small["cache_hit"], false);
    assert_eq!(small["validation"], "passed");
    assert!(
        small["time_ms"].as_f64().is_some_and(|t| t > 0.0),
        "{small}"
    );
    let copied = cases
        .iter()
        .find(|c| c["name"] == "2-hand")
        .expect("2-hand");
    assert_eq!(
        (copied["source"].as_str(), copied["seed"].is_null()),
        (Some("copy"), true)
    );
    let second = generate(&s, &["--format", "json"]);
    let report = second.json();
    assert!(
        report["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .all(|c| c["cache_hit"] == true && c["validation"] == "unchanged"),
        "{report}"
    );
    assert_eq!(report["unchanged"], 6);
    let refused = generate(&s, &["--format", "junit"]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
}

#[test]
fn a_judge_toml_problem_names_its_generators_file() {
    let s = Scratch::new();
    s.write("gen/random.c", RANDOM_C);
    s.write("solutions/sum.c", SUM_C);
    s.write(
        "gen/generators.yaml",
        "solution: /solutions/sum.c\ndata:\n  secret:\n    data:\n      - a: random.c {seed} 7\n      - b:\n          generate: random.c {seed} {count}\n          count: [3, 10]\n",
    );
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\ngenerators = \"gen/generators.yaml\"\n",
    );
    let mut cmd = s.judge();
    cmd.args(["gen", "sum"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(s.read("cases/sum/secret/1-a.in").starts_with("7 "));
    // A count list: named and {count} by value, one number each.
    assert!(s.read("cases/sum/secret/2-b-3.in").starts_with("3 "));
    assert!(s.read("cases/sum/secret/3-b-10.in").starts_with("10 "));
    let mut cmd = s.judge();
    cmd.args(["run", "--submission", "solutions/sum.c"]);
    assert_eq!(run(cmd).code, 0);
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ngenerator = \"gen/generators.yaml\"\n",
    );
    let mut cmd = s.judge();
    cmd.args(["gen", "sum"]);
    let refused = run(cmd);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("generator"), "{}", refused.stderr);
}

#[test]
fn built_in_puzzle_generators_make_a_rotation_package() {
    let s = Scratch::new();
    s.write("r/problem.yaml", "name: Rotation\n");
    s.write(
        "r/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      - short: judge gen rotation --length 3 --seed {seed}\n      - long:\n          generate: judge gen rotation --length {count}\n          count: [6, 7]\n",
    );
    let first = generate_in(&s, "r", &["--format", "json"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let report = first.json();
    let short = &report["cases"][0];
    assert_eq!(short["source"], "judge");
    let seed = short["seed"].as_u64().expect("a seed");
    // The same bytes as `judge gen rotation` with that seed, answers by the
    // built-in solver.
    let mut cmd = s.judge();
    cmd.args([
        "gen", "rotation", "--length", "3", "--out", "direct", "--name", "x",
    ])
    .args(["--seed", &seed.to_string()]);
    assert_eq!(run(cmd).code, 0);
    assert_eq!(s.read("r/data/secret/1-short.in"), s.read("direct/x.in"));
    assert_eq!(s.read("r/data/secret/1-short.ans"), s.read("direct/x.ans"));
    let mut cmd = s.judge();
    cmd.args(["run", "r/data/secret", "--problem", "rotation", "--builtin"]);
    let judged = run(cmd);
    assert_eq!(judged.code, 0, "{}{}", judged.stdout, judged.stderr);
    let made = tree_of(&s, "r/data");
    let again = generate_in(&s, "r", &[]);
    assert!(
        again.stderr.contains("3 cases: 0 made, 3 unchanged"),
        "{}",
        again.stderr
    );
    std::fs::remove_dir_all(s.path().join("r/data")).unwrap();
    assert_eq!(generate_in(&s, "r", &[]).code, 0);
    assert_eq!(tree_of(&s, "r/data"), made, "byte-identical from nothing");
}

fn tree_of(s: &Scratch, dir: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = walk(&s.path().join(dir))
        .into_iter()
        .map(|p| (p.clone(), s.read(&format!("{dir}/{p}"))))
        .filter(|(p, _)| !p.ends_with(".judge-gen.json"))
        .collect();
    files.sort();
    files
}

#[test]
fn bapctools_rules_default_solution_invalid_cases_and_generator_files() {
    let s = Scratch::new();
    s.write("d/problem.yaml", "name: Sum\n");
    // No `solution:`: the first accepted submission answers.
    s.write("d/submissions/accepted/b_sum.c", SUM_C);
    s.script(
        "d/submissions/accepted/a_sum.sh",
        "read a b; echo $((a + b))",
    );
    s.script(
        "d/generators/files.sh",
        "echo '4 5' > testcase.in\necho 9 > testcase.ans\necho hint > testcase.hint\necho junk > testcase.junk\necho ignored",
    );
    s.script("d/generators/silent.sh", "true");
    s.write(
        "d/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      files: files.sh\n      plain: {in: \"2 3\"}\n  invalid_input:\n    data:\n      words: {in: \"x y\"}\n",
    );
    let ran = generate_in(&s, "d", &[]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("the answers come from /submissions/accepted/a_sum.sh"),
        "{}",
        ran.stderr
    );
    assert_eq!(s.read("d/data/secret/plain.ans"), "5\n");
    // testcase.in over standard output; known extensions kept, others not.
    assert_eq!(s.read("d/data/secret/files.in"), "4 5\n");
    assert_eq!(s.read("d/data/secret/files.ans"), "9\n");
    assert_eq!(s.read("d/data/secret/files.hint"), "hint\n");
    assert!(!s.path().join("d/data/secret/files.junk").exists());
    // An invalid_* case gets no answer from the solution.
    assert_eq!(s.read("d/data/invalid_input/words.in"), "x y\n");
    assert!(!s.path().join("d/data/invalid_input/words.ans").exists());
    // A generator that writes no testcase.in and nothing on stdout fails.
    s.write(
        "d/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      silent: silent.sh\n",
    );
    let failed = generate_in(&s, "d", &[]);
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    assert!(
        failed
            .stderr
            .contains("generator `silent.sh`: wrote no testcase.in and nothing on standard output"),
        "{}",
        failed.stderr
    );
    // A named generator is its listed files alone, the first the entry
    // point: another C source beside them in generators/ is not built
    // with it.
    s.write("d/generators/twice.h", "#define TWICE(x) (2 * (x))\n");
    s.write(
        "d/generators/twice.c",
        "#include <stdio.h>\n#include \"twice.h\"\nint main(void){printf(\"%d %d\\n\", TWICE(1), TWICE(2));return 0;}\n",
    );
    s.write("d/generators/other.c", "int main(void){return 1;}\n");
    s.write(
        "d/generators/generators.yaml",
        "generators:\n  tw:\n    - twice.c\n    - twice.h\ndata:\n  secret:\n    data:\n      doubled: tw\n",
    );
    let ran = generate_in(&s, "d", &[]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(s.read("d/data/secret/doubled.in"), "2 4\n");
}

/// An interactive (or multi-pass) problem's answers are for its validator:
/// `judge gen` writes an empty `.ans` where nothing gives one and never
/// runs the solution as an ordinary program (an interactive solution
/// would wait for a validator that is not there), as BAPCtools does.
#[test]
fn an_interactive_problems_cases_get_an_empty_answer_not_the_solutions_output() {
    let s = Scratch::new();
    s.write("i/problem.yaml", "name: Guess\ntype: interactive\n");
    s.write(
        "i/output_validator/v.c",
        "#include <stdio.h>\nint main(void){printf(\"go\\n\");fflush(stdout);long x;return scanf(\"%ld\",&x)==1?42:43;}\n",
    );
    // Run as an ordinary program on its input, it would fail (exit 1).
    s.write(
        "i/submissions/accepted/sol.c",
        "#include <stdio.h>\nint main(void){char w[8];if(scanf(\"%7s\",w)!=1||w[0]!='g')return 1;printf(\"1\\n\");return 0;}\n",
    );
    s.write(
        "i/generators/generators.yaml",
        "solution: /submissions/accepted/sol.c\ndata:\n  sample:\n    data:\n      '1': {in: \"5\"}\n  secret:\n    data:\n      given: {in: \"6\", ans: \"kept\"}\n      plain: {in: \"7\"}\n",
    );
    let ran = generate_in(&s, "i", &[]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let read = |p: &str| std::fs::read_to_string(s.path().join("i/data").join(p)).unwrap();
    assert_eq!(read("sample/1.ans"), "");
    assert_eq!(read("secret/plain.ans"), "");
    assert_eq!(read("secret/given.ans"), "kept\n");
    let mut cmd = s.judge();
    cmd.args(["verify", "i"]);
    let verified = run(cmd);
    assert_eq!(verified.code, 0, "{}\n{}", verified.stdout, verified.stderr);
}
