//! One contained run of a program (`launch`), used by the real runner
//! (`exec::runner`) and by every tool.
//!
//! Every limit is set in one place (`sandbox::child::ChildSetup`, between fork and
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
//!
//! The event loop itself is `exec::watch`; this file starts the program,
//! reaps it and concludes the [`RunOutcome`] from what was seen.

use super::{CpuSource, Exit, LimitHit, Limits, MemorySource, RunError, RunOutcome};
use crate::exec::sandbox::Sandbox;
use crate::exec::spawn::{SpawnPlan, Streams};
use crate::exec::watch::Watch;
use std::ffi::OsString;
use std::fs::File;
use std::io::ErrorKind;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// Messages that language runtimes print when an allocation fails under
/// RLIMIT_AS. A crash with one of these on stderr is a memory-limit verdict
/// only when the measured peak is near the limit (see `Evidence`): the
/// words alone are the program's to print.
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
    "java.lang.OutOfMemoryError",
];

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
    /// Whether RLIMIT_AS may carry the memory limit (see
    /// `SlotGuard::child_setup`); true but for a JVM.
    pub address_space: bool,
    /// A trusted tool's working directory, when it writes files there the
    /// judge keeps (a generator's `testcase.in`); an untrusted build's own
    /// directory (`Sandbox::build_dir`); else a fresh private directory,
    /// removed after the run.
    pub workdir: Option<&'a Path>,
    /// Files copied into the working directory before the program starts
    /// (a 2025-09 test case's `NAME.files/`).
    pub files: Option<&'a Path>,
    /// Single files copied there first, (where it is, its name there): a
    /// package's included data, which a case's `files` may overwrite.
    pub companions: &'a [(std::path::PathBuf, std::path::PathBuf)],
    /// A file the program writes in its working directory that stands for
    /// its standard output (see [`crate::exec::IoFiles`]): read after the
    /// run, held to the output limit.
    pub output_file: Option<&'a str>,
}

/// Run a program once in its own private directory under the limits, and
/// collect one [`RunOutcome`]. Everything it started is dead when this
/// returns.
pub fn launch(sandbox: &Sandbox, launch: &Launch<'_>) -> Result<RunOutcome, RunError> {
    launch_with(sandbox, launch, Piped::default())
}

/// Run a build (trusted, no input, under [`Limits::build`] of `time`) in
/// `workdir` or a private directory.
pub fn launch_build(
    sandbox: &Sandbox,
    slot: usize,
    program: &Path,
    args: &[OsString],
    workdir: Option<&Path>,
    time: Duration,
) -> Result<RunOutcome, RunError> {
    launch(
        sandbox,
        &Launch {
            program,
            args,
            stdin: None,
            limits: &Limits::build(time),
            slot,
            trust: Trust::Trusted,
            address_space: true,
            workdir,
            files: None,
            companions: &[],
            output_file: None,
        },
    )
}

/// Run a submission's build (a compiler, an interpreter's syntax check)
/// as the untrusted program it is: on `dir`'s slot, as its user, in its
/// namespaces and cgroup, with a scrubbed environment whose HOME and
/// TMPDIR are `dir` (see `Sandbox::build_dir`), which is also its working
/// directory, under [`Limits::untrusted_build`] of `time`.
pub fn launch_untrusted_build(
    sandbox: &Sandbox,
    dir: &crate::exec::sandbox::BuildDir<'_>,
    program: &Path,
    args: &[OsString],
    time: Duration,
) -> Result<RunOutcome, RunError> {
    launch(
        sandbox,
        &Launch {
            program,
            args,
            stdin: None,
            limits: &Limits::untrusted_build(time),
            slot: dir.slot(),
            trust: Trust::Untrusted,
            // Compilers reserve far more address space than they use: the
            // memory limit is the cgroup's.
            address_space: false,
            workdir: Some(dir.path()),
            files: None,
            companions: &[],
            output_file: None,
        },
    )
}

/// Standard input and output given as pipe ends instead of a file and a
/// captured pipe (an interactive run: the other side is the validator).
/// The launch owns them and closes its copies once the child has them.
#[derive(Default)]
pub struct Piped {
    pub stdin: Option<std::os::fd::OwnedFd>,
    pub stdout: Option<std::os::fd::OwnedFd>,
    /// The read end of a pipe whose closing stops the run at once (its
    /// interactive partner's end decided the case): killed, with no limit
    /// hit, and `RunOutcome::stopped` set.
    pub stop: Option<std::os::fd::OwnedFd>,
}

/// [`launch`] with standard input and/or output on the given pipe ends; a
/// piped standard output is not captured (`RunOutcome::stdout` is empty).
pub fn launch_with(
    sandbox: &Sandbox,
    launch: &Launch<'_>,
    piped: Piped,
) -> Result<RunOutcome, RunError> {
    let limits = launch.limits;
    let mut slot = sandbox
        .slot(launch.slot, limits, launch.trust)
        .map_err(|e| RunError::Internal(e.to_string()))?;
    // An interactive submission talks through pipes: its Python runs
    // unbuffered, as contest judges' interactive examples expect (a
    // `print` without `flush=True` still reaches the validator).
    let interactive = piped.stdin.is_some() && launch.trust == Trust::Untrusted;
    // A submission's input is a sealed copy (`sandbox::input`): never a
    // descriptor to the case's file, which it could reopen for writing.
    let stdin: std::os::fd::OwnedFd = match (piped.stdin, launch.stdin) {
        (Some(fd), _) => fd,
        (None, Some(path)) if launch.trust == Trust::Untrusted => {
            crate::exec::sandbox::input::sealed_copy(path).map_err(|e| {
                RunError::Internal(format!("cannot copy input {}: {e}", path.display()))
            })?
        }
        (None, stdin) => {
            let path = stdin.unwrap_or(Path::new("/dev/null"));
            File::open(path)
                .map_err(|e| {
                    RunError::Internal(format!("cannot open input {}: {e}", path.display()))
                })?
                .into()
        }
    };
    let pipe = || {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .map_err(|e| RunError::Internal(format!("cannot make a pipe: {e}")))
    };
    let (stdout, stdout_w) = match piped.stdout {
        Some(fd) => (None, fd),
        None => {
            let (r, w) = pipe()?;
            (Some(r), w)
        }
    };
    let (stderr, stderr_w) = pipe()?;
    let workdir = match (launch.workdir, launch.trust) {
        (Some(dir), Trust::Trusted) => {
            slot.use_tool_dir(dir)
                .map_err(|e| RunError::Internal(e.to_string()))?;
            dir
        }
        (Some(dir), Trust::Untrusted) => {
            slot.use_build_dir(dir)
                .map_err(|e| RunError::Internal(e.to_string()))?;
            dir
        }
        (None, _) => slot.workdir(),
    };
    // Where the program's output file is (owned: the slot is borrowed
    // mutably below).
    let output_path = launch.output_file.map(|name| workdir.join(name));
    for (from, name) in launch.companions {
        crate::exec::sandbox::copy_file(from, &workdir.join(name)).map_err(|e| {
            RunError::Internal(format!(
                "cannot copy {} into the working directory: {e}",
                from.display()
            ))
        })?;
    }
    if let Some(files) = launch.files {
        crate::exec::sandbox::copy_tree(files, workdir).map_err(|e| {
            RunError::Internal(format!(
                "cannot copy {} into the working directory: {e}",
                files.display()
            ))
        })?;
    }
    let mut environment = slot.environment();
    if interactive {
        environment.push(("PYTHONUNBUFFERED".into(), "1".into()));
    }
    let plan = SpawnPlan::new(launch.program, launch.args, &environment, workdir)
        .map_err(|e| RunError::Internal(e.to_string()))?;
    let setup = slot.child_setup(limits, launch.address_space);
    let start = Instant::now();
    slot.before_spawn();
    let spawned = slot.spawn(
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
    let stderr = Some(stderr);
    let watch = Watch {
        pid,
        stdout,
        stderr,
        pidfd: rustix::process::Pid::from_raw(pid).and_then(|p| {
            rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok()
        }),
        interrupt: sandbox.interrupt_fd(),
        stop: piped.stop,
        deadline: start + limits.wall,
        output_limit: limits.output,
        truncate: limits.past_output == crate::exec::PastOutput::Truncate,
    };
    let mut watched = watch.run(&slot, limits.time);
    let (exit, usage) = reap(pid);
    let wall = start.elapsed();
    // The main process is gone: nothing of the run may outlive it.
    slot.kill_everything(pid, true);
    watched.drain(&watch);
    drop(watch);
    if watched.interrupted {
        return Err(RunError::Interrupted);
    }
    let cgroup = slot.cgroup_report();
    // The main process and the children it reaped (rusage), or every
    // process of the run when its cgroup counts them: whichever is more.
    let (cpu, cpu_source) = match cgroup.as_ref().and_then(|c| c.cpu) {
        Some(all) => (all.max(usage.cpu), CpuSource::Cgroup),
        None => (usage.cpu.max(watched.group_cpu), CpuSource::ProcessGroup),
    };
    let stderr_tail: Vec<u8> = watched.stderr.iter().copied().collect();
    let evidence = Evidence {
        exit,
        cpu,
        limits,
        watched_limit: watched.limit_hit,
        cgroup: cgroup.as_ref(),
        stderr_tail: &stderr_tail,
        group_size_at_kill: watched.group_size_at_kill,
        peak_rss_kib: usage.max_rss_kib,
        truncated: watched.truncated,
    };
    let (mut limit_hit, memory_evidence, process_cap_hit) = evidence.conclude();
    let mut file_output = None;
    if let Some(path) = &output_path {
        let (output, over) = crate::exec::output_file::read(path, limits.output)?;
        file_output = Some(output);
        if over && limit_hit.is_none() {
            limit_hit = Some(crate::exec::LimitHit::Output);
        }
    }
    // Stopped, if the judge's kill is what ended it: a program that ended by
    // itself meanwhile keeps its own end, and a kill of the kernel's (the
    // memory cgroup's OOM killer) is not the judge's stop, whichever was
    // seen first.
    let stopped = watched.stopped
        && exit == Exit::Signal(libc::SIGKILL)
        && limit_hit.is_none()
        && memory_evidence.is_none();
    let stdout = match file_output {
        Some(output) => output,
        None => {
            let mut capture = std::mem::take(&mut watched.stdout);
            if let Some(e) = capture.error.take() {
                return Err(RunError::Internal(e));
            }
            capture.finish()
        }
    };
    let (peak_rss_kib, memory_source) = match cgroup.as_ref().and_then(|c| c.peak_bytes) {
        Some(bytes) => (Some(bytes / 1024), MemorySource::Cgroup),
        None => (Some(usage.max_rss_kib), MemorySource::Rusage),
    };
    Ok(RunOutcome {
        exit,
        cpu,
        cpu_source,
        wall,
        peak_rss_kib,
        memory_source,
        stdout,
        stderr_tail,
        limit_hit,
        memory_evidence,
        process_cap_hit,
        stopped,
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
    /// Peak resident memory of the main process (rusage).
    peak_rss_kib: u64,
    /// Its standard output was cut off at the limit (`PastOutput::Truncate`).
    truncated: bool,
}

impl Evidence<'_> {
    /// (the limit that ended the run, why memory is to blame, whether the
    /// process cap was reached).
    fn conclude(&self) -> (Option<LimitHit>, Option<String>, bool) {
        let failed = !self.exit.success();
        // A signal is what the program died of, not proof of its cause: a
        // program can raise SIGXCPU (or SIGKILL) itself. RLIMIT_CPU sends
        // them only past the limit, so only a run whose measured CPU time
        // is past the limit is taken as ended by it; a SIGXCPU before that
        // is RE, by its signal.
        let mut limit_hit = self.watched_limit.or(match self.exit {
            Exit::Signal(libc::SIGXCPU) if self.cpu >= self.limits.time => Some(LimitHit::Cpu),
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
        // An allocation-failure message is the program's word: it makes
        // a failed run MLE only with the measured peak (the cgroup's, or
        // the rusage of the main process) within 10% of the limit.
        if memory_evidence.is_none()
            && failed
            && let Some(limit) = self.limits.memory
            && self.peak_near(limit)
        {
            let text = String::from_utf8_lossy(self.stderr_tail);
            if let Some(hit) = ALLOCATION_FAILURES.iter().find(|m| text.contains(*m)) {
                memory_evidence = Some(format!(
                    "an allocation failed (the program said \"{hit}\") with its peak memory {} within 10% of the limit",
                    crate::units::Size(self.peak_bytes())
                ));
            }
        }
        // Without a memory cgroup the limit is RLIMIT_AS, and a failed
        // allocation is whatever the program makes of it: an abort, an
        // exit code. A failure (not a SIGSEGV, which may be a stack
        // overflow) with the resident peak within 10% of the limit is
        // taken as running out of memory. A single huge allocation that
        // fails at once leaves the peak low and stays RE.
        if memory_evidence.is_none()
            && failed
            && self.cgroup.is_none()
            && self.exit != Exit::Signal(libc::SIGSEGV)
            && let Some(limit) = self.limits.memory
            && self.peak_near(limit)
        {
            memory_evidence = Some(format!(
                "it failed with its peak memory {} within 10% of the limit (address-space limit; no memory cgroup here)",
                crate::units::Size(self.peak_rss_kib * 1024)
            ));
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
        // Output cut off at its limit: OLE only for a program that then
        // ended well within its CPU time, as DOMjudge orders its verdicts
        // (a time-out is TLE, a crash RE).
        if self.truncated
            && limit_hit.is_none()
            && memory_evidence.is_none()
            && !failed
            && self.cpu <= self.limits.time
        {
            limit_hit = Some(LimitHit::Output);
        }
        (limit_hit, memory_evidence, process_cap_hit)
    }
}

impl Evidence<'_> {
    /// The measured peak memory: the cgroup's (every process of the run)
    /// when it has one, else the main process's resident peak.
    fn peak_bytes(&self) -> u64 {
        let rusage = self.peak_rss_kib.saturating_mul(1024);
        self.cgroup
            .and_then(|c| c.peak_bytes)
            .map_or(rusage, |peak| peak.max(rusage))
    }

    /// Whether the measured peak came within 10% of `limit`.
    fn peak_near(&self, limit: u64) -> bool {
        self.peak_bytes() >= limit / 10 * 9
    }
}

/// RLIMIT_CPU in whole seconds: the time limit rounded up, with a little
/// room so that the measured time decides a verdict near the limit, not the
/// signal. The wall-clock limit ends a program that sleeps.
pub fn cpu_soft_limit(time: Duration) -> Duration {
    Duration::from_secs((time.as_secs_f64() + 0.01).ceil() as u64)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a run whose output was cut off (`PastOutput::Truncate`) ended
    /// as, by its exit and CPU time under a 1 s limit.
    fn truncated(exit: Exit, cpu_ms: u64) -> Option<LimitHit> {
        let limits = Limits::default();
        Evidence {
            exit,
            cpu: Duration::from_millis(cpu_ms),
            limits: &limits,
            watched_limit: None,
            cgroup: None,
            stderr_tail: b"",
            group_size_at_kill: 0,
            peak_rss_kib: 0,
            truncated: true,
        }
        .conclude()
        .0
    }

    #[test]
    fn cut_off_output_is_ole_only_for_a_run_that_ended_well_in_time() {
        assert_eq!(truncated(Exit::Code(0), 500), Some(LimitHit::Output));
        // Past its CPU time (between two of the judge's looks): left to
        // the time limit, TLE.
        assert_eq!(truncated(Exit::Code(0), 1050), None);
        // A crash is the crash's.
        assert_eq!(truncated(Exit::Code(1), 500), None);
    }
}
