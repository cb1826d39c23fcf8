//! Linux namespaces for untrusted runs, made once per worker slot and
//! entered by each case with `setns` (creating a network namespace per case
//! costs milliseconds; entering one costs microseconds).
//!
//! A short-lived holder process unshares mount, network, IPC and UTS
//! namespaces (first a user namespace when the judge is not root), arranges
//! the mounts, and waits while the judge opens `/proc/HOLDER/ns/*`; the open
//! descriptors keep the namespaces alive after the holder exits. Inside:
//! - the network has only a loopback interface, down: no connection works;
//! - every hidden directory (the cases roots) is covered by an empty
//!   read-only tmpfs, and every hidden file (judge.toml, reference
//!   solutions, checkers) by /dev/null;
//! - /tmp, /var/tmp and /dev/shm are read-only, except the judge's scratch
//!   directory where each case has its private working directory.
//!
//! The holder's code runs between fork and exit in a multi-threaded
//! process: it makes system calls on data prepared before the fork, and
//! nothing else (no allocation, no locks).

use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

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
}

/// Open namespace descriptors, in the order a case enters them.
#[derive(Debug)]
pub struct SlotNamespaces {
    pub entries: Vec<(OwnedFd, i32)>,
}

/// Steps of the holder, to say which one failed.
const STAGES: [&str; 8] = [
    "unshare(CLONE_NEWUSER)",
    "writing the uid/gid map",
    "unshare(mount, network, IPC, UTS)",
    "making mounts private",
    "hiding a directory",
    "hiding a file",
    "making /tmp read-only",
    "keeping the scratch directory writable",
];

fn cstring(p: &Path) -> Result<CString, String> {
    CString::new(p.as_os_str().as_encoded_bytes())
        .map_err(|_| format!("{} holds a NUL byte", p.display()))
}

/// Create the namespaces for one slot.
pub fn create(plan: &NamespacePlan) -> Result<SlotNamespaces, String> {
    let hide_dirs: Vec<CString> = plan
        .hide_dirs
        .iter()
        .map(|p| cstring(p))
        .collect::<Result<_, _>>()?;
    let hide_files: Vec<CString> = plan
        .hide_files
        .iter()
        .map(|p| cstring(p))
        .collect::<Result<_, _>>()?;
    let read_only: Vec<CString> = ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .map(Path::new)
        .filter(|p| p.is_dir() && !plan.scratch.as_os_str().is_empty())
        .map(cstring)
        .collect::<Result<_, _>>()?;
    let scratch = cstring(&plan.scratch)?;
    let maps = plan.user.map(|(uid, gid)| {
        (
            format!("{uid} {uid} 1\n").into_bytes(),
            format!("{gid} {gid} 1\n").into_bytes(),
        )
    });
    let (ready_r, ready_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| e.to_string())?;
    let (go_r, go_w) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| e.to_string())?;
    let holder = Holder {
        maps: maps.as_ref(),
        hide_dirs: &hide_dirs,
        hide_files: &hide_files,
        read_only: &read_only,
        scratch: &scratch,
        ready: ready_w.as_raw_fd(),
        go: go_r.as_raw_fd(),
    };
    // SAFETY: the child runs only `Holder::run`, which makes system calls
    // on prepared data and ends with `_exit`.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid == 0 {
        holder.run();
    }
    drop(ready_w);
    drop(go_r);
    let mut status = [0u8; 8];
    let got = rustix::io::read(&ready_r, &mut status).unwrap_or(0);
    let reap = || {
        let mut st = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, &mut st, 0) };
    };
    if got != 8 {
        reap();
        return Err("the namespace holder died before it was ready".to_string());
    }
    if status != [0u8; 8] {
        reap();
        let stage = u32::from_ne_bytes([status[0], status[1], status[2], status[3]]) as usize;
        let errno = i32::from_ne_bytes([status[4], status[5], status[6], status[7]]);
        let what = STAGES.get(stage).copied().unwrap_or("setting up");
        return Err(format!(
            "{what}: {}",
            std::io::Error::from_raw_os_error(errno)
        ));
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
    let mut entries = Vec::new();
    for (name, kind) in kinds {
        let path = format!("/proc/{pid}/ns/{name}");
        match std::fs::File::open(&path) {
            Ok(f) => entries.push((OwnedFd::from(f), kind)),
            Err(e) => {
                let _ = rustix::io::write(&go_w, b"x");
                reap();
                return Err(format!("{path}: {e}"));
            }
        }
    }
    let _ = rustix::io::write(&go_w, b"x");
    reap();
    Ok(SlotNamespaces { entries })
}

/// The holder's side: system calls only.
struct Holder<'a> {
    maps: Option<&'a (Vec<u8>, Vec<u8>)>,
    hide_dirs: &'a [CString],
    hide_files: &'a [CString],
    read_only: &'a [CString],
    scratch: &'a CString,
    ready: i32,
    go: i32,
}

impl Holder<'_> {
    fn run(&self) -> ! {
        let result = self.setup();
        let mut status = [0u8; 8];
        if let Err((stage, errno)) = result {
            status[..4].copy_from_slice(&(stage as u32).to_ne_bytes());
            status[4..].copy_from_slice(&errno.to_ne_bytes());
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
            let hidden_flags = libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
            for dir in self.hide_dirs {
                if libc::mount(
                    c"tmpfs".as_ptr(),
                    dir.as_ptr(),
                    c"tmpfs".as_ptr(),
                    hidden_flags,
                    c"size=16k,mode=755".as_ptr().cast(),
                ) != 0
                {
                    return Err(fail(4));
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
                if libc::mount(
                    dir.as_ptr(),
                    dir.as_ptr(),
                    none,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ) != 0
                    || libc::mount(
                        none,
                        dir.as_ptr(),
                        none,
                        libc::MS_BIND
                            | libc::MS_REMOUNT
                            | libc::MS_RDONLY
                            | libc::MS_NOSUID
                            | libc::MS_NODEV,
                        std::ptr::null(),
                    ) != 0
                {
                    return Err(fail(6));
                }
            }
            // A bind mount copies its source's read-only flag: bind the
            // scratch directory onto itself, then remount that bind writable.
            if !self.read_only.is_empty()
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
            libc::sethostname(c"judge".as_ptr(), 5);
        }
        Ok(())
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
