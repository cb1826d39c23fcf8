//! The cache's directory (builds, and the run cache's `runs/`), and
//! whether it can be trusted.
//!
//! Programs in the cache are run (a checker as the judge, a submission's
//! build in the sandbox), so the cache must be the judge's user's alone:
//! a directory another user made first (`/tmp/judge-cache` before the
//! judge ran) or may write would let them swap a checker that a root
//! judge then runs as root. Before it is used, the directory is made when
//! missing (mode 0700) and checked as ssh checks its files: it must be
//! the judge's user's own, written by no one else, and every directory
//! above it must belong to root or the judge's user and be writable by no
//! one else, or be sticky (`/tmp`) with the next one down the judge's user's
//! or root's. The last step is an `O_NOFOLLOW | O_DIRECTORY` open and
//! `fstat`, so a symbolic link planted there is refused. A cache that
//! fails is named on stderr once, and the judge builds in a fresh private
//! cache of its own instead (removed at exit, see [`remove_private`]).

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where built programs are kept across runs: `$JUDGE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/judge`, else `~/.cache/judge`, else the temporary
/// directory's `judge-cache-UID`. Submissions' builds go in `compile/`,
/// checkers' and validators' in `tools/`. Use it through [`checked`].
pub fn cache_dir() -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = env("JUDGE_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = env("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("judge");
    }
    if let Some(home) = env("HOME") {
        return PathBuf::from(home).join(".cache").join("judge");
    }
    std::env::temp_dir().join(format!(
        "judge-cache-{}",
        rustix::process::geteuid().as_raw()
    ))
}

/// Caches checked already (the one to use for each asked for), and the
/// private ones made instead of a refused one.
static CHECKED: Mutex<Option<HashMap<PathBuf, PathBuf>>> = Mutex::new(None);
static PRIVATE: Mutex<Vec<tempfile::TempDir>> = Mutex::new(Vec::new());

/// The cache directory to use for `dir`: `dir` itself when it is safe
/// (made if missing), else a fresh private one, with a line on stderr
/// naming `dir` and why it was refused.
pub fn checked(dir: &Path) -> PathBuf {
    let mut map = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
    let map = map.get_or_insert_with(HashMap::new);
    if let Some(use_dir) = map.get(dir) {
        return use_dir.clone();
    }
    let use_dir = match check(dir) {
        Ok(real) => real,
        Err(why) => {
            let private = tempfile::Builder::new()
                .prefix("judge-cache-private-")
                .tempdir();
            match private {
                Ok(private) => {
                    eprintln!(
                        "judge: the cache directory {} (builds and runs) is not used: {why}; a private one is used for this run",
                        dir.display()
                    );
                    let path = private.path().to_path_buf();
                    PRIVATE
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(private);
                    path
                }
                Err(e) => {
                    eprintln!(
                        "judge: the cache directory {} (builds and runs) is not used: {why}; and no private one can be made ({e})",
                        dir.display()
                    );
                    // A path that cannot be created: every build fails
                    // with a named error rather than using the refused one.
                    dir.join("refused\0")
                }
            }
        }
    };
    map.insert(dir.to_path_buf(), use_dir.clone());
    use_dir
}

/// Remove the private caches made in this run.
pub fn remove_private() {
    PRIVATE.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// Why a cache directory is not trusted (each message says what of it,
/// or of a directory above it, is wrong).
#[derive(Debug, thiserror::Error)]
pub enum CacheDirError {
    /// Its absolute or real path could not be found.
    #[error("{0}")]
    Path(#[source] std::io::Error),
    #[error("cannot create it: {0}")]
    Create(#[source] std::io::Error),
    #[error("{}: {source}", above.display())]
    Above {
        above: PathBuf,
        source: std::io::Error,
    },
    #[error("{} above it belongs to uid {uid}, who could replace it", above.display())]
    AboveOwner { above: PathBuf, uid: u32 },
    #[error(
        "{} above it is writable by others (mode {mode:o}), who could replace it",
        above.display()
    )]
    AboveWritable { above: PathBuf, mode: u32 },
    #[error("cannot open it as a directory: {0}")]
    Open(#[source] rustix::io::Errno),
    #[error("{0}")]
    Stat(#[source] rustix::io::Errno),
    #[error("it belongs to uid {uid}, not to the judge's user (uid {me})")]
    Owner { uid: u32, me: u32 },
    #[error("it is writable by others (mode {mode:o})")]
    Writable { mode: u32 },
}

/// Why a cache entry's digests were not recorded.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("{}: cannot read the build", .0.display())]
    Unreadable(PathBuf),
    #[error("{}: {source}", dir.display())]
    Write {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// Make `dir` if missing (0700) and check it: see the module's rules.
/// Returns its real path.
pub fn check(dir: &Path) -> Result<PathBuf, CacheDirError> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::path::absolute(dir).map_err(CacheDirError::Path)?;
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .map_err(CacheDirError::Create)?;
    }
    let real = std::fs::canonicalize(&dir).map_err(CacheDirError::Path)?;
    let me = rustix::process::geteuid().as_raw();
    let mine_or_root = |uid: u32| uid == me || uid == 0;
    let ancestors: Vec<&Path> = real.ancestors().skip(1).collect();
    // From `/` down: each directory root's or mine, and closed to others'
    // writes unless sticky with the next one down root's or mine.
    for (i, above) in ancestors.iter().enumerate().rev() {
        let meta = std::fs::symlink_metadata(above).map_err(|source| CacheDirError::Above {
            above: above.to_path_buf(),
            source,
        })?;
        if !meta.is_dir() || !mine_or_root(meta.uid()) {
            return Err(CacheDirError::AboveOwner {
                above: above.to_path_buf(),
                uid: meta.uid(),
            });
        }
        if meta.mode() & 0o022 != 0 {
            let next = if i == 0 {
                real.as_path()
            } else {
                ancestors[i - 1]
            };
            let next_owner = std::fs::symlink_metadata(next)
                .map(|m| m.uid())
                .unwrap_or(u32::MAX);
            if meta.mode() & 0o1000 == 0 || !mine_or_root(next_owner) {
                return Err(CacheDirError::AboveWritable {
                    above: above.to_path_buf(),
                    mode: meta.mode() & 0o7777,
                });
            }
        }
    }
    let fd = rustix::fs::open(
        &real,
        rustix::fs::OFlags::RDONLY
            | rustix::fs::OFlags::DIRECTORY
            | rustix::fs::OFlags::NOFOLLOW
            | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map_err(CacheDirError::Open)?;
    let stat = rustix::fs::fstat(&fd).map_err(CacheDirError::Stat)?;
    if stat.st_uid != me {
        return Err(CacheDirError::Owner {
            uid: stat.st_uid,
            me,
        });
    }
    if stat.st_mode & 0o022 != 0 {
        return Err(CacheDirError::Writable {
            mode: stat.st_mode & 0o7777,
        });
    }
    Ok(real)
}

/// The SHA-256 of a file's bytes, in hex.
pub fn file_digest(path: &Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => hash.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(crate::text::format::hex(&hash.finalize()))
}

/// The file of a cache entry that lists its files' digests.
pub const DIGESTS: &str = "judge-digests";

/// Every regular file of an entry (but the digest list), by path relative
/// to it, with its digest; `None` when one cannot be read, or the entry
/// holds something else than files and directories.
fn digests(dir: &Path) -> Option<Vec<(String, String)>> {
    let mut all = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.ok()?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).ok()?.to_str()?.to_string();
        if rel == DIGESTS {
            continue;
        }
        if !kind.is_file() || rel.contains('\n') {
            return None;
        }
        all.push((rel, file_digest(entry.path())?));
    }
    Some(all)
}

/// Record the digest of every file of a finished cache entry.
pub fn seal_entry(dir: &Path) -> Result<(), SealError> {
    let all = digests(dir).ok_or_else(|| SealError::Unreadable(dir.to_path_buf()))?;
    let text: String = all
        .iter()
        .map(|(rel, hex)| format!("{hex} {rel}\n"))
        .collect();
    std::fs::write(dir.join(DIGESTS), text).map_err(|source| SealError::Write {
        dir: dir.to_path_buf(),
        source,
    })
}

/// Whether a cache entry is as it was sealed: the same files, each with
/// its recorded digest. An entry that is not is removed (so it is built
/// again), and said on stderr.
pub fn entry_intact(dir: &Path) -> bool {
    let recorded = std::fs::read_to_string(dir.join(DIGESTS)).ok();
    let now = digests(dir).map(|all| {
        all.iter()
            .map(|(rel, hex)| format!("{hex} {rel}\n"))
            .collect::<String>()
    });
    if recorded.is_some() && recorded == now {
        return true;
    }
    // An entry with no record is an older judge's: built again, silently.
    if recorded.is_none() {
        let _ = std::fs::remove_dir_all(dir);
        return false;
    }
    if dir.exists() {
        eprintln!(
            "judge: the build cache entry {} was changed since it was built: removed, built again",
            dir.display()
        );
        let _ = std::fs::remove_dir_all(dir);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_fresh_cache_is_made_private_and_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("a/b/judge");
        let real = check(&cache).unwrap();
        assert_eq!(real, std::fs::canonicalize(&cache).unwrap());
        let mode = std::fs::metadata(&cache).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[test]
    fn a_cache_others_may_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("judge");
        std::fs::create_dir(&cache).unwrap();
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = check(&cache).unwrap_err();
        assert!(err.to_string().contains("writable by others"), "{err}");
        // So is one under a directory others may write (not sticky).
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = check(&cache).unwrap_err();
        assert!(
            err.to_string().contains("above it is writable by others"),
            "{err}"
        );
        // Sticky, with the cache mine: accepted (as under /tmp).
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert!(check(&cache).is_ok());
    }

    #[test]
    fn a_symbolic_link_is_followed_to_its_real_place_and_checked_there() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o777)).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(check(&link).is_err());
    }

    #[test]
    fn another_users_cache_is_refused_as_root() {
        if rustix::process::geteuid().as_raw() != 0 {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("judge");
        std::fs::create_dir(&cache).unwrap();
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::chown(&cache, Some(65534), Some(65534)).unwrap();
        let err = check(&cache).unwrap_err();
        assert!(err.to_string().contains("belongs to uid 65534"), "{err}");
    }

    #[test]
    fn an_altered_entry_is_not_intact_and_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("k");
        std::fs::create_dir_all(entry.join("sub")).unwrap();
        std::fs::write(entry.join("program"), "1").unwrap();
        std::fs::write(entry.join("sub/x"), "2").unwrap();
        seal_entry(&entry).unwrap();
        assert!(entry_intact(&entry));
        std::fs::write(entry.join("program"), "3").unwrap();
        assert!(!entry_intact(&entry));
        assert!(!entry.exists(), "an altered entry is removed");
        // An added file is a change too.
        std::fs::create_dir_all(&entry).unwrap();
        std::fs::write(entry.join("program"), "1").unwrap();
        seal_entry(&entry).unwrap();
        std::fs::write(entry.join("extra"), "x").unwrap();
        assert!(!entry_intact(&entry));
    }
}
