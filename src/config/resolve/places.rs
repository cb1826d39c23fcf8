//! Places in judge.toml: the line and column of an offset, the key on a
//! line, a toml error at its place, and the errors about one problem's keys.

use crate::config::{ConfigError, Place};
use std::ops::Range;
use std::path::Path;

/// Errors about the keys of judge.toml (at `path`, holding `text`).
#[derive(Clone, Copy)]
pub(super) struct KeyErrors<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl KeyErrors<'_> {
    /// The place of the byte range `span` (`None`: the file as a whole).
    pub fn at(&self, span: Option<Range<usize>>) -> Place {
        match span.map(|span| line_col(self.text, span.start)) {
            Some((line, column)) => Place::at(self.path, line, column),
            None => Place::file(self.path),
        }
    }

    /// A bad value of `key` at `span`.
    pub fn key(&self, span: Option<Range<usize>>, key: String, message: String) -> ConfigError {
        ConfigError::Key {
            place: self.at(span),
            key,
            message,
        }
    }
}

/// A toml error at its place (`path:line:column: message (key `k`)`).
pub(in crate::config) fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let span = e.span();
    ConfigError::Value {
        place: match span.as_ref().map(|s| line_col(text, s.start)) {
            Some((line, column)) => Place::at(path, line, column),
            None => Place::file(path),
        },
        key: span.and_then(|s| key_at(text, s.start)),
        message: suggest(e.message().trim_end()),
    }
}

/// serde's "unknown field `X`, expected one of `a`, `b`, …" (every key of
/// the table, 28 for a problem) made "unknown field `X`: did you mean
/// `a`?" when one key is close (Jaro-Winkler ≥ 0.8, as clap suggests
/// flags); the list stays when none is.
fn suggest(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((field, expected)) = rest.split_once("`, expected ") else {
        return message.to_string();
    };
    let candidates = expected
        .trim_start_matches("one of ")
        .split(", ")
        .map(|c| c.trim_matches('`'));
    let best = candidates
        .map(|c| (strsim::jaro_winkler(field, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, key)) => format!("unknown field `{field}`: did you mean `{key}`?"),
        None => message.to_string(),
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

pub(super) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    line_col_of_bytes(text.as_bytes(), offset)
}

pub(in crate::config) fn line_col_of_bytes(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = bytes.get(..offset).unwrap_or(bytes);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
}
