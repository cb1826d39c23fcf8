//! judge.toml: the schema (serde + toml), defaults, and the resolved
//! [`Problem`]s the rest of the judge works with.
//!
//! Every key is known: an unknown key, a duration without a unit or a size
//! like "256 megs" is an error naming the key, the line and what was
//! expected. Command-line flags override the file ([`Overrides`]). This
//! module reads configuration only; it never looks inside case files.
//!
//! The public types live here; the serde tables are in `schema`, turning
//! them into [`Problem`]s is `resolve`, a problem's checker and validators
//! `tools`.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod case_settings;
pub use case_settings::with_case_input_args;
mod error;
mod polygon;
mod resolve;
mod schema;
mod scoring;
mod tools;
pub use crate::units;

use crate::formats::kattis;
pub use crate::formats::model::Problem;
use crate::puzzles::{self, Puzzle};
use crate::submission::Language;
pub use crate::units::{Size, Span, parse_memory, parse_processes, parse_tolerance};
pub use error::{ConfigError, GroupError, Place};
use resolve::{Sources, line_col_of_bytes, resolve, resolve_languages, resolve_with, toml_error};
use schema::{ProblemTable, RootTable};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Built-in defaults (README "judge.toml"): defined once, by the layer
/// that enforces them.
pub use crate::exec::{
    DEFAULT_MEMORY_LIMIT, DEFAULT_OUTPUT_LIMIT, DEFAULT_PROCESSES, DEFAULT_TIME_LIMIT,
};
pub use crate::submission::DEFAULT_COMPILE_TIME_LIMIT;

/// The toolchain judge.toml describes (its languages and compile limit), or
/// the built-in one without a judge.toml.
pub fn toolchain(config: Option<&Config>) -> crate::submission::Toolchain {
    match config {
        Some(c) => crate::submission::Toolchain::new(c.languages.clone(), c.compile_time_limit),
        None => crate::submission::Toolchain::new(
            crate::submission::builtin_languages(),
            DEFAULT_COMPILE_TIME_LIMIT,
        ),
    }
}

/// `check = "…"` as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckKind {
    Exact,
    Lines,
    Tokens,
    Puzzle,
    Checker,
}

/// A whole judge.toml, resolved.
#[derive(Clone, Debug)]
pub struct Config {
    /// The file it came from.
    pub path: PathBuf,
    /// Problems in the order the file lists them.
    pub problems: Vec<Problem>,
    /// Source languages: the built-in ones as `[language.NAME]` tables
    /// change them, then the file's new ones.
    pub languages: Vec<Language>,
    /// `compile_time_limit`: how long one compilation may take.
    pub compile_time_limit: Duration,
    /// Problems whose cases a generators.yaml makes (`generators = "…"`):
    /// name → the file (relative to the working directory).
    pub generators: Vec<(String, PathBuf)>,
}

/// Command-line flags that override the file for every problem.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub time_limit: Option<Duration>,
    pub wall_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
    pub stack_limit: Option<u64>,
    pub output_limit: Option<u64>,
    pub processes: Option<u32>,
    pub strict: Option<bool>,
    pub lexmin: Option<bool>,
    pub comparison: Option<CheckKind>,
    pub float_tolerance: Option<f64>,
}

impl Config {
    /// Read and resolve a judge.toml. Relative `cases` paths are relative to
    /// the file's directory.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        let text = crate::exec::bounded_read::read_package_file(
            path,
            crate::exec::bounded_read::DESCRIPTION_CAP,
        )
        .map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8(text).map_err(|e| {
            let at = line_col_of_bytes(e.as_bytes(), e.utf8_error().valid_up_to());
            ConfigError::NotUtf8 {
                place: Place::at(path, at.0, at.1),
            }
        })?;
        Config::parse(&text, path, overrides)
    }

    /// Resolve a judge.toml given as text (`path` names it in messages and
    /// anchors relative paths).
    pub fn parse(text: &str, path: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        let root: RootTable = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut problems = Vec::new();
        for (name, table) in &root.problem {
            problems.push(resolve(name, table, &root, base, path, text, overrides)?);
        }
        let languages = resolve_languages(&root, path, text)?;
        let compile_time_limit = root
            .compile_time_limit
            .map_or(DEFAULT_COMPILE_TIME_LIMIT, |s| s.0);
        if compile_time_limit.is_zero() {
            return Err(ConfigError::Whole {
                path: path.to_path_buf(),
                message: "compile_time_limit must be greater than zero".to_string(),
            });
        }
        let generators = resolve::generators(&root, base);
        Ok(Config {
            path: path.to_path_buf(),
            problems,
            languages,
            compile_time_limit,
            generators,
        })
    }

    pub fn problem(&self, name: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.name == name)
    }
}

/// A problem made from the command line alone (`judge run DIR --problem
/// rotation` with no judge.toml): a built-in puzzle judged by its statement,
/// or a plain text comparison.
pub fn ad_hoc_problem(
    name: &str,
    cases: PathBuf,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    command_line_problem(name, puzzles::find(name), cases, overrides)
}

/// A bare folder of `.in`/`.ans` pairs with no judge.toml and no package
/// (`judge run DIR --submission X`, as `oj test` takes one): a problem named
/// after the folder, outputs compared as tokens (or as the flags say),
/// whatever the folder's name.
pub fn generic_problem(
    name: &str,
    cases: PathBuf,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    command_line_problem(name, None, cases, overrides)
}

fn command_line_problem(
    name: &str,
    puzzle: Option<&'static dyn Puzzle>,
    cases: PathBuf,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    let table = ProblemTable::default();
    let root = RootTable::default();
    let mut problem = resolve_with(Sources {
        name,
        table: &table,
        root: &root,
        overrides,
        puzzle,
        cases,
        base: None,
        package: None,
    })
    .map_err(|(message, _)| ConfigError::CommandLine(message))?;
    problem.name = name.to_string();
    Ok(problem)
}

/// A Kattis-style package judged with no judge.toml (`judge run PKG`): its
/// name is its directory's.
pub fn package_problem(root: &Path, overrides: &Overrides) -> Result<Problem, ConfigError> {
    if crate::formats::polygon::is_package(root) {
        return polygon::problem(root, overrides);
    }
    let package = kattis::load(root)?;
    let table = ProblemTable::default();
    let defaults = RootTable::default();
    let name = package.name.clone();
    resolve_with(Sources {
        name: &name,
        table: &table,
        root: &defaults,
        overrides,
        puzzle: None,
        cases: root.join("data"),
        base: Some(root),
        package: Some(&package),
    })
    .map_err(|(message, _)| ConfigError::Whole {
        path: root.to_path_buf(),
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Comparison;

    fn parse(text: &str) -> Result<Config, crate::config::ConfigError> {
        Config::parse(text, Path::new("judge.toml"), &Overrides::default())
    }

    /// The message of the error `text` is refused with.
    fn refused(text: &str) -> String {
        match parse(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn defaults_and_overrides() {
        let c = parse(
            "time_limit = \"2s\"\n[problem.sum]\ncheck = \"tokens\"\nfloat_tolerance = 1e-6\n[problem.rotation]\npuzzle = \"rotation\"\ntime_limit = \"500ms\"\n",
        )
        .unwrap();
        let sum = c.problem("sum").unwrap();
        assert_eq!(sum.limits.time, Duration::from_secs(2));
        assert_eq!(sum.limits.wall, Duration::from_secs(5));
        assert_eq!(sum.limits.memory, Some(DEFAULT_MEMORY_LIMIT));
        assert_eq!(sum.limits.stack, Some(DEFAULT_MEMORY_LIMIT));
        assert_eq!(sum.cases, Path::new("cases/sum"));
        let rot = c.problem("rotation").unwrap();
        assert_eq!(rot.limits.time, Duration::from_millis(500));
        assert!(matches!(rot.comparison, Comparison::Puzzle));
        assert!(rot.lexmin, "rotation demands lexmin by its statement");
        let o = Overrides {
            time_limit: Some(Duration::from_secs(3)),
            ..Overrides::default()
        };
        let c = Config::parse(
            "[problem.a]\ntime_limit = \"1s\"\n",
            Path::new("j.toml"),
            &o,
        )
        .unwrap();
        assert_eq!(c.problems[0].limits.time, Duration::from_secs(3));
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let err = refused("[problem.sum]\ncheck = \"tokens\"\ntime_limt = \"1s\"\n");
        assert!(
            err.starts_with(
                "judge.toml:3:1: unknown field `time_limt`: did you mean `time_limit`?"
            ),
            "{err}"
        );
        assert!(!err.contains("expected one of"), "{err}");
        let err = refused("[problem.sum]\nzzzz = 1\n");
        assert!(err.contains("expected one of"), "nothing close: {err}");
    }

    #[test]
    fn bad_duration_names_key_and_line() {
        let err = refused("\n[problem.sum]\ntime_limit = \"2 sec\"\n");
        assert_eq!(
            err,
            "judge.toml:3:14: \"2 sec\" is not a duration: expected a duration such as 1.5s, 500ms or 2m (key `time_limit`)"
        );
    }

    #[test]
    fn bare_number_needs_a_unit() {
        let err = refused("memory_limit = 256\n");
        assert_eq!(
            err,
            "judge.toml:1:16: a size needs a unit in quotes, e.g. \"256MiB\" or \"256KiB\" (key `memory_limit`)"
        );
    }

    #[test]
    fn bad_size_names_key_and_line() {
        let err = refused("[problem.x]\nmemory_limit = \"256 megs\"\n");
        assert!(
            err.starts_with("judge.toml:2:16: \"256 megs\" is not a size"),
            "{err}"
        );
    }

    #[test]
    fn limits_that_cannot_work_name_key_and_line() {
        let cases = [
            (
                "time_limit = \"0s\"",
                "judge.toml:2:14: \"0s\" is too short (at least 1ms) (key `time_limit`)",
            ),
            (
                "wall_limit = \"0.0001ms\"",
                "judge.toml:2:14: \"0.0001ms\" is too short (at least 1ms) (key `wall_limit`)",
            ),
            (
                "memory_limit = \"1KiB\"",
                "judge.toml:2:16: 1KiB is too small for a memory limit (at least 1MiB: no program starts in less) (key `memory_limit`)",
            ),
            (
                "processes = 0",
                "judge.toml:2:13: 0 processes: at least 1 (the program itself) (key `processes`)",
            ),
            (
                "float_tolerance = -1",
                "judge.toml:2:19: a float tolerance must be a non-negative number, not -1 (key `float_tolerance`)",
            ),
            (
                "lexmin = true",
                "judge.toml:2:10: problem.x: lexmin only applies to a puzzle problem (puzzle = \"…\"): other problems' answers are compared, not proven smallest",
            ),
        ];
        for (line, expected) in cases {
            let err = refused(&format!("[problem.x]\n{line}\n"));
            assert_eq!(err, expected);
        }
    }

    #[test]
    fn a_default_tolerance_leaves_problems_not_compared_as_tokens_alone() {
        let c = parse(
            "float_tolerance = 1e-6\n[problem.sum]\n[problem.rotation]\npuzzle = \"rotation\"\n",
        )
        .unwrap();
        assert!(matches!(
            c.problems[0].comparison,
            Comparison::Tokens { float: Some(_), .. }
        ));
        assert!(matches!(c.problems[1].comparison, Comparison::Puzzle));
        let err = refused("[problem.r]\npuzzle = \"rotation\"\nfloat_tolerance = 1e-6\n");
        assert!(
            err.contains("a float tolerance only applies to check = \"tokens\""),
            "{err}"
        );
    }

    #[test]
    fn unknown_puzzle_and_bad_check() {
        let err = refused("[problem.r]\npuzzle = \"rotaton\"\n");
        assert_eq!(
            err,
            "judge.toml:2:10: problem.r.puzzle: unknown puzzle \"rotaton\"; the built-in puzzles are rotation, booksort, swap, flip, pilots"
        );
        let err = refused("[problem.r]\ncheck = \"puzzle\"\n");
        assert!(
            err.starts_with(
                "judge.toml:2:9: problem.r: check = \"puzzle\" needs a built-in puzzle"
            ),
            "{err}"
        );
        let err = refused("[problem.r]\ncheck = \"fuzzy\"\n");
        assert!(
            err.starts_with("judge.toml:2:9: unknown variant `fuzzy`"),
            "{err}"
        );
    }

    #[test]
    fn languages_change_built_ins_and_add_new_ones() {
        let c = parse(
            "compile_time_limit = \"5s\"\n[language.cpp]\ncompile = \"clang++ -O2 -o {bin} {src}\"\n[language.java]\nextensions = [\"java\"]\ncompile = \"javac -d {dir} {src}\"\nrun = \"java -cp {dir} Main\"\n[language.pypy]\nextensions = [\"py\"]\nrun = \"pypy3 {src}\"\n",
        )
        .unwrap();
        assert_eq!(c.compile_time_limit, Duration::from_secs(5));
        let cpp = c.languages.iter().find(|l| l.name == "cpp").unwrap();
        assert_eq!(cpp.compile.as_deref(), Some("clang++ -O2 -o {bin} {src}"));
        assert_eq!(cpp.run, "{bin}", "unset keys keep the built-in value");
        assert!(c.languages.iter().any(|l| l.name == "java"));
        // pypy takes .py from the built-in python3, which keeps its name
        // and its other extension.
        let python = c.languages.iter().find(|l| l.name == "python3").unwrap();
        assert_eq!(python.extensions, ["py3"]);
        let err = refused("[language.vlang]\nrun = \"{bin}\"\n");
        assert!(
            err.starts_with("judge.toml:1:1: language.vlang: a new language needs extensions"),
            "{err}"
        );
        let err = refused(
            "[language.a]\nextensions = [\"x\"]\nrun = \"a\"\n[language.b]\nextensions = [\"x\"]\nrun = \"b\"\n",
        );
        assert_eq!(
            err,
            "judge.toml: languages a and b both claim the extension .x"
        );
    }

    #[test]
    fn submissions_and_expect_tables() {
        let c = parse(
            "[problem.sum]\nsubmissions = \"subs\"\n[problem.sum.expect.\"accepted/slow.c\"]\npermitted = [\"AC\", \"time_limit_exceeded\"]\nrequired = [\"TLE\"]\n",
        )
        .unwrap();
        let sum = c.problem("sum").unwrap();
        assert_eq!(sum.submissions, Path::new("subs"));
        let (name, e) = &sum.expectations[0];
        assert_eq!(name, "accepted/slow.c");
        assert_eq!(e.to_string(), "permitted AC TLE, required TLE");
        let err = refused("[problem.sum.expect.\"a.c\"]\npermitted = [\"AC\", \"IE\"]\n");
        assert!(
            err.starts_with(
                "judge.toml:2:20: problem.sum.expect.\"a.c\".permitted: \"IE\" cannot be expected"
            ),
            "{err}"
        );
        let default = parse("[problem.x]\n").unwrap();
        assert_eq!(default.problems[0].submissions, Path::new("submissions/x"));
    }
}
