//! Generation reads and writes only inside the package. generators.yaml
//! and the data directory are the package author's, so not trusted to
//! stay in it: a `data/` that is a symbolic link to elsewhere, a group
//! directory inside it that is one, a `copy:` whose files are links out of
//! the package, or a manifest naming `../../file` for `--clean` to remove.
//! The lexical rules (no absolute path, no `..` above the root) are
//! checked when generators.yaml is read (`crate::formats::generators`); here every
//! path is resolved again by the kernel, beneath the package's root, at
//! the moment it is used ([`crate::exec::beneath`]), and every write is
//! atomic and never through a link.

use crate::exec::beneath::{Beneath, BeneathError};
use std::path::{Component, Path, PathBuf};

/// The largest package file judge gen reads (a `copy:` source, a case it
/// compares): a file past it is an error naming it, not a judge that
/// grows until the machine ends it.
pub(super) const FILE_CAP: u64 = 1 << 30;

/// Why a read or write of generation was refused or failed.
#[derive(Debug, thiserror::Error)]
pub(super) enum ConfineError {
    /// `path` resolves outside the package at `root`.
    #[error(
        "{}: leads outside the package ({}): judge gen reads and writes only inside it",
        shown(path),
        shown(root)
    )]
    Outside { path: PathBuf, root: PathBuf },
    /// A package file past [`FILE_CAP`].
    #[error(
        "{}: larger than {} MiB, the most judge gen reads of one file",
        shown(path),
        FILE_CAP >> 20
    )]
    TooLarge { path: PathBuf },
    /// Any other failure beneath the root (the path, the system's error).
    #[error(transparent)]
    Beneath(#[from] BeneathError),
}

/// The package's root, every path resolved beneath it
/// ([`crate::exec::beneath`]).
#[derive(Debug)]
pub(super) struct Confine {
    beneath: Beneath,
}

impl Confine {
    /// `root` (it must exist).
    pub(super) fn new(root: &Path) -> Result<Confine, ConfineError> {
        let beneath = Beneath::new(root)?;
        Ok(Confine { beneath })
    }

    /// The error of a path that leaves the package, in gen's words.
    fn said(&self, path: &Path, e: BeneathError) -> ConfineError {
        match e {
            BeneathError::Outside { .. } | BeneathError::Lexical { .. } => ConfineError::Outside {
                path: path.to_path_buf(),
                root: self.beneath.root().to_path_buf(),
            },
            other => ConfineError::Beneath(other),
        }
    }

    /// Refuse `path` (an existing file or directory) when it resolves
    /// outside the package.
    pub(super) fn check(&self, path: &Path) -> Result<(), ConfineError> {
        let rel = self
            .beneath
            .relative(path)
            .map_err(|e| self.said(path, e))?;
        self.beneath.exists(&rel).map_err(|e| self.said(path, e))
    }

    /// Make `dir` and the directories on the way to it, each beneath the
    /// package's root: a symbolic link on the way that leads out (a
    /// `data/` linked to elsewhere) is refused before anything is written
    /// through it.
    pub(super) fn make_dirs(&self, dir: &Path) -> Result<(), ConfineError> {
        self.beneath.make_dirs(dir).map_err(|e| self.said(dir, e))
    }

    /// The bytes of the regular file at `path` in the package (at most
    /// [`FILE_CAP`]).
    pub(super) fn read(&self, path: &Path) -> Result<Vec<u8>, ConfineError> {
        let read = self
            .beneath
            .read(path, FILE_CAP)
            .map_err(|e| self.said(path, e))?;
        if read.cut {
            return Err(ConfineError::TooLarge {
                path: path.to_path_buf(),
            });
        }
        Ok(read.bytes)
    }

    /// Write `bytes` at `path` atomically, never through a link (mode
    /// 0644; synced later, by one `syncfs`).
    pub(super) fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), ConfineError> {
        self.beneath
            .write(path, bytes, 0o644, false)
            .map_err(|e| self.said(path, e))
    }
}

/// A regular file's bytes (at most [`FILE_CAP`]), its last component
/// never followed, never blocking on a FIFO.
pub(super) fn read_no_follow(path: &Path) -> std::io::Result<Vec<u8>> {
    use crate::exec::bounded_read::{Links, read_whole};
    read_whole(path, FILE_CAP, Links::Refuse)
}

/// A manifest's path under the data directory: relative, with no `..`,
/// `.` or root in it (a manifest is a file of the package, so a name in it
/// is refused rather than resolved).
pub(super) fn plain_relative(rel: &str) -> bool {
    let path = Path::new(rel);
    !rel.is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
}

fn shown(path: &Path) -> String {
    crate::text::whitespace::shown_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_out_of_the_root_is_refused_and_nothing_made_through_it() {
        let outside = tempfile::tempdir().expect("a directory");
        let package = tempfile::tempdir().expect("a directory");
        std::os::unix::fs::symlink(outside.path(), package.path().join("data")).expect("a link");
        let confine = Confine::new(package.path()).expect("the root");
        let err = confine
            .make_dirs(&package.path().join("data/secret"))
            .expect_err("refused");
        assert!(matches!(err, ConfineError::Outside { .. }), "{err}");
        assert!(
            err.to_string().contains("leads outside the package"),
            "{err}"
        );
        assert!(!outside.path().join("secret").exists());
        // A link that stays inside the package is followed.
        std::fs::create_dir(package.path().join("real")).expect("a directory");
        std::os::unix::fs::symlink("real", package.path().join("inner")).expect("a link");
        confine
            .make_dirs(&package.path().join("inner/secret"))
            .expect("inside");
        assert!(package.path().join("real/secret").is_dir());
    }

    #[test]
    fn reads_refuse_links_fifos_and_directories_outside() {
        let outside = tempfile::tempdir().expect("a directory");
        let package = tempfile::tempdir().expect("a directory");
        std::fs::write(outside.path().join("x.in"), b"secret").expect("a file");
        std::os::unix::fs::symlink(outside.path().join("x.in"), package.path().join("a.in"))
            .expect("a link");
        std::os::unix::fs::symlink(outside.path(), package.path().join("out")).expect("a link");
        std::fs::write(package.path().join("b.in"), b"mine").expect("a file");
        let confine = Confine::new(package.path()).expect("the root");
        let err = confine
            .read(&package.path().join("a.in"))
            .expect_err("refused");
        assert!(
            err.to_string().contains("leads outside the package"),
            "{err}"
        );
        assert!(confine.read(&package.path().join("out/x.in")).is_err());
        assert_eq!(
            confine.read(&package.path().join("b.in")).expect("read"),
            b"mine"
        );
        assert!(plain_relative("secret/1.in"));
        for bad in ["../x", "/etc/passwd", "a/../../b", "", "./a"] {
            assert!(!plain_relative(bad), "{bad}");
        }
    }
}
