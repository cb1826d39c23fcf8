//! Why a path is not a submission the judge can build ([`SourceError`]),
//! and which of those are the submission's own fault (CE).

use std::path::PathBuf;

/// Why a path is not a submission the judge can build.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("--language {name:?}: unknown language (known: {})", .known.join(", "))]
    UnknownLanguage { name: String, known: Vec<String> },
    #[error("{}: cannot read the directory: {reason}", .dir.display())]
    Unreadable { dir: PathBuf, reason: String },
    #[error("{}", no_source(.dir, .extensions, .found))]
    NoSource {
        dir: PathBuf,
        extensions: Vec<String>,
        /// The extensions of the files it holds (none of a known language).
        found: Vec<String>,
    },
    #[error("{}: a directory with sources of several languages ({}); a submission is sources of one language", .dir.display(), .files.join(", "))]
    SeveralSources { dir: PathBuf, files: Vec<String> },
    #[error("{}: {reason} ({}); name the main file with an entrypoint (submissions.yaml)", .dir.display(), .files.join(", "))]
    NoEntry {
        dir: PathBuf,
        reason: String,
        files: Vec<String>,
    },
    /// The sources themselves make no program, as a compiler would say:
    /// a Java or Kotlin directory with no `main`, or with several and no
    /// entry point to choose (DOMjudge's compile script fails on the
    /// first; the spec's `entrypoint` settles the second).
    #[error("{}: {reason}", .dir.display())]
    NoProgram { dir: PathBuf, reason: String },
}

/// A directory with no source: empty, or of files in languages the judge
/// does not build (said so, as a single file of such a language is: what
/// `--allow-missing` forgives).
fn no_source(dir: &std::path::Path, extensions: &[String], found: &[String]) -> String {
    if found.is_empty() {
        format!(
            "{}: a directory with no source file in it (known extensions: {})",
            dir.display(),
            extensions.join(" ")
        )
    } else {
        format!(
            "{}: no language of the judge's builds its files ({}; known extensions: {})",
            dir.display(),
            found.join(" "),
            extensions.join(" ")
        )
    }
}

impl SourceError {
    /// The submission's own fault, judged CE, not a source the judge
    /// cannot handle (not run): sources that make no program, and a
    /// directory whose main file neither an entrypoint nor the language's
    /// rule picks (the spec: the default entry point comes from the
    /// languages table, and a build that cannot start fails; DOMjudge's
    /// `compiler_error/multifile-js` expects COMPILER-ERROR).
    pub fn is_compile_error(&self) -> bool {
        matches!(
            self,
            SourceError::NoProgram { .. } | SourceError::NoEntry { .. }
        )
    }
}
