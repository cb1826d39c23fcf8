//! A problem's `submissions/` tree, shared by `judge verify` and `judge
//! limits`: finding the submissions and what each is expected to get,
//! building them, and judging them all in one plan (programs × cases) under
//! chosen limits, each case's result labelled with its submission.

mod build;
pub use build::{Entrant, Readiness, Trial, build_all, missing_tool, trial};

use super::Failure;
use crate::cases::Case;
use crate::config::Problem;
use crate::exec::Limits;
use crate::exec::sandbox::Sandbox;
use crate::expect::{self, Expectation, SubmissionRule};
use crate::judge::{self, CaseResult, Job, Plan, Program, Report, RunInfo, RunOptions};
use crate::report::human::{HumanReporter, Verbosity};
use crate::submission::{BuildError, Built, Source, Toolchain};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One submission of a problem.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The problem's index in the command's list.
    pub problem: usize,
    /// The path relative to the submissions directory (`accepted/sum.c`):
    /// the default label.
    pub rel: String,
    /// Its label in reports (the `program` of its cases): `rel`, or
    /// `problem/rel` when several problems are judged together.
    pub label: String,
    pub path: PathBuf,
    pub expectation: Expectation,
    /// The source, or why the path is not one.
    pub source: Result<Source, Unready>,
}

/// Why a submission has no source to build.
#[derive(Clone, Debug)]
pub enum Unready {
    /// The judge cannot build it here (no language for the file, an
    /// ambiguous directory): not run, named.
    NotRun(String),
    /// Its sources make no program (see `SourceError::NoProgram`): every
    /// case is CE, as a compiler's refusal would be.
    CompileError(String),
}

impl From<String> for Unready {
    fn from(message: String) -> Unready {
        Unready::NotRun(message)
    }
}

impl From<crate::submission::SourceError> for Unready {
    fn from(e: crate::submission::SourceError) -> Unready {
        if e.is_compile_error() {
            Unready::CompileError(e.to_string())
        } else {
            Unready::NotRun(e.to_string())
        }
    }
}

/// Find the submissions of `problem` and what each is expected to get: a
/// judge.toml `expect` table, else a `judge:` first line, else the folder.
/// A file of no known language in a verdict folder is a submission that
/// cannot be built (verify names it as not run); a submission with no
/// expectation at all is skipped with a warning.
pub fn discover(
    problem: &Problem,
    index: usize,
    toolchain: &Toolchain,
    warnings: &mut Vec<String>,
) -> Result<Vec<Submission>, Failure> {
    let root = &problem.submissions;
    let mut found = Vec::new();
    let mut seen_tables = vec![false; problem.expectations.len()];
    let rules = compile_rules(problem)?;
    let package = problem.package.as_deref().unwrap_or(root);
    for (rel, mut path) in entries(root)? {
        // BAPCtools' convention (`util.glob`): a `.disabled` or `.template`
        // file is set aside by its author, not a submission. Said, not run.
        if let Some(suffix) = set_aside(&path) {
            warnings.push(format!(
                "{}: a `{suffix}` file, set aside by its author (BAPCtools' convention); not run",
                path.display()
            ));
            continue;
        }
        follow_text_link(&mut path, package, warnings);
        let folder = rel.split_once('/').map(|(f, _)| f);
        let matching: Vec<&SubmissionRule> = rules
            .iter()
            .filter(|(glob, _)| matches_itself_or_above(glob, &rel))
            .map(|(_, rule)| *rule)
            .collect();
        // A file of no language the judge knows, in a verdict folder, is
        // still a submission: named as not run with the reason (verify
        // fails on it unless --allow-missing), never silently skipped.
        let ruled = ruled_source(&path, toolchain, &matching);
        let Some(mut source) = ruled.or_else(|| source_of(&path, toolchain, folder.is_some()))
        else {
            continue;
        };
        with_package_files(&mut source, problem);
        let table = problem
            .expectations
            .iter()
            .position(|(name, _)| name.trim_end_matches('/') == rel);
        let declared = declaration(&path, &mut source, table.is_some(), warnings)?;
        let expectation = match (table, declared) {
            (Some(t), _) => {
                if let Some(seen) = seen_tables.get_mut(t) {
                    *seen = true;
                }
                problem.expectations.get(t).map(|(_, e)| e.clone())
            }
            (None, Some(d)) => Some(d),
            (None, None) => Expectation::with_rules(folder, &matching, problem.dialect),
        };
        let Some(expectation) = expectation else {
            warnings.push(format!(
                "{}: no expected verdict ({}); skipped: declare one in its first line (`// judge: permitted AC TLE, required TLE`) or in judge.toml",
                path.display(),
                match folder {
                    Some(f) => format!("`{f}` is not a verdict folder"),
                    None => "not in a verdict folder".to_string(),
                }
            ));
            continue;
        };
        found.push(Submission {
            problem: index,
            label: rel.clone(),
            rel,
            path,
            expectation,
            source,
        });
    }
    warn_unseen_tables(problem, &seen_tables, warnings);
    Ok(found)
}

/// A submission that is a link checked out as text is read from its
/// target (said); one that cannot be followed is named, and then read as
/// the text it is (and fails as a source of no language, named as not run).
fn follow_text_link(path: &mut PathBuf, package: &Path, warnings: &mut Vec<String>) {
    match crate::cases::text_link::resolve(path, package) {
        Ok(Some(target)) => {
            warnings.push(crate::cases::text_link::warning(path, &target));
            *path = target;
        }
        Ok(None) => {}
        Err(e) => warnings.push(e.to_string()),
    }
}

/// A package's submission gets the package's include directories and
/// constants; its files and its included code that are links checked out
/// as text are staged from their targets. A link that cannot be followed:
/// this submission is not run, named.
fn with_package_files(source: &mut Result<Source, Unready>, problem: &Problem) {
    let (Ok(ready), Some(package)) = (&mut *source, &problem.package) else {
        return;
    };
    ready.includes = super::prepare::includes(package, &ready.language.name);
    ready.constants = problem.constants.clone();
    let mut links = Vec::new();
    let mut refused = None;
    for tree in std::iter::once(&ready.path).chain(&ready.includes) {
        match crate::cases::text_link::links_in(tree, package) {
            Ok(found) => links.extend(found),
            Err(e) => refused = Some(e.to_string()),
        }
    }
    ready.links = links;
    if let Some(why) = refused {
        *source = Err(Unready::NotRun(why));
    }
}

/// The expectation the submission's own file declares, if any. One that
/// does not read makes this submission not run, named with the file and
/// line (verify fails on it, `--allow-missing` does not forgive it); the
/// other submissions still run, as DOMjudge imports the rest of a package
/// whose one submission's `@EXPECTED_RESULTS@:` it refuses. With a
/// judge.toml `expect` entry (`in_table`), that decides: the line is not
/// used.
fn declaration(
    path: &Path,
    source: &mut Result<Source, Unready>,
    in_table: bool,
    warnings: &mut Vec<String>,
) -> Result<Option<Expectation>, Failure> {
    match declared_expectation(path, source, warnings) {
        Ok(declared) => Ok(declared),
        Err(Failure::Usage(why)) if in_table => {
            warnings.push(format!(
                "{why}; not used: judge.toml's expect gives this submission's expectation"
            ));
            Ok(None)
        }
        Err(Failure::Usage(why)) => {
            *source = Err(Unready::NotRun(format!(
                "its expected results cannot be read: {why}"
            )));
            Ok(Some(Expectation::declared(None, None)))
        }
        Err(e) => Err(e),
    }
}

/// judge.toml `expect` entries that name no submission, each a warning.
fn warn_unseen_tables(problem: &Problem, seen: &[bool], warnings: &mut Vec<String>) {
    for (seen, (name, _)) in seen.iter().zip(&problem.expectations) {
        if !seen {
            warnings.push(format!(
                "judge.toml: problem.{}.expect.{name:?}: no such submission in {}",
                problem.name,
                problem.submissions.display()
            ));
        }
    }
}

/// The suffix that sets a file aside (`.disabled`, `.template`), if any.
fn set_aside(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?;
    [".disabled", ".template"]
        .into_iter()
        .find(|s| s[1..] == *ext)
}

/// Whether a submissions.yaml glob matches a submission: its path or a
/// directory above it ("a submission is matched if either itself or a
/// parent directory is matched", 2025-09).
fn matches_itself_or_above(glob: &globset::GlobMatcher, rel: &str) -> bool {
    let mut path = rel;
    loop {
        if glob.is_match(path) {
            return true;
        }
        match path.rfind('/') {
            Some(i) => path = &path[..i],
            None => return false,
        }
    }
}

/// The globs of a package's submissions.yaml, compiled: `*` stays within
/// one directory, `**` crosses them, `{a,b}` are alternatives.
fn compile_rules(
    problem: &Problem,
) -> Result<Vec<(globset::GlobMatcher, &SubmissionRule)>, Failure> {
    problem
        .submission_rules
        .iter()
        .map(|rule| {
            let pattern = crate::expect::rules::glob_text(&rule.pattern);
            crate::text::glob::compile(&pattern, true)
                .map(|g| (g.compile_matcher(), rule))
                .map_err(|e| {
                    Failure::Usage(format!(
                        "{}: {:?}: not a glob: {e}",
                        problem.submissions.join("submissions.yaml").display(),
                        rule.pattern
                    ))
                })
        })
        .collect()
}

/// The source submissions.yaml makes of a path: its `language` forced, its
/// `entrypoint` the main file. `None`: no entry says either.
fn ruled_source(
    path: &Path,
    toolchain: &Toolchain,
    rules: &[&SubmissionRule],
) -> Option<Result<Source, Unready>> {
    let entry = rules.iter().rev().find_map(|r| r.entrypoint.as_deref());
    let language = rules.iter().rev().find_map(|r| r.language.as_deref());
    if entry.is_none() && language.is_none() {
        return None;
    }
    let forced = match language.map(|l| toolchain.language_named(l)) {
        Some(Ok(l)) => Some(l.clone()),
        Some(Err(_)) => {
            return Some(Err(format!(
                "submissions.yaml: language: {:?} is not a language the judge builds (add a [language.NAME] table to judge.toml)",
                language.unwrap_or_default()
            )
            .into()));
        }
        None => None,
    };
    if path.is_file() {
        let language = forced.or_else(|| toolchain.language_of(path).cloned())?;
        return Some(Ok(Source::file(path, language)));
    }
    Some(match toolchain.find_source_with(path, entry) {
        Ok(Some(mut source)) => {
            if let Some(language) = forced {
                source.language = language;
            }
            Ok(source)
        }
        Ok(None) => Err(format!("{}: not a source", path.display()).into()),
        Err(e) => Err(e.into()),
    })
}

/// The source a submission path means: a directory's one source, or a file
/// of a known language. A file of no known language is a source that
/// cannot be built (`Err`, with the reason) when it stands in a verdict
/// folder, and not a submission at all (`None`) at the top.
fn source_of(
    path: &Path,
    toolchain: &Toolchain,
    in_folder: bool,
) -> Option<Result<Source, Unready>> {
    if path.is_dir() {
        return Some(match toolchain.find_source(path) {
            Ok(Some(source)) => Ok(source),
            Ok(None) => Err(format!("{}: not a source", path.display()).into()),
            Err(e) => Err(e.into()),
        });
    }
    match toolchain.language_of(path) {
        Some(l) => Some(Ok(Source::file(path, l.clone()))),
        None if in_folder => Some(Err(Unready::NotRun(match path.extension() {
            Some(ext) => format!(
                "no language of the judge's builds .{} files (add a [language.NAME] table to judge.toml)",
                ext.to_string_lossy()
            ),
            None => "a file with no extension names no language (name it .py, .cpp, …, or give its language in submissions.yaml)".to_string(),
        }))),
        None => None,
    }
}

/// The expectation a source declares: a `judge:` first line, else
/// DOMjudge's `@EXPECTED_RESULTS@:` line.
fn declared_expectation(
    path: &Path,
    source: &Result<Source, Unready>,
    warnings: &mut Vec<String>,
) -> Result<Option<Expectation>, Failure> {
    // A directory, whether or not it makes a source (its expectation
    // still says whether not running it, or its CE, is expected).
    if path.is_dir() {
        return directory_expected_results(path, warnings);
    }
    let Ok(s) = source else {
        return Ok(None);
    };
    let bytes = match std::fs::read(&s.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Err(Failure::Usage(format!(
                "{}: cannot read: {e}",
                s.path.display()
            )));
        }
    };
    if let Some(declared) = expect::parse_declaration(&bytes)
        .map_err(|e| Failure::Usage(format!("{}:1: {e}", s.path.display())))?
    {
        return Ok(Some(declared));
    }
    // `OnLine` errors print as `LINE: …`, after the path: `path:LINE: …`.
    expect::parse_expected_results(&bytes)
        .map_err(|e| Failure::Usage(format!("{}:{e}", s.path.display())))
}

/// A directory submission's `@EXPECTED_RESULTS@:`, in whichever of its
/// files declares it (DOMjudge reads every file of a submission, and its
/// own example keeps the tag in an `expected_result.txt` while the source
/// mentions "the @EXPECTED_RESULTS@: tag" in prose): a file whose tag does
/// not read is warned about and passed over; two files declaring
/// different results are refused, naming both.
fn directory_expected_results(
    dir: &Path,
    warnings: &mut Vec<String>,
) -> Result<Option<Expectation>, Failure> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .max_depth(4)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    let mut found: Option<(PathBuf, Expectation)> = None;
    for file in files {
        // The tag is looked for in the first 64 KiB, as in a single file.
        let Ok(bytes) = std::fs::File::open(&file).and_then(|f| {
            let mut head = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head)?;
            Ok(head)
        }) else {
            continue;
        };
        let declared = match expect::parse_expected_results(&bytes) {
            Ok(declared) => declared,
            Err(e) => {
                warnings.push(format!(
                    "{}:{e}; passed over (another file of the submission may declare its results)",
                    file.display()
                ));
                continue;
            }
        };
        match (declared, &found) {
            (Some(e), None) => found = Some((file, e)),
            (Some(e), Some((first, kept)))
                if (&e.permitted, &e.required) != (&kept.permitted, &kept.required) =>
            {
                return Err(Failure::Usage(format!(
                    "{}: declares other expected results than {} ({e} against {kept}): a submission has one",
                    file.display(),
                    first.display()
                )));
            }
            _ => {}
        }
    }
    Ok(found.map(|(_, e)| e))
}

/// The submissions under `root`: each file or directory in a folder
/// (`accepted/sum.c`, `accepted/big/`), and files at the top (which need a
/// declaration). Sorted; hidden names skipped.
fn entries(root: &Path) -> Result<Vec<(String, PathBuf)>, Failure> {
    let list = |dir: &Path| -> Result<Vec<(String, PathBuf)>, Failure> {
        let mut out = Vec::new();
        let read = std::fs::read_dir(dir)
            .map_err(|e| Failure::Usage(format!("{}: cannot read: {e}", dir.display())))?;
        for entry in read.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with('.') {
                out.push((name, entry.path()));
            }
        }
        out.sort_by(|a, b| crate::cases::natural_cmp(&a.0, &b.0));
        Ok(out)
    };
    let mut out = Vec::new();
    for (name, path) in list(root)? {
        if path.is_dir() {
            for (child, child_path) in list(&path)? {
                out.push((format!("{name}/{child}"), child_path));
            }
        } else {
            out.push((name, path));
        }
    }
    Ok(out)
}
