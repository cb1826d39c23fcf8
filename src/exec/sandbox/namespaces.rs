//! Linux namespaces for untrusted runs, made once per worker slot
//! (creating a network namespace per case costs milliseconds) and entered
//! once by the slot's launcher, which starts every program of the slot
//! (see `launcher`), or, in a slot without a PID namespace, by each case
//! with `setns` (microseconds).
//!
//! A short-lived holder process unshares mount, network, IPC and UTS
//! namespaces (first a user namespace when the judge is not root), arranges
//! the mounts, and waits while the judge opens `/proc/HOLDER/ns/*`; the open
//! descriptors keep the namespaces alive after the holder exits. Inside:
//! - the network has only a loopback interface, down: no connection works;
//! - every hidden directory (the cases roots) is covered by an empty
//!   read-only tmpfs, and every hidden file (judge.toml, reference
//!   solutions, checkers) by /dev/null;
//! - /tmp, /var/tmp, /dev/shm and /run/lock are read-only, except the judge's scratch
//!   directory where each case has its private working directory;
//! - a hidden directory that holds the scratch directory (a package or
//!   project with TMPDIR inside it, a HOME that holds TMPDIR) is covered
//!   all the same: the scratch directory is cloned first (`open_tree`) and
//!   put back into the cover (`move_mount`), so it alone shows through;
//! - inside the scratch directory, the judge's private directory (the
//!   validators' feedback, the checkers' runs) is covered too, and the
//!   staged programs' directory is read-only (see `cover`).
//!
//! The holder also unshares a PID namespace and forks its init,
//! which stays for the slot's lifetime: it mounts the namespace's own
//! /proc (a submission sees only its own processes), and on each command
//! from the judge kills every other process of the namespace and reaps
//! them (after a case, nothing it started is left, whatever it did to
//! escape its group); when the judge's end of its pipe closes (the judge
//! finished or died), it does so one last time and exits. Programs start
//! in the PID namespace as the launcher's clones (or, without a launcher,
//! through the spawning thread as root, through a forked child inside the
//! user namespace otherwise: see `spawn`), since `setns(CLONE_NEWPID)`
//! moves only the caller's future children. Where
//! the kernel refuses the PID namespace (a masked /proc refuses a new proc
//! mount), the slot has the others and the report says so.
//!
//! The holder's and init's code runs between fork and exit in a
//! multi-threaded process: it makes system calls on data prepared before
//! the fork, and nothing else (no allocation, no locks).

use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;

use super::cover::{NulInPath, cstring};

mod error;
pub use super::pid_init::PidNamespace;
use super::pid_init::{argv_area, init_main};
pub use error::NamespaceError;

/// What to set up.
#[derive(Clone, Debug, Default)]
pub struct NamespacePlan {
    /// Not root: first a user namespace mapping the judge's own uid and gid
    /// to themselves (not to 0, so programs run without capabilities).
    pub user: Option<(u32, u32)>,
    pub hide_dirs: Vec<PathBuf>,
    pub hide_files: Vec<PathBuf>,
    /// The judge's scratch directory: stays writable.
    pub scratch: PathBuf,
    /// Inside the scratch directory: covered (the judge's private files).
    pub private: Option<PathBuf>,
    /// Inside the scratch directory: read-only (the staged programs).
    pub programs: Option<PathBuf>,
    /// A PID namespace with its own init and /proc.
    pub pid: bool,
    /// Directories shown read-only at a place inside the scratch directory
    /// (source, target): toolchains the slot's users cannot reach where
    /// they are (`toolchains`). At most [`MAX_EXPOSED`].
    pub expose: Vec<(PathBuf, PathBuf)>,
    /// Every mount read-only (recursively, `/proc` and `/sys` too) but the
    /// scratch directory: the view of the package's own programs (see
    /// `tools`), which may read what the judge can and write only their
    /// own directories.
    pub read_only_root: bool,
}

/// How many directories a plan may expose (the holder keeps their mount
/// descriptors in a fixed array: it may not allocate).
pub const MAX_EXPOSED: usize = 4;

/// Open namespace descriptors, in the order a case enters them.
#[derive(Debug)]
pub struct SlotNamespaces {
    pub entries: Vec<(OwnedFd, i32)>,
    /// The slot's PID namespace and its init, when there is one.
    pub pid: Option<PidNamespace>,
}

/// Steps of the holder, to say which one failed.
const STAGES: [&str; 16] = [
    "unshare(CLONE_NEWUSER)",
    "writing the uid/gid map",
    "unshare(mount, network, IPC, UTS)",
    "making mounts private",
    "hiding a directory",
    "hiding a file",
    "making /tmp read-only",
    "keeping the scratch directory writable",
    "unshare(CLONE_NEWPID)",
    "starting the PID namespace's init",
    "mounting the PID namespace's /proc",
    "keeping the scratch directory inside a hidden directory",
    "hiding the judge's private directory",
    "making the staged programs read-only",
    "exposing a toolchain",
    "making every mount read-only (mount_setattr)",
];

/// Create the namespaces for one slot.
pub fn create(plan: &NamespacePlan) -> Result<SlotNamespaces, NamespaceError> {
    let hide_dirs = super::cover::plan(&plan.hide_dirs, &plan.scratch)?;
    let private = plan.private.as_deref().map(cstring).transpose()?;
    let programs = plan.programs.as_deref().map(cstring).transpose()?;
    let hide_files: Vec<CString> = plan
        .hide_files
        .iter()
        .map(|p| cstring(p))
        .collect::<Result<_, _>>()?;
    // The world-writable places: a submission may leave nothing there for
    // a later run (nor fill the disk, nor plant a lock file). `/var/lock`
    // is usually a link to `/run/lock`: each real directory once.
    let mut read_only_dirs: Vec<PathBuf> =
        ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock"]
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| p.is_dir() && !plan.scratch.as_os_str().is_empty())
            .collect();
    read_only_dirs.dedup();
    let read_only: Vec<CString> = read_only_dirs
        .iter()
        .map(|p| cstring(p))
        .collect::<Result<_, _>>()?;
    let scratch = cstring(&plan.scratch)?;
    if plan.expose.len() > MAX_EXPOSED {
        return Err(NamespaceError::TooManyExposed {
            count: plan.expose.len(),
        });
    }
    let expose: Vec<(CString, CString)> = plan
        .expose
        .iter()
        .map(|(from, to)| Ok((cstring(from)?, cstring(to)?)))
        .collect::<Result<_, NulInPath>>()?;
    let maps = plan.user.map(|(uid, gid)| {
        (
            format!("{uid} {uid} 1\n").into_bytes(),
            format!("{gid} {gid} 1\n").into_bytes(),
        )
    });
    let (ready_r, ready_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(NamespaceError::Pipe)?;
    let (go_r, go_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(NamespaceError::Pipe)?;
    let (command_r, command_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(NamespaceError::Pipe)?;
    let (ack_r, ack_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(NamespaceError::Pipe)?;
    let holder = Holder {
        argv_area: argv_area(),
        pid: plan.pid,
        init_command: command_r.as_raw_fd(),
        init_ack: ack_w.as_raw_fd(),
        init_ack_read: ack_r.as_raw_fd(),
        maps: maps.as_ref(),
        hide_dirs: &hide_dirs,
        hide_files: &hide_files,
        private: private.as_deref(),
        programs: programs.as_deref(),
        read_only: &read_only,
        expose: &expose,
        read_only_root: plan.read_only_root,
        scratch: &scratch,
        ready: ready_w.as_raw_fd(),
        go: go_r.as_raw_fd(),
        go_judge_end: go_w.as_raw_fd(),
        // SAFETY: getpid cannot fail.
        judge: unsafe { libc::getpid() },
    };
    // SAFETY: the child runs only `Holder::run`, which makes system calls
    // on prepared data and ends with `_exit`.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(NamespaceError::Fork(std::io::Error::last_os_error()));
    }
    if pid == 0 {
        holder.run();
    }
    drop(ready_w);
    drop(go_r);
    drop(command_r);
    drop(ack_w);
    let mut status = [0u8; 12];
    let got = rustix::io::read(&ready_r, &mut status).unwrap_or(0);
    let reap = || {
        let mut st = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, &mut st, 0) };
    };
    if got != 12 {
        reap();
        return Err(NamespaceError::HolderDied);
    }
    let init = i32::from_ne_bytes([status[8], status[9], status[10], status[11]]);
    if status[..8] != [0u8; 8] {
        reap();
        let stage = u32::from_ne_bytes([status[0], status[1], status[2], status[3]]) as usize;
        let errno = i32::from_ne_bytes([status[4], status[5], status[6], status[7]]);
        let what = STAGES.get(stage).copied().unwrap_or("setting up");
        return Err(NamespaceError::Stage {
            stage: what,
            source: std::io::Error::from_raw_os_error(errno),
        });
    }
    let mut kinds = Vec::new();
    if plan.user.is_some() {
        kinds.push(("user", libc::CLONE_NEWUSER));
    }
    kinds.extend([
        ("mnt", libc::CLONE_NEWNS),
        ("net", libc::CLONE_NEWNET),
        ("ipc", libc::CLONE_NEWIPC),
        ("uts", libc::CLONE_NEWUTS),
    ]);
    if plan.pid {
        kinds.push(("pid_for_children", libc::CLONE_NEWPID));
    }
    // From here on a failure must also end init: dropping `pid_namespace`
    // (or the command pipe, before it exists) does.
    let mut command_w = Some(command_w);
    let mut entries = Vec::new();
    let mut pid_fd = None;
    for (name, kind) in kinds {
        let path = PathBuf::from(format!("/proc/{pid}/ns/{name}"));
        match std::fs::File::open(&path) {
            Ok(f) if kind == libc::CLONE_NEWPID => pid_fd = Some(OwnedFd::from(f)),
            Ok(f) => entries.push((OwnedFd::from(f), kind)),
            Err(e) => {
                let _ = rustix::io::write(&go_w, b"x");
                reap();
                if plan.pid {
                    drop(command_w.take());
                    let mut st = 0;
                    // SAFETY: init is the holder's child, now ours: reap it.
                    unsafe { libc::waitpid(init, &mut st, 0) };
                }
                return Err(NamespaceError::Open { path, source: e });
            }
        }
    }
    let _ = rustix::io::write(&go_w, b"x");
    reap();
    let pid_namespace = pid_fd.map(|fd| PidNamespace {
        fd,
        init,
        command: command_w.take(),
        ack: ack_r,
        children: std::sync::OnceLock::new(),
    });
    Ok(SlotNamespaces {
        entries,
        pid: pid_namespace,
    })
}

/// The holder's side: system calls only.
struct Holder<'a> {
    /// Where the judge's command line lies in its memory (and so in
    /// init's copy): init blanks it, so /proc/1/cmdline tells nothing.
    argv_area: Option<(usize, usize)>,
    pid: bool,
    init_command: i32,
    init_ack: i32,
    init_ack_read: i32,
    maps: Option<&'a (Vec<u8>, Vec<u8>)>,
    hide_dirs: &'a [super::cover::Cover],
    hide_files: &'a [CString],
    private: Option<&'a std::ffi::CStr>,
    programs: Option<&'a std::ffi::CStr>,
    read_only: &'a [CString],
    expose: &'a [(CString, CString)],
    read_only_root: bool,
    scratch: &'a CString,
    ready: i32,
    go: i32,
    /// The judge's end of `go`: the holder closes its own copy, so that
    /// the judge's death is an end of file.
    go_judge_end: i32,
    /// The judge's pid: the holder's parent, with which it dies.
    judge: i32,
}

impl Holder<'_> {
    fn run(&self) -> ! {
        // Dead with the judge, even by SIGKILL: else a judge killed while
        // a holder waits for `go` leaves it waiting for ever (a holder
        // forked at the same time by another slot's thread holds a copy of
        // this one's `go`, and this one of that one's), and with it its
        // init and the scratch directory's lock, which every forked
        // process shares: no later judge could clean up after it. The
        // parent may have died before the prctl: then its pid is not ours.
        // SAFETY: plain system calls on our own descriptor.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            if libc::getppid() != self.judge {
                libc::_exit(1);
            }
            libc::close(self.go_judge_end);
        }
        let result = self.setup().and_then(|()| self.start_init());
        // Unsharing a user namespace may change the credentials, which
        // clears the parent-death signal: set again, and check again.
        // SAFETY: plain system calls.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            if libc::getppid() != self.judge {
                libc::_exit(1);
            }
        }
        let mut status = [0u8; 12];
        match result {
            Err((stage, errno)) => {
                status[..4].copy_from_slice(&(stage as u32).to_ne_bytes());
                status[4..8].copy_from_slice(&errno.to_ne_bytes());
            }
            Ok(init) => status[8..].copy_from_slice(&init.to_ne_bytes()),
        }
        // SAFETY: plain system calls, then _exit.
        unsafe {
            libc::write(self.ready, status.as_ptr().cast(), status.len());
            if result.is_ok() {
                let mut byte = 0u8;
                libc::read(self.go, (&mut byte as *mut u8).cast(), 1);
            }
            libc::_exit(if result.is_ok() { 0 } else { 1 })
        }
    }

    fn setup(&self) -> Result<(), (usize, i32)> {
        let fail = |stage: usize| {
            (
                stage,
                std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
            )
        };
        // SAFETY: each call is a plain system call on prepared data.
        unsafe {
            if let Some((uid_map, gid_map)) = self.maps {
                if libc::unshare(libc::CLONE_NEWUSER) != 0 {
                    return Err(fail(0));
                }
                if !write_file(c"/proc/self/setgroups", b"deny")
                    || !write_file(c"/proc/self/uid_map", uid_map)
                    || !write_file(c"/proc/self/gid_map", gid_map)
                {
                    return Err(fail(1));
                }
            }
            if libc::unshare(
                libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS,
            ) != 0
            {
                return Err(fail(2));
            }
            if self.pid && libc::unshare(libc::CLONE_NEWPID) != 0 {
                return Err(fail(8));
            }
            let none = std::ptr::null();
            if libc::mount(
                none,
                c"/".as_ptr(),
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return Err(fail(3));
            }
            // The exposed toolchains are taken before anything is covered
            // (a home that holds one is covered next), and put in place
            // last, on top of the scratch directory's own mounts.
            let mut trees = [-1 as libc::c_int; MAX_EXPOSED];
            for (i, (from, _)) in self.expose.iter().enumerate().take(MAX_EXPOSED) {
                let tree = libc::syscall(
                    libc::SYS_open_tree,
                    libc::AT_FDCWD,
                    from.as_ptr(),
                    super::cover::OPEN_TREE_CLONE
                        | libc::O_CLOEXEC as libc::c_uint
                        | libc::AT_RECURSIVE as libc::c_uint,
                );
                if tree < 0 {
                    return Err(fail(14));
                }
                trees[i] = tree as libc::c_int;
            }
            if self.read_only_root && !read_only_everywhere() {
                return Err(fail(15));
            }
            for dir in self.hide_dirs {
                match super::cover::cover(dir, self.scratch) {
                    Ok(()) => {}
                    Err(true) => return Err(fail(4)),
                    Err(false) => return Err(fail(11)),
                }
            }
            for file in self.hide_files {
                if libc::mount(
                    c"/dev/null".as_ptr(),
                    file.as_ptr(),
                    none,
                    libc::MS_BIND,
                    std::ptr::null(),
                ) != 0
                {
                    return Err(fail(5));
                }
            }
            for dir in self.read_only {
                if !super::cover::read_only(dir, true) {
                    return Err(fail(6));
                }
            }
            // A bind mount copies its source's read-only flag: bind the
            // scratch directory onto itself, then remount that bind writable.
            if (!self.read_only.is_empty() || self.read_only_root)
                && (libc::mount(
                    self.scratch.as_ptr(),
                    self.scratch.as_ptr(),
                    none,
                    libc::MS_BIND,
                    std::ptr::null(),
                ) != 0
                    || libc::mount(
                        none,
                        self.scratch.as_ptr(),
                        none,
                        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV,
                        std::ptr::null(),
                    ) != 0)
            {
                return Err(fail(7));
            }
            if let Some(private) = self.private
                && !super::cover::hide_private(private)
            {
                return Err(fail(12));
            }
            if let Some(programs) = self.programs
                && !super::cover::read_only(programs, false)
            {
                return Err(fail(13));
            }
            for (i, (_, to)) in self.expose.iter().enumerate().take(MAX_EXPOSED) {
                let moved = libc::syscall(
                    libc::SYS_move_mount,
                    trees[i],
                    c"".as_ptr(),
                    libc::AT_FDCWD,
                    to.as_ptr(),
                    super::cover::MOVE_MOUNT_F_EMPTY_PATH,
                );
                libc::close(trees[i]);
                if moved != 0
                    || libc::mount(
                        none,
                        to.as_ptr(),
                        none,
                        libc::MS_REMOUNT
                            | libc::MS_BIND
                            | libc::MS_RDONLY
                            | libc::MS_NOSUID
                            | libc::MS_NODEV,
                        std::ptr::null(),
                    ) != 0
                {
                    return Err(fail(14));
                }
            }
            libc::sethostname(c"judge".as_ptr(), 5);
        }
        Ok(())
    }
}

impl Holder<'_> {
    /// Fork the PID namespace's init (the holder's first child after
    /// unsharing it is its pid 1) and wait until it has mounted its /proc.
    /// Returns init's pid (0 without a PID namespace).
    fn start_init(&self) -> Result<i32, (usize, i32)> {
        if !self.pid {
            return Ok(0);
        }
        // SAFETY: the child runs `init_main`, system calls only.
        unsafe {
            let init = libc::fork();
            if init < 0 {
                return Err((
                    9,
                    std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
                ));
            }
            if init == 0 {
                if let Some((start, end)) = self.argv_area {
                    let name = b"judge-init\0";
                    let area = end.saturating_sub(start);
                    std::ptr::write_bytes(start as *mut u8, 0, area);
                    if area >= name.len() {
                        std::ptr::copy_nonoverlapping(name.as_ptr(), start as *mut u8, name.len());
                    }
                }
                init_main(self.init_command, self.init_ack);
            }
            let mut errno = [0u8; 4];
            if libc::read(self.init_ack_read, errno.as_mut_ptr().cast(), 4) != 4 {
                return Err((9, 0));
            }
            match i32::from_ne_bytes(errno) {
                0 => Ok(init),
                e => {
                    let mut st = 0;
                    libc::waitpid(init, &mut st, 0);
                    Err((10, e))
                }
            }
        }
    }
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;

/// Every mount of the namespace read-only and without set-uid, `/`
/// recursively (`mount_setattr`, Linux 5.12): a bind or a remount one by
/// one would need the list of mounts, which the holder may not allocate.
/// System calls only.
unsafe fn read_only_everywhere() -> bool {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a plain system call on a static path and a local struct.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) == 0
    }
}

/// open + write + close, for /proc/self files. System calls only.
unsafe fn write_file(path: &std::ffi::CStr, data: &[u8]) -> bool {
    // SAFETY: plain system calls on a NUL-terminated path and a byte slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = libc::write(fd, data.as_ptr().cast(), data.len()) == data.len() as isize;
        libc::close(fd);
        ok
    }
}
