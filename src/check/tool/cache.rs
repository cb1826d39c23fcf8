//! The tools' build cache (`tools/` in the judge's checked cache
//! directory): each build's key, a directory to build in, and the
//! finished build renamed into place, for the C-like builds (`build.rs`)
//! and the JVM ones (`jvm.rs`) alike.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The tools cache (`tools/` in the judge's checked cache directory).
pub(super) fn cache_root() -> PathBuf {
    crate::exec::cache_dir::checked(&crate::exec::cache_dir()).join("tools")
}

/// A fresh directory for a build's result: in the tools cache, to be
/// renamed into place when complete ([`keep_built`]), or, when the cache
/// cannot be written, a temporary directory of its own. The error is the
/// temporary directory's ([`no_build_dir`] words it).
pub(super) fn staging_dir(cache: &Path) -> std::io::Result<tempfile::TempDir> {
    std::fs::create_dir_all(cache)
        .and_then(|()| tempfile::Builder::new().prefix(".build-").tempdir_in(cache))
        .or_else(|_| tempfile::Builder::new().prefix("judge-tool-").tempdir())
}

/// A complete build (`dir`, from [`staging_dir`]) into the cache as entry
/// `key`, complete or not at all; `marker` is a file every complete entry
/// has. Returns where the build now is and what must live as long as
/// the tool: when the rename fails (another judge was first, or no
/// cache), this run keeps its own copy.
pub(super) fn keep_built(
    dir: tempfile::TempDir,
    cache: &Path,
    key: &str,
    marker: &str,
) -> (PathBuf, Option<Arc<tempfile::TempDir>>) {
    let target = cache.join(key);
    if dir.path().starts_with(cache) && crate::exec::cache_dir::seal_entry(dir.path()).is_ok() {
        let built = dir.keep();
        if std::fs::rename(&built, &target).is_ok() || target.join(marker).is_file() {
            let _ = std::fs::remove_dir_all(&built);
            return (target, None);
        }
        return (built, None);
    }
    (dir.path().to_path_buf(), Some(Arc::new(dir)))
}

/// The cache key of a tool build: the compiler, the standard, each source
/// and every header in the include directories (names and bytes).
pub(super) fn tool_key(
    compiler: &Path,
    std: &str,
    sources: &[PathBuf],
    includes: &[PathBuf],
) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(compiler.as_os_str().as_encoded_bytes());
    part(std.as_bytes());
    for source in sources {
        part(source.as_os_str().as_encoded_bytes());
        part(&std::fs::read(source).unwrap_or_default());
    }
    for dir in includes {
        let mut headers: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| matches!(e, "h" | "hpp" | "hh" | "hxx" | "inc" | "pas" | "pp"))
            })
            .collect();
        headers.sort();
        for header in headers {
            part(header.as_os_str().as_encoded_bytes());
            part(&std::fs::read(&header).unwrap_or_default());
        }
    }
    let digest = hash.finalize();
    crate::exec::identity::hex(&digest[..16])
}

/// A build directory's failure as a build's reason.
pub(super) fn no_build_dir(e: std::io::Error) -> String {
    format!("cannot create a build directory: {e}")
}
