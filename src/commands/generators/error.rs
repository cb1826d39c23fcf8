//! Why a case of `judge gen` was not made ([`CaseError`], each case's
//! failure in the summary and the JSON report) and why a file of it was
//! not written ([`WriteError`], a refusal). Making a case's files (a
//! generator, a copy, a solution) says what failed in words of its own,
//! naming the command or the file ([`CaseError::Making`]).

use super::confine::ConfineError;
use crate::formats::generators::GenError;
use crate::text::whitespace::shown_path;
use std::path::PathBuf;

/// Why a case was not made.
#[derive(Debug, thiserror::Error)]
pub(super) enum CaseError {
    /// An entry of generators.yaml that cannot be made: its file, line
    /// and entry.
    #[error("{0}: not made")]
    Skipped(GenError),
    /// A read or write that leaves the package, or a file too large.
    #[error(transparent)]
    Confine(#[from] ConfineError),
    /// An empty entry (a hand-made case) whose input is not in data/.
    #[error(
        "an empty entry is a hand-made case whose files are in data/, and data/{}.in is not there (give the entry generate:, copy: or in:)",
        shown_path(.case)
    )]
    NoManualInput { case: PathBuf },
    /// An `include:`d case whose original failed.
    #[error("the included case data/{} was not made", .from.display())]
    IncludedNotMade { from: PathBuf },
    /// An `include:`d case whose original wrote no input.
    #[error("the included case data/{} has no input written", .from.display())]
    IncludedNoInput { from: PathBuf },
    /// The built-in puzzle's validator refused the input.
    #[error("rejected by the built-in {puzzle} validator: {message}")]
    PuzzleRejected { puzzle: String, message: String },
    /// An input validator refused the input.
    #[error("rejected by input validator {validator}: {message}")]
    InputRejected { validator: String, message: String },
    /// An answer validator refused the answer.
    #[error("answer rejected by {validator}: {message}")]
    AnswerRejected { validator: String, message: String },
    /// The validation's own files (its working directory).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Making the case's files failed: the message names the generator's
    /// command, the copied file or the solution.
    #[error("{0}")]
    Making(String),
}

/// The private steps of making a case say what failed in words.
impl From<String> for CaseError {
    fn from(message: String) -> CaseError {
        CaseError::Making(message)
    }
}

/// Why a file of a case (or a group settings file) was not written.
#[derive(Debug, thiserror::Error)]
pub(super) enum WriteError {
    /// The manifest's path is not a plain relative path under data/.
    #[error("data/{0}: not a plain path under data/")]
    NotPlain(String),
    /// A file judge gen did not write (or that changed since), without
    /// `--force`.
    #[error(
        "data/{0}: not replaced: judge gen did not write it (or it changed since); --force replaces it"
    )]
    NotOwned(String),
    #[error(transparent)]
    Confine(#[from] ConfineError),
}
