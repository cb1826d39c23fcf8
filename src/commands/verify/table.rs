//! The terminal table of `judge verify`: per problem, a row per submission
//! (status, expected, got, slowest case), then each disagreement, the
//! warnings, and one last line with the outcome (all `-q` prints).

use super::super::submissions::Submission;
use super::assess::Assessed;
use crate::config::{Problem, Span};
use crate::judge::{Report, Status, Verification};
use crate::text::format::plural;
use std::fmt::Write;

/// The verify outcome from each submission's: counts and OK or FAIL.
pub(super) fn verification(
    assessed: &[Assessed],
    interrupted: bool,
    allow_missing: bool,
    margin: f64,
) -> Verification {
    let count = |status: Status| {
        assessed
            .iter()
            .filter(|a| a.outcome.status == status)
            .count()
    };
    let agreed = count(Status::Ok);
    let disagreed = count(Status::Fail);
    let internal_errors = count(Status::InternalError);
    let not_run = count(Status::NotRun) + count(Status::Skipped);
    let ok = !interrupted && disagreed + internal_errors + count(Status::NotRun) == 0;
    Verification {
        outcome: if ok { "OK" } else { "FAIL" }.to_string(),
        ok,
        agreed,
        total: assessed.len(),
        disagreed,
        internal_errors,
        not_run,
        allow_missing,
        margin,
        submissions: assessed.iter().map(|a| a.outcome.clone()).collect(),
    }
}

/// The last line: `OK: 20 of 20 submissions as expected`, or `FAIL: …`
/// with what went wrong.
pub(super) fn last_line(v: &Verification, interrupted: bool) -> String {
    let mut tail = vec![format!(
        "{} of {} submissions as expected",
        v.agreed, v.total
    )];
    if v.disagreed > 0 {
        tail.push(format!(
            "{} disagree{}",
            v.disagreed,
            if v.disagreed == 1 { "s" } else { "" }
        ));
    }
    if v.internal_errors > 0 {
        tail.push(format!("{} with internal errors", v.internal_errors));
    }
    if v.not_run > 0 {
        tail.push(format!(
            "{} not run{}",
            v.not_run,
            if v.allow_missing {
                " (--allow-missing)"
            } else {
                ": a compiler or interpreter is missing"
            }
        ));
    }
    if interrupted {
        tail.push("interrupted".to_string());
    }
    format!("{}: {}", v.outcome, tail.join(", "))
}

/// What the table shows besides the outcomes.
pub(super) struct Context<'a> {
    pub problems: &'a [Problem],
    /// Cases per problem.
    pub cases: &'a [usize],
    pub all: &'a [Submission],
    pub report: &'a Report,
    pub margin: f64,
    /// Every case of every submission.
    pub verbose: bool,
}

/// The whole table, ending with the last line.
pub(super) fn render(
    context: &Context<'_>,
    assessed: &[Assessed],
    verification: &Verification,
) -> String {
    let Context {
        problems,
        cases,
        all,
        report,
        margin,
        verbose,
    } = *context;
    let mut text = String::new();
    let mut details = Vec::new();
    let mut warnings = Vec::new();
    for (p, problem) in problems.iter().enumerate() {
        let mine: Vec<usize> = (0..all.len()).filter(|&i| all[i].problem == p).collect();
        let _ = writeln!(
            text,
            "{}: {} submission{} on {} case{}, time limit {} (run at {})",
            problem.name,
            mine.len(),
            plural(mine.len()),
            cases[p],
            plural(cases[p]),
            Span(problem.limits.time),
            Span(problem.limits.time.mul_f64(margin)),
        );
        let width = mine
            .iter()
            .map(|&i| all[i].rel.chars().count())
            .max()
            .unwrap_or(10)
            .max(10);
        let expected_width = mine
            .iter()
            .map(|&i| all[i].expectation.to_string().chars().count())
            .max()
            .unwrap_or(8)
            .max(8);
        let _ = writeln!(
            text,
            "        {:<width$}  {:<expected_width$}  {:<18}  slowest",
            "submission", "expected", "got"
        );
        for &i in &mine {
            let s = &all[i];
            let a = &assessed[i];
            let o = &a.outcome;
            let name = format!("{}/{}", problem.name, s.rel);
            let reason = o.reason.as_deref().unwrap_or("");
            let got = match o.status {
                Status::NotRun | Status::Skipped => reason.to_string(),
                _ => o
                    .got
                    .iter()
                    .map(|(v, n)| format!("{} {n}", v.code()))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            let slow = a
                .slowest
                .as_ref()
                .map(|(case, cpu, ratio)| {
                    format!("{:.3}s {:>3.0}% {case}", cpu / 1000.0, ratio * 100.0)
                })
                .unwrap_or_default();
            for line in &a.sensitive {
                warnings.push(format!("{name} is sensitive to the time limit: {line}"));
            }
            match o.status {
                Status::Ok => {}
                Status::Fail => details.push(format!("  FAIL {name}: {reason}")),
                Status::InternalError => details.push(format!(
                    "  IE   {name}: an internal error, not the submission's fault: {reason}"
                )),
                Status::NotRun => details.push(format!(
                    "  MISS {name}: {reason} (install it, or pass --allow-missing to skip such submissions)"
                )),
                Status::Skipped => warnings.push(format!("{name} was {reason}")),
            }
            let _ = writeln!(
                text,
                "  {:<4}  {:<width$}  {:<expected_width$}  {got:<18}  {slow}",
                o.status.word(),
                s.rel,
                o.expected,
            );
            if verbose {
                for c in report
                    .cases
                    .iter()
                    .filter(|c| c.program.as_deref() == Some(s.label.as_str()))
                {
                    let _ = writeln!(
                        text,
                        "          {:<4} {} {:.3}s  {}",
                        c.verdict.code(),
                        c.case,
                        c.cpu_ms / 1000.0,
                        c.message
                    );
                }
            }
        }
        let _ = writeln!(text);
    }
    if !details.is_empty() {
        let _ = writeln!(text, "Disagreements:");
        for d in &details {
            let _ = writeln!(text, "{d}");
        }
        let _ = writeln!(text);
    }
    for w in &warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    let _ = writeln!(text, "{}", last_line(verification, report.interrupted));
    text
}
