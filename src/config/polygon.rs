//! A Polygon package resolved into a [`Problem`]: the package's model
//! ([`crate::formats::polygon::model`]) over the defaults, as a Kattis
//! package is, then what the model says over what resolution gave
//! (comparison unless a flag chose one, validators, groups, I/O files,
//! expectations).

use super::resolve::{Sources, resolve_with};
use super::schema::{ProblemTable, RootTable};
use super::{ConfigError, Overrides, Problem};
use crate::formats::polygon;
use std::path::Path;

/// The Polygon package at `root` as a problem: its name is its directory's.
pub(super) fn problem(root: &Path, overrides: &Overrides) -> Result<Problem, ConfigError> {
    let model = polygon::model(root)?;
    let table = ProblemTable::default();
    let defaults = RootTable::default();
    let mut problem = resolve_with(Sources {
        name: &model.name,
        table: &table,
        root: &defaults,
        overrides,
        puzzle: None,
        cases: model.cases.clone(),
        base: Some(root),
        package: Some(&model.package),
    })
    .map_err(|(message, _)| ConfigError::Whole {
        path: root.to_path_buf(),
        message,
    })?;
    // A flag's comparison wins over the checker, never over an interactor.
    if model.interactive || overrides.comparison.is_none() {
        problem.comparison = model.comparison;
    }
    problem.validators = model.validators;
    problem.groups = model.groups;
    problem.cases = model.cases;
    problem.case_groups = Vec::new();
    problem.package_format = None;
    problem.dialect = crate::expect::Dialect::Judge;
    problem.io_files = model.io_files;
    problem.submissions = model.submissions;
    problem.expectations = model.expectations;
    problem.submission_rules = model.languages;
    problem.tool_tests = model.tool_tests;
    problem.warnings.extend(model.warnings);
    Ok(problem)
}
