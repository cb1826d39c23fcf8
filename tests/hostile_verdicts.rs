//! Verdict texts a program could fake (item 16 of the hostile corpus):
//! the corpus rule (never AC, never IE) cannot tell an RE from a TLE or an
//! MLE, so these run the corpus's programs and name the verdict they must
//! get, as root and unprivileged, with and without the sandbox.
//! A verdict states only what the judge measured: a program dying of
//! SIGXCPU at once is RE, not TLE; a program printing `std::bad_alloc` at
//! a few hundred KiB is RE, not MLE; and the run's /proc/self/cgroup does
//! not name the judge's cgroup (`judge-PID`).

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_program(name: &str) -> PathBuf {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/hostile/{name}.c")),
    )
    .unwrap();
    build("c", name, &source)
}

/// The verdict and message of one case of `program`, judged as the tester
/// or unprivileged, with extra arguments.
fn judged(program: &Path, unprivileged: bool, extra: &[&str]) -> serde_json::Value {
    let s = Scratch::new();
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut c, program): (Command, PathBuf) = if unprivileged {
        let copy = s.path().join("bin/attack");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(program, &copy).unwrap();
        let c = unprivileged_judge(&s);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        (c, copy)
    } else {
        (s.judge(), program.to_path_buf())
    };
    c.env("TMPDIR", &tmp)
        .args(["run", "--problem", "sum", "--check", "tokens", "cases"]);
    if !extra.contains(&"--time-limit") {
        c.args(["--time-limit", "1s"]);
    }
    c.args(["--memory-limit", "256MiB"])
        .args(extra)
        .args(["--format", "json", "--submission"])
        .arg(&program);
    let ran = run(c);
    let report = ran.json();
    assert_eq!(leftovers(&tmp), Vec::<String>::new());
    report["cases"][0].clone()
}

/// Every way the judge runs a submission here.
const MODES: [(bool, &[&str]); 3] = [(false, &[]), (true, &[]), (false, &["--sandbox", "plain"])];

#[test]
fn dying_of_sigxcpu_at_once_is_re_not_tle() {
    let program = corpus_program("sigxcpu_at_once");
    for (unprivileged, extra) in MODES {
        let case = judged(&program, unprivileged, extra);
        assert_eq!(case["verdict"], "RE", "{unprivileged} {extra:?}: {case:#}");
        let message = case["message"].as_str().unwrap_or("");
        assert!(message.contains("SIGXCPU"), "{message}");
        assert!(!message.contains("used"), "{message}");
    }
}

#[test]
fn printing_bad_alloc_at_a_few_kib_is_re_not_mle() {
    let program = corpus_program("fake_bad_alloc");
    for (unprivileged, extra) in MODES {
        let case = judged(&program, unprivileged, extra);
        assert_eq!(case["verdict"], "RE", "{unprivileged} {extra:?}: {case:#}");
        assert_eq!(case["message"], "exit code 1", "{case:#}");
    }
}

/// The cgroup attack's program answers right only when it finds
/// `judge-` in its /proc/self/cgroup (as root: the judge's cgroups; the
/// unprivileged judge here may have none, and then shows nothing of it
/// either way).
#[test]
fn the_runs_cgroup_does_not_name_the_judge() {
    let program = corpus_program("cgroup_names_the_judge");
    for unprivileged in [false, true] {
        let case = judged(&program, unprivileged, &[]);
        assert_eq!(case["verdict"], "WA", "{unprivileged}: {case:#}");
    }
}

/// The measured time is what a TLE says: a program spinning past a
/// 300 ms limit is TLE with its own CPU time (not the limit) in the text.
#[test]
fn a_tle_names_the_measured_time() {
    let spin = build("c", "spin_forever", "int main(void){for(;;);}");
    let case = judged(&spin, false, &["--time-limit", "300ms"]);
    assert_eq!(case["verdict"], "TLE", "{case:#}");
    let message = case["message"].as_str().unwrap_or("");
    let used: f64 = message
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once("s used"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no time used in {message:?}"));
    let cpu_ms = case["cpu_ms"].as_f64().or(case["time_ms"].as_f64());
    assert!(used >= 0.3, "{message}");
    if let Some(ms) = cpu_ms {
        assert!((used * 1000.0 - ms).abs() < 2.0, "{message} vs {ms} ms");
    }
}
