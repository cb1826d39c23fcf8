//! The run cache: runs and checks kept by content, so that a second
//! `judge run` or `judge verify` costs what changed.
//!
//! A run's key is derived from what the runner receives ([`key`]): what
//! it executes ([`crate::exec::Runner::identity`]: the program's bytes,
//! its files, arguments, how it is contained) and the whole run request
//! (input, the case's files and arguments, input and output file names,
//! every limit), the judge's version and this cache's format, but the
//! fields a run may be reused across: those are kept in the entry with
//! what was measured, and [`reuse::reusable`] decides by the one table of
//! rules, [`reuse::RULES`]. Long
//! outputs are objects named by their digest, so a changed answer file
//! is checked again on the kept output. An external checker's verdict is
//! kept apart, keyed by the checker's identity, its flags and the digests
//! of input, answer and output. An interactive or multi-pass case is kept
//! whole, keyed by both programs and every limit.
//!
//! The cache lives in `runs/` of the build cache's directory (checked by
//! `exec::cache_dir`: the judge's user's alone, hidden from the sandbox).
//! Entries are records in append-only packs ([`pack`], [`packs`]), one
//! pack a judge process, each record sealed by its SHA-256 and checked
//! when read; no lock is held, so judges on one machine share it. Its size
//! is bounded: [`RunCache::finish`] merges small packs and removes the
//! least recently used ones.

pub mod key;
pub mod pack;
pub mod packs;
mod recheck;
pub mod reuse;
pub mod store;
mod stored;

use crate::check::Judgement;
use crate::exec::identity::{self, Fields};
use crate::exec::{RunOutcome, RunRequest};
use crate::verdict::Verdict;
pub use pack::{Key, Kind};
pub use recheck::{Recheck, disagreement, random_seed};
pub use reuse::RanUnder;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use stored::{StoredCheck, StoredInteraction, StoredJudgement, StoredRun};

/// The format of entries: a new one makes every old entry a miss.
/// 4: the key derived from the whole request (issue 40): the stack
/// limit and the input and output file names in it.
pub const FORMAT: u32 = 4;
/// The size the cache is kept under when nothing says otherwise.
pub const DEFAULT_SIZE: u64 = 1 << 30;
/// The subdirectory of the cache directory that holds runs and checks.
pub const RUNS: &str = "runs";
/// Its subdirectory of packs.
pub const PACKS: &str = "packs";

/// The run cache of one judge process.
pub struct RunCache {
    root: PathBuf,
    limit: u64,
    packs: packs::Packs,
    pub recheck: Recheck,
    /// External checks run, and taken from the cache.
    checks: [AtomicUsize; 2],
}

/// An interactive case's kept result.
pub struct KeptInteraction {
    pub judgement: Judgement,
    pub outcome: Option<RunOutcome>,
    pub passes: u32,
}

fn base_key(kind: &str) -> Fields {
    let mut key = Fields::new();
    key.field("judge", crate::exec::identity::JUDGE_BUILD.as_bytes())
        .field("format", &FORMAT.to_le_bytes())
        .field("kind", kind.as_bytes());
    key
}

impl RunCache {
    /// The cache in `dir` (the checked cache directory), kept under
    /// `limit` bytes, re-running a sample of `recheck` cached runs
    /// chosen by `seed`.
    pub fn open(dir: &Path, limit: u64, recheck: usize, seed: u64) -> RunCache {
        let root = dir.join(RUNS);
        RunCache {
            packs: packs::Packs::new(root.join(PACKS)),
            root,
            limit,
            recheck: Recheck::new(recheck, seed),
            checks: [AtomicUsize::new(0), AtomicUsize::new(0)],
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn objects(&self) -> PathBuf {
        self.root.join("objects")
    }

    /// The key of running `identity` (a runner's) on `request`, and the
    /// limits it is kept with; `None` when a file it names cannot be read.
    pub fn run_key(identity: &str, request: &RunRequest<'_>) -> Option<(Key, RanUnder)> {
        let mut key = base_key("run");
        key.field("program", identity.as_bytes());
        let under = key::split(&mut key, request, key::Reuse::AcrossLimits)?;
        Some((key.bytes(), under))
    }

    /// The key of an interactive or multi-pass case: the submission's
    /// identity, the interaction's (its validator or interactor, flags,
    /// passes, checker), the whole request with every limit, the answer.
    pub fn interaction_key(
        program: &str,
        interaction: &str,
        request: &RunRequest<'_>,
        answer: Option<&Path>,
    ) -> Option<(Key, RanUnder)> {
        let mut key = base_key("interaction");
        key.field("program", program.as_bytes())
            .field("interaction", interaction.as_bytes());
        let under = key::split(&mut key, request, key::Reuse::SameLimits)?;
        match answer {
            Some(answer) => key.field("answer", identity::file(answer)?.as_bytes()),
            None => key.field("no-answer", &[]),
        };
        Some((key.bytes(), under))
    }

    /// The key of a check by `checker` (its identity) of `output`.
    pub fn check_key(
        checker: &str,
        input: &Path,
        answer: Option<&Path>,
        output: crate::text::stream::Text<'_>,
    ) -> Option<Key> {
        let mut key = base_key("check");
        key.field("checker", checker.as_bytes())
            .field("input", identity::file(input)?.as_bytes());
        if let Some(answer) = answer {
            key.field("answer", identity::file(answer)?.as_bytes());
        }
        key.field("output", identity::text_digest(output).as_bytes());
        Some(key.bytes())
    }

    /// Whether a record of `kind` is kept under `key` (not read or
    /// checked: the `--recheck` sample's candidates).
    pub fn holds(&self, kind: Kind, key: &Key) -> bool {
        self.packs.holds(kind, key)
    }

    /// A kept body of `kind`, parsed; a body that does not parse is
    /// damaged.
    fn get<T: serde::de::DeserializeOwned>(&self, kind: Kind, key: &Key) -> Option<T> {
        let body = self.packs.get(kind, key)?;
        match serde_json::from_slice(&body) {
            Ok(value) => Some(value),
            Err(_) => {
                eprintln!("judge: a run cache record does not parse: ignored; done again");
                None
            }
        }
    }

    fn put<T: serde::Serialize>(&self, kind: Kind, key: &Key, value: &T) {
        if let Ok(body) = serde_json::to_vec(value) {
            self.packs.put(kind, key, &body);
        }
    }

    /// The run kept under `key`, if there is one that stands under
    /// the limits `under` and is whole.
    pub fn lookup_run(&self, key: &Key, under: &RanUnder) -> Option<RunOutcome> {
        let run: StoredRun = self.get(Kind::Run, key)?;
        if !run.current() || !reuse::reusable(&run.ran_under, &run.measured(), under) {
            return None;
        }
        run.outcome(&self.objects())
    }

    /// Keep `outcome`, measured under `under`, under `key`. A cache that
    /// cannot be written is no error: the run stands, it is not kept.
    pub fn store_run(&self, key: &Key, under: &RanUnder, outcome: &RunOutcome) {
        if let Some(run) = StoredRun::of(&self.objects(), under, outcome) {
            self.put(Kind::Run, key, &run);
        }
    }

    /// The checker's verdict kept under `key`.
    pub fn lookup_check(&self, key: &Key) -> Option<Judgement> {
        let check: StoredCheck = self.get(Kind::Check, key)?;
        (check.format == FORMAT).then(|| check.judgement.judgement())
    }

    /// Keep a checker's verdict: only a verdict on the output (AC, WA,
    /// PE), never a failure of the judge or the checker (IE), which may
    /// pass.
    pub fn store_check(&self, key: &Key, judgement: &Judgement) {
        if !matches!(
            judgement.verdict,
            Verdict::Accepted | Verdict::WrongAnswer | Verdict::PresentationError
        ) || judgement.transcript.is_some()
        {
            return;
        }
        if let Some(judgement) = StoredJudgement::of(judgement) {
            let check = StoredCheck {
                format: FORMAT,
                judgement,
            };
            self.put(Kind::Check, key, &check);
        }
    }

    /// The interactive case kept under `key`, whole.
    pub fn lookup_interaction(&self, key: &Key) -> Option<KeptInteraction> {
        let kept: StoredInteraction = self.get(Kind::Interaction, key)?;
        if kept.format != FORMAT || kept.judge != crate::exec::identity::JUDGE_BUILD {
            return None;
        }
        let outcome = match kept.outcome {
            Some(run) => Some(run.outcome(&self.objects())?),
            None => None,
        };
        Some(KeptInteraction {
            judgement: kept.judgement.judgement(),
            outcome,
            passes: kept.passes,
        })
    }

    /// Keep an interactive case whole, measured under `under`: not a
    /// failure of the judge or the validator (IE), nor an interrupted one.
    pub fn store_interaction(
        &self,
        key: &Key,
        under: &RanUnder,
        judgement: &Judgement,
        outcome: Option<&RunOutcome>,
        passes: u32,
    ) {
        if matches!(judgement.verdict, Verdict::InternalError | Verdict::Skipped) {
            return;
        }
        let Some(judgement) = StoredJudgement::of(judgement) else {
            return;
        };
        let outcome = match outcome {
            Some(o) => match StoredRun::of(&self.objects(), under, o) {
                Some(run) => Some(run),
                None => return,
            },
            None => None,
        };
        let kept = StoredInteraction {
            format: FORMAT,
            judge: crate::exec::identity::JUDGE_BUILD.into(),
            judgement,
            outcome,
            passes,
        };
        debug_assert!(kept.judgement.verdict() != Verdict::InternalError);
        self.put(Kind::Interaction, key, &kept);
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

    /// Write this judge's pack and index, merge packs when there are
    /// many, and keep the cache under its size: the least recently used
    /// first out.
    pub fn finish(&self) -> store::Usage {
        self.packs.finish();
        store::evict(&self.root, self.limit)
    }
}

/// What the cache in `dir` (the checked cache directory) holds: records
/// of each kind, for `judge cache`.
pub fn counts(dir: &Path) -> std::collections::HashMap<Kind, usize> {
    packs::Packs::new(dir.join(RUNS).join(PACKS)).counts()
}
