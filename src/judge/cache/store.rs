//! The run cache's files: sealed entries (a JSON body and its SHA-256 on
//! the last line) and content-addressed objects (a program's output and
//! standard error, named by their SHA-256), each written to a temporary
//! file beside its place and renamed into it, so a reader sees a whole
//! file or none. A file that fails its digest is removed and read as
//! absent: the run or check is done again, never trusted.

use crate::exec::identity::bytes_digest;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where a file of name `name` lives under `dir`: a subdirectory by its
/// first two characters, so no directory grows too long.
pub fn sharded(dir: &Path, name: &str) -> PathBuf {
    dir.join(name.get(..2).unwrap_or("__")).join(name)
}

/// Write `bytes` to `path` atomically (a temporary file in the same
/// directory, renamed), making the directory (0700) when missing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("no directory"))?;
    let mut temp = match tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir) {
        Ok(temp) => temp,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)?;
            tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?
        }
        Err(e) => return Err(e),
    };
    temp.write_all(bytes)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A sealed entry's bytes: the body, a newline, its digest.
pub fn seal(body: &[u8]) -> Vec<u8> {
    let mut sealed = body.to_vec();
    sealed.push(b'\n');
    sealed.extend_from_slice(bytes_digest(body).as_bytes());
    sealed
}

/// The body of a sealed entry at `path`, if it is there and whole; a
/// damaged one is removed.
pub fn read_sealed(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .filter(|&at| bytes_digest(&bytes[..at]).as_bytes() == &bytes[at + 1..])
        .map(|at| bytes[..at].to_vec());
    if whole.is_none() {
        damaged(path);
    }
    whole
}

/// Say a damaged file was found, and remove it.
pub fn damaged(path: &Path) {
    eprintln!(
        "judge: the run cache's {} is damaged (its content does not match its digest): removed; what it held is done again",
        path.display()
    );
    let _ = std::fs::remove_file(path);
}

/// Store `bytes` as an object (if not there already); its name.
pub fn put_object(objects: &Path, bytes: &[u8]) -> std::io::Result<String> {
    let name = bytes_digest(bytes);
    let path = sharded(objects, &name);
    if path.is_file() {
        touch(&path);
    } else {
        write_atomic(&path, bytes)?;
    }
    Ok(name)
}

/// The object `name`, if it is there and its bytes have that digest.
pub fn get_object(objects: &Path, name: &str) -> Option<Vec<u8>> {
    if name.len() != 64 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let path = sharded(objects, name);
    let bytes = std::fs::read(&path).ok()?;
    if bytes_digest(&bytes) != name {
        damaged(&path);
        return None;
    }
    touch(&path);
    Some(bytes)
}

/// Mark a file used now: eviction removes the least recently used first.
pub fn touch(path: &Path) {
    if let Ok(file) = std::fs::File::options().append(true).open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// What the cache holds: files and bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub files: u64,
    pub bytes: u64,
}

/// Every file under `dir` with its size and last use.
fn files(dir: &Path) -> Vec<(SystemTime, u64, PathBuf)> {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.into_path()))
        })
        .collect()
}

/// How much is under `dir`.
pub fn usage(dir: &Path) -> Usage {
    files(dir)
        .iter()
        .fold(Usage::default(), |u, (_, len, _)| Usage {
            files: u.files + 1,
            bytes: u.bytes + len,
        })
}

/// Remove the least recently used files under `dir` until it holds at
/// most `limit` bytes (down to nine tenths of it, so that not every run
/// evicts), and temporary files an interrupted writer left an hour ago.
/// Returns what is left.
pub fn evict(dir: &Path, limit: u64) -> Usage {
    let mut all = files(dir);
    let stale = SystemTime::now() - std::time::Duration::from_secs(3600);
    all.retain(|(used, _, path)| {
        let temporary = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".tmp-"));
        if temporary && *used < stale {
            let _ = std::fs::remove_file(path);
            return false;
        }
        true
    });
    let mut total: u64 = all.iter().map(|(_, len, _)| len).sum();
    if total > limit {
        all.sort();
        let target = limit / 10 * 9;
        let mut kept = all.len();
        for (_, len, path) in &all {
            if total <= target {
                break;
            }
            if std::fs::remove_file(path).is_ok() {
                total -= len;
                kept -= 1;
            }
        }
        return Usage {
            files: kept as u64,
            bytes: total,
        };
    }
    Usage {
        files: all.len() as u64,
        bytes: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_entry_with_a_flipped_byte_is_refused_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e");
        write_atomic(&path, &seal(b"{\"a\":1}")).unwrap();
        assert_eq!(read_sealed(&path).unwrap(), b"{\"a\":1}");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[3] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(read_sealed(&path).is_none());
        assert!(!path.exists());
    }

    #[test]
    fn an_object_is_checked_against_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let name = put_object(dir.path(), b"output").unwrap();
        assert_eq!(get_object(dir.path(), &name).unwrap(), b"output");
        std::fs::write(sharded(dir.path(), &name), b"outpuT").unwrap();
        assert!(get_object(dir.path(), &name).is_none());
    }

    #[test]
    fn eviction_removes_the_least_recently_used_first() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old");
        let new = dir.path().join("new");
        std::fs::write(&old, vec![0u8; 600]).unwrap();
        std::fs::write(&new, vec![0u8; 600]).unwrap();
        let file = std::fs::File::options().append(true).open(&old).unwrap();
        file.set_modified(SystemTime::now() - std::time::Duration::from_secs(60))
            .unwrap();
        let left = evict(dir.path(), 1000);
        assert!(!old.exists() && new.exists());
        assert_eq!(
            left,
            Usage {
                files: 1,
                bytes: 600
            }
        );
    }
}
