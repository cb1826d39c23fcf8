//! `judge limits PROBLEM`: derive a time limit from the accepted
//! submissions and check the time_limit_exceeded ones against it.
//!
//! The accepted submissions run under `--ceiling` (each case `--repeat`
//! times; a case's time is the median of its runs, its minimum shown
//! beside); the limit is the slowest case × `--multiplier`, rounded up to a
//! multiple of `--round`. The submissions that must time out then run once
//! at the limit × `--margin` and are graded at the limit from the measured
//! times: one that does not time out at the limit is a disagreement (exit
//! 1); one that times out at the limit but finishes within the margin is
//! "sensitive to the time limit" (a warning with the times). `--write`
//! puts the limit into judge.toml, keeping its comments and layout.

mod problem;

use crate::cases::Case;
use crate::cli::LimitsArgs;
use crate::commands::stdout::{out, outln};
use crate::commands::submissions::{self, Entrant, Readiness, Submission, Trial};
use crate::commands::{Failure, Outcome, load_config};
use crate::config::{Overrides, Problem, Span};
use crate::exec::Limits;
use crate::exec::interrupt::Interrupt;
use crate::exec::sandbox::Sandbox;
use crate::judge::{CaseResult, regrade};
use crate::submission::Toolchain;
use crate::text::format::plural;
use crate::verdict::ExitCode;
use crate::verdict::Verdict;
use problem::{chosen, problem_cases};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub fn limits(config_path: Option<&Path>, args: LimitsArgs) -> Outcome {
    check_args(&args)?;
    let config = load_config(config_path, &Overrides::default())?;
    let (problem, package) = chosen(config.as_ref(), &args)?;
    if args.write && package.is_some() {
        return Err(Failure::Usage(format!(
            "judge limits --write: {} is a package; its time limit is in its own files ({}, .timelimit, {}), which the judge does not write; run without --write and set the limit there",
            args.problem,
            crate::formats::kattis::PROBLEM_YAML,
            crate::formats::polygon::PROBLEM_XML
        )));
    }
    let mut warnings = Vec::new();
    let cases = problem_cases(config.as_ref(), &problem, package.as_deref(), &mut warnings)?;
    let toolchain = crate::config::toolchain(config.as_ref());
    let found = submissions::discover(&problem, 0, &toolchain, &mut warnings)?;
    let (accepted, slow) = accepted_and_slow(&problem, found)?;
    let trials = trials(config.as_ref(), &problem, cases, toolchain, &args)?;
    let mut out = String::new();
    let (slowest, mut failed) =
        measure_accepted(&trials, &accepted, &args, &mut out, &mut warnings)?;
    let Some(slowest) = slowest else {
        out!("{out}");
        for w in &warnings {
            crate::commands::stdout::say!("warning: {w}");
        }
        crate::commands::stdout::say!(
            "judge: no accepted submission passed: no time limit derived"
        );
        return Ok(ExitCode::Failed);
    };
    let limit = derive_limit(
        crate::units::saturating_seconds(slowest.median_ms / 1000.0),
        args.multiplier,
        args.round.0,
    );
    let whose = if package.is_some() {
        "the package"
    } else {
        "judge.toml"
    };
    explain_limit(&mut out, &slowest, &args, limit, problem.limits.time, whose);
    failed |= check_slow(&trials, &slow, limit, args.margin, &mut out, &mut warnings)?;
    out!("{out}");
    for w in &warnings {
        outln!("warning: {w}");
    }
    if args.write {
        let Some(config) = config.as_ref().filter(|_| package.is_none()) else {
            return Err(Failure::Usage(
                "judge limits --write needs judge.toml".into(),
            ));
        };
        write_limit(&config.path, &problem.name, limit)?;
        outln!(
            "wrote time_limit = \"{}\" to [problem.{}] in {}",
            Span(limit),
            problem.name,
            config.path.display()
        );
    }
    Ok(if failed {
        ExitCode::Failed
    } else {
        ExitCode::Ok
    })
}

/// The judging sandbox (hiding judge.toml, the cases and the submissions)
/// and what every trial of `problem` runs with.
fn trials(
    config: Option<&crate::config::Config>,
    problem: &Problem,
    cases: Vec<Case>,
    toolchain: Toolchain,
    args: &LimitsArgs,
) -> Result<Trials, Failure> {
    let cases = vec![cases];
    let hidden = crate::commands::sandbox::Hidden {
        config,
        problems: std::slice::from_ref(problem),
        cases: crate::commands::sandbox::HiddenCases::Made(&cases),
        submissions: true,
        extra: Vec::new(),
    };
    let (interrupt, sandbox) = crate::commands::sandbox::trial_sandbox(&hidden, args.jobs)?;
    Ok(Trials {
        problems: vec![problem.clone()],
        cases,
        toolchain,
        sandbox,
        interrupt,
        jobs: args.jobs.unwrap_or(0),
    })
}

/// The line that says how `limit` was derived, beside judge.toml's `current`.
fn explain_limit(
    out: &mut String,
    slowest: &Slowest,
    args: &LimitsArgs,
    limit: Duration,
    current: Duration,
    whose: &str,
) {
    let _ = writeln!(
        out,
        "time limit: slowest {:.3}s ({} on {}) × {} = {:.3}s, rounded up to {} ({whose} has {})",
        slowest.median_ms / 1000.0,
        slowest.label,
        slowest.case,
        args.multiplier,
        slowest.median_ms / 1000.0 * args.multiplier,
        Span(limit),
        Span(current)
    );
}

fn check_args(args: &LimitsArgs) -> Result<(), Failure> {
    for (flag, value) in [("--multiplier", args.multiplier), ("--margin", args.margin)] {
        if crate::units::factor(value, 1.0).is_none() {
            return Err(Failure::Usage(format!(
                "{flag} {value:?}: a factor from 1 to {} is needed",
                crate::units::MAX_FACTOR
            )));
        }
    }
    if args.repeat == 0 {
        return Err(Failure::Usage(
            "--repeat 0: run each case at least once".into(),
        ));
    }
    if args.round.0.is_zero() || args.ceiling.0.is_zero() {
        return Err(Failure::Usage(
            "--round and --ceiling must be greater than zero".into(),
        ));
    }
    Ok(())
}

/// The submissions expected to pass (at least one), and those that must
/// time out.
fn accepted_and_slow(
    problem: &Problem,
    found: Vec<Submission>,
) -> Result<(Vec<Submission>, Vec<Submission>), Failure> {
    let (accepted, rest): (Vec<Submission>, Vec<Submission>) =
        found.into_iter().partition(|s| s.expectation.is_accepted());
    let slow = rest
        .into_iter()
        .filter(|s| s.expectation.requires_time_limit())
        .collect();
    if accepted.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: no accepted submissions in {} to derive a time limit from",
            problem.name,
            problem.submissions.display()
        )));
    }
    Ok((accepted, slow))
}

/// What the trials share: one problem, its cases, the sandbox.
struct Trials {
    problems: Vec<Problem>,
    cases: Vec<Vec<Case>>,
    toolchain: Toolchain,
    sandbox: Arc<Sandbox>,
    interrupt: Interrupt,
    jobs: usize,
}

impl Trials {
    /// Build the submissions, then judge them all under `limits`; each
    /// case `repeat` times.
    fn run(
        &self,
        subs: &[Submission],
        limits: &Limits,
        repeat: usize,
        warnings: &mut Vec<String>,
    ) -> Result<(Trial, Vec<String>), Failure> {
        let (entrants, labels) = ready_entrants(subs, &self.toolchain, &self.sandbox, warnings)?;
        let trial = submissions::trial(
            &self.problems,
            &self.cases,
            std::slice::from_ref(limits),
            entrants,
            repeat,
            self.jobs,
            Some(self.interrupt.flag()),
            &self.sandbox,
            // `judge limits` measures: every run is done again.
            None,
        )?;
        if trial.report.interrupted {
            return Err(Failure::Interrupted);
        }
        Ok((trial, labels))
    }
}

/// The slowest case of the accepted submissions: its median CPU time.
struct Slowest {
    median_ms: f64,
    label: String,
    case: String,
}

/// Step 1: the accepted submissions, under the ceiling. Each one's slowest
/// case, and the slowest of all (none when no submission passed); true
/// when one of them failed.
fn measure_accepted(
    trials: &Trials,
    accepted: &[Submission],
    args: &LimitsArgs,
    out: &mut String,
    warnings: &mut Vec<String>,
) -> Result<(Option<Slowest>, bool), Failure> {
    let problem = &trials.problems[0];
    let ceiling = Limits {
        time: args.ceiling.0,
        wall: Limits::default_wall(args.ceiling.0),
        ..problem.limits.clone()
    };
    let (trial, labels) = trials.run(accepted, &ceiling, args.repeat, warnings)?;
    let cases = trials.cases[0].len();
    let _ = writeln!(
        out,
        "{}: {} accepted submission{} on {cases} case{}{}",
        problem.name,
        labels.len(),
        plural(labels.len()),
        plural(cases),
        if args.repeat > 1 {
            format!(", each case run {} times (min / median)", args.repeat)
        } else {
            String::new()
        }
    );
    let mut slowest: Option<Slowest> = None;
    let mut failed = false;
    for (label, runs) in labels.iter().zip(&trial.results) {
        if let Some(bad) = runs
            .iter()
            .flatten()
            .find(|r| r.verdict != Verdict::Accepted)
        {
            failed = true;
            let _ = writeln!(
                out,
                "  FAIL {label}: {} on {} under the ceiling {}: {}",
                bad.verdict.code(),
                bad.case,
                Span(args.ceiling.0),
                bad.message
            );
            continue;
        }
        let timed = runs.iter().filter(|r| !r.is_empty()).map(|r| {
            let (min, median) = min_median(r);
            (r[0].case.clone(), min, median)
        });
        if let Some((case, min, median)) = timed.max_by(|a, b| a.2.total_cmp(&b.2)) {
            let times = if args.repeat > 1 {
                format!("{:.3}s / {:.3}s", min / 1000.0, median / 1000.0)
            } else {
                format!("{:.3}s", median / 1000.0)
            };
            let _ = writeln!(out, "  ok   {label}: slowest {case} {times}");
            if slowest.as_ref().is_none_or(|s| median > s.median_ms) {
                slowest = Some(Slowest {
                    median_ms: median,
                    label: label.clone(),
                    case,
                });
            }
        }
    }
    Ok((slowest, failed))
}

/// Step 2: the submissions that must time out, at the margin of the derived
/// limit, graded at the limit; true when one of them does not time out.
/// The wall clock is a safety net against sleepers: never tighter than the
/// problem's own.
fn check_slow(
    trials: &Trials,
    slow: &[Submission],
    limit: Duration,
    margin: f64,
    out: &mut String,
    warnings: &mut Vec<String>,
) -> Result<bool, Failure> {
    if slow.is_empty() {
        return Ok(false);
    }
    let problem = &trials.problems[0];
    let at_limit = Limits {
        time: limit,
        wall: Limits::default_wall(limit).max(problem.limits.wall),
        ..problem.limits.clone()
    };
    let at_margin = regrade::at_margin(&at_limit, margin);
    let (trial, labels) = trials.run(slow, &at_margin, 1, warnings)?;
    let mut failed = false;
    for (label, runs) in labels.iter().zip(&trial.results) {
        let raw: Vec<&CaseResult> = runs.iter().filter_map(|r| r.first()).collect();
        let graded: Vec<CaseResult> = raw.iter().map(|r| regrade::regrade(r, &at_limit)).collect();
        let timed_out = graded
            .iter()
            .filter(|g| g.verdict == Verdict::TimeLimit)
            .count();
        if timed_out == 0 {
            failed = true;
            let slowest = raw
                .iter()
                .max_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms))
                .map(|r| format!("; slowest {} {:.3}s", r.case, r.cpu_ms / 1000.0))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  FAIL {label}: does not time out at {}{slowest}",
                Span(limit)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "  ok   {label}: TLE on {timed_out} of {} case{} at {}",
            graded.len(),
            plural(graded.len()),
            Span(limit)
        );
        let within: Vec<String> = raw
            .iter()
            .zip(&graded)
            .filter(|(r, g)| g.verdict == Verdict::TimeLimit && r.verdict != Verdict::TimeLimit)
            .map(|(r, _)| format!("{} {:.3}s", r.case, r.cpu_ms / 1000.0))
            .collect();
        if !within.is_empty() {
            warnings.push(format!(
                "{label} is sensitive to the time limit: it times out at {} but finishes within the margin {} on {}",
                Span(limit),
                Span(at_margin.time),
                within.join(", ")
            ));
        }
    }
    Ok(failed)
}

/// Build submissions and keep those that can run (the others are warned
/// about); returns the entrants and their labels.
fn ready_entrants(
    list: &[Submission],
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Entrant>, Vec<String>), Failure> {
    let mut entrants = Vec::new();
    let mut labels = Vec::new();
    for (s, ready) in list
        .iter()
        .zip(submissions::build_all(list, toolchain, sandbox)?)
    {
        match ready {
            Readiness::Ready(program) => {
                labels.push(s.rel.clone());
                entrants.push(Entrant {
                    problem: s.problem,
                    program,
                });
            }
            Readiness::NotRun(why) => warnings.push(format!("{} was not run: {why}", s.rel)),
        }
    }
    Ok((entrants, labels))
}

/// The minimum and the median CPU time (ms) of a case's runs.
pub fn min_median(runs: &[CaseResult]) -> (f64, f64) {
    let mut times: Vec<f64> = runs.iter().map(|r| r.cpu_ms).collect();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    (times[0], median)
}

/// `slowest × multiplier`, rounded up to a multiple of `round` (at least
/// one `round`).
pub fn derive_limit(slowest: Duration, multiplier: f64, round: Duration) -> Duration {
    let wanted = slowest.as_secs_f64() * multiplier;
    let step = round.as_secs_f64();
    // A hair of tolerance so that 0.3 × 1 is not rounded up to 0.4.
    let steps = ((wanted / step) - 1e-9).ceil().max(1.0);
    crate::units::saturating_seconds(steps * step)
}

/// Set `time_limit` in `[problem.NAME]` of judge.toml, keeping the rest of
/// the file as it is, and write it atomically.
pub fn write_limit(path: &Path, problem: &str, limit: Duration) -> Result<(), Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Usage(format!("{}: cannot read: {e}", path.display())))?;
    let updated = set_time_limit(&text, problem, limit)
        .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    crate::report::write_atomically(path, updated.as_bytes())
        .map_err(|e| Failure::Internal(format!("{}: cannot write: {e}", path.display())))
}

/// Why `time_limit` could not be set in judge.toml's text.
#[derive(Debug, thiserror::Error)]
pub enum SetLimitError {
    /// The text is not TOML (toml_edit's message: line, column, what).
    #[error("{0}")]
    Parse(#[source] toml_edit::TomlError),
    /// No `[problem.NAME]` table for the problem.
    #[error("no [problem.{0}] table")]
    NoTable(String),
}

/// The text of judge.toml with `time_limit` of `[problem.NAME]` set (the
/// value's comments and spacing kept, or a new key at the table's end).
pub fn set_time_limit(text: &str, problem: &str, limit: Duration) -> Result<String, SetLimitError> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(SetLimitError::Parse)?;
    let table = doc
        .get_mut("problem")
        .and_then(|p| p.get_mut(problem))
        .and_then(|t| t.as_table_like_mut())
        .ok_or_else(|| SetLimitError::NoTable(problem.to_string()))?;
    let value = Span(limit).to_string();
    match table.get_mut("time_limit") {
        Some(item) => {
            let decor = item.as_value().map(|v| v.decor().clone());
            let mut new = toml_edit::Value::from(value);
            if let Some(decor) = decor {
                *new.decor_mut() = decor;
            }
            *item = toml_edit::Item::Value(new);
        }
        None => {
            table.insert("time_limit", toml_edit::value(value));
        }
    }
    Ok(doc.to_string())
}
