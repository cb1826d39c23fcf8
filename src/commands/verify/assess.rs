//! Deciding one submission: its graded verdicts against what it is
//! expected to get, with the case that disagreed and why, the cases
//! sensitive to the time limit, and its slowest case.

use super::super::submissions::Submission;
use crate::config::Span;
use crate::expect::{Disagreement, Expectation, Origin};
use crate::judge::regrade;
use crate::judge::{CaseResult, Status, SubmissionOutcome};
use crate::text::format::plural;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::time::Duration;

/// How one submission did, for the table and the report.
pub(super) struct Assessed {
    pub outcome: SubmissionOutcome,
    /// Cases whose verdict differs between the limit and the margin.
    pub sensitive: Vec<String>,
    /// The slowest case that ran: (case, cpu ms, share of the limit).
    pub slowest: Option<(String, f64, f64)>,
}

/// The report's record of a submission, before it is decided.
fn outcome(problem: &str, submission: &Submission, status: Status) -> SubmissionOutcome {
    let e: &Expectation = &submission.expectation;
    SubmissionOutcome {
        problem: problem.to_string(),
        program: submission.label.clone(),
        path: submission.rel.clone(),
        expected: e.to_string(),
        expected_from: match e.origin {
            Origin::Folder(_) | Origin::NamedFolder(_) => "folder",
            Origin::Comment => "comment",
            Origin::ExpectedResults => "@EXPECTED_RESULTS@",
            Origin::SubmissionsYaml => "submissions.yaml",
            Origin::Table => "judge.toml",
        }
        .to_string(),
        permitted: e.permitted.clone(),
        required: e.required.clone(),
        agrees: status == Status::Ok,
        status,
        got: BTreeMap::new(),
        reason: None,
        case: None,
        case_index: None,
    }
}

/// A submission that could not run here: a failure, or skipped when
/// missing tools are allowed.
pub(super) fn not_run(
    problem: &str,
    submission: &Submission,
    why: &str,
    allow_missing: bool,
) -> Assessed {
    // --allow-missing forgives a missing compiler or interpreter, never a
    // submission the judge cannot build as laid out.
    let status = if allow_missing && super::super::submissions::missing_tool(why) {
        Status::Skipped
    } else {
        Status::NotRun
    };
    let mut outcome = outcome(problem, submission, status);
    outcome.reason = Some(format!("not run: {why}"));
    Assessed {
        outcome,
        sensitive: Vec::new(),
        slowest: None,
    }
}

/// Decide a submission from its results as run (`raw`, at the margin) and
/// graded at the limit, in case order.
pub(super) fn assess(
    problem: &str,
    submission: &Submission,
    raw: &[&CaseResult],
    graded: &[CaseResult],
) -> Assessed {
    let mut counts = BTreeMap::new();
    for g in graded {
        *counts.entry(g.verdict).or_insert(0) += 1;
    }
    let mut out = outcome(problem, submission, Status::Ok);
    let judged: Vec<Verdict> = graded.iter().map(|g| g.verdict).collect();
    if let Some(g) = graded.iter().find(|g| g.verdict == Verdict::InternalError) {
        out.status = Status::InternalError;
        out.reason = Some(format!("{}: {}", g.case, g.message));
        out.case = Some(g.case.clone());
        out.case_index = Some(g.index);
    } else if graded.iter().any(|g| g.verdict == Verdict::Skipped) {
        out.status = Status::Fail;
        out.reason = Some("not every case ran (interrupted)".to_string());
    } else {
        match submission.expectation.assess(&judged) {
            Ok(()) => {}
            Err(Disagreement::Forbidden { position, verdict }) => {
                let g = &graded[position];
                out.status = Status::Fail;
                out.reason = Some(format!(
                    "expected {}; got {} on {}: {}",
                    submission.expectation,
                    submission.expectation.dialect.show(verdict),
                    g.case,
                    g.message
                ));
                out.case = Some(g.case.clone());
                out.case_index = Some(g.index);
            }
            Err(Disagreement::Missing { required }) => {
                out.status = Status::Fail;
                out.reason = Some(missing(&required, &counts, graded));
            }
        }
    }
    out.agrees = out.status == Status::Ok;
    out.got = counts;
    Assessed {
        outcome: out,
        sensitive: sensitive(raw, graded),
        slowest: slowest(graded),
    }
}

/// Why a submission that never got a required verdict fails: what it got
/// instead, and its slowest case (a TLE expected is usually missed there).
fn missing(
    required: &[Verdict],
    counts: &BTreeMap<Verdict, usize>,
    graded: &[CaseResult],
) -> String {
    let codes: Vec<&str> = required.iter().map(|v| v.code()).collect();
    let got: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{} {n}", v.code()))
        .collect();
    let slowest = slowest(graded)
        .map(|(case, cpu, ratio)| {
            format!(
                "; slowest {case} {:.3}s ({:.0}% of the limit)",
                cpu / 1000.0,
                ratio * 100.0
            )
        })
        .unwrap_or_default();
    format!(
        "expected {} on some case; got {} on {} case{}{slowest}",
        codes.join(" or "),
        if got.is_empty() {
            "nothing".to_string()
        } else {
            got.join(", ")
        },
        graded.len(),
        plural(graded.len()),
    )
}

/// The cases whose verdict at the limit differs from the one at the margin.
fn sensitive(raw: &[&CaseResult], graded: &[CaseResult]) -> Vec<String> {
    raw.iter()
        .zip(graded)
        .filter(|(r, g)| regrade::sensitive(r, g))
        .map(|(r, g)| {
            format!(
                "{} takes {:.3}s CPU ({:.3}s wall): {} at the limit {}, {} at the margin {}",
                g.case,
                r.cpu_ms / 1000.0,
                r.wall_ms / 1000.0,
                g.verdict.code(),
                Span(Duration::from_secs_f64(g.time_limit_ms / 1000.0)),
                r.verdict.code(),
                Span(Duration::from_secs_f64(r.time_limit_ms / 1000.0)),
            )
        })
        .collect()
}

fn slowest(graded: &[CaseResult]) -> Option<(String, f64, f64)> {
    graded
        .iter()
        .filter(|g| {
            !matches!(
                g.verdict,
                Verdict::CompileError | Verdict::InternalError | Verdict::Skipped
            )
        })
        .max_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms))
        .map(|g| (g.case.clone(), g.cpu_ms, g.tl_ratio))
}
