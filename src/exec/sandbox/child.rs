//! What a child does between fork and exec: join its cgroup, enter its
//! slot's namespaces, set every resource limit, drop to its own user, and
//! forbid gaining privileges. One place sets every limit (as isolate does).
//!
//! This code runs in the forked child of a multi-threaded process: it only
//! makes system calls on data prepared before the fork (no allocation, no
//! locks, no formatting).

use std::ffi::CString;

/// Everything a child applies to itself before exec.
#[derive(Clone, Debug, Default)]
pub struct ChildSetup {
    /// (resource, soft, hard).
    pub rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    /// Open `cgroup.procs` files: writing "0" moves the writer in.
    pub cgroup_procs_fds: Vec<i32>,
    /// Namespaces to enter: (descriptor, CLONE_NEW* type), user namespace first.
    pub namespaces: Vec<(i32, i32)>,
    /// A PID namespace to start the child in (a process cannot move
    /// itself into one): entered by the spawning thread around the clone
    /// as root, by the forked child inside the user namespace otherwise,
    /// which then clones the program (see `spawn`).
    pub pid_namespace: Option<i32>,
    /// The working directory again after entering a mount namespace (which
    /// resets it to the namespace's root).
    pub workdir: Option<CString>,
    /// Switch to this (uid, gid) with no supplementary groups (root only).
    pub user: Option<(u32, u32)>,
    pub no_new_privs: bool,
    /// The seccomp filter (Internet sockets only, no keyring, no io_uring:
    /// see `seccomp`); needs `no_new_privs`.
    pub seccomp: bool,
    /// No `memfd_create` (see `seccomp::install_memory_rule`): memory no
    /// limit would count, when there is no memory cgroup.
    pub no_memfd: bool,
    /// Unshare a new IPC namespace (after entering the slot's namespaces,
    /// whose user namespace, when there is one, grants the right to).
    pub own_ipc_namespace: bool,
    /// Unshare a new cgroup namespace once in the run's cgroups, so that
    /// `/proc/self/cgroup` says `/` (not `judge-PID/…`: the judge's pid).
    pub own_cgroup_namespace: bool,
    /// A package's program under root (see `tools`): every capability
    /// dropped from the bounding, inheritable and ambient sets but these
    /// (a bit per `CAP_*`), so that root's program keeps root's uid (it
    /// reads the files the judge reads) and none of root's powers (no
    /// remount, no ptrace of root's processes, no write to what it does
    /// not own).
    pub keep_capabilities: Option<u64>,
    /// The package programs' seccomp rule (no `ptrace`, no other
    /// process's memory, no `open_by_handle_at`: see
    /// `seccomp::install_tool_rule`), stacked on the filter.
    pub tool_rule: bool,
}

impl ChildSetup {
    /// Whether the child enters a user namespace (then it must be a real
    /// fork: the kernel refuses a memory-sharing caller).
    pub fn enters_user_namespace(&self) -> bool {
        self.namespaces
            .iter()
            .any(|&(_, kind)| kind == libc::CLONE_NEWUSER)
    }

    /// The first half of the child's setup (async-signal-safe: system
    /// calls only, as all of it): join the cgroup and enter
    /// the slot's namespaces (but a PID namespace, which only a child of
    /// the caller can start in: see `spawn`), and the working directory
    /// again.
    pub fn enter(&self) -> std::io::Result<()> {
        join_cgroups(&self.cgroup_procs_fds)?;
        // SAFETY: each call is a plain system call on data owned by `self`.
        unsafe {
            for &(fd, kind) in &self.namespaces {
                check(libc::setns(fd, kind))?;
            }
            if let Some(dir) = &self.workdir {
                check(libc::chdir(dir.as_ptr()))?;
            }
        }
        Ok(())
    }

    /// The second half of the child's setup, in the process that
    /// execs: its own session (so process group), a fresh IPC namespace, the limits,
    /// the user, the parent-death signal, no new privileges, seccomp.
    pub fn restrict(&self) -> std::io::Result<()> {
        Restrictions {
            rlimits: &self.rlimits,
            user: self.user,
            no_new_privs: self.no_new_privs,
            seccomp: self.seccomp,
            no_memfd: self.no_memfd,
            own_ipc_namespace: self.own_ipc_namespace,
            own_cgroup_namespace: self.own_cgroup_namespace,
            keep_capabilities: self.keep_capabilities,
            tool_rule: self.tool_rule,
        }
        .apply()
    }
}

/// Write "0" to each open `cgroup.procs` file: the writer joins each
/// cgroup. A system call per file.
pub(super) fn join_cgroups(fds: &[i32]) -> std::io::Result<()> {
    for &fd in fds {
        let zero = b"0\n";
        // SAFETY: a plain write of a static buffer.
        if unsafe { libc::write(fd, zero.as_ptr().cast(), zero.len()) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The second half of a child's setup, borrowed: from a [`ChildSetup`],
/// or decoded from a request by a slot's launcher (see `launcher`), which
/// has made the fresh IPC namespace and installed the seccomp filter on
/// itself ahead of the case (its children inherit both).
pub(super) struct Restrictions<'a> {
    pub(super) rlimits: &'a [(libc::__rlimit_resource_t, u64, u64)],
    pub(super) user: Option<(u32, u32)>,
    pub(super) no_new_privs: bool,
    pub(super) seccomp: bool,
    pub(super) no_memfd: bool,
    pub(super) own_ipc_namespace: bool,
    /// Called once the process is in the run's cgroups.
    pub(super) own_cgroup_namespace: bool,
    pub(super) keep_capabilities: Option<u64>,
    pub(super) tool_rule: bool,
}

impl Restrictions<'_> {
    /// Apply them to the calling process (system calls only).
    pub(super) fn apply(&self) -> std::io::Result<()> {
        // SAFETY: each call is a plain system call on data owned by `self`.
        unsafe {
            // Its own session, so its own process group (pgid == pid, which
            // the group kill relies on), and no controlling terminal: the
            // operator's terminal cannot be opened as /dev/tty, written on,
            // or fed keystrokes (TIOCSTI). A process that already leads a
            // session of its own (a forked child that made it early: see
            // `spawn`) keeps it.
            if libc::setsid() < 0 && libc::getsid(0) != libc::getpid() {
                return Err(std::io::Error::last_os_error());
            }
            // A fresh IPC namespace for this case alone: SysV shared memory,
            // semaphores and message queues die with it, so nothing one
            // case leaves is seen by (or charged to) the next.
            if self.own_ipc_namespace {
                check(libc::unshare(libc::CLONE_NEWIPC))?;
            }
            // A cgroup namespace rooted where the process is now (the run's
            // cgroups): its /proc/self/cgroup reads `/`, so neither the
            // judge's pid (`judge-PID`) nor the judge's own place in the
            // hierarchy shows. A kernel without cgroup namespaces (EINVAL)
            // goes without.
            if self.own_cgroup_namespace
                && libc::unshare(libc::CLONE_NEWCGROUP) != 0
                && *libc::__errno_location() != libc::EINVAL
            {
                return Err(std::io::Error::last_os_error());
            }
            for &(resource, soft, hard) in self.rlimits {
                let limit = libc::rlimit {
                    rlim_cur: soft,
                    rlim_max: hard,
                };
                check(libc::setrlimit(resource, &limit))?;
            }
            if let Some((uid, gid)) = self.user {
                // Raw system calls: glibc's wrappers would have every thread
                // of the process change too (a broadcast by signal that
                // waits on a futex), and this child shares the judge's
                // memory, thread list included: in a PID namespace, where
                // pids mean something else, that wait never ends.
                let raw = |r: libc::c_long| check(if r == 0 { 0 } else { -1 });
                raw(libc::syscall(
                    libc::SYS_setgroups,
                    0usize,
                    std::ptr::null::<libc::gid_t>(),
                ))?;
                raw(libc::syscall(libc::SYS_setresgid, gid, gid, gid))?;
                raw(libc::syscall(libc::SYS_setresuid, uid, uid, uid))?;
            }
            if let Some(keep) = self.keep_capabilities {
                drop_capabilities(keep)?;
            }
            // If the judge dies (even by SIGKILL), the program dies with it.
            // Set after the user switch, which would clear it.
            check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
            if self.no_new_privs || self.seccomp {
                check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
            }
            if self.seccomp {
                super::seccomp::install()?;
            }
            if self.no_memfd {
                super::seccomp::install_memory_rule()?;
            }
            if self.tool_rule {
                super::seccomp::install_tool_rule()?;
            }
            libc::umask(0o077);
        }
        Ok(())
    }
}

/// Drop every capability but those of `keep` (a bit per `CAP_*`) from the
/// bounding set (what an exec by root gets), and all from the ambient and
/// inheritable sets; the effective and permitted sets keep only `keep`
/// too. System calls only.
fn drop_capabilities(keep: u64) -> std::io::Result<()> {
    // SAFETY: plain system calls on local data.
    unsafe {
        for cap in 0..64 {
            if keep & (1 << cap) != 0 {
                continue;
            }
            // EINVAL: past the last capability this kernel knows.
            if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 {
                if *libc::__errno_location() == libc::EINVAL {
                    break;
                }
                return Err(std::io::Error::last_os_error());
            }
        }
        if libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        ) != 0
            && *libc::__errno_location() != libc::EINVAL
        {
            return Err(std::io::Error::last_os_error());
        }
        // `struct __user_cap_header_struct` (version 3: two 32-bit words
        // per set) and its two `__user_cap_data_struct`s.
        let header: [u32; 2] = [0x2008_0522, 0];
        let low = keep as u32;
        let high = (keep >> 32) as u32;
        // effective, permitted, inheritable; low word first.
        let data: [u32; 6] = [low, low, 0, high, high, 0];
        check(libc::syscall(libc::SYS_capset, header.as_ptr(), data.as_ptr()) as libc::c_int)
    }
}

/// A system call's 0-or-error result as an `io::Result`.
fn check(r: libc::c_int) -> std::io::Result<()> {
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}
