//! What a judge killed with SIGKILL leaves behind, and the next judge's
//! cleanup of it.
//!
//! A judge that ends normally (or by Ctrl-C, SIGTERM) removes its scratch
//! directory and cgroups. One killed with SIGKILL cannot: its scratch
//! directory under TMPDIR stays, with its cgroups (as root) and any
//! process of its runs that nothing killed (without a PID namespace: a
//! `setsid` daemon of a per-slot user, in its slot's cgroup). In a PID
//! namespace nothing is left: the slot's init sees the judge's end of its
//! pipe close, kills everything in the namespace and exits, and the
//! kernel kills whatever is left in a namespace whose init is gone.
//!
//! So each judge holds an exclusive `flock` on its scratch directory for
//! its whole life (the kernel drops it when the judge dies, however it
//! dies), and writes an [`OwnerMark`] in it: its pid and start time, the
//! block of user ids its slots run as (root), its cgroups. Every judge
//! that builds a sandbox first looks at the `judge-run-*` directories of
//! its TMPDIR: one that is a real directory (no symbolic link) of the
//! current user, holds a mark of that user's, and whose lock it can take,
//! belonged to a judge that is dead. Its stray processes are killed (those
//! of its cgroups, and, as root, those of its slots' users when no live
//! judge holds that block of uids), its cgroups and directory removed, and
//! one line on standard error says so. A directory without a mark (a judge
//! that is just starting, an older judge) or whose lock is held (a judge
//! that runs) is never touched.

use super::SCRATCH_PREFIX;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The mark's file name, in the scratch directory.
const MARK: &str = "judge.owner";

/// Who made a scratch directory, and what else it made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct OwnerMark {
    pub pid: i32,
    /// Clock ticks after boot (`/proc/PID/stat` field 22): with the pid,
    /// names one process even after its pid is reused.
    pub start: u64,
    /// As root: the first per-slot uid, how many slots, the block's lock.
    pub uids: Option<(u32, u32, PathBuf)>,
    /// The run's cgroup directories (one per v1 hierarchy, or the v2 one).
    pub cgroups: Vec<PathBuf>,
}

impl OwnerMark {
    /// This process's mark, without uids or cgroups yet.
    pub fn own() -> OwnerMark {
        let pid = std::process::id() as i32;
        OwnerMark {
            pid,
            start: start_time(pid).unwrap_or(0),
            ..OwnerMark::default()
        }
    }

    fn render(&self) -> String {
        let mut text = format!("pid {}\nstart {}\n", self.pid, self.start);
        if let Some((first, count, lock)) = &self.uids {
            text.push_str(&format!("uids {first} {count} {}\n", lock.display()));
        }
        for cgroup in &self.cgroups {
            text.push_str(&format!("cgroup {}\n", cgroup.display()));
        }
        text
    }

    fn parse(text: &str) -> Option<OwnerMark> {
        let mut mark = OwnerMark::default();
        for line in text.lines() {
            let (key, value) = line.split_once(' ')?;
            match key {
                "pid" => mark.pid = value.parse().ok()?,
                "start" => mark.start = value.parse().ok()?,
                "uids" => {
                    let mut parts = value.splitn(3, ' ');
                    let first = parts.next()?.parse().ok()?;
                    let count = parts.next()?.parse().ok()?;
                    mark.uids = Some((first, count, PathBuf::from(parts.next()?)));
                }
                "cgroup" => mark.cgroups.push(PathBuf::from(value)),
                _ => {}
            }
        }
        (mark.pid > 0).then_some(mark)
    }

    /// Write (or rewrite) the mark in `dir`: a new file renamed over the
    /// old, mode 0600.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let temporary = dir.join(format!("{MARK}.new"));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&temporary)?;
        file.write_all(self.render().as_bytes())?;
        std::fs::rename(&temporary, dir.join(MARK))
    }
}

impl super::Sandbox {
    /// Write who owns the scratch directory and what else it made, for a
    /// later judge to clean if this one is killed (only under its lock:
    /// a mark without a held lock means a dead judge).
    pub(super) fn mark_scratch(&self) {
        if self.scratch_lock.is_none() {
            return;
        }
        let mut mark = OwnerMark::own();
        if let Some((_, path)) = &self.uid_lock {
            mark.uids = Some((self.uid_base, self.slots.len() as u32, path.clone()));
        }
        if let Some(cgroups) = &self.cgroups {
            mark.cgroups = cgroups.dirs();
        }
        // Without a mark a killed judge's leftovers stay: not an error.
        let _ = mark.write(&self.scratch_path);
    }
}

/// Take the scratch directory's lock for this judge's lifetime (blocking:
/// a judge cleaning up may hold it for a moment, and lets go when it sees
/// no mark).
pub(super) fn lock_scratch(dir: &Path) -> std::io::Result<OwnedFd> {
    let fd = open_dir(dir)?;
    rustix::fs::flock(fd.as_fd(), rustix::fs::FlockOperation::LockExclusive)?;
    Ok(fd)
}

fn open_dir(dir: &Path) -> std::io::Result<OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    Ok(rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The start time of a process (clock ticks after boot), if it exists.
fn start_time(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    // Field 22; after the name the fields start at 3.
    rest.split_ascii_whitespace().nth(19)?.parse().ok()
}

/// What was cleaned after one dead judge.
#[derive(Debug, Default)]
pub(super) struct Cleaned {
    pub pid: i32,
    pub directory: PathBuf,
    pub processes: usize,
    pub cgroups: Vec<PathBuf>,
    /// Its directory could not be removed in time, and was set aside (see
    /// `remove::set_aside`): what was done instead.
    pub set_aside: Option<String>,
}

impl std::fmt::Display for Cleaned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cleaned up after a judge that was killed (pid {}): scratch directory {}, {} process{}",
            self.pid,
            self.directory.display(),
            self.processes,
            if self.processes == 1 { "" } else { "es" }
        )?;
        if !self.cgroups.is_empty() {
            let names: Vec<String> = self
                .cgroups
                .iter()
                .map(|c| c.display().to_string())
                .collect();
            write!(
                f,
                ", cgroup{} {}",
                if names.len() == 1 { "" } else { "s" },
                names.join(", ")
            )?;
        }
        if let Some(aside) = &self.set_aside {
            write!(f, "; {aside}")?;
        }
        Ok(())
    }
}

/// Clean what dead judges of this user left in `temp_root` (see the
/// module doc).
pub(super) fn clean(temp_root: &Path) -> Vec<Cleaned> {
    let Ok(entries) = std::fs::read_dir(temp_root) else {
        return Vec::new();
    };
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    let mut cleaned = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        if !entry
            .file_name()
            .as_encoded_bytes()
            .starts_with(SCRATCH_PREFIX.as_bytes())
        {
            continue;
        }
        let path = entry.path();
        // Not following a symbolic link: the entry itself.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        if let Some(done) = clean_one(&path, me) {
            cleaned.push(done);
        }
    }
    cleaned
}

/// Take the directory's lock. It is held while its judge runs; a judge
/// just killed may leave it held a moment longer by a process it forked
/// (its launchers, its PID namespaces' init, a child between fork and
/// exec), which share the lock and die with it (their parent-death
/// signal). So when the judge the mark names is dead, the lock is tried
/// again for up to 2 s.
fn lock_if_owner_dead(fd: &OwnedFd, me: u32) -> bool {
    let try_lock = || {
        rustix::fs::flock(
            fd.as_fd(),
            rustix::fs::FlockOperation::NonBlockingLockExclusive,
        )
        .is_ok()
    };
    if try_lock() {
        return true;
    }
    let owner_dead = read_mark(fd, me).is_some_and(|mark| start_time(mark.pid) != Some(mark.start));
    if !owner_dead {
        return false;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
        if try_lock() {
            return true;
        }
    }
    false
}

/// One scratch directory: cleaned if its judge is dead (see the module doc).
fn clean_one(dir: &Path, me: u32) -> Option<Cleaned> {
    let fd = open_dir(dir).ok()?;
    // The directory opened must be the one checked (not replaced since).
    let meta = rustix::fs::fstat(&fd).ok()?;
    if meta.st_uid != me {
        return None;
    }
    // Held by a judge that runs: not ours to touch.
    if !lock_if_owner_dead(&fd, me) {
        return None;
    }
    let mark = read_mark(&fd, me)?;
    // Defence in depth: the process the mark names, still alive.
    let alive_pid = start_time(mark.pid);
    if alive_pid == Some(mark.start) {
        return None;
    }
    let mut done = Cleaned {
        pid: mark.pid,
        directory: dir.to_path_buf(),
        ..Cleaned::default()
    };
    // A cgroup is named after its judge's pid: while a process with that
    // pid lives (but this one, which has made none yet), it may be another
    // judge's, and is left alone.
    let pid_free = alive_pid.is_none() || mark.pid == std::process::id() as i32;
    if pid_free {
        let suffix = format!("judge-{}", mark.pid);
        for cgroup in &mark.cgroups {
            if cgroup.starts_with("/sys/fs/cgroup")
                && cgroup.file_name().is_some_and(|n| n == suffix.as_str())
                && !cgroup.components().any(|c| c.as_os_str() == "..")
                && let Some(killed) = remove_cgroup(cgroup)
            {
                done.processes += killed;
                done.cgroups.push(cgroup.clone());
            }
        }
    }
    if me == 0
        && let Some((first, count, lock)) = &mark.uids
    {
        done.processes += kill_uid_block(*first, *count, lock);
    }
    super::staging::unseal(dir);
    if let Err(e) = super::remove::remove_tree(
        dir,
        std::time::Instant::now() + super::remove::LEFTOVER_BUDGET,
    ) {
        done.set_aside = Some(super::remove::set_aside(dir, &e));
    }
    drop(fd);
    Some(done)
}

/// The mark in an open scratch directory: a regular file of `me`'s, not
/// followed if it is a link.
fn read_mark(dir: &OwnedFd, me: u32) -> Option<OwnerMark> {
    use rustix::fs::{Mode, OFlags};
    let file = rustix::fs::openat(
        dir,
        MARK,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    )
    .ok()?;
    let meta = rustix::fs::fstat(&file).ok()?;
    if meta.st_uid != me
        || rustix::fs::FileType::from_raw_mode(meta.st_mode) != rustix::fs::FileType::RegularFile
    {
        return None;
    }
    let mut text = Vec::new();
    let mut buffer = [0u8; 4096];
    while text.len() < 64 * 1024 {
        match rustix::io::read(&file, &mut buffer) {
            Ok(0) => break,
            Ok(n) => text.extend_from_slice(&buffer[..n]),
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return None,
        }
    }
    OwnerMark::parse(std::str::from_utf8(&text).ok()?)
}

/// Kill every process of a dead judge's cgroup and its slots' cgroups,
/// then remove them. The number killed, or None if the cgroup is gone.
fn remove_cgroup(root: &Path) -> Option<usize> {
    let meta = std::fs::symlink_metadata(root).ok()?;
    if !meta.is_dir() {
        return None;
    }
    let slots: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    let mut killed = std::collections::HashSet::new();
    for dir in slots.iter().chain(std::iter::once(&root.to_path_buf())) {
        for _ in 0..100 {
            let pids: Vec<i32> = std::fs::read_to_string(dir.join("cgroup.procs"))
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.is_empty() {
                break;
            }
            for pid in pids {
                // SAFETY: signalling a process of a dead judge's cgroup.
                if unsafe { libc::kill(pid, libc::SIGKILL) } == 0 {
                    killed.insert(pid);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let _ = std::fs::remove_dir(dir);
    }
    Some(killed.len())
}

/// As root: kill every process of a dead judge's slot users, if no live
/// judge holds that block of uids now (its lock file is free). The lock
/// must be a regular file of root's in a root-only lock directory.
fn kill_uid_block(first: u32, count: u32, lock: &Path) -> usize {
    use std::os::unix::fs::OpenOptionsExt;
    let in_lock_dir = ["/run/judge", "/var/lib/judge"]
        .iter()
        .any(|d| lock.parent() == Some(Path::new(d)));
    let named = lock
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"uids-"));
    if !in_lock_dir || !named || count == 0 || count > super::isolation::UIDS_PER_JUDGE {
        return 0;
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(lock)
    else {
        return 0;
    };
    if !file.metadata().is_ok_and(|m| m.is_file() && m.uid() == 0) {
        return 0;
    }
    // Held: a live judge runs as these users now.
    if rustix::fs::flock(
        file.as_fd(),
        rustix::fs::FlockOperation::NonBlockingLockExclusive,
    )
    .is_err()
    {
        return 0;
    }
    let range = first..first.saturating_add(count);
    let mut killed = std::collections::HashSet::new();
    for _ in 0..100 {
        let strays: Vec<i32> = crate::exec::procfs::processes()
            .into_iter()
            .filter(|p| range.contains(&p.uid) && p.state != 'Z')
            .map(|p| p.pid)
            .collect();
        if strays.is_empty() {
            break;
        }
        for pid in strays {
            // SAFETY: signalling a process of a dead judge's slot user.
            if unsafe { libc::kill(pid, libc::SIGKILL) } == 0 {
                killed.insert(pid);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    killed.len()
}

#[cfg(test)]
mod tests;
