//! The runner's part in scoring problems: not launching cases the rules
//! will not judge (`on_reject: break`, a failed prerequisite, `--fail-fast`
//! per group), and scoring a finished run's cases per problem and program
//! (`score::ScoringPlan` decides; this marks the cases and collects).

use super::{CaseResult, Job, Plan, ProblemInfo};
use crate::score::{CaseInput, ScoreReport, ScoringPlan};
use crate::verdict::Verdict;

/// How a case `--fail-fast` left unrun in a scoring group starts.
pub(super) const FAIL_FAST_GROUP: &str = "not run: --fail-fast stopped group";

/// A scoring problem's case that its rules will not judge, given the
/// failures so far (`on_reject: break`, `require_pass`, and with
/// `--fail-fast` a group whose score is decided): not launched. Grading
/// marks the same cases whatever the timing, so skipping only saves time.
pub(super) fn stopped_by_rules(
    plan: &Plan,
    job: &Job,
    failures: &std::sync::Mutex<Vec<(usize, usize, String)>>,
    fail_fast: bool,
) -> Option<String> {
    let scoring = plan.problems[job.problem].scoring.as_ref()?;
    let failures = failures.lock().ok()?;
    let mine = failures
        .iter()
        .filter(|(problem, program, _)| *problem == job.problem && *program == job.program);
    for (_, _, failed) in mine {
        if scoring.stopped_by(&job.case.name, failed) {
            return Some(format!(
                "not judged: {failed} failed before it (the problem's grading stops here)"
            ));
        }
        if fail_fast && let Some(group) = scoring.fail_fast_group(&job.case.name, failed) {
            return Some(format!(
                "{FAIL_FAST_GROUP} {group} after {failed} failed (its score is decided)"
            ));
        }
    }
    None
}

/// Remember a scoring problem's failed case for `stopped_by_rules`.
pub(super) fn note_failure(
    plan: &Plan,
    job: &Job,
    result: &CaseResult,
    failures: &std::sync::Mutex<Vec<(usize, usize, String)>>,
) {
    if plan.problems[job.problem].scoring.is_some()
        && !result.verdict.is_accepted()
        && result.verdict != Verdict::Skipped
        && let Ok(mut failures) = failures.lock()
    {
        failures.push((job.problem, job.program, job.case.name.clone()));
    }
}

/// Score each (problem, program) of `cases` whose problem has a plan; see
/// `Report::scored`.
pub(super) fn score_cases(problems: &[ProblemInfo], cases: &mut [CaseResult]) -> Vec<ScoreReport> {
    let mut reports = Vec::new();
    for problem in problems {
        let Some(plan) = &problem.scoring else {
            continue;
        };
        let mut programs: Vec<Option<String>> = Vec::new();
        for c in cases.iter().filter(|c| c.problem == problem.name) {
            if !programs.contains(&c.program) {
                programs.push(c.program.clone());
            }
        }
        for program in programs {
            let positions: Vec<usize> = (0..cases.len())
                .filter(|&i| cases[i].problem == problem.name && cases[i].program == program)
                .collect();
            let mut own: Vec<CaseResult> = positions.iter().map(|&i| cases[i].clone()).collect();
            let mut report = score_program(plan, &mut own);
            for (i, case) in positions.into_iter().zip(own) {
                cases[i] = case;
            }
            report.problem = problem.name.clone();
            report.program = program;
            reports.push(report);
        }
    }
    reports
}

/// Score one program's cases of one problem (in case order): each case's
/// points, and the cases the rules leave unjudged marked SKIP with the
/// reason. The report names neither problem nor program.
pub fn score_program(plan: &ScoringPlan, cases: &mut [CaseResult]) -> ScoreReport {
    let inputs: Vec<CaseInput<'_>> = cases
        .iter()
        .map(|c| CaseInput {
            name: &c.case,
            verdict: c.verdict,
            partial: c.partial,
        })
        .collect();
    let scored = plan.evaluate(&inputs);
    for (case, score) in cases.iter_mut().zip(&scored.case_scores) {
        case.score = *score;
    }
    for (k, why) in scored.not_judged {
        let case = &mut cases[k];
        case.verdict = Verdict::Skipped;
        case.message = why;
        case.score = None;
    }
    scored.report
}

/// Whether a SKIP is the grading rules' (a group that stopped, a
/// prerequisite not passed), not a case left unrun by an interrupt.
pub fn not_judged_by_rules(case: &CaseResult) -> bool {
    case.verdict == Verdict::Skipped && case.message.starts_with("not judged")
}
