//! The run cache: runs and checks kept by content, so that a second
//! `judge run` or `judge verify` costs what changed.
//!
//! A run's key holds what can change its outcome: what the runner
//! executes ([`crate::exec::Runner::identity`]: the program's bytes, its
//! files, arguments, how it is contained), the input's digest, the case's
//! files and arguments, the limits that are not reused across (file size,
//! processes, what output past its limit does), the judge's version and
//! this cache's format. The limits it may be reused across are kept in the
//! entry with what was measured, and [`reuse::reusable`] decides. The
//! output and standard error are objects named by their digest, so a
//! changed answer file is checked again on the kept output. An external
//! checker's verdict is kept apart, keyed by the checker's identity, its
//! flags and the digests of input, answer and output.
//!
//! The cache lives in `runs/` of the build cache's directory (checked by
//! `exec::cache_dir`: the judge's user's alone, hidden from the sandbox).
//! Entries and objects are sealed by their SHA-256 and written by rename;
//! no lock is held, so judges on one machine share it. Its size is
//! bounded: [`RunCache::finish`] removes the least recently used files.

pub mod reuse;
pub mod store;

use crate::check::Judgement;
use crate::exec::identity::{self, Fields};
use crate::exec::{CpuSource, Exit, LimitHit, Limits, MemorySource, RunOutcome, RunRequest};
use crate::score::Partial;
use crate::verdict::Verdict;
use reuse::{Measured, RanUnder};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The format of entries: a new one makes every old entry a miss.
pub const FORMAT: u32 = 2;
/// The size the cache is kept under when nothing says otherwise.
pub const DEFAULT_SIZE: u64 = 1 << 30;
/// The subdirectory of the cache directory that holds runs and checks.
pub const RUNS: &str = "runs";

/// The run cache of one judge process.
pub struct RunCache {
    root: PathBuf,
    limit: u64,
    recheck_left: AtomicUsize,
    rechecked: AtomicUsize,
    disagreements: Mutex<Vec<String>>,
    /// External checks run, and taken from the cache.
    checks: [AtomicUsize; 2],
}

/// A run kept in the cache, as written.
#[derive(Serialize, Deserialize)]
struct StoredRun {
    format: u32,
    judge: String,
    ran_under: RanUnder,
    exit: Exit,
    cpu_ns: u64,
    cpu_source: CpuSource,
    wall_ns: u64,
    peak_rss_kib: Option<u64>,
    memory_source: MemorySource,
    /// The output: its text inline when short, else an object's name.
    stdout: Kept,
    stdout_bytes: u64,
    stderr: Kept,
    limit_hit: Option<LimitHit>,
    memory_evidence: Option<String>,
    process_cap_hit: bool,
    stopped: bool,
}

/// Bytes kept with an entry: a short text inline (one file a run, not
/// three), anything else as an object named by its digest.
#[derive(Serialize, Deserialize)]
enum Kept {
    Text(String),
    Object(String),
}

/// Output up to this long, and text, is kept inline in its entry.
const INLINE: usize = 16 << 10;

impl Kept {
    fn put(objects: &Path, bytes: &[u8]) -> std::io::Result<Kept> {
        match std::str::from_utf8(bytes) {
            Ok(text) if bytes.len() <= INLINE => Ok(Kept::Text(text.to_string())),
            _ => store::put_object(objects, bytes).map(Kept::Object),
        }
    }

    fn get(self, objects: &Path) -> Option<Vec<u8>> {
        match self {
            Kept::Text(text) => Some(text.into_bytes()),
            Kept::Object(name) => store::get_object(objects, &name),
        }
    }
}

/// A checker's verdict kept in the cache.
#[derive(Serialize, Deserialize)]
struct StoredCheck {
    format: u32,
    verdict: Verdict,
    message: String,
    diff: Option<String>,
    partial: Option<Partial>,
}

impl RunCache {
    /// The cache in `dir` (the checked cache directory), kept under
    /// `limit` bytes, re-running the first `recheck` runs it finds.
    pub fn open(dir: &Path, limit: u64, recheck: usize) -> RunCache {
        RunCache {
            root: dir.join(RUNS),
            limit,
            recheck_left: AtomicUsize::new(recheck),
            rechecked: AtomicUsize::new(0),
            disagreements: Mutex::new(Vec::new()),
            checks: [AtomicUsize::new(0), AtomicUsize::new(0)],
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn objects(&self) -> PathBuf {
        self.root.join("objects")
    }

    /// The key of running `identity` (a runner's) on `request`; `None`
    /// when a file it names cannot be read.
    pub fn run_key(identity: &str, request: &RunRequest<'_>) -> Option<String> {
        let mut key = Fields::new();
        key.field("judge", env!("CARGO_PKG_VERSION").as_bytes())
            .field("format", &FORMAT.to_le_bytes())
            .field("kind", b"run")
            .field("program", identity.as_bytes())
            .field("input", identity::file(request.input)?.as_bytes());
        if let Some(files) = request.given.files {
            key.field("files", identity::content(files)?.as_bytes());
        }
        for arg in request.given.args {
            key.field("arg", arg.as_bytes());
        }
        let limits = request.limits;
        key.field(
            "past-output",
            format!("{:?}", limits.past_output).as_bytes(),
        )
        .field("file-size", &limits.file_size.to_le_bytes())
        .field("processes", &limits.processes.to_le_bytes());
        Some(key.hex())
    }

    /// The key of a check by `checker` (its identity) of `output`.
    pub fn check_key(
        checker: &str,
        input: &Path,
        answer: Option<&Path>,
        output: &[u8],
    ) -> Option<String> {
        let mut key = Fields::new();
        key.field("judge", env!("CARGO_PKG_VERSION").as_bytes())
            .field("format", &FORMAT.to_le_bytes())
            .field("kind", b"check")
            .field("checker", checker.as_bytes())
            .field("input", identity::file(input)?.as_bytes());
        if let Some(answer) = answer {
            key.field("answer", identity::file(answer)?.as_bytes());
        }
        key.field("output", identity::bytes_digest(output).as_bytes());
        Some(key.hex())
    }

    /// The run kept under `key`, if there is one that stands under
    /// `limits` and is whole.
    pub fn lookup_run(&self, key: &str, limits: &Limits) -> Option<RunOutcome> {
        let path = store::sharded(&self.root.join("entries"), key);
        let body = store::read_sealed(&path)?;
        let Ok(run) = serde_json::from_slice::<StoredRun>(&body) else {
            store::damaged(&path);
            return None;
        };
        if run.format != FORMAT || run.judge != env!("CARGO_PKG_VERSION") {
            return None;
        }
        let measured = Measured {
            cpu_ns: run.cpu_ns,
            wall_ns: run.wall_ns,
            output_bytes: run.stdout_bytes,
            limit_hit: run.limit_hit,
            limited: run.memory_evidence.is_some() || run.process_cap_hit || run.stopped,
        };
        if !reuse::reusable(&run.ran_under, &measured, limits) {
            return None;
        }
        let stdout = run.stdout.get(&self.objects())?;
        let stderr_tail = run.stderr.get(&self.objects())?;
        if stdout.len() as u64 != run.stdout_bytes {
            store::damaged(&path);
            return None;
        }
        store::touch(&path);
        Some(RunOutcome {
            exit: run.exit,
            cpu: Duration::from_nanos(run.cpu_ns),
            cpu_source: run.cpu_source,
            wall: Duration::from_nanos(run.wall_ns),
            peak_rss_kib: run.peak_rss_kib,
            memory_source: run.memory_source,
            stdout,
            stderr_tail,
            limit_hit: run.limit_hit,
            memory_evidence: run.memory_evidence,
            process_cap_hit: run.process_cap_hit,
            stopped: run.stopped,
        })
    }

    /// Keep `outcome`, measured under `limits`, under `key`. A cache that
    /// cannot be written is no error: the run stands, it is not kept.
    pub fn store_run(&self, key: &str, limits: &Limits, outcome: &RunOutcome) {
        let objects = self.objects();
        let (Ok(stdout), Ok(stderr)) = (
            Kept::put(&objects, &outcome.stdout),
            Kept::put(&objects, &outcome.stderr_tail),
        ) else {
            return;
        };
        let run = StoredRun {
            format: FORMAT,
            judge: env!("CARGO_PKG_VERSION").into(),
            ran_under: RanUnder::of(limits),
            exit: outcome.exit,
            cpu_ns: reuse::nanos(outcome.cpu),
            cpu_source: outcome.cpu_source,
            wall_ns: reuse::nanos(outcome.wall),
            peak_rss_kib: outcome.peak_rss_kib,
            memory_source: outcome.memory_source,
            stdout,
            stdout_bytes: outcome.stdout.len() as u64,
            stderr,
            limit_hit: outcome.limit_hit,
            memory_evidence: outcome.memory_evidence.clone(),
            process_cap_hit: outcome.process_cap_hit,
            stopped: outcome.stopped,
        };
        if let Ok(body) = serde_json::to_vec(&run) {
            let path = store::sharded(&self.root.join("entries"), key);
            let _ = store::write_atomic(&path, &store::seal(&body));
        }
    }

    /// The checker's verdict kept under `key`.
    pub fn lookup_check(&self, key: &str) -> Option<Judgement> {
        let path = store::sharded(&self.root.join("checks"), key);
        let body = store::read_sealed(&path)?;
        let Ok(check) = serde_json::from_slice::<StoredCheck>(&body) else {
            store::damaged(&path);
            return None;
        };
        if check.format != FORMAT {
            return None;
        }
        store::touch(&path);
        let mut judgement = Judgement::new(check.verdict, check.message);
        judgement.diff = check.diff;
        judgement.partial = check.partial;
        Some(judgement)
    }

    /// Keep a checker's verdict: only a verdict on the output (AC, WA,
    /// PE), never a failure of the judge or the checker (IE), which may
    /// pass.
    pub fn store_check(&self, key: &str, judgement: &Judgement) {
        if !matches!(
            judgement.verdict,
            Verdict::Accepted | Verdict::WrongAnswer | Verdict::PresentationError
        ) || !judgement.figures.is_empty()
            || judgement.transcript.is_some()
        {
            return;
        }
        let check = StoredCheck {
            format: FORMAT,
            verdict: judgement.verdict,
            message: judgement.message.clone(),
            diff: judgement.diff.clone(),
            partial: judgement.partial,
        };
        if let Ok(body) = serde_json::to_vec(&check) {
            let path = store::sharded(&self.root.join("checks"), key);
            let _ = store::write_atomic(&path, &store::seal(&body));
        }
    }

    /// Whether this cached run is one of the `--recheck` sample (the
    /// first ones found), to be run again and compared.
    pub fn take_recheck(&self) -> bool {
        let taken = self
            .recheck_left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if taken {
            self.rechecked.fetch_add(1, Ordering::SeqCst);
        }
        taken
    }

    /// Note a re-run that disagreed with its cached result.
    pub fn disagreed(&self, what: String) {
        self.disagreements
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(what);
    }

    /// How many runs were re-checked, and the disagreements found.
    pub fn rechecks(&self) -> (usize, Vec<String>) {
        let mut found = self
            .disagreements
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        found.sort();
        (self.rechecked.load(Ordering::SeqCst), found)
    }

    /// Count an external check: run (`false`) or taken from the cache.
    pub fn count_check(&self, reused: bool) {
        self.checks[usize::from(reused)].fetch_add(1, Ordering::SeqCst);
    }

    /// External checks (run, taken from the cache).
    pub fn checks(&self) -> (usize, usize) {
        (
            self.checks[0].load(Ordering::SeqCst),
            self.checks[1].load(Ordering::SeqCst),
        )
    }

    /// Keep the cache under its size: the least recently used first out.
    pub fn finish(&self) -> store::Usage {
        store::evict(&self.root, self.limit)
    }
}

/// How a kept run and its re-run differ, if they do in what decides a
/// verdict: how each ended (the limit that stopped it, or its exit) and
/// its output.
pub fn disagreement(kept: &RunOutcome, again: &RunOutcome) -> Option<String> {
    let ended = |o: &RunOutcome| match o.limit_hit {
        Some(hit) => format!("stopped by the {hit:?} limit"),
        None => o.exit.describe(),
    };
    let (was, now) = (ended(kept), ended(again));
    if was != now {
        return Some(format!(
            "cached: {was} ({:.3} s CPU), re-run: {now} ({:.3} s CPU)",
            kept.cpu.as_secs_f64(),
            again.cpu.as_secs_f64()
        ));
    }
    if kept.limit_hit.is_none() && kept.stdout != again.stdout {
        return Some(format!(
            "the output differs (cached {} bytes, sha256 {}…; re-run {} bytes, sha256 {}…)",
            kept.stdout.len(),
            &identity::bytes_digest(&kept.stdout)[..12],
            again.stdout.len(),
            &identity::bytes_digest(&again.stdout)[..12]
        ));
    }
    None
}
