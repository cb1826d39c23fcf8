//! A submission's build directory: where an untrusted build (a compiler, an
//! interpreter's syntax check) runs as an untrusted program of a worker
//! slot — the slot's user, namespaces, cgroup, a scrubbed environment —
//! and what the judge takes from it afterwards.
//!
//! The directory lies in the judge's scratch directory (the one place a
//! slot's mount namespace leaves writable) and belongs to the slot's user
//! (root isolation; else the judge's). The judge writes the sources into
//! it before the build; after the build, with every process of it dead,
//! the judge copies what it left into the build cache: regular files and
//! directories only, each opened relative to its directory's descriptor
//! with `O_NOFOLLOW`, so no symbolic link (nor a directory swapped for
//! one) makes the judge copy a file of its own choosing; a file with
//! another name (a hard link), a FIFO, a socket or a device is refused, and
//! so is a tree past [`MAX_ENTRIES`], [`MAX_DEPTH`] or [`MAX_BYTES`].
//!
//! A build holds its slot (`SlotState::lease`) for the directory's life: two
//! builds on one slot would run as one user in one PID namespace, and the
//! sweep after one would kill the other.

use super::Sandbox;
use super::slot::SlotError;
use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, MutexGuard};

/// Most entries (files and directories) the judge takes from a build.
pub const MAX_ENTRIES: usize = 10_000;
/// Deepest directory the judge takes from a build.
pub const MAX_DEPTH: usize = 32;
/// Most bytes the judge takes from a build, every file together.
pub const MAX_BYTES: u64 = 1 << 30;

/// Why a build has no directory, or its sources could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BuildDirError {
    #[error(transparent)]
    Slot(#[from] Arc<SlotError>),
    #[error("cannot create a build directory: {0}")]
    Create(#[source] std::io::Error),
    #[error("cannot give the build directory to uid {uid}: {source}")]
    GiveDir { uid: u32, source: std::io::Error },
    #[error("{}: not a plain relative name", .0.display())]
    NotPlain(PathBuf),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot give {} to uid {uid}: {source}", path.display())]
    Give {
        path: PathBuf,
        uid: u32,
        source: std::io::Error,
    },
}

/// Why what a build left was not taken: the build's fault (`rel` is the
/// entry inside the build directory), or the judge's (`Io`, `Open`).
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    #[error("cannot open the build directory: {0}")]
    Open(#[source] Errno),
    #[error("cannot read the build directory: {0}")]
    Read(#[source] Errno),
    #[error("the build left directories deeper than {MAX_DEPTH} levels ({})", .0.display())]
    TooDeep(PathBuf),
    #[error("the build left more than {MAX_ENTRIES} files")]
    TooMany,
    #[error("the build left more than {} of files", crate::units::Size(MAX_BYTES))]
    TooBig,
    #[error(
        "the build left `{}`, a symbolic link (the judge takes regular files only)",
        .0.display()
    )]
    Link(PathBuf),
    #[error("the build left `{}`, a file with other names (a hard link)", .0.display())]
    HardLink(PathBuf),
    #[error(
        "the build left `{}`, a {kind} (the judge takes regular files only)",
        .rel.display()
    )]
    Special { rel: PathBuf, kind: &'static str },
    #[error("cannot open `{}` the build left: {source}", .rel.display())]
    OpenEntry { rel: PathBuf, source: Errno },
    #[error("`{}`: {source}", .rel.display())]
    Stat { rel: PathBuf, source: Errno },
    #[error("cannot copy `{}` from the build: {source}", .rel.display())]
    Copy {
        rel: PathBuf,
        source: std::io::Error,
    },
    /// The judge's side of the copy.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One build's directory and its hold on the slot. Dropping it removes
/// the directory, then frees the slot.
pub struct BuildDir<'a> {
    dir: Option<tempfile::TempDir>,
    slot: usize,
    owner: Option<(u32, u32)>,
    _lease: Option<MutexGuard<'a, ()>>,
}

impl Sandbox {
    /// A fresh build directory on a slot (`wanted`, modulo the slots
    /// there are), owned by the slot's user, and the slot held for it.
    pub fn build_dir(&self, wanted: usize) -> Result<BuildDir<'_>, BuildDirError> {
        let slot = wanted % self.slots.len().max(1);
        let state = self.slot_state(slot)?;
        let lease = state.map(|s| s.lease.lock().unwrap_or_else(|e| e.into_inner()));
        let owner = state.and_then(|s| s.user);
        let dir = tempfile::Builder::new()
            .prefix(&format!("b{slot}-"))
            .tempdir_in(&self.scratch_path)
            .map_err(BuildDirError::Create)?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .map_err(|source| BuildDirError::GiveDir { uid, source })?;
        }
        Ok(BuildDir {
            dir: Some(dir),
            slot,
            owner,
            _lease: lease,
        })
    }
}

impl Sandbox {
    /// A fresh build directory for a package's program (a checker's, a
    /// generator's build): in the judge's private directory, the one place
    /// the package's programs may write (see `tools`), the judge's own.
    /// What the build leaves is taken with [`BuildDir::collect`] all the
    /// same: the build script is the package's.
    pub fn tool_build_dir(&self) -> Result<BuildDir<'_>, BuildDirError> {
        let dir = tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(self.private_dir())
            .map_err(BuildDirError::Create)?;
        Ok(BuildDir {
            dir: Some(dir),
            slot: 0,
            owner: None,
            _lease: None,
        })
    }
}

impl BuildDir<'_> {
    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new("/"), |d| d.path())
    }

    /// The slot the build runs on.
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Write a source file (`rel`, plain names only) into the directory,
    /// its directories made, all of it given to the slot's user.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), BuildDirError> {
        let rel = Path::new(rel);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(BuildDirError::NotPlain(rel.to_path_buf()));
        }
        let mut at = self.path().to_path_buf();
        let mut parts = rel.components().peekable();
        while let Some(part) = parts.next() {
            at.push(part);
            if parts.peek().is_some() {
                match std::fs::create_dir(&at) {
                    Ok(()) => self.give(&at)?,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(source) => return Err(BuildDirError::Write { path: at, source }),
                }
            }
        }
        if let Err(source) = std::fs::write(&at, bytes) {
            return Err(BuildDirError::Write { path: at, source });
        }
        self.give(&at)
    }

    fn give(&self, path: &Path) -> Result<(), BuildDirError> {
        match self.owner {
            Some((uid, gid)) => {
                std::os::unix::fs::lchown(path, Some(uid), Some(gid)).map_err(|source| {
                    BuildDirError::Give {
                        path: path.to_path_buf(),
                        uid,
                        source,
                    }
                })
            }
            None => Ok(()),
        }
    }

    /// Copy what the build left into `into` (an empty directory of the
    /// judge's), but the names in `skip` (the sources, which the judge
    /// has already). An error is the build's fault: its message says
    /// which entry was refused and why.
    pub fn collect(&self, into: &Path, skip: &[&str]) -> Result<(), CollectError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let root =
            rustix::fs::open(self.path(), flags, Mode::empty()).map_err(CollectError::Open)?;
        let mut walk = Walk {
            skip,
            entries: 0,
            bytes: 0,
        };
        walk.dir(&root, into, Path::new(""), 0)
    }
}

impl Drop for BuildDir<'_> {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            super::remove_tree(dir);
        }
    }
}

/// The copy of a build's tree, with what it has taken so far.
struct Walk<'s> {
    skip: &'s [&'s str],
    entries: usize,
    bytes: u64,
}

impl Walk<'_> {
    fn dir(
        &mut self,
        from: &OwnedFd,
        to: &Path,
        rel: &Path,
        depth: usize,
    ) -> Result<(), CollectError> {
        if depth > MAX_DEPTH {
            return Err(CollectError::TooDeep(rel.to_path_buf()));
        }
        let mut names = Vec::new();
        let dir = rustix::fs::Dir::read_from(from).map_err(CollectError::Read)?;
        for entry in dir {
            let entry = entry.map_err(CollectError::Read)?;
            let name = entry.file_name().to_bytes();
            if name != b"." && name != b".." {
                names.push(name.to_vec());
            }
        }
        names.sort();
        for name in names {
            let rel = rel.join(OsStr::from_bytes(&name));
            if self.skip.iter().any(|s| Path::new(s) == rel) {
                continue;
            }
            self.entries += 1;
            if self.entries > MAX_ENTRIES {
                return Err(CollectError::TooMany);
            }
            self.entry(from, &name, &to.join(OsStr::from_bytes(&name)), &rel, depth)?;
        }
        Ok(())
    }

    fn entry(
        &mut self,
        parent: &OwnedFd,
        name: &[u8],
        to: &Path,
        rel: &Path,
        depth: usize,
    ) -> Result<(), CollectError> {
        let rel_owned = || rel.to_path_buf();
        // No symbolic link is followed, no FIFO waited on, no terminal
        // taken as the judge's.
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let fd = match rustix::fs::openat(parent, OsStr::from_bytes(name), flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::LOOP) => return Err(CollectError::Link(rel_owned())),
            Err(source) => {
                return Err(CollectError::OpenEntry {
                    rel: rel_owned(),
                    source,
                });
            }
        };
        let stat = rustix::fs::fstat(&fd).map_err(|source| CollectError::Stat {
            rel: rel_owned(),
            source,
        })?;
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => {
                std::fs::create_dir(to).map_err(|source| CollectError::Io {
                    path: to.to_path_buf(),
                    source,
                })?;
                self.dir(&fd, to, rel, depth + 1)
            }
            FileType::RegularFile if stat.st_nlink != 1 => Err(CollectError::HardLink(rel_owned())),
            FileType::RegularFile => self.file(fd, stat.st_mode, to, rel),
            other => Err(CollectError::Special {
                rel: rel_owned(),
                kind: kind(other),
            }),
        }
    }

    fn file(&mut self, fd: OwnedFd, mode: u32, to: &Path, rel: &Path) -> Result<(), CollectError> {
        use std::os::unix::fs::OpenOptionsExt;
        let left = MAX_BYTES - self.bytes;
        let executable = mode & 0o100 != 0;
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if executable { 0o755 } else { 0o644 })
            .open(to)
            .map_err(|source| CollectError::Io {
                path: to.to_path_buf(),
                source,
            })?;
        let copied = std::io::copy(&mut std::fs::File::from(fd).take(left + 1), &mut out)
            .and_then(|n| out.flush().map(|()| n))
            .map_err(|source| CollectError::Copy {
                rel: rel.to_path_buf(),
                source,
            })?;
        if copied > left {
            return Err(CollectError::TooBig);
        }
        self.bytes += copied;
        Ok(())
    }
}

fn kind(file_type: FileType) -> &'static str {
    match file_type {
        FileType::Fifo => "FIFO",
        FileType::Socket => "socket",
        FileType::CharacterDevice | FileType::BlockDevice => "device",
        _ => "special file",
    }
}

impl Sandbox {
    /// Whether an untrusted program (a build) can run `path`: always but
    /// under root isolation, where the slot's users must reach it (a
    /// compiler under `/root`, mode 0700, they cannot).
    pub fn runnable_inside(&self, path: &Path) -> bool {
        self.isolation != super::Isolation::Root || super::staging::reachable_by_others(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::sandbox::{SandboxMode, SandboxOptions};

    fn sandbox(tmp: &Path) -> Sandbox {
        Sandbox::new(SandboxOptions {
            temp_root: Some(tmp.to_path_buf()),
            mode: SandboxMode::Plain,
            slots: 1,
            ..SandboxOptions::default()
        })
        .unwrap()
    }

    #[test]
    fn collect_takes_regular_files_and_refuses_links_and_fifos() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = sandbox(tmp.path());
        let secret = tmp.path().join("secret.ans");
        std::fs::write(&secret, "42\n").unwrap();
        let take = |plant: &dyn Fn(&Path)| {
            let build = sandbox.build_dir(0).unwrap();
            build.write("a.c", b"int main(){}").unwrap();
            build.write("pkg/B.java", b"class B{}").unwrap();
            std::fs::write(build.path().join("a"), b"\x7fELF").unwrap();
            plant(build.path());
            let into = tempfile::tempdir().unwrap();
            let got = build
                .collect(into.path(), &["a.c", "pkg/B.java"])
                .map_err(|e| e.to_string());
            (got, into)
        };
        let (got, into) = take(&|_| {});
        assert_eq!(got, Ok(()));
        assert_eq!(std::fs::read(into.path().join("a")).unwrap(), b"\x7fELF");
        assert!(!into.path().join("a.c").exists(), "sources are skipped");
        assert!(into.path().join("pkg").is_dir());
        let (got, _) = take(&|dir| std::os::unix::fs::symlink(&secret, dir.join("b")).unwrap());
        assert!(got.unwrap_err().contains("`b`, a symbolic link"));
        let (got, _) = take(&|dir| {
            std::fs::remove_dir_all(dir.join("pkg")).unwrap();
            std::os::unix::fs::symlink(tmp.path(), dir.join("pkg")).unwrap();
        });
        assert!(got.unwrap_err().contains("`pkg`, a symbolic link"));
        let (got, _) = take(&|dir| std::fs::hard_link(&secret, dir.join("c")).unwrap());
        assert!(got.unwrap_err().contains("a hard link"));
        let (got, _) = take(&|dir| {
            let c = std::ffi::CString::new(dir.join("f").as_os_str().as_bytes()).unwrap();
            // SAFETY: mkfifo on a NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        });
        assert!(got.unwrap_err().contains("`f`, a FIFO"));
    }

    #[test]
    fn a_build_directory_is_inside_the_scratch_directory_and_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = sandbox(tmp.path());
        let build = sandbox.build_dir(3).unwrap();
        let path = build.path().to_path_buf();
        assert!(super::super::slot::inside_scratch(&sandbox, &path));
        assert!(!super::super::slot::inside_scratch(&sandbox, tmp.path()));
        assert!(build.write("../x.c", b"").is_err());
        drop(build);
        assert!(!path.exists());
    }
}
