//! A seccomp filter for untrusted programs: no Unix-domain sockets.
//!
//! A network namespace cuts every network and every abstract Unix socket,
//! but a socket bound to a path (`/tmp/…/sock`, `/run/…`) is a file, and
//! `connect()` reaches it through any mount, read-only or not. A program
//! judged here has no use for one, so `socket(AF_UNIX, …)` fails with
//! EACCES; `socketpair` (a private pair, nothing to reach) stays allowed.
//! The filter also refuses the x32 system-call ABI and, on x86_64, the i386
//! `socketcall` multiplexer (whose arguments a filter cannot read), so the
//! rule cannot be sidestepped by another calling convention.
//!
//! The program is a static array: installing it in the child (between fork
//! and exec) allocates nothing.

/// `struct sock_filter`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Instruction {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

/// `struct sock_fprog`.
#[repr(C)]
struct Program {
    len: u16,
    filter: *const Instruction,
}

const BPF_LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const BPF_JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const BPF_RET_K: u16 = 0x06; // BPF_RET | BPF_K

const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;

/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;

const fn stmt(code: u16, k: u32) -> Instruction {
    Instruction {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

const fn jump(code: u16, k: u32, jt: u8, jf: u8) -> Instruction {
    Instruction { code, jt, jf, k }
}

const DENY: Instruction = stmt(BPF_RET_K, SECCOMP_RET_ERRNO | libc::EACCES as u32);
const ALLOW: Instruction = stmt(BPF_RET_K, SECCOMP_RET_ALLOW);

#[cfg(target_arch = "x86_64")]
mod arch {
    /// AUDIT_ARCH_X86_64 and AUDIT_ARCH_I386.
    pub const NATIVE: u32 = 0xc000_003e;
    pub const COMPAT: u32 = 0x4000_0003;
    pub const COMPAT_SOCKET: u32 = 359;
    pub const COMPAT_SOCKETCALL: u32 = 102;
    /// System calls at or above this number are the x32 ABI's.
    pub const X32_BIT: u32 = 0x4000_0000;
}

#[cfg(target_arch = "aarch64")]
mod arch {
    /// AUDIT_ARCH_AARCH64 and AUDIT_ARCH_ARM.
    pub const NATIVE: u32 = 0xc000_00b7;
    pub const COMPAT: u32 = 0x4000_0028;
    pub const COMPAT_SOCKET: u32 = 281;
    /// 32-bit ARM has no socketcall multiplexer: a number no call has.
    pub const COMPAT_SOCKETCALL: u32 = u32::MAX;
    /// No x32-like ABI: a number no call reaches.
    pub const X32_BIT: u32 = u32::MAX;
}

const SOCKET: u32 = libc::SYS_socket as u32;
const AF_UNIX: u32 = libc::AF_UNIX as u32;

static FILTER: [Instruction; 19] = [
    // 0: which calling convention?
    stmt(BPF_LD_W_ABS, ARCH),
    jump(BPF_JEQ_K, arch::NATIVE, 2, 0),
    jump(BPF_JEQ_K, arch::COMPAT, 9, 0),
    // 3: an unknown ABI: refuse everything.
    DENY,
    // 4: native: the x32 range is refused, socket(AF_UNIX) refused.
    stmt(BPF_LD_W_ABS, NR),
    jump(BPF_JGE_K, arch::X32_BIT, 0, 1),
    DENY,
    jump(BPF_JEQ_K, SOCKET, 0, 3),
    stmt(BPF_LD_W_ABS, ARG0_LOW),
    jump(BPF_JEQ_K, AF_UNIX, 0, 1),
    DENY,
    ALLOW,
    // 12: compat (32-bit): socketcall refused, socket(AF_UNIX) refused.
    stmt(BPF_LD_W_ABS, NR),
    jump(BPF_JEQ_K, arch::COMPAT_SOCKETCALL, 3, 0),
    jump(BPF_JEQ_K, arch::COMPAT_SOCKET, 0, 3),
    stmt(BPF_LD_W_ABS, ARG0_LOW),
    jump(BPF_JEQ_K, AF_UNIX, 0, 1),
    // 17, 18
    DENY,
    ALLOW,
];

/// Install the filter in the calling (child) process. Needs
/// `PR_SET_NO_NEW_PRIVS` first unless the caller is root. System calls
/// only: safe between fork and exec.
///
/// # Safety
/// Call only in a child about to exec: the filter applies to every later
/// system call of the process.
pub unsafe fn install() -> std::io::Result<()> {
    let program = Program {
        len: FILTER.len() as u16,
        filter: FILTER.as_ptr(),
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

/// Whether the filter can be installed here and does what it says: a
/// forked child installs it and must then be refused a Unix socket. Run
/// once per sandbox.
pub fn probe() -> Result<(), String> {
    // SAFETY: the child makes system calls only and ends with `_exit`.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return Err(format!("fork: {}", std::io::Error::last_os_error()));
        }
        if pid == 0 {
            let code = if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                2
            } else if install().is_err() {
                3
            } else {
                let fd = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                let refused = fd < 0 && *libc::__errno_location() == libc::EACCES;
                let pair_ok = {
                    let mut fds = [0; 2];
                    libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) == 0
                };
                if refused && pair_ok { 0 } else { 4 }
            };
            libc::_exit(code);
        }
        let mut status = 0;
        if libc::waitpid(pid, &mut status, 0) != pid {
            return Err(format!("waitpid: {}", std::io::Error::last_os_error()));
        }
        match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
            (true, 0) => Ok(()),
            (true, 2) => Err("PR_SET_NO_NEW_PRIVS refused".into()),
            (true, 3) => Err("the kernel refused the seccomp filter".into()),
            (true, 4) => Err("the seccomp filter did not refuse a Unix socket".into()),
            _ => Err(format!("the seccomp probe ended with status {status}")),
        }
    }
}

/// The memory rule: a second filter, stacked on [`install`]'s when no
/// memory cgroup counts a run's memory. Then the memory limit is the
/// address space of each process (RLIMIT_AS), and a `memfd` is memory
/// that no address space holds once unmapped: sixteen of 60 MiB, each
/// filled through a mapping and unmapped, pass a 64 MiB limit. So
/// `memfd_create` (and `memfd_secret`) fail with EPERM. Kept apart from
/// [`FILTER`] on purpose: one rule, on or off as a whole.
mod memory_rule {
    use super::{ALLOW, BPF_JEQ_K, BPF_LD_W_ABS, BPF_RET_K, Instruction, jump, stmt};

    #[cfg(target_arch = "x86_64")]
    const COMPAT_MEMFD_CREATE: u32 = 356;
    #[cfg(target_arch = "aarch64")]
    const COMPAT_MEMFD_CREATE: u32 = 385;
    /// `memfd_secret`: the same number wherever it exists (none on
    /// 32-bit ARM, where the number is unused).
    const MEMFD_SECRET: u32 = 447;
    const MEMFD_CREATE: u32 = libc::SYS_memfd_create as u32;
    const REFUSE: Instruction = stmt(BPF_RET_K, super::SECCOMP_RET_ERRNO | libc::EPERM as u32);

    pub(super) static FILTER: [Instruction; 12] = [
        stmt(BPF_LD_W_ABS, super::ARCH),
        jump(BPF_JEQ_K, super::arch::NATIVE, 0, 4),
        // 2: native.
        stmt(BPF_LD_W_ABS, super::NR),
        jump(BPF_JEQ_K, MEMFD_CREATE, 7, 0),
        jump(BPF_JEQ_K, MEMFD_SECRET, 6, 0),
        ALLOW,
        // 6: compat (any other ABI is the first filter's to refuse).
        jump(BPF_JEQ_K, super::arch::COMPAT, 0, 3),
        stmt(BPF_LD_W_ABS, super::NR),
        jump(BPF_JEQ_K, COMPAT_MEMFD_CREATE, 2, 0),
        jump(BPF_JEQ_K, MEMFD_SECRET, 1, 0),
        ALLOW,
        // 11
        REFUSE,
    ];
}

/// Install the memory rule (see [`memory_rule`]) in the calling process,
/// after [`install`] (and so after `PR_SET_NO_NEW_PRIVS`).
///
/// # Safety
/// As [`install`]: only in a child about to exec, or a launcher whose
/// children are to inherit it.
pub unsafe fn install_memory_rule() -> std::io::Result<()> {
    let program = Program {
        len: memory_rule::FILTER.len() as u16,
        filter: memory_rule::FILTER.as_ptr(),
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

#[cfg(test)]
mod memory_rule_tests {
    /// A forked child with the memory rule: `memfd_create` is refused,
    /// other calls (an anonymous mapping, a pipe) are not.
    #[test]
    fn the_memory_rule_refuses_memfd_create_and_only_it() {
        // SAFETY: the child makes system calls only and ends with `_exit`.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                let code = if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                    || super::install_memory_rule().is_err()
                {
                    2
                } else {
                    let fd = libc::memfd_create(c"x".as_ptr(), 0);
                    let refused = fd < 0 && *libc::__errno_location() == libc::EPERM;
                    let mut fds = [0; 2];
                    let pipe_ok = libc::pipe(fds.as_mut_ptr()) == 0;
                    if refused && pipe_ok { 0 } else { 3 }
                };
                libc::_exit(code);
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
            assert!(libc::WIFEXITED(status));
            assert_eq!(
                libc::WEXITSTATUS(status),
                0,
                "2: not installed, 3: not refused"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filter_refuses_unix_sockets_and_only_them() {
        assert_eq!(super::probe(), Ok(()));
    }
}
