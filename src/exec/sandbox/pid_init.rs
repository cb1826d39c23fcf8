//! A worker slot's PID namespace: its init, pid 1 of the
//! namespace, forked by the namespace holder (`namespaces.rs`).
//! Init mounts the namespace's own /proc, so a submission sees only its
//! own processes, and blanks the command line it inherited from the judge.
//! On each command from the judge it kills every other process of the
//! namespace and reaps them; when the judge's end of its pipe closes (the
//! judge finished or died) it does so one last time and exits.
//!
//! Init's code runs in a child of a multi-threaded process: system calls
//! on prepared data only (no allocation, no locks).

use std::os::fd::OwnedFd;

/// A slot's PID namespace: the descriptor a spawning thread enters, and
/// the pipes to its init (see the module doc).
#[derive(Debug)]
pub struct PidNamespace {
    pub fd: OwnedFd,
    /// The init's pid (in the judge's namespace): a child of the judge
    /// after the holder exits, never to be swept as an orphan.
    pub init: i32,
    pub(super) command: Option<OwnedFd>,
    pub(super) ack: OwnedFd,
    /// Init's `/proc/PID/task/PID/children`, opened once (read again from
    /// its start for each look).
    pub(super) children: std::sync::OnceLock<Option<std::fs::File>>,
}

impl PidNamespace {
    /// Whether anything but init may be alive in the namespace: once a
    /// case's main process is gone, whatever is left descends from an
    /// orphan re-parented to init, so init has a child (or the kernel
    /// keeps no list of children, and the answer is yes).
    pub fn occupied(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let file = self.children.get_or_init(|| {
            std::fs::File::open(format!("/proc/{0}/task/{0}/children", self.init)).ok()
        });
        let Some(file) = file else {
            return true;
        };
        // One pid is enough to know: the first bytes say.
        let mut buf = [0u8; 64];
        file.read_at(&mut buf, 0)
            .map_or(true, |n| buf[..n].iter().any(u8::is_ascii_digit))
    }

    /// Have init kill and reap every process of the namespace but itself.
    /// True if something was still alive when it gave up (it tries for
    /// about 20 ms), or init is gone.
    pub fn sweep(&self) -> bool {
        let Some(command) = &self.command else {
            return true;
        };
        if rustix::io::write(command, b"k") != Ok(1) {
            return true;
        }
        let mut ack = [0u8; 1];
        loop {
            match rustix::io::read(&self.ack, &mut ack) {
                Ok(1) => return ack[0] != 0,
                Err(rustix::io::Errno::INTR) => continue,
                _ => return true,
            }
        }
    }
}

impl Drop for PidNamespace {
    fn drop(&mut self) {
        // Closing the command pipe tells init to kill everything and exit.
        drop(self.command.take());
        let mut status = 0;
        // SAFETY: reaping our own child (init is re-parented to the judge,
        // a child subreaper) by its pid.
        unsafe { libc::waitpid(self.init, &mut status, 0) };
    }
}

/// The judge's command-line area (`arg_start`, `arg_end` of
/// /proc/self/stat), if it can be read.
pub(super) fn argv_area() -> Option<(usize, usize)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    // Fields 48 and 49 (1-based); after the name the fields start at 3.
    let mut fields = after_name.split(' ').skip(45);
    let start: usize = fields.next()?.parse().ok()?;
    let end: usize = fields.next()?.parse().ok()?;
    (start != 0 && end > start).then_some((start, end))
}

/// Pid 1 of a slot's PID namespace (see the module doc). System calls only.
pub(super) fn init_main(command: i32, ack: i32) -> ! {
    // SAFETY: plain system calls on our own descriptors, then _exit.
    unsafe {
        // Keep only the two pipes: a copy of another slot's command pipe
        // would keep that slot's init from ever seeing the judge go.
        let (low, high) = (command.min(ack), command.max(ack));
        let close_range = |first: i32, last: i32| {
            if first <= last {
                libc::syscall(libc::SYS_close_range, first as u32, last as u32, 0u32);
            }
        };
        close_range(0, low - 1);
        close_range(low + 1, high - 1);
        close_range(high + 1, i32::MAX);
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        let errno: i32 = if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            flags,
            std::ptr::null(),
        ) == 0
        {
            0
        } else {
            std::io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        };
        libc::write(ack, errno.to_ne_bytes().as_ptr().cast(), 4);
        if errno != 0 {
            libc::_exit(1);
        }
        loop {
            let mut byte = 0u8;
            let n = libc::read(command, (&mut byte as *mut u8).cast(), 1);
            if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            let left = kill_all_but_me();
            if n != 1 {
                libc::_exit(0);
            }
            libc::write(ack, [u8::from(left)].as_ptr().cast(), 1);
        }
    }
}

/// In a PID namespace's init: SIGKILL every other process of the namespace
/// and reap those that became ours, until none is left (true: some still
/// were after about 20 ms).
unsafe fn kill_all_but_me() -> bool {
    // SAFETY: plain system calls.
    unsafe {
        for _ in 0..200 {
            libc::kill(-1, libc::SIGKILL);
            while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) > 0 {}
            if libc::kill(-1, 0) != 0 {
                return false;
            }
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 100_000,
            };
            libc::nanosleep(&pause, std::ptr::null_mut());
        }
        true
    }
}
