//! A seccomp filter for untrusted programs: sockets of the Internet
//! families only, no kernel keyring, no io_uring.
//!
//! A network namespace cuts every network and every abstract Unix socket,
//! but a socket bound to a path (`/tmp/…/sock`, `/run/…`) is a file, and
//! `connect()` reaches it through any mount, read-only or not; and some
//! families are not the network namespace's at all (`AF_VSOCK` reaches the
//! host's hypervisor side). So `socket()` is an allowlist: `AF_INET`,
//! `AF_INET6` (a loopback, down, in the namespace) and `AF_NETLINK`
//! (runtimes ask it for the interfaces); every other family (`AF_UNIX`,
//! `AF_VSOCK`, `AF_PACKET`, `AF_ALG`, `AF_KEY`, …) fails with EACCES.
//! `socketpair(AF_UNIX, …)` (a private pair, nothing to reach) stays
//! allowed, other families of it are refused the same way.
//!
//! The kernel keyring (`add_key`, `request_key`, `keyctl`) is refused with
//! EPERM, as Docker's default profile does: keys are kept per user, and a
//! slot's user is the same from one case to the next, so a key would be a
//! channel between cases. `io_uring_setup`, `io_uring_enter` and
//! `io_uring_register` fail with ENOSYS (a kernel without io_uring, which
//! runtimes fall back from): an io_uring makes its sockets and opens its
//! files without the system calls this filter sees.
//!
//! The filter also refuses the x32 system-call ABI and, on x86_64, the i386
//! `socketcall` multiplexer (whose arguments a filter cannot read), so the
//! rules cannot be sidestepped by another calling convention; the 32-bit
//! numbers of every refused call are refused too.
//!
//! The program is a static array, assembled at compile time: installing it
//! in the child (between fork and exec) allocates nothing.

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

const ALLOW: Instruction = stmt(BPF_RET_K, SECCOMP_RET_ALLOW);

const fn ret(errno: i32) -> Instruction {
    stmt(BPF_RET_K, SECCOMP_RET_ERRNO | errno as u32)
}

#[cfg(target_arch = "x86_64")]
mod arch {
    /// AUDIT_ARCH_X86_64 and AUDIT_ARCH_I386.
    pub const NATIVE: u32 = 0xc000_003e;
    pub const COMPAT: u32 = 0x4000_0003;
    pub const COMPAT_SOCKET: u32 = 359;
    pub const COMPAT_SOCKETPAIR: u32 = 360;
    pub const COMPAT_SOCKETCALL: u32 = 102;
    /// i386 `add_key`, `request_key`, `keyctl`.
    pub const COMPAT_KEYRING: [u32; 3] = [286, 287, 288];
    /// System calls at or above this number are the x32 ABI's.
    pub const X32_BIT: u32 = 0x4000_0000;
}

#[cfg(target_arch = "aarch64")]
mod arch {
    /// AUDIT_ARCH_AARCH64 and AUDIT_ARCH_ARM.
    pub const NATIVE: u32 = 0xc000_00b7;
    pub const COMPAT: u32 = 0x4000_0028;
    pub const COMPAT_SOCKET: u32 = 281;
    pub const COMPAT_SOCKETPAIR: u32 = 288;
    /// 32-bit ARM has no socketcall multiplexer: a number no call has.
    pub const COMPAT_SOCKETCALL: u32 = u32::MAX;
    /// 32-bit ARM `add_key`, `request_key`, `keyctl`.
    pub const COMPAT_KEYRING: [u32; 3] = [309, 310, 311];
    /// No x32-like ABI: a number no call reaches.
    pub const X32_BIT: u32 = u32::MAX;
}

/// The io_uring calls have the same numbers in every ABI (425 to 427).
const IO_URING: [u32; 3] = [
    libc::SYS_io_uring_setup as u32,
    libc::SYS_io_uring_enter as u32,
    libc::SYS_io_uring_register as u32,
];
const KEYRING: [u32; 3] = [
    libc::SYS_add_key as u32,
    libc::SYS_request_key as u32,
    libc::SYS_keyctl as u32,
];
/// The socket families a program may create.
const FAMILIES: [u32; 3] = [
    libc::AF_INET as u32,
    libc::AF_INET6 as u32,
    libc::AF_NETLINK as u32,
];

// Where each block of the program starts.
const NATIVE_AT: usize = 4;
/// Load, x32 check, the refused calls, socket, socketpair, allow.
const NATIVE_LEN: usize = 2 + KEYRING.len() + IO_URING.len() + 3;
const COMPAT_AT: usize = NATIVE_AT + NATIVE_LEN;
/// Load, socketcall, the refused calls, socket, socketpair, allow.
const COMPAT_LEN: usize = 2 + arch::COMPAT_KEYRING.len() + IO_URING.len() + 3;
const SOCKET_AT: usize = COMPAT_AT + COMPAT_LEN;
/// Load the family, one test per allowed family, refuse.
const SOCKET_LEN: usize = 1 + FAMILIES.len() + 1;
const PAIR_AT: usize = SOCKET_AT + SOCKET_LEN;
const PAIR_LEN: usize = 3;
const ALLOW_AT: usize = PAIR_AT + PAIR_LEN;
const EPERM_AT: usize = ALLOW_AT + 1;
const ENOSYS_AT: usize = EPERM_AT + 1;
const EACCES_AT: usize = ENOSYS_AT + 1;
const LEN: usize = EACCES_AT + 1;

/// A jump at `at` to `target` when the accumulator equals `k` (else on).
const fn jeq_to(at: usize, k: u32, target: usize) -> Instruction {
    jump(BPF_JEQ_K, k, (target - at - 1) as u8, 0)
}

/// The refused calls of one ABI, written from `at`: the next position.
const fn refuse(f: &mut [Instruction; LEN], mut at: usize, keyring: [u32; 3]) -> usize {
    let mut i = 0;
    while i < keyring.len() {
        f[at] = jeq_to(at, keyring[i], EPERM_AT);
        at += 1;
        i += 1;
    }
    let mut i = 0;
    while i < IO_URING.len() {
        f[at] = jeq_to(at, IO_URING[i], ENOSYS_AT);
        at += 1;
        i += 1;
    }
    at
}

const fn assemble() -> [Instruction; LEN] {
    let mut f = [ALLOW; LEN];
    // Which calling convention? An unknown ABI: refuse everything.
    f[0] = stmt(BPF_LD_W_ABS, ARCH);
    f[1] = jeq_to(1, arch::NATIVE, NATIVE_AT);
    f[2] = jeq_to(2, arch::COMPAT, COMPAT_AT);
    f[3] = ret(libc::EACCES);
    // Native: the x32 range refused, then the refused calls.
    let mut at = NATIVE_AT;
    f[at] = stmt(BPF_LD_W_ABS, NR);
    f[at + 1] = jump(BPF_JGE_K, arch::X32_BIT, (EACCES_AT - at - 2) as u8, 0);
    at = refuse(&mut f, at + 2, KEYRING);
    f[at] = jeq_to(at, libc::SYS_socket as u32, SOCKET_AT);
    f[at + 1] = jeq_to(at + 1, libc::SYS_socketpair as u32, PAIR_AT);
    f[at + 2] = ALLOW;
    // Compat (32-bit): socketcall refused, then as native.
    at = COMPAT_AT;
    f[at] = stmt(BPF_LD_W_ABS, NR);
    f[at + 1] = jeq_to(at + 1, arch::COMPAT_SOCKETCALL, EACCES_AT);
    at = refuse(&mut f, at + 2, arch::COMPAT_KEYRING);
    f[at] = jeq_to(at, arch::COMPAT_SOCKET, SOCKET_AT);
    f[at + 1] = jeq_to(at + 1, arch::COMPAT_SOCKETPAIR, PAIR_AT);
    f[at + 2] = ALLOW;
    // socket(): the allowed families only.
    at = SOCKET_AT;
    f[at] = stmt(BPF_LD_W_ABS, ARG0_LOW);
    let mut i = 0;
    while i < FAMILIES.len() {
        f[at + 1 + i] = jeq_to(at + 1 + i, FAMILIES[i], ALLOW_AT);
        i += 1;
    }
    f[at + 1 + FAMILIES.len()] = ret(libc::EACCES);
    // socketpair(): Unix pairs only.
    at = PAIR_AT;
    f[at] = stmt(BPF_LD_W_ABS, ARG0_LOW);
    f[at + 1] = jeq_to(at + 1, libc::AF_UNIX as u32, ALLOW_AT);
    f[at + 2] = ret(libc::EACCES);
    f[ALLOW_AT] = ALLOW;
    f[EPERM_AT] = ret(libc::EPERM);
    f[ENOSYS_AT] = ret(libc::ENOSYS);
    f[EACCES_AT] = ret(libc::EACCES);
    f
}

static FILTER: [Instruction; LEN] = assemble();

/// Install the filter in the calling (child) process. Needs
/// `PR_SET_NO_NEW_PRIVS` first unless the caller is root. System calls
/// only: safe between fork and exec.
///
/// # Safety
/// Call only in a child about to exec: the filter applies to every later
/// system call of the process.
pub unsafe fn install() -> std::io::Result<()> {
    // SAFETY: as this function's own contract.
    unsafe { rules::install_stacked(&FILTER) }
}

/// What the probe's child checks once the filter is installed, in order:
/// each failure is its own exit code (5 and up), named by `RULES`.
const RULES: [&str; 6] = [
    "refuse a Unix socket",
    "refuse a vsock socket",
    "allow an Internet socket",
    "allow a Unix socket pair",
    "refuse the kernel keyring",
    "refuse io_uring",
];

/// In the probe's child, with the filter installed: the first rule of
/// `RULES` the filter breaks, if any. System calls only.
unsafe fn broken_rule() -> Option<usize> {
    // SAFETY: plain system calls with valid pointers; the child exits next.
    unsafe {
        // Each call's result and errno, taken at once.
        let outcome = |r: libc::c_long| (r, *libc::__errno_location());
        let refused = |(r, errno): (libc::c_long, i32), expected: i32| r < 0 && errno == expected;
        let socket = |family| outcome(libc::socket(family, libc::SOCK_STREAM, 0).into());
        let mut fds = [0; 2];
        let held = [
            refused(socket(libc::AF_UNIX), libc::EACCES),
            refused(socket(libc::AF_VSOCK), libc::EACCES),
            socket(libc::AF_INET).0 >= 0,
            libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) == 0,
            refused(
                outcome(libc::syscall(
                    libc::SYS_add_key,
                    c"user".as_ptr(),
                    c"judge-probe".as_ptr(),
                    c"x".as_ptr(),
                    1usize,
                    -2i32, // KEY_SPEC_PROCESS_KEYRING: gone with this child
                )),
                libc::EPERM,
            ),
            refused(
                // struct io_uring_params: 120 bytes.
                outcome(libc::syscall(
                    libc::SYS_io_uring_setup,
                    1u32,
                    [0u32; 30].as_mut_ptr(),
                )),
                libc::ENOSYS,
            ),
        ];
        held.iter().position(|held| !held)
    }
}

/// Why the filter is not used here.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("fork: {0}")]
    Fork(#[source] std::io::Error),
    #[error("waitpid: {0}")]
    Wait(#[source] std::io::Error),
    #[error("PR_SET_NO_NEW_PRIVS refused")]
    NoNewPrivs,
    #[error("the kernel refused the seccomp filter")]
    Refused,
    /// A rule the filter should hold, which the probe found broken.
    #[error("the seccomp filter did not {0}")]
    RuleBroken(&'static str),
    #[error("the seccomp probe ended with status {0}")]
    Status(i32),
}

/// Whether the filter can be installed here and does what it says: a
/// forked child installs it and must then be refused a Unix and a vsock
/// socket, the keyring and io_uring, and allowed an Internet socket and
/// a Unix socket pair. Run once per sandbox.
pub fn probe() -> Result<(), ProbeError> {
    // SAFETY: the child makes system calls only and ends with `_exit`.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return Err(ProbeError::Fork(std::io::Error::last_os_error()));
        }
        if pid == 0 {
            let code = if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                2
            } else if install().is_err() {
                3
            } else {
                broken_rule().map_or(0, |rule| 5 + rule as i32)
            };
            libc::_exit(code);
        }
        let mut status = 0;
        if libc::waitpid(pid, &mut status, 0) != pid {
            return Err(ProbeError::Wait(std::io::Error::last_os_error()));
        }
        match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
            (true, 0) => Ok(()),
            (true, 2) => Err(ProbeError::NoNewPrivs),
            (true, 3) => Err(ProbeError::Refused),
            (true, code) if (5..5 + RULES.len() as i32).contains(&code) => {
                Err(ProbeError::RuleBroken(RULES[(code - 5) as usize]))
            }
            _ => Err(ProbeError::Status(status)),
        }
    }
}

mod rules;
pub use rules::{install_memory_rule, install_tool_rule};

#[cfg(test)]
mod tests {
    #[test]
    fn the_filter_allows_internet_sockets_and_refuses_the_rest_the_keyring_and_io_uring() {
        assert_eq!(super::probe().map_err(|e| e.to_string()), Ok(()));
    }
}
