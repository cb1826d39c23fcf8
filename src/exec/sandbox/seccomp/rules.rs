//! Rules stacked on the filter (see the parent module): each refuses a
//! fixed list of system calls with EPERM, on or off as a whole.
//!
//! - The memory rule, when no memory cgroup counts a run's memory. Then
//!   the memory limit is the address space of each process (RLIMIT_AS),
//!   and a `memfd` is memory that no address space holds once unmapped:
//!   sixteen of 60 MiB, each filled through a mapping and unmapped, pass a
//!   64 MiB limit. So `memfd_create` (and `memfd_secret`) are refused.
//! - The tool rule, for the package's own programs (checkers, validators,
//!   interactors, generators: see `slot`), which run with the judge's uid:
//!   no `ptrace`, no reading or writing another process's memory
//!   (`process_vm_readv`/`writev`), no taking another process's
//!   descriptor (`pidfd_getfd`), no `open_by_handle_at` (which, with the
//!   capability to read any file root's programs keep, opens a file by its
//!   handle outside every mount: a way out of the mount namespace).
//!
//! Each is a static program assembled at compile time by [`refusal`]:
//! installing it allocates nothing.

use super::{ALLOW, BPF_JEQ_K, BPF_LD_W_ABS, BPF_RET_K, Instruction, Program, jump, stmt};

const REFUSE: Instruction = stmt(BPF_RET_K, super::SECCOMP_RET_ERRNO | libc::EPERM as u32);

/// A filter of `N` = 2K + 8 instructions refusing `native` calls in the
/// native ABI and `compat` calls in the 32-bit one (any other ABI is the
/// main filter's to refuse).
const fn refusal<const K: usize, const N: usize>(
    native: [u32; K],
    compat: [u32; K],
) -> [Instruction; N] {
    assert!(N == 2 * K + 8 && K < 100);
    let mut f = [ALLOW; N];
    f[0] = stmt(BPF_LD_W_ABS, super::ARCH);
    // Not native: to the compat check at 4 + K.
    f[1] = jump(BPF_JEQ_K, super::arch::NATIVE, 0, (K + 2) as u8);
    f[2] = stmt(BPF_LD_W_ABS, super::NR);
    let mut j = 0;
    while j < K {
        // To REFUSE at N - 1.
        f[3 + j] = jump(BPF_JEQ_K, native[j], (2 * K + 3 - j) as u8, 0);
        j += 1;
    }
    f[3 + K] = ALLOW;
    // Not compat: to ALLOW at 6 + 2K.
    f[4 + K] = jump(BPF_JEQ_K, super::arch::COMPAT, 0, (K + 1) as u8);
    f[5 + K] = stmt(BPF_LD_W_ABS, super::NR);
    let mut j = 0;
    while j < K {
        f[6 + K + j] = jump(BPF_JEQ_K, compat[j], (K - j) as u8, 0);
        j += 1;
    }
    f[6 + 2 * K] = ALLOW;
    f[7 + 2 * K] = REFUSE;
    f
}

/// `memfd_secret`: the same number wherever it exists (none on 32-bit
/// ARM, where the number is unused).
const MEMFD_SECRET: u32 = 447;
/// `pidfd_getfd`: the same number in every ABI.
const PIDFD_GETFD: u32 = 438;

#[cfg(target_arch = "x86_64")]
mod compat {
    pub const MEMFD_CREATE: u32 = 356;
    pub const PTRACE: u32 = 26;
    pub const PROCESS_VM_READV: u32 = 347;
    pub const PROCESS_VM_WRITEV: u32 = 348;
    pub const OPEN_BY_HANDLE_AT: u32 = 342;
}

#[cfg(target_arch = "aarch64")]
mod compat {
    pub const MEMFD_CREATE: u32 = 385;
    pub const PTRACE: u32 = 26;
    pub const PROCESS_VM_READV: u32 = 376;
    pub const PROCESS_VM_WRITEV: u32 = 377;
    pub const OPEN_BY_HANDLE_AT: u32 = 371;
}

static MEMORY_RULE: [Instruction; 12] = refusal(
    [libc::SYS_memfd_create as u32, MEMFD_SECRET],
    [compat::MEMFD_CREATE, MEMFD_SECRET],
);

static TOOL_RULE: [Instruction; 18] = refusal(
    [
        libc::SYS_ptrace as u32,
        libc::SYS_process_vm_readv as u32,
        libc::SYS_process_vm_writev as u32,
        libc::SYS_open_by_handle_at as u32,
        PIDFD_GETFD,
    ],
    [
        compat::PTRACE,
        compat::PROCESS_VM_READV,
        compat::PROCESS_VM_WRITEV,
        compat::OPEN_BY_HANDLE_AT,
        PIDFD_GETFD,
    ],
);

/// Install a filter in the calling process (the main one, or one stacked
/// on it).
///
/// # Safety
/// Only in a child about to exec, or a launcher whose children are to
/// inherit it; after `PR_SET_NO_NEW_PRIVS` unless the caller is root.
pub(super) unsafe fn install_stacked(filter: &'static [Instruction]) -> std::io::Result<()> {
    let program = Program {
        len: filter.len() as u16,
        filter: filter.as_ptr(),
    };
    // SAFETY: `program` points at a valid filter for the call's duration.
    let r = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &program as *const Program,
            0,
            0,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Install the memory rule in the calling process, after the filter.
///
/// # Safety
/// As the filter's `install`: only in a child about to exec, or a launcher
/// whose children are to inherit it.
pub unsafe fn install_memory_rule() -> std::io::Result<()> {
    // SAFETY: as this function's own contract.
    unsafe { install_stacked(&MEMORY_RULE) }
}

/// Install the tool rule in the calling process, after the filter.
///
/// # Safety
/// As [`install_memory_rule`].
pub unsafe fn install_tool_rule() -> std::io::Result<()> {
    // SAFETY: as this function's own contract.
    unsafe { install_stacked(&TOOL_RULE) }
}

#[cfg(test)]
mod tests {
    /// In a forked child with `install` applied: whether `refused` is
    /// refused with EPERM and `allowed` is not.
    fn in_child(install: unsafe fn() -> std::io::Result<()>, probe: fn() -> bool) {
        // SAFETY: the child makes system calls only and ends with `_exit`.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                let code = if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                    || install().is_err()
                {
                    2
                } else if probe() {
                    0
                } else {
                    3
                };
                libc::_exit(code);
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
            assert!(libc::WIFEXITED(status));
            assert_eq!(
                libc::WEXITSTATUS(status),
                0,
                "2: not installed, 3: not refused or too much refused"
            );
        }
    }

    fn eperm(r: libc::c_long) -> bool {
        // SAFETY: reading this thread's errno.
        r < 0 && unsafe { *libc::__errno_location() } == libc::EPERM
    }

    /// `memfd_create` is refused, other calls (a pipe) are not.
    #[test]
    fn the_memory_rule_refuses_memfd_create_and_only_it() {
        in_child(super::install_memory_rule, || {
            // SAFETY: plain system calls on local buffers.
            unsafe {
                let refused = eperm(libc::memfd_create(c"x".as_ptr(), 0).into());
                let mut fds = [0; 2];
                refused && libc::pipe(fds.as_mut_ptr()) == 0
            }
        });
    }

    /// `ptrace` (of our own parent), `process_vm_readv`, `pidfd_getfd` and
    /// `open_by_handle_at` are refused; `getppid` and `kill(self, 0)` are not.
    #[test]
    fn the_tool_rule_refuses_tracing_and_handles() {
        in_child(super::install_tool_rule, || {
            // SAFETY: plain system calls; nothing is read or written
            // through the refused ones, which fail before they start.
            unsafe {
                let parent = libc::getppid();
                let traced = eperm(libc::ptrace(libc::PTRACE_ATTACH, parent, 0, 0));
                let mut byte = 0u8;
                let local = libc::iovec {
                    iov_base: (&mut byte as *mut u8).cast(),
                    iov_len: 1,
                };
                let remote = libc::iovec {
                    iov_base: std::ptr::null_mut(),
                    iov_len: 1,
                };
                let read = eperm(libc::process_vm_readv(parent, &local, 1, &remote, 1, 0) as _);
                let fd = eperm(libc::syscall(
                    libc::c_long::from(super::PIDFD_GETFD),
                    -1,
                    0,
                    0,
                ));
                let handle = eperm(libc::syscall(
                    libc::SYS_open_by_handle_at,
                    -1,
                    std::ptr::null::<u8>(),
                    0,
                ));
                traced && read && fd && handle && libc::kill(libc::getpid(), 0) == 0
            }
        });
    }
}
