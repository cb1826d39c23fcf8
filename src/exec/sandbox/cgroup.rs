//! Control groups, when the machine lets the judge write them: one cgroup
//! per worker slot, for a process cap (`pids.max`), a memory limit that
//! counts every process of the run (`memory.limit_in_bytes` / `memory.max`),
//! the run's true peak memory, out-of-memory kills as evidence for MLE, and
//! a list of every process of the run to kill.
//!
//! Both cgroup v1 (the separate `pids` and `memory` hierarchies that many CI
//! machines still mount) and v2 (a delegated subtree) are used when
//! writable; neither is ever required. Each slot's cgroup lives below the
//! judge's own cgroup (so a container's limits still apply) and is removed
//! when the run ends.

mod knobs;

use knobs::{Knob, Knobs};
use std::fs;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// Which cgroup interface a slot uses.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Layout {
    /// v1: one directory per controller hierarchy.
    V1 {
        pids: Option<PathBuf>,
        memory: Option<PathBuf>,
        /// The `cpuacct` hierarchy, for the CPU time of every process.
        cpuacct: Option<PathBuf>,
    },
    /// v2: one directory with both controllers.
    V2 { dir: PathBuf },
}

/// Why the run has no cgroups, or a slot none of its own.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    #[error("cannot read /proc/self/cgroup: {0}")]
    OwnCgroup(#[source] std::io::Error),
    #[error("no writable cgroup hierarchy with the pids and memory controllers")]
    NoHierarchy,
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Where this run's cgroups go: found once per run.
#[derive(Debug)]
pub struct CgroupRoot {
    layout: Layout,
}

/// What is available, in words for the reports.
impl CgroupRoot {
    /// Find a writable place for the run's cgroups, or say why there is none.
    pub fn detect(run_name: &str) -> Result<CgroupRoot, CgroupError> {
        let own = fs::read_to_string("/proc/self/cgroup").map_err(CgroupError::OwnCgroup)?;
        let mut v1_pids = None;
        let mut v1_memory = None;
        let mut v1_cpuacct = None;
        let mut v2 = None;
        for line in own.lines() {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = match (parts.next(), parts.next(), parts.next()) {
                (Some(a), Some(b), Some(c)) => (a, b, c),
                _ => continue,
            };
            let path = path.trim_start_matches('/');
            for controller in controllers.split(',') {
                match controller {
                    "pids" => v1_pids = Some(Path::new("/sys/fs/cgroup/pids").join(path)),
                    "memory" => v1_memory = Some(Path::new("/sys/fs/cgroup/memory").join(path)),
                    // Mounted as `cpuacct` or `cpu,cpuacct` (with links).
                    "cpuacct" => {
                        let mount = [
                            "/sys/fs/cgroup/cpuacct",
                            &format!("/sys/fs/cgroup/{controllers}"),
                        ]
                        .iter()
                        .map(Path::new)
                        .find(|m| m.join("cpuacct.usage").exists())
                        .map(Path::to_path_buf);
                        v1_cpuacct = mount.map(|m| m.join(path));
                    }
                    "" => v2 = Some(path.to_string()),
                    _ => {}
                }
            }
        }
        let make = |base: &Path| -> Option<PathBuf> {
            let dir = base.join(run_name);
            fs::create_dir(&dir).ok().map(|_| dir)
        };
        if v1_pids.is_some() || v1_memory.is_some() {
            let pids = v1_pids
                .filter(|p| p.join("cgroup.procs").exists())
                .and_then(|p| make(&p));
            let memory = v1_memory
                .filter(|p| p.join("cgroup.procs").exists())
                .and_then(|p| make(&p));
            if pids.is_some() || memory.is_some() {
                let cpuacct = v1_cpuacct
                    .filter(|p| p.join("cgroup.procs").exists())
                    .and_then(|p| make(&p));
                return Ok(CgroupRoot {
                    layout: Layout::V1 {
                        pids,
                        memory,
                        cpuacct,
                    },
                });
            }
        }
        if let Some(path) = v2 {
            let base = Path::new("/sys/fs/cgroup").join(path);
            let controllers =
                fs::read_to_string(base.join("cgroup.controllers")).unwrap_or_default();
            let subtree =
                fs::read_to_string(base.join("cgroup.subtree_control")).unwrap_or_default();
            let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
            let enabled = |c: &str| subtree.split_whitespace().any(|x| x == c);
            if has("pids") && has("memory") {
                if !(enabled("pids") && enabled("memory")) {
                    // Works only when the judge's cgroup holds no processes
                    // (a delegated, empty parent), as cgroup v2 requires.
                    let _ = fs::write(base.join("cgroup.subtree_control"), "+pids +memory");
                }
                let subtree =
                    fs::read_to_string(base.join("cgroup.subtree_control")).unwrap_or_default();
                if subtree.split_whitespace().any(|x| x == "pids")
                    && subtree.split_whitespace().any(|x| x == "memory")
                    && let Some(dir) = make(&base)
                {
                    let _ = fs::write(dir.join("cgroup.subtree_control"), "+pids +memory");
                    return Ok(CgroupRoot {
                        layout: Layout::V2 { dir },
                    });
                }
            }
        }
        Err(CgroupError::NoHierarchy)
    }

    /// "v1 (pids, memory)" or "v2".
    pub fn describe(&self) -> String {
        match &self.layout {
            Layout::V1 {
                pids,
                memory,
                cpuacct,
            } => {
                let mut c = Vec::new();
                if pids.is_some() {
                    c.push("pids");
                }
                if memory.is_some() {
                    c.push("memory");
                }
                if cpuacct.is_some() {
                    c.push("cpuacct");
                }
                format!("cgroup v1 ({})", c.join(", "))
            }
            Layout::V2 { .. } => "cgroup v2 (pids, memory, cpu.stat)".to_string(),
        }
    }

    /// Whether the cgroup limits and counts memory.
    pub fn counts_memory(&self) -> bool {
        match &self.layout {
            Layout::V1 { memory, .. } => memory.is_some(),
            Layout::V2 { .. } => true,
        }
    }

    /// Whether process counts are capped by the cgroup.
    pub fn caps_processes(&self) -> bool {
        match &self.layout {
            Layout::V1 { pids, .. } => pids.is_some(),
            Layout::V2 { .. } => true,
        }
    }

    /// Make the cgroup of one worker slot.
    pub fn slot(&self, slot: usize) -> Result<SlotCgroup, CgroupError> {
        let name = format!("slot{slot}");
        let mkdir = |base: &Path| -> Result<PathBuf, CgroupError> {
            let dir = base.join(&name);
            match fs::create_dir(&dir) {
                Ok(()) => Ok(dir),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(dir),
                Err(source) => Err(CgroupError::Io { path: dir, source }),
            }
        };
        let layout = match &self.layout {
            Layout::V1 {
                pids,
                memory,
                cpuacct,
            } => Layout::V1 {
                pids: pids.as_deref().map(mkdir).transpose()?,
                memory: memory.as_deref().map(mkdir).transpose()?,
                cpuacct: cpuacct.as_deref().map(mkdir).transpose()?,
            },
            Layout::V2 { dir } => Layout::V2 { dir: mkdir(dir)? },
        };
        let mut procs = Vec::new();
        for dir in layout.dirs() {
            let path = dir.join("cgroup.procs");
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|source| CgroupError::Io { path, source })?;
            procs.push(OwnedFd::from(file));
        }
        let knobs = Knobs::open(&layout);
        Ok(SlotCgroup {
            layout,
            procs,
            knobs,
            limits: None,
            baseline: Counters::default(),
            cpu_baseline: std::time::Duration::ZERO,
            last: std::cell::Cell::new(None),
            last_cpu: std::cell::Cell::new(None),
            resident: None,
        })
    }

    /// The run's directories (one per v1 hierarchy, or the v2 one).
    pub fn dirs(&self) -> Vec<PathBuf> {
        self.layout
            .dirs()
            .into_iter()
            .map(Path::to_path_buf)
            .collect()
    }

    /// Remove the run's directories (after every slot's are gone).
    pub fn remove(&self) {
        for dir in self.layout.dirs() {
            let _ = fs::remove_dir(dir);
        }
    }
}

impl Layout {
    fn dirs(&self) -> Vec<&Path> {
        match self {
            Layout::V1 {
                pids,
                memory,
                cpuacct,
            } => pids
                .iter()
                .chain(memory.iter())
                .chain(cpuacct.iter())
                .map(|p| p.as_path())
                .collect(),
            Layout::V2 { dir } => vec![dir.as_path()],
        }
    }
}

/// Counters that only grow; a case's share is the difference.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    oom_kills: u64,
    pids_refused: u64,
    /// v1 `memory.failcnt` (its count is never reset: a write would cost a
    /// system call a case), v2 `memory.events`' `max`.
    memory_failures: u64,
}

/// One slot's cgroup, reused case after case.
#[derive(Debug)]
pub struct SlotCgroup {
    layout: Layout,
    /// Open `cgroup.procs` files: a child joins by writing "0".
    procs: Vec<OwnedFd>,
    /// The control files a case reads and writes, kept open: opening a
    /// cgroup file costs more than reading it, and this is done per case.
    knobs: Knobs,
    limits: Option<(u64, u32)>,
    baseline: Counters,
    /// The cgroup's CPU time when the case started.
    cpu_baseline: std::time::Duration,
    /// The counters at the end of the last case: the next case's baseline.
    last: std::cell::Cell<Option<Counters>>,
    /// The cgroup's CPU time at the end of the last case: the next case's
    /// CPU baseline.
    last_cpu: std::cell::Cell<Option<std::time::Duration>>,
    /// The slot's launcher, when it lives in the cgroup (see
    /// [`SlotCgroup::adopt`]): its pid, and the pid as `cgroup.procs`
    /// lists it.
    resident: Option<(i32, String)>,
}

/// What came of making the launcher a member of the slot's cgroups.
#[derive(Debug, PartialEq, Eq)]
pub enum Adoption {
    /// It is in the cgroups these join descriptors join: its programs are
    /// born there.
    Done(Vec<i32>),
    /// Nothing was done (cgroup v2, or no such hierarchy).
    NotApplicable,
    /// It is in some but not all: it must not be used.
    Partial(String),
}

/// What the cgroup saw of one case.
#[derive(Clone, Debug, Default)]
pub struct CgroupReport {
    pub peak_bytes: Option<u64>,
    pub memory_failures: u64,
    pub oom_kills: u64,
    pub pids_refused: u64,
    /// CPU time of every process of the case, reaped or not.
    pub cpu: Option<std::time::Duration>,
}

impl SlotCgroup {
    /// Whether this cgroup caps processes (then RLIMIT_NPROC is not needed).
    pub fn limits_processes(&self) -> bool {
        match &self.layout {
            Layout::V1 { pids, .. } => pids.is_some(),
            Layout::V2 { .. } => true,
        }
    }

    /// Whether this cgroup limits memory (then RLIMIT_AS is not needed).
    pub fn limits_memory(&self) -> bool {
        match &self.layout {
            Layout::V1 { memory, .. } => memory.is_some(),
            Layout::V2 { .. } => true,
        }
    }

    /// Make `pid`, the slot's launcher, a lasting member of the slot's
    /// cgroup v1 `pids` and `cpuacct` hierarchies, so that the programs it
    /// clones are born in them and join only the memory cgroup. A join is
    /// a cgroup migration, and joining these two was the largest cost
    /// left of starting a program in the sandbox (v1 has no
    /// `CLONE_INTO_CGROUP`). The memory cgroup is left out on purpose: a
    /// member there could be the OOM killer's victim, and lowering its
    /// `oom_score_adj` takes `CAP_SYS_RESOURCE`, which containers drop.
    /// What membership changes, and how it is kept out of the figures:
    /// - the process cap counts it: `pids.max` is the cap plus one;
    /// - it is not among the run's processes: not counted, not killed;
    /// - its CPU time to start a program (receiving the request, cloning:
    ///   tens of microseconds) counts to the case, as the child's own
    ///   setup before exec always did.
    ///
    /// Under cgroup v2 (one hierarchy, memory included) nothing is done.
    /// Returns the join descriptors of the cgroups it is now in.
    pub fn adopt(&mut self, pid: i32) -> Adoption {
        let Layout::V1 { pids, cpuacct, .. } = &self.layout else {
            return Adoption::NotApplicable;
        };
        let text = pid.to_string();
        let mut joined = Vec::new();
        for (fd, dir) in self.procs.iter().zip(self.layout.dirs()) {
            let wanted = [pids, cpuacct].iter().any(|d| d.as_deref() == Some(dir));
            if !wanted {
                continue;
            }
            // SAFETY: a write of a buffer to a descriptor we own.
            let n = unsafe { libc::write(fd.as_raw_fd(), text.as_ptr().cast(), text.len()) };
            if n != text.len() as isize {
                return Adoption::Partial(format!(
                    "{}: {}",
                    dir.join("cgroup.procs").display(),
                    std::io::Error::last_os_error()
                ));
            }
            joined.push(fd.as_raw_fd());
        }
        if joined.is_empty() {
            return Adoption::NotApplicable;
        }
        self.resident = Some((pid, text));
        // The cap now counts the launcher: written again before the next case.
        self.limits = None;
        Adoption::Done(joined)
    }

    /// The raw descriptors a child writes "0" to, to join.
    pub fn join_fds(&self) -> Vec<i32> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Set the limits (when they changed) and zero the counters before a case.
    pub fn prepare(&mut self, memory: Option<u64>, processes: u32) {
        let memory_value = memory.unwrap_or(u64::MAX);
        let k = &self.knobs;
        if self.limits != Some((memory_value, processes)) {
            let unlimited = if matches!(self.layout, Layout::V1 { .. }) {
                "-1"
            } else {
                "max"
            };
            if let Some(f) = &k.pids_max {
                let resident = u32::from(self.resident.is_some());
                f.write(&processes.saturating_add(resident).to_string());
            }
            if let Some(f) = &k.memory_limit {
                f.write(&limit_text(memory, unlimited));
            }
            if let Some(f) = &k.swap_max {
                f.write("0");
            }
            self.limits = Some((memory_value, processes));
        }
        self.drop_charges();
        if let Some(f) = &k.memory_peak {
            f.write("0");
        }
        self.baseline = self.last.take().unwrap_or_else(|| self.counters());
        // Nothing runs in the slot's cgroup between cases (the report is
        // read once the run is dead): the CPU the last report read is where
        // this case starts, but for what a killed process spends on its way
        // out, microseconds, which count to this case.
        self.cpu_baseline = match self.last_cpu.take() {
            Some(cpu) => cpu,
            None => self.total_cpu().unwrap_or_default(),
        };
    }

    /// Drop what the slot's memory cgroup still has charged before a case:
    /// page cache an earlier case read (files outside its working
    /// directory stay cached, charged here), which would otherwise fill
    /// this case's limit, be reclaimed on its account (a hit of the limit:
    /// MLE evidence for an honest program) and raise its peak. Nothing of
    /// a run is alive now, so all of it can go: v1 `memory.force_empty`,
    /// v2 `memory.reclaim` of the whole charge. Only when more than
    /// [`CARRY_TOLERANCE`] is charged (one read of the usage otherwise): a
    /// forced reclaim costs 0.35 ms, a third of a small case, and after
    /// any case the kernel's per-CPU charge batches and cached kernel
    /// objects read as 0.2–1.2 MiB. The peak is reset after.
    fn drop_charges(&self) {
        let k = &self.knobs;
        let (Some(usage), Some(reclaim)) = (&k.memory_usage, &k.memory_reclaim) else {
            return;
        };
        let charged = usage.number().unwrap_or(0);
        if charged <= CARRY_TOLERANCE {
            return;
        }
        match &self.layout {
            Layout::V1 { .. } => {
                reclaim.try_write("0");
            }
            // What cannot be reclaimed is refused (EAGAIN): nothing more
            // to do.
            Layout::V2 { .. } => {
                reclaim.try_write(&charged.to_string());
            }
        }
    }

    /// Whether the cgroup counts the CPU time of its processes.
    pub fn counts_cpu(&self) -> bool {
        self.knobs.cpu_usage.is_some()
    }

    /// The cgroup's CPU time since it was made.
    fn total_cpu(&self) -> Option<std::time::Duration> {
        let knob = self.knobs.cpu_usage.as_ref()?;
        match &self.layout {
            Layout::V1 { .. } => knob.number().map(std::time::Duration::from_nanos),
            Layout::V2 { .. } => knob
                .keyed("usage_usec")
                .map(std::time::Duration::from_micros),
        }
    }

    /// The CPU time of every process of the case so far (since
    /// [`SlotCgroup::prepare`]), whoever spent it and whether or not it
    /// was reaped.
    pub fn cpu_used(&self) -> Option<std::time::Duration> {
        self.total_cpu()
            .map(|now| now.saturating_sub(self.cpu_baseline))
    }

    fn counters(&self) -> Counters {
        Counters {
            oom_kills: self
                .knobs
                .memory_events
                .as_ref()
                .and_then(|f| f.keyed("oom_kill"))
                .unwrap_or(0),
            pids_refused: self
                .knobs
                .pids_events
                .as_ref()
                .and_then(|f| f.keyed("max"))
                .unwrap_or(0),
            memory_failures: match &self.layout {
                Layout::V1 { .. } => self
                    .knobs
                    .failcnt
                    .as_ref()
                    .and_then(Knob::number)
                    .unwrap_or(0),
                Layout::V2 { .. } => self
                    .knobs
                    .memory_events
                    .as_ref()
                    .and_then(|f| f.keyed("max"))
                    .unwrap_or(0),
            },
        }
    }

    /// What the cgroup saw since [`SlotCgroup::prepare`].
    pub fn report(&self) -> CgroupReport {
        let now = self.counters();
        self.last.set(Some(now));
        let k = &self.knobs;
        let total_cpu = self.total_cpu();
        self.last_cpu.set(total_cpu);
        CgroupReport {
            peak_bytes: k.memory_peak.as_ref().and_then(Knob::number),
            memory_failures: now
                .memory_failures
                .saturating_sub(self.baseline.memory_failures),
            oom_kills: now.oom_kills.saturating_sub(self.baseline.oom_kills),
            pids_refused: now.pids_refused.saturating_sub(self.baseline.pids_refused),
            cpu: total_cpu.map(|now| now.saturating_sub(self.cpu_baseline)),
        }
    }

    /// Every process in the slot's cgroup now.
    pub fn processes(&self) -> Vec<i32> {
        let mut all = Vec::new();
        for knob in &self.knobs.procs {
            knob.with(|text| {
                all.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                )
            });
        }
        all.sort_unstable();
        all.dedup();
        if let Some((resident, _)) = &self.resident {
            all.retain(|p| p != resident);
        }
        all
    }

    /// SIGKILL every process in the cgroup; true if there were any.
    pub fn kill_all(&self) -> bool {
        // The usual end of a case: nothing left, and nothing to allocate.
        // One hierarchy is enough to look at: v2 has one, and under v1
        // (root only) a process of the run is in every hierarchy (the child
        // joins them all before exec, and as the slot's user cannot move
        // itself: the cgroup files are root's).
        if self.knobs.procs.first().is_none_or(|k| {
            k.with(|text| {
                let text = text.trim();
                text.is_empty() || self.resident.as_ref().is_some_and(|(_, pid)| text == pid)
            })
        }) {
            return false;
        }
        let pids = self.processes();
        for &pid in &pids {
            // SAFETY: signalling a process of our own run.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        !pids.is_empty()
    }

    /// Remove the slot's directories (every process must be gone).
    pub fn remove(&self) {
        for _ in 0..100 {
            if !self.kill_all() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        for dir in self.layout.dirs() {
            let _ = fs::remove_dir(dir);
        }
    }
}

/// What a slot's memory cgroup may still have charged when a case starts
/// (see `SlotCgroup::drop_charges`): the kernel's own batching, not memory
/// a program holds or left.
const CARRY_TOLERANCE: u64 = 2 << 20;

fn limit_text(limit: Option<u64>, unlimited: &str) -> String {
    limit.map_or_else(|| unlimited.to_string(), |b| b.to_string())
}
