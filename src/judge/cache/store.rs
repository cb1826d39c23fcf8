//! The run cache's files beside its packs: content-addressed objects (a
//! long or binary output or standard error, named by its SHA-256), each
//! written to a temporary file beside its place and renamed into it, so a
//! reader sees a whole file or none. An object that fails its digest is
//! removed and read as absent: the run is done again, never trusted. And
//! the cache's size: eviction of the least recently used files, a pack
//! and its index as one.

use crate::exec::atomic;
use crate::exec::identity::{bytes_digest, text_digest};
use crate::text::stream::Text;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where a file of name `name` lives under `dir`: a subdirectory by its
/// first two characters, so no directory grows too long.
pub fn sharded(dir: &Path, name: &str) -> PathBuf {
    dir.join(name.get(..2).unwrap_or("__")).join(name)
}

/// Write `bytes` to `path` atomically, private to the judge's user, making
/// the directory (0700) when missing (`exec::atomic`).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_text(path, Text::Bytes(bytes))
}

/// [`write_atomic`] of a streamed text.
pub fn write_atomic_text(path: &Path, text: Text<'_>) -> std::io::Result<()> {
    atomic::write(path, text, atomic::Mode::Private, true)
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

/// [`put_object`] of a streamed text (an output spooled to a file).
pub fn put_object_text(objects: &Path, text: Text<'_>) -> std::io::Result<String> {
    let name = text_digest(text);
    let path = sharded(objects, &name);
    if path.is_file() {
        touch(&path);
    } else {
        write_atomic_text(&path, text)?;
    }
    Ok(name)
}

/// The object `name` as an open file (streamed when it is read), if it
/// is there and its bytes have that digest.
pub fn get_object_file(objects: &Path, name: &str) -> Option<(std::fs::File, u64)> {
    if name.len() != 64 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let path = sharded(objects, name);
    let file = std::fs::File::open(&path).ok()?;
    let text = Text::file(&file).ok()?;
    if text_digest(text) != name {
        damaged(&path);
        return None;
    }
    touch(&path);
    let len = text.len();
    Some((file, len))
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

/// The unit a file is evicted with: a pack and its index together
/// (`NAME.pack`, `NAME.idx`), any other file alone.
fn unit(path: &Path) -> PathBuf {
    match path.extension().and_then(|x| x.to_str()) {
        Some("pack" | "idx") => path.with_extension(""),
        _ => path.to_path_buf(),
    }
}

/// Remove the least recently used files under `dir` until it holds at
/// most `limit` bytes (down to nine tenths of it, so that not every run
/// evicts): a pack with its index (the index first, so no reader finds an
/// index without its pack), an object alone. Temporary files an
/// interrupted writer left an hour ago go too. Returns what is left.
pub fn evict(dir: &Path, limit: u64) -> Usage {
    let mut all = files(dir);
    let stale = SystemTime::now() - std::time::Duration::from_secs(3600);
    all.retain(|(used, _, path)| {
        let temporary = path
            .file_name()
            .is_some_and(|n| atomic::is_temporary(&n.to_string_lossy()));
        if temporary && *used < stale {
            let _ = std::fs::remove_file(path);
            return false;
        }
        true
    });
    let files_now = all.len() as u64;
    let mut total: u64 = all.iter().map(|(_, len, _)| len).sum();
    if total <= limit {
        return Usage {
            files: files_now,
            bytes: total,
        };
    }
    let mut units: std::collections::HashMap<PathBuf, (SystemTime, u64, Vec<PathBuf>)> =
        std::collections::HashMap::new();
    for (used, len, path) in all {
        let u = units.entry(unit(&path)).or_insert((used, 0, Vec::new()));
        u.0 = u.0.max(used);
        u.1 += len;
        u.2.push(path);
    }
    let mut units: Vec<_> = units.into_values().collect();
    units.sort();
    let target = limit / 10 * 9;
    let mut kept = files_now;
    for (_, len, mut paths) in units {
        if total <= target {
            break;
        }
        // The index before its pack.
        paths.sort_by_key(|p| p.extension().is_none_or(|x| x != "idx"));
        for path in &paths {
            if std::fs::remove_file(path).is_ok() {
                kept -= 1;
            }
        }
        total -= len;
    }
    Usage {
        files: kept,
        bytes: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_is_checked_against_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let name = put_object(dir.path(), b"output").unwrap();
        assert_eq!(get_object(dir.path(), &name).unwrap(), b"output");
        std::fs::write(sharded(dir.path(), &name), b"outpuT").unwrap();
        assert!(get_object(dir.path(), &name).is_none());
    }

    #[test]
    fn a_pack_goes_with_its_index() {
        let dir = tempfile::tempdir().unwrap();
        let old = |name: &str, len: usize| {
            let path = dir.path().join(name);
            std::fs::write(&path, vec![0u8; len]).unwrap();
            let file = std::fs::File::options().append(true).open(&path).unwrap();
            file.set_modified(SystemTime::now() - std::time::Duration::from_secs(60))
                .unwrap();
            path
        };
        let pack = old("a.pack", 500);
        let index = old("a.idx", 50);
        // b's pack is old, but its index new: used as one, kept.
        let other = old("b.pack", 500);
        std::fs::write(dir.path().join("b.idx"), [0u8; 50]).unwrap();
        let left = evict(dir.path(), 1000);
        assert!(!pack.exists() && !index.exists());
        assert!(other.exists());
        assert_eq!(left.files, 2);
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
