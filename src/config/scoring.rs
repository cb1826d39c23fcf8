//! judge.toml's scoring: `[problem.NAME.group.GROUP]` tables make a
//! problem a scoring one, graded by subtasks (`score::Subtasks`):
//!
//! ```toml
//! [problem.paths.group.small]
//! cases = "secret/small-*"      # a glob or a list of globs over case names
//! points = 30
//! aggregation = "min"           # min (default), sum or pass-fail
//! [problem.paths.group.large]
//! cases = ["secret/large-*"]
//! points = 70
//! requires = ["small"]          # not judged unless every case of small passed
//! ```
//!
//! The total is the sum of the groups' points; a case in no group counts
//! toward no score (samples, say). Groups are graded in the order written;
//! `requires` names earlier groups only, as CMS and Polygon order subtasks.

use super::tools::OneOrMany;
use crate::score::subtasks::Select;
use crate::score::{Aggregation, Globs, ScoreRange, ScoringPlan, Subtask, Subtasks};
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// `[problem.NAME.group.GROUP]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupTable {
    pub(super) cases: Spanned<OneOrMany>,
    pub(super) points: Spanned<f64>,
    pub(super) aggregation: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) requires: Vec<Spanned<String>>,
}

/// A score in an expectation: `70` or `[60, 80]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum ScoreValue {
    One(f64),
    Range(Vec<f64>),
}

impl ScoreValue {
    pub(super) fn range(&self) -> Result<ScoreRange, ScoreValueError> {
        match self {
            ScoreValue::One(x) if x.is_finite() => Ok(ScoreRange::exactly(*x)),
            ScoreValue::One(x) => Err(ScoreValueError::NotFinite(*x)),
            ScoreValue::Range(v) => match v[..] {
                [low, high] if low.is_finite() && high.is_finite() && low <= high => {
                    Ok(ScoreRange { low, high })
                }
                _ => Err(ScoreValueError::NotARange(v.clone())),
            },
        }
    }
}

/// A score of an expectation that is none.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(super) enum ScoreValueError {
    #[error("{0:?}: out of range (expected a finite score)")]
    NotFinite(f64),
    #[error("{0:?}: expected a score or [low, high] with low <= high")]
    NotARange(Vec<f64>),
}

/// A group table's error: the key (after `problem.NAME.group.GROUP`), its
/// place in the file, what is wrong.
pub(super) type GroupError = (String, Range<usize>, String);

/// The plan of a judge.toml problem with group tables (`None` without).
pub(super) fn plan(
    groups: &indexmap::IndexMap<String, Spanned<GroupTable>>,
) -> Result<Option<ScoringPlan>, GroupError> {
    if groups.is_empty() {
        return Ok(None);
    }
    let mut subtasks: Vec<Subtask> = Vec::new();
    let mut total = 0.0;
    // The total's cases: those of every group.
    let mut all: Vec<String> = Vec::new();
    for (name, table) in groups {
        let t = table.get_ref();
        let points = *t.points.get_ref();
        if !(points.is_finite() && points >= 0.0) {
            return Err((
                format!("{name}.points"),
                t.points.span(),
                format!("{points}: expected a non-negative number of points"),
            ));
        }
        total += points;
        let aggregation = match &t.aggregation {
            None => Aggregation::Min,
            Some(a) => Aggregation::parse(a.get_ref()).ok_or_else(|| {
                (
                    format!("{name}.aggregation"),
                    a.span(),
                    format!("{:?}: expected min, sum or pass-fail", a.get_ref()),
                )
            })?,
        };
        let globs: Vec<String> = match t.cases.get_ref() {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        };
        all.extend(globs.iter().cloned());
        let globs = Globs::new(globs)
            .map_err(|e| (format!("{name}.cases"), t.cases.span(), e.to_string()))?;
        let mut require_pass = Vec::new();
        for r in &t.requires {
            if !subtasks.iter().any(|s| &s.name == r.get_ref()) {
                return Err((
                    format!("{name}.requires"),
                    r.span(),
                    format!(
                        "{:?} is not a group written before {name:?} (groups are graded in order)",
                        r.get_ref()
                    ),
                ));
            }
            require_pass.push(r.get_ref().clone());
        }
        subtasks.push(Subtask {
            name: name.clone(),
            select: Select::Globs(globs),
            max_score: Some(points),
            aggregation,
            require_pass,
        });
    }
    let all = Globs::new(all).map_err(|e| (String::new(), 0..0, e.to_string()))?;
    Ok(Some(ScoringPlan::Subtasks(Subtasks {
        total: Subtask {
            name: "total".to_string(),
            select: Select::Globs(all),
            max_score: Some(total),
            aggregation: Aggregation::Sum,
            require_pass: Vec::new(),
        },
        groups: subtasks,
        prerequisites: Vec::new(),
    })))
}
