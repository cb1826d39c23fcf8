//! The orchestration: a rayon pool over (case × program) jobs, streaming
//! events to a reporter as each case starts and finishes, and the final
//! report with every case in case order whatever the finishing order.
//!
//! Workers take jobs in order from a shared counter, so `--fail-fast` stops
//! launching at the first failure and an interrupt leaves a clean prefix
//! run. This module decides nothing itself: `exec` runs, `check` judges,
//! `report` renders.

use crate::cases::Case;
use crate::config::Problem;
use crate::exec::sandbox::Sandbox;
use crate::exec::{MemorySource, Runner};
use crate::puzzles::Figure;
use crate::score::{Partial, ScoreReport, ScoringPlan};
use crate::verdict::ExitCode;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub mod cache;
pub mod digest;
mod held;
mod job;
mod jobs;
mod pool;
pub mod regrade;
mod scoring;
pub mod verified;

pub use digest::Digest;
pub use job::run_job;
pub use jobs::{Jobs, LazyJobs};
pub use pool::run;
use scoring::score_cases;
pub use scoring::{not_judged_by_rules, score_program};

pub use verified::{Status, SubmissionOutcome, Verification};

/// A program to run: the submission, a reference solution or a built-in solver.
#[derive(Clone)]
pub struct Program {
    pub runner: Arc<dyn Runner>,
    /// What to call it in reports.
    pub label: String,
    /// The source did not compile: every case is CE and nothing runs.
    pub compile_error: Option<CompileError>,
}

impl Program {
    pub fn new(runner: Arc<dyn Runner>, label: impl Into<String>) -> Program {
        Program {
            runner,
            label: label.into(),
            compile_error: None,
        }
    }
}

pub use crate::submission::CompileError;

/// One unit of work: a case of a problem, run by a program.
#[derive(Clone, Debug)]
pub struct Job {
    /// The position of the case in the whole (unsharded) run.
    pub index: usize,
    pub problem: usize,
    pub program: usize,
    pub case: Case,
}

/// Everything a run needs.
pub struct Plan {
    pub problems: Vec<Problem>,
    pub programs: Vec<Program>,
    pub jobs: Jobs,
    /// Where external checkers run (on the worker's slot, after the
    /// program); `None` when no problem has one.
    pub tools: Option<Arc<Sandbox>>,
    /// Whether results name their program: when a problem is judged by
    /// several (`judge verify`), not when each problem simply has its own
    /// reference (a default `judge run`).
    pub label_programs: bool,
    /// The run cache (`--no-cache`: none): runs and checks kept by content.
    pub cache: Option<Arc<cache::RunCache>>,
}

/// How to run a plan.
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Worker threads (`-j`); 0 means one per core.
    pub jobs: usize,
    pub fail_fast: bool,
    /// Set by the signal handler (Ctrl-C): stop launching, mark the rest.
    pub interrupted: Option<Arc<AtomicBool>>,
    /// Keep every case's result in `Report::cases` (commands that look at
    /// each case afterwards: verify, limits, stress). Without it a run
    /// keeps only its [`Digest`], and reporters get each case once in
    /// `Event::CaseSettled`: memory stays flat however many cases run.
    pub keep_cases: bool,
    /// Leave the worker threads and launchers to the scheduler instead of
    /// a core each (`--no-pin`; see `exec::affinity`).
    pub unpinned: bool,
}

impl RunOptions {
    pub fn is_interrupted(&self) -> bool {
        self.interrupted
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// One case's result: the JSON report's `cases` array, a stable interface.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseResult {
    /// The case's position in the whole (unsharded) run: `judge merge`
    /// orders shard reports by it.
    pub index: usize,
    pub problem: String,
    /// The input's path relative to the problem's cases root.
    pub case: String,
    pub verdict: Verdict,
    pub message: String,
    /// CPU time (user + system), milliseconds.
    pub cpu_ms: f64,
    pub wall_ms: f64,
    /// Peak memory in KiB, if measured.
    pub peak_rss_kib: Option<u64>,
    pub memory_source: MemorySource,
    /// CPU time / time limit.
    pub tl_ratio: f64,
    pub time_limit_ms: f64,
    /// `exit code 3` / `SIGSEGV (signal 11)`, when the program ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The program (submission) that ran, when a report holds several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// The first differing hunk, for WA/PE of text comparisons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The end of the program's standard error (lossy UTF-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<Figure>,
    /// An interactive case's dialogue (bounded), for a case that did not
    /// pass: a line each, `{"at": seconds, "from": "validator" |
    /// "submission" | "judge", "text": ...}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Vec<crate::exec::interactive::Line>>,
    /// A multi-pass case: the passes run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
    /// Partial credit the checker gave (scoring problems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
    /// The case's points, on a scoring problem (absent when the case
    /// counts toward no score).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The run was not done again: it was taken from the run cache, with
    /// the time and memory measured when it ran.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

/// What reporters receive, in this order: one `Started`, then for each case
/// a `CaseStarted` and a `CaseFinished` (cases interleave across workers,
/// in the order they happen) and a `CaseSettled` (in case order, every
/// case exactly once, with its final verdict), then one `Finished`.
pub enum Event<'a> {
    Started(&'a RunInfo),
    CaseStarted {
        index: usize,
        problem: &'a str,
        case: &'a str,
    },
    CaseFinished {
        result: &'a CaseResult,
        done: usize,
        total: usize,
    },
    /// A case's final result, in case order: sent once every case before
    /// it has settled. Cases never launched (an interrupt, `--fail-fast`)
    /// settle as SKIP at the end; a scored run's cases settle at the end,
    /// after grading (which may turn a case into SKIP).
    CaseSettled(&'a CaseResult),
    Finished(&'a Report),
}

/// Facts about a run known before it starts.
#[derive(Clone, Debug, Serialize, Deserialize, Default)]
pub struct RunInfo {
    pub total: usize,
    pub jobs: usize,
    pub programs: Vec<String>,
    pub problems: Vec<ProblemInfo>,
    /// Protections in force and off, from the sandbox.
    #[serde(default)]
    pub protections: crate::exec::sandbox::Protections,
    /// Where the slots and their programs run (README "Cores"): each
    /// program on its slot's core, or on the judge's CPUs.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cores: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
    /// A shard's: how many cases the whole run has, every shard together
    /// (`judge merge` checks the shards add up to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_cases: Option<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A problem as reports describe it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ProblemInfo {
    pub name: String,
    pub check: String,
    pub time_limit_ms: f64,
    pub memory_limit_kib: Option<u64>,
    /// The time limit the cases ran under when it differs from the limit
    /// (`judge verify` runs at the limit × its margin, then grades at the
    /// limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_time_limit_ms: Option<f64>,
    /// Where the time limit comes from (`problem.yaml limits.time_limit`,
    /// `judge.toml time_limit`, …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub time_limit_from: String,
    /// How the problem's cases add up to a score (scoring problems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<ScoringPlan>,
}

/// A reporter consumes events; it renders, it never decides.
pub trait Reporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()>;
}

/// The whole run: the JSON report's top-level object.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Overall: the first non-AC verdict in case order, AC if all are.
    pub verdict: Verdict,
    /// Count per verdict code (only verdicts that occur).
    pub summary: BTreeMap<Verdict, usize>,
    /// Every case in case order, when the run kept them
    /// (`RunOptions::keep_cases`, a merge, a report read back); empty
    /// otherwise, when the cases went to reporters one by one.
    pub cases: Vec<CaseResult>,
    #[serde(flatten)]
    pub info: RunInfo,
    pub interrupted: bool,
    pub elapsed_ms: f64,
    /// `judge verify`'s outcome: each submission's expectation and whether
    /// it agreed (absent from other commands' reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<Verification>,
    /// Each program's score on each scoring problem.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<ScoreReport>,
    /// How the run cache served the run (absent with `--no-cache`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheUse>,
    /// The bounded summary the human and HTML reports draw.
    #[serde(skip)]
    pub digest: Digest,
}

/// What the run cache did in a run: the JSON report's `cache`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheUse {
    /// Cases whose program ran.
    pub ran: usize,
    /// Cases whose run was taken from the cache (each marked `cached`).
    pub reused: usize,
    /// Cached runs run again by `--recheck`.
    #[serde(default)]
    pub rechecked: usize,
    /// External checks (checkers, output validators) run, and verdicts
    /// taken from the cache.
    #[serde(default)]
    pub checks_ran: usize,
    #[serde(default)]
    pub checks_reused: usize,
    /// The re-checked runs that disagreed with their cached result, each
    /// named (program, problem, case) with how.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<String>,
}

impl Report {
    /// Build from results in case order.
    pub fn new(
        info: RunInfo,
        cases: Vec<CaseResult>,
        interrupted: bool,
        elapsed: Duration,
    ) -> Report {
        Report::from_digest(info, Digest::of(&cases), cases, interrupted, elapsed)
    }

    /// Build from a run's digest and the cases it kept (maybe none). A
    /// scoring problem's cases left unjudged by its rules do not make the
    /// overall verdict: the failure that stopped them does (`Digest`).
    pub fn from_digest(
        info: RunInfo,
        digest: Digest,
        cases: Vec<CaseResult>,
        interrupted: bool,
        elapsed: Duration,
    ) -> Report {
        Report {
            verdict: digest.verdict(),
            summary: digest.summary.clone(),
            cases,
            info,
            interrupted,
            elapsed_ms: ms(elapsed),
            verify: None,
            scores: Vec::new(),
            cache: None,
            digest,
        }
    }

    /// The number of cases in the report (kept or not).
    pub fn total(&self) -> usize {
        self.summary.values().sum()
    }

    /// Build from results in case order and score every scoring problem
    /// (`ProblemInfo::scoring`) per program: each case's points, the cases
    /// the rules leave unjudged marked SKIP with the reason, and one
    /// `ScoreReport` per problem and program. `judge merge` builds the same
    /// way, so shards add up exactly as one run.
    pub fn scored(
        info: RunInfo,
        mut cases: Vec<CaseResult>,
        interrupted: bool,
        elapsed: Duration,
    ) -> Report {
        let scores = score_cases(&info.problems, &mut cases);
        let mut report = Report::new(info, cases, interrupted, elapsed);
        report.set_scores(scores);
        report
    }

    /// Take a run's scores. A judge error in scoring (a score file where
    /// none may be, a score over its maximum, a multiplier outside 0..1:
    /// the spec's judge errors) makes the run's verdict IE, as a judge
    /// error in a case does: not an accepted run worth its points.
    pub fn set_scores(&mut self, scores: Vec<ScoreReport>) {
        if scores.iter().any(|s| !s.errors.is_empty()) {
            self.verdict = Verdict::InternalError;
        }
        self.scores = scores;
    }

    /// The exit code of `judge run` for this report: 0 all AC, 1 some
    /// other verdict, 3 an internal error, 130 interrupted.
    pub fn exit_code(&self) -> ExitCode {
        if self.interrupted {
            ExitCode::Interrupted
        } else if self.summary.contains_key(&Verdict::InternalError)
            || self.verdict == Verdict::InternalError
        {
            ExitCode::Internal
        } else if self.verdict.is_accepted() {
            ExitCode::Ok
        } else {
            ExitCode::Failed
        }
    }
}

use crate::text::format::millis as ms;

/// Describe a problem for reports.
pub fn problem_info(problem: &Problem) -> ProblemInfo {
    ProblemInfo {
        name: problem.name.clone(),
        check: problem.comparison.name().to_string(),
        time_limit_ms: ms(problem.limits.time),
        memory_limit_kib: problem.limits.memory.map(|m| m / 1024),
        run_time_limit_ms: None,
        time_limit_from: problem.time_limit_from.clone(),
        scoring: problem.scoring.clone(),
    }
}

#[cfg(test)]
mod tests;
