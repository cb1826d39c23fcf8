//! Choosing the isolation a run gets: probing namespaces and cgroups
//! ([`Sandbox::choose_isolation`], which fills in the [`Protections`]),
//! and, under root, reserving this judge's block of per-slot user ids.

use super::cgroup::CgroupRoot;
use super::namespaces::{self, NamespacePlan};
use super::{Isolation, Sandbox};
use std::path::{Path, PathBuf};

/// Users reserved per judge process: at most this many worker slots.
pub(super) const UIDS_PER_JUDGE: u32 = 256;

/// Why this judge has no block of user ids of its own.
#[derive(Debug, thiserror::Error)]
pub(super) enum UidBlockError {
    #[error(
        "no root-only directory for the user-id locks: {}",
        .0.as_ref().map(ToString::to_string).unwrap_or_default()
    )]
    NoLockDir(Option<RootOnlyError>),
    #[error("no free block of user ids from {base} (1024 judges at once?)")]
    NoFreeBlock { base: u32 },
}

/// Why a directory is not one only root may use.
#[derive(Debug, thiserror::Error)]
pub(super) enum RootOnlyError {
    #[error("{} does not exist", .0.display())]
    NoParent(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a directory of root's closed to others", .0.display())]
    NotClosed(PathBuf),
}

/// Reserve a block of [`UIDS_PER_JUDGE`] user ids for this judge process, so
/// that judges running at the same time (parallel CI jobs) never share a
/// user: the first block whose lock file this process can `flock`. The lock
/// goes with the process. Returns the block's first uid, the open lock and
/// its path.
///
/// The locks live in a root-only directory (`/run/judge`, made mode 0700
/// and checked to be root's and closed to others), never in the
/// world-writable `/run/lock` or `/tmp`, where a submission could plant a
/// symbolic link (a root judge would create a file of its choosing) or a
/// FIFO (a judge would hang). Each file is opened without following links
/// and without blocking, and must be a regular file of root's.
fn reserve_uid_block(base: u32) -> Result<(u32, std::fs::File, PathBuf), UidBlockError> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let dir = ["/run/judge", "/var/lib/judge"]
        .iter()
        .map(Path::new)
        .find(|d| root_only_dir(d).is_ok())
        .ok_or_else(|| UidBlockError::NoLockDir(root_only_dir(Path::new("/run/judge")).err()))?;
    for block in 0..1024u32 {
        let path = dir.join(format!("uids-{base}-{block}.lock"));
        let Ok(file) = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(&path)
        else {
            continue;
        };
        let Ok(meta) = file.metadata() else {
            continue;
        };
        if !meta.is_file() || meta.uid() != 0 {
            continue;
        }
        if rustix::fs::flock(
            file.as_fd(),
            rustix::fs::FlockOperation::NonBlockingLockExclusive,
        )
        .is_ok()
        {
            return Ok((base + block * UIDS_PER_JUDGE, file, path));
        }
    }
    Err(UidBlockError::NoFreeBlock { base })
}

/// Make `dir` (mode 0700) if it is missing, and check it is a real
/// directory of root's that no one else can write or enter.
fn root_only_dir(dir: &Path) -> Result<(), RootOnlyError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    if let Some(parent) = dir.parent()
        && !parent.is_dir()
    {
        return Err(RootOnlyError::NoParent(parent.to_path_buf()));
    }
    let io = |source| RootOnlyError::Io {
        path: dir.to_path_buf(),
        source,
    };
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io(e)),
    }
    let meta = std::fs::symlink_metadata(dir).map_err(io)?;
    if !meta.is_dir() || meta.uid() != 0 || meta.mode() & 0o077 != 0 {
        return Err(RootOnlyError::NotClosed(dir.to_path_buf()));
    }
    Ok(())
}

impl Sandbox {
    /// Probe namespaces and cgroups; fill in the protections.
    pub(super) fn choose_isolation(&mut self, root: bool) {
        let (hide_dirs, hide_files): (Vec<PathBuf>, Vec<PathBuf>) =
            self.hide.iter().cloned().partition(|p| p.is_dir());
        // SAFETY: getuid/getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        self.exposed = super::toolchains::exposures(&self.scratch_path, root, &self.hide);
        let mut plan = NamespacePlan {
            expose: self
                .exposed
                .iter()
                .map(|e| (e.source.clone(), e.target.clone()))
                .collect(),
            user: (!root).then_some((uid, gid)),
            hide_dirs,
            hide_files,
            scratch: self.scratch_path.clone(),
            private: Some(super::staging::places(&self.scratch_path).0),
            programs: Some(super::staging::places(&self.scratch_path).1),
            pid: true,
            read_only_root: false,
        };
        // Making slot 0's namespaces is the probe: if it works, every slot's
        // will. A PID namespace that cannot be made (a container that masks
        // /proc refuses a new proc mount) leaves the others.
        let mut probe = namespaces::create(&plan);
        let mut pid_refused = None;
        if plan.pid && probe.is_err() {
            plan.pid = false;
            let refused = std::mem::replace(&mut probe, namespaces::create(&plan)).err();
            if probe.is_ok() {
                pid_refused = refused;
            }
        }
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
                Ok((first, lock, path)) => {
                    self.uid_base = first;
                    self.uid_lock = Some((lock, path));
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
        } else if ns_ok && plan.pid {
            off.push(
                "separate user: the judge is not root, so a submission runs as you (in its own PID namespace it cannot name, so cannot signal, your other processes; run as root in CI for a user of its own)"
                    .into(),
            );
        } else {
            off.push(
                "separate user: the judge is not root, so a submission runs as you and can signal the judge (run as root in CI)"
                    .into(),
            );
        }
        match &probe {
            Ok(_) => {
                on.push("network namespace: no network".into());
                on.push(format!(
                    "mount namespace: {} place{} hidden (the cases and answers where they really are, judge files), /tmp, /dev/shm and /run/lock read-only",
                    self.hide.len(),
                    if self.hide.len() == 1 { "" } else { "s" }
                ));
                on.push("IPC and UTS namespaces".into());
                if plan.pid {
                    on.push(
                        "PID namespace per worker: a submission sees only its own processes, cannot see or signal the judge (its parent is outside: getppid() is 0), and the namespace's init kills whatever is left after each case, and everything when the judge dies"
                            .into(),
                    );
                } else {
                    off.push(format!(
                        "PID namespace{}: a submission can see the machine's processes in /proc ({})",
                        pid_refused.as_ref().map(|e| format!(" ({e})")).unwrap_or_default(),
                        if root {
                            "their command lines, not their memory: it runs as another user"
                        } else {
                            "and, being you, trace your other processes where the kernel allows"
                        }
                    ));
                }
            }
            Err(e) => off.push(format!(
                "namespaces ({e}): a submission can use the network and read the cases and answer files"
            )),
        }
        match super::seccomp::probe() {
            Ok(()) => {
                self.seccomp = true;
                on.push(
                    "seccomp: Internet and netlink sockets only (a socket file under /tmp or /run, vsock, cannot be reached), no kernel keyring, no io_uring"
                        .into(),
                );
            }
            Err(e) => off.push(format!(
                "seccomp ({e}): a submission can connect to Unix sockets its user may open (/tmp, /run) and vsock, keep keys in its user's keyring from one case to the next, and use io_uring"
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
        if !self.cgroups.as_ref().is_some_and(|c| c.counts_memory()) {
            if self.seccomp {
                self.memfd_refused = true;
                on.push(
                    "seccomp: no memfd_create (without a memory cgroup no limit would count a memfd's memory)"
                        .into(),
                );
            }
            off.push(uncounted_memory(&self.scratch_path, self.memfd_refused));
        }
        if ns_ok {
            self.ns_plan = Some(plan);
            if let (Ok(ns), Some(first)) = (probe, self.slots.first()) {
                let state = self.make_slot(0, Some(ns)).map_err(std::sync::Arc::new);
                let _ = first.set(state);
            }
        }
        // Before the judge turns non-dumpable (below), as the slots'.
        match super::tools::create(&self.private_dir(), root) {
            Ok(tools) => {
                self.tools = Some(tools);
                self.protections.on.push(format!(
                    "package programs (checkers, validators, interactors, generators, their builds): every file read-only but their own directory, no network, the seccomp filter, no ptrace{}",
                    if root { ", root's uid without root's capabilities (reading excepted)" } else { "" }
                ));
            }
            Err(e) => self.protections.off.push(format!(
                "containing package programs ({e}): checkers, validators, interactors and generators run as you with your view of the files, and can write where you can"
            )),
        }
        if !root {
            // A judge that is not root closes its /proc entries (its open
            // answer files, its root directory link) to programs of the
            // same user. Once it is non-dumpable, a namespace holder it
            // forks can no longer write its own uid map, nor can the judge
            // open the holder's namespaces: so every slot's namespaces are
            // made now, before any case is read, instead of on first use.
            if ns_ok {
                for (slot, cell) in self.slots.iter().enumerate().skip(1) {
                    let _ = cell.set(self.make_slot(slot, None).map_err(std::sync::Arc::new));
                }
            }
            // SAFETY: prctl on ourselves.
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
        }
    }
}

/// What the memory limit leaves out without a memory cgroup, for the
/// report's `protections.off`: the limit is then the address space of
/// each process (RLIMIT_AS), and memory that no address space holds is
/// not counted.
pub(super) fn uncounted_memory(scratch: &Path, memfd_refused: bool) -> String {
    let tmpfs = rustix::fs::statfs(scratch).is_ok_and(|s| s.f_type == TMPFS_MAGIC);
    format!(
        "memory outside the address space (no memory cgroup: the limit is RLIMIT_AS per process): files written in the working directory{} (each up to the file-size limit, their number unbounded), System V shared memory once detached, pipe and socket buffers{} are not counted; run as root with cgroups for a limit on all of it",
        if tmpfs {
            ", which is on tmpfs here (memory: set TMPDIR to a disk)"
        } else {
            ""
        },
        if memfd_refused { "" } else { ", memfds" }
    )
}

/// `statfs`'s `f_type` of tmpfs.
const TMPFS_MAGIC: i64 = 0x0102_1994;
