//! What can be wrong with a configuration, typed so that callers can tell a
//! file that cannot be read from a bad value from a rule broken between
//! keys, and so that every message names the file, the line and column
//! where known, and the key.

use std::fmt;
use std::path::PathBuf;

/// A place in a configuration file: the file, and the line and column
/// (from 1) when the error has a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub path: PathBuf,
    pub at: Option<(usize, usize)>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "{}:{line}:{column}", self.path.display()),
            None => write!(f, "{}", self.path.display()),
        }
    }
}

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
}

fn key_suffix(key: &Option<String>) -> String {
    key.as_ref()
        .map(|k| format!(" (key `{k}`)"))
        .unwrap_or_default()
}
