//! Reading a file a package, a package program or a submission left, with
//! a cap: only a regular file, never blocking, never more than the cap.
//!
//! A feedback file left as a link to `/dev/zero` was read whole until the
//! OOM killer ended the judge; one left as a FIFO blocked a worker in
//! `open()` for ever. So every such read opens with `O_NONBLOCK` (a FIFO
//! opens at once and is then refused), `O_CLOEXEC`, and `O_NOFOLLOW` when
//! the file was written by a program the judge ran ([`Links::Refuse`]);
//! `fstat`s the open descriptor (not the path, which could be swapped
//! between the two) and refuses anything but a regular file; and reads at
//! most the cap, saying when there was more. What a caller does with a
//! refusal or a cut is its own decision (the check layer makes a package
//! program's misbehaviour IE, naming the file and the cap).
//!
//! It does not decide where a file may be (links out of a package, paths
//! beneath a root): that is the package readers' rule, checked before.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

/// Whether the last component of the path may be a symbolic link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// A file a program the judge ran wrote (feedback files, an output
    /// file): a link there is the program's doing, refused.
    Refuse,
    /// A package's own file (an answer, an input), whose links were
    /// checked when the package was read.
    Follow,
}

/// What was read: at most the cap, and whether the file held more.
#[derive(Debug, PartialEq, Eq)]
pub struct Capped {
    pub bytes: Vec<u8>,
    /// The file held more than the cap; `bytes` is its first cap bytes.
    pub cut: bool,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum BoundedReadError {
    /// There is no such file.
    Missing,
    /// Not a regular file: what it is ("a symbolic link", "a FIFO", …).
    NotRegular(&'static str),
    /// Opening or reading failed otherwise.
    Io(std::io::Error),
}

impl std::error::Error for BoundedReadError {}

impl std::fmt::Display for BoundedReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoundedReadError::Missing => write!(f, "there is no such file"),
            BoundedReadError::NotRegular(kind) => {
                write!(f, "it is {kind}, not a regular file")
            }
            BoundedReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Open `path` for reading without blocking and check, on the descriptor,
/// that it is a regular file.
pub fn open_regular(path: &Path, links: Links) -> Result<(File, Metadata), BoundedReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            _ if e.kind() == std::io::ErrorKind::NotFound => BoundedReadError::Missing,
            // O_NOFOLLOW on a link: ELOOP.
            Some(libc::ELOOP) if links == Links::Refuse => {
                BoundedReadError::NotRegular("a symbolic link")
            }
            _ => BoundedReadError::Io(e),
        })?;
    let meta = file.metadata().map_err(BoundedReadError::Io)?;
    match kind(&meta) {
        None => Ok((file, meta)),
        Some(what) => Err(BoundedReadError::NotRegular(what)),
    }
}

/// What a file that is not regular is, in words; `None` for a regular file.
fn kind(meta: &Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_symlink() {
        Some("a symbolic link")
    } else {
        Some("not a regular file")
    }
}

/// At most `cap` bytes of an open file, and whether it held more (one
/// byte past the cap is read to know).
pub fn read_capped(file: File, cap: u64) -> Result<Capped, BoundedReadError> {
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(BoundedReadError::Io)?;
    let cut = bytes.len() as u64 > cap;
    bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    Ok(Capped { bytes, cut })
}

/// The most the judge reads of one description file of a package
/// (problem.xml, problem.yaml, testdata.yaml, generators.yaml, an .ini):
/// far more than any needs.
pub const DESCRIPTION_CAP: u64 = 16 << 20;

/// The most the judge reads whole of one other file of a package (a case
/// compared by `judge gen`, a file copied into an export).
pub const PACKAGE_FILE_CAP: u64 = 1 << 30;

/// A package's file, as `std::fs::read` but bounded: a regular file only
/// (links followed: a package's links are checked when it is read),
/// never blocking, at most `cap` bytes, else an error saying which (the
/// caller names the file). A missing file is `NotFound`.
pub fn read_package_file(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    read_whole(path, cap, Links::Follow)
}

/// A regular file's bytes as `std::fs::read` gives them, but bounded and
/// never blocking: at most `cap` bytes, else an error; a missing file is
/// `NotFound`; a link at the end refused when `links` says so.
pub fn read_whole(path: &Path, cap: u64, links: Links) -> std::io::Result<Vec<u8>> {
    let read = read_regular(path, cap, links).map_err(|e| match e {
        BoundedReadError::Io(e) => e,
        BoundedReadError::Missing => std::io::Error::from(std::io::ErrorKind::NotFound),
        other => std::io::Error::other(other.to_string()),
    })?;
    if read.cut {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, the most the judge reads of such a file",
            cap >> 20
        )));
    }
    Ok(read.bytes)
}

/// [`read_package_file`] as UTF-8 text (`InvalidData` when it is not).
pub fn read_package_text(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_package_file(path, cap)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// [`open_regular`] then [`read_capped`].
pub fn read_regular(path: &Path, cap: u64, links: Links) -> Result<Capped, BoundedReadError> {
    let (file, _) = open_regular(path, links)?;
    read_capped(file, cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "hello").unwrap();
        let whole = read_regular(&path, 5, Links::Refuse).unwrap();
        assert_eq!((whole.bytes.as_slice(), whole.cut), (&b"hello"[..], false));
        let cut = read_regular(&path, 3, Links::Refuse).unwrap();
        assert_eq!((cut.bytes.as_slice(), cut.cut), (&b"hel"[..], true));
        assert!(matches!(
            read_regular(&dir.path().join("none"), 3, Links::Refuse),
            Err(BoundedReadError::Missing)
        ));
    }

    #[test]
    fn links_fifos_and_devices_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let refused = read_regular(&zero, 1 << 20, Links::Refuse).unwrap_err();
        assert!(
            matches!(refused, BoundedReadError::NotRegular("a symbolic link")),
            "{refused:?}"
        );
        // Followed, the link leads to a device: refused all the same.
        let followed = read_regular(&zero, 1 << 20, Links::Follow).unwrap_err();
        assert!(
            matches!(followed, BoundedReadError::NotRegular("a character device")),
            "{followed:?}"
        );
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer: a blocking open would never return.
        let refused = read_regular(&fifo, 10, Links::Follow).unwrap_err();
        assert!(
            matches!(refused, BoundedReadError::NotRegular("a FIFO")),
            "{refused:?}"
        );
        assert_eq!(
            read_regular(dir.path(), 10, Links::Follow)
                .unwrap_err()
                .to_string(),
            "it is a directory, not a regular file"
        );
    }
}
