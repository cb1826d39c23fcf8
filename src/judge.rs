//! The orchestration: a rayon pool over (case × program) jobs, streaming
//! events to a reporter as each case starts and finishes, and the final
//! report with every case in case order whatever the finishing order.
//!
//! Workers take jobs in order from a shared counter, so `--fail-fast` stops
//! launching at the first failure and an interrupt leaves a clean prefix
//! run. This module decides nothing itself: `exec` runs, `check` judges,
//! `report` renders.

use crate::cases::Case;
use crate::check::tool::ToolContext;
use crate::check::{self, CaseFiles, CheckPlan, Judgement};
use crate::config::Problem;
use crate::exec::sandbox::Sandbox;
use crate::exec::{MemorySource, RunError, RunOutcome, RunRequest, Runner};
use crate::puzzles::Figure;
use crate::score::{Partial, ScoreReport, ScoringPlan};
use crate::verdict::ExitCode;
use crate::verdict::{self, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub mod regrade;
mod scoring;
pub mod verified;

use scoring::{Failures, left_for_the_score, score_cases};
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
    pub jobs: Vec<Job>,
    /// Where external checkers run (on the worker's slot, after the
    /// program); `None` when no problem has one.
    pub tools: Option<Arc<Sandbox>>,
    /// Whether results name their program: when a problem is judged by
    /// several (`judge verify`), not when each problem simply has its own
    /// reference (a default `judge run`).
    pub label_programs: bool,
}

/// How to run a plan.
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Worker threads (`-j`); 0 means one per core.
    pub jobs: usize,
    pub fail_fast: bool,
    /// Set by the signal handler (Ctrl-C): stop launching, mark the rest.
    pub interrupted: Option<Arc<AtomicBool>>,
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
    /// An interactive case's dialogue (bounded; `→` validator to
    /// submission, `←` back), for a case that did not pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
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
}

/// What reporters receive, in this order: one `Started`, then for each case
/// a `CaseStarted` and a `CaseFinished` (cases interleave across workers),
/// then one `Finished`.
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
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
}

impl Report {
    /// Build from results in case order.
    pub fn new(
        info: RunInfo,
        cases: Vec<CaseResult>,
        interrupted: bool,
        elapsed: Duration,
    ) -> Report {
        let mut summary = BTreeMap::new();
        for c in &cases {
            *summary.entry(c.verdict).or_insert(0) += 1;
        }
        Report {
            // A scoring problem's cases left unjudged by its rules do not
            // make the overall verdict: the failure that stopped them does.
            verdict: verdict::overall(
                cases
                    .iter()
                    .filter(|c| !left_for_the_score(c))
                    .map(|c| c.verdict),
            )
            .unwrap_or(Verdict::Accepted),
            summary,
            cases,
            info,
            interrupted,
            elapsed_ms: ms(elapsed),
            verify: None,
            scores: Vec::new(),
        }
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
        report.scores = scores;
        report
    }

    /// The exit code of `judge run` for this report: 0 all AC, 1 some
    /// other verdict, 3 an internal error, 130 interrupted.
    pub fn exit_code(&self) -> ExitCode {
        if self.interrupted {
            ExitCode::Interrupted
        } else if self.summary.contains_key(&Verdict::InternalError) {
            ExitCode::Internal
        } else if self.verdict.is_accepted() {
            ExitCode::Ok
        } else {
            ExitCode::Failed
        }
    }
}

use crate::text::format::millis as ms;

/// Run the plan, streaming events to `reporter`.
pub fn run(
    plan: &Plan,
    info: RunInfo,
    options: &RunOptions,
    reporter: &mut dyn Reporter,
) -> std::io::Result<Report> {
    let started = Instant::now();
    let threads = if options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.jobs
    };
    let info = RunInfo {
        total: plan.jobs.len(),
        jobs: threads,
        ..info
    };
    reporter.event(&Event::Started(&info))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("judge-worker-{i}"))
        .build()
        .map_err(std::io::Error::other)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failures = &Failures::default();
    let total = plan.jobs.len();
    let mut results: Vec<Option<CaseResult>> = vec![None; total];
    let mut report_error = None;
    let (tx, rx) = mpsc::channel::<Message>();
    let interrupted = || {
        options
            .interrupted
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    };
    pool.in_place_scope(|scope| {
        for _ in 0..threads.min(total.max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move |_| {
                loop {
                    if stop.load(Ordering::SeqCst) || interrupted() {
                        break;
                    }
                    let position = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = plan.jobs.get(position) else {
                        break;
                    };
                    if tx.send(Message::Started(position)).is_err() {
                        break;
                    }
                    let slot = rayon::current_thread_index().unwrap_or(0);
                    let result = match failures.stopping(plan, job, options.fail_fast) {
                        Some(why) => skipped(plan, job, &why),
                        None => run_job(plan, job, slot),
                    };
                    failures.note(plan, job, &result);
                    // On a scoring problem --fail-fast works per group
                    // (`stopped_by_rules`): the other groups still score.
                    if options.fail_fast
                        && plan.problems[job.problem].scoring.is_none()
                        && !result.verdict.is_accepted()
                        && result.verdict != Verdict::Skipped
                    {
                        stop.store(true, Ordering::SeqCst);
                    }
                    if tx
                        .send(Message::Finished(position, Box::new(result)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for message in rx {
            if report_error.is_some() {
                // Keep draining so the workers finish; the error is returned below.
                if let Message::Finished(position, result) = message {
                    results[position] = Some(*result);
                }
                continue;
            }
            let sent = match message {
                Message::Started(position) => {
                    let job = &plan.jobs[position];
                    reporter.event(&Event::CaseStarted {
                        index: job.index,
                        problem: &plan.problems[job.problem].name,
                        case: &job.case.name,
                    })
                }
                Message::Finished(position, result) => {
                    done += 1;
                    let outcome = reporter.event(&Event::CaseFinished {
                        result: &result,
                        done,
                        total,
                    });
                    results[position] = Some(*result);
                    outcome
                }
            };
            if let Err(e) = sent {
                report_error = Some(e);
            }
        }
    });
    if let Some(e) = report_error {
        return Err(e);
    }
    let was_interrupted = interrupted();
    // Collected in place (same size, one pass): a large run does not hold
    // its results twice.
    let cases: Vec<CaseResult> = results
        .into_iter()
        .enumerate()
        .map(|(position, result)| {
            result.unwrap_or_else(|| {
                let why = if was_interrupted {
                    "not run: the judge was interrupted"
                } else {
                    "not run: --fail-fast stopped after the first failure"
                };
                skipped(plan, &plan.jobs[position], why)
            })
        })
        .collect();
    let report = Report::scored(info, cases, was_interrupted, started.elapsed());
    reporter.event(&Event::Finished(&report))?;
    Ok(report)
}

enum Message {
    Started(usize),
    Finished(usize, Box<CaseResult>),
}

fn skipped(plan: &Plan, job: &Job, why: &str) -> CaseResult {
    let problem = &plan.problems[job.problem];
    base_result(
        plan,
        job,
        Judgement::new(Verdict::Skipped, why),
        None,
        problem,
    )
}

fn base_result(
    plan: &Plan,
    job: &Job,
    judgement: Judgement,
    outcome: Option<&RunOutcome>,
    problem: &Problem,
) -> CaseResult {
    let limit = problem.limits.time;
    let (cpu, wall) = outcome.map_or((Duration::ZERO, Duration::ZERO), |o| (o.cpu, o.wall));
    let stderr = outcome
        .filter(|o| !o.stderr_tail.is_empty())
        .map(|o| String::from_utf8_lossy(&o.stderr_tail).into_owned());
    CaseResult {
        index: job.index,
        problem: problem.name.clone(),
        case: job.case.name.clone(),
        verdict: judgement.verdict,
        message: judgement.message,
        cpu_ms: ms(cpu),
        wall_ms: ms(wall),
        peak_rss_kib: outcome.and_then(|o| o.peak_rss_kib),
        memory_source: outcome.map_or(MemorySource::None, |o| o.memory_source),
        tl_ratio: (cpu.as_secs_f64() / limit.as_secs_f64() * 1000.0).round() / 1000.0,
        time_limit_ms: ms(limit),
        exit: outcome.map(|o| o.exit.describe()),
        program: plan
            .label_programs
            .then(|| plan.programs[job.program].label.clone()),
        diff: judgement.diff,
        stderr,
        figures: judgement.figures,
        transcript: judgement.transcript,
        passes: None,
        partial: judgement.partial,
        score: None,
    }
}

/// Run one job and judge it.
pub fn run_job(plan: &Plan, job: &Job, slot: usize) -> CaseResult {
    let problem = &plan.problems[job.problem];
    if problem.comparison.needs_answer() && job.case.answer.is_none() {
        let judgement = Judgement::new(
            Verdict::InternalError,
            format!(
                "no answer file for {} (expected {} or .out beside it); not run",
                job.case.name,
                job.case.input.with_extension("ans").display()
            ),
        );
        return base_result(plan, job, judgement, None, problem);
    }
    let program = &plan.programs[job.program];
    if let Some(error) = &program.compile_error {
        let mut result = base_result(
            plan,
            job,
            Judgement::new(Verdict::CompileError, error.message.clone()),
            None,
            problem,
        );
        result.stderr = (!error.output.is_empty()).then(|| error.output.clone());
        return result;
    }
    let comparison = job
        .case
        .settings
        .as_deref()
        .and_then(|s| s.comparison.as_ref())
        .unwrap_or(&problem.comparison);
    if let check::Comparison::Interactive(interaction) = comparison {
        return interactive_job(plan, job, slot, interaction);
    }
    let outcome = program.runner.run(&RunRequest {
        input: &job.case.input,
        limits: &problem.limits,
        slot,
    });
    match outcome {
        Err(RunError::Interrupted) => skipped(plan, job, "not run: the judge was interrupted"),
        Err(RunError::Internal(message)) => base_result(
            plan,
            job,
            Judgement::new(Verdict::InternalError, message),
            None,
            problem,
        ),
        Ok(outcome) => {
            let settings = job.case.settings.as_deref();
            let judgement = check::classify_run(&outcome, &problem.limits).unwrap_or_else(|| {
                check::check_output(
                    CheckPlan {
                        comparison: settings
                            .and_then(|s| s.comparison.as_ref())
                            .unwrap_or(&problem.comparison),
                        puzzle: problem.puzzle,
                        lexmin: problem.lexmin,
                        strict: settings.and_then(|s| s.strict).unwrap_or(problem.strict),
                        tools: plan
                            .tools
                            .as_deref()
                            .map(|sandbox| ToolContext { sandbox, slot }),
                    },
                    &CaseFiles {
                        input: &job.case.input,
                        answer: job.case.answer.as_deref(),
                    },
                    &outcome.stdout,
                )
            });
            base_result(plan, job, judgement, Some(&outcome), problem)
        }
    }
}

/// Run one case of an interactive or multi-pass problem and judge it.
fn interactive_job(
    plan: &Plan,
    job: &Job,
    slot: usize,
    interaction: &check::interactive::Interaction,
) -> CaseResult {
    let problem = &plan.problems[job.problem];
    let program = &plan.programs[job.program];
    let Some(sandbox) = plan.tools.as_deref() else {
        let judgement = Judgement::new(
            Verdict::InternalError,
            "an interactive validator needs a sandbox to run in (internal error)",
        );
        return base_result(plan, job, judgement, None, problem);
    };
    let done = check::interactive::run_case(
        interaction,
        program.runner.as_ref(),
        ToolContext { sandbox, slot },
        &job.case.input,
        job.case.answer.as_deref(),
        &problem.limits,
    );
    let mut result = base_result(plan, job, done.judgement, done.outcome.as_ref(), problem);
    if interaction.passes > 1 {
        result.passes = Some(done.passes);
    }
    result
}

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
