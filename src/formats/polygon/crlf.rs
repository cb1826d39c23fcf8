//! Windows line ends in a Polygon package's text files. Polygon makes its
//! packages on Windows: a test written there (by a generator's text-mode
//! `stdout`, or uploaded) often ends its lines with `\r\n`, and every
//! program Polygon and Codeforces run reads it in text mode, so a
//! solution's `gets`, a validator's strict `readEoln()` (testlib accepts
//! `\r\n` only `ON_WINDOWS`) and a checker see `\n`. On Linux a program
//! would see the `\r`, and a solution Polygon accepts crashes here.
//!
//! Decision (docs/packages.md): a test file of a Polygon package whose
//! first line ends with `\r\n` is given to every program as Windows' text
//! mode reads it, each `\r\n` a `\n` — a converted copy in the judge's
//! cache (the package is never written to), named by the file's path,
//! size and modification time, so that an unchanged package converts
//! nothing again. A file whose first line ends with `\n` alone is given
//! byte for byte. Inputs, answers, and the checker's and validators' own
//! tests alike; the caller names how many were converted.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// How much of a file is read to find its first line's end before the
/// file is taken as one without line ends (given as it is).
const PROBE: u64 = 1 << 20;

/// Whether the file at `path` is Windows text: its first `\n` (within
/// the first MiB) follows a `\r`.
pub fn is_windows_text(path: &Path) -> std::io::Result<bool> {
    let file = open(path)?;
    let mut reader = BufReader::new(file.take(PROBE));
    let mut line = Vec::new();
    reader.read_until(b'\n', &mut line)?;
    Ok(first_line_ends_crlf(&line))
}

/// The file programs are given for `path`: itself, or (Windows text) its
/// copy with `\n` line ends in `store`, made when not made before. The
/// second value: whether it is a converted copy.
pub fn as_read(path: &Path, store: &Path) -> std::io::Result<(PathBuf, bool)> {
    if !is_windows_text(path)? {
        return Ok((path.to_path_buf(), false));
    }
    let real = std::fs::canonicalize(path)?;
    let meta = std::fs::metadata(&real)?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    let mut key = crate::exec::identity::Fields::new();
    key.field("polygon crlf", b"1")
        .field("path", real.as_os_str().as_encoded_bytes())
        .field("size", &meta.len().to_le_bytes())
        .field("modified", &modified.as_nanos().to_le_bytes());
    let target = store.join(key.hex());
    if target.is_file() {
        return Ok((target, true));
    }
    {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(store)?;
    }
    let mut temp = tempfile::NamedTempFile::new_in(store)?;
    convert(open(&real)?, &mut BufWriter::new(temp.as_file_mut()))?;
    temp.persist(&target).map_err(|e| e.error)?;
    Ok((target, true))
}

/// A package's file, opened without blocking (a FIFO planted among the
/// tests never hangs the judge) and only when it is a regular file.
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use crate::exec::bounded_read::{BoundedReadError, Links, open_regular};
    match open_regular(path, Links::Follow) {
        Ok((file, _)) => Ok(file),
        Err(BoundedReadError::Io(e)) => Err(e),
        Err(other) => Err(std::io::Error::other(other.to_string())),
    }
}

/// Copy `from` into `to` with each `\r\n` a `\n` (a `\r` alone is kept).
fn convert(from: impl Read, to: &mut impl Write) -> std::io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, from);
    // A `\r` at the end of one chunk, not yet known to precede a `\n`.
    let mut held = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        let mut start = 0;
        if held {
            held = false;
            if chunk.first() != Some(&b'\n') {
                to.write_all(b"\r")?;
            }
        }
        for at in crlf_at(chunk) {
            // `\r\n`: write up to the `\r`, skip it.
            to.write_all(chunk.get(start..at).unwrap_or_default())?;
            start = at.saturating_add(1);
        }
        let rest = chunk.get(start..).unwrap_or_default();
        match rest.split_last() {
            Some((b'\r', before)) => {
                to.write_all(before)?;
                held = true;
            }
            _ => to.write_all(rest)?,
        }
        let n = chunk.len();
        reader.consume(n);
    }
    if held {
        to.write_all(b"\r")?;
    }
    to.flush()
}

/// Each index of a `\r` that a `\n` follows within `chunk`.
fn crlf_at(chunk: &[u8]) -> impl Iterator<Item = usize> + '_ {
    chunk
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w == b"\r\n")
        .map(|(i, _)| i)
}

/// Whether the first line of `bytes` (up to its first `\n`) ends with
/// `\r\n`: the one rule for what is Windows text.
fn first_line_ends_crlf(bytes: &[u8]) -> bool {
    match bytes.iter().position(|&b| b == b'\n') {
        Some(at) => at > 0 && bytes.get(at.saturating_sub(1)) == Some(&b'\r'),
        None => false,
    }
}

/// `bytes` as Windows' text mode reads them, when they are Windows text
/// (their first line ends with `\r\n`); otherwise `None`.
pub fn read_as_windows(bytes: &[u8]) -> Option<Vec<u8>> {
    if !first_line_ends_crlf(bytes) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    convert(bytes, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn converted(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        convert(bytes, &mut out).unwrap();
        out
    }

    #[test]
    fn each_crlf_becomes_lf_and_a_lone_cr_stays() {
        assert_eq!(converted(b"1 2\r\n3\r\n"), b"1 2\n3\n");
        assert_eq!(converted(b"a\rb\r\n\r"), b"a\rb\n\r");
        assert_eq!(converted(b""), b"");
        assert_eq!(converted(b"\r\n\r\n"), b"\n\n");
    }

    #[test]
    fn a_crlf_split_between_chunks_is_one_line_end() {
        // A reader handing one byte at a time splits every `\r\n`.
        struct Bytewise<'a>(&'a [u8]);
        impl Read for Bytewise<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match (self.0.split_first(), buf.first_mut()) {
                    (Some((b, rest)), Some(slot)) => {
                        *slot = *b;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let mut out = Vec::new();
        convert(Bytewise(b"x\r\ny\r\rz\r"), &mut out).unwrap();
        assert_eq!(out, b"x\ny\r\rz\r");
    }

    #[test]
    fn only_a_file_whose_first_line_ends_with_crlf_is_windows_text() {
        assert_eq!(
            read_as_windows(b"4\r\n1 2\r\n").as_deref(),
            Some(&b"4\n1 2\n"[..])
        );
        assert_eq!(read_as_windows(b"4\n1 2\r\n"), None);
        assert_eq!(read_as_windows(b"no line end"), None);
        let dir = tempfile::tempdir().unwrap();
        let (dos, unix) = (dir.path().join("dos"), dir.path().join("unix"));
        std::fs::write(&dos, b"4\r\n1 2\r\n").unwrap();
        std::fs::write(&unix, b"4\n").unwrap();
        let store = dir.path().join("store");
        let (read, converted) = as_read(&dos, &store).unwrap();
        assert!(converted);
        assert_eq!(std::fs::read(&read).unwrap(), b"4\n1 2\n");
        // Again: the same copy, not made again.
        assert_eq!(as_read(&dos, &store).unwrap().0, read);
        assert_eq!(as_read(&unix, &store).unwrap(), (unix.clone(), false));
        // A FIFO is refused at once, never opened to wait for a writer.
        let fifo = dir.path().join("fifo");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let refused = as_read(&fifo, &store).unwrap_err().to_string();
        assert!(refused.contains("FIFO"), "{refused}");
    }
}
