//! `judge run --submission` on real programs, one per verdict: the issue's
//! zoo of a correct program, a wrong one, white space, sleeping, spinning,
//! allocating, printing forever, exiting 3, segfaulting, and leaving a
//! grandchild behind.

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

fn judge_json(
    s: &Scratch,
    submission: &std::path::Path,
    extra: &[&str],
) -> (i32, serde_json::Value, Ran) {
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "-j", "2", "--submission"])
        .arg(submission)
        .args(extra);
    let ran = run(cmd);
    let json = ran.json();
    (ran.code, json, ran)
}

#[test]
fn correct_program_is_accepted_everywhere() {
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let (code, report, _) = judge_json(&s, &ab, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["verdict"], "AC");
    assert_eq!(report["summary"]["AC"], 3);
    // Cases in natural order, whatever the finishing order.
    let names: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["case"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["1.in", "2.in", "10.in"]);
    let c = case(&report, "1.in");
    for key in [
        "problem",
        "case",
        "verdict",
        "message",
        "cpu_ms",
        "wall_ms",
        "peak_rss_kib",
        "memory_source",
        "tl_ratio",
    ] {
        assert!(c.get(key).is_some(), "case lacks {key}: {c:#}");
    }
    // The peak comes from the run's cgroup when the sandbox has one.
    let cgroups_on = report["protections"]["on"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p.as_str().unwrap().starts_with("cgroup"));
    assert_eq!(
        c["memory_source"],
        if cgroups_on { "cgroup" } else { "rusage" }
    );
    assert!(c["peak_rss_kib"].as_u64().unwrap() > 0);
}

#[test]
fn wrong_on_one_case_names_line_and_token_with_a_diff() {
    let s = Scratch::new();
    sum_cases(&s);
    let wrong = build("c", "wrong_on_seven", WRONG_ON_SEVEN_C);
    let (code, report, _) = judge_json(&s, &wrong, &[]);
    assert_eq!(code, 1);
    assert_eq!(report["verdict"], "WA");
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "WA");
    assert_eq!(
        c["message"],
        "output line 1, token 1: expected \"14\", found \"49\""
    );
    let diff = c["diff"].as_str().unwrap();
    assert!(diff.contains("-14\n+49\n"), "{diff}");
    assert_eq!(case(&report, "1.in")["verdict"], "AC");
}

#[test]
fn white_space_only_difference_is_ac_lenient_and_pe_strict() {
    let s = Scratch::new();
    sum_cases(&s);
    let spaced = build(
        "c",
        "spaced",
        r#"#include <stdio.h>
int main(void){long long t,a,b;scanf("%lld",&t);while(t--&&scanf("%lld %lld",&a,&b)==2)printf("%lld  \n",a+b);return 0;}"#,
    );
    let (code, report, _) = judge_json(&s, &spaced, &[]);
    assert_eq!((code, report["verdict"].as_str()), (0, Some("AC")));
    let (code, report, _) = judge_json(&s, &spaced, &["--strict"]);
    assert_eq!(code, 1);
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "PE");
    assert_eq!(
        c["message"],
        "white space differs on line 1: expected \"14\", found \"14··\""
    );
}

#[test]
fn sleeping_program_is_tle_by_wall_clock_and_the_run_is_quick() {
    let s = Scratch::new();
    sum_cases(&s);
    let sleeper = build(
        "c",
        "sleeper",
        "#include <unistd.h>\nint main(void){sleep(10);return 0;}",
    );
    let started = Instant::now();
    let (code, report, _) = judge_json(&s, &sleeper, &["--filter", "1"]);
    let took = started.elapsed();
    assert_eq!(code, 1);
    let c = case(&report, "1.in");
    assert_eq!(c["verdict"], "TLE");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .starts_with("wall-clock limit 2.000s reached"),
        "{c:#}"
    );
    assert!(took < Duration::from_secs(6), "took {took:?}");
}

#[test]
fn spinning_program_is_tle_by_cpu() {
    let s = Scratch::new();
    sum_cases(&s);
    let spin = build(
        "c",
        "spin",
        "int main(void){volatile unsigned long x=0;for(;;)x++;}",
    );
    let (_, report, _) = judge_json(&s, &spin, &["--filter", "2"]);
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "TLE");
    let message = c["message"].as_str().unwrap();
    assert!(
        message.starts_with("CPU time limit 0.500s exceeded"),
        "{message}"
    );
    assert!(c["cpu_ms"].as_f64().unwrap() >= 500.0);
}

#[test]
fn allocating_a_gibibyte_under_256_mib_is_mle() {
    let s = Scratch::new();
    sum_cases(&s);
    let hog = build(
        "c++",
        "hog",
        "#include <vector>\n#include <cstdio>\nint main(){std::vector<char> v(1u<<30, 1);std::printf(\"%d\\n\", v[12345]);}",
    );
    let (_, report, _) = judge_json(&s, &hog, &["--filter", "2", "--memory-limit", "256MiB"]);
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "MLE", "{c:#}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .starts_with("memory limit 256MiB"),
        "{c:#}"
    );
}

#[test]
fn printing_forever_is_ole() {
    let s = Scratch::new();
    sum_cases(&s);
    let chatty = build(
        "c",
        "chatty",
        "#include <stdio.h>\nint main(void){for(;;)puts(\"yes\");}",
    );
    let (_, report, _) = judge_json(&s, &chatty, &["--filter", "2", "--output-limit", "1MiB"]);
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "OLE");
    assert_eq!(
        c["message"],
        "output passed the limit of 1MiB; the program was killed"
    );
}

#[test]
fn exit_code_and_signal_are_named() {
    let s = Scratch::new();
    sum_cases(&s);
    let three = s.script("exit3.sh", "exit 3");
    let (_, report, _) = judge_json(&s, &three, &["--filter", "2"]);
    let c = case(&report, "2.in");
    assert_eq!(
        (c["verdict"].as_str(), c["message"].as_str()),
        (Some("RE"), Some("exit code 3"))
    );
    let segv = build(
        "c",
        "segv",
        "int main(void){volatile int *p=0;*p=1;return 0;}",
    );
    let (_, report, _) = judge_json(&s, &segv, &["--filter", "2"]);
    let c = case(&report, "2.in");
    assert_eq!(c["verdict"], "RE");
    assert_eq!(c["message"], "killed by SIGSEGV (signal 11)");
}

#[test]
fn background_grandchild_does_not_outlive_its_case() {
    let s = Scratch::new();
    sum_cases(&s);
    let leaver = build(
        "c",
        "leaves_grandchild",
        r#"#include <stdio.h>
#include <unistd.h>
int main(void){
    long long t,a,b; scanf("%lld",&t);
    if (fork() == 0) { if (fork() == 0) { sleep(30); } return 0; }
    while(t--&&scanf("%lld %lld",&a,&b)==2) printf("%lld\n",a+b);
    fflush(stdout);
    return 0;
}"#,
    );
    let marker = leaver.file_name().unwrap().to_string_lossy().into_owned();
    let (code, report, _) = judge_json(&s, &leaver, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["AC"], 3);
    assert_eq!(
        alive_with(&marker),
        Vec::<i32>::new(),
        "a grandchild outlived its case"
    );
}

/// A bare name in `--submission` is looked up as the submission will run:
/// on the sandbox's PATH first. A shim earlier on the judge's own PATH
/// (pyenv's `~/.pyenv/shims/python3` is one) may work only for the judge's
/// user; here the "shim" would print a wrong answer. A name only the
/// judge's PATH has is still found.
#[test]
fn bare_names_resolve_on_the_sandbox_path_first() {
    let s = Scratch::new();
    s.write("cases/echo/1.in", "hello\n");
    s.write("cases/echo/1.ans", "hello\n");
    s.write("judge.toml", "[problem.echo]\ncases = \"cases/echo\"\n");
    s.script("shims/cat", "echo shim");
    s.script("shims/only-here", "exec cat");
    let path = format!(
        "{}:{}",
        s.path().join("shims").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (submission, verdict) in [("cat", "AC"), ("only-here", "AC")] {
        let mut judge = s.judge();
        judge
            .env("PATH", &path)
            .args(["run", "--format", "json", "--submission", submission]);
        let ran = run(judge);
        let report = ran.json();
        assert_eq!(report["verdict"], verdict, "{submission}: {report:#}");
    }
}

/// Where programs run (docs/sandbox.md "Cores"): when every CPU of the judge has a
/// slot, each program stays on its slot's core (it sees one CPU), through
/// the launcher (the full sandbox) and as the judge's own child
/// (`--sandbox plain`); with fewer slots than CPUs (`-j 1`) and with
/// `--no-pin`, it sees every CPU the judge was started with.
#[test]
fn programs_keep_their_slots_core_only_when_every_core_has_a_slot() {
    // SAFETY: sched_getaffinity of this process into a zeroed set.
    let cpus = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
        libc::CPU_COUNT(&set)
    };
    if cpus < 2 {
        println!("one CPU: the placement of the judge's threads is not tested");
        return;
    }
    let s = Scratch::new();
    for i in 1..=6 {
        s.write(&format!("all/{i}.in"), "");
        s.write(&format!("all/{i}.ans"), format!("{cpus}\n"));
        s.write(&format!("one/{i}.in"), "");
        s.write(&format!("one/{i}.ans"), "1\n");
    }
    let count = build(
        "c",
        "cpu_count",
        r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    printf("%d\n", CPU_COUNT(&set));
    return 0;
}
"#,
    );
    let every = cpus.to_string();
    let runs: [(&str, &[&str]); 5] = [
        ("one", &["-j", &every]),
        ("one", &["-j", &every, "--sandbox", "plain"]),
        ("all", &["-j", &every, "--no-pin"]),
        ("all", &["-j", "1"]),
        ("all", &["-j", "1", "--sandbox", "plain"]),
    ];
    // The judges of this test claim cores in a domain of their own
    // (`JUDGE_CORE_CLAIMS`): another judge running on the machine (another
    // test, another suite) cannot hold their cores, so placement is
    // decided by the slots and CPUs alone and asserted exactly.
    let domain = format!("judge-test-{}", std::process::id());
    let placed = |report: &serde_json::Value| {
        report["cores"]
            .as_str()
            .is_some_and(|c| c.starts_with("each slot and its programs"))
    };
    let judged = |cases: &str, extra: &[&str], want_placed: bool| {
        let mut cmd = s.judge();
        cmd.env("JUDGE_CORE_CLAIMS", &domain)
            .args(["run", cases, "--format", "json", "--submission"])
            .arg(&count)
            .args(extra);
        let report = run(cmd).json();
        assert_eq!(
            placed(&report),
            want_placed,
            "{cases} {extra:?}: cores {}",
            report["cores"]
        );
        report
    };
    for (cases, extra) in runs {
        let report = judged(cases, extra, cases == "one");
        assert_eq!(report["summary"]["AC"], 6, "{cases} {extra:?}: {report:#}");
    }
    // An interactive run: its validator is started from a thread the
    // placed worker starts; it runs where the submission runs.
    s.write(
        "ia/problem.yaml",
        "name: Cpus\ntype: interactive\nlimits:\n  time_limit: 2\n",
    );
    for i in 1..=4 {
        s.write(&format!("ia/data/secret/{i}.in"), format!("{cpus}\n"));
        s.write(&format!("ia/data/secret/{i}.ans"), "\n");
    }
    s.write(
        "ia/output_validator/cpus.c",
        r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(int argc, char **argv) {
    cpu_set_t set;
    int want, got;
    char path[4096];
    FILE *in = fopen(argv[1], "r");
    if (argc < 4 || !in || fscanf(in, "%d", &want) != 1) return 1;
    sched_getaffinity(0, sizeof set, &set);
    snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
    FILE *msg = fopen(path, "w");
    if (scanf("%d", &got) != 1) return 43;
    if (msg) fprintf(msg, "validator %d, submission %d of %d CPUs\n", CPU_COUNT(&set), got, want);
    return CPU_COUNT(&set) == want && got == want ? 42 : 43;
}
"#,
    );
    for (want, jobs) in [(1, every.as_str()), (cpus, "1")] {
        for i in 1..=4 {
            s.write(&format!("ia/data/secret/{i}.in"), format!("{want}\n"));
        }
        let report = judged("ia", &["-j", jobs], want == 1);
        assert_eq!(
            report["summary"]["AC"], 4,
            "interactive -j {jobs}: {report:#}"
        );
    }
}
