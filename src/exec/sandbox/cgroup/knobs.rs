//! The control files of a slot's cgroup, opened once and read or
//! written per case.

use super::Layout;
use std::fs;
use std::path::Path;

/// An open cgroup control file, read from its start and written whole.
#[derive(Debug)]
pub(super) struct Knob(fs::File);

impl Knob {
    pub(super) fn open(dir: &Path, name: &str, write: bool) -> Option<Knob> {
        fs::OpenOptions::new()
            .read(true)
            .write(write)
            .open(dir.join(name))
            .ok()
            .map(Knob)
    }

    /// The whole file, given to `f`. A control file is read in one
    /// `pread` when it fits with room to spare (a short read far from the
    /// buffer's end is the end of the file: the kernel fills the buffer
    /// with whole lines until the next would not fit, and no line of these
    /// files is near 512 bytes long); a longer one is read on.
    pub(super) fn with<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 4096];
        let n: usize = self.0.read_at(&mut buf, 0).unwrap_or_default();
        if n + 512 <= buf.len() {
            return f(&String::from_utf8_lossy(&buf[..n]));
        }
        let mut out = buf[..n].to_vec();
        loop {
            match self.0.read_at(&mut buf, out.len() as u64) {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        f(&String::from_utf8_lossy(&out))
    }

    /// A write-only control file (`memory.force_empty`, `memory.reclaim`:
    /// the kernel refuses to open them for reading).
    pub(super) fn open_write_only(dir: &Path, name: &str) -> Option<Knob> {
        fs::OpenOptions::new()
            .write(true)
            .open(dir.join(name))
            .ok()
            .map(Knob)
    }

    /// Write `value`: whether the kernel took it.
    pub(super) fn try_write(&self, value: &str) -> bool {
        use std::os::unix::fs::FileExt;
        self.0.write_at(value.as_bytes(), 0).is_ok()
    }

    pub(super) fn number(&self) -> Option<u64> {
        self.with(|text| text.trim().parse().ok())
    }

    pub(super) fn keyed(&self, key: &str) -> Option<u64> {
        self.with(|text| {
            text.lines().find_map(|line| {
                let (k, v) = line.split_once(' ')?;
                (k == key).then(|| v.trim().parse().ok()).flatten()
            })
        })
    }

    pub(super) fn write(&self, value: &str) {
        use std::os::unix::fs::FileExt;
        let _ = self.0.write_at(value.as_bytes(), 0);
    }
}

/// The control files of a slot's cgroup.
#[derive(Debug, Default)]
pub(super) struct Knobs {
    pub(super) procs: Vec<Knob>,
    pub(super) pids_max: Option<Knob>,
    pub(super) pids_events: Option<Knob>,
    pub(super) memory_limit: Option<Knob>,
    pub(super) swap_max: Option<Knob>,
    /// v1 `memory.max_usage_in_bytes`, v2 `memory.peak` (both reset by "0").
    pub(super) memory_peak: Option<Knob>,
    /// v1 `memory.usage_in_bytes`, v2 `memory.current`: what is charged.
    pub(super) memory_usage: Option<Knob>,
    /// v1 `memory.force_empty`, v2 `memory.reclaim`: drops the charge
    /// (page cache a case left) before the next case.
    pub(super) memory_reclaim: Option<Knob>,
    /// v1 `memory.failcnt`.
    pub(super) failcnt: Option<Knob>,
    /// v1 `memory.oom_control`, v2 `memory.events`.
    pub(super) memory_events: Option<Knob>,
    /// v1 `cpuacct.usage` (nanoseconds), v2 `cpu.stat` (`usage_usec`).
    pub(super) cpu_usage: Option<Knob>,
}

impl Knobs {
    pub(super) fn open(layout: &Layout) -> Knobs {
        let procs = layout
            .dirs()
            .into_iter()
            .filter_map(|d| Knob::open(d, "cgroup.procs", false))
            .collect();
        match layout {
            Layout::V1 {
                pids,
                memory,
                cpuacct,
            } => {
                // A file of a hierarchy that may be missing.
                let at = |dir: &Option<std::path::PathBuf>, name: &str, write: bool| {
                    dir.as_deref().and_then(|d| Knob::open(d, name, write))
                };
                Knobs {
                    procs,
                    cpu_usage: at(cpuacct, "cpuacct.usage", false),
                    pids_max: at(pids, "pids.max", true),
                    pids_events: at(pids, "pids.events", false),
                    memory_limit: at(memory, "memory.limit_in_bytes", true),
                    swap_max: None,
                    memory_peak: at(memory, "memory.max_usage_in_bytes", true),
                    memory_usage: at(memory, "memory.usage_in_bytes", false),
                    memory_reclaim: memory
                        .as_deref()
                        .and_then(|d| Knob::open_write_only(d, "memory.force_empty")),
                    failcnt: at(memory, "memory.failcnt", true),
                    memory_events: at(memory, "memory.oom_control", false),
                }
            }
            Layout::V2 { dir } => Knobs {
                procs,
                pids_max: Knob::open(dir, "pids.max", true),
                pids_events: Knob::open(dir, "pids.events", false),
                memory_limit: Knob::open(dir, "memory.max", true),
                swap_max: Knob::open(dir, "memory.swap.max", true),
                memory_peak: Knob::open(dir, "memory.peak", true),
                memory_usage: Knob::open(dir, "memory.current", false),
                memory_reclaim: Knob::open_write_only(dir, "memory.reclaim"),
                failcnt: None,
                memory_events: Knob::open(dir, "memory.events", false),
                cpu_usage: Knob::open(dir, "cpu.stat", false),
            },
        }
    }
}
