//! Covering a hidden directory in a slot's mount namespace, including one
//! that holds the judge's scratch directory (a package or judge.toml
//! project with TMPDIR inside it, a HOME that holds TMPDIR): the scratch
//! directory is cloned first (`open_tree`), the directory covered with a
//! tmpfs, the path down to the scratch directory made in it, the clone
//! moved there (`move_mount`), and the tmpfs made read-only. Only the
//! scratch directory shows through; everything else of the directory is
//! out of sight.
//!
//! Inside the scratch directory, the judge's private directory (the
//! validators' feedback directories, the checkers' runs) is covered with
//! an empty tmpfs, and the directory of staged programs is made
//! read-only (its mode keeps it from being listed; see `staging`).
//!
//! The holder's side is system calls on data prepared before its fork.

use std::ffi::{CStr, CString};
use std::path::Path;

/// One hidden directory, prepared for the holder.
pub(super) struct Cover {
    pub dir: CString,
    /// When the directory holds the scratch directory: the directories to
    /// make inside the cover, outermost first, the scratch directory last.
    pub keep: Vec<CString>,
}

/// A path the kernel cannot be given.
#[derive(Debug, thiserror::Error)]
#[error("{} holds a NUL byte", .0.display())]
pub struct NulInPath(pub std::path::PathBuf);

/// `p` for a system call.
pub(super) fn cstring(p: &Path) -> Result<CString, NulInPath> {
    CString::new(p.as_os_str().as_encoded_bytes()).map_err(|_| NulInPath(p.to_path_buf()))
}

/// The covers of `dirs`, each knowing whether it must keep `scratch`.
pub(super) fn plan(dirs: &[std::path::PathBuf], scratch: &Path) -> Result<Vec<Cover>, NulInPath> {
    dirs.iter()
        .map(|dir| {
            let keep = match scratch.strip_prefix(dir) {
                Ok(rel) if !rel.as_os_str().is_empty() => {
                    let mut path = dir.clone();
                    rel.components()
                        .map(|c| {
                            path.push(c);
                            cstring(&path)
                        })
                        .collect::<Result<_, _>>()?
                }
                _ => Vec::new(),
            };
            Ok(Cover {
                dir: cstring(dir)?,
                keep,
            })
        })
        .collect()
}

pub(super) const OPEN_TREE_CLONE: libc::c_uint = 1;
pub(super) const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const COVER_FLAGS: libc::c_ulong = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;

/// Cover one directory (holder side). `Err(true)`: the cover itself
/// failed; `Err(false)`: keeping the scratch directory in it failed.
///
/// # Safety
/// System calls only, on NUL-terminated paths: safe between fork and exec.
pub(super) unsafe fn cover(c: &Cover, scratch: &CStr) -> Result<(), bool> {
    let none = std::ptr::null();
    // SAFETY: plain system calls on NUL-terminated strings and our own fd.
    unsafe {
        if c.keep.is_empty() {
            if libc::mount(
                c"tmpfs".as_ptr(),
                c.dir.as_ptr(),
                c"tmpfs".as_ptr(),
                COVER_FLAGS | libc::MS_RDONLY,
                c"size=16k,mode=755".as_ptr().cast(),
            ) != 0
            {
                return Err(true);
            }
            return Ok(());
        }
        let tree = libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            scratch.as_ptr(),
            OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint | libc::AT_RECURSIVE as libc::c_uint,
        );
        if tree < 0 {
            return Err(false);
        }
        let tree = tree as libc::c_int;
        if libc::mount(
            c"tmpfs".as_ptr(),
            c.dir.as_ptr(),
            c"tmpfs".as_ptr(),
            COVER_FLAGS,
            c"size=16k,mode=755".as_ptr().cast(),
        ) != 0
        {
            libc::close(tree);
            return Err(true);
        }
        for dir in &c.keep {
            if libc::mkdir(dir.as_ptr(), 0o755) != 0
                && std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
            {
                libc::close(tree);
                return Err(false);
            }
        }
        let moved = libc::syscall(
            libc::SYS_move_mount,
            tree,
            c"".as_ptr(),
            libc::AT_FDCWD,
            scratch.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        );
        libc::close(tree);
        if moved != 0
            || libc::mount(
                none,
                c.dir.as_ptr(),
                none,
                libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | COVER_FLAGS,
                std::ptr::null(),
            ) != 0
        {
            return Err(false);
        }
    }
    Ok(())
}

/// Cover the judge's private directory with an empty read-only tmpfs.
///
/// # Safety
/// A system call on a NUL-terminated path.
pub(super) unsafe fn hide_private(dir: &CStr) -> bool {
    // SAFETY: mount(2) on NUL-terminated strings.
    unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            dir.as_ptr(),
            c"tmpfs".as_ptr(),
            COVER_FLAGS | libc::MS_RDONLY,
            c"size=16k,mode=700".as_ptr().cast(),
        ) == 0
    }
}

/// Bind a directory onto itself read-only (no set-uid, no devices); with
/// `recursive`, the mounts below it too.
///
/// # Safety
/// System calls on a NUL-terminated path.
pub(super) unsafe fn read_only(dir: &CStr, recursive: bool) -> bool {
    let none = std::ptr::null();
    let bind = if recursive {
        libc::MS_BIND | libc::MS_REC
    } else {
        libc::MS_BIND
    };
    // SAFETY: mount(2) on NUL-terminated strings.
    unsafe {
        libc::mount(dir.as_ptr(), dir.as_ptr(), none, bind, std::ptr::null()) == 0
            && libc::mount(
                none,
                dir.as_ptr(),
                none,
                libc::MS_BIND
                    | libc::MS_REMOUNT
                    | libc::MS_RDONLY
                    | libc::MS_NOSUID
                    | libc::MS_NODEV,
                std::ptr::null(),
            ) == 0
    }
}
