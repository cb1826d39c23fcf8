//! What a program is, as content: the digests the run cache keys runs and
//! checks by (`judge::cache`). A file is its SHA-256; a directory every
//! file under it (name, whether executable, bytes; a symbolic link by its
//! target); anything unreadable has no identity, and what has none is
//! never cached. Digests of the same file (same device, inode, size,
//! modification and change time) are remembered for the process, so the
//! inputs of a `judge verify` are read once for all its submissions.

use sha2::{Digest as _, Sha256};

/// This judge's build: its version and a digest of the sources it was
/// built from (`build.rs`). Cached runs, checks and generated data are
/// keyed by it, so a judge built from other sources never reuses what an
/// older build measured or made.
pub const JUDGE_BUILD: &str = env!("JUDGE_BUILD_ID");

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;

/// A digest built from named fields: each field's name and length go in
/// before its bytes, so no two different field lists hash alike.
pub struct Fields(Sha256);

impl Default for Fields {
    fn default() -> Self {
        Fields::new()
    }
}

impl Fields {
    pub fn new() -> Fields {
        Fields(Sha256::new())
    }

    pub fn field(&mut self, name: &str, bytes: &[u8]) -> &mut Fields {
        self.0.update((name.len() as u64).to_le_bytes());
        self.0.update(name.as_bytes());
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn hex(self) -> String {
        hex(&self.0.finalize())
    }

    /// The digest's 32 bytes.
    pub fn bytes(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

/// Bytes in lower-case hex (the one helper, in `text::format`).
pub use crate::text::format::hex;

/// The SHA-256 of bytes, in hex.
pub fn bytes_digest(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// [`bytes_digest`] of a streamed text.
pub fn text_digest(text: crate::text::stream::Text<'_>) -> String {
    let mut hasher = Sha256::new();
    let mut stream = text.stream();
    loop {
        let chunk = stream.chunk();
        if chunk.is_empty() {
            break;
        }
        hasher.update(chunk);
        let n = chunk.len();
        stream.consume(n);
    }
    hex(&hasher.finalize())
}

/// A file up to this long is read whole to be hashed.
const SMALL: u64 = 64 << 10;

/// A file's stamp: when any part changes, its digest is read again.
type Stamp = (u64, u64, u64, i64, i64, i64, i64);

static MEMO: Mutex<Option<HashMap<Stamp, String>>> = Mutex::new(None);

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    (
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    )
}

/// The digest of a regular file's bytes (following a symbolic link, as
/// running it does), remembered by its stamp.
pub fn file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let key = stamp(&meta);
    if let Some(known) = MEMO
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return Some(known.clone());
    }
    // A small file (a case's input, most often) read whole: no buffer
    // to allocate and clear for each.
    let digest = if meta.len() <= SMALL {
        bytes_digest(&std::fs::read(path).ok()?)
    } else {
        super::cache_dir::file_digest(path)?
    };
    // A file changed while it was read has a new stamp: not remembered.
    let after = std::fs::metadata(path).ok()?;
    if stamp(&after) == key {
        MEMO.lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HashMap::new)
            .insert(key, digest.clone());
    }
    Some(digest)
}

/// The digest of a file or of a whole directory (see the module doc).
pub fn content(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        return file(path).map(|d| format!("file:{d}"));
    }
    if !meta.is_dir() {
        return None;
    }
    let mut all = Fields::new();
    for entry in walkdir::WalkDir::new(path)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.ok()?;
        let rel = entry.path().strip_prefix(path).ok()?;
        let name = rel.as_os_str().as_encoded_bytes();
        let kind = entry.file_type();
        if kind.is_dir() {
            all.field("dir", name);
        } else if kind.is_symlink() {
            let target = std::fs::read_link(entry.path()).ok()?;
            all.field("link", name)
                .field("to", target.as_os_str().as_encoded_bytes());
        } else if kind.is_file() {
            let executable = entry.metadata().ok()?.mode() & 0o111 != 0;
            all.field("file", name)
                .field("x", &[u8::from(executable)])
                .field("bytes", file(entry.path())?.as_bytes());
        } else {
            return None;
        }
    }
    Some(format!("dir:{}", all.hex()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_changes_with_any_file_in_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/x"), "1").unwrap();
        let before = content(dir.path()).unwrap();
        assert_eq!(content(dir.path()).unwrap(), before);
        std::fs::write(dir.path().join("a/x"), "2").unwrap();
        assert_ne!(content(dir.path()).unwrap(), before);
        assert!(content(&dir.path().join("missing")).is_none());
    }

    #[test]
    fn fields_are_length_prefixed() {
        let mut one = Fields::new();
        one.field("a", b"bc");
        let mut two = Fields::new();
        two.field("ab", b"c");
        assert_ne!(one.hex(), two.hex());
    }
}
