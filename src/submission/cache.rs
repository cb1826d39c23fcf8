//! The build cache: one directory per build, named by a content hash, under
//! `$JUDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/judge`, else
//! `~/.cache/judge` (`compile/<key>/`).
//!
//! An entry holds the source copy, what the compiler wrote, and
//! `judge-build.json` (the language, the commands, the interpreter's path).
//! It is built in a `.build-*` directory beside the entries and renamed
//! into place, so an entry is complete or absent; when two judges build the
//! same source at once, the second rename fails and its copy is dropped.
//! Nothing is ever evicted: delete the directory to reclaim the space.
//! Each entry records the SHA-256 of each of its files when it is made,
//! checked on every look-up: an entry that was changed is removed and
//! built again. The cache directory itself is checked first (the judge's
//! user's own, closed to others: `exec::cache_dir`).

use super::Language;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The file that marks a complete entry.
const META: &str = "judge-build.json";

/// The cache's root directory (see the module doc); checkers and
/// validators are cached beside submissions (`tools/<key>/`).
pub use crate::exec::cache_dir as default_dir;

/// The key of a build: everything that changes what the compiler makes
/// (the language's commands, the main file's name, every file's name and
/// bytes).
pub fn key(language: &Language, main: &str, files: &[(String, Vec<u8>)]) -> String {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    for text in [
        language.name.as_str(),
        language.compile.as_deref().unwrap_or(""),
        language.interpreter.as_deref().unwrap_or(""),
        main,
    ] {
        part(text.as_bytes());
    }
    for (name, bytes) in files {
        part(name.as_bytes());
        part(bytes);
    }
    let digest = hash.finalize();
    crate::exec::identity::hex(&digest[..16])
}

/// A complete cache entry.
#[derive(Clone, Debug)]
pub struct Entry {
    pub dir: PathBuf,
    /// The source's file name inside `dir`.
    pub source_name: String,
    pub interpreter: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct Meta {
    language: String,
    source: String,
    compile: Option<String>,
    interpreter: Option<PathBuf>,
}

/// Why a build could not be kept in the cache (the judge's failure).
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot create the build cache {}: {source}", root.display())]
    CreateRoot {
        root: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create a build directory in {}: {source}", root.display())]
    Stage {
        root: PathBuf,
        source: std::io::Error,
    },
    #[error("the build cache: {0}")]
    Walk(#[source] walkdir::Error),
    #[error("{}: {source}", path.display())]
    Mode {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Meta(#[source] serde_json::Error),
    #[error("cannot write into the build cache: {0}")]
    WriteMeta(#[source] std::io::Error),
    #[error(transparent)]
    Seal(#[from] crate::exec::cache_dir::SealError),
    #[error("cannot move a build into the cache {}: {source}", target.display())]
    Move {
        target: PathBuf,
        source: std::io::Error,
    },
    #[error("the build cache entry {} vanished", .0.display())]
    Vanished(PathBuf),
}

pub struct Cache {
    root: PathBuf,
}

impl Cache {
    pub fn new(dir: &Path) -> Cache {
        Cache {
            root: dir.join("compile"),
        }
    }

    /// The entry of `key`, if it is complete, as it was built (every
    /// file's digest as recorded: an altered entry is removed and built
    /// again) and its interpreter still exists.
    pub fn lookup(&self, key: &str) -> Option<Entry> {
        let dir = self.root.join(key);
        if !dir.join(META).is_file() || !crate::exec::cache_dir::entry_intact(&dir) {
            return None;
        }
        let meta: Meta = serde_json::from_slice(&std::fs::read(dir.join(META)).ok()?).ok()?;
        if meta.interpreter.as_ref().is_some_and(|i| !i.exists()) {
            return None;
        }
        Some(Entry {
            dir,
            source_name: meta.source,
            interpreter: meta.interpreter,
        })
    }

    /// A fresh directory to build in, beside the entries.
    pub fn stage(&self) -> Result<tempfile::TempDir, CacheError> {
        std::fs::create_dir_all(&self.root).map_err(|source| CacheError::CreateRoot {
            root: self.root.clone(),
            source,
        })?;
        tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(&self.root)
            .map_err(|source| CacheError::Stage {
                root: self.root.clone(),
                source,
            })
    }

    /// Mark a finished build complete and move it into place.
    pub fn commit(
        &self,
        staging: tempfile::TempDir,
        key: &str,
        source_name: &str,
        interpreter: Option<&Path>,
        language: &Language,
    ) -> Result<Entry, CacheError> {
        let meta = Meta {
            language: language.name.clone(),
            source: source_name.to_string(),
            compile: language.compile.clone(),
            interpreter: interpreter.map(Path::to_path_buf),
        };
        // What the compiler wrote under its umask (a JVM's class files)
        // must be readable by the sandbox's users.
        open_to_all(staging.path())?;
        let bytes = serde_json::to_vec_pretty(&meta).map_err(CacheError::Meta)?;
        std::fs::write(staging.path().join(META), bytes).map_err(CacheError::WriteMeta)?;
        crate::exec::cache_dir::seal_entry(staging.path())?;
        let target = self.root.join(key);
        let built = staging.keep();
        match std::fs::rename(&built, &target) {
            Ok(()) => {}
            Err(source) => {
                let _ = std::fs::remove_dir_all(&built);
                if self.lookup(key).is_none() {
                    return Err(CacheError::Move { target, source });
                }
            }
        }
        self.lookup(key).ok_or(CacheError::Vanished(target))
    }
}

/// Directories 0755, files 0644 (0755 when executable).
fn open_to_all(dir: &Path) -> Result<(), CacheError> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(CacheError::Walk)?;
        let Ok(meta) = entry.metadata() else { continue };
        let mode = if meta.is_dir() || meta.permissions().mode() & 0o111 != 0 {
            0o755
        } else if meta.is_file() {
            0o644
        } else {
            continue;
        };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).map_err(
            |source| CacheError::Mode {
                path: entry.path().to_path_buf(),
                source,
            },
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_depends_on_source_name_and_commands() {
        let c = &crate::submission::builtin_languages()[0];
        let one = |name: &str, text: &[u8]| vec![(name.to_string(), text.to_vec())];
        let base = key(c, "a.c", &one("a.c", b"int main(){}"));
        assert_eq!(base.len(), 32);
        assert_eq!(base, key(c, "a.c", &one("a.c", b"int main(){}")));
        assert_ne!(base, key(c, "a.c", &one("a.c", b"int main(){ }")));
        assert_ne!(base, key(c, "b.c", &one("b.c", b"int main(){}")));
        let mut other = c.clone();
        other.compile = Some("gcc -O0 -o {bin} {src}".into());
        assert_ne!(base, key(&other, "a.c", &one("a.c", b"int main(){}")));
        let mut two = one("a.c", b"int main(){}");
        two.push(("b.h".into(), b"#define X".to_vec()));
        assert_ne!(
            base,
            key(c, "a.c", &two),
            "an include file is part of the build"
        );
    }

    #[test]
    fn a_second_commit_of_the_same_key_keeps_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let c = &crate::submission::builtin_languages()[0];
        assert!(cache.lookup("k").is_none());
        let first = cache.stage().unwrap();
        std::fs::write(first.path().join("a.c"), "1").unwrap();
        let entry = cache.commit(first, "k", "a.c", None, c).unwrap();
        assert_eq!(std::fs::read_to_string(entry.dir.join("a.c")).unwrap(), "1");
        let second = cache.stage().unwrap();
        std::fs::write(second.path().join("a.c"), "2").unwrap();
        let again = cache.commit(second, "k", "a.c", None, c).unwrap();
        assert_eq!(again.dir, entry.dir);
        assert_eq!(std::fs::read_to_string(again.dir.join("a.c")).unwrap(), "1");
        // No staging directory is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path().join("compile"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["k"]);
    }

    #[test]
    fn an_entry_changed_after_it_was_built_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let c = &crate::submission::builtin_languages()[0];
        let stage = cache.stage().unwrap();
        std::fs::write(stage.path().join("a.c"), "1").unwrap();
        std::fs::write(stage.path().join("a.out"), "binary").unwrap();
        let entry = cache.commit(stage, "k", "a.c", None, c).unwrap();
        assert!(cache.lookup("k").is_some());
        std::fs::write(entry.dir.join("a.out"), "swapped").unwrap();
        assert!(
            cache.lookup("k").is_none(),
            "a swapped artifact is not used"
        );
        assert!(
            !entry.dir.exists(),
            "and its entry is gone, to be built again"
        );
    }
}
