//! judge.toml: the schema (serde + toml), defaults, and the resolved
//! [`Problem`]s the rest of the judge works with.
//!
//! Every key is known: an unknown key, a duration without a unit or a size
//! like "256 megs" is an error naming the key, the line and what was
//! expected. Command-line flags override the file ([`Overrides`]). This
//! module reads configuration only; it never looks inside case files.

pub mod kattis;
mod tools;
pub mod units;

use crate::check::Comparison;
use crate::check::external::{InputValidator, Protocol};
use crate::exec::Limits;
use crate::expect::Expectation;
use crate::puzzles::{self, Puzzle};
use crate::submission::Language;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml::Spanned;
use tools::OneOrMany;
pub use units::{Size, Span};

/// Built-in defaults (DESIGN.md "judge.toml").
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);
pub const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
pub const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;
pub const DEFAULT_PROCESSES: u32 = 64;
/// How long one compilation may take (CPU and wall clock).
pub const DEFAULT_COMPILE_TIME_LIMIT: Duration = Duration::from_secs(30);

/// The keys allowed both at the top level (defaults for every problem) and
/// in a `[problem.NAME]` table (for that problem).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RootTable {
    time_limit: Option<Span>,
    wall_limit: Option<Span>,
    memory_limit: Option<Size>,
    stack_limit: Option<Size>,
    output_limit: Option<Size>,
    file_size_limit: Option<Size>,
    processes: Option<u32>,
    strict: Option<bool>,
    lexmin: Option<bool>,
    float_tolerance: Option<f64>,
    float_absolute_tolerance: Option<f64>,
    float_relative_tolerance: Option<f64>,
    checker_time_limit: Option<Span>,
    compile_time_limit: Option<Span>,
    #[serde(default)]
    problem: indexmap::IndexMap<String, ProblemTable>,
    #[serde(default)]
    language: indexmap::IndexMap<String, Spanned<LanguageTable>>,
}

/// `[language.NAME]`: how to build and run a source submission. A table
/// named like a built-in language (c, cpp, rust, python, pascal) changes
/// only the keys it sets; a new language needs `extensions` and `run`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageTable {
    extensions: Option<Vec<String>>,
    compile: Option<String>,
    run: Option<String>,
    interpreter: Option<String>,
}

/// `[problem.NAME.expect."FOLDER/FILE"]`: the verdicts a submission may
/// get (`permitted`) and must get on some case (`required`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectTable {
    permitted: Option<Vec<Spanned<String>>>,
    required: Option<Vec<Spanned<String>>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemTable {
    puzzle: Option<Spanned<String>>,
    /// A Kattis-style problem package: its limits, cases, validators and
    /// output validator, under this table's keys.
    package: Option<Spanned<String>>,
    cases: Option<Spanned<String>>,
    check: Option<Spanned<CheckKind>>,
    checker: Option<Spanned<String>>,
    checker_protocol: Option<Protocol>,
    checker_time_limit: Option<Span>,
    validator: Option<Spanned<OneOrMany>>,
    validator_protocol: Option<Protocol>,
    solution: Option<Spanned<String>>,
    time_limit: Option<Span>,
    wall_limit: Option<Span>,
    memory_limit: Option<Size>,
    stack_limit: Option<Size>,
    output_limit: Option<Size>,
    file_size_limit: Option<Size>,
    processes: Option<u32>,
    strict: Option<bool>,
    lexmin: Option<bool>,
    float_tolerance: Option<f64>,
    float_absolute_tolerance: Option<f64>,
    float_relative_tolerance: Option<f64>,
    submissions: Option<Spanned<String>>,
    #[serde(default)]
    expect: indexmap::IndexMap<String, Spanned<ExpectTable>>,
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

/// A problem as the judge works with it: everything resolved.
#[derive(Clone)]
pub struct Problem {
    pub name: String,
    /// The built-in puzzle, if the problem is one.
    pub puzzle: Option<&'static dyn Puzzle>,
    /// The cases root (absolute or relative to the working directory).
    pub cases: PathBuf,
    pub comparison: Comparison,
    /// Demand the lexicographically smallest shortest answer (puzzles).
    pub lexmin: bool,
    /// White-space differences are PE instead of AC.
    pub strict: bool,
    pub limits: Limits,
    /// The reference solution's command line, if the problem names one.
    pub solution: Option<String>,
    /// Only these subdirectories of `cases` hold cases, in this order (a
    /// package's `sample` and `secret`); empty: the whole tree.
    pub case_groups: Vec<String>,
    /// External input validators (`validator`, a package's
    /// `input_validators/`), for `judge validate`.
    pub validators: Vec<InputValidator>,
    /// The Kattis-style package the problem comes from, if any.
    pub package: Option<PathBuf>,
    /// Things a user should know about the configuration (shown as warnings).
    pub warnings: Vec<String>,
    /// The `submissions/<expected verdict>/` tree `judge verify` reads.
    pub submissions: PathBuf,
    /// Expected verdicts declared in judge.toml, by submission path
    /// relative to `submissions` (`accepted/slow.cpp`).
    pub expectations: Vec<(String, Expectation)>,
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Problem")
            .field("name", &self.name)
            .field("puzzle", &self.puzzle.map(|p| p.name()))
            .field("cases", &self.cases)
            .field("comparison", &self.comparison)
            .field("lexmin", &self.lexmin)
            .field("strict", &self.strict)
            .field("limits", &self.limits)
            .field("solution", &self.solution)
            .field("case_groups", &self.case_groups)
            .field("validators", &self.validators)
            .field("package", &self.package)
            .field("submissions", &self.submissions)
            .field("expectations", &self.expectations)
            .finish()
    }
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

/// A configuration error, with the file and, where known, the line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Read and resolve a judge.toml. Relative `cases` paths are relative to
    /// the file's directory.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        let text = std::fs::read(path)
            .map_err(|e| ConfigError(format!("{}: cannot read: {e}", path.display())))?;
        let text = String::from_utf8(text).map_err(|e| {
            let (line, column) = line_col_of_bytes(e.as_bytes(), e.utf8_error().valid_up_to());
            ConfigError(format!(
                "{}:{line}:{column}: not valid UTF-8",
                path.display()
            ))
        })?;
        Config::parse(&text, path, overrides)
    }

    /// Resolve a judge.toml given as text (`path` names it in messages and
    /// anchors relative paths).
    pub fn parse(text: &str, path: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        let root: RootTable =
            toml::from_str(text).map_err(|e| ConfigError(toml_error(path, text, &e)))?;
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
            return Err(ConfigError(format!(
                "{}: compile_time_limit must be greater than zero",
                path.display()
            )));
        }
        Ok(Config {
            path: path.to_path_buf(),
            problems,
            languages,
            compile_time_limit,
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
    let puzzle = puzzles::find(name);
    let table = ProblemTable::default();
    let root = RootTable::default();
    let mut problem = resolve_with(name, &table, &root, overrides, puzzle, cases, None, None)
        .map_err(|(message, _)| ConfigError(message))?;
    problem.name = name.to_string();
    Ok(problem)
}

/// A Kattis-style package judged with no judge.toml (`judge run PKG`): its
/// name is its directory's.
pub fn package_problem(root: &Path, overrides: &Overrides) -> Result<Problem, ConfigError> {
    let package = kattis::load(root).map_err(ConfigError)?;
    let table = ProblemTable::default();
    let defaults = RootTable::default();
    let name = package.name.clone();
    resolve_with(
        &name,
        &table,
        &defaults,
        overrides,
        None,
        root.join("data"),
        Some(root),
        Some(&package),
    )
    .map_err(|(message, _)| ConfigError(format!("{}: {message}", root.display())))
}

fn resolve(
    name: &str,
    table: &ProblemTable,
    root: &RootTable,
    base: &Path,
    path: &Path,
    text: &str,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    let at = |span: std::ops::Range<usize>| {
        let (line, column) = line_col(text, span.start);
        format!("{}:{line}:{column}", path.display())
    };
    let puzzle = match &table.puzzle {
        Some(p) => Some(puzzles::find(p.get_ref()).ok_or_else(|| {
            ConfigError(format!(
                "{}: problem.{name}.puzzle: unknown puzzle {:?}; the built-in puzzles are {}",
                at(p.span()),
                p.get_ref(),
                puzzles::names().join(", ")
            ))
        })?),
        None => None,
    };
    let package =
        match &table.package {
            Some(p) => Some(kattis::load(&base.join(p.get_ref())).map_err(|e| {
                ConfigError(format!("{}: problem.{name}.package: {e}", at(p.span())))
            })?),
            None => None,
        };
    let cases = match (&table.cases, &package) {
        (Some(c), _) => base.join(c.get_ref()),
        (None, Some(p)) => p.root.join("data"),
        (None, None) => base.join("cases").join(name),
    };
    let mut problem = resolve_with(
        name,
        table,
        root,
        overrides,
        puzzle,
        cases,
        Some(base),
        package.as_ref(),
    )
    .map_err(|(message, span)| match span {
        Some(span) => ConfigError(format!("{}: problem.{name}: {message}", at(span))),
        None => ConfigError(format!("{}: problem.{name}: {message}", path.display())),
    })?;
    problem.submissions = match &table.submissions {
        Some(s) => base.join(s.get_ref()),
        None => base.join("submissions").join(name),
    };
    for (submission, expect) in &table.expect {
        let verdicts = |list: &Option<Vec<Spanned<String>>>, key: &str| {
            list.as_ref()
                .map(|items| {
                    items
                        .iter()
                        .map(|v| {
                            crate::expect::parse_verdict(v.get_ref()).map_err(|e| {
                                ConfigError(format!(
                                    "{}: problem.{name}.expect.{submission:?}.{key}: {e}",
                                    at(v.span())
                                ))
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()
        };
        let permitted = verdicts(&expect.get_ref().permitted, "permitted")?;
        let required = verdicts(&expect.get_ref().required, "required")?;
        if permitted.is_none() && required.is_none() {
            return Err(ConfigError(format!(
                "{}: problem.{name}.expect.{submission:?}: say permitted = [...] and/or required = [...]",
                at(expect.span())
            )));
        }
        problem.expectations.push((
            submission.clone(),
            Expectation::declared(permitted, required),
        ));
    }
    Ok(problem)
}

/// The built-in languages changed by `[language.NAME]` tables, then the
/// new ones. Two languages may not claim one extension.
fn resolve_languages(
    root: &RootTable,
    path: &Path,
    text: &str,
) -> Result<Vec<Language>, ConfigError> {
    let mut languages = crate::submission::builtin_languages();
    for (name, table) in &root.language {
        let (line, column) = line_col(text, table.span().start);
        let at = format!("{}:{line}:{column}: language.{name}", path.display());
        let t = table.get_ref();
        for template in [&t.compile, &t.run, &t.interpreter].into_iter().flatten() {
            if shlex::split(template).is_none_or(|w| w.is_empty()) {
                return Err(ConfigError(format!(
                    "{at}: {template:?} is not a command line (unbalanced quotes?)"
                )));
            }
        }
        if let Some(extensions) = &t.extensions
            && let Some(bad) = extensions
                .iter()
                .find(|e| e.is_empty() || e.contains('/') || e.starts_with('.'))
        {
            return Err(ConfigError(format!(
                "{at}: extension {bad:?}: write it without the dot, e.g. \"cpp\""
            )));
        }
        match languages.iter_mut().find(|l| l.name == *name) {
            Some(language) => {
                if let Some(e) = &t.extensions {
                    language.extensions = e.clone();
                }
                if let Some(c) = &t.compile {
                    // An empty compile command means "nothing to compile".
                    language.compile = (!c.trim().is_empty()).then(|| c.clone());
                }
                if let Some(r) = &t.run {
                    language.run = r.clone();
                }
                if let Some(i) = &t.interpreter {
                    language.interpreter = (!i.trim().is_empty()).then(|| i.clone());
                }
            }
            None => {
                let (Some(extensions), Some(run)) = (&t.extensions, &t.run) else {
                    return Err(ConfigError(format!(
                        "{at}: a new language needs extensions = [\"…\"] and run = \"…\" (the built-in languages are {})",
                        crate::submission::builtin_languages()
                            .iter()
                            .map(|l| l.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                };
                languages.push(Language {
                    name: name.clone(),
                    extensions: extensions.clone(),
                    compile: t.compile.clone().filter(|c| !c.trim().is_empty()),
                    run: run.clone(),
                    interpreter: t.interpreter.clone().filter(|i| !i.trim().is_empty()),
                });
            }
        }
    }
    // A language the file names wins an extension over a built-in one it
    // does not name; two languages the file names may not share one.
    let named = |l: &Language| root.language.contains_key(&l.name);
    let mut claimed: std::collections::HashMap<String, String> = Default::default();
    for language in languages.iter().filter(|l| named(l)) {
        for ext in &language.extensions {
            if let Some(other) = claimed.insert(ext.clone(), language.name.clone()) {
                return Err(ConfigError(format!(
                    "{}: languages {other} and {} both claim the extension .{ext}",
                    path.display(),
                    language.name
                )));
            }
        }
    }
    for language in languages.iter_mut() {
        if !root.language.contains_key(&language.name) {
            language.extensions.retain(|e| !claimed.contains_key(e));
        }
    }
    Ok(languages)
}

type SpannedMessage = (String, Option<std::ops::Range<usize>>);

/// Resolve one problem from its table, the file's top-level defaults, the
/// command-line overrides and, for a package, the package. Precedence:
/// flags, then the problem's table, then the package, then the top level,
/// then the built-in defaults.
#[allow(clippy::too_many_arguments)]
fn resolve_with(
    name: &str,
    table: &ProblemTable,
    root: &RootTable,
    overrides: &Overrides,
    puzzle: Option<&'static dyn Puzzle>,
    cases: PathBuf,
    base: Option<&Path>,
    package: Option<&kattis::Package>,
) -> Result<Problem, SpannedMessage> {
    let check_span = table.check.as_ref().map(|c| c.span());
    let package_kind = package.map(|p| {
        if p.output_validator.is_some() {
            CheckKind::Checker
        } else {
            CheckKind::Tokens
        }
    });
    let kind = overrides
        .comparison
        .or(table.check.as_ref().map(|c| *c.get_ref()))
        .or(table.checker.as_ref().map(|_| CheckKind::Checker))
        .or(package_kind)
        .unwrap_or(if puzzle.is_some() {
            CheckKind::Puzzle
        } else {
            CheckKind::Tokens
        });
    let package_check = package.map(|p| p.default_check).unwrap_or_default();
    let absolute = overrides
        .float_tolerance
        .or(table.float_absolute_tolerance)
        .or(table.float_tolerance)
        .or(root.float_absolute_tolerance)
        .or(root.float_tolerance);
    let relative = overrides
        .float_tolerance
        .or(table.float_relative_tolerance)
        .or(table.float_tolerance)
        .or(root.float_relative_tolerance)
        .or(root.float_tolerance);
    let configured_tolerance = absolute.is_some() || relative.is_some();
    let (absolute, relative) = if configured_tolerance {
        (absolute, relative)
    } else {
        (package_check.float_absolute, package_check.float_relative)
    };
    let base_dir = base.unwrap_or(Path::new("."));
    let tool_time = tools::time_limit(table, root, package)?;
    for t in [absolute, relative].into_iter().flatten() {
        if !(t.is_finite() && t >= 0.0) {
            return Err((
                format!("float tolerance {t} must be a non-negative number"),
                None,
            ));
        }
    }
    let comparison = match kind {
        CheckKind::Exact => Comparison::Exact,
        CheckKind::Lines => Comparison::Lines,
        CheckKind::Tokens => Comparison::Tokens {
            float: crate::check::text::FloatTolerance::new(absolute, relative),
            case_insensitive: package.is_some() && !package_check.case_sensitive,
        },
        CheckKind::Checker => Comparison::Checker(tools::checker(
            table,
            package,
            base_dir,
            tool_time,
            check_span.clone(),
        )?),
        CheckKind::Puzzle => {
            if puzzle.is_none() {
                return Err((
                    format!(
                        "check = \"puzzle\" needs a built-in puzzle: add puzzle = \"…\" (one of {})",
                        puzzles::names().join(", ")
                    ),
                    check_span,
                ));
            }
            Comparison::Puzzle
        }
    };
    if let Some(checker) = &table.checker
        && table.check.is_some()
        && !matches!(comparison, Comparison::Checker(_))
        && overrides.comparison.is_none()
    {
        return Err((
            "checker = \"…\" is only used with check = \"checker\"".to_string(),
            Some(checker.span()),
        ));
    }
    if configured_tolerance && !matches!(comparison, Comparison::Tokens { .. }) {
        return Err((
            "a float tolerance only applies to check = \"tokens\"".to_string(),
            check_span,
        ));
    }
    let time = overrides
        .time_limit
        .or(table.time_limit.map(|s| s.0))
        .or(package.and_then(|p| p.time_limit))
        .or(root.time_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_TIME_LIMIT);
    let wall = overrides
        .wall_limit
        .or(table.wall_limit.map(|s| s.0))
        .or(root.wall_limit.map(|s| s.0))
        .unwrap_or(time * 2 + Duration::from_secs(1));
    let memory = overrides
        .memory_limit
        .or(table.memory_limit.map(|s| s.0))
        .or(package.map(|p| p.memory))
        .or(root.memory_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_MEMORY_LIMIT);
    let stack = overrides
        .stack_limit
        .or(table.stack_limit.map(|s| s.0))
        .or(root.stack_limit.map(|s| s.0))
        .unwrap_or(memory);
    let output = overrides
        .output_limit
        .or(table.output_limit.map(|s| s.0))
        .or(package.map(|p| p.output))
        .or(root.output_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_OUTPUT_LIMIT);
    let file_size = table
        .file_size_limit
        .or(root.file_size_limit)
        .map(|s| s.0)
        .unwrap_or(output);
    let processes = overrides
        .processes
        .or(table.processes)
        .or(root.processes)
        .unwrap_or(DEFAULT_PROCESSES);
    if time.is_zero() || wall.is_zero() {
        return Err(("time limits must be greater than zero".to_string(), None));
    }
    if processes == 0 {
        return Err(("processes must be at least 1".to_string(), None));
    }
    let solution = table.solution.as_ref().map(|s| {
        // A relative program path in `solution` is relative to judge.toml.
        let command = s.get_ref().clone();
        match (base, shlex::split(&command)) {
            (Some(base), Some(words))
                if !words.is_empty() && words[0].contains('/') && !words[0].starts_with('/') =>
            {
                let program = base.join(&words[0]);
                let rest: Vec<String> = words[1..].to_vec();
                let mut all = vec![program.to_string_lossy().into_owned()];
                all.extend(rest);
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
    let validators = tools::validators(table, package, base_dir, tool_time)?;
    // A package's cases are data/sample then data/secret, unless the table
    // names its own cases.
    let case_groups = if package.is_some() && table.cases.is_none() {
        kattis::CASE_GROUPS.map(String::from).to_vec()
    } else {
        Vec::new()
    };
    let strict_from_package = package
        .filter(|_| package_check.space_change_sensitive)
        .map(|_| true);
    Ok(Problem {
        name: name.to_string(),
        puzzle,
        cases,
        case_groups,
        validators,
        package: package.map(|p| p.root.clone()),
        warnings: package.map(|p| p.warnings.clone()).unwrap_or_default(),
        comparison,
        lexmin: overrides
            .lexmin
            .or(table.lexmin)
            .or(root.lexmin)
            .unwrap_or_else(|| puzzle.is_some_and(|p| p.default_lexmin())),
        strict: overrides
            .strict
            .or(table.strict)
            .or(strict_from_package)
            .or(root.strict)
            .unwrap_or(false),
        limits: Limits {
            time,
            wall,
            memory: Some(memory),
            stack: Some(stack),
            output,
            file_size,
            processes,
        },
        solution,
        submissions: base
            .unwrap_or(Path::new("."))
            .join("submissions")
            .join(name),
        expectations: Vec::new(),
    })
}

/// Render a toml error as `path:line:column: message`, using the span.
fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim_end();
    match e.span() {
        Some(span) => {
            let (line, column) = line_col(text, span.start);
            let key = key_at(text, span.start)
                .map(|k| format!(" (key `{k}`)"))
                .unwrap_or_default();
            format!("{}:{line}:{column}: {message}{key}", path.display())
        }
        None => format!("{}: {message}", path.display()),
    }
}

/// The key on the line of `offset`, if the line is `key = value`.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    (!key.is_empty() && !key.starts_with('[')).then(|| key.to_string())
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    line_col_of_bytes(text.as_bytes(), offset)
}

fn line_col_of_bytes(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, Path::new("judge.toml"), &Overrides::default()).map_err(|e| e.0)
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
        let err = parse("[problem.sum]\ncheck = \"tokens\"\ntime_limt = \"1s\"\n").unwrap_err();
        assert!(
            err.starts_with("judge.toml:3:1: unknown field `time_limt`"),
            "{err}"
        );
    }

    #[test]
    fn bad_duration_names_key_and_line() {
        let err = parse("\n[problem.sum]\ntime_limit = \"2 sec\"\n").unwrap_err();
        assert_eq!(
            err,
            "judge.toml:3:14: \"2 sec\" is not a duration: expected a duration such as 1.5s, 500ms or 2m (key `time_limit`)"
        );
    }

    #[test]
    fn bare_number_needs_a_unit() {
        let err = parse("memory_limit = 256\n").unwrap_err();
        assert_eq!(
            err,
            "judge.toml:1:16: a size needs a unit in quotes, e.g. \"256MiB\" or \"256KiB\" (key `memory_limit`)"
        );
    }

    #[test]
    fn bad_size_names_key_and_line() {
        let err = parse("[problem.x]\nmemory_limit = \"256 megs\"\n").unwrap_err();
        assert!(
            err.starts_with("judge.toml:2:16: \"256 megs\" is not a size"),
            "{err}"
        );
    }

    #[test]
    fn unknown_puzzle_and_bad_check() {
        let err = parse("[problem.r]\npuzzle = \"rotaton\"\n").unwrap_err();
        assert_eq!(
            err,
            "judge.toml:2:10: problem.r.puzzle: unknown puzzle \"rotaton\"; the built-in puzzles are rotation, booksort, swap, flip, pilots"
        );
        let err = parse("[problem.r]\ncheck = \"puzzle\"\n").unwrap_err();
        assert!(
            err.starts_with(
                "judge.toml:2:9: problem.r: check = \"puzzle\" needs a built-in puzzle"
            ),
            "{err}"
        );
        let err = parse("[problem.r]\ncheck = \"fuzzy\"\n").unwrap_err();
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
        // pypy takes .py from the built-in python, which keeps its name.
        let python = c.languages.iter().find(|l| l.name == "python").unwrap();
        assert!(python.extensions.is_empty());
        let err = parse("[language.go]\nrun = \"{bin}\"\n").unwrap_err();
        assert!(
            err.starts_with("judge.toml:1:1: language.go: a new language needs extensions"),
            "{err}"
        );
        let err = parse("[language.a]\nextensions = [\"x\"]\nrun = \"a\"\n[language.b]\nextensions = [\"x\"]\nrun = \"b\"\n").unwrap_err();
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
        let err =
            parse("[problem.sum.expect.\"a.c\"]\npermitted = [\"AC\", \"IE\"]\n").unwrap_err();
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
