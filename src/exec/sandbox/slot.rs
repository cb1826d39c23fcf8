//! A worker slot: its standing resources ([`SlotState`]: namespaces,
//! cgroup, user) and one run's share of them ([`SlotGuard`]): the
//! program's environment and limits, spawn registration, process counting
//! and the kill-everything sweep when the run ends.

use super::cgroup::{Adoption, CgroupError, CgroupReport, SlotCgroup};
use super::child::ChildSetup;
use super::launcher::Launcher;
use super::namespaces::{self, NamespaceError, SlotNamespaces};
use super::workdir::WorkdirError;
use super::{Isolation, Sandbox};
use crate::exec::Limits;
use crate::exec::process::{Trust, cpu_soft_limit};
use crate::exec::spawn::{SpawnError, SpawnPlan, Streams};
use std::ffi::{CString, OsString};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLockReadGuard};
use std::time::Duration;

/// Why a worker slot has no standing resources.
#[derive(Debug, thiserror::Error)]
pub enum SlotError {
    #[error("slot {slot} namespaces: {source}")]
    Namespaces { slot: usize, source: NamespaceError },
    #[error("slot {slot} cgroup: {source}")]
    Cgroup { slot: usize, source: CgroupError },
    #[error("worker slot {slot} is beyond the {prepared} prepared")]
    Beyond { slot: usize, prepared: usize },
}

/// Why one run could not be prepared on its slot.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// The slot's standing resources (made once, shared by its runs).
    #[error(transparent)]
    Slot(#[from] Arc<SlotError>),
    #[error(transparent)]
    Workdir(#[from] WorkdirError),
    #[error("{}: not a build directory of the sandbox", .0.display())]
    NotBuildDir(PathBuf),
    #[error(
        "{}: not a directory a package's program may write (inside {})",
        .dir.display(),
        .private.display()
    )]
    NotToolDir { dir: PathBuf, private: PathBuf },
}

/// One worker slot's standing resources.
pub(super) struct SlotState {
    pub(super) namespaces: Option<SlotNamespaces>,
    pub(super) cgroup: Option<Mutex<SlotCgroup>>,
    /// (uid, gid) its programs run as (root isolation).
    pub(super) user: Option<(u32, u32)>,
    /// The process that starts its programs inside its namespaces (see
    /// `launcher`); none without a PID namespace, or if it failed to start.
    pub(super) launcher: Option<Launcher>,
    /// Held by a build for its life (see `build_dir`).
    pub(super) lease: Mutex<()>,
}

impl Sandbox {
    pub(super) fn make_slot(
        &self,
        slot: usize,
        namespaces: Option<SlotNamespaces>,
    ) -> Result<SlotState, SlotError> {
        let namespaces = match (namespaces, &self.ns_plan) {
            (Some(ns), _) => Some(ns),
            (None, Some(plan)) => {
                // The holder is a child of the judge, and the PID
                // namespace's init becomes one when the holder exits: no
                // orphan sweep may run until init is known as no orphan.
                let _no_sweep = self.spawn_lock.read().unwrap_or_else(|e| e.into_inner());
                let ns = namespaces::create(plan)
                    .map_err(|source| SlotError::Namespaces { slot, source })?;
                self.protect_init(&ns);
                Some(ns)
            }
            (None, None) => None,
        };
        if let Some(ns) = &namespaces {
            self.protect_init(ns);
        }
        let cgroup = match &self.cgroups {
            Some(root) => Some(Mutex::new(
                root.slot(slot)
                    .map_err(|source| SlotError::Cgroup { slot, source })?,
            )),
            None => None,
        };
        let user = (self.isolation == Isolation::Root).then(|| {
            let id = self.uid_base + slot as u32;
            (id, id)
        });
        let launcher = namespaces
            .as_ref()
            .and_then(|ns| self.start_launcher(ns, cgroup.as_ref()));
        Ok(SlotState {
            namespaces,
            cgroup,
            user,
            launcher,
            lease: Mutex::new(()),
        })
    }

    /// The standing resources of slot `slot` (made on first use), or
    /// `None` when untrusted programs get none (plain, no cgroup).
    pub(super) fn slot_state(&self, slot: usize) -> Result<Option<&SlotState>, Arc<SlotError>> {
        let contained = self.isolation != Isolation::Plain || self.cgroups.is_some();
        if !contained {
            return Ok(None);
        }
        let cell = self.slots.get(slot).ok_or_else(|| {
            Arc::new(SlotError::Beyond {
                slot,
                prepared: self.slots.len(),
            })
        })?;
        match cell.get_or_init(|| self.make_slot(slot, None).map_err(Arc::new)) {
            Ok(state) => Ok(Some(state)),
            Err(e) => Err(Arc::clone(e)),
        }
    }

    /// The slot's launcher, registered as no orphan to sweep; `None` (its
    /// programs started by the judge itself, as the protections are the
    /// same) if the slot has no PID namespace or it cannot start.
    /// With a cgroup v1, the launcher becomes a member of its `pids` and
    /// `cpuacct` hierarchies (see `SlotCgroup::adopt`); one left in only
    /// one of them is ended.
    fn start_launcher(
        &self,
        ns: &SlotNamespaces,
        cgroup: Option<&Mutex<SlotCgroup>>,
    ) -> Option<Launcher> {
        ns.pid.as_ref()?;
        // A child of the judge: no sweep until it is registered.
        let _no_sweep = self.spawn_lock.read().unwrap_or_else(|e| e.into_inner());
        let mut launcher = Launcher::start(ns, self.seccomp, self.memfd_refused).ok()?;
        if let Some(cg) = cgroup {
            match cg
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .adopt(launcher.pid)
            {
                Adoption::Done(joined) => launcher.joined = joined,
                Adoption::NotApplicable => {}
                Adoption::Partial(_) => return None,
            }
        }
        self.active
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(launcher.pid);
        Some(launcher)
    }
}

/// How long a count of the user's processes stands for RLIMIT_NPROC.
const PROCESS_COUNT_TTL: Duration = Duration::from_millis(100);

impl Sandbox {
    /// How many processes `uid` has, for RLIMIT_NPROC without a per-slot
    /// user (an approximate cap either way: the count moves as the user's
    /// other programs come and go). Counted from /proc at most every
    /// [`PROCESS_COUNT_TTL`]: the scan reads every process's `stat` and
    /// costs more than the whole rest of a case's start (0.25 ms a case
    /// on the project's machine, as many processes as a desktop's).
    fn processes_of(&self, uid: u32) -> u64 {
        let mut count = self.process_count.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, n)) = *count
            && at.elapsed() < PROCESS_COUNT_TTL
        {
            return n;
        }
        let n = crate::exec::procfs::processes()
            .iter()
            .filter(|p| p.uid == uid)
            .count() as u64;
        *count = Some((std::time::Instant::now(), n));
        n
    }

    /// Register a slot's PID-namespace init as no orphan to sweep.
    fn protect_init(&self, ns: &SlotNamespaces) {
        if let Some(pid) = &ns.pid {
            self.active
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(pid.init);
        }
    }
}

/// One run's share of the sandbox. Dropping it removes the working
/// directory.
pub struct SlotGuard<'a> {
    pub(super) sandbox: &'a Sandbox,
    pub(super) state: Option<&'a SlotState>,
    pub(super) cgroup: Option<MutexGuard<'a, SlotCgroup>>,
    pub(super) workdir: Option<super::workdir::Workdir>,
    pub(super) processes: u32,
    pub(super) trust: Trust,
    pub(super) spawn: Option<RwLockReadGuard<'a, ()>>,
    pub(super) main: Mutex<Option<i32>>,
    /// Everything of the run is known dead (the last sweep found nothing
    /// alive): its working directory may be reused if it is unchanged.
    pub(super) clean: std::sync::atomic::AtomicBool,
    /// An untrusted build's own directory (see `build_dir`), its working
    /// directory instead of the pool's.
    pub(super) build_dir: Option<std::path::PathBuf>,
}

/// The judge's variables a build gets besides the scrubbed environment:
/// where a rustup proxy finds its toolchains. Paths, never secrets.
const BUILD_VARIABLES: [&str; 2] = ["RUSTUP_HOME", "RUSTUP_TOOLCHAIN"];

impl SlotGuard<'_> {
    pub fn workdir(&self) -> &Path {
        if let Some(dir) = &self.build_dir {
            return dir;
        }
        self.workdir.as_ref().map_or(Path::new("/"), |w| w.path())
    }

    /// Run an untrusted build in its own directory (made by
    /// `Sandbox::build_dir`, inside the scratch directory) instead of a
    /// private working directory: its HOME and TMPDIR too.
    pub fn use_build_dir(&mut self, dir: &Path) -> Result<(), GuardError> {
        if self.trust != Trust::Untrusted || !inside_scratch(self.sandbox, dir) {
            return Err(GuardError::NotBuildDir(dir.to_path_buf()));
        }
        self.build_dir = Some(dir.to_path_buf());
        Ok(())
    }

    /// Run a package's program in `dir` (a generator's directory, whose
    /// files the judge keeps) instead of a private working directory. In
    /// the tools' namespaces it must lie in the judge's private directory,
    /// the one place they may write.
    pub fn use_tool_dir(&mut self, dir: &Path) -> Result<(), GuardError> {
        if self.trust != Trust::Trusted
            || (self.sandbox.tools.is_some() && !dir.starts_with(self.sandbox.private_dir()))
        {
            return Err(GuardError::NotToolDir {
                dir: dir.to_path_buf(),
                private: self.sandbox.private_dir(),
            });
        }
        self.build_dir = Some(dir.to_path_buf());
        Ok(())
    }

    /// The whole environment of the program: for a submission nothing of
    /// the judge's; a trusted tool gets the judge's environment (its PATH
    /// finds the toolchain).
    pub fn environment(&self) -> Vec<(OsString, OsString)> {
        let dir = self.workdir().as_os_str().to_os_string();
        if self.trust == Trust::Trusted {
            // Its temporary files (a compiler's `cc*.s`, left when it is
            // killed at its limit) go to the run's own directory, which
            // the judge removes, never to the judge's TMPDIR.
            return std::env::vars_os()
                .filter(|(k, _)| k != "TMPDIR")
                .chain(std::iter::once(("TMPDIR".into(), dir)))
                .collect();
        }
        // A read-only working directory's temporary files, and what a
        // runtime keeps in HOME, go to its own writable `tmp/`.
        let tmp = match (&self.build_dir, &self.workdir) {
            (None, Some(w)) => w.temporary().into_os_string(),
            _ => dir,
        };
        let mut scrubbed: Vec<(OsString, OsString)> = vec![
            ("PATH".into(), super::SANDBOX_PATH.into()),
            ("HOME".into(), tmp.clone()),
            ("TMPDIR".into(), tmp),
            ("LANG".into(), "C.UTF-8".into()),
            ("ONLINE_JUDGE".into(), "1".into()),
        ];
        if self.build_dir.is_some() {
            scrubbed.extend(
                BUILD_VARIABLES
                    .iter()
                    .filter_map(|k| Some((OsString::from(k), std::env::var_os(k)?))),
            );
        }
        scrubbed
    }

    /// The limits and switches applied between fork and exec.
    /// `address_space`: whether RLIMIT_AS may carry the memory limit when
    /// no cgroup does (false for a JVM, which reserves far more address
    /// space than it uses and gets its heap size from the limit instead).
    pub fn child_setup(&self, limits: &Limits, address_space: bool) -> ChildSetup {
        let unlimited = libc::RLIM_INFINITY;
        let cpu = cpu_soft_limit(limits.time).as_secs().max(1);
        let mut rlimits = vec![
            (libc::RLIMIT_CPU, cpu, cpu + 1),
            (libc::RLIMIT_CORE, 0, 0),
            (libc::RLIMIT_FSIZE, limits.file_size, limits.file_size),
        ];
        // The memory limit: a cgroup's (resident memory of every process of
        // the run; a program that overruns it is OOM-killed, a clear MLE),
        // or else the address space (RLIMIT_AS; an allocation fails, and
        // the program's reaction tells).
        let cgroup_limits_memory = self.cgroup.as_ref().is_some_and(|cg| cg.limits_memory());
        if let Some(memory) = limits.memory
            && !cgroup_limits_memory
            && address_space
        {
            rlimits.push((libc::RLIMIT_AS, memory, memory));
        }
        let stack = limits.stack.unwrap_or(unlimited);
        rlimits.push((libc::RLIMIT_STACK, stack, stack));
        let mut setup = ChildSetup {
            no_new_privs: true,
            ..ChildSetup::default()
        };
        if self.trust == Trust::Trusted
            && let Some(tools) = &self.sandbox.tools
        {
            // A package's program: in the tools' namespaces, where every
            // file is read-only but the judge's private directory (see
            // `tools`), with root's uid but none of its capabilities
            // beyond reading.
            setup.namespaces = tools
                .namespaces
                .entries
                .iter()
                .map(|(fd, kind)| (fd.as_raw_fd(), *kind))
                .collect();
            setup.workdir = CString::new(self.workdir().as_os_str().as_encoded_bytes()).ok();
            setup.keep_capabilities = tools.keep_capabilities;
            setup.seccomp = self.sandbox.seccomp;
            setup.tool_rule = self.sandbox.seccomp;
        }
        if self.trust == Trust::Untrusted {
            setup.seccomp = self.sandbox.seccomp;
            setup.no_memfd = self.sandbox.memfd_refused;
            rlimits.push((libc::RLIMIT_NOFILE, 256, 256));
            // A pids cgroup caps processes and threads and counts refusals
            // (the evidence a verdict names); RLIMIT_NPROC only when there
            // is none.
            let cgroup_caps = self.cgroup.as_ref().is_some_and(|cg| cg.limits_processes());
            if !cgroup_caps && let Some(nproc) = self.nproc_limit() {
                rlimits.push((libc::RLIMIT_NPROC, nproc, nproc));
            }
            if let Some(state) = self.state {
                if let Some(ns) = &state.namespaces {
                    setup.namespaces = ns
                        .entries
                        .iter()
                        .map(|(fd, kind)| (fd.as_raw_fd(), *kind))
                        .collect();
                    setup.pid_namespace = ns.pid.as_ref().map(|p| p.fd.as_raw_fd());
                    setup.own_ipc_namespace = true;
                    setup.own_cgroup_namespace = true;
                    setup.workdir =
                        CString::new(self.workdir().as_os_str().as_encoded_bytes()).ok();
                }
                setup.user = state.user;
            }
            if let Some(cg) = &self.cgroup {
                setup.cgroup_procs_fds = cg.join_fds();
            }
        }
        setup.rlimits = rlimits;
        setup
    }

    /// RLIMIT_NPROC counts every process of the real user. A worker's own
    /// user (root isolation) makes it exact; otherwise it is the user's
    /// current count plus the cap (approximate), and root without a switch
    /// is not limited by it at all.
    fn nproc_limit(&self) -> Option<u64> {
        if self.state.and_then(|s| s.user).is_some() {
            return Some(u64::from(self.processes));
        }
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        if uid == 0 {
            return None;
        }
        Some(self.sandbox.processes_of(uid) + u64::from(self.processes))
    }

    /// Called right before spawning: holds off orphan sweeps until the new
    /// main process is registered.
    pub fn before_spawn(&mut self) {
        self.spawn = Some(
            self.sandbox
                .spawn_lock
                .read()
                .unwrap_or_else(|e| e.into_inner()),
        );
    }

    /// Start the program: through the slot's launcher when it has one
    /// (an untrusted program in a slot with a PID namespace), else from
    /// this thread (`spawn::spawn`). Its pid once it has exec'd.
    pub fn spawn(
        &self,
        plan: &SpawnPlan,
        streams: Streams,
        setup: &ChildSetup,
    ) -> Result<i32, SpawnError> {
        if self.trust == Trust::Untrusted
            && let Some(launcher) = self.state.and_then(|s| s.launcher.as_ref())
            && let Some(started) = launcher.spawn(plan, streams, setup)
        {
            return started;
        }
        crate::exec::spawn::spawn(plan, streams, setup)
    }

    /// Called right after spawning (successfully or not).
    pub fn after_spawn(&mut self, pid: Option<i32>) {
        if let Some(pid) = pid {
            self.sandbox
                .active
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(pid);
            *self.main.lock().unwrap_or_else(|e| e.into_inner()) = Some(pid);
        }
        self.spawn = None;
    }

    /// How many processes the run has now (its cgroup, or its group).
    pub fn count_processes(&self, pgid: i32) -> usize {
        if let Some(cg) = &self.cgroup {
            return cg.processes().len();
        }
        crate::exec::procfs::processes()
            .iter()
            .filter(|p| p.pgid == pgid && p.state != 'Z')
            .count()
    }

    /// Kill the whole process group, every process of the run's cgroup, and
    /// every escaped descendant, until nothing of the run is left (bounded:
    /// a few milliseconds). `main_reaped`: the runner has reaped the main
    /// process, so its children are re-parented to the judge and can be swept.
    pub fn kill_everything(&self, pgid: i32, main_reaped: bool) {
        let pid_namespace = self
            .state
            .filter(|_| self.trust == Trust::Untrusted)
            .and_then(|s| s.namespaces.as_ref())
            .and_then(|ns| ns.pid.as_ref());
        let in_pid_namespace = pid_namespace.is_some();
        for round in 0..50 {
            // SAFETY: signalling a process group we created.
            let group_alive = unsafe { libc::kill(-pgid, libc::SIGKILL) } == 0;
            let cgroup_alive = self.cgroup.as_ref().is_some_and(|cg| cg.kill_all());
            // A run in a PID namespace leaves no orphan to the judge: what
            // its main process leaves is re-parented to the namespace's
            // init (the judge, outside, is not its subreaper), swept below.
            let swept = if main_reaped && !in_pid_namespace {
                self.sandbox.sweep_orphans()
            } else {
                0
            };
            let user_alive = main_reaped && !self.sandbox.children_list && self.kill_user();
            // The PID namespace's init kills and reaps what is left in it.
            let pid_ns_alive =
                main_reaped && pid_namespace.is_some_and(|p| p.occupied() && p.sweep());
            if !group_alive && !cgroup_alive && swept == 0 && !user_alive && !pid_ns_alive {
                if main_reaped {
                    self.clean.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                return;
            }
            if round > 0 {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }

    /// Kill every process of the slot's user (when the kernel gives no
    /// list of the judge's children): a forked helper takes the user's id
    /// and calls kill(-1), as DOMjudge's runguard does. True if any was alive.
    fn kill_user(&self) -> bool {
        let Some((uid, gid)) = self.state.and_then(|s| s.user) else {
            return false;
        };
        let _no_sweep = self
            .sandbox
            .spawn_lock
            .read()
            .unwrap_or_else(|e| e.into_inner());
        // SAFETY: the child only makes system calls and exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                if libc::setresgid(gid, gid, gid) != 0 || libc::setresuid(uid, uid, uid) != 0 {
                    libc::_exit(2);
                }
                let any = libc::kill(-1, libc::SIGKILL) == 0;
                libc::_exit(if any { 0 } else { 1 });
            }
            if pid < 0 {
                return false;
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
        }
    }

    /// The CPU time of the run so far and what measured it: its cgroup
    /// when that counts CPU (every process, reaped or not), else its
    /// process group from /proc.
    pub fn cpu_used(&self, pgid: i32) -> (Duration, crate::exec::CpuSource) {
        if let Some(cpu) = self.cgroup.as_ref().and_then(|cg| cg.cpu_used()) {
            return (cpu, crate::exec::CpuSource::Cgroup);
        }
        (
            crate::exec::procfs::group_cpu_time(pgid),
            crate::exec::CpuSource::ProcessGroup,
        )
    }

    /// Whether the run's CPU time is counted for every process it starts.
    pub fn counts_all_cpu(&self) -> bool {
        self.cgroup.as_ref().is_some_and(|cg| cg.counts_cpu())
    }

    /// The cgroup's findings, when the run had a cgroup.
    pub fn cgroup_report(&self) -> Option<CgroupReport> {
        self.cgroup.as_ref().map(|cg| cg.report())
    }
}

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        if let Some(pid) = *self.main.lock().unwrap_or_else(|e| e.into_inner()) {
            self.sandbox
                .active
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&pid);
        }
        let clean = self.clean.load(std::sync::atomic::Ordering::Relaxed);
        if !clean
            && self.trust == Trust::Untrusted
            && let Some(launcher) = self.state.and_then(|s| s.launcher.as_ref())
        {
            launcher.mark_unclean();
        }
        if let Some(dir) = self.workdir.take() {
            self.sandbox.workdirs.give_back(dir, clean);
        }
    }
}

/// Where a build's directory (`Sandbox::build_dir`) is, for
/// [`SlotGuard::use_build_dir`]'s check: inside the scratch directory.
pub(super) fn inside_scratch(sandbox: &Sandbox, dir: &Path) -> bool {
    dir.starts_with(&sandbox.scratch_path) && dir != sandbox.scratch_path
}
