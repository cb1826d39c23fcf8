//! Classes of the field's published packages (issue 28), each on a small
//! package of the test's own, written from the format's text: an
//! interactive submission that closes its output and then crashes or runs
//! on, a pseudo-interactive validator that talks from a thread, a
//! `slow_accepted/` folder, threads in a DOMjudge package, the time of a
//! multi-pass case (its slowest pass), and the working directory a
//! DOMjudge submission cannot write.

mod common;
use common::*;

/// An interactive validator: the secret is in the input; reads guesses,
/// answers "higher"/"lower"/"correct"; end of input before the secret is
/// found, or a guess out of 1..1000, is a rejection (43).
const VALIDATOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    int secret; if (!in || fscanf(in, "%d", &secret) != 1) return 1;
    for (int i = 0; i < 20; i++) {
        int g;
        if (scanf("%d", &g) != 1 || g < 1 || g > 1000) return 43;
        if (g == secret) { printf("correct\n"); fflush(stdout); return 42; }
        printf(g < secret ? "higher\n" : "lower\n"); fflush(stdout);
    }
    return 43;
}"#;

fn package(s: &Scratch) {
    s.write(
        "p/problem.yaml",
        "problem_format_version: 2025-09\nname: Closer\nuuid: 3b1f6f0e-28aa-4c55-9d1e-5f0a7c1d2e01\ntype: interactive\nlimits:\n  time_limit: 1\n",
    );
    s.write("p/data/secret/1.in", "7\n");
    s.write("p/data/secret/1.ans", "\n");
    s.write("p/output_validator/validate.c", VALIDATOR_C);
}

fn verdicts(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect()
}

fn run_on(s: &Scratch, source: &str, body: &str) -> serde_json::Value {
    s.write(source, body);
    let mut cmd = s.judge();
    cmd.args(["run", "p", "--format", "json", "--submission", source]);
    let ran = run(cmd);
    assert!(ran.code <= 3, "{}", ran.stderr);
    ran.json()
}

/// BAPCtools' `guess` has submissions that close their standard output
/// and then crash or run on: the validator sees the end of their output
/// only once they have exited (BAPCtools' relay holds it back too), so
/// the crash is RE and the time-out TLE, not the validator's WA.
#[test]
fn closing_the_output_then_crashing_or_running_on_is_re_or_tle() {
    let s = Scratch::new();
    package(&s);
    let crash = run_on(
        &s,
        "crash.c",
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\nint main(void){fclose(stdout);usleep(300000);abort();}\n",
    );
    assert_eq!(verdicts(&crash), ["RE"], "{crash:#}");
    let exit1 = run_on(
        &s,
        "exit1.c",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){fclose(stdout);usleep(300000);return 1;}\n",
    );
    assert_eq!(verdicts(&exit1), ["RE"], "{exit1:#}");
    let sleeps = run_on(
        &s,
        "sleeps.c",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){fclose(stdout);sleep(30);return 0;}\n",
    );
    assert_eq!(verdicts(&sleeps), ["TLE"], "{sleeps:#}");
    let spins = run_on(
        &s,
        "spins.c",
        "#include <stdio.h>\nint main(void){fclose(stdout);for(volatile long i=0;;i++);}\n",
    );
    assert_eq!(verdicts(&spins), ["TLE"], "{spins:#}");
    // Ending well after closing its output early: the validator's word.
    let quits = run_on(
        &s,
        "quits.c",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){fclose(stdout);usleep(200000);return 0;}\n",
    );
    assert_eq!(verdicts(&quits), ["WA"], "{quits:#}");
    // A wrong guess and then spinning: the validator rejects before the
    // submission ended, WA (the validator's end stops it).
    let wrong = run_on(
        &s,
        "wrong.c",
        "#include <stdio.h>\nint main(void){printf(\"-5\\n\");fflush(stdout);for(volatile long i=0;;i++);}\n",
    );
    assert_eq!(verdicts(&wrong)[0], "WA", "{wrong:#}");
}

/// A pseudo-interactive validator (BAPCtools' `pseudointeraction`) writes
/// the whole input from a thread, closes its output, and reads the
/// answer: a validator may start threads.
#[test]
fn a_validator_may_talk_from_a_thread() {
    let s = Scratch::new();
    s.write(
        "t/problem.yaml",
        "problem_format_version: 2025-09\nname: Threads\nuuid: 3b1f6f0e-28aa-4c55-9d1e-5f0a7c1d2e02\ntype: interactive\n",
    );
    s.write("t/data/secret/1.in", "3\n4\n5\n");
    s.write("t/data/secret/1.ans", "12\n");
    s.write(
        "t/output_validator/validate.py",
        r#"import os, sys, threading
numbers = open(sys.argv[1]).read().split()
def send():
    sys.stdout.write("\n".join(numbers) + "\n")
    sys.stdout.flush()
    os.close(sys.stdout.fileno())
threading.Thread(target=send, daemon=True).start()
got = sys.stdin.readline().strip()
want = open(sys.argv[2]).read().strip()
sys.exit(42 if got == want else 43)
"#,
    );
    s.write(
        "sum.py",
        "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))\n",
    );
    let mut cmd = s.judge();
    cmd.args(["run", "t", "--format", "json", "--submission", "sum.py"]);
    let ran = run(cmd);
    assert_eq!(
        verdicts(&ran.json()),
        ["AC"],
        "{}\n{}",
        ran.stdout,
        ran.stderr
    );
}

/// problemtools' example `different` has `submissions/slow_accepted/`,
/// which no format defines: judged as its name says, AC or TLE.
#[test]
fn a_slow_accepted_submission_is_judged_and_reported() {
    let s = Scratch::new();
    s.write("d/problem.yaml", "name: Slow\nlimits:\n  time_limit: 1\n");
    s.write("d/data/secret/1.in", "2 3\n");
    s.write("d/data/secret/1.ans", "5\n");
    s.write(
        "d/submissions/accepted/sum.py",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    );
    s.write(
        "d/submissions/slow_accepted/slow.py",
        "import time\na, b = map(int, input().split())\ntime.sleep(0.1)\nprint(a + b)\n",
    );
    s.write(
        "d/submissions/slow_accepted/wrong.py",
        "a, b = map(int, input().split())\nprint(a - b)\n",
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "d", "--format", "json"]);
    let ran = run(cmd);
    let report = ran.json();
    let subs = report["verify"]["submissions"].as_array().unwrap();
    let agrees = |path: &str| {
        subs.iter()
            .find(|x| x["path"] == path)
            .unwrap_or_else(|| panic!("{path} not in the report: {report:#}"))["agrees"]
            .as_bool()
    };
    assert_eq!(agrees("slow_accepted/slow.py"), Some(true), "{report:#}");
    assert_eq!(agrees("slow_accepted/wrong.py"), Some(false), "{report:#}");
}

/// A DOMjudge package runs its programs with no stack limit, as
/// DOMjudge's runguard does: a thread gets glibc's default stack, and a
/// program may start threads (DOMjudge's `test-multithread.c`).
#[test]
fn a_domjudge_submission_may_start_threads() {
    let s = Scratch::new();
    s.write("h/domjudge-problem.ini", "timelimit = 2\n");
    s.write("h/problem.yaml", "name: Hello\n");
    s.write("h/data/secret/1.in", "");
    s.write("h/data/secret/1.ans", "Hello 2097152\n");
    s.write(
        "h/submissions/accepted/threads.c",
        r#"#include <pthread.h>
#include <stdio.h>
static void *run(void *p) { (void)p; return NULL; }
int main(void) {
    pthread_t t; pthread_attr_t a; size_t size = 0;
    if (pthread_create(&t, NULL, run, NULL) != 0) { printf("no thread\n"); return 0; }
    pthread_join(t, NULL);
    pthread_attr_init(&a); pthread_attr_getstacksize(&a, &size);
    printf("Hello %zu\n", size);
    return 0;
}
"#,
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "h"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
}

/// A plain multi-pass validator: on input `1` it asks for a second pass
/// with input `2` (BAPCtools' `alternativeencryption` encrypts, then
/// decrypts); on input `2` it accepts. Any output is accepted.
const TWO_PASS_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    int pass; if (!in || fscanf(in, "%d", &pass) != 1) return 1;
    if (pass == 1) {
        char path[4096]; snprintf(path, sizeof path, "%snextpass.in", argv[3]);
        FILE *next = fopen(path, "w"); if (!next) return 1;
        fprintf(next, "2\n"); fclose(next);
    }
    return 42;
}"#;

/// A submission that burns `first` seconds of CPU on pass 1 and `second`
/// on pass 2 (by `clock()`, which counts the process's CPU time whatever
/// the machine's load).
fn spinner(first: f64, second: f64) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\nint main(void){{int p;if(scanf(\"%d\",&p)!=1)return 1;\
         double s=p==1?{first}:{second};while((double)clock()/CLOCKS_PER_SEC<s);printf(\"%d\\n\",p);return 0;}}\n"
    )
}

/// The 2025-09 format: "The time and memory limit apply for each
/// invocation separately"; BAPCtools reports a case's slowest pass. A
/// case whose first pass is the slow one reports that pass's time (the
/// judge reported the last pass's, so a 1.5 s first pass read as 0.05 s,
/// and `verify` graded a first pass over the limit, run at its margin, as
/// AC); two passes each under the limit are AC even when their sum is not.
#[test]
fn a_multi_pass_case_takes_its_slowest_pass_and_each_pass_has_the_limit() {
    let s = Scratch::new();
    s.write(
        "p/problem.yaml",
        "problem_format_version: 2025-09\nname: Two passes\nuuid: 7c0e4a53-1b2d-4e8f-9a61-2f3b4c5d6e28\ntype: multi-pass\nlimits:\n  time_limit: 1\n",
    );
    s.write("p/data/secret/1.in", "1\n");
    s.write("p/data/secret/1.ans", "\n");
    s.write("p/output_validator/validate.c", TWO_PASS_C);
    let first = run_on(&s, "first.c", &spinner(0.6, 0.0));
    assert_eq!(verdicts(&first), ["AC"], "{first:#}");
    let case = &first["cases"][0];
    assert_eq!(case["passes"], 2, "{first:#}");
    let cpu = case["cpu_ms"].as_f64().unwrap();
    assert!(
        cpu >= 550.0,
        "the slow first pass's time is the case's: {first:#}"
    );
    let both = run_on(&s, "both.c", &spinner(0.6, 0.6));
    assert_eq!(
        verdicts(&both),
        ["AC"],
        "1.2 s in two passes of 0.6 s: {both:#}"
    );
    let cpu = both["cases"][0]["cpu_ms"].as_f64().unwrap();
    assert!((550.0..1000.0).contains(&cpu), "{both:#}");
    let over = run_on(&s, "over.c", &spinner(1.5, 0.0));
    assert_eq!(verdicts(&over), ["TLE"], "{over:#}");
    assert_eq!(over["cases"][0]["passes"], 1, "{over:#}");
}

/// Creates a file in its working directory and reads it back: prints
/// `written` when it could, `refused` when the directory refused it.
const WRITE_PROBE_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    /* Its TMPDIR is writable either way (DOMjudge's `write_tmp`). */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/t.txt", getenv("TMPDIR") ? getenv("TMPDIR") : "/nonexistent");
    FILE *t = fopen(tmp, "w");
    if (!t) { printf("no tmp\n"); return 0; }
    fclose(t);
    FILE *f = fopen("probe.txt", "w");
    if (!f) { printf("refused\n"); return 0; }
    fprintf(f, "x\n"); fclose(f);
    f = fopen("probe.txt", "r");
    printf(f && fgetc(f) == 'x' ? "written\n" : "unreadable\n");
    return 0;
}
"#;

/// DOMjudge's judgehost runs a submission in a directory its user cannot
/// write (`testcase_run.sh`), and its `test-write-file.c` expects the
/// `fopen` to fail: a DOMjudge package's submissions get a working
/// directory they cannot write (as root: the judge's, mode 0755), with a
/// TMPDIR they can (DOMjudge's `write_tmp`). Other packages keep a
/// writable one, as problemtools and BAPCtools give it.
#[test]
fn a_domjudge_submission_cannot_write_its_working_directory() {
    if !is_root() {
        eprintln!(
            "skipped: without root the submission is the judge's user, and its directory stays writable"
        );
        return;
    }
    let s = Scratch::new();
    s.write("h/domjudge-problem.ini", "timelimit = 2\n");
    s.write("h/problem.yaml", "name: Hello\n");
    s.write("h/data/secret/1.in", "");
    s.write("h/data/secret/1.ans", "refused\n");
    s.write("h/submissions/accepted/write.c", WRITE_PROBE_C);
    let mut cmd = s.judge();
    cmd.args(["verify", "h"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // A Kattis package: the directory is writable.
    s.write("k/problem.yaml", "name: Hello\n");
    s.write("k/data/secret/1.in", "");
    s.write("k/data/secret/1.ans", "written\n");
    s.write("k/submissions/accepted/write.c", WRITE_PROBE_C);
    let mut cmd = s.judge();
    cmd.args(["verify", "k"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    // 2025-09: read-only unless `allow_file_writing: true` (the spec's
    // default is false).
    for (allow, expected) in [("", "refused"), ("allow_file_writing: true\n", "written")] {
        let dir = if allow.is_empty() { "n" } else { "w" };
        s.write(
            &format!("{dir}/problem.yaml"),
            format!("problem_format_version: 2025-09\nname: Hello\n{allow}"),
        );
        s.write(&format!("{dir}/data/secret/1.in"), "");
        s.write(&format!("{dir}/data/secret/1.ans"), format!("{expected}\n"));
        s.write(
            &format!("{dir}/submissions/accepted/write.c"),
            WRITE_PROBE_C,
        );
        let mut cmd = s.judge();
        cmd.args(["verify", dir]);
        let ran = run(cmd);
        assert_eq!(ran.code, 0, "{dir}: {}\n{}", ran.stdout, ran.stderr);
    }
}
