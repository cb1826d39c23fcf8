//! The IPC namespace a launcher's programs start in, kept clean between
//! cases.
//!
//! No case may find what another left: a System V shared-memory segment,
//! semaphore set or message queue, or a POSIX message queue. A fresh IPC
//! namespace per case guarantees it, but making one (and the kernel's
//! freeing of the old one) was the largest part of the sandbox's cost per
//! case. So the launcher keeps one namespace for as long as cases leave
//! it empty, and makes a fresh one only before a case that would find
//! something:
//!
//! - System V objects are counted by `shmctl(SHM_INFO)`, `semctl(SEM_INFO)`
//!   and `msgctl(MSG_INFO)`, which report the namespace's objects in use
//!   (a segment removed while still attached counts until its last
//!   detach);
//! - POSIX message queues are the entries of the namespace's `mqueue`
//!   file system, which the launcher holds as a detached mount
//!   (`fsopen`/`fsmount`: attached nowhere, so no program sees it).
//!
//! The check runs when a request arrives, that is after the judge has
//! ended every process of the slot's last case (a case ends only when its
//! processes are gone: see SECURITY.md), so nothing can create an object
//! after the check. When the view cannot be made (a kernel before 5.2, a
//! refused mount) or a count cannot be read, the namespace counts as used:
//! a fresh one per case, as before.

use std::mem::MaybeUninit;

/// `SHM_INFO` (not in the libc crate).
const SHM_INFO: i32 = 14;
/// `FSCONFIG_CMD_CREATE`.
const FSCONFIG_CMD_CREATE: libc::c_uint = 6;
/// `FSMOUNT_CLOEXEC`.
const FSMOUNT_CLOEXEC: libc::c_uint = 1;

/// `struct shm_info`.
#[repr(C)]
struct ShmInfo {
    used_ids: libc::c_int,
    shm_tot: libc::c_ulong,
    shm_rss: libc::c_ulong,
    shm_swp: libc::c_ulong,
    swap_attempts: libc::c_ulong,
    swap_successes: libc::c_ulong,
}

/// The descriptor the message-queue view always has in the launcher (the
/// one after its socket; /dev/null while there is no view), so that the
/// descriptors a request brings never take its number.
pub(super) const MQUEUE: i32 = 4;

/// The launcher's current IPC namespace and its message-queue view.
pub(super) struct Ipc {
    /// [`MQUEUE`] holds a view of the namespace's `mqueue` file system.
    viewed: bool,
}

impl Ipc {
    /// A fresh namespace for the launcher (its programs inherit it);
    /// the errno when the kernel refuses. Standard input must be
    /// /dev/null, and [`MQUEUE`] free.
    pub(super) fn fresh() -> Result<Ipc, i32> {
        // SAFETY: a plain system call: MQUEUE taken, for good.
        if unsafe { libc::dup3(0, MQUEUE, libc::O_CLOEXEC) } != MQUEUE {
            return Err(super::errno());
        }
        let mut ipc = Ipc { viewed: false };
        ipc.renew()?;
        Ok(ipc)
    }

    /// Replace the namespace with a fresh one.
    pub(super) fn renew(&mut self) -> Result<(), i32> {
        // SAFETY: plain system calls on this process's descriptors; dup3
        // replaces MQUEUE in one step, so no other descriptor can take
        // its number meanwhile.
        unsafe {
            if libc::unshare(libc::CLONE_NEWIPC) != 0 {
                return Err(super::errno());
            }
            let view = mqueue_view();
            self.viewed = view >= 0 && libc::dup3(view, MQUEUE, libc::O_CLOEXEC) == MQUEUE;
            if view >= 0 {
                libc::close(view);
            }
            if !self.viewed {
                libc::dup3(0, MQUEUE, libc::O_CLOEXEC);
            }
        }
        Ok(())
    }

    /// Whether a program could find anything in the namespace: any
    /// System V object or message queue. True when it cannot tell.
    pub(super) fn used(&self) -> bool {
        // SAFETY: the *_INFO commands fill the structures given.
        unsafe {
            let mut shm = MaybeUninit::<ShmInfo>::zeroed();
            if libc::shmctl(0, SHM_INFO, shm.as_mut_ptr().cast()) < 0
                || shm.assume_init_ref().used_ids != 0
            {
                return true;
            }
            let mut sem = MaybeUninit::<libc::seminfo>::zeroed();
            if libc::semctl(0, 0, libc::SEM_INFO, sem.as_mut_ptr()) < 0
                || sem.assume_init_ref().semusz != 0
            {
                return true;
            }
            let mut msg = MaybeUninit::<libc::msginfo>::zeroed();
            if libc::msgctl(0, libc::MSG_INFO, msg.as_mut_ptr().cast()) < 0
                || msg.assume_init_ref().msgpool != 0
            {
                return true;
            }
            !self.viewed || !directory_is_empty(MQUEUE)
        }
    }
}

/// A directory descriptor on the current IPC namespace's `mqueue` file
/// system, mounted nowhere; -1 when it cannot be made.
unsafe fn mqueue_view() -> i32 {
    // SAFETY: the new mount API's calls on descriptors this function owns.
    unsafe {
        let context = libc::syscall(
            libc::SYS_fsopen,
            c"mqueue".as_ptr(),
            1u32, /* FSOPEN_CLOEXEC */
        ) as i32;
        if context < 0 {
            return -1;
        }
        let created = libc::syscall(
            libc::SYS_fsconfig,
            context,
            FSCONFIG_CMD_CREATE,
            std::ptr::null::<libc::c_char>(),
            std::ptr::null::<libc::c_void>(),
            0,
        ) == 0;
        let mount = if created {
            libc::syscall(libc::SYS_fsmount, context, FSMOUNT_CLOEXEC, 0u32) as i32
        } else {
            -1
        };
        libc::close(context);
        if mount < 0 {
            return -1;
        }
        let dir = libc::openat(
            mount,
            c".".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        libc::close(mount);
        dir
    }
}

/// Whether a directory holds nothing but `.` and `..`; false when it
/// cannot be read.
unsafe fn directory_is_empty(dir: i32) -> bool {
    // SAFETY: getdents64 into a stack buffer of the size given; the
    // records it returns lie within the bytes it reports.
    unsafe {
        if libc::lseek(dir, 0, libc::SEEK_SET) != 0 {
            return false;
        }
        let mut buffer = [0u64; 128];
        loop {
            let n = libc::syscall(
                libc::SYS_getdents64,
                dir,
                buffer.as_mut_ptr(),
                std::mem::size_of_val(&buffer),
            );
            if n < 0 {
                return false;
            }
            if n == 0 {
                return true;
            }
            let bytes = buffer.as_ptr().cast::<u8>();
            let mut at = 0usize;
            while at < n as usize {
                // struct linux_dirent64: d_ino u64, d_off i64, d_reclen u16,
                // d_type u8, then the name.
                let record = bytes.add(at);
                let length = record.add(16).cast::<u16>().read_unaligned() as usize;
                let name = std::ffi::CStr::from_ptr(record.add(19).cast());
                if name != c"." && name != c".." {
                    return false;
                }
                if length == 0 {
                    return false;
                }
                at += length;
            }
            // The kernel fills the buffer with whole records while the next
            // fits (a record is at most 280 bytes): a read this short was
            // the last, and the usual check is one read, not two.
            if n as usize + 512 <= std::mem::size_of_val(&buffer) {
                return true;
            }
        }
    }
}
