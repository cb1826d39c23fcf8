//! Issue 37, the judge's own memory and time against a hostile package or
//! submission (SECURITY.md, "Hostile packages"): an output validator that
//! leaves a feedback file as a link to `/dev/zero` or as a FIFO, and a
//! submission that prints tens of MiB of newlines. Each is bounded: the
//! judge answers (IE naming the file, or WA) within seconds and within a
//! fixed memory, and writes its report. Each has its control: the honest
//! validator's message is still read.

mod common;
use common::*;
use std::time::{Duration, Instant};

fn case(report: &serde_json::Value, name: &str) -> serde_json::Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["case"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {report:#}"))
        .clone()
}

/// A Kattis output validator that, on input `zero`, `fifo` or `scorezero`,
/// leaves a hostile feedback file; on any other input, an honest message.
fn hostile_validator(s: &Scratch) {
    for name in ["honest", "zero", "fifo", "scorezero", "teamfifo"] {
        s.write(&format!("cases/k/{name}.in"), format!("{name}\n"));
        s.write(&format!("cases/k/{name}.ans"), format!("{name}\n"));
    }
    s.script(
        "validate.sh",
        r#"read got
case "$got" in
  zero) ln -s /dev/zero "$3/judgemessage.txt"; exit 42 ;;
  fifo) mkfifo "$3/judgemessage.txt"; exit 42 ;;
  teamfifo) mkfifo "$3/teammessage.txt"; exit 43 ;;
  scorezero) ln -s /dev/zero "$3/score.txt"; exit 42 ;;
esac
echo "fine: $got" > "$3/judgemessage.txt"
exit 42"#,
    );
    s.write(
        "judge.toml",
        "[problem.k]\nchecker = \"./validate.sh\"\nchecker_protocol = \"kattis\"\n",
    );
}

#[test]
fn feedback_files_that_are_links_to_dev_zero_or_fifos_are_ie_not_a_hang_or_oom() {
    let s = Scratch::new();
    hostile_validator(&s);
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission", "cat", "-j", "2"]);
    let started = Instant::now();
    let (ran, peak_kib) = run_measured(cmd);
    let took = started.elapsed();
    // A FIFO opened for reading without a writer would block for ever; a
    // link to /dev/zero read whole would grow until the OOM killer.
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert!(peak_kib < 256 * 1024, "judge peak RSS {peak_kib} KiB");
    let report = ran.json();
    // The control: an honest validator's message is read as before.
    let honest = case(&report, "honest.in");
    assert_eq!(
        (&honest["verdict"], &honest["message"]),
        (&"AC".into(), &"fine: honest".into()),
        "{honest:#}"
    );
    for (name, file) in [
        ("zero.in", "judgemessage.txt"),
        ("fifo.in", "judgemessage.txt"),
        ("teamfifo.in", "teammessage.txt"),
        ("scorezero.in", "score.txt"),
    ] {
        let c = case(&report, name);
        assert_eq!(c["verdict"], "IE", "{name}: {c:#}");
        let message = c["message"].as_str().unwrap_or_default();
        assert!(message.contains(file), "{name}: {message}");
    }
    assert_eq!(ran.code, 3, "{}", ran.stderr);
}

/// A submission printing 63 MiB of newlines where one number is expected:
/// WA, and the judge's memory stays a small fraction of the output (it
/// used to hold every line for the diff: 1.1 GB for this one case).
#[test]
fn a_huge_output_of_newlines_is_compared_in_bounded_memory() {
    let s = Scratch::new();
    s.write("cases/big/1.in", "1\n");
    s.write("cases/big/1.ans", "3\n");
    s.script("newlines.sh", "head -c 66060288 /dev/zero | tr '\\0' '\\n'");
    s.script("honest.sh", "echo 3");
    s.write("judge.toml", "[problem.big]\n");
    let judged = |program: &str| {
        let mut cmd = s.judge();
        cmd.args([
            "run",
            "--format",
            "json",
            "--submission",
            program,
            "--output-limit",
            "128MiB",
            "--no-cache",
        ]);
        run_measured(cmd)
    };
    let (honest, _) = judged("./honest.sh");
    assert_eq!(
        case(&honest.json(), "1.in")["verdict"],
        "AC",
        "{}",
        honest.stdout
    );
    let (ran, peak_kib) = judged("./newlines.sh");
    let c = case(&ran.json(), "1.in");
    assert_eq!(c["verdict"], "WA", "{c:#}");
    // A fixed bound, below the output's size: the output is spooled past
    // 4 MiB and streamed (run_measured counts the children too).
    assert!(
        peak_kib < 64 * 1024,
        "judge peak RSS {peak_kib} KiB on 63 MiB of newlines"
    );
}

#[test]
fn a_huge_answer_matched_by_a_huge_output_is_streamed_in_bounded_memory() {
    let s = Scratch::new();
    // 96 MiB of "7\n": an answer longer than the memory bound, matched
    // token by token (and by layout under exact comparison).
    // Written by a shell, not held here: the judge inherits this process's
    // peak RSS through fork (ru_maxrss survives exec), which run_measured
    // would count.
    s.write("cases/big/1.in", "1\n");
    let made = std::process::Command::new("sh")
        .arg("-c")
        .arg("yes 7 | head -c 100663296 > cases/big/1.ans")
        .current_dir(s.path())
        .status()
        .expect("sh runs");
    assert!(made.success());
    s.script("sevens.sh", "yes 7 | head -c 100663296");
    s.script("short.sh", "yes 7 | head -c 100663294; echo 8");
    s.write("judge.toml", "[problem.big]\ncheck = \"exact\"\n");
    let judged = |program: &str| {
        let mut cmd = s.judge();
        cmd.args([
            "run",
            "--format",
            "json",
            "--submission",
            program,
            "--output-limit",
            "128MiB",
            "--no-cache",
        ]);
        run_measured(cmd)
    };
    let (ran, peak_kib) = judged("./sevens.sh");
    assert_eq!(case(&ran.json(), "1.in")["verdict"], "AC", "{}", ran.stdout);
    assert!(
        peak_kib < 64 * 1024,
        "judge peak RSS {peak_kib} KiB on 96 MiB"
    );
    let (ran, peak_kib) = judged("./short.sh");
    let c = case(&ran.json(), "1.in");
    assert_eq!(c["verdict"], "WA", "{c:#}");
    assert!(
        c["message"].as_str().is_some_and(
            |m| m.contains("output line 50331648, token 1: expected \"7\", found \"8\"")
        ),
        "{c:#}"
    );
    assert!(
        peak_kib < 64 * 1024,
        "judge peak RSS {peak_kib} KiB on 96 MiB"
    );
}
