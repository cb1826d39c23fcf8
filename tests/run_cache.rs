//! The run cache on real programs: a second run with nothing changed runs
//! no program, an edited answer or checker re-checks without re-running,
//! limits change what may be reused as the rules say, a damaged entry is
//! done again, `--no-cache`, `judge cache` and `--recheck`.

mod common;
use common::*;
use std::path::Path;

/// `judge` in `s` with the run cache on, kept in `cache`.
fn judge(s: &Scratch, cache: &Path) -> std::process::Command {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", cache)
        .env_remove("JUDGE_NO_CACHE");
    cmd
}

/// `judge run --format json` with `extra` arguments; the report.
fn run_json(s: &Scratch, cache: &Path, extra: &[&str]) -> serde_json::Value {
    let mut cmd = judge(s, cache);
    cmd.args(["run", "--format", "json", "-j", "2"]).args(extra);
    run(cmd).json()
}

/// (ran, reused) of a report.
fn counts(report: &serde_json::Value) -> (u64, u64) {
    let cache = &report["cache"];
    (
        cache["ran"]
            .as_u64()
            .unwrap_or_else(|| panic!("{report:#}")),
        cache["reused"].as_u64().unwrap(),
    )
}

fn verdict_of<'a>(report: &'a serde_json::Value, case: &str) -> &'a serde_json::Value {
    let found = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["case"] == case)
        .unwrap_or_else(|| panic!("no case {case} in {report:#}"));
    &found["verdict"]
}

/// Five cases of `echo`, judged by a submission that prints its input.
fn echo_problem(s: &Scratch, toml_extra: &str) {
    for i in 1..=5 {
        s.write(&format!("cases/echo/{i}.in"), format!("{i}\n"));
        s.write(&format!("cases/echo/{i}.ans"), format!("{i}\n"));
    }
    s.write("judge.toml", format!("[problem.echo]\n{toml_extra}"));
    s.script("sol.sh", "cat");
}

#[test]
fn a_second_run_with_nothing_changed_runs_no_program() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    let first = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(first["verdict"], "AC", "{first:#}");
    assert_eq!(counts(&first), (5, 0));
    let second = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(second["verdict"], "AC", "{second:#}");
    assert_eq!(counts(&second), (0, 5));
    for case in second["cases"].as_array().unwrap() {
        assert_eq!(case["cached"], true, "{case:#}");
        assert!(case["cpu_ms"].as_f64().is_some());
    }
    // The human report says it too.
    let mut cmd = judge(&s, cache.path());
    cmd.args(["run", "--submission", "./sol.sh"]);
    let human = run(cmd);
    assert!(
        human.stdout.contains("cache: 0 ran, 5 reused"),
        "{}",
        human.stdout
    );
    // The submission edited: its runs are done again.
    s.script("sol.sh", "cat; true");
    let edited = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&edited), (5, 0));
}

#[test]
fn an_edited_answer_is_checked_again_without_running() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    let first = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&first), (5, 0));
    s.write("cases/echo/2.ans", "7\n");
    let second = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&second), (0, 5));
    assert_eq!(verdict_of(&second, "2.in"), "WA", "{second:#}");
    assert_eq!(verdict_of(&second, "1.in"), "AC");
}

#[test]
fn an_edited_checker_checks_every_output_again_without_running() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(
        &s,
        "check = \"checker\"\nchecker = \"check.sh\"\nchecker_protocol = \"testlib\"\n",
    );
    // testlib: check IN OUT ANS; 0 AC, 1 WA.
    s.script("check.sh", "cmp -s \"$2\" \"$3\" && exit 0; exit 1");
    let first = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(first["verdict"], "AC", "{first:#}");
    assert_eq!(first["cache"]["checks_ran"], 5, "{first:#}");
    let again = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(
        (again["verdict"].clone(), counts(&again)),
        ("AC".into(), (0, 5))
    );
    // Nothing changed: no check runs either.
    assert_eq!(again["cache"]["checks_ran"], 0, "{again:#}");
    assert_eq!(again["cache"]["checks_reused"], 5, "{again:#}");
    // One answer edited: its check alone runs, on the kept output.
    s.write("cases/echo/3.ans", "9\n");
    let edited = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&edited), (0, 5));
    assert_eq!(edited["cache"]["checks_ran"], 1, "{edited:#}");
    assert_eq!(verdict_of(&edited, "3.in"), "WA");
    s.write("cases/echo/3.ans", "3\n");
    // A checker that rejects everything: every output checked again.
    s.script("check.sh", "echo rejected >&2; exit 1");
    let second = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&second), (0, 5));
    assert_eq!(second["cache"]["checks_ran"], 5, "{second:#}");
    for i in 1..=5 {
        assert_eq!(verdict_of(&second, &format!("{i}.in")), "WA", "{second:#}");
    }
}

#[test]
fn limits_change_what_is_reused_as_the_rules_say() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    s.write("cases/t/1.in", "1\n");
    s.write("cases/t/1.ans", "1\n");
    s.write("judge.toml", "[problem.t]\n");
    s.script("quick.sh", "cat");
    s.script("spin.sh", "while :; do :; done");
    let at = |program: &str, limit: &str| {
        run_json(
            &s,
            cache.path(),
            &["--submission", program, "--time-limit", limit],
        )
    };
    // A quick run under 0.5 s stands under 1 s.
    assert_eq!(counts(&at("./quick.sh", "500ms")), (1, 0));
    let looser = at("./quick.sh", "1s");
    assert_eq!(
        (looser["verdict"].clone(), counts(&looser)),
        ("AC".into(), (0, 1))
    );
    // A time-out at 1 s stands as a time-out under 0.5 s ...
    let tle = at("./spin.sh", "1s");
    assert_eq!(
        (tle["verdict"].clone(), counts(&tle)),
        ("TLE".into(), (1, 0))
    );
    let tighter = at("./spin.sh", "500ms");
    assert_eq!(
        (tighter["verdict"].clone(), counts(&tighter)),
        ("TLE".into(), (0, 1))
    );
    // ... but a time-out at 0.5 s is run again under 1.5 s.
    let cache2 = tempfile::tempdir().unwrap();
    let short = run_json(
        &s,
        cache2.path(),
        &["--submission", "./spin.sh", "--time-limit", "500ms"],
    );
    assert_eq!(counts(&short), (1, 0));
    let longer = run_json(
        &s,
        cache2.path(),
        &["--submission", "./spin.sh", "--time-limit", "1500ms"],
    );
    assert_eq!(
        (longer["verdict"].clone(), counts(&longer)),
        ("TLE".into(), (1, 0))
    );
}

/// Every file under `dir`.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                all.push(path);
            }
        }
    }
    all
}

/// The packs of the run cache in `cache`.
fn packs(cache: &Path) -> Vec<std::path::PathBuf> {
    let mut packs: Vec<_> = files(&cache.join("runs/packs"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pack"))
        .collect();
    packs.sort();
    packs
}

#[test]
fn a_damaged_entry_or_output_is_done_again_and_the_verdict_is_right() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    assert_eq!(
        counts(&run_json(&s, cache.path(), &["--submission", "./sol.sh"])),
        (5, 0)
    );
    let flip = |path: &Path| {
        let mut bytes = std::fs::read(path).unwrap();
        bytes[0] ^= 0x20;
        std::fs::write(path, bytes).unwrap();
    };
    // A byte of every record in the pack flipped (its index left whole):
    // every run done again.
    let kept = packs(cache.path());
    assert_eq!(kept.len(), 1, "{kept:?}");
    let mut bytes = std::fs::read(&kept[0]).unwrap();
    for at in (20..bytes.len()).step_by(40) {
        bytes[at] ^= 0x01;
    }
    std::fs::write(&kept[0], bytes).unwrap();
    let mut cmd = judge(&s, cache.path());
    cmd.args(["run", "--format", "json", "--submission", "./sol.sh"]);
    let again = run(cmd);
    let report = again.json();
    assert_eq!(
        (report["verdict"].clone(), counts(&report)),
        ("AC".into(), (5, 0))
    );
    assert!(again.stderr.contains("damaged"), "{}", again.stderr);
    // The damaged records were dropped when the packs were merged; the
    // new ones serve.
    assert_eq!(packs(cache.path()).len(), 1);
    assert_eq!(
        counts(&run_json(&s, cache.path(), &["--submission", "./sol.sh"])),
        (0, 5)
    );
    // Every kept output damaged (a long one is an object of its own): a
    // run whose output fails its digest is done again, never judged on
    // the wrong bytes. The answer is the output's first line: AC.
    s.script("sol.sh", "cat; yes 0123456789 | head -c 40000");
    let long = run_json(
        &s,
        cache.path(),
        &["--submission", "./sol.sh", "--check", "tokens"],
    );
    assert_eq!(counts(&long), (5, 0));
    let objects = files(&cache.path().join("runs/objects"));
    assert!(!objects.is_empty());
    for object in objects {
        flip(&object);
    }
    let third = run_json(
        &s,
        cache.path(),
        &["--submission", "./sol.sh", "--check", "tokens"],
    );
    assert_eq!(
        (third["verdict"].clone(), counts(&third)),
        (long["verdict"].clone(), (5, 0))
    );
    let fourth = run_json(
        &s,
        cache.path(),
        &["--submission", "./sol.sh", "--check", "tokens"],
    );
    assert_eq!(counts(&fourth), (0, 5));
}

#[test]
fn no_cache_runs_everything_and_keeps_nothing() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    let report = run_json(
        &s,
        cache.path(),
        &["--submission", "./sol.sh", "--no-cache"],
    );
    assert_eq!(report["verdict"], "AC");
    assert!(report.get("cache").is_none(), "{report:#}");
    assert!(!cache.path().join("runs").exists());
    run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    let report = run_json(
        &s,
        cache.path(),
        &["--submission", "./sol.sh", "--no-cache"],
    );
    assert!(
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("cached").is_none())
    );
}

#[test]
fn judge_cache_shows_and_clears() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    let mut show = judge(&s, cache.path());
    show.arg("cache");
    let shown = run(show);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(shown.stdout.contains("runs: 5 kept"), "{}", shown.stdout);
    let mut clear = judge(&s, cache.path());
    clear.args(["cache", "clear"]);
    assert_eq!(run(clear).code, 0);
    assert!(!cache.path().join("runs").exists());
    // The directory itself stays (it may be JUDGE_CACHE_DIR's own).
    assert!(cache.path().is_dir());
    let after = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(counts(&after), (5, 0));
    let mut flag = judge(&s, cache.path());
    flag.args(["cache", "--clear"]);
    assert_eq!(run(flag).code, 0);
    assert!(!cache.path().join("runs").exists());
}

#[test]
fn recheck_names_a_program_that_disagrees_with_its_cached_run() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    s.write("cases/r/only.in", "1\n");
    s.write("cases/r/only.ans", "1\n");
    s.write("judge.toml", "[problem.r]\n");
    s.script("random.sh", "od -An -N8 -tu8 /dev/urandom");
    s.script("steady.sh", "cat");
    for program in ["./random.sh", "./steady.sh"] {
        run_json(&s, cache.path(), &["--submission", program]);
    }
    let steady = run_json(
        &s,
        cache.path(),
        &["--submission", "./steady.sh", "--recheck", "3"],
    );
    assert_eq!(steady["cache"]["rechecked"], 1, "{steady:#}");
    assert!(steady["cache"].get("disagreements").is_none(), "{steady:#}");
    let mut cmd = judge(&s, cache.path());
    cmd.args(["run", "--submission", "./random.sh", "--recheck", "1"]);
    let random = run(cmd);
    assert!(
        random
            .stdout
            .contains("recheck: ./random.sh on r only.in disagrees"),
        "{}",
        random.stdout
    );
    assert!(
        random.stdout.contains("the output differs"),
        "{}",
        random.stdout
    );
}

#[test]
fn a_multi_file_submission_runs_again_when_any_of_its_files_changes() {
    if !installed("python3") {
        return;
    }
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    s.write("sub/main.py", "import helper\nprint(helper.f(input()))\n");
    s.write("sub/helper.py", "def f(x):\n    return x\n");
    let first = run_json(&s, cache.path(), &["--submission", "sub"]);
    assert_eq!(
        (first["verdict"].clone(), counts(&first)),
        ("AC".into(), (5, 0))
    );
    let same = run_json(&s, cache.path(), &["--submission", "sub"]);
    assert_eq!(counts(&same), (0, 5));
    // Only the module the main file imports changes.
    s.write("sub/helper.py", "def f(x):\n    return 0\n");
    let edited = run_json(&s, cache.path(), &["--submission", "sub"]);
    assert_eq!(
        (edited["verdict"].clone(), counts(&edited)),
        ("WA".into(), (5, 0)),
        "{edited:#}"
    );
}

#[test]
fn a_truncated_pack_keeps_its_whole_records() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    assert_eq!(
        counts(&run_json(&s, cache.path(), &["--submission", "./sol.sh"])),
        (5, 0)
    );
    // A judge killed while it wrote: no index, and the last record torn.
    let pack = packs(cache.path()).remove(0);
    std::fs::remove_file(pack.with_extension("idx")).unwrap();
    let len = std::fs::metadata(&pack).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(&pack)
        .unwrap()
        .set_len(len - 10)
        .unwrap();
    let report = run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    assert_eq!(
        (report["verdict"].clone(), counts(&report)),
        ("AC".into(), (1, 4))
    );
    // The same with its index kept: the torn record is read, refused and
    // done again.
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    let pack = packs(cache.path()).remove(0);
    let len = std::fs::metadata(&pack).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(&pack)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let mut cmd = judge(&s, cache.path());
    cmd.args(["run", "--format", "json", "--submission", "./sol.sh"]);
    let again = run(cmd);
    let report = again.json();
    let (ran, reused) = counts(&report);
    assert_eq!(report["verdict"], "AC", "{report:#}");
    assert!(ran >= 1 && reused >= 1 && ran + reused == 5, "{report:#}");
    assert!(again.stderr.contains("damaged"), "{}", again.stderr);
}

#[test]
fn many_packs_are_merged_into_few() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    // Each run with a new submission adds a pack.
    for i in 0..12 {
        s.script(&format!("sol{i}.sh"), &format!("cat # {i}"));
        let sol = format!("./sol{i}.sh");
        assert_eq!(
            counts(&run_json(&s, cache.path(), &["--submission", &sol])),
            (5, 0)
        );
        assert!(packs(cache.path()).len() <= 9, "{:?}", packs(cache.path()));
    }
    // Nothing was lost in the merges.
    for i in 0..12 {
        let sol = format!("./sol{i}.sh");
        assert_eq!(
            counts(&run_json(&s, cache.path(), &["--submission", &sol])),
            (0, 5)
        );
    }
}

/// The cases a `--recheck 1` run with `seed` ran again.
fn rechecked_with(s: &Scratch, cache: &Path, seed: &str) -> Vec<String> {
    let mut cmd = judge(s, cache);
    cmd.env("JUDGE_RECHECK_SEED", seed).args([
        "run",
        "--format",
        "json",
        "--submission",
        "./sol.sh",
        "--recheck",
        "1",
    ]);
    let report = run(cmd).json();
    assert_eq!(report["cache"]["rechecked"], 1, "{report:#}");
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.get("cached").is_none_or(|c| c != true))
        .map(|c| c["case"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn recheck_takes_a_sample_by_its_seed_not_the_first_runs() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    echo_problem(&s, "");
    run_json(&s, cache.path(), &["--submission", "./sol.sh"]);
    let picked: Vec<Vec<String>> = ["1", "2", "3", "4", "5", "6"]
        .iter()
        .map(|seed| rechecked_with(&s, cache.path(), seed))
        .collect();
    for one in &picked {
        assert_eq!(one.len(), 1, "{picked:?}");
    }
    let distinct: std::collections::HashSet<_> = picked.iter().collect();
    assert!(distinct.len() > 1, "six seeds, one case each: {picked:?}");
    // The same seed, the same sample; --recheck-seed says it too.
    assert_eq!(rechecked_with(&s, cache.path(), "3"), picked[2]);
    let mut cmd = judge(&s, cache.path());
    cmd.args([
        "run",
        "--format",
        "json",
        "--submission",
        "./sol.sh",
        "--recheck",
        "1",
        "--recheck-seed",
        "3",
    ]);
    let report = run(cmd).json();
    let again: Vec<_> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.get("cached").is_none_or(|c| c != true))
        .map(|c| c["case"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(again, picked[2]);
}

/// An interactive validator: sends the input's number, expects its
/// double back (42 accepted, 43 not). `VERSION` marks an edit.
const DOUBLE_VALIDATOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    int n, got; if (!in || fscanf(in, "%d", &n) != 1) return 1;
    printf("%d\n", n); fflush(stdout);
    if (scanf("%d", &got) != 1) return 43;
    return got == 2 * n ? 42 : 43; /* VERSION */
}"#;

/// (ran, reused) from `judge verify`'s human summary.
fn verify_counts(stdout: &str) -> (u64, u64) {
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("cache: "))
        .unwrap_or_else(|| panic!("no cache line in {stdout}"));
    let mut numbers = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<u64>().unwrap());
    (numbers.next().unwrap(), numbers.next().unwrap())
}

#[test]
fn an_interactive_package_is_cached_whole() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    s.write(
        "d/problem.yaml",
        "name: Double\ntype: interactive\nlimits:\n  time_limit: 1\n",
    );
    for (i, n) in [3, 8, 21].iter().enumerate() {
        s.write(&format!("d/data/secret/{i}.in"), format!("{n}\n"));
        s.write(&format!("d/data/secret/{i}.ans"), "\n");
    }
    s.write("d/output_validator/validate.c", DOUBLE_VALIDATOR_C);
    s.write(
        "d/submissions/accepted/double.c",
        "#include <stdio.h>\nint main(void){int n;if(scanf(\"%d\",&n)!=1)return 1;printf(\"%d\\n\",2*n);return 0;}\n",
    );
    s.write(
        "d/submissions/wrong_answer/same.c",
        "#include <stdio.h>\nint main(void){int n;if(scanf(\"%d\",&n)!=1)return 1;printf(\"%d\\n\",n);return 0;}\n",
    );
    let verify = || {
        let mut cmd = judge(&s, cache.path());
        cmd.args(["verify", "d"]);
        let ran = run(cmd);
        assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
        assert!(
            ran.stdout.contains("OK: 2 of 2 submissions as expected"),
            "{}",
            ran.stdout
        );
        verify_counts(&ran.stdout)
    };
    assert_eq!(verify(), (6, 0));
    // Nothing changed: nothing runs, the verdicts stand.
    assert_eq!(verify(), (0, 6));
    // The validator edited: every case runs again.
    s.write(
        "d/output_validator/validate.c",
        DOUBLE_VALIDATOR_C.replace("VERSION", "edited"),
    );
    assert_eq!(verify(), (6, 0));
    // One submission edited (its build differs): only its cases.
    s.write(
        "d/submissions/accepted/double.c",
        "#include <stdio.h>\nint main(void){int n;if(scanf(\"%d\",&n)!=1)return 1;printf(\"%d\\n\",2*n);fputs(\"edited\\n\",stderr);return 0;}\n",
    );
    assert_eq!(verify(), (3, 3));
}

/// A deeply recursive program: `n` frames of about 1 KiB of stack.
const DEEP_C: &str = r#"#include <stdio.h>
static int depth(int n) { volatile char frame[1024]; frame[0] = (char)n; if (n == 0) return 0; return depth(n - 1) + frame[0] % 2; }
int main(void) { int n; if (scanf("%d", &n) != 1) return 2; printf("%d\n", depth(n)); return 0; }
"#;

/// Issue 40, the first wrong reuse: a case judged MLE at
/// `--memory-limit 64MiB` (the stack as large as memory) is not reused
/// under `--stack-limit 8MiB`, where a fresh run overflows its stack (RE).
#[test]
fn a_run_out_of_memory_is_not_reused_under_a_smaller_stack() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    let deep = build("c", "deep", DEEP_C);
    s.write("cases/deep/1.in", "200000\n");
    s.write("cases/deep/1.ans", "100000\n");
    s.write("judge.toml", "[problem.deep]\n");
    let program = deep.to_str().unwrap();
    let base = ["--submission", program, "--memory-limit", "64MiB"];
    let first = run_json(&s, cache.path(), &base);
    let first_verdict = verdict_of(&first, "1.in").clone();
    let small = [&base[..], &["--stack-limit", "8MiB"]].concat();
    let cached = run_json(&s, cache.path(), &small);
    let fresh = run_json(&s, cache.path(), &[&small[..], &["--no-cache"]].concat());
    assert_eq!(
        verdict_of(&cached, "1.in"),
        verdict_of(&fresh, "1.in"),
        "cached {cached:#}\nfresh {fresh:#}"
    );
    assert_eq!(verdict_of(&fresh, "1.in"), "RE", "{fresh:#}");
    assert_eq!(counts(&cached), (1, 0), "not reused: {cached:#}");
    // The stack of 64 MiB again: the first run stands.
    let again = run_json(&s, cache.path(), &base);
    assert_eq!(verdict_of(&again, "1.in"), &first_verdict, "{again:#}");
    assert_eq!(counts(&again), (0, 1), "{again:#}");
}

/// Issue 40, the second wrong reuse: the same program on the same input
/// under a Polygon problem with `output-file="output.txt"` is not taken
/// from its run under one that reads standard output.
#[test]
fn a_run_is_not_reused_across_output_files() {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/filesum");
    s.copy_tree(&from, "file");
    s.copy_tree(&from, "stdout");
    let xml = s.read("stdout/problem.xml");
    let stdout_xml = xml.replace(r#" output-file="output.txt""#, "");
    assert_ne!(xml, stdout_xml, "the package names its output file");
    s.write("stdout/problem.xml", stdout_xml);
    // The sum on standard output, WRONG in output.txt.
    s.script(
        "both.sh",
        r#"read a b < input.txt; echo $((a + b)); echo WRONG > output.txt"#,
    );
    let judged = |pkg: &str, extra: &[&str]| {
        let mut cmd = judge(&s, cache.path());
        cmd.args(["run", pkg, "--format", "json", "--submission", "./both.sh"])
            .args(extra);
        run(cmd).json()
    };
    let on_stdout = judged("stdout", &[]);
    assert_eq!(verdict_of(&on_stdout, "01.in"), "AC", "{on_stdout:#}");
    let cached = judged("file", &[]);
    let fresh = judged("file", &["--no-cache"]);
    assert_eq!(verdict_of(&fresh, "01.in"), "WA", "{fresh:#}");
    assert_eq!(verdict_of(&cached, "01.in"), "WA", "{cached:#}");
    assert_eq!(counts(&cached).1, 0, "nothing reused: {cached:#}");
}
