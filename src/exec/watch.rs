//! The event loop that watches one running program: its stdout and stderr
//! pipes (stdout kept up to the output limit, the tail of stderr), its
//! pidfd, the wall-clock deadline, its CPU time and the judge's interrupt
//! pipe. It kills the run when a limit is hit and says what it saw
//! ([`Watched`]); `launch` (`process.rs`) concludes the outcome.

use super::{LimitHit, STDERR_TAIL};
use crate::exec::sandbox::SlotGuard;
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::collections::VecDeque;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The file descriptors a run is watched through.
pub(super) struct Watch {
    pub(super) pid: i32,
    pub(super) stdout: Option<OwnedFd>,
    pub(super) stderr: Option<OwnedFd>,
    pub(super) pidfd: Option<OwnedFd>,
    pub(super) interrupt: Option<Arc<OwnedFd>>,
    /// Readable (closed by the other end) when the run is to stop: see
    /// `Piped::stop`.
    pub(super) stop: Option<OwnedFd>,
    pub(super) deadline: Instant,
    pub(super) output_limit: u64,
    /// Output past the limit is dropped and the program runs on
    /// (`PastOutput::Truncate`), instead of a kill.
    pub(super) truncate: bool,
}

/// What the event loop saw.
#[derive(Default)]
pub(super) struct Watched {
    pub(super) stdout: super::captured::Capture,
    pub(super) stderr: VecDeque<u8>,
    stdout_open: bool,
    stderr_open: bool,
    pub(super) limit_hit: Option<LimitHit>,
    pub(super) interrupted: bool,
    /// Stopped through `Watch::stop`.
    pub(super) stopped: bool,
    /// Standard output passed its limit and the rest was dropped
    /// (`Watch::truncate`).
    pub(super) truncated: bool,
    /// How many processes the run had when the judge killed it for time.
    pub(super) group_size_at_kill: usize,
    /// The run's CPU time at the last look (every process the look could
    /// see; see `SlotGuard::cpu_used`).
    pub(super) group_cpu: Duration,
}

impl Watch {
    /// Watch until the program exits, a limit is hit or the judge is
    /// interrupted. CPU time is looked at from half the time limit on (a
    /// program cannot use more CPU than wall-clock time per thread), so a
    /// spinning program is stopped close to its limit, not at RLIMIT_CPU's
    /// next whole second, and a fast one costs no look at all.
    pub(super) fn run(&self, slot: &SlotGuard, cpu_limit: Duration) -> Watched {
        for fd in [&self.stdout, &self.stderr].into_iter().flatten() {
            let _ = set_nonblocking(fd);
        }
        let mut w = Watched {
            stdout_open: self.stdout.is_some(),
            stderr_open: self.stderr.is_some(),
            ..Watched::default()
        };
        let started = Instant::now();
        // With every process counted (several may spend CPU at once), look
        // from the start and often; with the main process's time alone, a
        // process cannot spend more than the wall clock, so from half the
        // limit on.
        let all = slot.counts_all_cpu();
        let check_every = if all {
            (cpu_limit / 20).clamp(Duration::from_millis(5), Duration::from_millis(50))
        } else {
            (cpu_limit / 10).clamp(Duration::from_millis(10), Duration::from_millis(200))
        };
        let first = if all { check_every } else { cpu_limit / 2 };
        let mut next_cpu_check = started + first.max(Duration::from_millis(5));
        // A young program's pipes are not watched (see [`QUIET`]).
        let quiet_until = self.pidfd.as_ref().map(|_| started + QUIET);
        loop {
            let now = Instant::now();
            if now >= self.deadline {
                w.group_size_at_kill = slot.count_processes(self.pid);
                slot.kill_everything(self.pid, false);
                w.limit_hit = Some(LimitHit::Wall);
                return w;
            }
            if now >= next_cpu_check {
                let (cpu, _) = slot.cpu_used(self.pid);
                w.group_cpu = w.group_cpu.max(cpu);
                if cpu > cpu_limit {
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
            let quiet = quiet_until.is_some_and(|until| now < until);
            if let Some(until) = quiet_until.filter(|_| quiet) {
                wait = wait.min(until - now);
            }
            let timeout = Timespec {
                tv_sec: wait.as_secs() as i64,
                tv_nsec: i64::from(wait.subsec_nanos()),
            };
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(5);
            let mut roles = Vec::with_capacity(5);
            if w.stdout_open
                && !quiet
                && let Some(fd) = &self.stdout
            {
                fds.push(PollFd::new(fd, PollFlags::IN));
                roles.push(Role::Stdout);
            }
            if w.stderr_open
                && !quiet
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
            if let Some(fd) = &self.stop {
                fds.push(PollFd::new(fd, PollFlags::IN));
                roles.push(Role::Stop);
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
            let mut stop = false;
            for (role, is_ready) in ready {
                if !is_ready {
                    continue;
                }
                match role {
                    Role::Stdout => {
                        if let Some(fd) = &self.stdout
                            && !w.take_stdout(fd, self.output_limit, self.truncate)
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
                    Role::Stop => stop = true,
                }
            }
            if exited {
                return w;
            }
            // Only a program still running is stopped: one that ended by
            // itself keeps its own end.
            if stop {
                slot.kill_everything(self.pid, false);
                w.stopped = true;
                return w;
            }
        }
    }
}

/// How long a program's pipes go unwatched after its start (with a pidfd
/// to see its end): most programs write their answer and exit within it,
/// and a pipe watched while its program writes wakes the judge for every
/// write — a hand-off between cores, or on a busy machine a preemption of
/// the program — only for the judge to read a few bytes it could read at
/// the end. A program that fills a pipe (64 KiB) sooner waits for the
/// first look, at most this long of wall-clock time and no CPU time; the
/// output limit is checked at that look as at any other.
const QUIET: Duration = Duration::from_millis(2);

#[derive(Clone, Copy)]
pub(super) enum Role {
    Stdout,
    Stderr,
    Exit,
    Interrupt,
    Stop,
}

impl Watched {
    /// Read what the program left in its pipes, without waiting for an end
    /// of file that an escaped descendant could hold back forever.
    pub(super) fn drain(&mut self, watch: &Watch) {
        if self.limit_hit == Some(LimitHit::Output) {
            return;
        }
        if let Some(fd) = &watch.stdout
            && self.stdout_open
            && !self.take_stdout(fd, watch.output_limit, watch.truncate)
        {
            self.limit_hit = Some(LimitHit::Output);
        }
        if let Some(fd) = &watch.stderr
            && self.stderr_open
        {
            read_stderr(fd, self);
        }
    }

    /// Read what standard output has now: kept up to `limit`; past it,
    /// false (a kill), or with `truncate` the rest read and dropped so the
    /// program runs on (true).
    fn take_stdout(&mut self, fd: &OwnedFd, limit: u64, truncate: bool) -> bool {
        if !self.truncated {
            if read_stdout(fd, self, limit) {
                return true;
            }
            if !truncate {
                return false;
            }
            self.truncated = true;
        }
        // At most 1 MiB a call: a pipe kept full (many writers) cannot
        // hold the judge here past its deadline and CPU checks.
        let mut sink = [0u8; 64 * 1024];
        for _ in 0..16 {
            match rustix::io::read(fd, &mut sink) {
                Ok(0) => {
                    self.stdout_open = false;
                    return true;
                }
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(rustix::io::Errno::AGAIN) => return true,
                Err(_) => {
                    self.stdout_open = false;
                    return true;
                }
            }
        }
        true
    }
}

/// The read end of a pipe of the run made non-blocking (`F_SETFL` changes
/// only the status flags, and a fresh pipe end has none to keep).
fn set_nonblocking(fd: &OwnedFd) -> rustix::io::Result<()> {
    rustix::fs::fcntl_setfl(fd, rustix::fs::OFlags::NONBLOCK)
}

/// Read all that is available now. False when the output limit is passed.
fn read_stdout(fd: &OwnedFd, w: &mut Watched, limit: u64) -> bool {
    let mut spill = [0u8; 64 * 1024];
    loop {
        let read = if w.stdout.in_memory() {
            // Read straight into the output's spare room (no buffer zeroed
            // and copied a case): at least 4 KiB, as much again as it
            // holds, and one byte past the limit to see it crossed.
            let held = w.stdout.held_mut();
            let room =
                usize::try_from(limit.saturating_sub(held.len() as u64)).unwrap_or(usize::MAX);
            held.reserve(held.len().max(4096).min(room.saturating_add(1)));
            let read = rustix::io::read(fd, rustix::buffer::spare_capacity(held));
            w.stdout.settle();
            read
        } else {
            // Past the spill: through a buffer into the spool file.
            match rustix::io::read(fd, &mut spill) {
                Ok(n) => {
                    w.stdout.push(&spill[..n]);
                    Ok(n)
                }
                Err(e) => Err(e),
            }
        };
        match read {
            Ok(0) => {
                w.stdout_open = false;
                return true;
            }
            Ok(_) => {
                if w.stdout.len() > limit {
                    w.stdout.truncate(limit);
                    return false;
                }
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
