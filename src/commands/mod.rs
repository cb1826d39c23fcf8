//! One file per subcommand: each turns parsed arguments into work across the
//! layers (config, cases, exec, check, judge, report) and returns an exit
//! code. Shared here: loading the configuration and choosing the problems
//! and cases a command works on.

pub mod generate;
pub mod limits;
pub mod list;
pub mod merge;
pub mod puzzle;
pub mod run;
pub mod stdout;
pub mod stress;
pub mod submissions;
pub mod validate;
pub mod verify;

use crate::cases::{self, Case, Filter};
use crate::cli::{Cli, Command, CompareArgs, LimitArgs, Selection};
use crate::config::{self, CheckKind, Config, Overrides, Problem};
use crate::exec::process::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use crate::judge::Program;
use crate::submission::{BuildError, Built, Source, Toolchain};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Exit codes (README "Exit codes").
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INTERNAL: i32 = 3;
pub const EXIT_INTERRUPTED: i32 = 130;

/// Why a command stopped early.
#[derive(Debug)]
pub enum Failure {
    /// A usage or configuration error (exit 2).
    Usage(String),
    /// The judge's own failure (exit 3).
    Internal(String),
    /// Ctrl-C before the work was done (exit 130).
    Interrupted,
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) => EXIT_USAGE,
            Failure::Internal(_) => EXIT_INTERNAL,
            Failure::Interrupted => EXIT_INTERRUPTED,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::Internal(m) => m,
            Failure::Interrupted => "interrupted",
        }
    }
}

pub type Outcome = Result<i32, Failure>;

/// Run a parsed command line; returns the process exit code.
pub fn main(cli: Cli) -> i32 {
    let config_path = cli.config.clone();
    let result = match cli.command {
        Command::Run(args) => run::run(config_path.as_deref(), args),
        Command::Solve(args) => puzzle::solve(config_path.as_deref(), args),
        Command::Check(args) => puzzle::check(config_path.as_deref(), args),
        Command::Gen(args) => generate::generate(config_path.as_deref(), args),
        Command::Validate(args) => validate::validate(config_path.as_deref(), args),
        Command::Stats(args) => puzzle::stats(config_path.as_deref(), args),
        Command::List => list::list(config_path.as_deref()),
        Command::Merge(args) => merge::merge(args),
        Command::Verify(args) => verify::verify(config_path.as_deref(), args),
        Command::Limits(args) => limits::limits(config_path.as_deref(), args),
        Command::Stress(args) => stress::stress(config_path.as_deref(), args),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            let kind = match failure {
                Failure::Usage(_) => "error",
                Failure::Internal(_) => "internal error",
                Failure::Interrupted => "stopped",
            };
            eprintln!("judge: {kind}: {}", failure.message());
            failure.exit_code()
        }
    }
}

/// Load `--config FILE`, or ./judge.toml when it exists (`None` when there
/// is no configuration at all and none was asked for).
pub fn load_config(path: Option<&Path>, overrides: &Overrides) -> Result<Option<Config>, Failure> {
    let (path, required) = match path {
        Some(p) => (p.to_path_buf(), true),
        None => (PathBuf::from("judge.toml"), false),
    };
    if !required && !path.exists() {
        return Ok(None);
    }
    Config::load(&path, overrides)
        .map(Some)
        .map_err(|e| Failure::Usage(e.to_string()))
}

/// Build the overrides from limit and comparison flags.
pub fn overrides(limits: &LimitArgs, compare: &CompareArgs) -> Result<Overrides, Failure> {
    let comparison = match compare.check.as_deref() {
        None => None,
        Some("exact") => Some(CheckKind::Exact),
        Some("lines") => Some(CheckKind::Lines),
        Some("tokens") => Some(CheckKind::Tokens),
        Some("puzzle") => Some(CheckKind::Puzzle),
        Some("checker") => Some(CheckKind::Checker),
        Some(other) => {
            return Err(Failure::Usage(format!(
                "--check {other:?}: expected exact, lines, tokens, puzzle or checker"
            )));
        }
    };
    Ok(Overrides {
        time_limit: limits.time_limit.map(|s| s.0),
        wall_limit: limits.wall_limit.map(|s| s.0),
        memory_limit: limits.memory_limit.map(|s| s.0),
        stack_limit: limits.stack_limit.map(|s| s.0),
        output_limit: limits.output_limit.map(|s| s.0),
        processes: limits.processes,
        strict: compare.strict.then_some(true),
        lexmin: compare.lexmin,
        comparison,
        float_tolerance: compare.float_tolerance,
    })
}

/// What a command works on: problems, each with its cases.
pub struct Selected {
    pub problems: Vec<Problem>,
    /// Per problem, its cases in natural order.
    pub cases: Vec<Vec<Case>>,
    pub warnings: Vec<String>,
}

/// Choose problems and cases from the configuration and the command line:
/// no PATHS → every problem (or `--problem`), or with no judge.toml the
/// Kattis-style package in the current directory; PATHS → the problem whose
/// cases root (or package) holds each path, the package a path is in, or
/// `--problem` for paths outside judge.toml.
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
        .map_err(Failure::Usage)?;
    // (problem, cases root, only cases under this path)
    let mut chosen: Vec<(Problem, PathBuf, Option<PathBuf>)> = Vec::new();
    if selection.paths.is_empty() {
        match (config, &selection.problem) {
            (Some(config), Some(name)) => {
                let problem = config
                    .problem(name)
                    .ok_or_else(|| unknown_problem(name, Some(config)))?;
                chosen.push((problem.clone(), problem.cases.clone(), None));
            }
            (Some(config), None) => {
                if config.problems.is_empty() {
                    return Err(Failure::Usage(format!(
                        "{} declares no problems: add a [problem.NAME] table",
                        config.path.display()
                    )));
                }
                for p in &config.problems {
                    chosen.push((p.clone(), p.cases.clone(), None));
                }
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
                chosen.push((problem.clone(), problem.cases.clone(), None));
            }
            (None, None) if config::kattis::is_package(Path::new(".")) => {
                let problem = config::package_problem(Path::new("."), overrides)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
                chosen.push((problem.clone(), problem.cases.clone(), None));
            }
            (None, None) => {
                return Err(Failure::Usage(
                    "no judge.toml or problem.yaml here and no cases given: try `judge run DIR --problem NAME`, `judge run PACKAGE_DIR`, or --config FILE"
                        .to_string(),
                ));
            }
        }
    } else {
        for path in &selection.paths {
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
                    chosen.push((problem, root, Some(path.clone())));
                }
                Some(problem) if problem.package.as_ref().is_some_and(|p| is_under(path, p)) => {
                    // The package itself (or a file of it outside its cases).
                    let root = problem.cases.clone();
                    chosen.push((problem, root, None));
                }
                Some(mut problem) => {
                    // A configured problem judged on cases elsewhere.
                    problem.cases = path.clone();
                    problem.case_groups.clear();
                    chosen.push((problem, path.clone(), None));
                }
                None => {
                    // A Kattis-style package, or a path in its data/.
                    let package = config::kattis::package_root(path);
                    if let Some(root) = package.filter(|_| selection.problem.is_none()) {
                        let problem = config::package_problem(&root, overrides)
                            .map_err(|e| Failure::Usage(e.to_string()))?;
                        let under = is_under(path, &problem.cases).then(|| path.clone());
                        let cases_root = problem.cases.clone();
                        chosen.push((problem, cases_root, under));
                        continue;
                    }
                    let Some(name) = &selection.problem else {
                        return Err(Failure::Usage(format!(
                            "{}: not under the cases of any problem in judge.toml, nor a problem package (a directory with problem.yaml); say which problem it is with --problem NAME (a built-in puzzle: {})",
                            path.display(),
                            crate::puzzles::names().join(", ")
                        )));
                    };
                    let problem = config::ad_hoc_problem(name, path.clone(), overrides)
                        .map_err(|e| Failure::Usage(e.to_string()))?;
                    chosen.push((problem, path.clone(), None));
                }
            }
        }
    }
    let mut problems = Vec::new();
    let mut all_cases = Vec::new();
    let mut warnings = Vec::new();
    for (problem, root, under) in chosen {
        let groups: &[String] = if root == problem.cases {
            &problem.case_groups
        } else {
            &[]
        };
        let discovery = cases::discover_groups(&root, groups).map_err(|e| {
            // A missing cases directory the configuration names says so.
            if root == problem.cases && !root.exists() {
                Failure::Usage(format!(
                    "problem {}: its cases directory {} does not exist (cases = \"…\" in the configuration; `judge gen` can make cases)",
                    problem.name,
                    root.display()
                ))
            } else {
                Failure::Usage(e.to_string())
            }
        })?;
        for w in &problem.warnings {
            if !warnings.contains(w) {
                warnings.push(w.clone());
            }
        }
        warnings.extend(discovery.warnings);
        let cases: Vec<Case> = discovery
            .cases
            .into_iter()
            .filter(|c| under.as_ref().is_none_or(|u| is_under(&c.input, u)))
            .filter(|c| {
                filter
                    .as_ref()
                    .is_none_or(|f| f.keeps(&problem.name, &c.name))
            })
            .collect();
        // The same problem twice (two paths under it): merge the case lists.
        if let Some(i) = problems
            .iter()
            .position(|p: &Problem| p.name == problem.name && p.cases == problem.cases)
        {
            let existing: &mut Vec<Case> = &mut all_cases[i];
            for c in cases {
                if !existing.contains(&c) {
                    existing.push(c);
                }
            }
            existing.sort_by(|a, b| cases::natural_cmp(&a.name, &b.name));
        } else {
            problems.push(problem);
            all_cases.push(cases);
        }
    }
    Ok(Selected {
        problems,
        cases: all_cases,
        warnings,
    })
}

fn unknown_problem(name: &str, config: Option<&Config>) -> Failure {
    let known: Vec<&str> = config
        .map(|c| c.problems.iter().map(|p| p.name.as_str()).collect())
        .unwrap_or_default();
    Failure::Usage(format!(
        "no problem {name:?} in judge.toml (its problems: {})",
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
}

/// Is `path` the directory `root` or inside it (compared canonically)?
pub fn is_under(path: &Path, root: &Path) -> bool {
    match (std::fs::canonicalize(path), std::fs::canonicalize(root)) {
        (Ok(p), Ok(r)) => p.starts_with(r),
        _ => false,
    }
}

/// A built-in puzzle by name, or the puzzle of a judge.toml problem of that
/// name.
pub fn puzzle_named(
    name: &str,
    config: Option<&Config>,
) -> Result<(&'static dyn crate::puzzles::Puzzle, Option<Problem>), Failure> {
    if let Some(problem) = config.and_then(|c| c.problem(name)) {
        return match problem.puzzle {
            Some(p) => Ok((p, Some(problem.clone()))),
            None => Err(Failure::Usage(format!(
                "problem {name:?} is not a built-in puzzle (puzzles: {})",
                crate::puzzles::names().join(", ")
            ))),
        };
    }
    crate::puzzles::find(name)
        .map(|p| (p, None))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "unknown puzzle {name:?}: the built-in puzzles are {}",
                crate::puzzles::names().join(", ")
            ))
        })
}

/// The program a `--submission` means: a source file (or a directory with
/// one) is built by its language (`language` forces one), anything else is
/// a command line. A compile error is printed once here, on stderr, and
/// the program's cases are all CE; a missing compiler is a usage error.
pub fn submission_program(
    text: &str,
    language: Option<&str>,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    quiet: bool,
) -> Result<Program, Failure> {
    let source = match language {
        Some(name) => {
            let language = toolchain.language_named(name).map_err(Failure::Usage)?;
            if !Path::new(text).is_file() {
                return Err(Failure::Usage(format!(
                    "--language {name}: {text} is not a source file"
                )));
            }
            Some(Source {
                path: PathBuf::from(text),
                language: language.clone(),
            })
        }
        None => toolchain
            .find_source(Path::new(text))
            .map_err(Failure::Usage)?,
    };
    let Some(source) = source else {
        let single_word = shlex::split(text).is_some_and(|w| w.len() == 1);
        if single_word
            && !Path::new(text).exists()
            && toolchain.language_of(Path::new(text)).is_some()
        {
            return Err(Failure::Usage(format!("{text}: no such source file")));
        }
        let runner = ProcessRunner::new(text, Arc::clone(sandbox)).map_err(Failure::Usage)?;
        return Ok(Program::new(Arc::new(runner), text));
    };
    let shown = source.path.display().to_string();
    match toolchain.build(&source, sandbox, 0) {
        Ok(Built::Ready(exe)) => {
            if !quiet {
                match exe.compile_time {
                    Some(t) if !exe.from_cache => eprintln!(
                        "judge: compiled {shown} ({}) in {:.2}s",
                        source.language.name,
                        t.as_secs_f64()
                    ),
                    _ => eprintln!(
                        "judge: {shown} ({}): cached build, not compiled again",
                        source.language.name
                    ),
                }
            }
            let runner =
                ProcessRunner::from_argv(exe.program, exe.args, exe.display, Arc::clone(sandbox))
                    .map_err(Failure::Usage)?;
            Ok(Program::new(Arc::new(runner), text))
        }
        Ok(Built::CompileError(error)) => {
            if !quiet {
                eprintln!(
                    "judge: {shown} ({}) does not compile: every case is CE",
                    source.language.name
                );
            }
            let mut program = Program::new(Arc::new(crate::submission::NotBuilt), text);
            program.compile_error = Some(error);
            Ok(program)
        }
        Err(e @ BuildError::MissingTool { .. }) => Err(Failure::Usage(e.to_string())),
        Err(BuildError::Interrupted) => Err(Failure::Interrupted),
        Err(BuildError::Internal(m)) => Err(Failure::Internal(m)),
    }
}

/// Build every external checker of these problems before any case runs (a
/// broken checker is one error, not an IE on every case). Returns the
/// sandbox to run them in, if any problem has one (`Plan::tools`).
pub fn prepare_checkers(
    problems: &[Problem],
    sandbox: &std::sync::Arc<crate::exec::sandbox::Sandbox>,
) -> Result<Option<std::sync::Arc<crate::exec::sandbox::Sandbox>>, Failure> {
    let mut any = false;
    for problem in problems {
        if let Some(checker) = problem.comparison.checker() {
            any = true;
            checker
                .tool
                .prepare(sandbox)
                .map_err(|e| Failure::Usage(format!("problem {}: checker: {e}", problem.name)))?;
        }
    }
    Ok(any.then(|| std::sync::Arc::clone(sandbox)))
}

/// The sandbox for judging programs, and the interrupt that reaches it.
/// Submissions must not see the data or the judge's files: it hides every
/// cases root (of these problems and of the whole judge.toml), judge.toml
/// itself, the problems' checkers and validators, and, when `submissions`
/// are judged (not the reference solutions themselves), the reference
/// solutions.
pub fn judging_sandbox(
    config: Option<&Config>,
    problems: &[Problem],
    submissions: bool,
    workers: usize,
    mode: crate::exec::sandbox::SandboxMode,
) -> Result<
    (
        crate::exec::interrupt::Interrupt,
        std::sync::Arc<crate::exec::sandbox::Sandbox>,
    ),
    Failure,
> {
    use crate::exec::sandbox::{Sandbox, SandboxOptions};
    let interrupt = crate::exec::interrupt::Interrupt::install()
        .map_err(|e| Failure::Internal(format!("cannot catch signals: {e}")))?;
    let mut hide: Vec<PathBuf> = problems.iter().map(|p| p.cases.clone()).collect();
    let mut all: Vec<&Problem> = problems.iter().collect();
    if let Some(config) = config {
        hide.push(config.path.clone());
        all.extend(config.problems.iter());
    }
    let tool_path = |tool: &crate::check::tool::Tool| match &tool.source {
        crate::check::tool::Source::Path(p) => Some(p.clone()),
        crate::check::tool::Source::Name(_) => None,
    };
    for problem in all {
        hide.push(problem.cases.clone());
        if let Some(checker) = problem.comparison.checker() {
            hide.extend(tool_path(&checker.tool));
        }
        hide.extend(problem.validators.iter().filter_map(|v| tool_path(&v.tool)));
        if submissions
            && let Some(first) = problem
                .solution
                .as_deref()
                .and_then(shlex::split)
                .and_then(|w| w.into_iter().next())
        {
            hide.push(first.into());
        }
    }
    hide.retain(|p| p.exists());
    hide.sort();
    hide.dedup();
    let sandbox = Sandbox::new(SandboxOptions {
        interrupt: Some(interrupt.fd()),
        mode,
        hide,
        slots: workers.max(1),
        ..SandboxOptions::default()
    })
    .map_err(Failure::Internal)?;
    Ok((interrupt, std::sync::Arc::new(sandbox)))
}
