//! Reading the process table from /proc: who is alive, in which group,
//! under which user. Used to find what a case left behind.

use std::path::Path;

/// One line of the process table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessInfo {
    pub pid: i32,
    pub ppid: i32,
    pub pgid: i32,
    pub sid: i32,
    pub uid: u32,
    /// R, S, D, Z (zombie) …
    pub state: char,
}

/// Every process visible in /proc. Processes that vanish while being read
/// are skipped.
pub fn processes() -> Vec<ProcessInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()))
        .filter_map(process)
        .collect()
}

/// One process, if it exists.
pub fn process(pid: i32) -> Option<ProcessInfo> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold anything: parse after
    // the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    let sid = fields.next()?.parse().ok()?;
    let uid = uid_of(pid)?;
    Some(ProcessInfo {
        pid,
        ppid,
        pgid,
        sid,
        uid,
        state,
    })
}

/// CPU time of every live process of a process group, with the children
/// each has reaped (a child's time is in its reaper's `cutime` once it is
/// gone, so nothing is counted twice).
pub fn group_cpu_time(pgid: i32) -> std::time::Duration {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return std::time::Duration::ZERO;
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()))
        .filter(|&pid| process(pid).is_some_and(|p| p.pgid == pgid))
        .filter_map(cpu_time)
        .sum()
}

/// CPU time of a live process: its own (all threads) and that of the
/// children it has waited for, from /proc/PID/stat (clock-tick resolution).
pub fn cpu_time(pid: i32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    // After the name: state(3) ppid pgrp session tty tpgid flags minflt
    // cminflt majflt cmajflt utime(14) stime(15) cutime(16) cstime(17).
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let ticks: u64 = [11, 12, 13, 14]
        .iter()
        .filter_map(|&i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
        .sum();
    // SAFETY: sysconf cannot fail for _SC_CLK_TCK on Linux.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(std::time::Duration::from_micros(ticks * 1_000_000 / hz))
}

fn uid_of(pid: i32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(Path::new("/proc").join(pid.to_string()))
        .ok()
        .map(|m| m.uid())
}

/// The children of this process (all its threads), from
/// `/proc/self/task/*/children`. `None` when the kernel does not offer
/// those files.
pub fn own_children() -> Option<Vec<i32>> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    let mut children = Vec::new();
    let mut any = false;
    for task in tasks.filter_map(|e| e.ok()) {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            any = true;
            children.extend(
                text.split_ascii_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    any.then_some(children)
}

/// Processes whose command line contains `needle` (tests use a marker
/// argument to find what a hostile program left behind).
pub fn with_cmdline_containing(needle: &str) -> Vec<i32> {
    processes()
        .into_iter()
        .filter(|p| p.state != 'Z')
        .filter(|p| {
            std::fs::read(format!("/proc/{}/cmdline", p.pid))
                .map(|c| String::from_utf8_lossy(&c).contains(needle))
                .unwrap_or(false)
        })
        .map(|p| p.pid)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_itself() {
        let me = std::process::id() as i32;
        let info = process(me).expect("own /proc entry");
        assert_eq!(info.pid, me);
        assert!(processes().iter().any(|p| p.pid == me));
    }
}
