//! Scoring problems: how cases' verdicts and partial credit add up to
//! points (docs/scoring.md says it in full, with every decision).
//!
//! Two models, each the aggregation of a family of contest tools:
//!
//! - [`Graders`]: Kattis/problemtools' legacy and 2023-07 grading. Every
//!   directory of `data/` is a group with its `testdata.yaml` settings
//!   (inherited key by key); a group's result is its default grader applied
//!   to its items (subgroups and cases, in lexicographic order): a verdict
//!   mode (`worst_error`, `first_error`, `always_accept`), a score mode
//!   (`sum`, `avg`, `min`, `max`), `ignore_sample`, `accept_if_any_accepted`,
//!   `accept_score` / `reject_score` for cases without a `score.txt`,
//!   `range` checked, and `on_reject: break` stopping the group at its first
//!   rejected item.
//! - [`Subtasks`]: the 2025-09 format's `secret` and its groups
//!   (`max_score`, `score_aggregation` `pass-fail` / `sum` / `min`,
//!   `require_pass`), and judge.toml's `[problem.X.group.NAME]` (cases by
//!   glob, `points`, `aggregation`, `requires`), as CMS and Polygon grade
//!   subtasks.
//!
//! Partial credit comes from the checker as [`Partial`]: points
//! (`score.txt`) or a fraction of the case's maximum (`score_multiplier.txt`,
//! testlib's `quitp` and `_pc`). A case that was not run never counts: its
//! score is 0 and the report says the score is incomplete.
//!
//! This layer decides scores; it neither runs nor renders. It uses only
//! `verdict`.

use crate::text::format::number;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

pub mod graders;
pub mod subtasks;

pub use graders::{GraderGroup, GraderSettings, Graders, ScoreMode, VerdictMode};
pub use subtasks::{Aggregation, Globs, GlobsError, Subtask, Subtasks};

/// Partial credit a checker gave an accepted case.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Partial {
    /// Points, as written (`score.txt`).
    Points(f64),
    /// A fraction of the case's maximum, 0 to 1 (`score_multiplier.txt`,
    /// testlib `quitp(x)` and `_pc(k)` as k / 100).
    Fraction(f64),
}

impl Partial {
    pub fn describe(self) -> String {
        match self {
            Partial::Points(p) => format!("{} points", number(p)),
            Partial::Fraction(f) => format!("{}% of the case's points", number(f * 100.0)),
        }
    }
}

/// `ScoreReport::model` of the Kattis default grader's scores.
pub const KATTIS_GRADER: &str = "kattis grader";
/// `ScoreReport::model` of subtasks' scores.
pub const SUBTASKS: &str = "subtasks";

/// How a problem's cases become a score.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum ScoringPlan {
    Graders(Graders),
    Subtasks(Subtasks),
}

impl ScoringPlan {
    /// The most a submission can score, when bounded.
    pub fn max_score(&self) -> Option<f64> {
        match self {
            ScoringPlan::Graders(g) => g.max_score(),
            ScoringPlan::Subtasks(s) => s.max_score(),
        }
    }

    /// Whether case `name` may be left unlaunched because the case
    /// `failed` was rejected: a group that stops at its first rejection
    /// (`on_reject: break`) or a prerequisite (`require_pass`) decides it
    /// will not be judged. Exact: skipping it changes no score.
    pub fn stopped_by(&self, name: &str, failed: &str) -> bool {
        match self {
            ScoringPlan::Graders(g) => g.stopped_by(name, failed),
            ScoringPlan::Subtasks(s) => s.stopped_by(name, failed),
        }
    }

    /// `--fail-fast` on a scoring problem: the group of case `name` when a
    /// failure of `failed` already decides its score (the same group,
    /// graded by its minimum or pass-fail; a Kattis group), so `name`
    /// need not run. A `sum` group goes on: its other cases still score.
    pub fn fail_fast_group(&self, name: &str, failed: &str) -> Option<String> {
        match self {
            ScoringPlan::Graders(g) => g.fail_fast_group(name, failed),
            ScoringPlan::Subtasks(s) => s.fail_fast_group(name, failed),
        }
    }

    /// What a failure of `failed` can stop (`stopped_by`,
    /// `fail_fast_group`) and how much of it, the smaller the more: two
    /// failures of one scope stop the same cases, or the one with the
    /// smaller order stops more. So the runner keeps one failure a scope,
    /// not one a failed case, however many cases fail.
    pub fn failure_scope(&self, failed: &str) -> (String, String) {
        match self {
            ScoringPlan::Graders(g) => g.failure_scope(failed),
            ScoringPlan::Subtasks(s) => (s.failure_scope(failed), String::new()),
        }
    }

    /// Whether the group called `group` holds the case `name` (for
    /// reports that show a group's cases).
    pub fn in_group(&self, group: &str, name: &str) -> bool {
        match self {
            ScoringPlan::Graders(_) => group.is_empty() || name.starts_with(&format!("{group}/")),
            ScoringPlan::Subtasks(s) => s
                .groups
                .iter()
                .chain([&s.total])
                .find(|g| g.name == group)
                .is_some_and(|g| g.select.matches(name)),
        }
    }

    /// Score the cases of one program on one problem.
    pub fn evaluate(&self, cases: &[CaseInput<'_>]) -> Scored {
        match self {
            ScoringPlan::Graders(g) => g.evaluate(cases),
            ScoringPlan::Subtasks(s) => s.evaluate(cases),
        }
    }
}

/// One case as scoring sees it, in the run's case order.
#[derive(Clone, Copy, Debug)]
pub struct CaseInput<'a> {
    /// The case's name relative to the problem's cases root (`secret/g1/1.in`).
    pub name: &'a str,
    pub verdict: Verdict,
    pub partial: Option<Partial>,
}

/// What scoring decided: the score report, each case's score (in the
/// order given) and the cases that are not judged because of the rules
/// (marked SKIP with the reason).
#[derive(Clone, Debug, Default)]
pub struct Scored {
    pub report: ScoreReport,
    /// Each case's points (`None`: the case does not count toward a score).
    pub case_scores: Vec<Option<f64>>,
    /// Cases the rules leave unjudged: (position, reason).
    pub not_judged: Vec<(usize, String)>,
}

impl Scored {
    /// Nothing decided yet for `cases` cases, by `model`.
    fn new(cases: usize, model: &str, max_score: Option<f64>) -> Scored {
        let mut scored = Scored {
            case_scores: vec![None; cases],
            ..Scored::default()
        };
        scored.report.model = model.to_string();
        scored.report.max_score = max_score;
        scored
    }
}

impl ScoreReport {
    /// Whether the submission got the whole maximum (and scoring had no
    /// judge error).
    pub fn is_full(&self) -> bool {
        self.max_score
            .is_some_and(|max| !exceeds(max, self.score) && self.errors.is_empty())
    }
}

/// A program's score on a problem: the JSON report's `scores` entries.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ScoreReport {
    pub problem: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    pub score: f64,
    /// The most the submission could score (`None`: unbounded).
    pub max_score: Option<f64>,
    /// `kattis grader` or `subtasks`.
    pub model: String,
    /// The grader's verdict of the whole (Kattis), or AC when every
    /// counted case passed.
    pub verdict: Option<Verdict>,
    pub groups: Vec<GroupScore>,
    /// Some case was not run (interrupted, `--fail-fast`): the score
    /// counts only what ran.
    #[serde(default)]
    pub incomplete: bool,
    /// Judge errors in scoring (a score over its maximum, a score file
    /// where none may be): the score is not to be trusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// One group's line of the score table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupScore {
    /// `secret/group1`, or a judge.toml group's name.
    pub name: String,
    pub score: f64,
    pub max_score: Option<f64>,
    /// `min`, `sum`, `pass-fail` (subtasks), or the grader's flags.
    pub aggregation: String,
    /// The group's verdict: AC when every case passed, else the first
    /// failure (or the grader's verdict).
    pub verdict: Verdict,
    /// Cases in the group, and how many were accepted.
    pub cases: usize,
    pub accepted: usize,
    /// Why the group scored nothing without being run (`requires …`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A score compared to its maximum with a tolerance for floating sums.
pub fn exceeds(score: f64, max: f64) -> bool {
    score > max + 1e-6 * max.abs().max(1.0)
}

/// A score expectation: a number, or an inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreRange {
    pub low: f64,
    pub high: f64,
}

impl ScoreRange {
    pub fn exactly(x: f64) -> ScoreRange {
        ScoreRange { low: x, high: x }
    }

    pub fn contains(self, score: f64) -> bool {
        let slack = 1e-6 * self.high.abs().max(1.0);
        score >= self.low - slack && score <= self.high + slack
    }
}

impl std::fmt::Display for ScoreRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.low == self.high {
            write!(f, "{}", number(self.low))
        } else {
            write!(f, "{}..{}", number(self.low), number(self.high))
        }
    }
}

#[cfg(test)]
mod tests;
