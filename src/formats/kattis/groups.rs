//! A package's test-group settings: `testdata.yaml` (legacy and 2023-07)
//! or `test_group.yaml` (2025-09) in `data/` and any group below it.
//!
//! A group's settings apply to its cases and to every group below it; a
//! nearer file overrides a key it sets and inherits the others (as
//! problemtools merges a group's configuration into its parent's).
//!
//! Keys the judge acts on:
//! - `input_validator_flags` (legacy) / `input_validator_args` (2023-07,
//!   2025-09): a string (split like a shell line) or a list of words for
//!   every input validator, or a map from a validator's name (its file name
//!   without extension, or its directory's name) to its arguments.
//! - `output_validator_flags` / `output_validator_args`: arguments after the
//!   problem's own `validator_flags`, for the custom output validator or
//!   the default one (`float_tolerance 1e-6`, `case_sensitive`, …).
//! - `args` (2025-09): the submission's command-line arguments.
//!
//! Scoring keys (`grading`, `grader_flags`, `accept_score`, `reject_score`,
//! `range`, `on_reject`, `score`, `max_score`, `score_aggregation`,
//! `aggregation`, `require_pass`, `scoring`) are kept as written, inherited
//! like the rest, for `scoring.rs` (a pass-fail problem warns about them).
//! Every other key is a warning naming the file and key.

use crate::formats::error::{FormatError, Place};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a group says about its validators, inherited already.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroupSettings {
    /// The directory the settings apply to (absolute).
    pub dir: PathBuf,
    /// The settings files that made these, outermost first.
    pub files: Vec<PathBuf>,
    pub input_args: Option<InputArgs>,
    pub output_args: Option<Vec<String>>,
    /// The submission's arguments (2025-09 `args`).
    pub args: Option<Vec<String>>,
    /// Scoring keys as written, inherited key by key (legacy and 2023-07
    /// grading reads them so).
    pub grading: BTreeMap<String, String>,
    /// The scoring keys this directory's own file writes, not inherited
    /// (2025-09 test data groups read them so).
    pub own_scoring: BTreeMap<String, serde_norway::Value>,
}

/// Input validator arguments: the same for all, or by validator name.
#[derive(Clone, Debug, PartialEq)]
pub enum InputArgs {
    All(Vec<String>),
    ByName(BTreeMap<String, Vec<String>>),
}

impl InputArgs {
    /// The arguments of the validator called `name`.
    pub fn for_validator(&self, name: &str) -> Vec<String> {
        match self {
            InputArgs::All(words) => words.clone(),
            InputArgs::ByName(map) => map.get(name).cloned().unwrap_or_default(),
        }
    }
}

/// The keys of a group file that set how it is scored (any version).
pub const SCORING_KEYS: [&str; 12] = [
    "grading",
    "grader_flags",
    "accept_score",
    "reject_score",
    "range",
    "on_reject",
    "score",
    "max_score",
    "aggregation",
    "score_aggregation",
    "require_pass",
    "scoring",
];

/// Keys about presentation, not verdicts: read past without a warning.
const SILENT_KEYS: [&str; 4] = ["description", "hint", "full_feedback", "static_validation"];

/// The keys read for the validators and the submission.
const READ_KEYS: [&str; 5] = [
    "input_validator_flags",
    "input_validator_args",
    "output_validator_flags",
    "output_validator_args",
    "args",
];

/// Keys of the format (or of BAPCtools) the judge does not act on: named
/// as such, where any other key is unknown (a typo: "did you mean").
const UNACTED_KEYS: [&str; 5] = [
    "visualizer",
    "visualizer_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "test_case_visualizer_args",
];

/// Every settings file under `data`, each merged with those above it, in
/// directory order. `file_name` is `testdata.yaml` or `test_group.yaml`.
pub fn read(
    data: &Path,
    file_name: &str,
    constants: &crate::text::constants::Constants,
    warnings: &mut Vec<String>,
) -> Result<Vec<GroupSettings>, FormatError> {
    if !data.is_dir() {
        return Ok(Vec::new());
    }
    let mut found: Vec<PathBuf> = crate::exec::links::walk_once(data)
        .filter(|e| e.file_type().is_file() && e.file_name() == file_name)
        .map(|e| e.into_path())
        .collect();
    // Parents before their children: a group inherits what is above it.
    found.sort_by(|a, b| {
        (a.components().count(), a.as_path()).cmp(&(b.components().count(), b.as_path()))
    });
    let mut groups: Vec<GroupSettings> = Vec::new();
    for file in found {
        let dir = file.parent().unwrap_or(data).to_path_buf();
        let parent = groups
            .iter()
            .filter(|g| dir.starts_with(&g.dir) && g.dir != dir)
            .max_by_key(|g| g.dir.components().count())
            .cloned()
            .unwrap_or_default();
        let mut settings = parse(&file, parent, false, constants, warnings)?;
        settings.dir = dir;
        groups.push(settings);
    }
    // A test case's own `NAME.yaml` beside its `NAME.in` (2025-09 "test
    // case configuration"): over its group's settings, for that case
    // alone; `dir` is then the case's input file.
    let mut own: Vec<PathBuf> = crate::exec::links::walk_once(data)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "yaml")
                && !p
                    .file_name()
                    .is_some_and(|n| n == "testdata.yaml" || n == "test_group.yaml")
                && p.with_extension("in").is_file()
        })
        .collect();
    own.sort();
    for file in own {
        let input = file.with_extension("in");
        let parent = nearest(&groups, &input).cloned().unwrap_or_default();
        let mut settings = parse(&file, parent, true, constants, warnings)?;
        settings.dir = input;
        groups.push(settings);
    }
    Ok(groups)
}

/// The settings of the nearest group at or above `path`.
pub fn nearest<'g>(groups: &'g [GroupSettings], path: &Path) -> Option<&'g GroupSettings> {
    groups
        .iter()
        .filter(|g| path.starts_with(&g.dir))
        .max_by_key(|g| g.dir.components().count())
}

/// One file's settings over its parent's (`case`: a test case's own file,
/// where a group's scoring keys have no place).
fn parse(
    file: &Path,
    parent: GroupSettings,
    case: bool,
    constants: &crate::text::constants::Constants,
    warnings: &mut Vec<String>,
) -> Result<GroupSettings, FormatError> {
    let bytes = crate::exec::bounded_read::read_package_file(
        file,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|source| FormatError::Read {
        path: file.to_path_buf(),
        source,
    })?;
    // A group's file sees the package's constants (2025-09).
    let text = String::from_utf8_lossy(&constants.substitute(&bytes)).into_owned();
    let mut settings = parent;
    settings.files.push(file.to_path_buf());
    settings.own_scoring.clear();
    if text.trim().is_empty() {
        return Ok(settings);
    }
    FormatError::shallow_yaml(file, &text)?;
    let value: serde_norway::Value = serde_norway::from_str(crate::text::without_bom(&text))
        .map_err(|e| FormatError::yaml(file, &e))?;
    let serde_norway::Value::Mapping(map) = value else {
        return Err(FormatError::rule(
            Place::file(file),
            "expected a mapping of keys (input_validator_args, output_validator_args, …)",
        ));
    };
    for (key, value) in &map {
        let Some(key) = key.as_str() else {
            return Err(FormatError::rule(
                Place::file(file),
                format!("a key that is not a string: {key:?}"),
            ));
        };
        let at = |e: WordsError| {
            FormatError::key(
                Place::file(file),
                key,
                Some(super::shown_value(value)),
                format!("{key}: {e}"),
            )
        };
        match key {
            "input_validator_flags" | "input_validator_args" => {
                settings.input_args = Some(input_args(value).map_err(at)?);
            }
            "output_validator_flags" | "output_validator_args" => {
                settings.output_args = Some(words(value).map_err(at)?);
            }
            "args" => settings.args = Some(words(value).map_err(at)?),
            k if case && SCORING_KEYS.contains(&k) => warnings.push(format!(
                "{}: {k}: a test data group's key, not a test case's; ignored",
                file.display()
            )),
            k if SCORING_KEYS.contains(&k) => {
                let shown = match value {
                    serde_norway::Value::String(s) => s.clone(),
                    other => serde_norway::to_string(other)
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                };
                settings.grading.insert(key.to_string(), shown);
                settings.own_scoring.insert(key.to_string(), value.clone());
            }
            k if SILENT_KEYS.contains(&k) => {}
            k if UNACTED_KEYS.contains(&k) => warnings.push(format!(
                "{}: {k}: not a key the judge acts on; ignored",
                file.display()
            )),
            other => {
                let known: Vec<&str> = READ_KEYS
                    .iter()
                    .chain(&SCORING_KEYS)
                    .chain(&SILENT_KEYS)
                    .chain(&UNACTED_KEYS)
                    .copied()
                    .collect();
                warnings.push(format!(
                    "{}: {}; ignored",
                    file.display(),
                    crate::text::format::unknown_key(other, &known)
                ))
            }
        }
    }
    Ok(settings)
}

/// Words (arguments) that a group file's value does not give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordsError {
    /// A string that does not split like a shell line.
    #[error("{text:?}: unbalanced quotes")]
    Unbalanced { text: String },
    /// An item of a list that is no word (`found` as the reader shows it).
    #[error("expected a word, found {found}")]
    NotAWord { found: String },
    /// A value that is neither a string nor a list.
    #[error("expected a string or a list of strings, found {found}")]
    NotWords { found: String },
    /// A key of input validators' arguments by name that is no name.
    #[error("a validator name that is not a string: {found}")]
    NotAName { found: String },
}

/// A string split like a shell line, or a list of strings.
pub fn words(value: &serde_norway::Value) -> Result<Vec<String>, WordsError> {
    match value {
        serde_norway::Value::Null => Ok(Vec::new()),
        serde_norway::Value::String(s) => {
            shlex::split(s).ok_or_else(|| WordsError::Unbalanced { text: s.clone() })
        }
        serde_norway::Value::Number(n) => Ok(vec![n.to_string()]),
        serde_norway::Value::Sequence(items) => items
            .iter()
            .map(|item| match item {
                serde_norway::Value::String(s) => Ok(s.clone()),
                serde_norway::Value::Number(n) => Ok(n.to_string()),
                serde_norway::Value::Bool(b) => Ok(b.to_string()),
                other => Err(WordsError::NotAWord {
                    found: format!("{other:?}"),
                }),
            })
            .collect(),
        other => Err(WordsError::NotWords {
            found: format!("{other:?}"),
        }),
    }
}

pub fn input_args(value: &serde_norway::Value) -> Result<InputArgs, WordsError> {
    match value {
        serde_norway::Value::Mapping(map) => {
            let mut by_name = BTreeMap::new();
            for (name, args) in map {
                let Some(name) = name.as_str() else {
                    return Err(WordsError::NotAName {
                        found: format!("{name:?}"),
                    });
                };
                by_name.insert(name.to_string(), words(args)?);
            }
            Ok(InputArgs::ByName(by_name))
        }
        other => words(other).map(InputArgs::All),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::kattis::tests::package as tree;

    /// The testdata.yaml files of the package in `dir`, no constants.
    fn read_testdata(
        dir: &tempfile::TempDir,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<GroupSettings>, FormatError> {
        read(
            &dir.path().join("data"),
            "testdata.yaml",
            &Default::default(),
            warnings,
        )
    }

    #[test]
    fn nearer_files_override_keys_and_inherit_the_rest() {
        let dir = tree(&[
            (
                "data/testdata.yaml",
                "input_validator_flags: --max 100\noutput_validator_flags: float_tolerance 1e-6\n",
            ),
            (
                "data/secret/g1/testdata.yaml",
                "input_validator_flags: --max 10\n",
            ),
            (
                "data/secret/g2/testdata.yaml",
                "input_validator_args:\n  strict: [--small]\ngrading: min\nvisualizer: x\n",
            ),
        ]);
        let mut warnings = Vec::new();
        let groups = read_testdata(&dir, &mut warnings).unwrap();
        assert_eq!(groups.len(), 3);
        let g1 = nearest(&groups, &dir.path().join("data/secret/g1/1.in")).unwrap();
        assert_eq!(
            g1.input_args,
            Some(InputArgs::All(vec!["--max".into(), "10".into()]))
        );
        assert_eq!(
            g1.output_args,
            Some(vec!["float_tolerance".into(), "1e-6".into()])
        );
        let g2 = nearest(&groups, &dir.path().join("data/secret/g2/x/1.in")).unwrap();
        let args = g2.input_args.as_ref().unwrap();
        assert_eq!(args.for_validator("strict"), ["--small"]);
        assert!(args.for_validator("other").is_empty());
        let top = nearest(&groups, &dir.path().join("data/sample/1.in")).unwrap();
        assert_eq!(top.files.len(), 1);
        assert_eq!(g2.grading.get("grading").map(String::as_str), Some("min"));
        assert!(
            warnings.iter().any(|w| w.contains("visualizer: not a key")),
            "{warnings:?}"
        );
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let dir = tree(&[("data/testdata.yaml", "output_validator_flags: [1, [2]]\n")]);
        let e = read_testdata(&dir, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("testdata.yaml: output_validator_flags: expected a word"),
            "{e}"
        );
        let dir = tree(&[("data/testdata.yaml", "a: [\n")]);
        let e = read_testdata(&dir, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(e.contains("testdata.yaml:"), "{e}");
    }
}
