//! What the run cache keeps, as written: a run (its outcome and the
//! limits it ran under), a checker's verdict, an interactive or
//! multi-pass case's judgement with its submission's run.

use super::reuse::{self, Measured, RanUnder};
use super::store;
use crate::check::Judgement;
use crate::exec::captured::Output;
use crate::exec::{CpuSource, Exit, LimitHit, MemorySource, RunOutcome};
use crate::score::Partial;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// A run kept in the cache.
#[derive(Serialize, Deserialize)]
pub struct StoredRun {
    pub format: u32,
    pub judge: String,
    pub ran_under: RanUnder,
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

/// Bytes kept with an entry: a short text inline (one record a run, not
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

    /// An output kept: in memory when short, else an object streamed
    /// from the store.
    fn put_output(objects: &Path, output: &Output) -> std::io::Result<Kept> {
        match output {
            Output::Held(bytes) => Kept::put(objects, bytes),
            spooled => store::put_object_text(objects, spooled.text()).map(Kept::Object),
        }
    }

    /// [`Kept::get`] of an output: a long one stays in its object's file.
    fn get_output(self, objects: &Path) -> Option<Output> {
        match self {
            Kept::Object(name) => {
                let (file, len) = store::get_object_file(objects, &name)?;
                if len <= crate::exec::captured::SPILL as u64 {
                    let mut bytes = Vec::new();
                    Output::of_file(file, len).write_to(&mut bytes).ok()?;
                    return Some(Output::Held(bytes));
                }
                Some(Output::of_file(file, len))
            }
            text => text.get(objects).map(Output::Held),
        }
    }

    fn get(self, objects: &Path) -> Option<Vec<u8>> {
        match self {
            Kept::Text(text) => Some(text.into_bytes()),
            Kept::Object(name) => store::get_object(objects, &name),
        }
    }
}

impl StoredRun {
    /// `outcome` measured under `under`, its long outputs put in
    /// `objects`; `None` when they cannot be.
    pub fn of(objects: &Path, under: &RanUnder, outcome: &RunOutcome) -> Option<StoredRun> {
        Some(StoredRun {
            format: super::FORMAT,
            judge: crate::exec::identity::JUDGE_BUILD.into(),
            ran_under: *under,
            exit: outcome.exit,
            cpu_ns: reuse::nanos(outcome.cpu),
            cpu_source: outcome.cpu_source,
            wall_ns: reuse::nanos(outcome.wall),
            peak_rss_kib: outcome.peak_rss_kib,
            memory_source: outcome.memory_source,
            stdout: Kept::put_output(objects, &outcome.stdout).ok()?,
            stdout_bytes: outcome.stdout.len(),
            stderr: Kept::put(objects, &outcome.stderr_tail).ok()?,
            limit_hit: outcome.limit_hit,
            memory_evidence: outcome.memory_evidence.clone(),
            process_cap_hit: outcome.process_cap_hit,
            stopped: outcome.stopped,
        })
    }

    /// Whether this is this judge's and format's.
    pub fn current(&self) -> bool {
        self.format == super::FORMAT && self.judge == crate::exec::identity::JUDGE_BUILD
    }

    /// What the reuse rule needs.
    pub fn measured(&self) -> Measured {
        Measured {
            cpu_ns: self.cpu_ns,
            wall_ns: self.wall_ns,
            output_bytes: self.stdout_bytes,
            limit_hit: self.limit_hit,
            limited: self.memory_evidence.is_some() || self.process_cap_hit || self.stopped,
            // Only a memory cgroup measures a run's peak (`MemorySource::
            // Cgroup`), and where one does, it carries the memory limit.
            address_space: self.memory_source != MemorySource::Cgroup,
        }
    }

    /// The outcome, its outputs read back; `None` when an object is
    /// missing or damaged, or the output is not as long as it was.
    pub fn outcome(self, objects: &Path) -> Option<RunOutcome> {
        let stdout = self.stdout.get_output(objects)?;
        let stderr_tail = self.stderr.get(objects)?;
        if stdout.len() != self.stdout_bytes {
            return None;
        }
        Some(RunOutcome {
            exit: self.exit,
            cpu: Duration::from_nanos(self.cpu_ns),
            cpu_source: self.cpu_source,
            wall: Duration::from_nanos(self.wall_ns),
            peak_rss_kib: self.peak_rss_kib,
            memory_source: self.memory_source,
            stdout,
            stderr_tail,
            limit_hit: self.limit_hit,
            memory_evidence: self.memory_evidence,
            process_cap_hit: self.process_cap_hit,
            stopped: self.stopped,
        })
    }
}

/// A judgement kept in the cache (a checker's, or an interactive case's).
#[derive(Serialize, Deserialize)]
pub struct StoredJudgement {
    verdict: Verdict,
    message: String,
    diff: Option<String>,
    partial: Option<Partial>,
    transcript: Option<Vec<crate::exec::interactive::Line>>,
}

impl StoredJudgement {
    /// `None` for what is not kept: pictures (a puzzle's, never an
    /// external program's).
    pub fn of(judgement: &Judgement) -> Option<StoredJudgement> {
        judgement.figures.is_empty().then(|| StoredJudgement {
            verdict: judgement.verdict,
            message: judgement.message.clone(),
            diff: judgement.diff.clone(),
            partial: judgement.partial,
            transcript: judgement.transcript.clone(),
        })
    }

    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    pub fn judgement(self) -> Judgement {
        let mut judgement = Judgement::new(self.verdict, self.message);
        judgement.diff = self.diff;
        judgement.partial = self.partial;
        judgement.transcript = self.transcript;
        judgement
    }
}

/// A checker's verdict kept in the cache.
#[derive(Serialize, Deserialize)]
pub struct StoredCheck {
    pub format: u32,
    pub judgement: StoredJudgement,
}

/// An interactive or multi-pass case kept whole: its judgement, the
/// submission's run of the deciding pass, and the passes run.
#[derive(Serialize, Deserialize)]
pub struct StoredInteraction {
    pub format: u32,
    pub judge: String,
    pub judgement: StoredJudgement,
    pub outcome: Option<StoredRun>,
    pub passes: u32,
}
