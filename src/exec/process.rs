//! The real runner: one contained process per case.
//!
//! Every limit is set in one place (`sandbox::child::ChildSetup::apply`, between fork and
//! exec), one event loop watches the program (its stdout and stderr pipes,
//! its pidfd, the wall-clock deadline and the judge's interrupt pipe), and
//! one record comes back. The program gets its own process group, a
//! scrubbed environment and a private working directory that is removed
//! afterwards; when its main process ends, or a limit is hit, the whole group
//! is killed so that no child outlives the case.
//!
//! Limit kills are SIGKILL at once, with no SIGTERM grace: a program that has
//! run out of time or output has nothing left to save, and a grace period is
//! only a window for a hostile one (isolate does the same).

use super::{
    Exit, LimitHit, Limits, MemorySource, RunError, RunOutcome, RunRequest, Runner, STDERR_TAIL,
};
use crate::exec::procfs;
use crate::exec::sandbox::{Sandbox, SlotGuard};
use crate::exec::spawn::{self, SpawnPlan, Streams};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::File;
use std::io::ErrorKind;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs an external command on each input.
pub struct ProcessRunner {
    program: PathBuf,
    args: Vec<OsString>,
    display: String,
    sandbox: Arc<Sandbox>,
}

/// Messages that language runtimes print when an allocation fails under
/// RLIMIT_AS. A crash with one of these on stderr is a memory-limit verdict.
const ALLOCATION_FAILURES: &[&str] = &[
    "std::bad_alloc",
    "memory allocation of",
    "MemoryError",
    "out of memory",
    "Out of memory",
    "Cannot allocate memory",
    "cannot allocate memory",
    "failed to allocate",
    "Insufficient memory",
];

impl ProcessRunner {
    /// A runner for a command line, split like a shell would (quotes and
    /// backslashes), with no shell involved. The program is resolved now:
    /// a path with a `/` against the current directory, a bare name on PATH.
    pub fn new(command_line: &str, sandbox: Arc<Sandbox>) -> Result<ProcessRunner, String> {
        let words = shlex::split(command_line).ok_or_else(|| {
            format!("cannot split {command_line:?} into words (unbalanced quotes?)")
        })?;
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| "the submission command is empty".to_string())?;
        let program = resolve_program(first)?;
        let args = rest.iter().map(OsString::from).collect();
        ProcessRunner::from_argv(program, args, command_line.to_string(), sandbox)
    }

    /// A runner for a program already resolved to an absolute path (a
    /// built source submission), shown as `display`. The program must be
    /// visible inside the sandbox; it and the arguments that name visible
    /// files are staged (copied) where the sandbox's users can reach them
    /// when they cannot already. Hidden files are never copied.
    pub fn from_argv(
        program: PathBuf,
        args: Vec<OsString>,
        display: String,
        sandbox: Arc<Sandbox>,
    ) -> Result<ProcessRunner, String> {
        sandbox.check_visible(&program)?;
        let program = sandbox.stage(&program)?;
        let mut staged_args = Vec::with_capacity(args.len());
        for arg in args {
            let path = Path::new(&arg);
            // A file the sandbox hides stays hidden: never copied in.
            if path.is_file() && sandbox.check_visible(path).is_ok() {
                staged_args.push(
                    sandbox
                        .stage(&std::path::absolute(path).map_err(|e| e.to_string())?)?
                        .into_os_string(),
                );
            } else {
                staged_args.push(arg);
            }
        }
        Ok(ProcessRunner {
            program,
            args: staged_args,
            display,
            sandbox,
        })
    }
}

/// Find the program as execvp would, but now and from the judge's own
/// directory (the child starts in its private directory, where `./sol`
/// would mean something else).
pub fn resolve_program(name: &str) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if name.contains('/') {
        let path = std::path::absolute(name).map_err(|e| format!("{name}: {e}"))?;
        if !path.exists() {
            return Err(format!("program not found: {name}"));
        }
        if !executable(&path) {
            return Err(format!(
                "{name} is not an executable file (chmod +x it, or run it through its interpreter)"
            ));
        }
        return Ok(path);
    }
    let path_var =
        std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
    for dir in std::env::split_paths(&path_var) {
        let candidate = dir.join(name);
        if executable(&candidate) {
            return Ok(std::path::absolute(&candidate).unwrap_or(candidate));
        }
    }
    Err(format!("program not found on PATH: {name}"))
}

impl Runner for ProcessRunner {
    fn run(&self, request: &RunRequest<'_>) -> Result<RunOutcome, RunError> {
        launch(
            &self.sandbox,
            &Launch {
                program: &self.program,
                args: &self.args,
                stdin: Some(request.input),
                limits: request.limits,
                slot: request.slot,
                trust: Trust::Untrusted,
            },
        )
    }

    fn describe(&self) -> String {
        self.display.clone()
    }
}

/// Whose program it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// A submission: contained as hard as the machine allows (scrubbed
    /// environment, its own user and namespaces where possible).
    Untrusted,
    /// A tool of the problem setter (a checker, a validator, a compiler, a
    /// generator): limited, timed and killed like any run, but with the
    /// judge's environment and view of the files, since it must read answer
    /// files and find its toolchain.
    Trusted,
}

/// One program to run once.
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    /// An absolute path (see [`resolve_program`]).
    pub program: &'a Path,
    pub args: &'a [OsString],
    /// Standard input; `None` is /dev/null.
    pub stdin: Option<&'a Path>,
    pub limits: &'a Limits,
    /// The worker slot (0-based).
    pub slot: usize,
    pub trust: Trust,
}

/// Run a program once in its own private directory under the limits, and
/// collect one [`RunOutcome`]. Everything it started is dead when this
/// returns.
pub fn launch(sandbox: &Sandbox, launch: &Launch<'_>) -> Result<RunOutcome, RunError> {
    let limits = launch.limits;
    let mut slot = sandbox
        .slot(launch.slot, limits, launch.trust)
        .map_err(RunError::Internal)?;
    let stdin = File::open(launch.stdin.unwrap_or(Path::new("/dev/null"))).map_err(|e| {
        RunError::Internal(format!(
            "cannot open input {}: {e}",
            launch.stdin.unwrap_or(Path::new("/dev/null")).display()
        ))
    })?;
    let pipe = || {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .map_err(|e| RunError::Internal(format!("cannot make a pipe: {e}")))
    };
    let (stdout, stdout_w) = pipe()?;
    let (stderr, stderr_w) = pipe()?;
    let plan = SpawnPlan::new(
        launch.program,
        launch.args,
        &slot.environment(),
        slot.workdir(),
    )
    .map_err(RunError::Internal)?;
    let setup = slot.child_setup(limits);
    let start = Instant::now();
    slot.before_spawn();
    let spawned = spawn::spawn(
        &plan,
        Streams {
            stdin: stdin.as_raw_fd(),
            stdout: stdout_w.as_raw_fd(),
            stderr: stderr_w.as_raw_fd(),
        },
        &setup,
    );
    slot.after_spawn(spawned.as_ref().ok().copied());
    let pid = spawned.map_err(|e| {
        RunError::Internal(format!("cannot start {}: {e}", launch.program.display()))
    })?;
    // Only the child writes: the read ends see end-of-file when it and its
    // descendants are done.
    drop((stdout_w, stderr_w, stdin));
    // Also from the parent, so a kill right after spawn reaches the group.
    // SAFETY: plain system call on a child we own.
    unsafe { libc::setpgid(pid, pid) };
    let (stdout, stderr) = (Some(stdout), Some(stderr));
    let watch = Watch {
        pid,
        stdout,
        stderr,
        pidfd: rustix::process::Pid::from_raw(pid).and_then(|p| {
            rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok()
        }),
        interrupt: sandbox.interrupt_fd(),
        deadline: start + limits.wall,
        output_limit: limits.output,
    };
    let mut watched = watch.run(&slot, limits.time);
    let (exit, usage) = reap(pid);
    let wall = start.elapsed();
    // The main process is gone: nothing of the run may outlive it.
    slot.kill_everything(pid, true);
    watched.drain(&watch_fds(&watch), limits.output);
    drop(watch);
    if watched.interrupted {
        return Err(RunError::Interrupted);
    }
    let cgroup = slot.cgroup_report();
    let stderr_tail: Vec<u8> = watched.stderr.iter().copied().collect();
    let evidence = Evidence {
        exit,
        cpu: usage.cpu,
        limits,
        watched_limit: watched.limit_hit,
        cgroup: cgroup.as_ref(),
        stderr_tail: &stderr_tail,
        group_size_at_kill: watched.group_size_at_kill,
    };
    let (limit_hit, memory_evidence, process_cap_hit) = evidence.conclude();
    let (peak_rss_kib, memory_source) = match cgroup.as_ref().and_then(|c| c.peak_bytes) {
        Some(bytes) => (Some(bytes / 1024), MemorySource::Cgroup),
        None => (Some(usage.max_rss_kib), MemorySource::Rusage),
    };
    Ok(RunOutcome {
        exit,
        cpu: usage.cpu,
        wall,
        peak_rss_kib,
        memory_source,
        stdout: std::mem::take(&mut watched.stdout),
        stderr_tail,
        limit_hit,
        memory_evidence,
        process_cap_hit,
    })
}

/// What is known about how a run ended, to name the limit that ended it.
struct Evidence<'a> {
    exit: Exit,
    cpu: Duration,
    limits: &'a Limits,
    watched_limit: Option<LimitHit>,
    cgroup: Option<&'a crate::exec::sandbox::cgroup::CgroupReport>,
    stderr_tail: &'a [u8],
    group_size_at_kill: usize,
}

impl Evidence<'_> {
    /// (the limit that ended the run, why memory is to blame, whether the
    /// process cap was reached).
    fn conclude(&self) -> (Option<LimitHit>, Option<String>, bool) {
        let failed = !self.exit.success();
        let mut limit_hit = self.watched_limit.or(match self.exit {
            Exit::Signal(libc::SIGXCPU) => Some(LimitHit::Cpu),
            Exit::Signal(libc::SIGKILL)
                if self.cpu + Duration::from_millis(50) >= cpu_soft_limit(self.limits.time) =>
            {
                Some(LimitHit::Cpu)
            }
            Exit::Signal(libc::SIGXFSZ) => Some(LimitHit::FileSize),
            _ => None,
        });
        let mut memory_evidence = None;
        if let Some(report) = self.cgroup
            && (report.oom_kills > 0 || (report.memory_failures > 0 && failed))
        {
            let times = report.memory_failures.max(report.oom_kills);
            memory_evidence = Some(format!(
                "the cgroup memory limit was hit ({times} time{})",
                if times == 1 { "" } else { "s" }
            ));
        }
        if memory_evidence.is_none() && failed && self.limits.memory.is_some() {
            let text = String::from_utf8_lossy(self.stderr_tail);
            if let Some(hit) = ALLOCATION_FAILURES.iter().find(|m| text.contains(*m)) {
                memory_evidence =
                    Some(format!("an allocation failed (the program said \"{hit}\")"));
            }
        }
        if limit_hit.is_none() && memory_evidence.is_some() {
            limit_hit = Some(LimitHit::Memory);
        }
        let cap = self.limits.processes as usize;
        let process_cap_hit = self.cgroup.is_some_and(|r| r.pids_refused > 0)
            || self.group_size_at_kill >= cap
            || (failed
                && String::from_utf8_lossy(self.stderr_tail)
                    .contains("Resource temporarily unavailable"));
        if limit_hit.is_none() && process_cap_hit && failed {
            limit_hit = Some(LimitHit::Processes);
        }
        (limit_hit, memory_evidence, process_cap_hit)
    }
}

/// RLIMIT_CPU in whole seconds: the time limit rounded up, with a little
/// room so that the measured time decides a verdict near the limit, not the
/// signal. The wall-clock limit ends a program that sleeps.
pub fn cpu_soft_limit(time: Duration) -> Duration {
    Duration::from_secs((time.as_secs_f64() + 0.01).ceil() as u64)
}

/// The file descriptors a run is watched through.
struct Watch {
    pid: i32,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    pidfd: Option<OwnedFd>,
    interrupt: Option<Arc<OwnedFd>>,
    deadline: Instant,
    output_limit: u64,
}

fn watch_fds(w: &Watch) -> (Option<&OwnedFd>, Option<&OwnedFd>) {
    (w.stdout.as_ref(), w.stderr.as_ref())
}

/// What the event loop saw.
#[derive(Default)]
struct Watched {
    stdout: Vec<u8>,
    stderr: VecDeque<u8>,
    stdout_open: bool,
    stderr_open: bool,
    limit_hit: Option<LimitHit>,
    interrupted: bool,
    /// How many processes the run had when the judge killed it for time.
    group_size_at_kill: usize,
}

impl Watch {
    /// Watch until the program exits, a limit is hit or the judge is
    /// interrupted. CPU time is looked at from half the time limit on (a
    /// program cannot use more CPU than wall-clock time per thread), so a
    /// spinning program is stopped close to its limit, not at RLIMIT_CPU's
    /// next whole second, and a fast one costs no look at all.
    fn run(&self, slot: &SlotGuard, cpu_limit: Duration) -> Watched {
        for fd in [&self.stdout, &self.stderr].into_iter().flatten() {
            let _ = set_nonblocking(fd);
        }
        let mut w = Watched {
            stdout_open: self.stdout.is_some(),
            stderr_open: self.stderr.is_some(),
            ..Watched::default()
        };
        let started = Instant::now();
        let check_every =
            (cpu_limit / 10).clamp(Duration::from_millis(10), Duration::from_millis(200));
        let mut next_cpu_check = started + (cpu_limit / 2).max(Duration::from_millis(10));
        loop {
            let now = Instant::now();
            if now >= self.deadline {
                w.group_size_at_kill = slot.count_processes(self.pid);
                slot.kill_everything(self.pid, false);
                w.limit_hit = Some(LimitHit::Wall);
                return w;
            }
            if now >= next_cpu_check {
                if procfs::cpu_time(self.pid).is_some_and(|cpu| cpu > cpu_limit) {
                    w.group_size_at_kill = slot.count_processes(self.pid);
                    slot.kill_everything(self.pid, false);
                    w.limit_hit = Some(LimitHit::Cpu);
                    return w;
                }
                next_cpu_check = now + check_every;
            }
            let mut wait = (self.deadline - now).min(next_cpu_check.saturating_duration_since(now));
            if self.pidfd.is_none() {
                // No pidfd (an old kernel): look at the child every 5 ms.
                wait = wait.min(Duration::from_millis(5));
            }
            let timeout = Timespec {
                tv_sec: wait.as_secs() as i64,
                tv_nsec: i64::from(wait.subsec_nanos()),
            };
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(4);
            let mut roles = Vec::with_capacity(4);
            if w.stdout_open
                && let Some(fd) = &self.stdout
            {
                fds.push(PollFd::new(fd, PollFlags::IN));
                roles.push(Role::Stdout);
            }
            if w.stderr_open
                && let Some(fd) = &self.stderr
            {
                fds.push(PollFd::new(fd, PollFlags::IN));
                roles.push(Role::Stderr);
            }
            if let Some(fd) = &self.pidfd {
                fds.push(PollFd::new(fd, PollFlags::IN));
                roles.push(Role::Exit);
            }
            if let Some(fd) = &self.interrupt {
                fds.push(PollFd::new(fd.as_ref(), PollFlags::IN));
                roles.push(Role::Interrupt);
            }
            match poll(&mut fds, Some(&timeout)) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => std::thread::sleep(Duration::from_millis(1)),
            }
            let ready: Vec<(Role, bool)> = fds
                .iter()
                .zip(&roles)
                .map(|(fd, role)| (*role, !fd.revents().is_empty()))
                .collect();
            drop(fds);
            let mut exited = self.pidfd.is_none() && has_exited(self.pid);
            for (role, is_ready) in ready {
                if !is_ready {
                    continue;
                }
                match role {
                    Role::Stdout => {
                        if let Some(fd) = &self.stdout
                            && !read_stdout(fd, &mut w, self.output_limit)
                        {
                            slot.kill_everything(self.pid, false);
                            w.limit_hit = Some(LimitHit::Output);
                            return w;
                        }
                    }
                    Role::Stderr => {
                        if let Some(fd) = &self.stderr {
                            read_stderr(fd, &mut w);
                        }
                    }
                    Role::Exit => exited = true,
                    Role::Interrupt => {
                        slot.kill_everything(self.pid, false);
                        w.interrupted = true;
                        return w;
                    }
                }
            }
            if exited {
                return w;
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Role {
    Stdout,
    Stderr,
    Exit,
    Interrupt,
}

impl Watched {
    /// Read what the program left in its pipes, without waiting for an end
    /// of file that an escaped descendant could hold back forever.
    fn drain(&mut self, fds: &(Option<&OwnedFd>, Option<&OwnedFd>), output_limit: u64) {
        if self.limit_hit == Some(LimitHit::Output) {
            return;
        }
        if let Some(fd) = fds.0
            && self.stdout_open
            && !read_stdout(fd, self, output_limit)
        {
            self.limit_hit = Some(LimitHit::Output);
        }
        if let Some(fd) = fds.1
            && self.stderr_open
        {
            read_stderr(fd, self);
        }
    }
}

fn set_nonblocking(fd: &OwnedFd) -> rustix::io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(fd)?;
    rustix::fs::fcntl_setfl(fd, flags | rustix::fs::OFlags::NONBLOCK)
}

/// Read all that is available now. False when the output limit is passed.
fn read_stdout(fd: &OwnedFd, w: &mut Watched, limit: u64) -> bool {
    let mut buf = [0u8; 65536];
    loop {
        match rustix::io::read(fd, &mut buf) {
            Ok(0) => {
                w.stdout_open = false;
                return true;
            }
            Ok(n) => {
                let room = (limit as usize).saturating_sub(w.stdout.len());
                if n > room {
                    w.stdout.extend_from_slice(&buf[..room]);
                    return false;
                }
                w.stdout.extend_from_slice(&buf[..n]);
            }
            Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::AGAIN) => return true,
            Err(_) => {
                w.stdout_open = false;
                return true;
            }
        }
    }
}

/// Read all that is available now, keeping only the last [`STDERR_TAIL`] bytes.
fn read_stderr(fd: &OwnedFd, w: &mut Watched) {
    let mut buf = [0u8; 16384];
    loop {
        match rustix::io::read(fd, &mut buf) {
            Ok(0) => {
                w.stderr_open = false;
                return;
            }
            Ok(n) => {
                let chunk = &buf[..n];
                let chunk = &chunk[chunk.len().saturating_sub(STDERR_TAIL)..];
                let overflow = (w.stderr.len() + chunk.len()).saturating_sub(STDERR_TAIL);
                w.stderr.drain(..overflow.min(w.stderr.len()));
                w.stderr.extend(chunk);
            }
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return,
        }
    }
}

/// Has the child exited? Looks without reaping it (WNOWAIT), so that wait4
/// still gets its resource usage.
fn has_exited(pid: i32) -> bool {
    // SAFETY: waitid on our own child with a zeroed siginfo out-parameter.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        r == 0 && info.si_pid() != 0
    }
}

struct Usage {
    cpu: Duration,
    max_rss_kib: u64,
}

/// Wait for the child and collect its resource usage.
fn reap(pid: i32) -> (Exit, Usage) {
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 on our own child with valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
            continue;
        }
        // Someone else reaped it (should not happen): report what we can.
        return (
            Exit::Signal(libc::SIGKILL),
            Usage {
                cpu: Duration::ZERO,
                max_rss_kib: 0,
            },
        );
    }
    let exit = if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else {
        Exit::Signal(libc::WTERMSIG(status))
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, (t.tv_usec as u32) * 1000);
    (
        exit,
        Usage {
            cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
            max_rss_kib: usage.ru_maxrss as u64,
        },
    )
}
