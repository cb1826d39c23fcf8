//! The launcher process's side (see the parent module): set itself up
//! inside the slot's namespaces, then start one program per request.
//!
//! It is a forked copy of a multi-threaded process, for its whole life:
//! system calls on buffers allocated before the fork, nothing else (no
//! allocation, no locks, no formatting).

use super::errno;
use super::ipc::{Ipc, MQUEUE};
use super::request::{self, Decoded, FDS_MAX};
use crate::exec::sandbox::child::{Restrictions, join_cgroups};
use crate::exec::spawn::close_from;
use std::ffi::c_char;

/// Buffers allocated before the fork.
pub(super) struct Buffers {
    pub(super) request: Vec<u8>,
    pub(super) pointers: Vec<*const c_char>,
    pub(super) stack: Vec<u8>,
}

/// What the launcher needs to set itself up.
pub(super) struct Setup<'a> {
    /// Its end of the socket.
    pub(super) socket: i32,
    /// The slot's namespaces, user namespace first.
    pub(super) namespaces: &'a [(i32, i32)],
    pub(super) pid_namespace: i32,
    pub(super) seccomp: bool,
    /// Its memory rule too (`seccomp::install_memory_rule`).
    pub(super) no_memfd: bool,
    /// The CPUs its programs get back before exec when the launcher is
    /// placed on one core (see `exec::affinity`).
    pub(super) children_cpus: Option<rustix::thread::CpuSet>,
    /// The judge's pid, its parent: if that is no longer its parent once
    /// its parent-death signal is set, the judge died before, and it exits.
    pub(super) judge: i32,
}

/// Steps of the launcher's own setup, to say which one failed (the
/// number it reports before it exits).
pub(super) const SETUP_STAGES: [&str; 6] = [
    "moving its socket",
    "entering the slot's namespaces",
    "entering the slot's PID namespace",
    "/dev/null as its standard streams",
    "the seccomp filter",
    "a fresh IPC namespace",
];

/// Steps of starting one program, as the reply names them.
pub(super) const STAGES: [&str; 7] = [
    "moving the standard streams",
    "chdir",
    "the sandbox setup",
    "exec",
    "clone",
    "a fresh IPC namespace",
    "a malformed request",
];
const STAGE_CLONE: i32 = 4;
const STAGE_IPC: i32 = 5;
const STAGE_REQUEST: i32 = 6;

/// The launcher's socket once it is set up.
const SOCKET: i32 = 3;

/// The launcher: never returns.
pub(super) fn serve(setup: &Setup<'_>, buffers: &mut Buffers) -> ! {
    // SAFETY: system calls on prepared data; see the module doc.
    unsafe {
        let ready = |socket: i32, stage: i32, errno: i32| {
            let mut bytes = [0u8; 8];
            bytes[..4].copy_from_slice(&stage.to_ne_bytes());
            bytes[4..].copy_from_slice(&errno.to_ne_bytes());
            libc::send(socket, bytes.as_ptr().cast(), 8, libc::MSG_NOSIGNAL);
        };
        let fail = |socket: i32, stage: i32| -> ! {
            ready(socket, stage, errno());
            libc::_exit(1)
        };
        // Every signal to its default, none blocked: the programs inherit
        // both (an ignored SIGPIPE, as the judge has it, would survive
        // their exec). Its own session (so its own process group, and no
        // controlling terminal), so that the terminal's Ctrl-C reaches the
        // judge, not it; dead with the judge.
        for sig in 1..libc::SIGRTMAX() {
            if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::setsid();
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        if libc::getppid() != setup.judge {
            libc::_exit(1);
        }
        let high = libc::fcntl(setup.socket, libc::F_DUPFD_CLOEXEC, 100);
        if high < 0 {
            fail(setup.socket, 0);
        }
        for &(fd, kind) in setup.namespaces {
            if libc::setns(fd, kind) != 0 {
                fail(high, 1);
            }
        }
        libc::chdir(c"/".as_ptr());
        // Its children start in the slot's PID namespace; it stays outside.
        if libc::setns(setup.pid_namespace, libc::CLONE_NEWPID) != 0 {
            fail(high, 2);
        }
        // Standard streams on /dev/null (the judge's are none of its
        // business), its socket as 3, nothing else open.
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null < 0 {
            fail(high, 3);
        }
        for target in 0..3 {
            if null != target && libc::dup2(null, target) < 0 {
                fail(high, 3);
            }
        }
        if libc::dup3(high, SOCKET, libc::O_CLOEXEC) < 0 {
            fail(high, 0);
        }
        close_from(SOCKET + 1);
        // Nothing reads its memory through /proc (no one else can name
        // it either: see the module doc of `launcher`).
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        // The filter the programs get, installed once here: they inherit
        // it (a sequence of `socket` calls it never makes, and `send` and
        // `recv` on a socket it already has, are all it needs).
        if setup.seccomp
            && (libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || crate::exec::sandbox::seccomp::install().is_err())
        {
            fail(SOCKET, 4);
        }
        if setup.no_memfd && crate::exec::sandbox::seccomp::install_memory_rule().is_err() {
            fail(SOCKET, 4);
        }
        let Ok(ipc) = Ipc::fresh() else {
            fail(SOCKET, 5)
        };
        ready(SOCKET, -1, 0);
        serve_requests(buffers, ipc, setup.children_cpus.as_ref())
    }
}

/// One program per request, until the judge closes its end.
fn serve_requests(
    buffers: &mut Buffers,
    mut ipc: Ipc,
    children_cpus: Option<&rustix::thread::CpuSet>,
) -> ! {
    // A fresh namespace was asked for and not yet made (a renewal that
    // failed is tried again before the next program).
    let mut must_renew = false;
    loop {
        let mut fds = [-1i32; FDS_MAX];
        // SAFETY: receives into buffers of the sizes given.
        let (n, nfds) = unsafe { receive(&mut buffers.request, &mut fds) };
        if n == 0 {
            // SAFETY: the judge is gone: so is the launcher.
            unsafe { libc::_exit(0) };
        }
        let close = |fds: &[i32]| {
            for &fd in fds {
                // SAFETY: descriptors this process received.
                unsafe { libc::close(fd) };
            }
        };
        if n < 0 {
            close(&fds[..nfds]);
            reply(0, STAGE_REQUEST, libc::EMSGSIZE);
            continue;
        }
        let Some(decoded) = request::decode(&buffers.request[..n as usize], &mut buffers.pointers)
            .filter(|d| d.cgroup_fds + 3 == nfds)
        else {
            close(&fds[..nfds]);
            reply(0, STAGE_REQUEST, libc::EINVAL);
            continue;
        };
        // The slot's last run has ended with all its processes (else the
        // judge asks for a fresh namespace): what it left in the IPC
        // namespace stays as it is, so a used one is replaced.
        must_renew |= decoded.fresh_ipc;
        if must_renew || ipc.used() {
            if let Err(error) = ipc.renew() {
                close(&fds[..nfds]);
                reply(0, STAGE_IPC, error);
                continue;
            }
            must_renew = false;
        }
        let mut job = Job {
            request: &decoded,
            cpus: children_cpus.filter(|_| !decoded.keep_cpus),
            fds,
            failed_stage: -1,
            errno: 0,
        };
        let stack = &mut buffers.stack;
        // SAFETY: the child runs `launched` on its own stack, sharing this
        // process's memory until it execs or exits (CLONE_VFORK suspends
        // this process until then); it is the judge's child (CLONE_PARENT),
        // born in the slot's PID namespace.
        let pid = unsafe {
            let top = stack.as_mut_ptr().add(stack.len());
            let top = (top as usize & !15) as *mut libc::c_void;
            libc::clone(
                launched,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::SIGCHLD,
                (&mut job as *mut Job).cast(),
            )
        };
        if pid < 0 {
            reply(0, STAGE_CLONE, errno());
        } else {
            reply(pid, job.failed_stage, job.errno);
        }
        // The received descriptors are all it holds above its socket and
        // its message-queue view.
        // SAFETY: the launcher owns every descriptor above MQUEUE.
        unsafe { close_from(MQUEUE + 1) };
    }
}

/// Receive one request and its descriptors: (bytes, descriptors); 0 bytes
/// when the judge closed its end, -1 for a request cut short.
unsafe fn receive(buffer: &mut [u8], fds: &mut [i32; FDS_MAX]) -> (isize, usize) {
    // SAFETY: recvmsg into the buffers described, whose sizes are given.
    unsafe {
        let mut control = [0u64; (FDS_MAX * 4 + 64) / 8];
        loop {
            let mut iov = libc::iovec {
                iov_base: buffer.as_mut_ptr().cast(),
                iov_len: buffer.len(),
            };
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = std::mem::size_of_val(&control);
            let n = libc::recvmsg(SOCKET, &mut msg, libc::MSG_CMSG_CLOEXEC);
            if n < 0 && errno() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                return (0, 0);
            }
            let mut count = 0;
            let mut header = libc::CMSG_FIRSTHDR(&msg);
            while !header.is_null() {
                if (*header).cmsg_level == libc::SOL_SOCKET
                    && (*header).cmsg_type == libc::SCM_RIGHTS
                {
                    let data = libc::CMSG_DATA(header).cast::<i32>();
                    let bytes = (*header).cmsg_len as usize - (data as usize - header as usize);
                    for i in 0..bytes / 4 {
                        let fd = data.add(i).read_unaligned();
                        if count < FDS_MAX {
                            fds[count] = fd;
                            count += 1;
                        } else {
                            libc::close(fd);
                        }
                    }
                }
                header = libc::CMSG_NXTHDR(&msg, header);
            }
            let cut = msg.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0;
            return (if cut { -1 } else { n }, count);
        }
    }
}

/// Tell the judge what became of a request: the program's pid (0 when
/// none was started), the stage that failed (-1: none) and its errno.
fn reply(pid: i32, stage: i32, errno: i32) {
    let mut bytes = [0u8; 12];
    bytes[..4].copy_from_slice(&pid.to_ne_bytes());
    bytes[4..8].copy_from_slice(&stage.to_ne_bytes());
    bytes[8..].copy_from_slice(&errno.to_ne_bytes());
    // SAFETY: a send of a stack buffer on the launcher's socket.
    unsafe { libc::send(SOCKET, bytes.as_ptr().cast(), 12, libc::MSG_NOSIGNAL) };
}

/// One program's start, shared with its child until exec.
#[repr(C)]
struct Job<'a> {
    request: &'a Decoded,
    /// The CPUs the program runs on (the launcher's own are one core).
    cpus: Option<&'a rustix::thread::CpuSet>,
    /// Standard input, output and error, then the cgroups to join.
    fds: [i32; FDS_MAX],
    failed_stage: i32,
    errno: i32,
}

extern "C" fn launched(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Job` of the suspended launcher (CLONE_VFORK).
    let job = unsafe { &mut *(arg as *mut Job) };
    // SAFETY: system calls on the request's data, ending in exec or _exit.
    unsafe {
        let fail = |job: &mut Job, stage: i32| -> ! {
            job.failed_stage = stage;
            job.errno = errno();
            libc::_exit(127)
        };
        let r = job.request;
        crate::exec::affinity::restore(job.cpus);
        // The received descriptors are above the launcher's 0 to 3.
        for target in 0..3 {
            if libc::dup2(job.fds[target], target as i32) < 0 {
                fail(job, 0);
            }
        }
        if libc::chdir(r.cwd) != 0 {
            fail(job, 1);
        }
        // The IPC namespace is the launcher's, checked before this clone;
        // the seccomp filter is the launcher's too: both inherited.
        let restrictions = Restrictions {
            rlimits: &r.rlimits[..r.rlimit_count],
            user: r.user,
            no_new_privs: r.no_new_privs,
            seccomp: false,
            no_memfd: false,
            keep_capabilities: None,
            tool_rule: false,
            own_ipc_namespace: false,
            // Its own, rooted in the run's cgroups it has just joined.
            own_cgroup_namespace: true,
        };
        if join_cgroups(&job.fds[3..3 + r.cgroup_fds]).is_err() || restrictions.apply().is_err() {
            fail(job, 2);
        }
        // Nothing of the launcher's reaches the program: its socket and
        // the received descriptors (all close-on-exec) closed outright.
        close_from(3);
        libc::execve(r.program, r.argv, r.envp);
        fail(job, 3)
    }
}
