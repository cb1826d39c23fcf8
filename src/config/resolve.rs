//! Resolution: from the serde tables of [`super::schema`], the
//! command-line [`Overrides`] and a problem's package to the [`Problem`]s
//! and [`Language`](crate::submission::Language)s the judge works with,
//! and the error helpers that name the file, line and column of a bad key.
//!
//! This file holds the steps for one problem; its parts are `comparison`
//! (how outputs are judged), `limits`, `expectations` (`[problem.X.expect]`),
//! `languages` (`[language.X]`) and `places` (line, column and key of an
//! error).

mod comparison;
mod expectations;
mod languages;
mod limits;
mod places;

use super::schema::{ProblemTable, RootTable};
use super::{ConfigError, Overrides, Problem, tools};
use crate::formats::kattis;
use crate::puzzles::{self, Puzzle};
use comparison::{check_keys_fit, comparison};
pub(super) use languages::resolve_languages;
use limits::{limits, time_limit_from};
use places::KeyErrors;
pub(super) use places::{line_col_of_bytes, toml_error};
use std::path::{Path, PathBuf};

/// Resolve problem `name` of the judge.toml at `path` (holding `text`,
/// read into `root`; `base` its directory): its puzzle and package, then
/// [`resolve_with`], then what only a judge.toml problem has (its
/// submissions folder, expectations and groups).
pub(super) fn resolve(
    name: &str,
    table: &ProblemTable,
    root: &RootTable,
    base: &Path,
    path: &Path,
    text: &str,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    let errors = KeyErrors { path, text };
    let puzzle = puzzle(name, table, errors)?;
    let package =
        match &table.package {
            Some(p) => Some(kattis::load(&base.join(p.get_ref())).map_err(|source| {
                ConfigError::Package {
                    place: errors.at(Some(p.span())),
                    key: format!("problem.{name}.package"),
                    source: Box::new(source),
                }
            })?),
            None => None,
        };
    let cases = match (&table.cases, &package) {
        (Some(c), _) => base.join(c.get_ref()),
        (None, Some(p)) => p.root.join("data"),
        (None, None) => base.join("cases").join(name),
    };
    let mut problem = resolve_with(Sources {
        name,
        table,
        root,
        overrides,
        puzzle,
        cases,
        base: Some(base),
        package: package.as_ref(),
    })
    .map_err(|(message, span)| errors.key(span, format!("problem.{name}"), message))?;
    // A package keeps its submissions in `<package>/submissions/` (set by
    // `resolve_with`); otherwise `submissions/NAME` beside judge.toml.
    if let Some(s) = &table.submissions {
        problem.submissions = base.join(s.get_ref());
    }
    problem.expectations = expectations::declared(name, table, errors)?;
    if let Some(plan) = super::scoring::plan(&table.group).map_err(|(key, span, m)| {
        errors.key(Some(span), format!("problem.{name}.group.{key}"), m)
    })? {
        if problem.scoring.is_some() {
            return Err(errors.key(
                Some(table.group.values().next().map_or(0..0, |g| g.span())),
                format!("problem.{name}.group"),
                format!("the package grades this problem already ({} type: scoring); say its groups there", crate::formats::kattis::PROBLEM_YAML),
            ));
        }
        problem.scoring = Some(plan);
    }
    Ok(problem)
}

/// The built-in puzzle problem `name`'s table names, if any.
fn puzzle(
    name: &str,
    table: &ProblemTable,
    errors: KeyErrors<'_>,
) -> Result<Option<&'static dyn Puzzle>, ConfigError> {
    let Some(p) = &table.puzzle else {
        return Ok(None);
    };
    let puzzle = puzzles::find(p.get_ref()).ok_or_else(|| {
        errors.key(
            Some(p.span()),
            format!("problem.{name}.puzzle"),
            format!(
                "unknown puzzle {:?}; the built-in puzzles are {}",
                p.get_ref(),
                puzzles::names().join(", ")
            ),
        )
    })?;
    Ok(Some(puzzle))
}

pub(super) type SpannedMessage = (String, Option<std::ops::Range<usize>>);

/// Where one problem's settings come from.
pub(super) struct Sources<'a> {
    pub name: &'a str,
    /// The problem's own table (empty for a problem made from the command
    /// line or a bare package).
    pub table: &'a ProblemTable,
    /// The file's top-level defaults.
    pub root: &'a RootTable,
    pub overrides: &'a Overrides,
    pub puzzle: Option<&'static dyn Puzzle>,
    pub cases: PathBuf,
    /// judge.toml's directory: relative paths are relative to it.
    pub base: Option<&'a Path>,
    pub package: Option<&'a kattis::Package>,
}

/// Resolve one problem from its table, the file's top-level defaults, the
/// command-line overrides and, for a package, the package. Precedence:
/// flags, then the problem's table, then the package, then the top level,
/// then the built-in defaults.
pub(super) fn resolve_with(sources: Sources<'_>) -> Result<Problem, SpannedMessage> {
    let comparison = comparison(&sources)?;
    let Sources {
        name,
        table,
        root,
        overrides,
        puzzle,
        cases,
        base,
        package,
    } = sources;
    check_keys_fit(table, overrides, puzzle, &comparison)?;
    let limits = limits(table, root, overrides, package)?;
    let (time_limit_from, time_inference) = time_limit_from(table, root, overrides, package);
    let solution = solution(table, base)?;
    let base_dir = base.unwrap_or(Path::new("."));
    let tool_time = tools::time_limit(table, root, package)?;
    let validators = tools::validators(table, package, base_dir, tool_time)?;
    let answer_validators = package
        .map(|p| {
            p.answer_validators
                .iter()
                .map(|tool| crate::check::external::InputValidator {
                    tool: tool.clone(),
                    protocol: crate::check::external::Protocol::Kattis,
                    time_limit: tool_time,
                    flags: Vec::new(),
                })
                .collect()
        })
        .unwrap_or_default();
    // A package's cases are data/sample then data/secret, unless the table
    // names its own cases.
    let case_groups = if package.is_some() && table.cases.is_none() {
        kattis::CASE_GROUPS.map(String::from).to_vec()
    } else {
        Vec::new()
    };
    let mut warnings = package.map(|p| p.warnings.clone()).unwrap_or_default();
    let groups = match package {
        Some(package) => super::case_settings::resolve(
            &super::case_settings::Base {
                package,
                table,
                overrides,
                comparison: &comparison,
                validators: &validators,
            },
            &mut warnings,
        )
        .map_err(|e| (e.to_string(), None))?,
        None => Vec::new(),
    };
    let package_check = package.map(|p| p.default_check).unwrap_or_default();
    let strict_from_package = package
        .filter(|_| package_check.space_change_sensitive)
        .map(|_| true);
    Ok(Problem {
        name: name.to_string(),
        puzzle,
        cases,
        case_groups,
        validators,
        answer_validators,
        package: package.map(|p| p.root.clone()),
        package_format: package.map(|p| p.version),
        dialect: match package {
            Some(p) if p.domjudge => crate::expect::Dialect::DomJudge,
            Some(_) => crate::expect::Dialect::Kattis,
            None => crate::expect::Dialect::Judge,
        },
        constants: package
            .filter(|p| !p.constants.is_empty())
            .map(|p| std::sync::Arc::new(p.constants.clone())),
        groups,
        warnings,
        comparison,
        lexmin: overrides
            .lexmin
            .or(table.lexmin.as_ref().map(|l| *l.get_ref()))
            .or(root.lexmin)
            .unwrap_or_else(|| puzzle.is_some_and(|p| p.default_lexmin())),
        strict: overrides
            .strict
            .or(table.strict)
            .or(strict_from_package)
            .or(root.strict)
            .unwrap_or(false),
        limits,
        time_limit_from,
        time_inference,
        solution,
        // A Kattis package's own `submissions/<expected verdict>/`, else
        // `submissions/NAME` beside judge.toml.
        submissions: match package {
            Some(p) => p.root.join("submissions"),
            None => base
                .unwrap_or(Path::new("."))
                .join("submissions")
                .join(name),
        },
        expectations: Vec::new(),
        submission_rules: package
            .map(|p| p.submission_rules.clone())
            .unwrap_or_default(),
        scoring: package.and_then(|p| p.scoring.clone()),
        io_files: crate::exec::IoFiles::default(),
        tool_tests: Vec::new(),
    })
}

/// The reference solution's command; a relative program path in it is
/// relative to judge.toml.
fn solution(table: &ProblemTable, base: Option<&Path>) -> Result<Option<String>, SpannedMessage> {
    let solution = table.solution.as_ref().map(|s| {
        // A relative program path in `solution` is relative to judge.toml.
        let command = s.get_ref().clone();
        match (base, shlex::split(&command)) {
            (Some(base), Some(words))
                if words
                    .first()
                    .is_some_and(|w| w.contains('/') && !w.starts_with('/')) =>
            {
                let mut all: Vec<String> = words;
                if let Some(first) = all.first_mut() {
                    *first = base.join(&*first).to_string_lossy().into_owned();
                }
                shlex::try_join(all.iter().map(String::as_str)).unwrap_or(command)
            }
            _ => command,
        }
    });
    if let Some(s) = &table.solution
        && shlex::split(s.get_ref()).is_none_or(|w| w.is_empty())
    {
        return Err((
            format!(
                "solution {:?} is not a command line (unbalanced quotes?)",
                s.get_ref()
            ),
            Some(s.span()),
        ));
    }
    Ok(solution)
}

/// The problems whose cases a generators.yaml makes: name → the file.
pub(super) fn generators(root: &RootTable, base: &Path) -> Vec<(String, PathBuf)> {
    root.problem
        .iter()
        .filter_map(|(name, table)| {
            let file = table.generators.as_ref()?;
            Some((name.clone(), base.join(file.get_ref())))
        })
        .collect()
}
