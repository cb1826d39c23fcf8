//! Why a slot's namespaces were not made.

use super::MAX_EXPOSED;
use crate::exec::sandbox::cover::NulInPath;
use std::path::PathBuf;

/// Why a slot's namespaces were not made.
#[derive(Debug, thiserror::Error)]
pub enum NamespaceError {
    #[error(transparent)]
    Nul(#[from] NulInPath),
    #[error("{count} toolchains to expose, at most {MAX_EXPOSED}")]
    TooManyExposed { count: usize },
    #[error("{0}")]
    Pipe(#[source] rustix::io::Errno),
    #[error("fork: {0}")]
    Fork(#[source] std::io::Error),
    #[error("the namespace holder died before it was ready")]
    HolderDied,
    /// The holder's report: the step that failed and its errno.
    #[error("{stage}: {source}")]
    Stage {
        stage: &'static str,
        source: std::io::Error,
    },
    /// A namespace of the holder's that could not be opened.
    #[error("{}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
}
