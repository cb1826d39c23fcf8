//! Removing a directory tree a program made: iterative and bounded.
//!
//! A program can make its working directory as deep as its time allows
//! (`mkdir` + `chdir` in a loop: 30,000 levels in well under a second). A
//! recursive removal (`std::fs::remove_dir_all`, a walk that recurses)
//! overflows a worker's stack on such a tree, and a path-based one fails
//! past `PATH_MAX`. So the tree is removed with one directory descriptor at
//! a time: each directory is emptied with `unlinkat` relative to its own
//! descriptor; a non-empty subdirectory is entered (`openat` with
//! `O_NOFOLLOW | O_DIRECTORY`, never a symbolic link); an emptied one is
//! left through its `..`, checked to be the directory it came from (device
//! and inode, kept on an explicit stack: 16 bytes a level), and removed
//! from there. A directory the program made unreadable or unwritable to
//! its owner is opened up first (`chmod 0700`), so the judge without root
//! removes it too.
//!
//! Bounded: a removal stops at a deadline (and past [`MAX_DEPTH`] levels),
//! and says so; the caller decides where what is left goes (see
//! `Sandbox::drop` and `leftovers`), so that a tree that cannot go soon
//! never stalls a judge, this one or a later one.

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a tree was not removed (it is then partly removed).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RemoveError {
    #[error("{}: not a removable path", .0.display())]
    NotRemovable(PathBuf),
    #[error("{}: a NUL in the name", .0.display())]
    Nul(PathBuf),
    #[error("{}: {source}", path.display())]
    Open { path: PathBuf, source: Errno },
    #[error("{}: {source}", path.display())]
    Tree { path: PathBuf, source: TreeError },
    /// An earlier removal of a working directory failed (see
    /// `remove_scratch`).
    #[error("a working directory a program left could not be removed in time")]
    WorkdirLeft,
}

/// What stopped the walk through a tree.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TreeError {
    #[error("{0}")]
    Os(Errno),
    /// An entry's own failure, by its name.
    #[error("{name}: {source}")]
    Entry { name: String, source: Errno },
    #[error("reading a directory: {0}")]
    Reading(Errno),
    #[error("going up: {0}")]
    GoingUp(Errno),
    #[error("not removed in time ({levels} levels deep at that point)")]
    Late { levels: usize },
    #[error("deeper than {MAX_DEPTH} levels")]
    TooDeep,
    #[error("emptied, yet not removable")]
    Stuck,
    #[error("the tree was moved while it was removed")]
    Moved,
}

impl TreeError {
    fn entry(name: &std::ffi::CStr, source: Errno) -> TreeError {
        TreeError::Entry {
            name: name.to_string_lossy().into_owned(),
            source,
        }
    }
}

/// How long the removal of a run's working directory, or of the judge's
/// scratch directory at its end, may take before it gives up. Removing a
/// directory costs many times making it (on ext4 with `discard`, under
/// load, what a program makes in its 1 s of CPU took 19 s to remove), so
/// this is well above what a program makes within its limits; past it,
/// what is left is set aside.
pub(crate) const BUDGET: Duration = Duration::from_secs(60);

/// How long a judge spends on the scratch directory a killed judge left
/// before it sets it aside: a later judge must start at once.
pub(crate) const LEFTOVER_BUDGET: Duration = Duration::from_secs(2);

/// The deepest tree removed (the stack of levels stays under 64 MiB).
const MAX_DEPTH: usize = 4 << 20;

/// Remove `path` and everything under it by `deadline`. A path that does
/// not exist is removed already. The error says why not (the tree is then
/// partly removed).
pub(crate) fn remove_tree(path: &Path, deadline: Instant) -> Result<(), RemoveError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(RemoveError::NotRemovable(path.to_path_buf()));
    };
    let parent = rustix::fs::open(
        if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        },
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|source| RemoveError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    let name = std::ffi::CString::new(name.as_encoded_bytes())
        .map_err(|_| RemoveError::Nul(path.to_path_buf()))?;
    remove_at(parent.as_fd(), &name, deadline).map_err(|source| RemoveError::Tree {
        path: path.to_path_buf(),
        source,
    })
}

/// Remove the entry `name` of `parent`, a directory tree or not.
fn remove_at(
    parent: BorrowedFd<'_>,
    name: &std::ffi::CStr,
    deadline: Instant,
) -> Result<(), TreeError> {
    match unlink(parent, name, false) {
        Ok(()) | Err(Errno::NOENT) => return Ok(()),
        Err(Errno::ISDIR) | Err(Errno::PERM) => {}
        Err(e) => return Err(TreeError::Os(e)),
    }
    if try_rmdir(parent, name)? {
        return Ok(());
    }
    let top = open_dir(parent, name)?;
    let mut ancestors: Vec<(u64, u64)> = Vec::new();
    let mut current = top;
    let mut id = identity(&current)?;
    let mut buffer = vec![std::mem::MaybeUninit::<u8>::uninit(); 8192];
    loop {
        if Instant::now() >= deadline {
            return Err(TreeError::Late {
                levels: ancestors.len() + 1,
            });
        }
        match empty_or_enter(&current, &mut buffer)? {
            Some(child) => {
                if ancestors.len() >= MAX_DEPTH {
                    return Err(TreeError::TooDeep);
                }
                ancestors.push(id);
                id = identity(&child)?;
                current = child;
            }
            None => {
                let Some(up) = ancestors.pop() else {
                    drop(current);
                    return if try_rmdir(parent, name)? {
                        Ok(())
                    } else {
                        Err(TreeError::Stuck)
                    };
                };
                let above = rustix::fs::openat(
                    &current,
                    c"..",
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                    Mode::empty(),
                )
                .map_err(TreeError::GoingUp)?;
                if identity(&above)? != up {
                    return Err(TreeError::Moved);
                }
                current = above;
                id = up;
                // The next pass over `current` removes the emptied child.
            }
        }
    }
}

/// One pass over `dir` from its start: every file and empty directory
/// removed; the first non-empty subdirectory opened and returned (to be
/// emptied first), or `None` when `dir` is empty.
fn empty_or_enter(
    dir: &OwnedFd,
    buffer: &mut [std::mem::MaybeUninit<u8>],
) -> Result<Option<OwnedFd>, TreeError> {
    rustix::fs::seek(dir, rustix::fs::SeekFrom::Start(0)).map_err(TreeError::Os)?;
    let mut entries = rustix::fs::RawDir::new(dir, buffer);
    while let Some(entry) = entries.next() {
        let entry = entry.map_err(TreeError::Reading)?;
        let name = entry.file_name();
        if name == c"." || name == c".." {
            continue;
        }
        let is_dir = match entry.file_type() {
            FileType::Directory => true,
            FileType::Unknown => rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode) == FileType::Directory)
                .unwrap_or(false),
            _ => false,
        };
        if is_dir {
            if !try_rmdir(dir.as_fd(), name)? {
                return open_dir(dir.as_fd(), name).map(Some);
            }
        } else {
            match unlink(dir.as_fd(), name, false) {
                Ok(()) | Err(Errno::NOENT) => {}
                // Said to be a file, found a directory: the next pass.
                Err(Errno::ISDIR) => {}
                Err(e) => return Err(TreeError::entry(name, e)),
            }
        }
    }
    Ok(None)
}

/// `unlinkat`, once more after opening up `dir` when it was closed.
fn unlink(dir: BorrowedFd<'_>, name: &std::ffi::CStr, directory: bool) -> rustix::io::Result<()> {
    let flags = if directory {
        AtFlags::REMOVEDIR
    } else {
        AtFlags::empty()
    };
    match rustix::fs::unlinkat(dir, name, flags) {
        Err(Errno::ACCESS) => {
            open_up(dir);
            rustix::fs::unlinkat(dir, name, flags)
        }
        other => other,
    }
}

/// Remove an empty directory: true if it is gone, false if it holds
/// something.
fn try_rmdir(dir: BorrowedFd<'_>, name: &std::ffi::CStr) -> Result<bool, TreeError> {
    match unlink(dir, name, true) {
        Ok(()) | Err(Errno::NOENT) => Ok(true),
        Err(Errno::NOTEMPTY) | Err(Errno::EXIST) => Ok(false),
        Err(e) => Err(TreeError::entry(name, e)),
    }
}

/// Open the subdirectory `name` (never through a symbolic link), opened up
/// first if its owner had closed it.
fn open_dir(dir: BorrowedFd<'_>, name: &std::ffi::CStr) -> Result<OwnedFd, TreeError> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let opened = match rustix::fs::openat(dir, name, flags, Mode::empty()) {
        Err(Errno::ACCESS) => {
            // Known to be a directory (not a link: `O_NOFOLLOW` would have
            // said ELOOP), and nothing of the run is alive to swap it.
            let _ = rustix::fs::chmodat(dir, name, Mode::RWXU, AtFlags::empty());
            rustix::fs::openat(dir, name, flags, Mode::empty())
        }
        other => other,
    }
    .map_err(|e| TreeError::entry(name, e))?;
    open_up(opened.as_fd());
    Ok(opened)
}

/// Give the owner read, write and search on a directory that lacks them.
fn open_up(dir: BorrowedFd<'_>) {
    if let Ok(st) = rustix::fs::fstat(dir)
        && st.st_mode & 0o700 != 0o700
    {
        let _ = rustix::fs::fchmod(dir, Mode::from_raw_mode(st.st_mode | 0o700));
    }
}

fn identity(fd: &OwnedFd) -> Result<(u64, u64), TreeError> {
    rustix::fs::fstat(fd)
        .map(|st| (st.st_dev, st.st_ino))
        .map_err(TreeError::Os)
}

/// The prefix of a tree set aside: a scratch directory that could not be
/// removed in time. No judge looks at it again (the leftovers of killed
/// judges are `judge-run-*`), so it never stalls one; it is named on
/// stderr once, for its owner to remove.
pub(crate) const TRASH_PREFIX: &str = "judge-trash-";

/// Rename `dir` (a `judge-run-*` directory) aside to `judge-trash-*` in the
/// same place, closed to everyone but its owner, and say so in one line
/// (without the `judge: ` prefix).
pub(crate) fn set_aside(dir: &Path, why: &RemoveError) -> String {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let suffix = name.strip_prefix(super::SCRATCH_PREFIX).unwrap_or(&name);
    let trash = dir.with_file_name(format!("{TRASH_PREFIX}{suffix}"));
    match std::fs::rename(dir, &trash) {
        Ok(()) => format!(
            "could not remove {} ({why}); set aside as {} for you to remove (`rm -rf` it)",
            dir.display(),
            trash.display()
        ),
        Err(e) => format!(
            "could not remove {} ({why}), nor set it aside ({e})",
            dir.display()
        ),
    }
}

/// Remove a directory tree even if a program made parts of it unreadable
/// or unwritable to its owner, or deeper than a recursive removal (or a
/// path) can go: iteratively, within [`BUDGET`] (see `remove`).
/// What is left past the budget stays under the scratch directory, the
/// judge's and closed (mode 0), and [`REMOVAL_FAILED`] says so: the scratch directory is then
/// set aside at the judge's end without a second try.
pub(super) fn remove_workdir(dir: tempfile::TempDir) {
    use std::os::unix::fs::PermissionsExt;
    // Never `TempDir::close` or its drop: a recursive removal.
    let path = dir.keep();
    if remove_tree(&path, std::time::Instant::now() + BUDGET).is_err() {
        // The judge's, so that the slot's user (a later case's) cannot
        // open it again.
        // SAFETY: geteuid and getegid cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let _ = std::os::unix::fs::lchown(&path, Some(uid), Some(gid));
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000));
        REMOVAL_FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A working directory could not be removed in time (see [`remove_workdir`]).
static REMOVAL_FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Remove the judge's scratch directory at its end, as [`remove_workdir`];
/// one that cannot go within the budget (a tree a program made too big to
/// remove in time) is set aside under a name no later judge looks at, with
/// one line on stderr (see `set_aside`).
pub(super) fn remove_scratch(dir: tempfile::TempDir) {
    let path = dir.keep();
    let removed = if REMOVAL_FAILED.load(std::sync::atomic::Ordering::Relaxed) {
        Err(RemoveError::WorkdirLeft)
    } else {
        remove_tree(&path, std::time::Instant::now() + BUDGET)
    };
    if let Err(e) = removed {
        eprintln!("judge: {}", set_aside(&path, &e));
    }
}

#[cfg(test)]
mod tests;
