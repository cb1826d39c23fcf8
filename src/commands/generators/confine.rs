//! Generation reads and writes only inside the package. generators.yaml
//! and the data directory are the package author's, so not trusted to
//! stay in it: a `data/` that is a symbolic link to elsewhere, a group
//! directory inside it that is one, a `copy:` whose files are links out of
//! the package, or a manifest naming `../../file` for `--clean` to remove.
//! The lexical rules (no absolute path, no `..` above the root) are
//! checked when generators.yaml is read (`config::generators`); here every
//! path is checked again as the file system resolves it, at the moment it
//! is used: the directory it is in, canonicalised, must be under the
//! package's canonical root, and the last component is never followed
//! (`O_NOFOLLOW`).

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

/// Where a path resolves, from the package's root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Inside,
    Above,
    Outside,
}

/// The package's root as the file system resolves it.
#[derive(Clone, Debug)]
pub(super) struct Confine {
    root: PathBuf,
}

impl Confine {
    /// `root`, canonicalised (it must exist).
    pub(super) fn new(root: &Path) -> Result<Confine, String> {
        let root = std::fs::canonicalize(root)
            .map_err(|e| format!("{}: {e}", crate::text::whitespace::shown_path(root)))?;
        Ok(Confine { root })
    }

    /// Where the existing `path` resolves (symbolic links followed): under
    /// the root (or the root itself), above it (a directory that holds the
    /// package), or elsewhere.
    fn place(&self, path: &Path) -> Result<Place, String> {
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        let real = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", shown(path)))?;
        Ok(if real.starts_with(&self.root) {
            Place::Inside
        } else if self.root.starts_with(&real) {
            Place::Above
        } else {
            Place::Outside
        })
    }

    fn outside(&self, path: &Path) -> String {
        format!(
            "{}: leads outside the package ({}): judge gen reads and writes only inside it",
            shown(path),
            shown(&self.root)
        )
    }

    /// Refuse `path` (an existing file or directory) when it resolves
    /// outside the package.
    pub(super) fn check(&self, path: &Path) -> Result<(), String> {
        match self.place(path)? {
            Place::Inside => Ok(()),
            _ => Err(self.outside(path)),
        }
    }

    /// Make `dir` and the directories on the way to it, each checked as it
    /// is found or made: one is made only inside the package, and a
    /// symbolic link on the way that leads out (a `data/` linked to
    /// elsewhere) is refused before anything is written through it. `dir`
    /// itself must end inside the package.
    pub(super) fn make_dirs(&self, dir: &Path) -> Result<(), String> {
        let mut at = PathBuf::new();
        for part in dir.components() {
            let parent = at.clone();
            at.push(part);
            if !matches!(part, Component::Normal(_) | Component::ParentDir) {
                continue;
            }
            match std::fs::symlink_metadata(&at) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if self.place(&parent)? != Place::Inside {
                        return Err(self.outside(&at));
                    }
                    match std::fs::create_dir(&at) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(format!("{}: {e}", shown(&at))),
                    }
                }
                Err(e) => return Err(format!("{}: {e}", shown(&at))),
            }
            if self.place(&at)? == Place::Outside {
                return Err(self.outside(&at));
            }
        }
        self.check(dir)
    }

    /// The bytes of the file at `path` in the package: its directory must
    /// resolve inside it, a symbolic link must lead inside it, and what is
    /// opened (`O_NOFOLLOW`) must be a regular file, not a FIFO or a device.
    pub(super) fn read(&self, path: &Path) -> Result<Vec<u8>, String> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        self.check(dir)?;
        // A link is read where it leads only when that is inside too.
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let target = if is_link {
            self.check(path)?;
            std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", shown(path)))?
        } else {
            path.to_path_buf()
        };
        read_no_follow(&target).map_err(|e| format!("{}: {e}", shown(path)))
    }
}

/// A regular file's bytes, its last component never followed.
pub(super) fn read_no_follow(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
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
        assert!(err.contains("leads outside the package"), "{err}");
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
        assert!(err.contains("leads outside the package"), "{err}");
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
