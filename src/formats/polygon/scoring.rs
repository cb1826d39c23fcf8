//! Polygon's groups as subtasks (`score::Subtasks`):
//!
//! - `points-policy="complete-group"`: the group's points (its `points`,
//!   else the sum of its tests' points) when every test is accepted
//!   (pass-fail);
//! - `each-test`: the sum of its accepted tests' points (equal points: one
//!   `sum` group; unequal: one pass-fail subtask per test, `GROUP/TEST`);
//! - `dependencies`: a group is judged only when every group it depends on
//!   was passed (`require_pass`);
//! - tests with points outside any group: a pass-fail subtask each.
//!
//! A testset with no points anywhere is pass-fail (no plan).

use super::read::{Group, PointsPolicy, Test, Testset};
use crate::formats::error::{FormatError, Place};
use crate::score::ScoringPlan;
use crate::score::subtasks::{Aggregation, Globs, GlobsError, Select, Subtask, Subtasks};
use std::path::Path;

/// A test's case name in the judge (`01`, `02`, … as wide as the count,
/// at least two digits).
pub fn case_name(index: usize, count: usize) -> String {
    let width = count.to_string().len().max(2);
    format!("{index:0width$}")
}

fn subtask(
    name: String,
    tests: &[&Test],
    count: usize,
    max: f64,
    aggregation: Aggregation,
) -> Result<Subtask, GlobsError> {
    let names = tests.iter().map(|t| case_name(t.index, count)).collect();
    Ok(Subtask {
        name,
        select: Select::Globs(Globs::new(names)?),
        max_score: Some(max),
        aggregation,
        require_pass: Vec::new(),
    })
}

/// More points than a test or a group is given: past it a total is no
/// longer exact (or finite), and is refused.
const MAX_POINTS: f64 = 1e9;

fn check_points(file: &Path, what: &str, points: Option<f64>) -> Result<(), FormatError> {
    match points {
        Some(p) if !(0.0..=MAX_POINTS).contains(&p) => Err(FormatError::key(
            Place::file(file),
            "points",
            Some(p.to_string()),
            format!("{what}: points {p}: out of range (expected a number from 0 to {MAX_POINTS})"),
        )),
        _ => Ok(()),
    }
}

/// The scoring plan of a testset (of problem.xml at `file`), or `None`
/// when nothing has points.
pub fn plan(set: &Testset, file: &Path) -> Result<Option<ScoringPlan>, FormatError> {
    for t in &set.tests {
        check_points(file, &format!("test {}", t.index), t.points)?;
    }
    for g in &set.groups {
        check_points(file, &format!("group {:?}", g.name), g.points)?;
    }
    let globs = |e: GlobsError| FormatError::rule(Place::file(file), e.to_string());
    let any_points = set.tests.iter().any(|t| t.points.is_some())
        || set.groups.iter().any(|g| g.points.is_some());
    if !any_points {
        return Ok(None);
    }
    let count = set.tests.len();
    let mut groups: Vec<Subtask> = Vec::new();
    // Each Polygon group's subtask names, for its dependants.
    let mut names_of: Vec<(String, Vec<String>)> = Vec::new();
    for group in &set.groups {
        let tests: Vec<&Test> = set
            .tests
            .iter()
            .filter(|t| t.group.as_deref() == Some(group.name.as_str()))
            .collect();
        let made = group_subtasks(group, &tests, count).map_err(globs)?;
        names_of.push((
            group.name.clone(),
            made.iter().map(|s| s.name.clone()).collect(),
        ));
        groups.extend(made);
    }
    for group in &set.groups {
        let mut required = Vec::new();
        for dep in &group.dependencies {
            let Some((_, names)) = names_of.iter().find(|(n, _)| n == dep) else {
                return Err(FormatError::rule(
                    Place::file(file),
                    format!(
                        "group {:?} depends on group {dep:?}, which has no tests",
                        group.name
                    ),
                ));
            };
            required.extend(names.iter().cloned());
        }
        let own = names_of
            .iter()
            .find(|(n, _)| n == &group.name)
            .map(|(_, names)| names.clone())
            .unwrap_or_default();
        for g in groups.iter_mut().filter(|g| own.contains(&g.name)) {
            g.require_pass = required.clone();
        }
    }
    for t in set.tests.iter().filter(|t| t.group.is_none()) {
        let name = case_name(t.index, count);
        groups.push(
            subtask(
                name,
                &[t],
                count,
                t.points.unwrap_or(0.0),
                Aggregation::PassFail,
            )
            .map_err(globs)?,
        );
    }
    let total: f64 = groups.iter().filter_map(|g| g.max_score).sum();
    Ok(Some(ScoringPlan::Subtasks(Subtasks {
        total: Subtask {
            name: "tests".to_string(),
            select: Select::Under(String::new()),
            max_score: Some(total),
            aggregation: Aggregation::Sum,
            require_pass: Vec::new(),
        },
        groups,
        prerequisites: Vec::new(),
    })))
}

fn group_subtasks(
    group: &Group,
    tests: &[&Test],
    count: usize,
) -> Result<Vec<Subtask>, GlobsError> {
    let test_sum: f64 = tests.iter().filter_map(|t| t.points).sum();
    match group.policy {
        PointsPolicy::CompleteGroup => Ok(vec![subtask(
            group.name.clone(),
            tests,
            count,
            group.points.unwrap_or(test_sum),
            Aggregation::PassFail,
        )?]),
        PointsPolicy::EachTest => {
            let first = tests.first().and_then(|t| t.points).unwrap_or(0.0);
            let equal = tests.iter().all(|t| t.points.unwrap_or(0.0) == first);
            if equal {
                return Ok(vec![subtask(
                    group.name.clone(),
                    tests,
                    count,
                    test_sum,
                    Aggregation::Sum,
                )?]);
            }
            tests
                .iter()
                .map(|t| {
                    subtask(
                        format!("{}/{}", group.name, case_name(t.index, count)),
                        &[*t],
                        count,
                        t.points.unwrap_or(0.0),
                        Aggregation::PassFail,
                    )
                })
                .collect()
        }
    }
}
