//! The sandbox a command judges programs in, and what it hides from them.

use super::Failure;
use crate::cases::{Case, CaseList};
use crate::check::tool::{Source, Tool};
use crate::config::{Config, Problem};
use crate::exec::interrupt::Interrupt;
use crate::exec::sandbox::{Sandbox, SandboxMode, SandboxOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the judged programs must not see.
pub struct Hidden<'a> {
    pub config: Option<&'a Config>,
    pub problems: &'a [Problem],
    /// The cases that will run, per problem: their input and answer files
    /// are hidden where they really are, whatever form the command line
    /// gave them in (files, globs, symbolic links to elsewhere).
    pub cases: HiddenCases<'a>,
    /// Submissions are judged (not the reference solutions themselves):
    /// the reference solutions are hidden too.
    pub submissions: bool,
    /// Directories of the judge's own making that hold answers (`judge
    /// stress` writes each round's case there).
    pub extra: Vec<PathBuf>,
}

/// The cases of a command, per problem: compact lists (`judge run`) or
/// cases made already (verify, limits).
#[derive(Clone, Copy)]
pub enum HiddenCases<'a> {
    Lists(&'a [CaseList]),
    Made(&'a [Vec<Case>]),
}

impl HiddenCases<'_> {
    fn each(&self, mut f: impl FnMut(&Case)) {
        match self {
            HiddenCases::Lists(lists) => lists.iter().flat_map(CaseList::iter).for_each(|c| f(&c)),
            HiddenCases::Made(made) => made.iter().flatten().for_each(f),
        }
    }
}

/// The sandbox for judging programs, and the interrupt that reaches it.
/// Submissions must not see the data or the judge's files: it hides every
/// cases root (of these problems and of the whole judge.toml), the
/// directories that really hold each case's input and answer, judge.toml
/// itself, the problems' checkers and validators, and, when submissions
/// are judged, the reference solutions.
/// The sandbox of a command that runs submissions on `-j N` workers
/// (one a core without `-j`), with the sandbox chosen automatically
/// (`verify`, `limits`).
pub fn trial_sandbox(
    hidden: &Hidden<'_>,
    jobs: Option<usize>,
) -> Result<(Interrupt, Arc<Sandbox>), Failure> {
    let workers =
        jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    judging_sandbox(hidden, workers, SandboxMode::Auto)
}

pub fn judging_sandbox(
    hidden: &Hidden<'_>,
    workers: usize,
    mode: SandboxMode,
) -> Result<(Interrupt, Arc<Sandbox>), Failure> {
    let interrupt = Interrupt::install()
        .map_err(|e| Failure::Internal(format!("cannot catch signals: {e}")))?;
    let sandbox = Sandbox::new(SandboxOptions {
        interrupt: Some(interrupt.fd()),
        mode,
        hide: hidden_paths(hidden, true),
        secret: hidden_paths(hidden, false),
        slots: workers.max(1),
        ..SandboxOptions::default()
    })
    .map_err(|e| Failure::Internal(e.to_string()))?;
    Ok((interrupt, Arc::new(sandbox)))
}

/// Every path to hide, existing, sorted, once.
/// With `whole`, the places hidden whole too (a package, the judge.toml
/// project, the package's submissions, HOME, the build cache), whose
/// files a command may name and get copied out; without, the secrets
/// alone.
fn hidden_paths(hidden: &Hidden<'_>, whole: bool) -> Vec<PathBuf> {
    let mut hide: Vec<PathBuf> = hidden.extra.clone();
    let mut all: Vec<&Problem> = hidden.problems.iter().collect();
    if let Some(config) = hidden.config {
        hide.push(config.path.clone());
        // The whole project judge.toml describes: its reference solutions,
        // scripts and whatever else lies beside it. A program that lives
        // there (a submission in the repository) is copied out for its
        // runs (`Sandbox::stage`).
        if whole && let Ok(file) = std::path::absolute(&config.path) {
            hide.extend(file.parent().map(Path::to_path_buf));
        }
        all.extend(config.problems.iter());
    }
    // The judge's user's home (its dotfiles, its keys) and the build
    // cache, wherever it is: out of sight, so out of reach.
    if whole {
        hide.extend(home());
        hide.push(crate::exec::cache_dir());
    }
    let tool_path = |tool: &Tool| match &tool.source {
        Source::Path(p) => Some(p.clone()),
        Source::Name(_) => None,
    };
    for problem in all {
        hide.push(problem.cases.clone());
        // A package is hidden whole (its submissions, generators,
        // validators, included code), and so is a judge.toml problem's
        // submissions tree.
        if whole {
            hide.extend(problem.package.clone());
            hide.push(problem.submissions.clone());
        }
        // Cases named as a file: the directory that holds them.
        if problem.cases.is_file() {
            hide.extend(problem.cases.parent().map(Path::to_path_buf));
        }
        if let Some(checker) = problem.comparison.checker() {
            hide.extend(tool_path(&checker.tool));
        }
        hide.extend(problem.validators.iter().filter_map(|v| tool_path(&v.tool)));
        // Every file a reference solution's command names (`python3
        // sol/ref.py`: the script, not only the interpreter), where it
        // really is.
        if hidden.submissions
            && let Some(words) = problem.solution.as_deref().and_then(shlex::split)
        {
            for word in words {
                let path = PathBuf::from(word);
                let Ok(real) = std::fs::canonicalize(&path) else {
                    continue;
                };
                // An interpreter of the system's (`/usr/bin/python3`) is
                // the submissions' too.
                if !SYSTEM.iter().any(|s| real.starts_with(s)) {
                    hide.push(real);
                    hide.push(path);
                }
            }
        }
    }
    case_places(hidden, &mut hide);
    hide.retain(|p| p.exists());
    hide.sort();
    hide.dedup();
    hide
}

/// Each case's files where they really are: a `.ans` that is a link to a
/// file elsewhere is hidden there, with its directory. (One look-up a
/// file, one a directory: a run of a million cases shares a handful of
/// directories.)
fn case_places(hidden: &Hidden<'_>, hide: &mut Vec<PathBuf>) {
    let mut seen = std::collections::HashSet::new();
    hidden.cases.each(|case| {
        for file in std::iter::once(&case.input).chain(case.answer.as_ref()) {
            let parent = file.parent().filter(|p| !p.as_os_str().is_empty());
            if let Some(parent) = parent
                && !seen.contains(parent)
            {
                seen.insert(parent.to_path_buf());
                hide.push(parent.to_path_buf());
            }
            let linked = std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink());
            if linked && let Ok(real) = std::fs::canonicalize(file) {
                hide.extend(real.parent().map(Path::to_path_buf));
            }
        }
    });
}

/// The system's directories: never hidden for naming a program.
const SYSTEM: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/opt", "/nix",
];

/// The judge's user's home directory, when it names one.
fn home() -> Option<PathBuf> {
    let home = PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?);
    (home.is_absolute() && home.is_dir()).then_some(home)
}
