//! Deciding one submission: its graded verdicts against what it is
//! expected to get, with the case that disagreed and why, the cases
//! sensitive to the time limit, and its slowest case.

use super::super::submissions::Submission;
use crate::config::Span;
use crate::expect::{Disagreement, Expectation, NodeExpectation, Origin};
use crate::judge::regrade;
use crate::judge::{CaseResult, Status, SubmissionOutcome, not_judged_by_rules};
use crate::score::{SUBTASKS, ScoreReport};
use crate::text::format::out_of;
use crate::text::format::plural;
use crate::verdict::Verdict;
use std::collections::BTreeMap;

/// How one submission did, for the table and the report.
pub(super) struct Assessed {
    pub outcome: SubmissionOutcome,
    /// Cases whose verdict differs between the limit and the margin.
    pub sensitive: Vec<String>,
    /// The slowest case that ran: (case, cpu ms, share of the limit).
    pub slowest: Option<(String, f64, f64)>,
    /// Expectations not checked, and why (a test data node `--filter`
    /// left no case of).
    pub unchecked: Vec<String>,
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
        score: None,
        max_score: None,
        expected_score: expected_score(e),
    }
}

/// What score a submission is expected to get, as people read it.
fn expected_score(e: &Expectation) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(r) = e.score {
        parts.push(r.to_string());
    }
    for (group, r) in &e.group_scores {
        parts.push(format!("{group} {r}"));
    }
    if e.origin == Origin::NamedFolder("partially_accepted") && parts.is_empty() {
        parts.push("some points, not all".to_string());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// How a submission's score stands against what it is expected to get.
enum ScoreCheck {
    /// It agrees, or nothing is expected of it.
    Agrees,
    /// It disagrees, and why.
    Disagrees(String),
    /// Scoring itself had a judge error: not the submission's fault.
    JudgeError(String),
}

fn score_check(e: &Expectation, score: Option<&ScoreReport>) -> ScoreCheck {
    match score_disagreement(e, score) {
        Err(error) => ScoreCheck::JudgeError(error),
        Ok(Some(why)) => ScoreCheck::Disagrees(why),
        Ok(None) => ScoreCheck::Agrees,
    }
}

/// Why a submission's score disagrees with what it is expected to get, if
/// it does; `Err`: a judge error in scoring.
fn score_disagreement(
    e: &Expectation,
    score: Option<&ScoreReport>,
) -> Result<Option<String>, String> {
    let wants_score = e.score.is_some() || !e.group_scores.is_empty();
    let Some(s) = score else {
        return Ok(wants_score.then(|| {
            "expected a score, but the problem is not a scoring one (no type: scoring, no [problem.X.group.*])".to_string()
        }));
    };
    if let Some(error) = s.errors.first() {
        return Err(format!("scoring: {error}"));
    }
    let got = |score: f64, max: Option<f64>| out_of(score, max, "/");
    if let Some(range) = e.score
        && !range.contains(s.score)
    {
        return Ok(Some(format!(
            "expected score {range}; got {}",
            got(s.score, s.max_score)
        )));
    }
    for (name, range) in &e.group_scores {
        let Some(g) = s.groups.iter().find(|g| &g.name == name) else {
            return Ok(Some(format!(
                "expected group {name} to score {range}; the problem has no such group"
            )));
        };
        if !range.contains(g.score) {
            return Ok(Some(format!(
                "expected {range} on group {name}; got {}{}",
                got(g.score, g.max_score),
                g.note
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            )));
        }
    }
    if e.origin == Origin::NamedFolder("partially_accepted") && e.score.is_none() {
        // Kattis: the grader's verdict AC and the score below the maximum;
        // subtasks: some points, not all.
        let subtasks = s.model == SUBTASKS;
        let accepted = s.verdict == Some(Verdict::Accepted) || subtasks;
        let some = !subtasks || s.score > 1e-9;
        if !(accepted && !s.is_full() && some) {
            return Ok(Some(format!(
                "expected a partial score (some points, not all, accepted by the grader); got {}{}",
                got(s.score, s.max_score),
                s.verdict
                    .filter(|v| *v != Verdict::Accepted)
                    .map(|v| format!(", the grader's verdict {}", v.code()))
                    .unwrap_or_default()
            )));
        }
    }
    Ok(None)
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
        unchecked: Vec::new(),
    }
}

/// Decide a submission from its results as run (`raw`, at the margin) and
/// graded at the limit, in case order. `filtered`: `--filter` chose the
/// cases, so none of them may show a required verdict, and a test data
/// node may have none among them: such expectations are reported as not
/// checked, not as disagreements.
pub(super) fn assess(
    problem: &str,
    submission: &Submission,
    raw: &[&CaseResult],
    graded: &[CaseResult],
    score: Option<ScoreReport>,
    filtered: bool,
) -> Assessed {
    let mut unchecked = Vec::new();
    let mut counts = BTreeMap::new();
    for g in graded {
        *counts.entry(g.verdict).or_insert(0) += 1;
    }
    let mut out = outcome(problem, submission, Status::Ok);
    // Cases a scoring problem's rules leave unjudged count as nothing.
    let judged_cases: Vec<&CaseResult> =
        graded.iter().filter(|g| !not_judged_by_rules(g)).collect();
    let e = &submission.expectation;
    // On a scoring problem partially_accepted/ is a score (some points,
    // not all), not a verdict pattern: partial credit may come with every
    // case accepted.
    let by_score = score.is_some() && e.origin == Origin::NamedFolder("partially_accepted");
    let checked = score_check(e, score.as_ref());
    if graded.is_empty() {
        // Judged on nothing: never "as expected", whatever it expects.
        let why = "judged on no case: nothing shows what it gets";
        settle(&mut out, Status::Fail, why.to_string(), None);
    } else if let Some(g) = graded.iter().find(|g| g.verdict == Verdict::InternalError) {
        let why = format!("{}: {}", g.case, g.message);
        settle(&mut out, Status::InternalError, why, Some(g));
    } else if graded
        .iter()
        .any(|g| g.verdict == Verdict::Skipped && !not_judged_by_rules(g))
    {
        settle(&mut out, Status::Fail, INTERRUPTED.to_string(), None);
    } else if let ScoreCheck::JudgeError(why) = &checked {
        settle(&mut out, Status::InternalError, why.clone(), None);
    } else if let ScoreCheck::Disagrees(why) = &checked {
        settle(&mut out, Status::Fail, why.clone(), None);
    } else if !by_score
        && let Some((why, case)) = pattern_disagreement(
            submission,
            &judged_cases,
            &counts,
            graded,
            filtered,
            &mut unchecked,
        )
    {
        settle(&mut out, Status::Fail, why, case);
    }
    // What the submission must get on named test data nodes, on top.
    if out.status == Status::Ok
        && let Some((why, case)) = node_disagreement(e, graded, filtered, &mut unchecked)
    {
        settle(&mut out, Status::Fail, why, case);
    }
    if is_bad(&submission.rel) && out.status != Status::InternalError && !interrupted(&out) {
        let judged: Vec<Verdict> = judged_cases.iter().map(|g| g.verdict).collect();
        bad_inverted(&mut out, e, &judged);
    }
    out.agrees = out.status == Status::Ok;
    out.got = counts;
    if let Some(s) = &score {
        out.score = Some(s.score);
        out.max_score = s.max_score;
    }
    Assessed {
        outcome: out,
        sensitive: sensitive(raw, graded),
        slowest: slowest(graded),
        unchecked,
    }
}

/// The decision: its status, why, and the case at fault (if one is).
fn settle(out: &mut SubmissionOutcome, status: Status, why: String, case: Option<&CaseResult>) {
    out.status = status;
    out.reason = Some(why);
    if let Some(c) = case {
        out.case = Some(c.case.clone());
        out.case_index = Some(c.index);
    }
}

/// Why the verdicts of the judged cases (those a scoring problem's rules
/// do not leave unjudged) disagree with the expectation's pattern, and the
/// case at fault. A required verdict that the cases `--filter` chose do
/// not show is said in `unchecked`, not failed (every case run still had
/// to be permitted).
fn pattern_disagreement<'g>(
    submission: &Submission,
    judged_cases: &[&'g CaseResult],
    counts: &BTreeMap<Verdict, usize>,
    graded: &[CaseResult],
    filtered: bool,
    unchecked: &mut Vec<String>,
) -> Option<(String, Option<&'g CaseResult>)> {
    let judged: Vec<Verdict> = judged_cases.iter().map(|g| g.verdict).collect();
    match submission.expectation.assess(&judged) {
        Ok(()) => None,
        Err(Disagreement::Forbidden { position, verdict }) => {
            // `position` is among the judged cases, not all graded.
            let g = judged_cases.get(position).copied();
            let why = format!(
                "expected {}; got {} on {}: {}",
                submission.expectation,
                submission.expectation.dialect.show(verdict),
                g.map_or("?", |g| g.case.as_str()),
                g.map_or("", |g| g.message.as_str())
            );
            Some((why, g))
        }
        Err(Disagreement::Missing { required }) if filtered => {
            unchecked.push(format!(
                "the required verdict was not checked: {}",
                missing(&required, counts, graded)
            ));
            None
        }
        Err(Disagreement::Missing { required }) => Some((missing(&required, counts, graded), None)),
    }
}

/// Why the cases of a test data node the expectation names (submissions.yaml
/// `sample: {permitted: [AC]}`) disagree with it, and the case at fault.
/// A node with no case cannot show a required verdict: that disagrees too,
/// unless `--filter` chose the cases (`filtered`): then an empty node, or
/// a required verdict its cases run do not show, is not checked, and
/// `unchecked` says so (a permitted verdict is always checked).
fn node_disagreement<'g>(
    e: &Expectation,
    graded: &'g [CaseResult],
    filtered: bool,
    unchecked: &mut Vec<String>,
) -> Option<(String, Option<&'g CaseResult>)> {
    for node in &e.nodes {
        let Ok(matcher) = node.matcher() else {
            continue;
        };
        let cases: Vec<&CaseResult> = graded
            .iter()
            .filter(|g| !not_judged_by_rules(g))
            .filter(|g| NodeExpectation::covers(&matcher, &g.case))
            .collect();
        let expected = Expectation {
            permitted: node.permitted.clone(),
            required: node.required.clone(),
            origin: Origin::SubmissionsYaml,
            dialect: e.dialect,
            score: None,
            group_scores: Vec::new(),
            nodes: Vec::new(),
        };
        if cases.is_empty() && filtered {
            unchecked.push(format!(
                "the expectation on {} ({expected}) was not checked: --filter left none of its cases",
                node.pattern
            ));
            continue;
        }
        let verdicts: Vec<Verdict> = cases.iter().map(|g| g.verdict).collect();
        match expected.assess(&verdicts) {
            Ok(()) => {}
            Err(Disagreement::Forbidden { position, verdict }) => {
                let g = cases.get(position).copied()?;
                return Some((
                    format!(
                        "expected {expected} on {}; got {} on {}: {}",
                        node.pattern,
                        e.dialect.show(verdict),
                        g.case,
                        g.message
                    ),
                    Some(g),
                ));
            }
            Err(Disagreement::Missing { required }) if filtered => {
                let codes: Vec<&str> = required.iter().map(|v| v.code()).collect();
                unchecked.push(format!(
                    "the required {} on {} was not checked: --filter chose the cases, and none of those run shows it",
                    codes.join(" or "),
                    node.pattern
                ));
            }
            Err(Disagreement::Missing { required }) => {
                let codes: Vec<&str> = required.iter().map(|v| v.code()).collect();
                let got = node_got(&verdicts);
                return Some((
                    format!(
                        "expected {} on {} (required); {got}",
                        codes.join(" or "),
                        node.pattern
                    ),
                    None,
                ));
            }
        }
    }
    None
}

/// What a node's cases got, for the message of a required verdict missed.
fn node_got(verdicts: &[Verdict]) -> String {
    if verdicts.is_empty() {
        return "no case is in it".to_string();
    }
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    for v in verdicts {
        *counts.entry(*v).or_insert(0) += 1;
    }
    let got: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{n} {}", v.code()))
        .collect();
    format!("got {}", got.join(", "))
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
                Span(crate::units::saturating_seconds(g.time_limit_ms / 1000.0)),
                r.verdict.code(),
                Span(crate::units::saturating_seconds(r.time_limit_ms / 1000.0)),
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

const INTERRUPTED: &str = "not every case ran (interrupted)";

fn interrupted(out: &SubmissionOutcome) -> bool {
    out.reason.as_deref() == Some(INTERRUPTED)
}

/// A `.bad.` submission (`accepted/wa.bad.py`): BAPCtools' deliberate
/// one, which must NOT get what its folder expects (BAPCtools' own test
/// suite runs `bt run X.bad.py` and expects it to fail; `bt run` of all
/// submissions runs it like any other). A `.bad` as the last or the
/// second-to-last suffix of the file or directory name, as BAPCtools
/// tells them.
pub(super) fn is_bad(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let suffixes: Vec<&str> = name.split('.').skip(1).collect();
    matches!(suffixes.as_slice(), [.., "bad"] | [.., "bad", _])
}

/// A `.bad.` submission agrees when it misses its folder's expectation,
/// and disagrees when it meets it; each is said.
fn bad_inverted(out: &mut SubmissionOutcome, e: &Expectation, judged: &[Verdict]) {
    let got = judged
        .iter()
        .copied()
        .find(|v| *v != Verdict::Accepted)
        .unwrap_or(Verdict::Accepted);
    if out.status == Status::Ok {
        out.status = Status::Fail;
        out.reason = Some(format!(
            "a `.bad.` submission, meant to miss its folder's verdict ({e}), met it: got {}",
            e.dialect.show(got)
        ));
    } else {
        out.status = Status::Ok;
        out.reason = Some(format!(
            "a `.bad.` submission, meant to miss its folder's verdict: got {}",
            e.dialect.show(got)
        ));
        out.case = None;
        out.case_index = None;
    }
}

#[cfg(test)]
mod bad_tests {
    #[test]
    fn bad_is_the_last_or_second_to_last_suffix() {
        for bad in ["accepted/wa.bad.py", "wrong_answer/x.bad", "a/b.c.bad.cpp"] {
            assert!(super::is_bad(bad), "{bad}");
        }
        for good in [
            "accepted/bad.py",
            "accepted/wa.bad.py.disabled",
            "bad/x.py",
            "a/b.bad.c.cpp",
        ] {
            assert!(!super::is_bad(good), "{good}");
        }
    }
}
