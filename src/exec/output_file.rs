//! A problem's output file (Polygon's `output-file`): what a program
//! wrote in its working directory in place of its standard output, read
//! after the run (see `process::Launch::output_file`).

use crate::exec::RunError;
use std::path::Path;

/// The output file a program wrote (see [`crate::exec::process::Launch::output_file`]): at most
/// `limit` bytes, and whether it held more. A missing file is an empty
/// output; a symbolic link, a file with another name (a hard link) or anything but a regular file is refused as the
/// program's output (an IE would blame the judge), read as empty.
pub(crate) fn read(path: &Path, limit: u64) -> Result<(Vec<u8>, bool), RunError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let file = match file {
        Ok(f) => f,
        Err(_) => return Ok((Vec::new(), false)),
    };
    // One name only: a hard link the program made to a file it could
    // not read (the judge reads as its own user) is not its output.
    if !file
        .metadata()
        .is_ok_and(|m| m.is_file() && std::os::unix::fs::MetadataExt::nlink(&m) == 1)
    {
        return Ok((Vec::new(), false));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| RunError::Internal(format!("cannot read {}: {e}", path.display())))?;
    let over = bytes.len() as u64 > limit;
    bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok((bytes, over))
}
