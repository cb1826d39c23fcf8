//! Which problems and cases a command works on, from the configuration and
//! the command line: no PATHS → every problem (or `--problem`), or with no
//! judge.toml the package in the current directory; PATHS → the problem
//! whose cases root (or package) holds each path, the package a path is
//! in, or `--problem` for paths outside judge.toml.

use super::Failure;
use crate::cases::{self, CaseList, DiscoveryError, Filter};
use crate::cli::Selection;
use crate::config::{self, Config, Overrides, Problem};
use std::path::{Path, PathBuf};

/// What a command works on: problems, each with its cases.
pub struct Selected {
    pub problems: Vec<Problem>,
    /// Per problem, its cases in natural order, compact.
    pub cases: Vec<CaseList>,
    pub warnings: Vec<String>,
}

/// A problem chosen, the cases root to discover, and the path under it the
/// command line narrowed the cases to.
struct Chosen {
    problem: Problem,
    root: PathBuf,
    under: Option<PathBuf>,
}

impl Chosen {
    fn whole(problem: Problem) -> Chosen {
        let root = problem.cases.clone();
        Chosen {
            problem,
            root,
            under: None,
        }
    }
}

/// Choose problems and cases (see the module's documentation).
pub fn select(
    config: Option<&Config>,
    selection: &Selection,
    overrides: &Overrides,
) -> Result<Selected, Failure> {
    let filter = selection
        .filter
        .as_deref()
        .map(Filter::new)
        .transpose()
        .map_err(Failure::usage)?;
    let chosen = if selection.paths.is_empty() {
        chosen_without_paths(config, selection.problem.as_deref(), overrides)?
    } else {
        let mut chosen = Vec::new();
        for path in &selection.paths {
            chosen.push(chosen_for_path(config, path, selection, overrides)?);
        }
        chosen
    };
    let mut selected = Selected {
        problems: Vec::new(),
        cases: Vec::new(),
        warnings: Vec::new(),
    };
    for one in chosen {
        let cases = discover(&one, filter.as_ref(), &mut selected.warnings)?;
        add(&mut selected, one.problem, cases)?;
    }
    Ok(selected)
}

/// No paths on the command line: `--problem`, every configured problem, or
/// the package in the current directory.
fn chosen_without_paths(
    config: Option<&Config>,
    name: Option<&str>,
    overrides: &Overrides,
) -> Result<Vec<Chosen>, Failure> {
    match (config, name) {
        (Some(config), Some(name)) => {
            let problem = config
                .problem(name)
                .ok_or_else(|| unknown_problem(name, Some(config)))?;
            Ok(vec![Chosen::whole(problem.clone())])
        }
        (Some(config), None) => {
            if config.problems.is_empty() {
                return Err(Failure::Usage(format!(
                    "{} declares no problems: add a [problem.NAME] table",
                    config.path.display()
                )));
            }
            Ok(config.problems.iter().cloned().map(Chosen::whole).collect())
        }
        (None, Some(name)) => {
            let problem =
                config::ad_hoc_problem(name, PathBuf::from("cases").join(name), overrides)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
            if !problem.cases.exists() {
                return Err(Failure::Usage(format!(
                    "no judge.toml here: give the cases to judge (judge run DIR --problem {name})"
                )));
            }
            Ok(vec![Chosen::whole(problem)])
        }
        (None, None) if crate::formats::is_package(Path::new(".")) => {
            // Data a generators.yaml makes is made first when missing or stale.
            crate::commands::generators::prepare_package(Path::new("."))?;
            let problem = config::package_problem(Path::new("."), overrides)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            Ok(vec![Chosen::whole(problem)])
        }
        (None, None) => Err(Failure::Usage(format!(
            "no judge.toml or {} here and no cases given: try `judge run DIR --problem NAME`, `judge run PACKAGE_DIR`, or --config FILE",
            crate::formats::kattis::PROBLEM_YAML
        ))),
    }
}

/// The problem a path on the command line belongs to.
fn chosen_for_path(
    config: Option<&Config>,
    path: &Path,
    selection: &Selection,
    overrides: &Overrides,
) -> Result<Chosen, Failure> {
    if !path.exists() {
        return Err(Failure::Usage(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    let configured = match &selection.problem {
        Some(name) => config.and_then(|c| c.problem(name)).cloned(),
        None => config.and_then(|c| problem_holding(c, path)).cloned(),
    };
    match configured {
        Some(problem) if is_under(path, &problem.cases) => {
            let root = problem.cases.clone();
            Ok(Chosen {
                problem,
                root,
                under: Some(path.to_path_buf()),
            })
        }
        // The package itself (or a file of it outside its cases).
        Some(problem) if problem.package.as_ref().is_some_and(|p| is_under(path, p)) => {
            Ok(Chosen::whole(problem))
        }
        // A folder that holds the problem's cases (`judge run pairs` where
        // judge.toml says `cases = "pairs/cases"`): the whole problem.
        Some(problem) if is_under(&problem.cases, path) => Ok(Chosen::whole(problem)),
        // A configured problem judged on cases elsewhere.
        Some(mut problem) => {
            problem.cases = path.to_path_buf();
            problem.case_groups.clear();
            Ok(Chosen::whole(problem))
        }
        None => unconfigured_path(path, selection.problem.as_deref(), overrides),
    }
}

/// A bare folder (or `.in` file) outside any judge.toml and package: a
/// generic problem named after its folder, said in one line.
fn generic_folder(path: &Path, overrides: &Overrides) -> Result<Chosen, Failure> {
    let folder = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(Path::new("."))
    };
    let name = std::path::absolute(folder)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "cases".to_string());
    let problem = config::generic_problem(&name, path.to_path_buf(), overrides)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    super::stdout::note!(
        "judge: {}: no judge.toml or problem package; judged as problem {name:?}, outputs compared as {} (--problem NAME for a built-in puzzle)",
        path.display(),
        problem.comparison.name()
    );
    Ok(Chosen::whole(problem))
}

/// A path outside judge.toml: a package (or a path in its data/), or cases
/// of the problem `--problem` names.
fn unconfigured_path(
    path: &Path,
    name: Option<&str>,
    overrides: &Overrides,
) -> Result<Chosen, Failure> {
    if let Some(root) = crate::formats::package_root(path).filter(|_| name.is_none()) {
        crate::commands::generators::prepare_package(&root)?;
        let problem =
            config::package_problem(&root, overrides).map_err(|e| Failure::Usage(e.to_string()))?;
        let under = is_under(path, &problem.cases).then(|| path.to_path_buf());
        let root = problem.cases.clone();
        return Ok(Chosen {
            problem,
            root,
            under,
        });
    }
    let Some(name) = name else {
        return generic_folder(path, overrides);
    };
    let problem = config::ad_hoc_problem(name, path.to_path_buf(), overrides)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    Ok(Chosen::whole(problem))
}

/// The cases of one chosen problem, narrowed by path and `--filter`; its
/// warnings and discovery's join `warnings`.
fn discover(
    chosen: &Chosen,
    filter: Option<&Filter>,
    warnings: &mut Vec<String>,
) -> Result<CaseList, Failure> {
    let problem = &chosen.problem;
    let whole_tree = chosen.root == problem.cases;
    let groups: &[String] = if whole_tree {
        &problem.case_groups
    } else {
        &[]
    };
    let discovery = cases::discover_groups(&chosen.root, groups, crate::formats::package_of).map_err(|e| match e {
        // A missing cases directory the configuration names says so.
        DiscoveryError::RootMissing(root) if whole_tree => Failure::Usage(format!(
            "problem {}: its cases directory {} does not exist (cases = \"…\" in the configuration; `judge gen` can make cases)",
            problem.name,
            root.display()
        )),
        other => Failure::Usage(other.to_string()),
    })?;
    for w in &problem.warnings {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }
    warnings.extend(discovery.warnings);
    let mut cases = discovery.cases;
    if let Some(under) = &chosen.under {
        let under = std::fs::canonicalize(under).unwrap_or_else(|_| under.clone());
        cases.retain_inputs(|input| {
            std::fs::canonicalize(input).is_ok_and(|p| p.starts_with(&under))
        });
    }
    if let Some(filter) = filter {
        cases.retain_names(|name| filter.keeps(&problem.name, name));
    }
    // What each case's group changes (a package's testdata.yaml).
    cases
        .assign_settings(problem.has_case_settings(), |input| {
            problem.settings_for(input)
        })
        .map_err(|e| Failure::Usage(e.to_string()))?;
    Ok(cases)
}

/// Add a problem's cases; the same problem twice (two paths under it)
/// merges the case lists.
fn add(selected: &mut Selected, problem: Problem, cases: CaseList) -> Result<(), Failure> {
    let same = selected
        .problems
        .iter()
        .position(|p| p.name == problem.name && p.cases == problem.cases);
    let Some(i) = same else {
        selected.problems.push(problem);
        selected.cases.push(cases);
        return Ok(());
    };
    selected.cases[i]
        .merge(cases)
        .map_err(|e| Failure::Usage(e.to_string()))
}

fn unknown_problem(name: &str, config: Option<&Config>) -> Failure {
    let known: Vec<&str> = config
        .map(|c| c.problems.iter().map(|p| p.name.as_str()).collect())
        .unwrap_or_default();
    let missing = if name.contains('/') && !std::path::Path::new(name).exists() {
        format!("{name}: no such directory, and ")
    } else {
        String::new()
    };
    Failure::Usage(format!(
        "{missing}no problem {name:?} in judge.toml (its problems: {})",
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    ))
}

fn problem_holding<'c>(config: &'c Config, path: &Path) -> Option<&'c Problem> {
    config
        .problems
        .iter()
        .find(|p| is_under(path, &p.cases))
        .or_else(|| {
            config
                .problems
                .iter()
                .find(|p| p.package.as_ref().is_some_and(|root| is_under(path, root)))
        })
        .or_else(|| {
            // The one problem whose cases are inside the folder (its own
            // folder); two or more: none is chosen for it.
            let mut holding = config.problems.iter().filter(|p| is_under(&p.cases, path));
            match (holding.next(), holding.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        })
}

/// Is `path` the directory `root` or inside it (compared canonically)?
pub fn is_under(path: &Path, root: &Path) -> bool {
    match (std::fs::canonicalize(path), std::fs::canonicalize(root)) {
        (Ok(p), Ok(r)) => p.starts_with(r),
        _ => false,
    }
}
