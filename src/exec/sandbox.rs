//! The containment around each run: a private working directory, a scrubbed
//! environment, resource limits, and the sweep that kills everything a case
//! started when it ends.
//!
//! One [`Sandbox`] serves a whole `judge run`; each case takes a
//! [`SlotGuard`] for its worker slot. What is enforced is listed in
//! [`Protections`], which reports show, so a user knows which protections
//! are off on this machine.
//!
//! Orphans: the judge makes itself a child subreaper, so a descendant that
//! escapes its process group (double fork, `setsid`) is re-parented to the
//! judge when its parent dies, and the sweep after each case finds it among
//! the judge's own children. Spawns and sweeps exclude each other (an
//! `RwLock`), so a sweep never mistakes another worker's program that is
//! just starting for an orphan.

use super::Limits;
use super::process::{ChildSetup, Trust, cpu_soft_limit};
use super::procfs;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard};
use std::time::Duration;

/// What the sandbox enforces on this machine, for the reports.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Protections {
    /// Names of protections in force.
    pub on: Vec<String>,
    /// Protections not available here, each with the reason.
    pub off: Vec<String>,
}

/// Shared by every worker of a run.
pub struct Sandbox {
    scratch: tempfile::TempDir,
    interrupt: Option<Arc<OwnedFd>>,
    protections: Protections,
    /// Main processes of running cases: never orphans.
    active: Mutex<HashSet<i32>>,
    /// Spawning takes it shared, the orphan sweep exclusively.
    spawn_lock: RwLock<()>,
    subreaper: bool,
}

/// Options a user can set.
#[derive(Clone, Debug, Default)]
pub struct SandboxOptions {
    /// Where the private working directories go (default: the system's temp dir).
    pub temp_root: Option<PathBuf>,
    /// The read end of the judge's interrupt pipe (readable after Ctrl-C).
    pub interrupt: Option<Arc<OwnedFd>>,
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
        let subreaper =
            rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok();
        let mut protections = Protections::default();
        protections.on.extend(
            [
                "own process group, killed after each case",
                "CPU, wall-clock, memory, stack, output and file-size limits",
                "scrubbed environment",
                "private temporary working directory",
                "no core dumps",
            ]
            .map(String::from),
        );
        if subreaper {
            protections
                .on
                .push("escaped descendants swept (child subreaper)".into());
        } else {
            protections
                .off
                .push("orphan sweep: PR_SET_CHILD_SUBREAPER refused".into());
        }
        Ok(Sandbox {
            scratch,
            interrupt: options.interrupt,
            protections,
            active: Mutex::new(HashSet::new()),
            spawn_lock: RwLock::new(()),
            subreaper,
        })
    }

    pub fn protections(&self) -> &Protections {
        &self.protections
    }

    pub fn interrupt_fd(&self) -> Option<Arc<OwnedFd>> {
        self.interrupt.clone()
    }

    /// Prepare one case on worker `slot`: a fresh working directory.
    pub fn slot(
        &self,
        slot: usize,
        limits: &Limits,
        trust: Trust,
    ) -> Result<SlotGuard<'_>, String> {
        let workdir = tempfile::Builder::new()
            .prefix(&format!("w{slot}-"))
            .tempdir_in(self.scratch.path())
            .map_err(|e| format!("cannot create a working directory: {e}"))?;
        Ok(SlotGuard {
            sandbox: self,
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
        let Some(children) = procfs::own_children() else {
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

/// One case's share of the sandbox. Dropping it removes the working
/// directory.
pub struct SlotGuard<'a> {
    sandbox: &'a Sandbox,
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
        if let Some(memory) = limits.memory {
            rlimits.push((libc::RLIMIT_AS, memory, memory));
        }
        let stack = limits.stack.unwrap_or(unlimited);
        rlimits.push((libc::RLIMIT_STACK, stack, stack));
        if let Some(nproc) = self.nproc_limit() {
            rlimits.push((libc::RLIMIT_NPROC, nproc, nproc));
        }
        ChildSetup {
            rlimits,
            cgroup_procs_fd: None,
            user: None,
            unshare_flags: 0,
            hide: Vec::new(),
            tmpfs: c"tmpfs".to_owned(),
            no_new_privs: true,
        }
    }

    /// RLIMIT_NPROC counts every process of the real user, so for a user
    /// who runs other things it is the current count plus the cap
    /// (approximate). Root ignores RLIMIT_NPROC altogether.
    fn nproc_limit(&self) -> Option<u64> {
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        if uid == 0 {
            return None;
        }
        let mine = procfs::processes().iter().filter(|p| p.uid == uid).count() as u64;
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

    /// How many processes are in the run's group now.
    pub fn count_processes(&self, pgid: i32) -> usize {
        procfs::processes()
            .iter()
            .filter(|p| p.pgid == pgid && p.state != 'Z')
            .count()
    }

    /// Kill the whole process group, then every escaped descendant, until
    /// nothing of the run is left (bounded: a few milliseconds).
    /// `main_reaped`: the runner has reaped the main process, so its
    /// children are re-parented to the judge and can be swept.
    pub fn kill_everything(&self, pgid: i32, main_reaped: bool) {
        for round in 0..50 {
            // SAFETY: signalling a process group we created.
            let group_alive = unsafe { libc::kill(-pgid, libc::SIGKILL) } == 0;
            let swept = if main_reaped {
                self.sandbox.sweep_orphans()
            } else {
                0
            };
            if !group_alive && swept == 0 {
                return;
            }
            if round > 0 {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }

    /// The cgroup's findings, when the run had a cgroup.
    pub fn cgroup_report(&self) -> Option<CgroupReport> {
        None
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

/// Remove a working directory even if the program made parts of it
/// unreadable or unwritable to its owner.
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

/// What a run's cgroup saw.
#[derive(Clone, Debug, Default)]
pub struct CgroupReport {
    pub peak_bytes: Option<u64>,
    pub memory_failures: u64,
    pub oom_kills: u64,
    pub pids_refused: u64,
}
