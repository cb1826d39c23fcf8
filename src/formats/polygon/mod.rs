//! Codeforces Polygon packages as they are: a directory with
//! `problem.xml`, read into the judge's model ([`Model`]), which `config`
//! resolves into the same `Problem` a Kattis package becomes.
//!
//! What is read (README "Polygon packages"): the `tests` testset's time
//! limit (ms) and memory limit (bytes), its input and answer path
//! patterns, its tests (`manual`/`generated`, `sample`, `group`,
//! `points`) and groups (`points-policy`, `feedback-policy`,
//! `dependencies`), the checker (its source, or a `std::` checker's
//! meaning), the interactor (testlib, with the checker judging its
//! output), the validators (testlib), and the solutions with their tags as
//! expected verdicts. The cases are a view of links outside the package
//! (`view`); the package is never written to.
//!
//! Steps: `xml` (the file as a tree), `known` (what is not Polygon's,
//! warned about), `read` (the tree as a
//! [`read::Description`]), `checker`, `languages` (source types),
//! `scoring` (groups as subtasks), `view` (the cases).

mod checker;
mod crlf;
mod known;
mod languages;
pub mod make;
mod pattern;
pub mod read;
mod scoring;
mod script;
pub mod stage;
#[cfg(test)]
mod tests;
mod testset;
mod tool_tests;
mod view;
mod xml;

use super::kattis::{self, DEFAULT_OUTPUT_MIB, PackageLimits};
use crate::check::Comparison;
use crate::check::external::{InputValidator, Protocol};
use crate::check::interactive::Interaction;
use crate::check::tool::DEFAULT_TOOL_TIME_LIMIT;
use crate::expect::Expectation;
pub use crate::formats::error::ModelError;
use crate::formats::error::{FormatError, Place};
use crate::verdict::Verdict;
pub use languages::{language_of_type, solution_language};
use read::Description;
pub use scoring::case_name;
use std::path::{Path, PathBuf};
pub use view::{built_map, built_store};

/// The file that makes a directory a Polygon package.
pub const PROBLEM_XML: &str = "problem.xml";

/// Whether `dir` is a Polygon package (problem.xml, and no problem.yaml:
/// a Kattis package that also holds a problem.xml is read as Kattis).
pub fn is_package(dir: &Path) -> bool {
    dir.join(PROBLEM_XML).is_file() && !dir.join(kattis::PROBLEM_YAML).is_file()
}

/// Read problem.xml into its description (with warnings).
pub fn describe(root: &Path) -> Result<(Description, Vec<String>), FormatError> {
    // The same link rule as a Kattis package: a link that leads out of the
    // package only to what every user may read (SECURITY.md).
    crate::exec::links::links_stay_inside(root)?;
    let file = root.join(PROBLEM_XML);
    let bytes = crate::exec::bounded_read::read_package_file(
        &file,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|source| FormatError::Read {
        path: file.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| FormatError::NotUtf8 {
        path: file.clone(),
        byte: e.utf8_error().valid_up_to(),
    })?;
    let tree = xml::parse(&file, &text)?;
    let mut warnings = Vec::new();
    let desc = read::read(&file, &tree, &mut warnings)?;
    Ok((desc, warnings))
}

/// What a Polygon package gives a problem, read into the judge's own
/// model: the package's limits and scoring as a [`kattis::Package`], its
/// cases (a view of links, [`view`]), and what a problem takes from it
/// over the defaults. `config` resolves it into a `Problem`.
pub struct Model {
    /// The package's directory's name.
    pub name: String,
    pub package: kattis::Package,
    /// The directory of the cases' view.
    pub cases: PathBuf,
    /// The checker's comparison, or the interactor with the checker.
    pub comparison: Comparison,
    pub interactive: bool,
    pub validators: Vec<InputValidator>,
    /// Each grouped test's own settings (`--group G` for the validators).
    pub groups: Vec<(PathBuf, std::sync::Arc<crate::cases::CaseSettings>)>,
    /// `input-file`/`output-file` (the standard streams when absent).
    pub io_files: crate::exec::IoFiles,
    pub submissions: PathBuf,
    /// Solution tags as expected verdicts, by path under `solutions/`.
    pub expectations: Vec<(String, Expectation)>,
    /// Each solution's language as its problem.xml type names it.
    pub languages: Vec<crate::expect::SubmissionRule>,
    /// The package's own tests of its checker and validators.
    pub tool_tests: Vec<crate::formats::model::ToolTest>,
    pub warnings: Vec<String>,
}

/// Read the package at `root` into its [`Model`]: its name is its
/// directory's.
pub fn model(root: &Path) -> Result<Model, ModelError> {
    let whole = |source: FormatError| ModelError::Whole {
        root: root.to_path_buf(),
        source: Box::new(source),
    };
    let (desc, mut warnings) = describe(root)?;
    if let Some(e) = &desc.testset.script_error {
        warnings.push(format!(
            "{e}: the script is not used; the tests in the package are judged (judge gen fails on it)"
        ));
    }
    let file = root.join(PROBLEM_XML);
    let name = std::fs::canonicalize(root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_string());
    let mut io_files = io_files(&desc, &file)?;
    let cases = view::make(root, &desc, &mut warnings)?;
    let scoring = scoring::plan(&desc.testset, &file).map_err(whole)?;
    let package = kattis::Package {
        root: root.to_path_buf(),
        domjudge: false,
        // Polygon's solutions may write (an `output-file` problem's
        // answer is a file they write in their working directory).
        file_writing: true,
        name: name.clone(),
        limits: PackageLimits {
            time_limit: Some(desc.testset.time_limit),
            time_limit_from: "problem.xml time-limit",
            time_inference: None,
            memory: desc.testset.memory,
            output: DEFAULT_OUTPUT_MIB << 20,
            tool_time_limit: None,
        },
        output_validator: None,
        validator_flags: Vec::new(),
        default_check: kattis::DefaultCheck::default(),
        input_validators: Vec::new(),
        interactive: false,
        passes: 1,
        answer_validators: Vec::new(),
        version: kattis::FormatVersion::Legacy,
        groups: Vec::new(),
        submission_rules: Vec::new(),
        scoring,
        constants: crate::text::constants::Constants::default(),
        warnings: Vec::new(),
    };
    let tool_time = DEFAULT_TOOL_TIME_LIMIT;
    // Polygon reads a checker's `quitp(x)` as x points of the test, or x
    // percent of them with treat-points-from-checker-as-percent.
    let points = if desc.checker_points_percent {
        crate::check::external::TestlibPoints::Percent
    } else {
        crate::check::external::TestlibPoints::Points
    };
    let compared = checker::comparison(
        root,
        desc.checker.as_ref(),
        &file,
        tool_time,
        points,
        &mut warnings,
    )
    .map_err(whole)?;
    let comparison = match &desc.interactor {
        Some(interactor) => Comparison::Interactive(Interaction {
            tool: checker::tool(root, interactor, &file, "interactor").map_err(whole)?,
            protocol: Protocol::Testlib,
            time_limit: tool_time,
            flags: Vec::new(),
            interactive: true,
            passes: 1,
            checker: match compared {
                Comparison::Checker(c) => Some(Box::new(c)),
                _ => None,
            },
        }),
        None => compared,
    };
    // A validator the judge cannot build (its source missing, a type of
    // no language it builds) is named and left out; the others run.
    let mut validators = Vec::new();
    let store = built_store();
    let mut tool_tests = match &comparison {
        // A std:: checker without its source: the judge's comparison is
        // not the checker its tests are of.
        Comparison::Checker(_) | Comparison::Interactive(_) => {
            tool_tests::checker_tests(root, &file, &desc.checker_tests, &store, &mut warnings)
        }
        _ => Vec::new(),
    };
    for (v, declared) in desc.validators.iter().zip(&desc.validator_tests) {
        match checker::tool(root, v, &file, "validator") {
            Ok(tool) => validators.push(InputValidator {
                tool,
                protocol: Protocol::Testlib,
                time_limit: tool_time,
                // testlib's validator reads the testset and the group
                // from its command line, as Polygon gives them.
                flags: vec!["--testset".to_string(), "tests".to_string()],
            }),
            Err(e) => {
                warnings.push(format!("{e}; this validator is not run"));
                continue;
            }
        }
        tool_tests.extend(tool_tests::validator_tests(
            root,
            &file,
            validators.len().saturating_sub(1),
            declared,
            &store,
            &mut warnings,
        ));
    }
    let groups = group_settings(&cases, &desc);
    if desc.interactor.is_some() && (io_files.input.is_some() || io_files.output.is_some()) {
        warnings.push(format!(
            "{}: input-file/output-file on an interactive problem: not used (the program talks to the interactor through its standard streams)",
            file.display()
        ));
        io_files = crate::exec::IoFiles::default();
    }
    let expectations = expectations(root, &desc, &file, &mut warnings);
    // Only for the solutions verified (a rule alone would make one
    // expected to get anything).
    let mut languages = solution_languages(&desc, &mut warnings);
    languages.retain(|r| {
        expectations
            .iter()
            .any(|(rel, _)| globset::escape(rel) == r.pattern)
    });
    Ok(Model {
        name,
        package,
        cases,
        comparison,
        interactive: desc.interactor.is_some(),
        validators,
        groups,
        io_files,
        submissions: root.join("solutions"),
        expectations,
        languages,
        tool_tests,
        warnings,
    })
}

/// Each solution built in the language its type names (a `python.2`
/// source is Python 2, never Python 3 failing on a `print` statement), as
/// a rule on its path; a type of no language of the judge's leaves the
/// file's extension to decide.
fn solution_languages(
    desc: &Description,
    warnings: &mut Vec<String>,
) -> Vec<crate::expect::SubmissionRule> {
    let mut rules = Vec::new();
    for s in &desc.solutions {
        let Some(rel) = s.source.path.strip_prefix("solutions/") else {
            continue;
        };
        let (name, note) = languages::solution_language(s.source.kind.as_deref());
        if let Some(note) = note {
            warnings.push(format!("solution {}: {note}", s.source.path));
        }
        if let Some(name) = name {
            let mut rule = crate::expect::SubmissionRule::new(&globset::escape(rel));
            rule.language = Some(name.to_string());
            rules.push(rule);
        }
    }
    rules
}

/// Each grouped test's validator arguments (`--group G`), keyed by its
/// case file in the view (a case's own settings).
fn group_settings(
    view: &Path,
    desc: &Description,
) -> Vec<(
    std::path::PathBuf,
    std::sync::Arc<crate::cases::CaseSettings>,
)> {
    let Ok(view) = std::fs::canonicalize(view) else {
        return Vec::new();
    };
    let count = desc.testset.tests.len();
    desc.testset
        .tests
        .iter()
        .filter_map(|t| {
            let group = t.group.as_ref()?;
            let name = format!("{}.in", scoring::case_name(t.index, count));
            Some((
                view.join(name),
                std::sync::Arc::new(crate::cases::CaseSettings {
                    comparison: None,
                    strict: None,
                    validators: None,
                    validator_args: Some(vec!["--group".to_string(), group.clone()]),
                    output_args: None,
                    args: None,
                    origin: format!("problem.xml: test {} of group {group}", t.index),
                }),
            ))
        })
        .collect()
}

/// `input-file`/`output-file`: plain file names in the program's working
/// directory.
fn io_files(desc: &Description, file: &Path) -> Result<crate::exec::IoFiles, FormatError> {
    let plain = |key: &str, name: &Option<String>| -> Result<Option<String>, FormatError> {
        match name {
            Some(n) if n.contains('/') || n == "." || n == ".." || n.contains('\0') => {
                Err(FormatError::key(
                    Place::file(file),
                    key,
                    Some(n.clone()),
                    format!(
                        "{key}=\"{n}\": expected a plain file name (the file is in the program's working directory)"
                    ),
                ))
            }
            other => Ok(other.clone()),
        }
    };
    Ok(crate::exec::IoFiles {
        input: plain("input-file", &desc.input_file)?,
        output: plain("output-file", &desc.output_file)?,
    })
}

/// Solution tags as expected verdicts, by path under `solutions/`.
fn expectations(
    root: &Path,
    desc: &Description,
    file: &Path,
    warnings: &mut Vec<String>,
) -> Vec<(String, Expectation)> {
    let mut out = Vec::new();
    for s in &desc.solutions {
        // A published package often leaves out a solution problem.xml
        // lists (a language the setter did not commit): named here, by
        // problem.xml's line, and not verified.
        if !root.join(&s.source.path).is_file() {
            warnings.push(format!(
                "{}:{}: solution {} (tag {}): not in the package; not verified",
                file.display(),
                s.source.line,
                s.source.path,
                s.tag
            ));
            continue;
        }
        let Some(rel) = s.source.path.strip_prefix("solutions/") else {
            warnings.push(format!(
                "{}:{}: solution {}: not under solutions/; not verified",
                file.display(),
                s.source.line,
                s.source.path
            ));
            continue;
        };
        match tag_expectation(&s.tag) {
            Some(e) => out.push((rel.to_string(), e)),
            None => warnings.push(format!(
                "{}:{}: solution {}: tag {:?} is not one of Polygon's; not verified",
                file.display(),
                s.source.line,
                s.source.path,
                s.tag
            )),
        }
    }
    out
}

/// Polygon's meaning of a solution tag: the verdicts its tests may get and
/// those some test must get. `failed` is a solution that crashes (RE).
pub fn tag_expectation(tag: &str) -> Option<Expectation> {
    use Verdict::*;
    let failing = |v: &[Verdict]| {
        let mut permitted = vec![Accepted];
        permitted.extend_from_slice(v);
        Expectation::declared(Some(permitted), Some(v.to_vec()))
    };
    Some(match tag {
        "main" | "accepted" => Expectation::declared(Some(vec![Accepted]), None),
        "rejected" => Expectation::declared(
            None,
            Some(
                Verdict::ALL
                    .into_iter()
                    .filter(|v| !matches!(v, Accepted | InternalError | Skipped))
                    .collect(),
            ),
        ),
        "wrong-answer" => failing(&[WrongAnswer]),
        "presentation-error" => failing(&[PresentationError]),
        "time-limit-exceeded" => failing(&[TimeLimit]),
        "time-limit-exceeded-or-accepted" => {
            Expectation::declared(Some(vec![Accepted, TimeLimit]), None)
        }
        "time-limit-exceeded-or-memory-limit-exceeded" => failing(&[TimeLimit, MemoryLimit]),
        "memory-limit-exceeded" => failing(&[MemoryLimit]),
        "failed" => failing(&[RuntimeError]),
        _ => return None,
    })
}
