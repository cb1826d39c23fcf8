//! The private working directories of runs, reused when a run left its
//! directory exactly as it got it.
//!
//! Making and removing a directory per case is the largest per-case cost
//! after the program's own start: on an ext4 file system every `mkdir`
//! allocates a block and every `rmdir` frees it (with the `discard` mount
//! option, a synchronous discard): 1.8–3 ms a case on the project's machine,
//! more than the A+B program takes. Most programs never write a file, so a
//! run's directory goes back to a pool when, after everything of the run is
//! dead, it is still the same inode, empty, with the owner, mode, size,
//! inode flags, generation, project and extended attributes it was made
//! with; its access and modification times are then set back to those it
//! was made with when they changed (the judge reads it with `O_NOATIME`,
//! so an untouched directory's inode is not written at all). Anything
//! else — a file left, a `chmod`, an `xattr`, a `chattr`, a directory
//! that grew, a directory swapped for another — and it is removed
//! as before and the next run gets a fresh one. Nothing a program can set on
//! its directory reaches the next run: what it cannot set back (the change
//! time) only says when the judge last reset it.

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A read-only working directory's writable temporary directory.
const TMP: &str = "tmp";

/// Why a run got no working directory.
#[derive(Debug, thiserror::Error)]
pub enum WorkdirError {
    #[error("cannot create a working directory: {0}")]
    Create(#[source] std::io::Error),
    #[error("cannot give the working directory to uid {uid}: {source}")]
    Give { uid: u32, source: std::io::Error },
    #[error("cannot open the working directory for reading: {0}")]
    OpenForReading(#[source] std::io::Error),
    #[error("cannot make the working directory's {TMP}/: {0}")]
    Tmp(#[source] std::io::Error),
}

/// What a directory looked like when it was made (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    dev: u64,
    ino: u64,
    uid: u32,
    gid: u32,
    mode: u32,
    size: i64,
    blocks: i64,
    /// `FS_IOC_GETFLAGS` (chattr), or the error's number when the file
    /// system has none.
    flags: Result<u32, i32>,
    /// `FS_IOC_FSGETXATTR`: (xflags, extent size, project id), or the error.
    fsx: Result<(u32, u32, u32), i32>,
    /// `FS_IOC_GETVERSION` (the inode generation, which its owner may set
    /// on ext4), or the error.
    generation: Result<u32, i32>,
    atime: (i64, i64),
    mtime: (i64, i64),
    /// The change time: not compared as a shape (the judge's own reset
    /// moves it), but kept per directory (see [`Workdir::changed`]).
    ctime: (i64, i64),
}

/// A private working directory with the shape it was made with.
pub(super) struct Workdir {
    dir: tempfile::TempDir,
    owner: Option<(u32, u32)>,
    /// The judge's, mode 0755, for a run as a slot's user that may not
    /// write it (`Limits::writable_workdir`).
    read_only: bool,
    shape: Option<Shape>,
    /// Its change time when the judge last made or reset it: a directory
    /// whose change time moved since was touched (any change a program
    /// can make to an inode moves it, a `chmod` to the same mode too), and
    /// is reset even when its other times read as made.
    changed: (i64, i64),
}

impl Workdir {
    /// Where the program's temporary files go (its TMPDIR): the directory
    /// itself, or for a read-only one its `tmp/`, the slot user's own.
    pub(super) fn temporary(&self) -> PathBuf {
        match self.read_only {
            true => self.dir.path().join(TMP),
            false => self.dir.path().to_path_buf(),
        }
    }

    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// The directories free for the next run.
#[derive(Default)]
pub(super) struct Pool {
    free: Mutex<Vec<Workdir>>,
}

impl Pool {
    /// A clean directory owned by `owner` (a slot's user; `None`: the
    /// judge): one given back before, or a fresh one in `scratch`. When
    /// `read_only` and there is an `owner`, the directory stays the
    /// judge's, mode 0755: the slot's user enters it and reads what the
    /// judge copies in, and cannot create, remove or rename a file in it
    /// (nor `chmod` it). Without an owner (no slot users: the program is
    /// the judge's user) no mode would hold it, and it is writable.
    pub(super) fn take(
        &self,
        scratch: &Path,
        slot: usize,
        owner: Option<(u32, u32)>,
        read_only: bool,
    ) -> Result<Workdir, WorkdirError> {
        let read_only = read_only && owner.is_some();
        let slot_user = owner;
        let owner = if read_only { None } else { owner };
        loop {
            let mut reused = {
                let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
                // Same owner, same place (a trusted run's directory is in
                // the judge's private directory, a program's is not).
                let same = |w: &Workdir| {
                    w.owner == owner
                        && w.read_only == read_only
                        && w.dir.path().parent() == Some(scratch)
                };
                match free.iter().position(same) {
                    Some(i) => free.swap_remove(i),
                    None => break,
                }
            };
            // Checked when taken, not when given back: whatever reached
            // it while it waited in the pool counts too.
            if reset(&mut reused) {
                return Ok(reused);
            }
            super::remove_tree(reused.dir);
        }
        let dir = tempfile::Builder::new()
            .prefix(&format!("w{slot}-"))
            .tempdir_in(scratch)
            .map_err(WorkdirError::Create)?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .map_err(|source| WorkdirError::Give { uid, source })?;
        }
        if let (true, Some((uid, gid))) = (read_only, slot_user) {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
                .map_err(WorkdirError::OpenForReading)?;
            // Its TMPDIR, which the slot's user may write: DOMjudge gives
            // a program a writable TMPDIR beside its read-only directory
            // (`write_tmp`), and R, for one, will not start without it.
            let tmp = dir.path().join(TMP);
            std::fs::create_dir(&tmp)
                .and_then(|()| {
                    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o700))
                })
                .and_then(|()| std::os::unix::fs::chown(&tmp, Some(uid), Some(gid)))
                .map_err(WorkdirError::Tmp)?;
        }
        // A directory whose shape cannot be read, or that carries extended
        // attributes from birth (a security label), is never reused; nor is
        // a read-only one (its `tmp/` is never empty as a reused one must
        // be): it is removed after its run.
        let shape = match read_only {
            true => None,
            false => open(dir.path())
                .ok()
                .and_then(|(fd, _)| shape(&fd).filter(|_| no_xattrs(&fd))),
        };
        let changed = shape.map_or((0, 0), |s| s.ctime);
        Ok(Workdir {
            dir,
            owner,
            read_only,
            shape,
            changed,
        })
    }

    /// Take back the directory of a run that has ended: kept for a later
    /// run when every process of the run is known dead (`clean`) and it
    /// can be reused at all, else removed now. Whether it is as it was
    /// made is checked when it is taken again.
    pub(super) fn give_back(&self, workdir: Workdir, clean: bool) {
        if clean && workdir.shape.is_some() {
            self.free
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(workdir);
        } else {
            super::remove_tree(workdir.dir);
        }
    }

    /// Remove every free directory.
    pub(super) fn clear(&self) {
        let free = std::mem::take(&mut *self.free.lock().unwrap_or_else(|e| e.into_inner()));
        for w in free {
            super::remove_tree(w.dir);
        }
    }
}

/// The directory, and whether it was opened with `O_NOATIME` (allowed to
/// its owner and to root; else it is opened without): the judge's own
/// reading of it then leaves its access time alone, so an untouched
/// directory keeps the times it was made with and needs no reset, which
/// on ext4 would dirty its inode in the journal on every case.
fn open(path: &Path) -> rustix::io::Result<(OwnedFd, bool)> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::open(path, flags | OFlags::NOATIME, Mode::empty()) {
        Err(rustix::io::Errno::PERM) => {
            rustix::fs::open(path, flags, Mode::empty()).map(|fd| (fd, false))
        }
        opened => opened.map(|fd| (fd, true)),
    }
}

/// Whether the directory is as it was made; if so its times are set back.
fn reset(workdir: &mut Workdir) -> bool {
    let Some(made) = workdir.shape else {
        return false;
    };
    let Ok((fd, noatime)) = open(workdir.path()) else {
        return false;
    };
    let now = shape(&fd);
    let same = now.is_some_and(|now| {
        Shape {
            atime: made.atime,
            mtime: made.mtime,
            ctime: made.ctime,
            ..now
        } == made
    });
    if !(same && is_empty(&fd) && no_xattrs(&fd)) {
        return false;
    }
    // Untouched times stay (read before the judge's own `getdents`, so
    // only when that left the access time alone).
    if noatime
        && now.is_some_and(|now| {
            now.atime == made.atime && now.mtime == made.mtime && now.ctime == workdir.changed
        })
    {
        return true;
    }
    let times = [
        libc::timespec {
            tv_sec: made.atime.0,
            tv_nsec: made.atime.1,
        },
        libc::timespec {
            tv_sec: made.mtime.0,
            tv_nsec: made.mtime.1,
        },
    ];
    // SAFETY: futimens on an open descriptor with two valid timespecs.
    if unsafe { libc::futimens(fd.as_raw_fd(), times.as_ptr()) } != 0 {
        return false;
    }
    // The change time the reset left: a later move of it is a touch.
    match rustix::fs::fstat(&fd) {
        Ok(st) => {
            workdir.changed = (st.st_ctime, st.st_ctime_nsec as i64);
            true
        }
        Err(_) => false,
    }
}

fn shape(fd: &OwnedFd) -> Option<Shape> {
    let st = rustix::fs::fstat(fd).ok()?;
    let raw = fd.as_raw_fd();
    let mut flags: libc::c_int = 0;
    // SAFETY: FS_IOC_GETFLAGS writes one int.
    let flags = match unsafe { libc::ioctl(raw, FS_IOC_GETFLAGS, &mut flags) } {
        0 => Ok(flags as u32),
        _ => Err(errno()),
    };
    let mut fsx = FsXattr::default();
    // SAFETY: FS_IOC_FSGETXATTR writes one `struct fsxattr`.
    let fsx = match unsafe { libc::ioctl(raw, FS_IOC_FSGETXATTR, &mut fsx) } {
        0 => Ok((fsx.xflags, fsx.extsize, fsx.projid)),
        _ => Err(errno()),
    };
    let mut generation: libc::c_int = 0;
    // SAFETY: FS_IOC_GETVERSION writes one int.
    let generation = match unsafe { libc::ioctl(raw, FS_IOC_GETVERSION, &mut generation) } {
        0 => Ok(generation as u32),
        _ => Err(errno()),
    };
    Some(Shape {
        dev: st.st_dev,
        ino: st.st_ino,
        uid: st.st_uid,
        gid: st.st_gid,
        mode: st.st_mode,
        size: st.st_size,
        blocks: st.st_blocks,
        flags,
        fsx,
        generation,
        atime: (st.st_atime, st.st_atime_nsec as i64),
        mtime: (st.st_mtime, st.st_mtime_nsec as i64),
        ctime: (st.st_ctime, st.st_ctime_nsec as i64),
    })
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

const FS_IOC_GETFLAGS: libc::Ioctl = 0x8008_6601;
const FS_IOC_GETVERSION: libc::Ioctl = 0x8008_7601;
const FS_IOC_FSGETXATTR: libc::Ioctl = 0x801c_581f;

/// `struct fsxattr` of linux/fs.h.
#[repr(C)]
#[derive(Default)]
struct FsXattr {
    xflags: u32,
    extsize: u32,
    nextents: u32,
    projid: u32,
    cowextsize: u32,
    pad: [u8; 8],
}

/// Only `.` and `..` (one `getdents64`: a buffer that any third entry
/// would fit in).
fn is_empty(fd: &OwnedFd) -> bool {
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 2048];
    let mut dir = rustix::fs::RawDir::new(fd.as_fd(), &mut buf);
    let mut entries = 0;
    while let Some(entry) = dir.next() {
        let Ok(entry) = entry else {
            return false;
        };
        let name = entry.file_name().to_bytes();
        if name != b"." && name != b".." {
            return false;
        }
        entries += 1;
        if entries > 2 {
            return false;
        }
    }
    entries == 2
}

/// No extended attribute at all (so no ACL either); a file system without
/// them has none.
fn no_xattrs(fd: &OwnedFd) -> bool {
    // SAFETY: a size query (no buffer).
    let n = unsafe { libc::flistxattr(fd.as_raw_fd(), std::ptr::null_mut(), 0) };
    n == 0 || (n < 0 && errno() == libc::EOPNOTSUPP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untouched_directory_is_reused_and_a_touched_one_replaced() {
        let scratch = tempfile::tempdir().unwrap();
        let pool = Pool::default();
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        if w.shape.is_none() {
            return; // extended attributes from birth: never reused here
        }
        let first = w.path().to_path_buf();
        use std::os::unix::fs::MetadataExt;
        let changed = |p: &Path| {
            let m = std::fs::metadata(p).unwrap();
            (m.ctime(), m.ctime_nsec())
        };
        let made = changed(w.path());
        pool.give_back(w, true);
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert_eq!(w.path(), first, "an untouched directory is reused");
        // Its owner reads it with O_NOATIME: nothing to set back, so its
        // inode was not written (the change time stays).
        pool.give_back(w, true);
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert_eq!(
            changed(w.path()),
            made,
            "an untouched directory is not written"
        );
        // A change that leaves the shape and the times as they were (a
        // chmod to the same mode) still moves the change time: reset, so
        // the change time a program chose never reaches the next run.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(w.path()).unwrap().permissions().mode();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::set_permissions(w.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        let chosen = changed(w.path());
        assert_ne!(chosen, made);
        pool.give_back(w, true);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert_eq!(w.path(), first);
        assert!(
            changed(w.path()) > chosen,
            "reset: the change time is the judge's"
        );
        // Times a program sets are set back.
        std::fs::File::open(w.path())
            .unwrap()
            .set_modified(std::time::SystemTime::UNIX_EPOCH)
            .unwrap();
        pool.give_back(w, true);
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert_eq!(w.path(), first);
        assert_ne!(
            std::fs::metadata(w.path()).unwrap().modified().unwrap(),
            std::time::SystemTime::UNIX_EPOCH
        );
        // A file left behind: removed, a fresh directory next.
        std::fs::write(w.path().join("left"), "x").unwrap();
        pool.give_back(w, true);
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert_ne!(w.path(), first);
        assert!(!first.exists());
        // A changed mode: removed.
        let second = w.path().to_path_buf();
        std::fs::set_permissions(w.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
        pool.give_back(w, true);
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        assert!(!second.exists());
        pool.give_back(w, true);
        // Not known to be clean (a run whose processes may live): removed.
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        let third = w.path().to_path_buf();
        pool.give_back(w, false);
        assert!(!third.exists());
        // A file made and removed again is fine (the directory is empty
        // and the same size), and another owner's directory is not shared.
        let w = pool.take(scratch.path(), 0, None, false).unwrap();
        let fourth = w.path().to_path_buf();
        std::fs::write(w.path().join("gone"), "x").unwrap();
        std::fs::remove_file(w.path().join("gone")).unwrap();
        pool.give_back(w, true);
        let other = pool.take(scratch.path(), 0, Some((0, 0)), false);
        if let Ok(other) = other {
            assert_ne!(other.path(), fourth);
        }
        assert_eq!(
            pool.take(scratch.path(), 0, None, false).unwrap().path(),
            fourth
        );
        pool.clear();
    }

    #[test]
    fn a_directory_swapped_for_another_is_not_reused() {
        let scratch = tempfile::tempdir().unwrap();
        let pool = Pool::default();
        let w = pool.take(scratch.path(), 1, None, false).unwrap();
        if w.shape.is_none() {
            return;
        }
        let path = w.path().to_path_buf();
        std::fs::rename(&path, scratch.path().join("moved")).unwrap();
        std::fs::create_dir(&path).unwrap();
        pool.give_back(w, true);
        let fresh = pool.take(scratch.path(), 1, None, false).unwrap();
        assert_ne!(fresh.path(), path, "the swapped-in directory is not reused");
        assert!(!path.exists());
    }

    /// A run that may not write its directory (a DOMjudge submission, as a
    /// slot's user) gets one that stays the judge's, 0755, and it is never
    /// handed to a run that may write (nor the other way round). Without
    /// an owner there is no such directory to make: it is an ordinary one.
    #[test]
    fn a_read_only_directory_is_the_judges_and_kept_apart() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let scratch = tempfile::tempdir().unwrap();
        let pool = Pool::default();
        // SAFETY: no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let slot_user = Some((uid.wrapping_add(1000), gid.wrapping_add(1000)));
        let Ok(w) = pool.take(scratch.path(), 0, slot_user, true) else {
            return; // not root: no directory can be given to another user
        };
        let meta = std::fs::metadata(w.path()).unwrap();
        assert_eq!(
            (meta.uid(), meta.permissions().mode() & 0o7777),
            (uid, 0o755)
        );
        // Its TMPDIR is the slot user's own `tmp/`, closed to others.
        let tmp = std::fs::metadata(w.temporary()).unwrap();
        assert_eq!(w.temporary(), w.path().join(TMP));
        assert_eq!(
            (tmp.uid(), tmp.permissions().mode() & 0o7777),
            (uid.wrapping_add(1000), 0o700)
        );
        let read_only = w.path().to_path_buf();
        // Never reused: removed when given back.
        pool.give_back(w, true);
        assert!(!read_only.exists());
        if let Ok(writable) = pool.take(scratch.path(), 0, slot_user, false) {
            assert_ne!(writable.path(), read_only);
            assert_eq!(writable.temporary(), writable.path());
            assert_eq!(
                std::fs::metadata(writable.path()).unwrap().uid(),
                uid + 1000
            );
        }
        assert!(!pool.take(scratch.path(), 0, None, true).unwrap().read_only);
        pool.clear();
    }
}
