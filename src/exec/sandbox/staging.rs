//! Where an untrusted program finds its own files, and where the judge
//! keeps what no program may see, inside the scratch directory:
//! - `programs/`: copies of programs (and the files their commands name)
//!   that lie where the sandbox hides (a package, a judge.toml project,
//!   the build cache, HOME) or, under root isolation, where the slots'
//!   users cannot reach. Each copy is in a directory with a random name;
//!   `programs/` itself can be entered but not listed (0711 as root; 0311
//!   without root, where programs run as the judge's user, and the slot's
//!   namespace mounts it read-only, so they cannot give themselves the
//!   right back): a program cannot find another program's copy.
//! - `private/`: the judge's own runs' files (a validator's feedback
//!   directory, a checker's directory), 0700 and covered by an empty
//!   tmpfs in every slot's namespace.

use super::{CopyError, Isolation, Sandbox, copy_tree};
use crate::exec::ProgramError;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const PROGRAMS: &str = "programs";
const PRIVATE: &str = "private";

/// Make `programs/` and `private/` in a fresh scratch directory.
pub(super) fn make_dirs(scratch: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let mut builder = std::fs::DirBuilder::new();
    builder.mode(0o700).create(scratch.join(PRIVATE))?;
    builder.mode(0o711).create(scratch.join(PROGRAMS))?;
    std::fs::set_permissions(
        scratch.join(PROGRAMS),
        std::fs::Permissions::from_mode(0o711),
    )
}

/// The places the slot's namespace treats apart: (private, programs).
pub(super) fn places(scratch: &Path) -> (PathBuf, PathBuf) {
    (scratch.join(PRIVATE), scratch.join(PROGRAMS))
}

/// Close `programs/` to listing by its owner too when programs run as the
/// judge's user (the namespace keeps them from changing it back).
pub(super) fn seal(scratch: &Path, isolation: Isolation) {
    if isolation == Isolation::UserNamespace {
        let _ = std::fs::set_permissions(
            scratch.join(PROGRAMS),
            std::fs::Permissions::from_mode(0o311),
        );
    }
}

/// Give the owner its right to list `programs/` back, so the scratch
/// directory can be removed.
pub(crate) fn unseal(scratch: &Path) {
    let programs = scratch.join(PROGRAMS);
    if std::fs::symlink_metadata(&programs).is_ok_and(|m| m.is_dir()) {
        let _ = std::fs::set_permissions(&programs, std::fs::Permissions::from_mode(0o700));
    }
}

impl Sandbox {
    /// The hidden place `path` lies in, if a program in the slot's
    /// namespace cannot see it (the scratch directory always shows).
    pub fn hidden_by(&self, path: &Path) -> Option<PathBuf> {
        self.ns_plan.as_ref()?;
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if real.starts_with(&self.scratch_path) {
            return None;
        }
        self.hide.iter().find(|h| real.starts_with(h)).cloned()
    }

    /// Whether `path` is one of the secrets (cases, answers, judge files)
    /// or lies in one: a command that names it gets no copy of it.
    pub fn is_secret(&self, path: &Path) -> bool {
        if self.ns_plan.is_none() {
            return false;
        }
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.secret.iter().any(|s| real.starts_with(s))
    }

    /// A directory of the judge's own in which no untrusted program sees
    /// anything (a validator's feedback directory, a checker's run).
    pub fn private_dir(&self) -> PathBuf {
        self.scratch_path.join(PRIVATE)
    }

    /// A path an untrusted program can use for `path` (its own program, a
    /// script or file its command names): unchanged when it can see and
    /// reach it, else a copy in `programs/` (made once, mode 0755): when
    /// it lies where the sandbox hides (a submission inside its package,
    /// a build in the cache), or, under root isolation where programs run
    /// as other users, where they cannot reach (a private cache such as
    /// /root/.cache).
    pub fn stage(&self, path: &Path) -> Result<PathBuf, ProgramError> {
        self.stage_copy(path).map_err(|reason| ProgramError::Stage {
            path: path.to_path_buf(),
            reason,
        })
    }

    fn stage_copy(&self, path: &Path) -> Result<PathBuf, CopyError> {
        let hidden = self.hidden_by(path).is_some();
        let unreachable = self.isolation == Isolation::Root && !reachable_by_others(path);
        if !hidden && !unreachable {
            return Ok(path.to_path_buf());
        }
        let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(copy) = staged
            .iter()
            .find(|(from, _)| from == path)
            .map(|(_, to)| to.clone())
        {
            return Ok(copy);
        }
        let programs = self.scratch_path.join(PROGRAMS);
        let dir = tempfile::Builder::new()
            .prefix("p-")
            .rand_bytes(16)
            .tempdir_in(&programs)
            .map_err(|source| CopyError::Io {
                path: programs.clone(),
                source,
            })?
            .keep();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711)).map_err(
            |source| CopyError::Io {
                path: dir.clone(),
                source,
            },
        )?;
        let name = path.file_name().unwrap_or(std::ffi::OsStr::new("program"));
        let copy = dir.join(name);
        if path.is_dir() {
            copy_tree(path, &copy)?;
        } else {
            std::fs::copy(path, &copy)
                .and_then(|_| {
                    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))
                })
                .map_err(CopyError::File)?;
        }
        staged.push((path.to_path_buf(), copy.clone()));
        Ok(copy)
    }
}

/// Whether a user other than the owner can reach `path`: every directory
/// on the way searchable by others, the file itself readable and (for an
/// executable) executable by others.
pub(super) fn reachable_by_others(path: &Path) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    let mode = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode())
            .unwrap_or(0)
    };
    let file = mode(&real);
    let file_ok = file & 0o004 != 0 && (file & 0o111 == 0 || file & 0o001 != 0);
    file_ok && real.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0)
}
