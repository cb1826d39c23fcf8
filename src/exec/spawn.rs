//! Starting a child process: `clone(CLONE_VM | CLONE_VFORK)` on a small
//! stack of its own, as glibc's `posix_spawn` does, so that starting a
//! program costs the same whether the judge holds ten results or a hundred
//! thousand (`fork` copies the page tables of the whole judge, and a judge
//! deep into a large run is slower to fork).
//!
//! The child shares the judge's memory until it execs, so it may only make
//! system calls on data prepared before: it resets signal handlers (a
//! handler of the judge must not run in it), moves its standard streams
//! into place, applies the [`ChildSetup`] and execs. A failure before exec
//! is written into shared memory for the parent to read. Entering a user
//! namespace needs a single-threaded caller, which a memory-sharing child
//! is not; for that the child is a real `fork`.
//!
//! A slot with a PID namespace starts its untrusted programs through its
//! launcher instead (`sandbox::launcher`, from `SlotGuard::spawn`); this
//! is the path for trusted tools, plain mode, and slots without one.
//!
//! A PID namespace moves only the caller's future children. As root the
//! spawning thread enters the slot's around the clone. Without root the
//! judge has no right to (`setns(CLONE_NEWPID)` wants `CAP_SYS_ADMIN` in
//! the caller's own user namespace too): the forked child enters the
//! slot's user namespace, where it has it, then the PID namespace, and
//! clones the program with `CLONE_PARENT`, so the program is the judge's
//! child as always (reaped, its rusage read, its parent-death signal tied
//! to the judge); the forked child sends the program's pid through a pipe
//! and exits.

use super::sandbox::child::ChildSetup;
use std::ffi::{CString, OsString};
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;

/// Why a program was not started. Made by the parent: the child reports
/// only the step that failed and its errno (see `ChildArgs`).
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// What of the plan (the program path, an argument …) holds a NUL.
    #[error("{0} holds a NUL byte")]
    Nul(&'static str),
    #[error("a pipe: {0}")]
    Pipe(#[source] rustix::io::Errno),
    #[error("entering the PID namespace: {0}")]
    EnterPidNamespace(#[source] std::io::Error),
    /// The judge's own PID namespace could not be opened (once a process).
    #[error("/proc/self/ns/pid: {0}")]
    HomePidNamespace(#[source] std::sync::Arc<std::io::Error>),
    #[error("clone: {0} (the worker's PID namespace has lost its init)")]
    LostInit(#[source] std::io::Error),
    /// The step of the child (or of the launcher's) that failed.
    #[error("{stage}: {source}")]
    Stage {
        stage: &'static str,
        source: std::io::Error,
    },
    #[error("entering the PID namespace: the forked child died before it reported")]
    NoReport,
    #[error("the slot's launcher is gone")]
    LauncherGone,
}

/// Everything exec needs, prepared before the child exists.
pub struct SpawnPlan {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    cwd: CString,
}

impl SpawnPlan {
    pub fn new(
        program: &std::path::Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
        cwd: &std::path::Path,
    ) -> Result<SpawnPlan, SpawnError> {
        let c = |bytes: &[u8], what: &'static str| {
            CString::new(bytes).map_err(|_| SpawnError::Nul(what))
        };
        let program_c = c(program.as_os_str().as_bytes(), "the program path")?;
        let mut argv = vec![program_c.clone()];
        for a in args {
            argv.push(c(a.as_bytes(), "an argument")?);
        }
        let mut envp = Vec::with_capacity(env.len());
        for (k, v) in env {
            let mut entry = k.as_bytes().to_vec();
            entry.push(b'=');
            entry.extend_from_slice(v.as_bytes());
            envp.push(c(&entry, "an environment variable")?);
        }
        Ok(SpawnPlan {
            program: program_c,
            argv,
            envp,
            cwd: c(cwd.as_os_str().as_bytes(), "the working directory")?,
        })
    }
}

impl SpawnPlan {
    /// The program, its arguments (the program first), its environment
    /// and its working directory (a slot's launcher sends them on).
    pub(crate) fn parts(&self) -> (&CString, &[CString], &[CString], &CString) {
        (&self.program, &self.argv, &self.envp, &self.cwd)
    }
}

/// The child's standard streams (descriptors owned by the caller).
#[derive(Clone, Copy, Debug)]
pub struct Streams {
    pub stdin: RawFd,
    pub stdout: RawFd,
    pub stderr: RawFd,
}

/// Steps of the child, to say which one failed.
const STAGES: [&str; 7] = [
    "moving the standard streams",
    "chdir",
    "the sandbox setup",
    "exec",
    "clone",
    "entering the PID namespace",
    "entering the namespaces",
];

/// What the child shares with the parent: inputs, and where it reports a
/// failure before exec.
#[repr(C)]
struct ChildArgs<'a> {
    program: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    cwd: *const libc::c_char,
    streams: Streams,
    setup: &'a ChildSetup,
    /// The CPUs to take back when this thread is placed on one core
    /// (`exec::affinity`).
    cpus: Option<&'a rustix::thread::CpuSet>,
    /// A forked child that enters a PID namespace itself: the namespace,
    /// and the pipe that carries the program's pid or the failure (see
    /// the module doc); -1 for none.
    pid_namespace: i32,
    report: i32,
    /// A forked child that becomes the program itself: the pipe on which
    /// it says it has made its own session (see `spawn`); -1 for none.
    session_made: i32,
    failed_stage: i32,
    errno: i32,
}

/// Start the program in its own session (so its own process group, no
/// controlling terminal); returns its pid once it has exec'd (a real
/// fork: once it has made its session).
pub fn spawn(plan: &SpawnPlan, streams: Streams, setup: &ChildSetup) -> Result<i32, SpawnError> {
    let argv: Vec<*const libc::c_char> = plan
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp: Vec<*const libc::c_char> = plan
        .envp
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let mut args = ChildArgs {
        program: plan.program.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cwd: plan.cwd.as_ptr(),
        streams,
        setup,
        cpus: super::affinity::for_children(),
        pid_namespace: -1,
        report: -1,
        session_made: -1,
        failed_stage: -1,
        errno: 0,
    };
    let shares_memory = !setup.enters_user_namespace();
    // The forked child's report of the program it cloned into the slot's
    // PID namespace (not root).
    let report = match setup.pid_namespace {
        Some(fd) if !shares_memory => {
            let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
                .map_err(SpawnError::Pipe)?;
            args.pid_namespace = fd;
            args.report = std::os::fd::AsRawFd::as_raw_fd(&w);
            Some((r, w))
        }
        _ => None,
    };
    // A forked child that execs the program itself (a user namespace
    // without a PID namespace) makes its own session first thing and says
    // so here: until it has, a kill of its group would miss it.
    let session_made = match report {
        None if !shares_memory => {
            let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
                .map_err(SpawnError::Pipe)?;
            args.session_made = std::os::fd::AsRawFd::as_raw_fd(&w);
            Some((r, w))
        }
        _ => None,
    };
    // A PID namespace is entered by this thread for the clone, and left
    // right after: `setns(CLONE_NEWPID)` sets where the caller's next
    // children go. Only with a shared-memory clone (root isolation).
    let pid_namespace = match setup.pid_namespace {
        Some(fd) if shares_memory => Some((fd, home_pid_namespace()?)),
        _ => None,
    };
    // SAFETY: signals are blocked around the clone so that no handler runs
    // in the child; the child runs `child_main` on its own stack (or, for a
    // fork, in its own copy of memory) and ends in exec or `_exit`.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        if let Some((fd, _)) = pid_namespace
            && libc::setns(fd, libc::CLONE_NEWPID) != 0
        {
            let e = std::io::Error::last_os_error();
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
            return Err(SpawnError::EnterPidNamespace(e));
        }
        let pid = if shares_memory {
            // The child's stack: one per thread, kept (this thread is
            // suspended until the child has exec'd or exited, so it is free
            // again when the clone returns), not allocated (and, at 128 KiB,
            // mapped and unmapped) per case.
            CHILD_STACK.with(|stack| {
                let mut stack = stack.borrow_mut();
                let top = stack.as_mut_ptr().add(stack.len());
                let top = (top as usize & !15) as *mut libc::c_void;
                libc::clone(
                    child_entry,
                    top,
                    libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                    (&mut args as *mut ChildArgs).cast(),
                )
            })
        } else {
            let pid = libc::fork();
            if pid == 0 {
                child_main(&mut args);
            }
            pid
        };
        let clone_error = std::io::Error::last_os_error();
        let back = match pid_namespace {
            Some((_, home)) => libc::setns(home, libc::CLONE_NEWPID) == 0,
            None => true,
        };
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if !back {
            // Later children of this thread would start in the slot's
            // namespace, where its init would kill them: stop here.
            let e = std::io::Error::last_os_error();
            panic!("cannot return to the judge's PID namespace: {e}");
        }
        (pid, clone_error)
    };
    let (pid, clone_error) = pid;
    if pid < 0 {
        if pid_namespace.is_some() && clone_error.raw_os_error() == Some(libc::ENOMEM) {
            return Err(SpawnError::LostInit(clone_error));
        }
        return Err(SpawnError::Stage {
            stage: STAGES[4],
            source: clone_error,
        });
    }
    if let Some((r, w)) = report {
        drop(w);
        return cloned_program(pid, &r);
    }
    if let Some((r, w)) = session_made {
        // A forked child cannot write into our memory: learn of an exec
        // failure from its exit status (127 before exec, as shells do).
        // Wait until it has made its own session (its process group), so
        // that a kill right after the spawn reaches the group: one byte,
        // or end-of-file if it died first.
        drop(w);
        let mut byte = [0u8; 1];
        while let Err(rustix::io::Errno::INTR) = rustix::io::read(&r, &mut byte) {}
        return Ok(pid);
    }
    if args.failed_stage >= 0 {
        let mut status = 0;
        // SAFETY: reaping our own child, which has exited.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        let stage = STAGES
            .get(args.failed_stage as usize)
            .copied()
            .unwrap_or("setup");
        return Err(SpawnError::Stage {
            stage,
            source: std::io::Error::from_raw_os_error(args.errno),
        });
    }
    Ok(pid)
}

thread_local! {
    /// The stack a memory-sharing child runs on (see `spawn`).
    static CHILD_STACK: std::cell::RefCell<Box<[u8]>> =
        std::cell::RefCell::new(vec![0u8; 128 * 1024].into_boxed_slice());
}

/// Reap the forked child that cloned the program into a PID namespace,
/// and return the program's pid (its report: pid, failed stage, errno).
fn cloned_program(forked: i32, report: &std::os::fd::OwnedFd) -> Result<i32, SpawnError> {
    let mut bytes = [0u8; 12];
    let mut got = 0;
    while got < bytes.len() {
        match rustix::io::read(report, &mut bytes[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => break,
        }
    }
    let mut status = 0;
    // SAFETY: reaping our own child, which exits right after its report.
    unsafe { libc::waitpid(forked, &mut status, 0) };
    let word = |i: usize| i32::from_ne_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    if got != bytes.len() {
        return Err(SpawnError::NoReport);
    }
    let (pid, stage, errno) = (word(0), word(4), word(8));
    if pid > 0 && stage < 0 {
        return Ok(pid);
    }
    if pid > 0 {
        // The program failed before exec: it is our child (CLONE_PARENT).
        // SAFETY: reaping our own child, which has exited.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
    let stage = STAGES.get(stage as usize).copied().unwrap_or("setup");
    Err(SpawnError::Stage {
        stage,
        source: std::io::Error::from_raw_os_error(errno),
    })
}

/// The judge's own PID namespace (to return to after a clone into a
/// slot's), opened once.
fn home_pid_namespace() -> Result<i32, SpawnError> {
    static HOME: std::sync::OnceLock<Result<std::os::fd::OwnedFd, std::sync::Arc<std::io::Error>>> =
        std::sync::OnceLock::new();
    HOME.get_or_init(|| {
        std::fs::File::open("/proc/self/ns/pid")
            .map(std::os::fd::OwnedFd::from)
            .map_err(std::sync::Arc::new)
    })
    .as_ref()
    .map(std::os::fd::AsRawFd::as_raw_fd)
    .map_err(|e| SpawnError::HomePidNamespace(e.clone()))
}

extern "C" fn child_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `ChildArgs` of the suspended parent (CLONE_VFORK).
    let args = unsafe { &mut *(arg as *mut ChildArgs) };
    child_main(args)
}

/// The child: system calls only, ending in exec or `_exit`.
fn child_main(args: &mut ChildArgs<'_>) -> ! {
    // SAFETY: system calls on prepared data; see the module doc.
    unsafe {
        let fail = |args: &mut ChildArgs<'_>, stage: i32| -> ! {
            args.failed_stage = stage;
            args.errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            libc::_exit(127)
        };
        // No handler of the judge may run here; the judge ignores SIGPIPE,
        // a program gets it by default.
        for sig in 1..libc::SIGRTMAX() {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && (old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN
                    || sig == libc::SIGPIPE)
            {
                let mut dfl: libc::sigaction = std::mem::zeroed();
                dfl.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &dfl, std::ptr::null_mut());
            }
        }
        if args.session_made >= 0 {
            // Its own session before anything else (see `spawn`); the
            // setup's own `setsid` then finds it made.
            libc::setsid();
            libc::write(args.session_made, [1u8].as_ptr().cast(), 1);
        }
        super::affinity::restore(args.cpus);
        let s = args.streams;
        if s.stdin > 2 && s.stdout > 2 && s.stderr > 2 {
            // The usual case (the judge keeps its own 0, 1 and 2 open):
            // no source is a target, each is put in place at once.
            for (target, fd) in [s.stdin, s.stdout, s.stderr].into_iter().enumerate() {
                if libc::dup2(fd, target as i32) < 0 {
                    fail(args, 0);
                }
            }
        } else {
            move_streams_high(args, s);
        }
        if libc::chdir(args.cwd) != 0 {
            fail(args, 1);
        }
        if args.report >= 0 {
            enter_pid_namespace(args);
        }
        if args.setup.enter().is_err() {
            fail(args, 2);
        }
        exec_program(args)
    }
}

/// Put the standard streams in place when a source is itself 0, 1 or 2.
fn move_streams_high(args: &mut ChildArgs<'_>, s: Streams) {
    // SAFETY: system calls on prepared data; see the module doc.
    unsafe {
        let fail = |args: &mut ChildArgs<'_>, stage: i32| -> ! {
            args.failed_stage = stage;
            args.errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            libc::_exit(127)
        };
        // Move the streams to high numbers first, so that a source that
        // is already 0, 1 or 2 is not clobbered by another's dup2.
        let high = [
            libc::fcntl(s.stdin, libc::F_DUPFD, 10),
            libc::fcntl(s.stdout, libc::F_DUPFD, 10),
            libc::fcntl(s.stderr, libc::F_DUPFD, 10),
        ];
        if high.iter().any(|&fd| fd < 0) {
            fail(args, 0);
        }
        for (target, &fd) in high.iter().enumerate() {
            if libc::dup2(fd, target as i32) < 0 {
                fail(args, 0);
            }
            libc::close(fd);
        }
    }
}

/// The last steps of the child that becomes the program: the setup that
/// restricts it, then exec. System calls only, ending in exec or `_exit`.
fn exec_program(args: &mut ChildArgs<'_>) -> ! {
    // SAFETY: system calls on prepared data; see the module doc.
    unsafe {
        let fail = |args: &mut ChildArgs<'_>, stage: i32| -> ! {
            args.failed_stage = stage;
            args.errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            libc::_exit(127)
        };
        if args.setup.restrict().is_err() {
            fail(args, 2);
        }
        let empty: libc::sigset_t = {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            set
        };
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        // Nothing the judge holds reaches the program: every descriptor
        // above the standard three is closed, including those the judge
        // was started with (`judge run … 7<secret`), which are not
        // close-on-exec. close_range (Linux 5.9) closes them in one call;
        // before it, each possible descriptor is closed in turn.
        close_from(3);
        libc::execve(args.program, args.argv, args.envp);
        fail(args, 3)
    }
}

/// In a forked child (not root): enter the slot's namespaces, then its PID
/// namespace, and clone the program there as a child of the judge
/// (`CLONE_PARENT`), sharing this child's memory until it execs
/// (`CLONE_VM | CLONE_VFORK`: no second copy of the judge's page tables).
/// This child then reports the program's pid and what failed (a stage, or
/// -1), and exits. System calls only.
fn enter_pid_namespace(args: &mut ChildArgs<'_>) -> ! {
    // SAFETY: system calls on prepared data; this child ends in `_exit`,
    // the clone runs `program_entry` on its own stack and ends in exec or
    // `_exit`, writing a failure into the memory it shares with this child.
    unsafe {
        let report_fd = args.report;
        let report = |pid: i32, stage: i32, errno: i32| -> ! {
            let mut bytes = [0u8; 12];
            bytes[..4].copy_from_slice(&pid.to_ne_bytes());
            bytes[4..8].copy_from_slice(&stage.to_ne_bytes());
            bytes[8..].copy_from_slice(&errno.to_ne_bytes());
            libc::write(report_fd, bytes.as_ptr().cast(), bytes.len());
            libc::_exit(if stage < 0 { 0 } else { 127 })
        };
        let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        if args.setup.enter().is_err() {
            report(0, 6, errno());
        }
        if libc::setns(args.pid_namespace, libc::CLONE_NEWPID) != 0 {
            report(0, 5, errno());
        }
        const STACK: usize = 128 * 1024;
        let stack = libc::mmap(
            std::ptr::null_mut(),
            STACK,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
            -1,
            0,
        );
        if stack == libc::MAP_FAILED {
            report(0, 4, errno());
        }
        let top = ((stack as usize + STACK) & !15) as *mut libc::c_void;
        args.failed_stage = -1;
        let pid = libc::clone(
            program_entry,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::SIGCHLD,
            (args as *mut ChildArgs).cast(),
        );
        if pid < 0 {
            report(0, 4, errno());
        }
        // The program has exec'd, or failed before and exited.
        report(pid, args.failed_stage, args.errno)
    }
}

extern "C" fn program_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `ChildArgs` of the suspended forked child
    // (CLONE_VFORK), whose memory this clone shares.
    let args = unsafe { &mut *(arg as *mut ChildArgs) };
    exec_program(args)
}

/// Close every descriptor from `first` up: `close_range` (Linux 5.9) in one
/// call, before it each possible descriptor in turn. System calls only:
/// safe between fork and exec, and in the launcher.
///
/// # Safety
/// Closes descriptors the caller may still hold: only for a process about
/// to exec, or one that owns every descriptor above `first`.
pub(crate) unsafe fn close_from(first: i32) {
    // SAFETY: plain system calls.
    unsafe {
        if libc::syscall(libc::SYS_close_range, first as u32, u32::MAX, 0u32) == 0 {
            return;
        }
        let mut limit: libc::rlimit = std::mem::zeroed();
        let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur.min(1 << 16) as i32
        } else {
            1024
        };
        for fd in first..top {
            libc::close(fd);
        }
    }
}
