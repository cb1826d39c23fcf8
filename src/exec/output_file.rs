//! A problem's output file (Polygon's `output-file`): what a program
//! wrote in its working directory in place of its standard output, read
//! after the run (see `Launch::output_file` in `process.rs`).

use crate::exec::RunError;
use crate::exec::bounded_read::{BoundedReadError, Links, open_regular, read_capped};
use crate::exec::captured::{Output, SPILL};
use std::path::Path;

/// The output file a program wrote (its launch's `output_file`): at most
/// `limit` bytes, and whether it held more. A missing file is an empty
/// output; a symbolic link, a file with another name (a hard link) or anything but a regular file is refused as the
/// program's output (an IE would blame the judge), read as empty. One
/// past [`SPILL`] is kept open where it is, not read (its name may go with
/// the working directory; the open file stays).
pub(crate) fn read(path: &Path, limit: u64) -> Result<(Output, bool), RunError> {
    let (file, meta) = match open_regular(path, Links::Refuse) {
        Ok((file, meta)) => {
            // One name only: a hard link the program made to a file it could
            // not read (the judge reads as its own user) is not its output.
            if std::os::unix::fs::MetadataExt::nlink(&meta) != 1 {
                return Ok((Output::default(), false));
            }
            (file, meta)
        }
        Err(_) => return Ok((Output::default(), false)),
    };
    if meta.len() > SPILL as u64 {
        let over = meta.len() > limit;
        return Ok((Output::of_file(file, meta.len().min(limit)), over));
    }
    let read = read_capped(file, limit).map_err(|e| match e {
        BoundedReadError::Io(e) => {
            RunError::Internal(format!("cannot read {}: {e}", path.display()))
        }
        other => RunError::Internal(format!("cannot read {}: {other}", path.display())),
    })?;
    Ok((Output::Held(read.bytes), read.cut))
}
