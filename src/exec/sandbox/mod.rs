//! The containment around each run, as strong as the machine allows, and
//! an honest list of what is enforced ([`Protections`], shown in every
//! report).
//!
//! Always: a private working directory (removed afterwards), a scrubbed
//! environment, resource limits (CPU, wall clock, address space, stack,
//! output, file size, processes, no core dumps), its own process group, and
//! the sweep that kills everything a case started when it ends. Then, by
//! what the machine allows ([`Isolation`]):
//! - **root** (CI, containers): each worker slot runs its programs as its
//!   own unprivileged user (`uid_base + slot`, as isolate's boxes), inside
//!   the slot's mount, network, IPC and UTS namespaces (see
//!   [`namespaces`]): no network, the cases and the judge's files hidden;
//! - **user namespaces** (a user without root where the kernel allows
//!   unprivileged user namespaces): the same namespaces, under the judge's
//!   own user;
//! - **plain**: limits only.
//!
//! cgroups ([`cgroup`]) add a process cap, whole-run memory accounting and
//! a kill-all list when writable; they are never required.
//!
//! Orphans: the judge is a child subreaper, so a descendant that escapes
//! its process group (double fork, `setsid`) is re-parented to the judge
//! when its parent dies, and the sweep after each case finds it among the
//! judge's own children. Spawns and sweeps exclude each other (an
//! `RwLock`), so a sweep never mistakes a program that is just starting for
//! an orphan.

pub mod cgroup;
pub mod child;
pub mod namespaces;

use super::Limits;
use super::process::{Trust, cpu_soft_limit};
use cgroup::{CgroupReport, CgroupRoot, SlotCgroup};
use child::ChildSetup;
use namespaces::{NamespacePlan, SlotNamespaces};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::ffi::{CString, OsString};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard};
use std::time::Duration;

/// What the sandbox enforces on this machine, for the reports.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Protections {
    /// How untrusted programs are isolated: `root`, `user-namespace` or `plain`.
    #[serde(default)]
    pub isolation: String,
    /// Protections in force.
    pub on: Vec<String>,
    /// Protections not available here, each with the reason and what it means.
    pub off: Vec<String>,
}

/// How untrusted programs are isolated (the strongest the machine allows,
/// unless `--sandbox plain` asks for less).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Root: a user per slot, namespaces.
    Root,
    /// Not root: namespaces inside a user namespace.
    UserNamespace,
    /// Limits only.
    Plain,
}

/// What a user asks for (`--sandbox`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SandboxMode {
    /// The strongest isolation the machine allows.
    #[default]
    Auto,
    /// Limits only: no namespaces, no user switch, no cgroups.
    Plain,
}

/// Options a run sets.
#[derive(Clone, Debug)]
pub struct SandboxOptions {
    /// Where the private working directories go (default: the system's temp dir).
    pub temp_root: Option<PathBuf>,
    /// The read end of the judge's interrupt pipe (readable after Ctrl-C).
    pub interrupt: Option<Arc<OwnedFd>>,
    pub mode: SandboxMode,
    /// Directories and files untrusted programs must not see (cases roots,
    /// judge.toml, reference solutions, checkers).
    pub hide: Vec<PathBuf>,
    /// Worker slots that may run at once (`-j`).
    pub slots: usize,
    /// First user id of the per-slot users (root only).
    pub uid_base: u32,
}

/// The default first uid of the per-slot users (isolate uses 60000).
pub const DEFAULT_UID_BASE: u32 = 61000;

/// Users reserved per judge process: at most this many worker slots.
const UIDS_PER_JUDGE: u32 = 256;

/// Reserve a block of [`UIDS_PER_JUDGE`] user ids for this judge process, so
/// that judges running at the same time (parallel CI jobs) never share a
/// user: the first block whose lock file this process can `flock`. The lock
/// goes with the process. Returns the block's first uid and the open lock.
fn reserve_uid_block(base: u32) -> Result<(u32, std::fs::File), String> {
    use std::os::fd::AsFd;
    // A fixed place, not TMPDIR: every judge on the machine must see the
    // same locks. The files stay (they are reused); the locks go with
    // their processes.
    let dir = ["/run/lock", "/var/lock", "/tmp"]
        .iter()
        .map(Path::new)
        .find(|d| d.is_dir())
        .unwrap_or(Path::new("/tmp"));
    for block in 0..1024u32 {
        let path = dir.join(format!("judge-uids-{base}-{block}.lock"));
        let Ok(file) = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
        else {
            continue;
        };
        if rustix::fs::flock(
            file.as_fd(),
            rustix::fs::FlockOperation::NonBlockingLockExclusive,
        )
        .is_ok()
        {
            return Ok((base + block * UIDS_PER_JUDGE, file));
        }
    }
    Err(format!(
        "no free block of user ids from {base} (1024 judges at once?)"
    ))
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            temp_root: None,
            interrupt: None,
            mode: SandboxMode::Auto,
            hide: Vec::new(),
            slots: std::thread::available_parallelism().map_or(1, |n| n.get()),
            uid_base: DEFAULT_UID_BASE,
        }
    }
}

/// One worker slot's standing resources.
struct SlotState {
    namespaces: Option<SlotNamespaces>,
    cgroup: Option<Mutex<SlotCgroup>>,
    /// (uid, gid) its programs run as (root isolation).
    user: Option<(u32, u32)>,
}

/// Shared by every worker of a run.
pub struct Sandbox {
    scratch: Option<tempfile::TempDir>,
    scratch_path: PathBuf,
    interrupt: Option<Arc<OwnedFd>>,
    protections: Protections,
    isolation: Isolation,
    ns_plan: Option<NamespacePlan>,
    cgroups: Option<CgroupRoot>,
    slots: Vec<OnceLock<Result<SlotState, String>>>,
    uid_base: u32,
    /// Holds this process's block of user ids (root isolation).
    _uid_lock: Option<std::fs::File>,
    hide: Vec<PathBuf>,
    /// Files copied where the per-slot users can reach them: (from, to).
    staged: Mutex<Vec<(PathBuf, PathBuf)>>,
    /// Main processes of running cases: never orphans.
    active: Mutex<HashSet<i32>>,
    /// Spawning takes it shared, the orphan sweep exclusively.
    spawn_lock: RwLock<()>,
    subreaper: bool,
    children_list: bool,
}

impl Sandbox {
    pub fn new(options: SandboxOptions) -> Result<Sandbox, String> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("judge-run-");
        let scratch = match &options.temp_root {
            Some(root) => builder.tempdir_in(root),
            None => builder.tempdir(),
        }
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let scratch_path = scratch.path().to_path_buf();
        let subreaper =
            rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok();
        let children_list = super::procfs::own_children().is_some();
        // SAFETY: geteuid cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let mut protections = Protections::default();
        protections.on.extend(
            [
                "own process group, killed after each case",
                "limits: CPU, wall clock, address space, stack, output, file size, processes",
                "scrubbed environment",
                "private working directory, removed after each case",
                "no core dumps, no new privileges",
            ]
            .map(String::from),
        );
        if subreaper && children_list {
            protections
                .on
                .push("escaped descendants swept (child subreaper)".into());
        } else {
            protections
                .off
                .push("orphan sweep: the kernel refused PR_SET_CHILD_SUBREAPER or /proc/self/task/*/children".into());
        }
        let hide: Vec<PathBuf> = options
            .hide
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| !scratch_path.starts_with(p))
            .collect();
        let mut sandbox = Sandbox {
            scratch: Some(scratch),
            scratch_path,
            interrupt: options.interrupt,
            protections,
            isolation: Isolation::Plain,
            ns_plan: None,
            cgroups: None,
            slots: (0..options.slots.clamp(1, UIDS_PER_JUDGE as usize))
                .map(|_| OnceLock::new())
                .collect(),
            uid_base: options.uid_base,
            _uid_lock: None,
            hide,
            staged: Mutex::new(Vec::new()),
            active: Mutex::new(HashSet::new()),
            spawn_lock: RwLock::new(()),
            subreaper,
            children_list,
        };
        if options.mode == SandboxMode::Plain {
            sandbox.protections.isolation = "plain".into();
            sandbox
                .protections
                .off
                .push("isolation: --sandbox plain asked for limits only (no separate user, no namespaces, no cgroups)".into());
            if root {
                sandbox.protections.off.push(
                    "process cap: root ignores RLIMIT_NPROC and plain mode has no cgroup, so a fork bomb is stopped only by the time limits"
                        .into(),
                );
            }
            return Ok(sandbox);
        }
        sandbox.choose_isolation(root);
        Ok(sandbox)
    }

    /// Probe namespaces and cgroups; fill in the protections.
    fn choose_isolation(&mut self, root: bool) {
        let (hide_dirs, hide_files): (Vec<PathBuf>, Vec<PathBuf>) =
            self.hide.iter().cloned().partition(|p| p.is_dir());
        // SAFETY: getuid/getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let plan = NamespacePlan {
            user: (!root).then_some((uid, gid)),
            hide_dirs,
            hide_files,
            scratch: self.scratch_path.clone(),
        };
        // Making slot 0's namespaces is the probe: if it works, every slot's will.
        let probe = namespaces::create(&plan);
        let ns_ok = probe.is_ok();
        self.isolation = match (root, ns_ok) {
            (true, _) => Isolation::Root,
            (false, true) => Isolation::UserNamespace,
            (false, false) => Isolation::Plain,
        };
        self.protections.isolation = match self.isolation {
            Isolation::Root => "root",
            Isolation::UserNamespace => "user-namespace",
            Isolation::Plain => "plain",
        }
        .to_string();
        let on = &mut self.protections.on;
        let off = &mut self.protections.off;
        if root {
            match reserve_uid_block(self.uid_base) {
                Ok((first, lock)) => {
                    self.uid_base = first;
                    self._uid_lock = Some(lock);
                }
                Err(e) => off.push(format!(
                    "a private block of user ids: {e}; sharing uids from {}",
                    self.uid_base
                )),
            }
            on.push(format!(
                "own unprivileged user per worker (uid {}+): cannot signal the judge or read its memory, exact process cap",
                self.uid_base
            ));
            if let Err(e) = std::fs::set_permissions(
                &self.scratch_path,
                std::os::unix::fs::PermissionsExt::from_mode(0o711),
            ) {
                off.push(format!("scratch directory permissions: {e}"));
            }
        } else {
            off.push(
                "separate user: the judge is not root, so a submission runs as you (it could signal the judge; run as root in CI)"
                    .into(),
            );
            // Close the judge's /proc entries (its open answer files, its
            // root directory link) to programs of the same user.
            // SAFETY: prctl on ourselves.
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
        }
        match &probe {
            Ok(_) => {
                on.push("network namespace: no network".into());
                on.push(format!(
                    "mount namespace: {} cases and judge file{} hidden, /tmp read-only",
                    self.hide.len(),
                    if self.hide.len() == 1 { "" } else { "s" }
                ));
                on.push("IPC and UTS namespaces".into());
            }
            Err(e) => off.push(format!(
                "namespaces ({e}): a submission can use the network and read the cases and answer files"
            )),
        }
        match CgroupRoot::detect(&format!("judge-{}", std::process::id())) {
            Ok(root) => {
                on.push(format!("{}: process cap, memory of every process, OOM kills", root.describe()));
                self.cgroups = Some(root);
            }
            Err(e) => off.push(format!(
                "cgroups ({e}): memory is measured per process (rusage), the process cap is RLIMIT_NPROC{}",
                if root { "" } else { " (approximate: it counts all your processes)" }
            )),
        }
        if ns_ok {
            self.ns_plan = Some(plan);
            if let (Ok(ns), Some(first)) = (probe, self.slots.first()) {
                let state = self.make_slot(0, Some(ns));
                let _ = first.set(state);
            }
        }
    }

    fn make_slot(
        &self,
        slot: usize,
        namespaces: Option<SlotNamespaces>,
    ) -> Result<SlotState, String> {
        let namespaces = match (namespaces, &self.ns_plan) {
            (Some(ns), _) => Some(ns),
            (None, Some(plan)) => {
                // The holder is a child of the judge: no orphan sweep may
                // run while it lives.
                let _no_sweep = self.spawn_lock.read().unwrap_or_else(|e| e.into_inner());
                Some(namespaces::create(plan).map_err(|e| format!("slot {slot} namespaces: {e}"))?)
            }
            (None, None) => None,
        };
        let cgroup = match &self.cgroups {
            Some(root) => Some(Mutex::new(
                root.slot(slot)
                    .map_err(|e| format!("slot {slot} cgroup: {e}"))?,
            )),
            None => None,
        };
        let user = (self.isolation == Isolation::Root).then(|| {
            let id = self.uid_base + slot as u32;
            (id, id)
        });
        Ok(SlotState {
            namespaces,
            cgroup,
            user,
        })
    }

    pub fn protections(&self) -> &Protections {
        &self.protections
    }

    pub fn isolation(&self) -> Isolation {
        self.isolation
    }

    pub fn interrupt_fd(&self) -> Option<Arc<OwnedFd>> {
        self.interrupt.clone()
    }

    /// An error if an untrusted program or one of its file arguments lies
    /// in a hidden directory (it would not be found inside the namespace).
    pub fn check_visible(&self, path: &Path) -> Result<(), String> {
        if self.ns_plan.is_none() {
            return Ok(());
        }
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match self.hide.iter().find(|h| real.starts_with(h)) {
            Some(h) => Err(format!(
                "{} is inside {}, which submissions cannot see (it holds cases or judge files); move the program elsewhere",
                path.display(),
                h.display()
            )),
            None => Ok(()),
        }
    }

    /// A path an untrusted program can use for `path` (its own program, a
    /// script it is given): unchanged when every user may reach it, else —
    /// under root isolation, where programs run as other users — a copy in
    /// the run's scratch directory (made once, mode 0755). Compiled
    /// binaries in a private cache such as /root/.cache are the usual case.
    pub fn stage(&self, path: &Path) -> Result<PathBuf, String> {
        if self.isolation != Isolation::Root || reachable_by_others(path) {
            return Ok(path.to_path_buf());
        }
        let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(copy) = staged
            .iter()
            .find(|(from, _)| from == path)
            .map(|(_, to)| to.clone())
        {
            return Ok(copy);
        }
        use std::os::unix::fs::PermissionsExt;
        let dir = self.scratch_path.join(format!("program-{}", staged.len()));
        std::fs::create_dir(&dir)
            .and_then(|_| std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711)))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = path.file_name().unwrap_or(std::ffi::OsStr::new("program"));
        let copy = dir.join(name);
        std::fs::copy(path, &copy)
            .and_then(|_| std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)))
            .map_err(|e| format!("cannot copy {} for the sandbox user: {e}", path.display()))?;
        staged.push((path.to_path_buf(), copy.clone()));
        Ok(copy)
    }

    /// Prepare one run on worker `slot`: a fresh working directory, and
    /// for an untrusted program the slot's user, namespaces and cgroup.
    pub fn slot(
        &self,
        slot: usize,
        limits: &Limits,
        trust: Trust,
    ) -> Result<SlotGuard<'_>, String> {
        let contained = self.isolation != Isolation::Plain || self.cgroups.is_some();
        let state = if trust == Trust::Untrusted && contained {
            let cell = self.slots.get(slot).ok_or_else(|| {
                format!(
                    "worker slot {slot} is beyond the {} prepared",
                    self.slots.len()
                )
            })?;
            match cell.get_or_init(|| self.make_slot(slot, None)) {
                Ok(state) => Some(state),
                Err(e) => return Err(e.clone()),
            }
        } else {
            None
        };
        let workdir = tempfile::Builder::new()
            .prefix(&format!("w{slot}-"))
            .tempdir_in(&self.scratch_path)
            .map_err(|e| format!("cannot create a working directory: {e}"))?;
        if let Some((uid, gid)) = state.and_then(|s| s.user) {
            std::os::unix::fs::chown(workdir.path(), Some(uid), Some(gid))
                .map_err(|e| format!("cannot give the working directory to uid {uid}: {e}"))?;
        }
        let cgroup = match state.and_then(|s| s.cgroup.as_ref()) {
            Some(m) => {
                let mut guard = m.lock().unwrap_or_else(|e| e.into_inner());
                guard.prepare(limits.memory, limits.processes);
                Some(guard)
            }
            None => None,
        };
        Ok(SlotGuard {
            sandbox: self,
            state,
            cgroup,
            workdir: Some(workdir),
            processes: limits.processes,
            trust,
            spawn: None,
            main: Mutex::new(None),
        })
    }

    /// Kill and reap the judge's children that are not the main process of
    /// a running case: descendants re-parented to the judge.
    fn sweep_orphans(&self) -> usize {
        if !self.subreaper {
            return 0;
        }
        let _exclusive = self.spawn_lock.write().unwrap_or_else(|e| e.into_inner());
        let Some(children) = super::procfs::own_children() else {
            return 0;
        };
        let active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        let mut killed = 0;
        for pid in children.into_iter().filter(|p| !active.contains(p)) {
            // SAFETY: signalling and reaping a child of ours by its pid.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                let mut status = 0;
                libc::waitpid(pid, &mut status, 0);
            }
            killed += 1;
        }
        killed
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        for cell in &self.slots {
            if let Some(Ok(state)) = cell.get()
                && let Some(cg) = &state.cgroup
            {
                cg.lock().unwrap_or_else(|e| e.into_inner()).remove();
            }
        }
        if let Some(root) = &self.cgroups {
            root.remove();
        }
        if let Some(dir) = self.scratch.take() {
            remove_tree(dir);
        }
    }
}

/// One run's share of the sandbox. Dropping it removes the working
/// directory.
pub struct SlotGuard<'a> {
    sandbox: &'a Sandbox,
    state: Option<&'a SlotState>,
    cgroup: Option<MutexGuard<'a, SlotCgroup>>,
    workdir: Option<tempfile::TempDir>,
    processes: u32,
    trust: Trust,
    spawn: Option<RwLockReadGuard<'a, ()>>,
    main: Mutex<Option<i32>>,
}

impl SlotGuard<'_> {
    pub fn workdir(&self) -> &Path {
        self.workdir.as_ref().map_or(Path::new("/"), |w| w.path())
    }

    /// The whole environment of the program: for a submission nothing of
    /// the judge's; a trusted tool gets the judge's environment (its PATH
    /// finds the toolchain).
    pub fn environment(&self) -> Vec<(OsString, OsString)> {
        if self.trust == Trust::Trusted {
            return std::env::vars_os().collect();
        }
        let dir = self.workdir().as_os_str().to_os_string();
        vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("HOME".into(), dir.clone()),
            ("TMPDIR".into(), dir),
            ("LANG".into(), "C.UTF-8".into()),
            ("ONLINE_JUDGE".into(), "1".into()),
        ]
    }

    /// The limits and switches applied between fork and exec.
    pub fn child_setup(&self, limits: &Limits) -> ChildSetup {
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
        {
            rlimits.push((libc::RLIMIT_AS, memory, memory));
        }
        let stack = limits.stack.unwrap_or(unlimited);
        rlimits.push((libc::RLIMIT_STACK, stack, stack));
        let mut setup = ChildSetup {
            no_new_privs: true,
            ..ChildSetup::default()
        };
        if self.trust == Trust::Untrusted {
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
        let mine = super::procfs::processes()
            .iter()
            .filter(|p| p.uid == uid)
            .count() as u64;
        Some(mine + u64::from(self.processes))
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
        super::procfs::processes()
            .iter()
            .filter(|p| p.pgid == pgid && p.state != 'Z')
            .count()
    }

    /// Kill the whole process group, every process of the run's cgroup, and
    /// every escaped descendant, until nothing of the run is left (bounded:
    /// a few milliseconds). `main_reaped`: the runner has reaped the main
    /// process, so its children are re-parented to the judge and can be swept.
    pub fn kill_everything(&self, pgid: i32, main_reaped: bool) {
        for round in 0..50 {
            // SAFETY: signalling a process group we created.
            let group_alive = unsafe { libc::kill(-pgid, libc::SIGKILL) } == 0;
            let cgroup_alive = self.cgroup.as_ref().is_some_and(|cg| cg.kill_all());
            let swept = if main_reaped {
                self.sandbox.sweep_orphans()
            } else {
                0
            };
            let user_alive = main_reaped && !self.sandbox.children_list && self.kill_user();
            if !group_alive && !cgroup_alive && swept == 0 && !user_alive {
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
        if let Some(dir) = self.workdir.take() {
            remove_tree(dir);
        }
    }
}

/// Whether a user other than the owner can reach `path`: every directory
/// on the way searchable by others, the file itself readable and (for an
/// executable) executable by others.
fn reachable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    let mode = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode())
            .unwrap_or(0)
    };
    let file = mode(&real);
    let file_ok = file & 0o004 != 0 && (file & 0o111 == 0 || file & 0o001 != 0);
    file_ok && real.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0)
}

/// Remove a directory tree even if a program made parts of it unreadable
/// or unwritable to its owner.
fn remove_tree(dir: tempfile::TempDir) {
    let path = dir.path().to_path_buf();
    if dir.close().is_ok() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(&path)
        .into_iter()
        .filter_map(|e| e.ok())
    {
        if entry.file_type().is_dir() {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o700));
        }
    }
    let _ = std::fs::remove_dir_all(&path);
}
