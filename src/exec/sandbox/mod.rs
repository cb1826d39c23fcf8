//! The containment around each run, as strong as the machine allows, and
//! an honest list of what is enforced ([`Protections`], shown in every
//! report).
//!
//! Always: a private working directory (removed afterwards when the run
//! changed anything of it, else reused: see `workdir`), a scrubbed
//! environment, resource limits (CPU, wall clock, address space, stack,
//! output, file size, processes, no core dumps), its own process group, and
//! the sweep that kills everything a case started when it ends. Then, by
//! what the machine allows ([`Isolation`]):
//! - **root** (CI, containers): each worker slot runs its programs as its
//!   own unprivileged user (`uid_base + slot`, as isolate's boxes), inside
//!   the slot's mount, PID, network, IPC and UTS namespaces (see
//!   [`namespaces`]): no network, the cases and the judge's files hidden;
//! - **user namespaces** (a user without root where the kernel allows
//!   unprivileged user namespaces): the same namespaces, PID included,
//!   inside a user namespace, under the judge's own user;
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
//!
//! A judge killed with SIGKILL leaves its scratch directory (and cgroups):
//! the next judge cleans them (see `leftovers`).
//!
//! This file holds the [`Sandbox`] and its options; probing the machine is
//! `isolation`, a worker slot and one run's share of it (`SlotGuard`) are
//! `slot`.

mod build_dir;
pub mod cgroup;
pub mod child;
mod cover;
pub(crate) mod input;
mod isolation;
mod launcher;
mod leftovers;
pub mod namespaces;
mod pid_init;
pub(crate) mod remove;
mod seccomp;
mod slot;
mod staging;
mod toolchains;
mod tools;
mod workdir;

use super::Limits;
use super::process::Trust;
pub use build_dir::{BuildDir, BuildDirError, CollectError};
use cgroup::CgroupRoot;
use isolation::UIDS_PER_JUDGE;
use namespaces::NamespacePlan;
use serde::{Deserialize, Serialize};
use slot::SlotState;
pub use slot::{GuardError, SlotError, SlotGuard};
use std::collections::HashSet;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
pub use workdir::WorkdirError;

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

/// The prefix of every judge's scratch directory (made here, found again
/// by `leftovers.rs`, renamed aside by `remove.rs`).
const SCRATCH_PREFIX: &str = "judge-run-";

/// The PATH an untrusted program gets: the system's directories only.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

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
    /// Of those, what a program's command line may name but never gets a
    /// copy of (the cases, answers, judge.toml, checkers, reference
    /// solutions); the rest of what is hidden (a package, the project,
    /// HOME, the build cache) is copied out for a program that names a
    /// file of it (see `Sandbox::stage`).
    pub secret: Vec<PathBuf>,
    /// Worker slots that may run at once (`-j`).
    pub slots: usize,
    /// First user id of the per-slot users (root only).
    pub uid_base: u32,
}

/// The default first uid of the per-slot users (isolate uses 60000).
pub const DEFAULT_UID_BASE: u32 = 61000;

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            temp_root: None,
            interrupt: None,
            mode: SandboxMode::Auto,
            hide: Vec::new(),
            secret: Vec::new(),
            slots: std::thread::available_parallelism().map_or(1, |n| n.get()),
            uid_base: DEFAULT_UID_BASE,
        }
    }
}

/// Why a sandbox could not be made. (What the machine refuses — namespaces,
/// cgroups, seccomp — is not an error: it is said in `Protections::off`.)
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot create a temporary directory: {0}")]
    Scratch(std::io::Error),
    #[error(
        "the temporary directory {0} cannot be entered by other users (mode {1:o}): the sandbox's per-worker users could not reach their programs there; set TMPDIR to a directory every user may enter (chmod o+x, as /tmp is), or run with --sandbox plain"
    )]
    ClosedTemp(PathBuf, u32),
}

/// Why a tree or a file was not copied where the sandbox's users can
/// read it.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Walk(#[from] walkdir::Error),
    #[error(transparent)]
    Prefix(#[from] std::path::StripPrefixError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A program's copy (its path is said by the caller).
    #[error(transparent)]
    File(std::io::Error),
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
    slots: Vec<OnceLock<Result<SlotState, Arc<SlotError>>>>,
    uid_base: u32,
    /// Holds this process's block of user ids (root isolation), and its path.
    uid_lock: Option<(std::fs::File, PathBuf)>,
    /// This judge's lock on its scratch directory, held for its lifetime:
    /// a later judge that can take it knows this one is dead (see
    /// `leftovers`). Dropped after the directory is removed.
    scratch_lock: Option<OwnedFd>,
    hide: Vec<PathBuf>,
    /// Toolchains shown read-only in every slot's namespace (see
    /// `toolchains`).
    exposed: Vec<toolchains::Exposed>,
    /// Hidden places never copied for a command's argument (real paths).
    secret: Vec<PathBuf>,
    /// Files copied where the per-slot users can reach them: (from, to).
    staged: Mutex<Vec<(PathBuf, PathBuf)>>,
    /// Main processes of running cases: never orphans.
    active: Mutex<HashSet<i32>>,
    /// Spawning takes it shared, the orphan sweep exclusively.
    spawn_lock: RwLock<()>,
    subreaper: bool,
    children_list: bool,
    /// Untrusted programs get the seccomp filter (Internet sockets only,
    /// no keyring, no io_uring).
    seccomp: bool,
    /// And, when no memory cgroup counts what they hold, its memory rule
    /// (no `memfd_create`: see `seccomp::install_memory_rule`).
    memfd_refused: bool,
    /// The package's own programs' namespaces (see `tools`), when the
    /// machine allows them.
    tools: Option<tools::Tools>,
    /// Working directories a run left as it got them (see `workdir`).
    workdirs: workdir::Pool,
    /// The judge's user's process count and when it was taken (see
    /// `processes_of`).
    process_count: Mutex<Option<(std::time::Instant, u64)>>,
}

impl Sandbox {
    pub fn new(options: SandboxOptions) -> Result<Sandbox, SandboxError> {
        // What judges killed before left here: cleaned, and said.
        let temp_root = options.temp_root.clone().unwrap_or_else(std::env::temp_dir);
        for done in leftovers::clean(&temp_root) {
            eprintln!("judge: {done}");
        }
        let scratch = tempfile::Builder::new()
            .prefix(SCRATCH_PREFIX)
            .tempdir_in(&temp_root)
            .map_err(SandboxError::Scratch)?;
        let scratch_path = scratch.path().to_path_buf();
        staging::make_dirs(&scratch_path).map_err(SandboxError::Scratch)?;
        let scratch_lock = leftovers::lock_scratch(&scratch_path).ok();
        let subreaper =
            rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok();
        let children_list = super::procfs::own_children().is_some();
        // SAFETY: geteuid cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        if root && options.mode != SandboxMode::Plain {
            closed_above(&scratch_path)?;
        }
        let mut protections = Protections::default();
        protections.on.extend(
            [
                "own process group, killed after each case",
                "limits: CPU, wall clock, address space, stack, output, file size, processes",
                "scrubbed environment",
                "private working directory, removed after each case that changed it",
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
        // A directory that holds the judge's own scratch directory is
        // covered all the same, the scratch directory put back into the
        // cover (see `cover`); one that holds the system's own files
        // (`/`, a directory above /usr) cannot be: said, never silently
        // dropped.
        let (hide, unhidden): (Vec<PathBuf>, Vec<PathBuf>) = options
            .hide
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| !p.starts_with(&scratch_path))
            .partition(|p| !holds_the_system(p));
        // What lies inside a hidden directory is hidden with it (and could
        // not be covered again: it does not exist under the cover).
        let mut hide = hide;
        hide.sort();
        hide.dedup();
        let mut outermost: Vec<PathBuf> = Vec::with_capacity(hide.len());
        for p in hide {
            if !outermost.iter().any(|kept| p.starts_with(kept)) {
                outermost.push(p);
            }
        }
        let hide = outermost;
        for p in &unhidden {
            protections.off.push(format!(
                "hiding {}: it holds the system's programs and libraries, so submissions can read it (move judge.toml and the package into a directory of their own)",
                p.display(),
            ));
        }
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
            uid_lock: None,
            scratch_lock,
            hide,
            exposed: Vec::new(),
            secret: options
                .secret
                .iter()
                .filter_map(|p| std::fs::canonicalize(p).ok())
                .collect(),
            staged: Mutex::new(Vec::new()),
            active: Mutex::new(HashSet::new()),
            spawn_lock: RwLock::new(()),
            subreaper,
            children_list,
            seccomp: false,
            memfd_refused: false,
            tools: None,
            workdirs: workdir::Pool::default(),
            process_count: Mutex::new(None),
        };
        if options.mode == SandboxMode::Plain {
            sandbox.protections.isolation = "plain".into();
            sandbox
                .protections
                .off
                .push("isolation: --sandbox plain asked for limits only (no separate user, no namespaces, no cgroups)".into());
            let uncounted = isolation::uncounted_memory(&sandbox.scratch_path, false);
            sandbox.protections.off.push(uncounted);
            if root {
                sandbox.protections.off.push(
                    "process cap: root ignores RLIMIT_NPROC and plain mode has no cgroup, so a fork bomb is stopped only by the time limits"
                        .into(),
                );
            }
            sandbox.mark_scratch();
            return Ok(sandbox);
        }
        sandbox.choose_isolation(root);
        staging::seal(&sandbox.scratch_path, sandbox.isolation);
        sandbox.mark_scratch();
        Ok(sandbox)
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

    /// Prepare one run on worker `slot`: a clean working directory, and
    /// for an untrusted program the slot's user, namespaces and cgroup.
    pub fn slot(
        &self,
        slot: usize,
        limits: &Limits,
        trust: Trust,
    ) -> Result<SlotGuard<'_>, GuardError> {
        let state = match trust {
            Trust::Untrusted => self.slot_state(slot)?,
            Trust::Trusted => None,
        };
        // A trusted program (a validator, a checker) works in the judge's
        // private directory, which no slot's namespace shows: without
        // root, programs run as the judge's user and would read it.
        let base = match trust {
            Trust::Trusted => self.private_dir(),
            Trust::Untrusted => self.scratch_path.clone(),
        };
        // A submission that may not write its working directory (a
        // DOMjudge package's) gets one that stays the judge's, when it
        // runs as a slot's user.
        let read_only = trust == Trust::Untrusted && !limits.writable_workdir;
        let workdir = self
            .workdirs
            .take(&base, slot, state.and_then(|s| s.user), read_only)?;
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
            clean: std::sync::atomic::AtomicBool::new(false),
            build_dir: None,
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
        self.workdirs.clear();
        for cell in &mut self.slots {
            if let Some(Ok(mut state)) = cell.take() {
                // The launcher first: it may live in the slot's cgroups.
                drop(state.launcher.take());
                if let Some(cg) = &state.cgroup {
                    cg.lock().unwrap_or_else(|e| e.into_inner()).remove();
                }
            }
        }
        if let Some(root) = &self.cgroups {
            root.remove();
        }
        if let Some(dir) = self.scratch.take() {
            staging::unseal(dir.path());
            remove_scratch(dir);
        }
    }
}

/// Whether a directory holds the system's programs, libraries or
/// devices: covering it would leave programs nothing to run.
fn holds_the_system(dir: &Path) -> bool {
    ["/usr", "/bin", "/lib", "/etc", "/dev", "/proc"]
        .iter()
        .any(|system| Path::new(system).starts_with(dir))
}

/// Copy a directory's tree (a JVM class path, a test case's files) where
/// the sandbox's users can read it: directories 0755, files 0644, or 0755
/// when executable. Symbolic links are not followed. A `to` that exists
/// keeps its own mode (a run's working directory).
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<(), CopyError> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry?;
        let rel = entry.path().strip_prefix(from)?;
        let target = to.join(rel);
        let kind = entry.file_type();
        if entry.depth() == 0 && target.is_dir() {
            continue;
        }
        let result = if kind.is_dir() {
            std::fs::create_dir_all(&target).and_then(|()| {
                std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
            })
        } else if kind.is_file() {
            readable_copy(entry.path(), &target)
        } else {
            continue;
        };
        result.map_err(|source| CopyError::Io {
            path: target,
            source,
        })?;
    }
    Ok(())
}

/// Copy one file to `to` (its directories made as [`copy_tree`] makes
/// them) where the sandbox's users can read it.
pub(crate) fn copy_file(from: &Path, to: &Path) -> Result<(), CopyError> {
    use std::os::unix::fs::PermissionsExt;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CopyError::Io { path, source }
    };
    if let Some(parent) = to.parent()
        && !parent.is_dir()
    {
        std::fs::create_dir_all(parent)
            .and_then(|()| std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755)))
            .map_err(io(parent))?;
    }
    readable_copy(from, to).map_err(io(to))
}

/// A file's copy, 0644 (0755 when executable).
fn readable_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::metadata(from)
        .map(|m| m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false);
    std::fs::copy(from, to).and_then(|_| {
        std::fs::set_permissions(
            to,
            std::fs::Permissions::from_mode(if executable { 0o755 } else { 0o644 }),
        )
    })
}

use remove::{remove_scratch, remove_workdir as remove_tree};

/// As root, the slot's users run programs from the scratch directory: each
/// directory above it must let others pass (`mktemp -d` makes 0700 ones).
fn closed_above(scratch: &Path) -> Result<(), SandboxError> {
    use std::os::unix::fs::PermissionsExt;
    for dir in scratch.ancestors().skip(1) {
        let Ok(meta) = std::fs::metadata(dir) else {
            continue;
        };
        let mode = meta.permissions().mode() & 0o7777;
        if mode & 0o001 == 0 {
            return Err(SandboxError::ClosedTemp(dir.to_path_buf(), mode));
        }
    }
    Ok(())
}
