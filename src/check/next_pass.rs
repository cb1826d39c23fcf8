//! A multi-pass validator's `nextpass.in`, taken as the next pass's input
//! under a cap, never through a link, never blocking.

/// The most a validator's `nextpass.in` may hold: a next pass's input.
pub const NEXT_PASS_CAP: u64 = 1 << 30;

/// Copy the validator's `nextpass.in` to `to`: a regular file it wrote
/// (a link is refused: the validator made it, and a link to an 8 GiB
/// sparse file of the package would fill the disk), at most
/// [`NEXT_PASS_CAP`] bytes, never blocking on a FIFO.
pub(super) fn copy_next_pass(
    next: &std::path::Path,
    to: &std::path::Path,
) -> Result<(), NextPassError> {
    use crate::exec::bounded_read::{Links, open_regular};
    use std::io::Read;
    let (file, meta) = open_regular(next, Links::Refuse)?;
    if meta.len() > NEXT_PASS_CAP {
        return Err(NextPassError::TooBig { len: meta.len() });
    }
    let copy = |source| NextPassError::Copy {
        to: to.to_path_buf(),
        source,
    };
    let mut out = std::fs::File::create(to).map_err(copy)?;
    std::io::copy(&mut file.take(NEXT_PASS_CAP), &mut out).map_err(copy)?;
    Ok(())
}

/// Why a validator's `nextpass.in` was not taken as the next pass's input.
#[derive(Debug, thiserror::Error)]
pub(super) enum NextPassError {
    #[error(transparent)]
    Open(#[from] crate::exec::bounded_read::BoundedReadError),
    #[error(
        "{len} bytes, more than the {} MiB a pass's input may have",
        NEXT_PASS_CAP >> 20
    )]
    TooBig { len: u64 },
    #[error("{}: {source}", to.display())]
    Copy {
        to: std::path::PathBuf,
        source: std::io::Error,
    },
}
