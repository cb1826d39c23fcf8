//! How a command ends: an exit code, or a [`Failure`] printed once by
//! `commands::main`. Messages are strings only here, at the top, where
//! they are printed; the layers below hand up typed errors.

use crate::verdict::ExitCode;

/// Why a command stopped early.
#[derive(Debug)]
pub enum Failure {
    /// A usage or configuration error (exit 2).
    Usage(String),
    /// The judge's own failure (exit 3).
    Internal(String),
    /// Ctrl-C before the work was done (exit 130).
    Interrupted,
}

impl Failure {
    /// A usage error from any error a lower layer hands up: its message.
    pub fn usage(error: impl std::fmt::Display) -> Failure {
        Failure::Usage(error.to_string())
    }

    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Usage(_) => ExitCode::Usage,
            Failure::Internal(_) => ExitCode::Internal,
            Failure::Interrupted => ExitCode::Interrupted,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::Internal(m) => m,
            Failure::Interrupted => "interrupted",
        }
    }
}

impl From<crate::formats::MakeError> for Failure {
    fn from(e: crate::formats::MakeError) -> Failure {
        match e {
            crate::formats::MakeError::Judge(m) => Failure::Internal(m),
            other => Failure::Usage(other.to_string()),
        }
    }
}

/// What every command returns.
pub type Outcome = Result<ExitCode, Failure>;
