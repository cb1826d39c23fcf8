//! The run cache gives exactly what a fresh run gives (issue 40): a
//! differential property test.
//!
//! Each generated case is a small random judge.toml problem (1 to 3
//! cases, `cN.in`/`cN.ans`, maybe scored by one group a case) and a
//! program from a fixed menu of honest and hostile C programs, built once
//! per test binary, each with a parameter per case read from the first
//! line of its input: honest (copies the rest of its input), slow (spins
//! N ms of CPU first), a sleeper (N ms of wall clock), memory-hungry
//! (touches N MiB, a MiB at a time, and aborts when malloc fails), a block
//! (one allocation of N MiB; prints "no memory" when malloc fails), lumpy
//! (N blocks of 20 MiB), deeply recursive (N frames of 1 KiB), a writer (N
//! bytes to a file in its working directory), noisy (N KiB on stderr),
//! loud (N KiB of white space after its answer), and an exiter (exit code
//! N). The judge runs it three times:
//!
//! 1. with the cache, cold (it fills the cache);
//! 2. with the same cache after one *perturbation* of something a user can
//!    change: the time, wall, memory, stack or output limit (up or down),
//!    `--check` (tokens, lines, exact), `--float-tolerance`, `--strict`,
//!    one case's answer bytes, one case's input bytes, `--sandbox`
//!    (plain against the default);
//! 3. the same as 2 with `--no-cache`;
//!
//! and runs 2 and 3 must agree on every case's verdict (strictly), its
//! message (measured figures, and only those, normalised away), exit,
//! diff and score, and on the run's verdict and scores.
//!
//! Not perturbed: `input-file`/`output-file` (only Polygon packages have
//! them, judge.toml problems do not; `tests/run_cache.rs` covers them with
//! a Polygon package), external checkers and their arguments (a check is
//! kept apart by the checker's bytes and flags; `tests/run_cache.rs` edits
//! a checker), the file-size and process limits and what output past its
//! limit does (no `judge run` flag for the file size; all in the key
//! whole), and interactive problems (kept whole, under the same limits
//! only).
//!
//! Timing: a verdict near a limit may differ between two fresh runs, so
//! each case's parameter is chosen far from every limit of both runs
//! ([`Kind::far`]): CPU time at most a quarter of the time limit or
//! endless, memory, stack depth and sleep likewise; output, stderr and
//! file size at most a sixth of the smallest limit or far past the
//! largest. 16 MiB is no memory limit here: a hog under an address-space
//! limit of 16 MiB peaks at about 90% of it and is MLE or RE at random
//! (the judge's 10% rule, not the cache). A disagreement is then a defect
//! of the cache, not noise: the two found are kept as plain tests at the
//! end.
//!
//! `CACHE_DIFF_CASES=2000` runs more cases (default 80),
//! `CACHE_DIFF_SEED=N` another seed (the default is fixed, so CI sees the
//! same cases); `benches/run_cache/differential.sh` runs it long.

mod common;
use common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

const PRELUDE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static long param(void) {
    long n = 0;
    if (scanf("%ld", &n) != 1) n = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {}
    return n;
}
static void echo(void) {
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, stdin)) > 0) fwrite(buf, 1, k, stdout);
    fflush(stdout);
}
"#;

/// The menu: each program's name, its body after [`PRELUDE`], and the
/// parameters it may get (each far from every limit it may run under).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Honest,
    Slow,
    Hog,
    Deep,
    Writer,
    Noisy,
    Loud,
    Exiter,
    Block,
    Lumpy,
    Sleeper,
}

const KINDS: [Kind; 11] = [
    Kind::Honest,
    Kind::Slow,
    Kind::Hog,
    Kind::Deep,
    Kind::Writer,
    Kind::Noisy,
    Kind::Loud,
    Kind::Exiter,
    Kind::Block,
    Kind::Lumpy,
    Kind::Sleeper,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Honest => "honest",
            Kind::Slow => "slow",
            Kind::Hog => "hog",
            Kind::Deep => "deep",
            Kind::Writer => "writer",
            Kind::Noisy => "noisy",
            Kind::Loud => "loud",
            Kind::Exiter => "exiter",
            Kind::Block => "block",
            Kind::Lumpy => "lumpy",
            Kind::Sleeper => "sleeper",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Kind::Honest => "int main(void) { param(); echo(); return 0; }",
            Kind::Slow => {
                r#"
static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
int main(void) {
    long n = param();
    volatile unsigned long x = 0;
    while (cpu_ms() < n) for (int i = 0; i < 10000; i++) x++;
    echo();
    return 0;
}"#
            }
            Kind::Hog => {
                r#"
static char *volatile sink;
int main(void) {
    long n = param();
    for (long i = 0; i < n; i++) {
        char *p = malloc(1 << 20);
        if (!p) abort();
        memset(p, (int)i, 1 << 20);
        sink = p;
    }
    echo();
    return 0;
}"#
            }
            Kind::Deep => {
                r#"
static long rec(long d, volatile char *up) {
    volatile char frame[1024];
    frame[0] = up[0] + 1;
    frame[1023] = frame[0];
    if (d <= 0) return frame[0];
    long r = rec(d - 1, frame);
    return r + frame[1023];
}
int main(void) {
    long n = param();
    volatile char top[1] = {0};
    volatile long r = rec(n, top);
    (void)r;
    echo();
    return 0;
}"#
            }
            Kind::Writer => {
                r#"
int main(void) {
    long n = param();
    FILE *f = fopen("scratch.txt", "w");
    if (!f) return 4;
    for (long i = 0; i < n; i++) if (fputc('x', f) == EOF) return 5;
    if (fclose(f) != 0) return 5;
    echo();
    return 0;
}"#
            }
            Kind::Noisy => {
                r#"
int main(void) {
    long n = param();
    char line[1024];
    memset(line, 'e', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (long i = 0; i < n; i++) fwrite(line, 1, sizeof line, stderr);
    echo();
    return 0;
}"#
            }
            Kind::Loud => {
                r#"
int main(void) {
    long n = param();
    echo();
    char line[1024];
    memset(line, ' ', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (long i = 0; i < n; i++) fwrite(line, 1, sizeof line, stdout);
    return 0;
}"#
            }
            Kind::Exiter => "int main(void) { long n = param(); echo(); return (int)n; }",
            Kind::Block => BLOCK,
            Kind::Lumpy => LUMPY,
            Kind::Sleeper => SLEEPER,
        }
    }

    /// The parameters it may get.
    fn params(self) -> &'static [u64] {
        match self {
            Kind::Honest => &[0],
            // ms of CPU.
            Kind::Slow => &[0, 10, 60, 600_000],
            // MiB. Touching the largest memory limit (64 MiB) before it
            // stops takes a small part of the smallest time limit.
            Kind::Hog => &[1, 2, 100_000],
            // 1 KiB frames.
            Kind::Deep => &[10, 1000, 100_000_000],
            // bytes: the smallest output (and file-size) limit is 64 KiB.
            Kind::Writer => &[0, 100, 10_000, 64 << 20],
            // KiB on stderr.
            Kind::Noisy => &[1, 8, 64 << 10],
            // KiB on stdout: the smallest output limit is 64 KiB.
            Kind::Loud => &[1, 8, 64 << 10],
            Kind::Exiter => &[0, 1, 3, 42],
            // MiB in one allocation.
            Kind::Block => &[1, 2, 20, 40, 1000],
            // blocks of 20 MiB.
            Kind::Lumpy => &[0, 1, 100],
            // ms of wall clock, no CPU.
            Kind::Sleeper => &[0, 50, 600_000],
        }
    }

    /// Whether `param` is far from every limit of `s`, so that two fresh
    /// runs under `s` agree: at most a quarter of the limit, or far past
    /// it (then the limit stops it, and that is quick).
    fn far(self, param: u64, s: &Settings) -> bool {
        let stack_kib = s.stack_mib.unwrap_or(s.memory_mib) << 10;
        let wall_ms = s.wall_ms.unwrap_or(2 * s.time_ms + 1000);
        match self {
            // Endless: stopped by the CPU limit, the wall limit far after
            // it (or the message may name either).
            Kind::Slow => {
                param * 4 <= s.time_ms || (param >= 100 * s.time_ms && wall_ms >= 3 * s.time_ms)
            }
            // Endless only under a short wall limit: a sleeper costs its
            // wall limit, each run.
            Kind::Sleeper => param * 4 <= wall_ms || (param >= 100 * wall_ms && wall_ms <= 1600),
            Kind::Hog => param * 4 <= s.memory_mib || param >= 100 * s.memory_mib,
            Kind::Deep => param * 4 <= stack_kib || param >= 100 * stack_kib,
            // One allocation fails or not, with nothing measured: 8 MiB
            // either way is far from the libraries' few MiB.
            Kind::Block => param + 8 <= s.memory_mib || param >= s.memory_mib + 8,
            // Whole blocks: under an address-space limit of 32 or 48 MiB
            // one or two fit and its peak stays well under 90% of the limit
            // (RE); under 64 MiB three fit, past 90% (MLE).
            Kind::Lumpy => param * 20 + 10 <= s.memory_mib || param >= 100,
            Kind::Honest | Kind::Writer | Kind::Noisy | Kind::Loud | Kind::Exiter => true,
        }
    }

    /// The parameters far from the limits of both runs.
    fn params_for(self, runs: [&Settings; 2]) -> Vec<u64> {
        let far: Vec<u64> = self
            .params()
            .iter()
            .copied()
            .filter(|&p| runs.iter().all(|s| self.far(p, s)))
            .collect();
        assert!(!far.is_empty(), "{self:?} has no parameter for {runs:?}");
        far
    }
}

/// One allocation of N MiB, touched; a program that checks malloc says
/// so and exits (WA, with nothing measured near the limit).
const BLOCK: &str = r#"
static char *volatile sink;
int main(void) {
    long n = param();
    char *p = malloc((size_t)n << 20);
    if (!p) { puts("no memory"); return 0; }
    memset(p, 1, (size_t)n << 20);
    sink = p;
    echo();
    return 0;
}"#;

/// Sleeps N ms (wall clock, no CPU).
const SLEEPER: &str = r#"
int main(void) {
    long n = param();
    struct timespec t = { n / 1000, (n % 1000) * 1000000L };
    nanosleep(&t, NULL);
    echo();
    return 0;
}"#;

/// N blocks of 20 MiB, touched; abort when one cannot be had.
const LUMPY: &str = r#"
static char *volatile sink;
int main(void) {
    long n = param();
    for (long i = 0; i < n; i++) {
        char *p = malloc(20 << 20);
        if (!p) abort();
        memset(p, 1, 20 << 20);
        sink = p;
    }
    echo();
    return 0;
}"#;

const TIME_MS: [u64; 3] = [300, 600, 1000];
/// `None`: the default (2 × time + 1 s).
const WALL_MS: [Option<u64>; 3] = [None, Some(1500), Some(4000)];
/// Not 16 MiB: under an address-space limit, a hog that aborts when
/// malloc fails peaks at 14.3 to 14.5 MiB, about 90% of it, and is MLE
/// or RE at random (the judge's 10% rule, not the cache).
const MEMORY_MIB: [u64; 3] = [32, 48, 64];
/// `None`: the default (as large as memory).
const STACK_MIB: [Option<u64>; 3] = [None, Some(4), Some(8)];
const OUTPUT_KIB: [u64; 3] = [64, 256, 1024];
const CHECKS: [&str; 3] = ["tokens", "lines", "exact"];
const TOLERANCES: [Option<&str>; 3] = [None, Some("1e-6"), Some("1e-3")];

/// Every program of the menu, built once per test binary.
fn programs() -> &'static Vec<PathBuf> {
    static PROGRAMS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        KINDS
            .iter()
            .map(|k| {
                build(
                    "c",
                    &format!("diff-{}", k.name()),
                    &format!("{PRELUDE}{}", k.body()),
                )
            })
            .collect()
    })
}

fn program(kind: Kind) -> &'static Path {
    &programs()[KINDS.iter().position(|&k| k == kind).unwrap()]
}

/// One token of an answer.
#[derive(Clone, Debug)]
enum Token {
    Int(i32),
    Float(f64),
    Word(&'static str),
}

impl Token {
    fn show(&self) -> String {
        match self {
            Token::Int(i) => i.to_string(),
            Token::Float(f) => format!("{f:.7}"),
            Token::Word(w) => w.to_string(),
        }
    }
}

/// How a case's answer differs from what an honest program prints.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Same,
    /// Two spaces between tokens and a blank line at the end.
    Spaced,
    /// Every float moved by 1e-4 (within 1e-3, past 1e-6).
    Jitter,
    /// The last token replaced.
    Wrong,
}

#[derive(Clone, Debug)]
struct Case {
    param: u64,
    lines: Vec<Vec<Token>>,
    answer: Answer,
}

impl Case {
    fn input(&self) -> String {
        let mut s = format!("{}\n", self.param);
        for line in &self.lines {
            let tokens: Vec<String> = line.iter().map(Token::show).collect();
            s.push_str(&tokens.join(" "));
            s.push('\n');
        }
        s
    }

    fn answer(&self) -> String {
        let sep = match self.answer {
            Answer::Spaced => "  ",
            _ => " ",
        };
        let mut s = String::new();
        let last = self.lines.len() - 1;
        for (i, line) in self.lines.iter().enumerate() {
            let mut tokens: Vec<String> = line
                .iter()
                .map(|t| match (self.answer, t) {
                    (Answer::Jitter, Token::Float(f)) => format!("{:.7}", f + 1e-4),
                    _ => t.show(),
                })
                .collect();
            if i == last && matches!(self.answer, Answer::Wrong) {
                *tokens.last_mut().unwrap() = "wrong".into();
            }
            s.push_str(&tokens.join(sep));
            s.push('\n');
        }
        if matches!(self.answer, Answer::Spaced) {
            s.push('\n');
        }
        s
    }
}

/// What the flags of one run say.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    time_ms: u64,
    wall_ms: Option<u64>,
    memory_mib: u64,
    stack_mib: Option<u64>,
    output_kib: u64,
    check: &'static str,
    tolerance: Option<&'static str>,
    strict: bool,
    plain: bool,
}

impl Settings {
    fn args(&self) -> Vec<String> {
        let mut args = vec![
            "--time-limit".to_string(),
            format!("{}ms", self.time_ms),
            "--memory-limit".into(),
            format!("{}MiB", self.memory_mib),
            "--output-limit".into(),
            format!("{}KiB", self.output_kib),
            "--check".into(),
            self.check.into(),
        ];
        if let Some(wall) = self.wall_ms {
            args.extend(["--wall-limit".into(), format!("{wall}ms")]);
        }
        if let Some(stack) = self.stack_mib {
            args.extend(["--stack-limit".into(), format!("{stack}MiB")]);
        }
        if let Some(tolerance) = self.tolerance {
            args.extend(["--float-tolerance".into(), tolerance.into()]);
        }
        if self.strict {
            args.push("--strict".into());
        }
        if self.plain {
            args.extend(["--sandbox".into(), "plain".into()]);
        }
        args
    }
}

/// One change between run 1 and runs 2 and 3.
#[derive(Clone, Debug)]
enum Perturbation {
    Time(u64),
    Wall(Option<u64>),
    Memory(u64),
    Stack(Option<u64>),
    Output(u64),
    Check(&'static str),
    Tolerance(Option<&'static str>),
    Strict,
    Sandbox,
    /// One case's answer (by index, modulo the cases) made another.
    Answer(usize, Answer),
    /// One case's input: another parameter of the menu (an index into its
    /// parameters) or another last token.
    Input(usize, usize, i32),
}

#[derive(Clone, Debug)]
struct Pair {
    kind: Kind,
    cases: Vec<Case>,
    scored: bool,
    settings: Settings,
    perturbation: Perturbation,
}

fn token() -> impl Strategy<Value = Token> {
    prop_oneof![
        (-1000i32..1000).prop_map(Token::Int),
        (-100_000i32..100_000).prop_map(|i| Token::Float(f64::from(i) / 1000.0)),
        prop::sample::select(&["yes", "no", "Yes"][..]).prop_map(Token::Word),
    ]
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        3 => Just(Answer::Same),
        1 => Just(Answer::Spaced),
        1 => Just(Answer::Jitter),
        1 => Just(Answer::Wrong),
    ]
}

fn case(params: Vec<u64>) -> impl Strategy<Value = Case> {
    (
        prop::sample::select(params),
        prop::collection::vec(prop::collection::vec(token(), 1..4), 1..3),
        answer(),
    )
        .prop_map(|(param, lines, answer)| Case {
            param,
            lines,
            answer,
        })
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        prop::sample::select(&TIME_MS[..]),
        prop::sample::select(&WALL_MS[..]),
        prop::sample::select(&MEMORY_MIB[..]),
        prop::sample::select(&STACK_MIB[..]),
        prop::sample::select(&OUTPUT_KIB[..]),
        prop::sample::select(&CHECKS[..]),
        prop::sample::select(&TOLERANCES[..]),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.3),
    )
        .prop_map(
            |(
                time_ms,
                wall_ms,
                memory_mib,
                stack_mib,
                output_kib,
                check,
                tolerance,
                strict,
                plain,
            )| {
                Settings {
                    time_ms,
                    wall_ms,
                    memory_mib,
                    stack_mib,
                    output_kib,
                    check,
                    tolerance,
                    strict,
                    plain,
                }
            },
        )
}

fn perturbation() -> impl Strategy<Value = Perturbation> {
    prop_oneof![
        3 => prop::sample::select(&TIME_MS[..]).prop_map(Perturbation::Time),
        1 => prop::sample::select(&WALL_MS[..]).prop_map(Perturbation::Wall),
        3 => prop::sample::select(&MEMORY_MIB[..]).prop_map(Perturbation::Memory),
        2 => prop::sample::select(&STACK_MIB[..]).prop_map(Perturbation::Stack),
        2 => prop::sample::select(&OUTPUT_KIB[..]).prop_map(Perturbation::Output),
        1 => prop::sample::select(&CHECKS[..]).prop_map(Perturbation::Check),
        1 => prop::sample::select(&TOLERANCES[..]).prop_map(Perturbation::Tolerance),
        1 => Just(Perturbation::Strict),
        2 => Just(Perturbation::Sandbox),
        1 => (0usize..3, answer()).prop_map(|(i, a)| Perturbation::Answer(i, a)),
        1 => (0usize..3, 0usize..4, -9i32..9).prop_map(|(i, p, t)| Perturbation::Input(i, p, t)),
    ]
}

fn pair() -> impl Strategy<Value = Pair> {
    (
        prop::sample::select(&KINDS[..]),
        prop::bool::weighted(0.3),
        settings(),
        perturbation(),
    )
        .prop_flat_map(|(kind, scored, settings, perturbation)| {
            let perturbed = perturbation.settings(&settings);
            let params = kind.params_for([&settings, &perturbed]);
            prop::collection::vec(case(params), 1..=3).prop_map(move |cases| Pair {
                kind,
                cases,
                scored,
                settings: settings.clone(),
                perturbation: perturbation.clone(),
            })
        })
}

impl Perturbation {
    /// `s` with this change (none for a change of a file).
    fn settings(&self, s: &Settings) -> Settings {
        let mut s = s.clone();
        match *self {
            Perturbation::Time(t) => s.time_ms = t,
            Perturbation::Wall(w) => s.wall_ms = w,
            Perturbation::Memory(m) => s.memory_mib = m,
            Perturbation::Stack(st) => s.stack_mib = st,
            Perturbation::Output(o) => s.output_kib = o,
            Perturbation::Check(c) => s.check = c,
            Perturbation::Tolerance(t) => s.tolerance = t,
            Perturbation::Strict => s.strict = !s.strict,
            Perturbation::Sandbox => s.plain = !s.plain,
            Perturbation::Answer(..) | Perturbation::Input(..) => {}
        }
        s
    }
}

impl Pair {
    /// The settings and cases of runs 2 and 3.
    fn perturbed(&self) -> (Settings, Vec<Case>) {
        let s = self.perturbation.settings(&self.settings);
        let mut cases = self.cases.clone();
        let n = cases.len();
        match self.perturbation {
            Perturbation::Answer(i, a) => cases[i % n].answer = a,
            Perturbation::Input(i, p, t) => {
                let case = &mut cases[i % n];
                let params = self.kind.params_for([&self.settings, &s]);
                case.param = params[p % params.len()];
                case.lines.last_mut().unwrap().push(Token::Int(t));
            }
            _ => {}
        }
        (s, cases)
    }
}

fn write_problem(s: &Scratch, cases: &[Case], scored: bool) {
    let _ = std::fs::remove_dir_all(s.path().join("cases"));
    let mut toml = String::from("[problem.p]\ncases = \"cases\"\n");
    for (i, case) in cases.iter().enumerate() {
        s.write(&format!("cases/c{i}.in"), case.input());
        s.write(&format!("cases/c{i}.ans"), case.answer());
        if scored {
            toml.push_str(&format!(
                "[problem.p.group.g{i}]\ncases = \"c{i}.*\"\npoints = {}\n",
                10 * (i + 1)
            ));
        }
    }
    s.write("judge.toml", toml);
}

/// `judge run --format json` of `kind` with these settings, its cache in
/// `cache` (`--no-cache` when `fresh`).
fn judged(
    s: &Scratch,
    cache: &Path,
    kind: Kind,
    settings: &Settings,
    fresh: bool,
) -> serde_json::Value {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", cache)
        .env_remove("JUDGE_NO_CACHE")
        .args([
            "run",
            "--problem",
            "p",
            "--format",
            "json",
            "-j",
            "2",
            "--submission",
        ])
        .arg(program(kind))
        .args(settings.args());
    if fresh {
        cmd.arg("--no-cache");
    }
    let ran = run(cmd);
    let report = ran.json();
    assert!(
        report["cases"].is_array(),
        "no cases ({}):\n{}\n{}",
        ran.code,
        ran.stdout,
        ran.stderr
    );
    report
}

/// A message with every measured figure (CPU time used, peak memory,
/// how often the cgroup's limit was hit) replaced by `#`. Limits, exit
/// codes and line numbers stay: a message naming the old limit is a
/// disagreement.
fn normalised(message: &str) -> String {
    /// (text before, text after) a measured figure in the judge's messages.
    const MEASURED: [(&str, &str); 5] = [
        ("(", " used by"),
        ("reached with ", " of CPU time"),
        ("CPU time ", " ("),
        ("peak memory ", ""),
        ("hit (", " times)"),
    ];
    let mut out = String::new();
    let mut rest = message;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let digits = from
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(from.len());
        let len = digits
            + from[digits..]
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(from.len() - digits);
        let (figure, after) = from.split_at(len);
        let measured = MEASURED
            .iter()
            .any(|(pre, post)| out.ends_with(pre) && after.starts_with(post));
        out.push_str(if measured { "#" } else { figure });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[test]
fn measured_figures_are_normalised_and_limits_kept() {
    assert_eq!(
        normalised(
            "CPU time limit 0.300s exceeded (1.019s used by every process of the run, counted by its cgroup): killed"
        ),
        "CPU time limit 0.300s exceeded (# used by every process of the run, counted by its cgroup): killed"
    );
    assert_eq!(
        normalised(
            "memory limit 32MiB: the cgroup memory limit was hit (36 times); SIGKILL (signal 9)"
        ),
        "memory limit 32MiB: the cgroup memory limit was hit (# times); SIGKILL (signal 9)"
    );
    assert_eq!(
        normalised(
            "memory limit 64MiB: it failed with its peak memory 62.6MiB within 10% of the limit"
        ),
        "memory limit 64MiB: it failed with its peak memory # within 10% of the limit"
    );
    assert_eq!(
        normalised("wall-clock limit 4.000s reached with 0.001s of CPU time: killed"),
        "wall-clock limit 4.000s reached with # of CPU time: killed"
    );
}

/// What runs 2 and 3 must agree on: per case, and for the run.
fn outcome(report: &serde_json::Value) -> serde_json::Value {
    let mut cases: Vec<serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            serde_json::json!({
                "case": c["case"],
                "verdict": c["verdict"],
                "message": normalised(c["message"].as_str().unwrap_or_default()),
                "exit": c["exit"],
                "diff": c["diff"],
                "score": c["score"],
                "partial": c["partial"],
            })
        })
        .collect();
    cases.sort_by_key(|c| c["case"].as_str().unwrap_or_default().to_string());
    serde_json::json!({
        "verdict": report["verdict"],
        "scores": report["scores"],
        "cases": cases,
    })
}

static PAIRS: AtomicU64 = AtomicU64::new(0);
/// Verdicts of run 3 by program, and reuses of run 2 by perturbation:
/// shown at the end, to see what the cases covered.
static SEEN: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());

fn seen(what: String, n: u64) {
    *SEEN.lock().unwrap().entry(what).or_default() += n;
}
static REUSED: AtomicU64 = AtomicU64::new(0);
static RAN: AtomicU64 = AtomicU64::new(0);

fn reused_of(report: &serde_json::Value) -> (u64, u64) {
    (
        report["cache"]["ran"].as_u64().unwrap_or(0),
        report["cache"]["reused"].as_u64().unwrap_or(0),
    )
}

/// What each case measured (not compared: shown when runs disagree,
/// to tell a defect from a program near its limit).
fn measured(report: &serde_json::Value) -> String {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}: cpu {} ms, wall {} ms, peak {} KiB{}",
                c["case"].as_str().unwrap_or_default(),
                c["verdict"].as_str().unwrap_or_default(),
                c["cpu_ms"],
                c["wall_ms"],
                c["peak_rss_kib"],
                if c["cached"] == true { " (cached)" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

type Seen = (serde_json::Value, String);

/// Runs 1, 2 and 3 of `pair`; the outcomes of 2 and 3, each with what
/// it measured.
fn differential(pair: &Pair) -> (Seen, Seen) {
    let s = Scratch::new();
    let cache = tempfile::tempdir().unwrap();
    write_problem(&s, &pair.cases, pair.scored);
    judged(&s, cache.path(), pair.kind, &pair.settings, false);
    let (settings, cases) = pair.perturbed();
    write_problem(&s, &cases, pair.scored);
    let cached = judged(&s, cache.path(), pair.kind, &settings, false);
    let fresh = judged(&s, cache.path(), pair.kind, &settings, true);
    let (ran, reused) = reused_of(&cached);
    RAN.fetch_add(ran, Ordering::Relaxed);
    REUSED.fetch_add(reused, Ordering::Relaxed);
    PAIRS.fetch_add(1, Ordering::Relaxed);
    let perturbed = format!("{:?}", pair.perturbation);
    let perturbed = perturbed.split('(').next().unwrap_or_default();
    seen(format!("reused after {perturbed}"), reused);
    seen(format!("ran after {perturbed}"), ran);
    for case in fresh["cases"].as_array().unwrap() {
        seen(
            format!(
                "{} {}",
                pair.kind.name(),
                case["verdict"].as_str().unwrap_or("?")
            ),
            1,
        );
    }
    (
        (outcome(&cached), measured(&cached)),
        (outcome(&fresh), measured(&fresh)),
    )
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[test]
fn the_cache_gives_what_a_fresh_run_gives() {
    let cases = env_u64("CACHE_DIFF_CASES").unwrap_or(80) as u32;
    let seed = env_u64("CACHE_DIFF_SEED").unwrap_or(0x0040_cace);
    let config = Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        // A shrink step is three judge runs: a few go a long way.
        max_shrink_iters: 64,
        ..Config::default()
    };
    programs();
    let started = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    let result = runner.run(&pair(), |pair| {
        let (cached, fresh) = differential(&pair);
        if cached.0 != fresh.0 {
            return Err(TestCaseError::fail(format!(
                "the cache disagrees with a fresh run:\ncached: {:#}\nfresh: {:#}\n\
                 measured (cached, then fresh): {}\n{}",
                cached.0, fresh.0, cached.1, fresh.1
            )));
        }
        Ok(())
    });
    eprintln!(
        "{} pairs in {:.1} s; run 2: {} cases ran, {} reused",
        PAIRS.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        RAN.load(Ordering::Relaxed),
        REUSED.load(Ordering::Relaxed),
    );
    for (what, n) in SEEN.lock().unwrap().iter() {
        eprintln!("  {what}: {n}");
    }
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        REUSED.load(Ordering::Relaxed) > 0,
        "run 2 never reused a run: the test does not test the cache"
    );
}

/// One case of `kind` with `param`, judged under `settings`, then with
/// `perturbation`: the case's verdict with the cache and without.
fn regression(
    kind: Kind,
    param: u64,
    settings: Settings,
    perturbation: Perturbation,
) -> (String, String) {
    programs();
    let pair = Pair {
        kind,
        cases: vec![Case {
            param,
            lines: vec![vec![Token::Int(7)]],
            answer: Answer::Same,
        }],
        scored: false,
        settings,
        perturbation,
    };
    let (cached, fresh) = differential(&pair);
    assert_eq!(
        cached.0, fresh.0,
        "the cache disagrees with a fresh run ({pair:?}):\n{}\n{}",
        cached.1, fresh.1
    );
    let verdict = |o: &Seen| o.0["cases"][0]["verdict"].as_str().unwrap().to_string();
    (verdict(&cached), verdict(&fresh))
}

/// Address-space limits, the stack given (so that it does not follow
/// the memory limit into the key), as on a machine with no memory cgroup.
fn address_space(memory_mib: u64) -> Settings {
    Settings {
        time_ms: 1000,
        wall_ms: None,
        memory_mib,
        stack_mib: Some(8),
        output_kib: 1024,
        check: "tokens",
        tolerance: None,
        strict: false,
        plain: true,
    }
}

/// Found by the property test: a program that checks malloc printed
/// "no memory" under a 32 MiB address-space limit (WA, nothing measured
/// near the limit: it ended on its own), and that WA was reused under
/// 64 MiB, where a fresh run has the memory and is AC.
#[test]
fn a_failed_allocation_is_not_reused_under_more_memory() {
    let (cached, fresh) = regression(Kind::Block, 40, address_space(32), Perturbation::Memory(64));
    assert_eq!((cached.as_str(), fresh.as_str()), ("AC", "AC"));
}

/// An address-space MLE is the judge's reading of a failure with the
/// peak within 10% of the limit: blocks of 20 MiB peak at 61 MiB under
/// 64 MiB (MLE) but at 41 MiB under 48 MiB, where the abort is RE. The
/// MLE at 64 MiB was reused under 48 MiB.
#[test]
fn an_address_space_mle_is_not_reused_under_less_memory() {
    let (cached, fresh) = regression(
        Kind::Lumpy,
        100,
        address_space(64),
        Perturbation::Memory(48),
    );
    assert_eq!((cached.as_str(), fresh.as_str()), ("RE", "RE"));
}
