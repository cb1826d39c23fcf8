//! A worker slot's launcher: a process that lives inside the slot's
//! namespaces (mount, network, IPC, UTS, and without root its user
//! namespace; its children start in the slot's PID namespace) and starts
//! each of the slot's programs, so that a case costs no `setns` (four in
//! the child and two around the clone before it) and, without root, no
//! fork of the whole judge.
//!
//! The judge sends a request per program over a private socket pair
//! (`SOCK_SEQPACKET`): the program, its arguments, environment, working
//! directory, limits and user, with its standard streams and the cgroup
//! files to join as descriptors. The launcher clones the program with
//! `CLONE_VM | CLONE_VFORK | CLONE_PARENT`: it is the judge's child as
//! always (reaped and measured by the judge, its parent-death signal tied
//! to the judge), born in the slot's PID namespace. The child joins the
//! run's cgroups, sets the limits, switches to the slot's user and execs,
//! as `ChildSetup` describes; the launcher replies with its pid (or the
//! stage that failed) once it has exec'd.
//!
//! Two protections are done once, off the path between one case and the
//! next: the seccomp filter is installed on the launcher (its children
//! inherit it), and so is the IPC namespace its programs start in, which
//! the launcher replaces before any case that would find something in it
//! (see `ipc`): no case sees what another left there.
//!
//! What can reach it: nothing a program holds. It is outside the slot's
//! PID namespace (a program cannot name it: not in its /proc, not its
//! parent, not reached by `kill(-1)`), in its own process group, not
//! dumpable; its socket is close-on-exec and every descriptor above 2 is
//! closed in the child before exec; as root it is root and the programs
//! are the slot's user. Only the judge holds the other end of the socket.
//! A slot without a PID namespace gets no launcher (a program could name
//! it there): its programs are started by the judge as before.
//!
//! It is forked from a thread of the judge's that lives as long as the
//! judge (a program's parent-death signal fires when the thread that is
//! its parent exits, and `CLONE_PARENT` makes that the launcher's parent).
//! It ends when the judge closes its end of the socket, or dies.

mod ipc;
mod request;
mod serve;

use super::namespaces::SlotNamespaces;
use crate::exec::affinity;
use crate::exec::sandbox::child::ChildSetup;
use crate::exec::spawn::{SpawnError, SpawnPlan, Streams};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Mutex;
use std::sync::mpsc;

/// The calling thread's errno, read without allocating (the launcher's
/// children and its loop, `serve.rs` and `ipc.rs`, report it as a number).
fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Why a slot's launcher did not start (its programs are then started by
/// the judge itself).
#[derive(Debug, thiserror::Error)]
pub enum LauncherError {
    #[error("the slot has no PID namespace")]
    NoPidNamespace,
    #[error("a socket pair: {0}")]
    SocketPair(#[source] std::io::Error),
    #[error("fork: {0}")]
    Fork(#[source] std::io::Error),
    /// The launcher's report: the step of its setup that failed.
    #[error("{stage}: {source}")]
    Stage {
        stage: &'static str,
        source: std::io::Error,
    },
    #[error("the launcher died before it was ready")]
    DiedBeforeReady,
    #[error("the launcher thread: {0}")]
    Thread(#[source] std::io::Error),
    #[error("no launcher thread")]
    NoThread,
    #[error("the launcher thread is gone")]
    ThreadGone,
}

/// The judge's side of a slot's launcher.
#[derive(Debug)]
pub struct Launcher {
    /// The judge's end of the socket pair; one request at a time.
    socket: Mutex<OwnedFd>,
    /// The launcher's pid, a child of the judge.
    pub pid: i32,
    /// The launcher has the seccomp filter its programs inherit.
    seccomp: bool,
    /// And its memory rule (no `memfd_create`).
    no_memfd: bool,
    /// The join descriptors of the slot's cgroups it lives in
    /// (`SlotCgroup::adopt`): its programs are born there and skip them.
    pub joined: Vec<i32>,
    /// It died: the slot's programs are started by the judge itself.
    dead: std::sync::atomic::AtomicBool,
    /// A run of the slot ended with a process the judge could not end: the
    /// next program starts in a fresh IPC namespace.
    unclean: std::sync::atomic::AtomicBool,
    /// The core it is placed on (`exec::affinity::follow`).
    core: std::sync::atomic::AtomicUsize,
}

impl Launcher {
    /// Start the launcher of a slot with a PID namespace.
    pub fn start(
        ns: &SlotNamespaces,
        seccomp: bool,
        no_memfd: bool,
    ) -> Result<Launcher, LauncherError> {
        // The CPUs its programs get back before exec: it may be placed on
        // one core, as the worker it serves (`exec::affinity`).
        let children_cpus = affinity::original().copied();
        let pid_namespace = ns
            .pid
            .as_ref()
            .ok_or(LauncherError::NoPidNamespace)?
            .fd
            .as_raw_fd();
        let (judge_end, launcher_end) = socket_pair().map_err(LauncherError::SocketPair)?;
        let namespaces: Vec<(i32, i32)> = ns
            .entries
            .iter()
            .map(|(fd, kind)| (fd.as_raw_fd(), *kind))
            .collect();
        let socket = launcher_end.as_raw_fd();
        let pid = on_lasting_thread(Box::new(move || {
            let mut buffers = serve::Buffers {
                request: vec![0u8; request::REQUEST_MAX],
                pointers: vec![std::ptr::null(); request::POINTERS_MAX],
                stack: vec![0u8; 128 * 1024],
            };
            // SAFETY: getpid cannot fail.
            let judge = unsafe { libc::getpid() };
            // SAFETY: the child runs `serve`: system calls on the buffers
            // allocated above, ending in `_exit`.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                serve::serve(
                    &serve::Setup {
                        socket,
                        namespaces: &namespaces,
                        pid_namespace,
                        seccomp,
                        no_memfd,
                        children_cpus,
                        judge,
                    },
                    &mut buffers,
                );
            }
            pid
        }))?;
        drop(launcher_end);
        if pid < 0 {
            return Err(LauncherError::Fork(std::io::Error::from_raw_os_error(-pid)));
        }
        let launcher = Launcher {
            socket: Mutex::new(judge_end),
            pid,
            seccomp,
            no_memfd,
            joined: Vec::new(),
            dead: std::sync::atomic::AtomicBool::new(false),
            unclean: std::sync::atomic::AtomicBool::new(false),
            core: std::sync::atomic::AtomicUsize::new(affinity::NOT_PLACED),
        };
        // Its report: a stage and an errno, stage -1 when it is ready.
        let socket = launcher.socket.lock().unwrap_or_else(|e| e.into_inner());
        let mut bytes = [0u8; 8];
        let got = receive(&socket, &mut bytes);
        drop(socket);
        let word =
            |i: usize| i32::from_ne_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        match (got, word(0)) {
            (8, -1) => Ok(launcher),
            (8, stage) => Err(LauncherError::Stage {
                stage: serve::SETUP_STAGES
                    .get(stage as usize)
                    .copied()
                    .unwrap_or("setting up"),
                source: std::io::Error::from_raw_os_error(word(4)),
            }),
            _ => Err(LauncherError::DiedBeforeReady),
        }
    }

    /// Start a program through the launcher: its pid once it has exec'd.
    /// `None` when the request is more than the launcher takes (very long
    /// arguments or environment) or asks for what it does not do: the
    /// caller starts the program itself.
    pub fn spawn(
        &self,
        plan: &SpawnPlan,
        streams: Streams,
        setup: &ChildSetup,
    ) -> Option<Result<i32, SpawnError>> {
        if setup.seccomp != self.seccomp
            || setup.no_memfd != self.no_memfd
            || !setup.own_ipc_namespace
            || self.dead.load(std::sync::atomic::Ordering::Relaxed)
        {
            return None;
        }
        affinity::follow(self.pid, &self.core);
        let (program, argv, envp, cwd) = plan.parts();
        // The streams, then the cgroups the program must join: those the
        // launcher is not in already.
        let mut fds = vec![streams.stdin, streams.stdout, streams.stderr];
        fds.extend(
            setup
                .cgroup_procs_fds
                .iter()
                .filter(|fd| !self.joined.contains(fd)),
        );
        let fresh_ipc = self.unclean.load(std::sync::atomic::Ordering::Relaxed);
        let bytes = request::encode(&request::Spec {
            program,
            argv,
            envp,
            cwd,
            rlimits: &setup.rlimits,
            user: setup.user,
            no_new_privs: setup.no_new_privs,
            cgroup_fds: fds.len() - 3,
            fresh_ipc,
            // The launcher is on this thread's core or has the judge's
            // CPUs (`affinity::follow` above): its program keeps them
            // when no child of this thread must take the judge's back.
            keep_cpus: affinity::for_children().is_none(),
        })?;
        let socket = self.socket.lock().unwrap_or_else(|e| e.into_inner());
        if send(&socket, &bytes, &fds).is_err() {
            // Gone (nothing was started): the caller starts this program
            // and the slot's next ones itself.
            self.dead.store(true, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
        if fresh_ipc {
            // Asked for: a request that was not sent still asks.
            self.unclean
                .store(false, std::sync::atomic::Ordering::Relaxed);
        }
        let mut answer = [0u8; 12];
        let got = receive(&socket, &mut answer);
        drop(socket);
        if got != answer.len() {
            self.dead.store(true, std::sync::atomic::Ordering::Relaxed);
            return Some(Err(SpawnError::LauncherGone));
        }
        let word =
            |i: usize| i32::from_ne_bytes([answer[i], answer[i + 1], answer[i + 2], answer[i + 3]]);
        let (pid, stage, errno) = (word(0), word(4), word(8));
        if pid > 0 && stage < 0 {
            return Some(Ok(pid));
        }
        if pid > 0 {
            // It failed before exec; it is our child (CLONE_PARENT).
            let mut status = 0;
            // SAFETY: reaping our own child, which has exited.
            unsafe { libc::waitpid(pid, &mut status, 0) };
        }
        let stage = serve::STAGES
            .get(stage as usize)
            .copied()
            .unwrap_or("setup");
        Some(Err(SpawnError::Stage {
            stage,
            source: std::io::Error::from_raw_os_error(errno),
        }))
    }
}

impl Launcher {
    /// A run of the slot ended, and not every process of it is known dead.
    pub fn mark_unclean(&self) {
        self.unclean
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Closing the judge's end ends the launcher.
        let socket = self.socket.get_mut().unwrap_or_else(|e| e.into_inner());
        // SAFETY: shutdown of a socket we own.
        unsafe { libc::shutdown(socket.as_raw_fd(), libc::SHUT_RDWR) };
        let mut status = 0;
        // SAFETY: reaping our own child by its pid.
        unsafe { libc::waitpid(self.pid, &mut status, 0) };
    }
}

/// Send one request with its descriptors.
fn send(socket: &OwnedFd, bytes: &[u8], fds: &[i32]) -> std::io::Result<()> {
    let mut control = [0u64; (request::FDS_MAX * 4 + 64) / 8];
    // SAFETY: sendmsg of buffers that outlive the call; the control
    // message is built inside `control`, which is large enough for
    // FDS_MAX descriptors (checked by `encode`).
    unsafe {
        let mut iov = libc::iovec {
            iov_base: bytes.as_ptr() as *mut libc::c_void,
            iov_len: bytes.len(),
        };
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = libc::CMSG_SPACE((fds.len() * 4) as u32) as usize;
        let header = libc::CMSG_FIRSTHDR(&msg);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN((fds.len() * 4) as u32) as usize;
        let data = libc::CMSG_DATA(header).cast::<i32>();
        for (i, &fd) in fds.iter().enumerate() {
            data.add(i).write_unaligned(fd);
        }
        loop {
            let n = libc::sendmsg(socket.as_raw_fd(), &msg, libc::MSG_NOSIGNAL);
            if n >= 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

/// Receive one reply into `bytes`: its length (0 when the launcher is gone).
fn receive(socket: &OwnedFd, bytes: &mut [u8]) -> usize {
    loop {
        // SAFETY: recv into a buffer of the length given.
        let n = unsafe {
            libc::recv(
                socket.as_raw_fd(),
                bytes.as_mut_ptr().cast(),
                bytes.len(),
                0,
            )
        };
        if n >= 0 {
            return n as usize;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return 0;
        }
    }
}

/// A close-on-exec `SOCK_SEQPACKET` Unix socket pair: each send is one
/// message, read whole or not at all.
fn socket_pair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [-1; 2];
    // SAFETY: socketpair writes two descriptors into `fds`.
    let r = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors are fresh and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

type Fork = Box<dyn FnOnce() -> i32 + Send>;
/// A fork to make, and where its result goes.
type ForkRequest = (Fork, mpsc::Sender<i32>);

/// Run `fork` on the judge's launcher thread, which lives as long as the
/// judge (see the module doc); its result, or -errno of a failure.
fn on_lasting_thread(fork: Fork) -> Result<i32, LauncherError> {
    static THREAD: Mutex<Option<mpsc::Sender<ForkRequest>>> = Mutex::new(None);
    let mut thread = THREAD.lock().unwrap_or_else(|e| e.into_inner());
    if thread.is_none() {
        let (tx, rx) = mpsc::channel::<ForkRequest>();
        std::thread::Builder::new()
            .name("judge-launchers".into())
            .spawn(move || {
                // Started by a worker perhaps, placed on its core: the
                // launchers it forks start from the judge's own CPUs.
                affinity::restore(affinity::original());
                for (fork, answer) in rx {
                    let pid = fork();
                    let pid = if pid < 0 {
                        -std::io::Error::last_os_error()
                            .raw_os_error()
                            .unwrap_or(libc::EAGAIN)
                    } else {
                        pid
                    };
                    let _ = answer.send(pid);
                }
            })
            .map_err(LauncherError::Thread)?;
        *thread = Some(tx);
    }
    let (answer_tx, answer_rx) = mpsc::channel();
    thread
        .as_ref()
        .ok_or(LauncherError::NoThread)?
        .send((fork, answer_tx))
        .map_err(|_| LauncherError::ThreadGone)?;
    drop(thread);
    answer_rx.recv().map_err(|_| LauncherError::ThreadGone)
}

#[cfg(test)]
mod tests;
