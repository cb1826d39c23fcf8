//! Subtasks: the 2025-09 package format's scoring (`secret` and its test
//! data groups) and judge.toml's `[problem.X.group.NAME]` tables.
//!
//! - A group's cases are those under its directory (packages) or matched
//!   by its globs (judge.toml), in the run's order.
//! - A case's maximum is the group's `max_score` under `min`, that divided
//!   by the number of cases under `sum`; under `pass-fail` cases have none.
//!   An accepted case scores its maximum, or `score.txt`'s points, or
//!   `score_multiplier.txt`'s (testlib's) fraction of its maximum; a
//!   rejected one scores 0. An unbounded group's accepted case must bring
//!   its `score.txt`.
//! - A group scores the `sum` or `min` of its cases, or under `pass-fail`
//!   its maximum when every case is accepted, else 0.
//! - `require_pass`: a group whose prerequisite (an earlier group, or
//!   `sample`) had a case not accepted is not judged: its cases are SKIP
//!   with the reason and it scores 0 (as CMS and Polygon skip a subtask).
//! - The whole (`secret`) aggregates its groups' scores, or its own cases
//!   when it has no groups, the same way.
//!
//! Judge errors (a score over its maximum, a fraction outside 0..1, a score
//! file in a pass-fail group, an unbounded case with no score) are listed in
//! the report's `errors`.

use super::{CaseInput, GroupScore, Partial, Scored, exceeds};
use crate::text::format::number;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// The subtasks of a problem.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Subtasks {
    /// The whole: `secret`, or judge.toml's total over its groups.
    pub total: Subtask,
    /// The groups whose scores make the total (empty: the total's own cases).
    pub groups: Vec<Subtask>,
    /// Groups named only as prerequisites (`sample`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prerequisites: Vec<Subtask>,
}

/// One group.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Subtask {
    pub name: String,
    /// Which cases: names under this directory (`secret/g1/`) or matching
    /// one of these globs.
    pub select: Select,
    /// `None`: unbounded.
    pub max_score: Option<f64>,
    pub aggregation: Aggregation,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub require_pass: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Select {
    /// Every case whose name starts with this (`secret/g1/`); empty: all.
    Under(String),
    /// Globs over case names (`*` within a directory, `**` across).
    Globs(Globs),
}

/// Why a list of patterns is not a [`Globs`].
#[derive(Debug, thiserror::Error)]
pub enum GlobsError {
    #[error("{pattern:?} is not a glob: {source}")]
    NotAGlob {
        pattern: String,
        source: crate::text::glob::GlobError,
    },
    #[error(transparent)]
    Set(#[from] globset::Error),
}

/// Globs over case names, compiled once when made (a case is matched for
/// every group, on every launch and in every report): `*` matches within
/// one path component, `**` across components, `?` one character; a glob
/// without `.in` also matches the name without its extension. Written and
/// read as the list of patterns.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct Globs {
    patterns: Vec<String>,
    set: globset::GlobSet,
}

impl Globs {
    /// Compile `patterns`; the error names the first that is not a glob.
    pub fn new(patterns: Vec<String>) -> Result<Globs, GlobsError> {
        let mut set = globset::GlobSetBuilder::new();
        for pattern in &patterns {
            let glob = crate::text::glob::compile(pattern, true).map_err(|source| {
                GlobsError::NotAGlob {
                    pattern: pattern.clone(),
                    source,
                }
            })?;
            set.add(glob);
        }
        let set = set.build()?;
        Ok(Globs { patterns, set })
    }

    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    fn is_match(&self, name: &str) -> bool {
        let stem = name.strip_suffix(".in").unwrap_or(name);
        self.set.is_match(name) || self.set.is_match(stem)
    }
}

impl PartialEq for Globs {
    fn eq(&self, other: &Globs) -> bool {
        self.patterns == other.patterns
    }
}

impl TryFrom<Vec<String>> for Globs {
    type Error = GlobsError;

    fn try_from(patterns: Vec<String>) -> Result<Globs, GlobsError> {
        Globs::new(patterns)
    }
}

impl From<Globs> for Vec<String> {
    fn from(globs: Globs) -> Vec<String> {
        globs.patterns
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregation {
    PassFail,
    Sum,
    Min,
}

impl Aggregation {
    pub fn name(self) -> &'static str {
        match self {
            Aggregation::PassFail => "pass-fail",
            Aggregation::Sum => "sum",
            Aggregation::Min => "min",
        }
    }

    pub fn parse(word: &str) -> Option<Aggregation> {
        match word {
            "pass-fail" => Some(Aggregation::PassFail),
            "sum" => Some(Aggregation::Sum),
            "min" => Some(Aggregation::Min),
            _ => None,
        }
    }
}

impl Select {
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Select::Under(prefix) => name.starts_with(prefix.as_str()),
            Select::Globs(globs) => globs.is_match(name),
        }
    }
}

struct Walk<'a> {
    cases: &'a [CaseInput<'a>],
    scored: Scored,
    /// Per group name: whether every case of it was accepted.
    passed: Vec<(String, bool)>,
}

impl Subtasks {
    pub fn max_score(&self) -> Option<f64> {
        self.total.max_score
    }

    /// The first group a case belongs to.
    pub fn group_of(&self, name: &str) -> Option<&Subtask> {
        self.groups.iter().find(|g| g.select.matches(name))
    }

    /// Whether a case may be left unlaunched because `failed` (a case
    /// already rejected) fails a prerequisite of its group.
    pub fn stopped_by(&self, name: &str, failed: &str) -> bool {
        let Some(group) = self.group_of(name) else {
            return false;
        };
        group.require_pass.iter().any(|r| {
            self.groups
                .iter()
                .chain(&self.prerequisites)
                .any(|g| &g.name == r && g.select.matches(failed))
        })
    }

    /// The groups a failure of `failed` can stop: every group (and
    /// prerequisite) holding it. See `ScoringPlan::failure_scope`.
    pub fn failure_scope(&self, failed: &str) -> String {
        self.groups
            .iter()
            .chain(&self.prerequisites)
            .filter(|g| g.select.matches(failed))
            .map(|g| g.name.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `--fail-fast`: the group of `name` when `failed` already decides its
    /// score (the same group, graded by its minimum or pass-fail).
    pub fn fail_fast_group(&self, name: &str, failed: &str) -> Option<String> {
        let group = self.group_of(name)?;
        (group.aggregation != Aggregation::Sum && group.select.matches(failed))
            .then(|| group.name.clone())
    }

    pub fn evaluate(&self, cases: &[CaseInput<'_>]) -> Scored {
        let mut walk = Walk {
            cases,
            scored: Scored::new(cases.len(), super::SUBTASKS, self.total.max_score),
            passed: Vec::new(),
        };
        for pre in &self.prerequisites {
            let ok = walk
                .members(pre)
                .iter()
                .all(|&i| cases[i].verdict == Verdict::Accepted);
            walk.passed.push((pre.name.clone(), ok));
        }
        let blocked = self
            .total
            .require_pass
            .iter()
            .find(|r| !walk.passed.iter().any(|p| &p.0 == *r && p.1));
        if let Some(r) = blocked {
            let why = format!(
                "not judged: {} requires {r}, which was not passed",
                self.total.name
            );
            for i in walk.members(&self.total) {
                walk.scored.not_judged.push((i, why.clone()));
                walk.scored.case_scores[i] = Some(0.0);
            }
            walk.scored.report.verdict = Some(Verdict::Skipped);
            return walk.scored;
        }
        let total = if self.groups.is_empty() {
            walk.group(&self.total, true)
        } else {
            let scores: Vec<(f64, bool)> = self
                .groups
                .iter()
                .map(|g| {
                    let s = walk.group(g, true);
                    let full = walk.passed.last().is_some_and(|p| p.1);
                    (s, full)
                })
                .collect();
            let score = aggregate(
                self.total.aggregation,
                self.total.max_score,
                &scores,
                &mut walk.scored.report.errors,
                &self.total.name,
            );
            if let Some(max) = self.total.max_score
                && exceeds(score, max)
            {
                walk.scored.report.errors.push(format!(
                    "{}: score {} is over its max_score {}",
                    self.total.name,
                    number(score),
                    number(max)
                ));
            }
            score
        };
        let mut scored = walk.scored;
        scored.report.score = total;
        let counted = cases
            .iter()
            .zip(&scored.case_scores)
            .filter(|(_, s)| s.is_some())
            .map(|(c, _)| c.verdict);
        scored.report.verdict = Some(
            crate::verdict::overall(counted.filter(|v| *v != Verdict::Skipped))
                .unwrap_or(Verdict::Accepted),
        );
        scored
    }
}

/// The aggregate of scores with whether each item was full (pass-fail).
fn aggregate(
    how: Aggregation,
    max: Option<f64>,
    items: &[(f64, bool)],
    errors: &mut Vec<String>,
    name: &str,
) -> f64 {
    match how {
        Aggregation::Sum => items.iter().map(|i| i.0).sum(),
        Aggregation::Min => {
            if items.is_empty() {
                0.0
            } else {
                items.iter().map(|i| i.0).fold(f64::INFINITY, f64::min)
            }
        }
        Aggregation::PassFail => {
            let Some(max) = max else {
                errors.push(format!(
                    "{name}: pass-fail aggregation needs a bounded max_score"
                ));
                return 0.0;
            };
            if !items.is_empty() && items.iter().all(|i| i.1) {
                max
            } else {
                0.0
            }
        }
    }
}

impl Walk<'_> {
    fn members(&self, group: &Subtask) -> Vec<usize> {
        (0..self.cases.len())
            .filter(|&i| group.select.matches(self.cases[i].name))
            .collect()
    }

    /// Score one group; records whether it passed in `passed` and its line
    /// in the report when `listed`.
    fn group(&mut self, group: &Subtask, listed: bool) -> f64 {
        let members = self.members(group);
        let failed_requirement = group
            .require_pass
            .iter()
            .find(|r| !self.passed.iter().find(|p| &p.0 == *r).is_some_and(|p| p.1));
        if let Some(r) = failed_requirement {
            let why = format!(
                "not judged: group {} requires {r}, which was not passed",
                group.name
            );
            for &i in &members {
                self.scored.not_judged.push((i, why.clone()));
                self.scored.case_scores[i] = Some(0.0);
            }
            self.passed.push((group.name.clone(), false));
            if listed {
                self.scored.report.groups.push(GroupScore {
                    name: group.name.clone(),
                    score: 0.0,
                    max_score: group.max_score,
                    aggregation: group.aggregation.name().to_string(),
                    verdict: Verdict::Skipped,
                    cases: members.len(),
                    accepted: 0,
                    note: Some(format!("requires {r}, which was not passed")),
                });
            }
            return 0.0;
        }
        let case_max = match (group.aggregation, group.max_score) {
            (Aggregation::Sum, Some(max)) if !members.is_empty() => {
                Some(max / members.len() as f64)
            }
            (Aggregation::Min, Some(max)) => Some(max),
            _ => None,
        };
        let mut items = Vec::new();
        let mut first_failure = None;
        let mut accepted = 0;
        for &i in &members {
            let case = self.cases[i];
            if case.verdict == Verdict::Skipped {
                self.scored.report.incomplete = true;
                self.scored.case_scores[i] = Some(0.0);
                items.push((0.0, false));
                first_failure.get_or_insert(Verdict::Skipped);
                continue;
            }
            let ok = case.verdict == Verdict::Accepted;
            if ok {
                accepted += 1;
            } else {
                first_failure.get_or_insert(case.verdict);
            }
            let score = self.case_score(group, case, case_max);
            self.scored.case_scores[i] = Some(score);
            items.push((score, ok));
        }
        let score = aggregate(
            group.aggregation,
            group.max_score,
            &items,
            &mut self.scored.report.errors,
            &group.name,
        );
        if let Some(max) = group.max_score
            && exceeds(score, max)
        {
            self.scored.report.errors.push(format!(
                "{}: score {} is over its max_score {}",
                group.name,
                number(score),
                number(max)
            ));
        }
        let all = !members.is_empty() && accepted == members.len();
        self.passed.push((group.name.clone(), all));
        if listed {
            self.scored.report.groups.push(GroupScore {
                name: group.name.clone(),
                score,
                max_score: group.max_score,
                aggregation: group.aggregation.name().to_string(),
                verdict: first_failure.unwrap_or(Verdict::Accepted),
                cases: members.len(),
                accepted,
                note: None,
            });
        }
        score
    }

    fn case_score(&mut self, group: &Subtask, case: CaseInput<'_>, max: Option<f64>) -> f64 {
        let errors = &mut self.scored.report.errors;
        if case.verdict != Verdict::Accepted {
            return 0.0;
        }
        if group.aggregation == Aggregation::PassFail {
            if case.partial.is_some() {
                errors.push(format!(
                    "{}: a score file in group {}, whose aggregation is pass-fail",
                    case.name, group.name
                ));
            }
            return 0.0;
        }
        match (case.partial, max) {
            (None, Some(max)) => max,
            (None, None) => {
                errors.push(format!(
                    "{}: accepted without a score.txt in group {}, whose max_score is unbounded",
                    case.name, group.name
                ));
                0.0
            }
            (Some(Partial::Points(p)), max) => {
                if let Some(max) = max
                    && exceeds(p, max)
                {
                    errors.push(format!(
                        "{}: score {} is over the case's maximum {}",
                        case.name,
                        number(p),
                        number(max)
                    ));
                }
                p
            }
            (Some(Partial::Fraction(f)), Some(max)) => {
                if !(0.0..=1.0).contains(&f) {
                    errors.push(format!(
                        "{}: score multiplier {} is outside 0..1",
                        case.name,
                        number(f)
                    ));
                }
                f.clamp(0.0, 1.0) * max
            }
            (Some(Partial::Fraction(_)), None) => {
                errors.push(format!(
                    "{}: a score multiplier in group {}, whose max_score is unbounded",
                    case.name, group.name
                ));
                0.0
            }
        }
    }
}
