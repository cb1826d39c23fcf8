//! Interactive and multi-pass problems with real programs on every verdict
//! path: a Kattis interactive package (the validator talks to the
//! submission), a testlib interactor in judge.toml, and a multi-pass
//! package with two and with too many passes.

mod common;
use common::*;

/// Kattis interactive validator: the secret is in the input; at most 10
/// guesses; "higher"/"lower"/"correct". Exit 42 found, 43 not.
const GUESS_VALIDATOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    char path[4096]; snprintf(path, sizeof path, "%sjudgemessage.txt", argv[3]);
    FILE *msg = fopen(path, "w");
    int secret; if (!in || !msg || fscanf(in, "%d", &secret) != 1) return 1;
    if (secret == 13) { int *p = 0; return *p; }
    for (int i = 1; i <= 10; i++) {
        int g;
        if (scanf("%d", &g) != 1) { fprintf(msg, "guess %d: no number\n", i); return 43; }
        if (g == secret) { printf("correct\n"); fflush(stdout); fprintf(msg, "found %d in %d guesses\n", secret, i); return 42; }
        printf(g < secret ? "higher\n" : "lower\n"); fflush(stdout);
    }
    fprintf(msg, "10 guesses and no %d\n", secret);
    return 43;
}"#;

const BINARY_SEARCH_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(void){int lo=1,hi=1000;char r[32];while(lo<=hi){int m=(lo+hi)/2;printf("%d\n",m);fflush(stdout);if(scanf("%31s",r)!=1)return 0;if(!strcmp(r,"correct"))return 0;if(!strcmp(r,"higher"))lo=m+1;else hi=m-1;}return 0;}"#;

/// Guesses 0 (the validator rejects: no secret is 0), then spins, never
/// reading the reply.
const SPIN_AFTER_WRONG_C: &str = "#include <stdio.h>\nint main(void){for(int i=0;i<11;i++)printf(\"0\\n\");fflush(stdout);for(volatile long i=0;;i++);}\n";

fn guess_package(s: &Scratch) {
    s.write(
        "g/problem.yaml",
        "name: Guess\ntype: interactive\nlimits:\n  time_limit: 1\n",
    );
    s.write("g/data/sample/1.in", "7\n");
    s.write("g/data/sample/1.ans", "\n");
    s.write("g/data/secret/1.in", "999\n");
    s.write("g/data/secret/1.ans", "\n");
    s.write("g/output_validator/validate.c", GUESS_VALIDATOR_C);
}

fn run_on(s: &Scratch, pkg: &str, source: &str, body: &str) -> serde_json::Value {
    s.write(source, body);
    let mut cmd = s.judge();
    cmd.args(["run", pkg, "--format", "json", "--submission", source]);
    let ran = run(cmd);
    let report = ran.json();
    assert!(ran.code <= 3, "{}", ran.stderr);
    report
}

fn verdicts(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_verdict_path_of_an_interactive_problem() {
    let s = Scratch::new();
    guess_package(&s);
    let ac = run_on(&s, "g", "bs.c", BINARY_SEARCH_C);
    assert_eq!(verdicts(&ac), ["AC", "AC"], "{ac:#}");
    assert_eq!(ac["cases"][1]["message"], "found 999 in 9 guesses");
    assert_eq!(ac["problems"][0]["check"], "interactive");

    // Always guessing 1: the validator rejects first (then the submission
    // dies writing into a closed pipe): WA, with the dialogue.
    let wa = run_on(
        &s,
        "g",
        "ones.c",
        "#include <stdio.h>\nint main(void){char r[32];for(;;){printf(\"1\\n\");fflush(stdout);if(scanf(\"%31s\",r)!=1)return 0;}}\n",
    );
    assert_eq!(verdicts(&wa), ["WA", "WA"], "{wa:#}");
    assert_eq!(wa["cases"][0]["message"], "10 guesses and no 7");
    // The dialogue in JSON: a line each, who, when, what (issue 41.5).
    let transcript = wa["cases"][0]["transcript"].as_array().unwrap();
    let said = |from: &str, text: &str| {
        transcript
            .iter()
            .any(|l| l["from"] == from && l["text"] == text && l["at"].as_f64().is_some())
    };
    assert!(
        said("submission", "1") && said("validator", "higher"),
        "{transcript:?}"
    );

    // A line written in pieces (the text, then its newline, each flushed)
    // is one line, not a line and an empty one, in every report.
    let pieces = run_on(
        &s,
        "g",
        "pieces.c",
        "#include <stdio.h>\nint main(void){char r[32];for(;;){printf(\"1\");fflush(stdout);printf(\"\\n\");fflush(stdout);if(scanf(\"%31s\",r)!=1)return 0;}}\n",
    );
    let lines = pieces["cases"][0]["transcript"].as_array().unwrap();
    let texts: Vec<&str> = lines
        .iter()
        .filter(|l| l["from"] == "submission")
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert!(
        !texts.is_empty() && texts.iter().all(|t| *t == "1"),
        "{lines:?}"
    );

    // Never flushing: both wait; the wall clock ends it, TLE, saying so.
    let tle = run_on(
        &s,
        "g",
        "noflush.c",
        "#include <stdio.h>\nint main(void){char r[32];printf(\"500\\n\");if(scanf(\"%31s\",r)!=1)return 0;return 0;}\n",
    );
    assert_eq!(verdicts(&tle), ["TLE", "TLE"], "{tle:#}");
    assert!(
        tle["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("neither side wrote anything"),
        "{tle:#}"
    );

    // Crashing first: RE. Exiting early without a guess: the validator
    // reads end-of-file and rejects, after the submission ended: WA.
    let re = run_on(
        &s,
        "g",
        "crash.c",
        "#include <stdlib.h>\nint main(void){abort();}\n",
    );
    assert_eq!(verdicts(&re), ["RE", "RE"], "{re:#}");
    let early = run_on(&s, "g", "early.c", "int main(void){return 0;}\n");
    assert_eq!(verdicts(&early), ["WA", "WA"], "{early:#}");
    assert_eq!(early["cases"][0]["message"], "guess 1: no number");

    // A case's NAME.files/ is in the submission's working directory in an
    // interactive run too: a submission that reads the secret there.
    s.write("g/data/secret/1.files/secret.txt", "999\n");
    let peek = run_on(
        &s,
        "g",
        "peek.c",
        "#include <stdio.h>\nint main(void){int x=1;FILE*f=fopen(\"secret.txt\",\"r\");if(f)fscanf(f,\"%d\",&x);printf(\"%d\\n\",x);fflush(stdout);return 0;}\n",
    );
    assert_eq!(verdicts(&peek)[1], "AC", "{peek:#}");
    std::fs::remove_dir_all(s.path().join("g/data/secret/1.files")).unwrap();

    // And a case's `args` (2025-09) are the submission's arguments there.
    s.write("g/data/secret/1.yaml", "args: ['999']\n");
    let told = run_on(
        &s,
        "g",
        "told.c",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc,char**argv){printf(\"%d\\n\",argc>1?atoi(argv[1]):1);fflush(stdout);return 0;}\n",
    );
    assert_eq!(verdicts(&told)[1], "AC", "{told:#}");
    std::fs::remove_file(s.path().join("g/data/secret/1.yaml")).unwrap();

    // Spinning after the validator rejected: WA, and the submission is
    // stopped when the validator ends, not left to spend the time limit.
    let spin = run_on(&s, "g", "spin.c", SPIN_AFTER_WRONG_C);
    assert_eq!(verdicts(&spin), ["WA", "WA"], "{spin:#}");
    for case in spin["cases"].as_array().unwrap() {
        // Half the 1 s time limit of guess_package: a stopped spinner is
        // far under it, one left to its limit far over.
        assert!(case["cpu_ms"].as_f64().unwrap() < 500.0, "{spin:#}");
    }

    // A validator that crashes is IE, never the submission's fault.
    s.write("g/data/secret/2.in", "13\n");
    s.write("g/data/secret/2.ans", "\n");
    let ie = run_on(&s, "g", "bs.c", BINARY_SEARCH_C);
    assert_eq!(verdicts(&ie), ["AC", "AC", "IE"], "{ie:#}");
    assert!(
        ie["cases"][2]["message"]
            .as_str()
            .unwrap()
            .contains("validator output_validator crashed: SIGSEGV"),
        "{ie:#}"
    );
}

#[test]
fn verify_an_interactive_package_with_every_folder() {
    let s = Scratch::new();
    guess_package(&s);
    s.write("g/submissions/accepted/bs.c", BINARY_SEARCH_C);
    s.write(
        "g/submissions/wrong_answer/ones.c",
        "#include <stdio.h>\nint main(void){char r[32];for(;;){printf(\"1\\n\");fflush(stdout);if(scanf(\"%31s\",r)!=1)return 0;}}\n",
    );
    s.write(
        "g/submissions/time_limit_exceeded/noflush.c",
        "#include <stdio.h>\nint main(void){char r[32];printf(\"500\\n\");if(scanf(\"%31s\",r)!=1)return 0;return 0;}\n",
    );
    s.write(
        "g/submissions/run_time_error/crash.c",
        "#include <stdlib.h>\nint main(void){abort();}\n",
    );
    // Verify runs at a margin over the limit and grades at the limit: a
    // WA the validator decided must not become TLE by the time spent after.
    s.write("g/submissions/wrong_answer/spin.c", SPIN_AFTER_WRONG_C);
    let mut cmd = s.judge();
    cmd.args(["verify", "g"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("OK: 5 of 5 submissions as expected"),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_testlib_interactor_in_judge_toml() {
    let s = Scratch::new();
    // testlib protocol: INTERACTOR input tout answer; exit 0 ok, 1 WA.
    s.write(
        "interactor.c",
        r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r"); FILE *tout = fopen(argv[2], "w");
    int a, b, s; if (fscanf(in, "%d %d", &a, &b) != 2) return 3;
    printf("%d %d\n", a, b); fflush(stdout);
    if (scanf("%d", &s) != 1) { fprintf(stderr, "wrong answer no sum\n"); return 1; }
    fprintf(tout, "%d\n", s);
    if (s != a + b) { fprintf(stderr, "wrong answer %d is not %d\n", s, a + b); return 1; }
    fprintf(stderr, "ok %d\n", s); return 0;
}"#,
    );
    s.write(
        "judge.toml",
        "[problem.add]\ncases = \"cases\"\ninteractor = \"interactor.c\"\n",
    );
    s.write("cases/1.in", "2 3\n");
    s.write("cases/2.in", "40 2\n");
    let good = run_on(
        &s,
        "cases",
        "add.c",
        "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);return 0;}\n",
    );
    assert_eq!(verdicts(&good), ["AC", "AC"], "{good:#}");
    assert_eq!(good["cases"][0]["message"], "ok 5");
    let bad = run_on(
        &s,
        "cases",
        "sub.c",
        "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a-b);return 0;}\n",
    );
    assert_eq!(verdicts(&bad), ["WA", "WA"], "{bad:#}");
    assert_eq!(bad["cases"][1]["message"], "wrong answer 38 is not 42");

    // The Polygon model: an interactor that accepts whatever it is told
    // and writes it to tout, and a checker that judges tout against the
    // answer. The checker's verdict is the case's.
    s.write(
        "relay.c",
        r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r"); FILE *tout = fopen(argv[2], "w");
    int a, b, s; if (fscanf(in, "%d %d", &a, &b) != 2) return 3;
    printf("%d %d\n", a, b); fflush(stdout);
    if (scanf("%d", &s) != 1) return 1;
    fprintf(tout, "%d\n", s); fprintf(stderr, "ok relayed\n"); return 0;
}"#,
    );
    s.write(
        "check.c",
        r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *out = fopen(argv[2], "r"); FILE *ans = fopen(argv[3], "r");
    int got, want; if (fscanf(ans, "%d", &want) != 1) return 3;
    if (!out || fscanf(out, "%d", &got) != 1) { fprintf(stderr, "wrong answer nothing in tout\n"); return 1; }
    if (got != want) { fprintf(stderr, "wrong answer %d, expected %d\n", got, want); return 1; }
    fprintf(stderr, "ok %d\n", got); return 0;
}"#,
    );
    s.write("cases/1.ans", "5\n");
    s.write("cases/2.ans", "42\n");
    s.write(
        "judge.toml",
        "[problem.add]\ncases = \"cases\"\ninteractor = \"relay.c\"\nchecker = \"check.c\"\n",
    );
    let checked = run_on(
        &s,
        "cases",
        "sub.c",
        "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a-b);return 0;}\n",
    );
    assert_eq!(verdicts(&checked), ["WA", "WA"], "{checked:#}");
    assert_eq!(
        checked["cases"][1]["message"],
        "wrong answer 38, expected 42"
    );
    let passed = run_on(
        &s,
        "cases",
        "add.c",
        "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);return 0;}\n",
    );
    assert_eq!(verdicts(&passed), ["AC", "AC"], "{passed:#}");
    assert_eq!(passed["cases"][0]["message"], "ok 5");
}

/// Multi-pass: pass 1 prints a number x, the validator asks for a second
/// pass with input "x"; pass 2 must print 2x. With MORE in the input the
/// validator asks for a third pass. From pass 2 on, `input_file` must be
/// the pass's own input (the previous `nextpass.in`), else exit 1 (IE).
/// With REJECT it writes `nextpass.in` and rejects (a judge error).
const TWO_PASS_VALIDATOR_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    char path[4096], state[4096];
    snprintf(state, sizeof state, "%sfirst", argv[3]);
    FILE *in = fopen(argv[1], "r"); char word[16] = ""; fscanf(in, "%15s", word);
    long x; if (scanf("%ld", &x) != 1) return 43;
    FILE *f = fopen(state, "r");
    if (!f && !strcmp(word, "REJECT")) {
        snprintf(path, sizeof path, "%snextpass.in", argv[3]);
        FILE *next = fopen(path, "w"); fprintf(next, "%ld\n", x); fclose(next);
        return 43;
    }
    if (!f) {
        f = fopen(state, "w"); fprintf(f, "%ld %d\n", x, !strcmp(word, "MORE")); fclose(f);
        snprintf(path, sizeof path, "%snextpass.in", argv[3]);
        FILE *next = fopen(path, "w"); fprintf(next, "%ld\n", x); fclose(next);
        return 42;
    }
    long first; int more; fscanf(f, "%ld %d", &first, &more);
    char expected[32]; snprintf(expected, sizeof expected, "%ld", first);
    if (strcmp(word, expected)) return 1;
    if (more) {
        snprintf(path, sizeof path, "%snextpass.in", argv[3]);
        FILE *next = fopen(path, "w"); fprintf(next, "%ld\n", first); fclose(next);
        return 42;
    }
    return x == 2 * first ? 42 : 43;
}"#;

#[test]
fn multi_pass_with_two_and_with_too_many_passes() {
    let s = Scratch::new();
    s.write(
        "m/problem.yaml",
        "name: Twice\ntype: multi-pass\nlimits:\n  validation_passes: 2\n",
    );
    s.write("m/output_validator/validate.c", TWO_PASS_VALIDATOR_C);
    s.write("m/data/sample/1.in", "START\n");
    s.write("m/data/sample/1.ans", "\n");
    // Pass 1 (input START): print 21. Pass 2 (input 21): print 42.
    let doubler = "#include <stdio.h>\nint main(void){char w[32];if(scanf(\"%31s\",w)!=1)return 1;if(w[0]=='S'||w[0]=='M'){printf(\"21\\n\");return 0;}long x;sscanf(w,\"%ld\",&x);printf(\"%ld\\n\",2*x);return 0;}\n";
    let ok = run_on(&s, "m", "double.c", doubler);
    assert_eq!(verdicts(&ok), ["AC"], "{ok:#}");
    assert_eq!(ok["cases"][0]["passes"], 2, "{ok:#}");
    let wrong = run_on(
        &s,
        "m",
        "same.c",
        "#include <stdio.h>\nint main(void){printf(\"21\\n\");return 0;}\n",
    );
    assert_eq!(verdicts(&wrong), ["WA"], "{wrong:#}");
    assert_eq!(wrong["cases"][0]["passes"], 2);
    // A validator asking for a third pass of two: IE, naming the limit.
    s.write("m/data/sample/1.in", "MORE\n");
    let more = run_on(&s, "m", "double.c", doubler);
    assert_eq!(verdicts(&more), ["IE"], "{more:#}");
    assert!(
        more["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("asked for pass 3 (nextpass.in) but the problem allows 2"),
        "{more:#}"
    );
    assert_eq!(more["cases"][0]["passes"], 2, "{more:#}");
    // Rejecting with a next pass asked for: the spec's judge error.
    s.write("m/data/sample/1.in", "REJECT\n");
    let rejected = run_on(&s, "m", "double.c", doubler);
    assert_eq!(verdicts(&rejected), ["IE"], "{rejected:#}");
    assert!(
        rejected["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("wrote nextpass.in on pass 1 and rejected"),
        "{rejected:#}"
    );
}

/// An interactive multi-pass validator that writes `nextpass.in` and
/// rejects is a judge error even when the submission crashed first (the
/// verdict would otherwise be the submission's RTE, hiding the validator's
/// bug).
#[test]
fn a_rejection_with_a_next_pass_is_a_judge_error_after_a_crash_too() {
    let s = Scratch::new();
    s.write(
        "im/problem.yaml",
        "name: Crash\ntype: [interactive, multi-pass]\nlimits:\n  validation_passes: 2\n",
    );
    s.write(
        "im/output_validator/v.c",
        r#"#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char path[4096]; long x;
    printf("go\n"); fflush(stdout);
    if (scanf("%ld", &x) != 1) return 43;
    usleep(200000);
    snprintf(path, sizeof path, "%snextpass.in", argv[3]);
    FILE *next = fopen(path, "w"); fprintf(next, "%ld\n", x); fclose(next);
    return 43;
}"#,
    );
    s.write("im/data/secret/1.in", "1\n");
    s.write("im/data/secret/1.ans", "\n");
    let crashed = run_on(
        &s,
        "im",
        "crash.c",
        "#include <stdio.h>\nint main(void){char w[8];scanf(\"%7s\",w);printf(\"21\\n\");fflush(stdout);return 3;}\n",
    );
    assert_eq!(verdicts(&crashed), ["IE"], "{crashed:#}");
    assert!(
        crashed["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("wrote nextpass.in on pass 1 and rejected"),
        "{crashed:#}"
    );
}

#[test]
fn the_interactive_and_multi_pass_examples_verify() {
    if !installed("python3") {
        println!("not run: python3 is not installed (the examples' Python submissions)");
        return;
    }
    let s = Scratch::new();
    let guess = s.copy_tree(&examples().join("guess"), "guess");
    let twice = s.copy_tree(&examples().join("twice"), "twice");
    let mut cmd = s.judge();
    cmd.arg("verify").arg(&guess).arg(&twice);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("OK: 9 of 9 submissions as expected"),
        "{}",
        ran.stdout
    );
}

#[test]
fn an_interactive_python_submission_need_not_flush() {
    if !installed("python3") {
        println!("not run: python3 is not installed (an unflushed Python dialogue)");
        return;
    }
    let s = Scratch::new();
    guess_package(&s);
    // `print` without flush=True: DOMjudge's own interactive example does
    // this; interactive submissions run with PYTHONUNBUFFERED=1.
    let report = run_on(
        &s,
        "g",
        "guess.py",
        "lo, hi = 1, 1000\nwhile lo <= hi:\n    mid = (lo + hi) // 2\n    print(mid)\n    r = input()\n    if r == 'correct':\n        break\n    lo, hi = (mid + 1, hi) if r == 'higher' else (lo, mid - 1)\n",
    );
    assert_eq!(verdicts(&report), ["AC", "AC"], "{report:#}");
}

#[test]
fn stress_finds_an_input_where_an_interactive_submission_fails() {
    let s = Scratch::new();
    guess_package(&s);
    s.write("judge.toml", "[problem.g]\npackage = \"g\"\n");
    s.script("gen.sh", "echo $(( ($1 * 7919) % 1000 + 1 ))");
    // Binary search that wastes its fifth guess on the low end: out of
    // guesses for some secrets.
    s.write(
        "wasteful.c",
        "#include <stdio.h>\n#include <string.h>\nint main(void){int lo=1,hi=1000,n=0;char r[32];while(lo<=hi){int m=(lo+hi)/2;if(++n==5)m=lo;printf(\"%d\\n\",m);fflush(stdout);if(scanf(\"%31s\",r)!=1)return 0;if(!strcmp(r,\"correct\"))return 0;if(!strcmp(r,\"higher\"))lo=m+1;else hi=m-1;}return 0;}\n",
    );
    let mut cmd = s.judge();
    cmd.args([
        "stress",
        "g",
        "--submission",
        "wasteful.c",
        "--generator",
        "./gen.sh",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        format!("{}{}", ran.stdout, ran.stderr).contains("the submission: WA: 10 guesses and no"),
        "{}\n{}",
        ran.stdout,
        ran.stderr
    );
}
