//! Resolution: from the serde tables of [`super::schema`], the
//! command-line [`Overrides`] and a problem's package to the [`Problem`]s
//! and [`Language`]s the judge works with, and the error helpers that name
//! the file, line and column of a bad key.

use super::schema::{ProblemTable, RootTable};
use super::{
    CheckKind, ConfigError, DEFAULT_MEMORY_LIMIT, DEFAULT_OUTPUT_LIMIT, DEFAULT_PROCESSES,
    DEFAULT_TIME_LIMIT, Overrides, Place, Problem, kattis, tools,
};
use crate::check::Comparison;
use crate::exec::Limits;
use crate::expect::Expectation;
use crate::puzzles::{self, Puzzle};
use crate::submission::Language;
use std::path::{Path, PathBuf};
use toml::Spanned;

pub(super) fn resolve(
    name: &str,
    table: &ProblemTable,
    root: &RootTable,
    base: &Path,
    path: &Path,
    text: &str,
    overrides: &Overrides,
) -> Result<Problem, ConfigError> {
    let at = |span: std::ops::Range<usize>| Place {
        path: path.to_path_buf(),
        at: Some(line_col(text, span.start)),
    };
    let key_error = |place: Place, key: String, message: String| ConfigError::Key {
        place,
        key,
        message,
    };
    let puzzle = match &table.puzzle {
        Some(p) => Some(puzzles::find(p.get_ref()).ok_or_else(|| {
            key_error(
                at(p.span()),
                format!("problem.{name}.puzzle"),
                format!(
                    "unknown puzzle {:?}; the built-in puzzles are {}",
                    p.get_ref(),
                    puzzles::names().join(", ")
                ),
            )
        })?),
        None => None,
    };
    let package = match &table.package {
        Some(p) => Some(
            kattis::load(&base.join(p.get_ref()))
                .map_err(|e| key_error(at(p.span()), format!("problem.{name}.package"), e))?,
        ),
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
    .map_err(|(message, span)| match span {
        Some(span) => key_error(at(span), format!("problem.{name}"), message),
        None => key_error(
            Place {
                path: path.to_path_buf(),
                at: None,
            },
            format!("problem.{name}"),
            message,
        ),
    })?;
    // A package keeps its submissions in `<package>/submissions/` (set by
    // `resolve_with`); otherwise `submissions/NAME` beside judge.toml.
    if let Some(s) = &table.submissions {
        problem.submissions = base.join(s.get_ref());
    }
    for (submission, expect) in &table.expect {
        let verdicts = |list: &Option<Vec<Spanned<String>>>, key: &str| {
            list.as_ref()
                .map(|items| {
                    items
                        .iter()
                        .map(|v| {
                            crate::expect::parse_verdict(v.get_ref()).map_err(|e| {
                                key_error(
                                    at(v.span()),
                                    format!("problem.{name}.expect.{submission:?}.{key}"),
                                    e.to_string(),
                                )
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()
        };
        let permitted = verdicts(&expect.get_ref().permitted, "permitted")?;
        let required = verdicts(&expect.get_ref().required, "required")?;
        let e = expect.get_ref();
        let score_key = |key: &str| format!("problem.{name}.expect.{submission:?}.{key}");
        let score = e
            .score
            .as_ref()
            .map(|v| {
                v.get_ref()
                    .range()
                    .map_err(|m| key_error(at(v.span()), score_key("score"), m))
            })
            .transpose()?;
        let mut group_scores = Vec::new();
        for (group, v) in &e.groups {
            let range = v
                .get_ref()
                .range()
                .map_err(|m| key_error(at(v.span()), score_key("groups"), m))?;
            if !table.group.contains_key(group) {
                return Err(key_error(
                    at(v.span()),
                    score_key("groups"),
                    format!(
                        "{group:?} is not a group of problem {name} ([problem.{name}.group.*])"
                    ),
                ));
            }
            group_scores.push((group.clone(), range));
        }
        if permitted.is_none() && required.is_none() && score.is_none() && group_scores.is_empty() {
            return Err(key_error(
                at(expect.span()),
                format!("problem.{name}.expect.{submission:?}"),
                "say permitted = [...], required = [...], score = N or groups = { ... }"
                    .to_string(),
            ));
        }
        let mut expectation = Expectation::declared(permitted, required);
        expectation.score = score;
        expectation.group_scores = group_scores;
        problem.expectations.push((submission.clone(), expectation));
    }
    if let Some(plan) = super::scoring::plan(&table.group)
        .map_err(|(key, span, m)| key_error(at(span), format!("problem.{name}.group.{key}"), m))?
    {
        if problem.scoring.is_some() {
            return Err(key_error(
                at(table.group.values().next().map_or(0..0, |g| g.span())),
                format!("problem.{name}.group"),
                "the package grades this problem already (problem.yaml type: scoring); say its groups there".to_string(),
            ));
        }
        problem.scoring = Some(plan);
    }
    Ok(problem)
}

/// The built-in languages changed by `[language.NAME]` tables, then the
/// new ones. Two languages may not claim one extension.
pub(super) fn resolve_languages(
    root: &RootTable,
    path: &Path,
    text: &str,
) -> Result<Vec<Language>, ConfigError> {
    let mut languages = crate::submission::builtin_languages();
    for (name, table) in &root.language {
        let at = |message: String| ConfigError::Key {
            place: Place {
                path: path.to_path_buf(),
                at: Some(line_col(text, table.span().start)),
            },
            key: format!("language.{name}"),
            message,
        };
        let t = table.get_ref();
        for template in [&t.compile, &t.run, &t.interpreter].into_iter().flatten() {
            if shlex::split(template).is_none_or(|w| w.is_empty()) {
                return Err(at(format!(
                    "{template:?} is not a command line (unbalanced quotes?)"
                )));
            }
        }
        if let Some(extensions) = &t.extensions
            && let Some(bad) = extensions
                .iter()
                .find(|e| e.is_empty() || e.contains('/') || e.starts_with('.'))
        {
            return Err(at(format!(
                "extension {bad:?}: write it without the dot, e.g. \"cpp\""
            )));
        }
        // `[language.python]` is the built-in python3 (its older name).
        let builtin = crate::submission::canonical_name(name);
        match languages
            .iter_mut()
            .find(|l| l.name == *name || l.name == builtin)
        {
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
                if let Some(a) = t.address_space {
                    language.address_space = a;
                }
            }
            None => {
                let (Some(extensions), Some(run)) = (&t.extensions, &t.run) else {
                    return Err(at(format!(
                        "a new language needs extensions = [\"…\"] and run = \"…\" (the built-in languages are {})",
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
                    address_space: t.address_space.unwrap_or(true),
                });
            }
        }
    }
    // A language the file names wins an extension over a built-in one it
    // does not name; two languages the file names may not share one.
    let named = |l: &Language| {
        root.language
            .keys()
            .any(|k| *k == l.name || crate::submission::canonical_name(k) == l.name)
    };
    let mut claimed: std::collections::HashMap<String, String> = Default::default();
    for language in languages.iter().filter(|l| named(l)) {
        for ext in &language.extensions {
            if let Some(other) = claimed.insert(ext.clone(), language.name.clone()) {
                return Err(ConfigError::Whole {
                    path: path.to_path_buf(),
                    message: format!(
                        "languages {other} and {} both claim the extension .{ext}",
                        language.name
                    ),
                });
            }
        }
    }
    for language in languages.iter_mut() {
        if !named(language) {
            language.extensions.retain(|e| !claimed.contains_key(e));
        }
    }
    Ok(languages)
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
        .map_err(|e| (e, None))?,
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
    })
}

/// How outputs are judged: the check kind (flag, table, a checker, the
/// package, a puzzle's own) and its settings.
fn comparison(s: &Sources<'_>) -> Result<Comparison, SpannedMessage> {
    let Sources {
        table,
        root,
        overrides,
        puzzle,
        base,
        package,
        ..
    } = *s;
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
    // A tolerance from the flag or the top level is a default for every
    // problem compared as tokens, and leaves the others alone; one the
    // problem's own table sets must fit its check (below).
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
    if let Some(interaction) = interaction(table, overrides, package, base_dir, tool_time)? {
        return Ok(Comparison::Interactive(interaction));
    }
    Ok(match kind {
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
    })
}

/// An interactive or multi-pass problem: judge.toml's testlib
/// `interactor`, or a package of `type: interactive` / `multi-pass` (its
/// output validator, Kattis protocol) unless the command line or the
/// table chooses another check.
fn interaction(
    table: &ProblemTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
    base: &Path,
    time_limit: std::time::Duration,
) -> Result<Option<crate::check::interactive::Interaction>, SpannedMessage> {
    use crate::check::external::Protocol;
    use crate::check::interactive::Interaction;
    if let Some(command) = &table.interactor {
        let tool = crate::check::tool::Tool::from_command(command.get_ref(), base)
            .map_err(|e| (format!("interactor: {e}"), Some(command.span())))?;
        return Ok(Some(Interaction {
            tool,
            protocol: Protocol::Testlib,
            time_limit,
            flags: Vec::new(),
            interactive: true,
            passes: 1,
        }));
    }
    let Some(p) = package.filter(|p| p.interactive || p.passes > 1) else {
        return Ok(None);
    };
    if table.check.is_some() || overrides.comparison.is_some() {
        return Ok(None);
    }
    let Some(tool) = p.output_validator.clone() else {
        return Err((
            format!(
                "{}: an interactive or multi-pass package needs an output validator",
                p.root.display()
            ),
            None,
        ));
    };
    Ok(Some(Interaction {
        tool,
        protocol: Protocol::Kattis,
        time_limit,
        flags: p.validator_flags.clone(),
        interactive: p.interactive,
        passes: p.passes,
    }))
}

/// Keys that only apply to other checks or to puzzles.
fn check_keys_fit(
    table: &ProblemTable,
    overrides: &Overrides,
    puzzle: Option<&'static dyn Puzzle>,
    comparison: &Comparison,
) -> Result<(), SpannedMessage> {
    let check_span = table.check.as_ref().map(|c| c.span());
    let table_tolerance = table.float_tolerance.is_some()
        || table.float_absolute_tolerance.is_some()
        || table.float_relative_tolerance.is_some();
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
    if let Some(lexmin) = &table.lexmin
        && puzzle.is_none()
    {
        return Err((
            "lexmin only applies to a puzzle problem (puzzle = \"…\"): other problems' answers are compared, not proven smallest".to_string(),
            Some(lexmin.span()),
        ));
    }
    if table_tolerance && !matches!(comparison, Comparison::Tokens { .. }) {
        return Err((
            "a float tolerance only applies to check = \"tokens\"".to_string(),
            check_span,
        ));
    }
    Ok(())
}

/// Where the time limit comes from (for reports), and for a package that
/// has none, how `judge verify` derives it.
fn time_limit_from(
    table: &ProblemTable,
    root: &RootTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
) -> (String, Option<kattis::TimeInference>) {
    let from = if overrides.time_limit.is_some() {
        "--time-limit"
    } else if table.time_limit.is_some() {
        "judge.toml time_limit"
    } else if let Some(p) = package.filter(|p| p.time_limit.is_some()) {
        p.time_limit_from
    } else if root.time_limit.is_some() {
        "judge.toml time_limit (top level)"
    } else {
        let inference = package.and_then(|p| p.time_inference);
        return ("the judge's default".to_string(), inference);
    };
    (from.to_string(), None)
}

/// The limits: flags, the table, the package, the top level, the defaults.
fn limits(
    table: &ProblemTable,
    root: &RootTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
) -> Result<Limits, SpannedMessage> {
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
        .unwrap_or_else(|| crate::exec::Limits::default_wall(time));
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
    Ok(Limits {
        time,
        wall,
        memory: Some(memory),
        stack: Some(stack),
        output,
        file_size,
        processes,
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
    Ok(solution)
}

/// A toml error at its place (`path:line:column: message (key `k`)`).
pub(super) fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let span = e.span();
    ConfigError::Value {
        place: Place {
            path: path.to_path_buf(),
            at: span.as_ref().map(|s| line_col(text, s.start)),
        },
        key: span.and_then(|s| key_at(text, s.start)),
        message: e.message().trim_end().to_string(),
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

pub(super) fn line_col_of_bytes(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
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
