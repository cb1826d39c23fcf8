//! The problem `judge limits` measures: a problem of judge.toml, or a
//! package directory (Kattis, DOMjudge, Polygon) as `judge verify` takes
//! one; and its cases.

use crate::cases::Case;
use crate::cli::LimitsArgs;
use crate::commands::Failure;
use crate::config::{Overrides, Problem};
use std::path::Path;

/// The problem: judge.toml's of that name, or the package (Kattis,
/// DOMjudge, Polygon) in the directory PROBLEM names (with its root).
pub(super) fn chosen(
    config: Option<&crate::config::Config>,
    args: &LimitsArgs,
) -> Result<(Problem, Option<std::path::PathBuf>), Failure> {
    let name = &args.problem;
    let path = Path::new(name);
    match config {
        Some(c) if c.problem(name).is_some() || !crate::formats::is_package(path) => Ok((
            crate::commands::verify::chosen_problems(c, std::slice::from_ref(name))?.remove(0),
            None,
        )),
        _ if crate::formats::is_package(path) => {
            let problem = crate::config::package_problem(path, &Overrides::default())
                .map_err(|e| Failure::Usage(e.to_string()))?;
            if !problem.submissions.is_dir() {
                return Err(Failure::Usage(format!(
                    "package {name}: no submissions directory {} (the accepted and time-limit-exceeded programs are what judge limits runs)",
                    problem.submissions.display()
                )));
            }
            Ok((problem, Some(path.to_path_buf())))
        }
        _ => Err(Failure::Usage(format!(
            "{name}: not a package directory (no {} in it), and no judge.toml here (or --config FILE) names problems",
            crate::formats::PACKAGE_FILES
        ))),
    }
}

/// The problem's cases (at least one).
pub(super) fn problem_cases(
    config: Option<&crate::config::Config>,
    problem: &Problem,
    package: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Case>, Failure> {
    let selection = match package {
        Some(root) => crate::cli::Selection {
            paths: vec![root.to_path_buf()],
            problem: None,
            filter: None,
        },
        None => crate::cli::Selection {
            paths: Vec::new(),
            problem: Some(problem.name.clone()),
            filter: None,
        },
    };
    let config = if package.is_some() { None } else { config };
    let selected = crate::commands::select(config, &selection, &Overrides::default())?;
    warnings.extend(selected.warnings);
    let cases = selected.cases.into_iter().next().unwrap_or_default();
    if cases.is_empty() {
        return Err(Failure::Usage(format!("{}: no cases", problem.name)));
    }
    Ok(cases.to_vec())
}
