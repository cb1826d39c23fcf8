//! What a command prepares before any case runs: the configuration with
//! the command line's overrides, a puzzle named on the command line, the
//! program a `--submission` means (built when it is a source), and the
//! problems' checkers.

use super::Failure;
use crate::cli::{CompareArgs, LimitArgs};
use crate::config::{CheckKind, Config, Overrides, Problem};
use crate::exec::runner::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use crate::judge::Program;
use crate::submission::{BuildError, Built, Source, Toolchain};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// What a package adds to a submission's build: its `include/` code and
/// its constants.
#[derive(Clone, Debug)]
pub struct PackageStaging {
    pub root: std::path::PathBuf,
    pub constants: Option<Arc<crate::text::constants::Constants>>,
}

impl PackageStaging {
    /// The staging of `problem`'s package, if it is one.
    pub fn of(problem: &Problem) -> Option<PackageStaging> {
        problem.package.as_ref().map(|root| PackageStaging {
            root: root.clone(),
            constants: problem.constants.clone(),
        })
    }
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
    package: Option<&PackageStaging>,
) -> Result<Program, Failure> {
    let mut source = match named_source(text, language, toolchain, quiet)? {
        Named::Source(source) => *source,
        Named::Unbuildable(program) => return Ok(program),
        Named::Command => {
            let single_word = shlex::split(text).is_some_and(|w| w.len() == 1);
            if single_word
                && !Path::new(text).exists()
                && toolchain.language_of(Path::new(text)).is_some()
            {
                return Err(Failure::Usage(format!("{text}: no such source file")));
            }
            let runner = ProcessRunner::new(text, Arc::clone(sandbox)).map_err(Failure::usage)?;
            return Ok(Program::new(Arc::new(runner), text));
        }
    };
    // A package's submission is built as `verify` builds its own: with the
    // package's included code and constants.
    if let Some(package) = package {
        source.includes = includes(&package.root, &source.language.name);
        source.constants = package.constants.clone();
    }
    build_source(text, &source, toolchain, sandbox, quiet)
}

/// A package's `include/<language>/` (by the language's name or one of
/// its other names), else its `include/default/`: copied beside every
/// submission of that language before it is built. The language's own
/// directory replaces the default one, as the spec has it ("for a
/// specific language, overriding the default"; "copied from a language
/// directory based on the language of the submission").
pub(super) fn includes(package: &Path, language: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(package.join("include")) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name == "default" || crate::submission::canonical_name(&name) == language
        })
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    // The language's own directory, if it has one (its exact name before
    // another name of it, `cpp` before `c++`), else default.
    dirs.sort_by_key(|d| {
        let name = d
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (name == "default", name != language, name)
    });
    dirs.truncate(1);
    dirs
}

/// What a `--submission` text names.
enum Named {
    Source(Box<Source>),
    /// Sources that make no program: every case CE.
    Unbuildable(Program),
    /// Not a source: a command line.
    Command,
}

fn named_source(
    text: &str,
    language: Option<&str>,
    toolchain: &Toolchain,
    quiet: bool,
) -> Result<Named, Failure> {
    if let Some(name) = language {
        let language = toolchain.language_named(name).map_err(Failure::usage)?;
        if !Path::new(text).is_file() {
            return Err(Failure::Usage(format!(
                "--language {name}: {text} is not a source file"
            )));
        }
        return Ok(Named::Source(Box::new(Source::file(
            Path::new(text),
            language.clone(),
        ))));
    }
    match toolchain.find_source(Path::new(text)) {
        Ok(Some(source)) => Ok(Named::Source(Box::new(source))),
        Ok(None) => Ok(Named::Command),
        // Sources that make no program: every case CE, as a compile
        // error (see `SourceError::NoProgram`).
        Err(e) if e.is_compile_error() => {
            if !quiet {
                crate::commands::stdout::say!("judge: {e}: every case is CE");
            }
            Ok(Named::Unbuildable(compile_failed(text, e)))
        }
        Err(e) => Err(Failure::usage(e)),
    }
}

/// A source built (or found in the build cache) into its program, said on
/// stderr unless `quiet`; one that does not compile is a program whose
/// every case is CE; a missing compiler is a usage error.
fn build_source(
    text: &str,
    source: &Source,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    quiet: bool,
) -> Result<Program, Failure> {
    let shown = source.path.display().to_string();
    let said = |line: String| {
        if !quiet {
            crate::commands::stdout::say!("{line}");
        }
    };
    match toolchain.build(source, sandbox, 0) {
        Ok(Built::Ready(exe)) => {
            said(match exe.compile_time {
                Some(t) if !exe.from_cache => format!(
                    "judge: compiled {shown} ({}) in {:.2}s",
                    source.language.name,
                    t.as_secs_f64()
                ),
                _ => format!(
                    "judge: {shown} ({}): cached build, not compiled again",
                    source.language.name
                ),
            });
            let runner = exe.runner(sandbox, &source.path).map_err(Failure::usage)?;
            Ok(Program::new(Arc::new(runner), text))
        }
        Ok(Built::CompileError(error)) => {
            said(format!(
                "judge: {shown} ({}) does not compile: every case is CE",
                source.language.name
            ));
            Ok(not_built(text, error))
        }
        Err(
            e @ (BuildError::MissingTool { .. }
            | BuildError::BrokenTool { .. }
            | BuildError::Unreachable { .. }),
        ) => Err(Failure::Usage(e.to_string())),
        Err(BuildError::SourceTooLarge(message)) => {
            said(format!("judge: {message}: every case is CE"));
            Ok(compile_failed(text, message))
        }
        Err(BuildError::Interrupted) => Err(Failure::Interrupted),
        Err(BuildError::Internal(m)) => Err(Failure::Internal(m)),
    }
}

/// A program whose every case is CE for `why` (no compiler output).
pub fn compile_failed(label: &str, why: impl std::fmt::Display) -> Program {
    not_built(
        label,
        crate::submission::CompileError {
            message: format!("compile error: {why}"),
            output: String::new(),
        },
    )
}

/// A submission that did not compile: each of its cases is CE with `error`.
pub fn not_built(label: &str, error: crate::submission::CompileError) -> Program {
    let mut program = Program::new(Arc::new(crate::submission::NotBuilt), label);
    program.compile_error = Some(error);
    program
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
        if let crate::check::Comparison::Interactive(interaction) = &problem.comparison {
            any = true;
            interaction.tool.prepare(sandbox).map_err(|e| {
                Failure::Usage(format!(
                    "problem {}: interactive validator: {e}",
                    problem.name
                ))
            })?;
            // The checker of a testlib interactor's tout, built now too: a
            // broken one is one usage error, not an IE on every case.
            if let Some(checker) = &interaction.checker {
                checker.tool.prepare(sandbox).map_err(|e| {
                    Failure::Usage(format!("problem {}: checker: {e}", problem.name))
                })?;
            }
        }
    }
    Ok(any.then(|| std::sync::Arc::clone(sandbox)))
}
