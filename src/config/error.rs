//! What can be wrong with a configuration, typed so that callers can tell a
//! file that cannot be read from a bad value from a rule broken between
//! keys, and so that every message names the file, the line and column
//! where known, and the key.

pub use crate::formats::error::Place;
use crate::formats::error::{FormatError, ModelError};
use crate::formats::kattis::{FlagError, groups::WordsError};
use std::path::PathBuf;

/// A configuration error.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file is not UTF-8 from this place on.
    #[error("{place}: not valid UTF-8")]
    NotUtf8 { place: Place },
    /// TOML syntax, an unknown key, or a value of the wrong type or out of
    /// range (`key` is the key on that line, when there is one).
    #[error("{place}: {message}{}", key_suffix(.key))]
    Value {
        place: Place,
        key: Option<String>,
        message: String,
    },
    /// A key whose value breaks a rule of judge.toml (`problem.sum.puzzle`,
    /// `language.java`).
    #[error("{place}: {key}: {message}")]
    Key {
        place: Place,
        key: String,
        message: String,
    },
    /// The file as a whole (two keys that do not go together, a package's
    /// own files).
    #[error("{}: {message}", .path.display())]
    Whole { path: PathBuf, message: String },
    /// A problem made from the command line alone.
    #[error("{0}")]
    CommandLine(String),
    /// A package (Kattis, DOMjudge, Polygon) that cannot be read.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A package named by a key of judge.toml (`problem.NAME.package`)
    /// that cannot be read.
    #[error("{place}: {key}: {source}")]
    Package {
        place: Place,
        key: String,
        source: Box<FormatError>,
    },
    /// A package whose meaning (problem.xml's checker, its scoring) the
    /// judge cannot take, named with the package as a whole.
    #[error("{}: {source}", .root.display())]
    Meaning {
        root: PathBuf,
        source: Box<FormatError>,
    },
}

impl From<ModelError> for ConfigError {
    fn from(e: ModelError) -> ConfigError {
        match e {
            ModelError::Read(e) => ConfigError::Format(e),
            ModelError::Whole { root, source } => ConfigError::Meaning { root, source },
        }
    }
}

/// What a test data group's settings (or a case's own yaml) give that the
/// judge cannot take.
#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    /// Output validator arguments the default validator does not take
    /// (`origin`: the group's files).
    #[error("{origin}: output validator arguments: {source}")]
    OutputArgs { origin: String, source: FlagError },
    /// A case's own yaml nested too deep.
    #[error(
        "its yaml: line {line} nests {depth} levels deep, more than {}",
        crate::text::YAML_MAX_DEPTH
    )]
    TooDeep { line: usize, depth: usize },
    /// A case's own yaml that is not YAML.
    #[error("its yaml: {0}")]
    Yaml(#[source] serde_norway::Error),
    /// A case's `input_validator_args`.
    #[error("its yaml: input_validator_args: {0}")]
    InputArgs(#[source] WordsError),
    /// A case's `args`.
    #[error("its yaml: args: {0}")]
    Args(#[source] WordsError),
}

fn key_suffix(key: &Option<String>) -> String {
    key.as_ref()
        .map(|k| format!(" (key `{k}`)"))
        .unwrap_or_default()
}
