//! `--recheck N`: a random sample of the cached runs is run again and
//! compared with what was kept.
//!
//! Before a plan runs, the judge lists the jobs whose runs the cache
//! holds and gives them to [`Recheck::choose`]: each is ranked by the
//! SHA-256 of the seed and its key, and the `N` lowest are the sample (a
//! uniform one for a random seed; the same one for the same seed, which
//! `--recheck-seed` or `JUDGE_RECHECK_SEED` fix). Plans after the first
//! draw from what is left of `N`.

use super::Key;
use crate::exec::RunOutcome;
use crate::exec::identity;
use sha2::{Digest as _, Sha256};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The sample and what it found.
pub struct Recheck {
    seed: u64,
    left: AtomicUsize,
    chosen: Mutex<HashSet<Key>>,
    rechecked: AtomicUsize,
    disagreements: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Recheck {
    pub fn new(n: usize, seed: u64) -> Recheck {
        Recheck {
            seed,
            left: AtomicUsize::new(n),
            chosen: Mutex::new(HashSet::new()),
            rechecked: AtomicUsize::new(0),
            disagreements: Mutex::new(Vec::new()),
        }
    }

    /// Whether a sample is still to be drawn.
    pub fn wanted(&self) -> bool {
        self.left.load(Ordering::SeqCst) > 0
    }

    fn rank(&self, key: &Key) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(self.seed.to_le_bytes());
        h.update(key);
        h.finalize().into()
    }

    /// Draw the sample from `cached` (the keys of the runs the cache
    /// holds for a plan's jobs).
    pub fn choose(&self, cached: Vec<Key>) {
        let mut ranked: Vec<([u8; 32], Key)> = cached
            .into_iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .map(|k| (self.rank(&k), k))
            .collect();
        ranked.sort_unstable();
        let n = self.left.load(Ordering::SeqCst).min(ranked.len());
        self.left.fetch_sub(n, Ordering::SeqCst);
        lock(&self.chosen).extend(ranked.into_iter().take(n).map(|(_, k)| k));
    }

    /// Whether the cached run under `key` is in the sample (once).
    pub fn take(&self, key: &Key) -> bool {
        let taken = lock(&self.chosen).remove(key);
        if taken {
            self.rechecked.fetch_add(1, Ordering::SeqCst);
        }
        taken
    }

    /// Note a re-run that disagreed with its cached result.
    pub fn disagreed(&self, what: String) {
        lock(&self.disagreements).push(what);
    }

    /// How many runs were re-checked, and the disagreements found.
    pub fn found(&self) -> (usize, Vec<String>) {
        let mut found = lock(&self.disagreements).clone();
        found.sort();
        (self.rechecked.load(Ordering::SeqCst), found)
    }
}

/// A seed from the clock and the process: a different sample each run.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    h.finish()
}

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
            &identity::text_digest(kept.stdout.text())[..12],
            again.stdout.len(),
            &identity::text_digest(again.stdout.text())[..12]
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_follows_the_seed_not_the_order() {
        let keys: Vec<Key> = (0..20u8).map(|i| [i; 32]).collect();
        let pick = |seed: u64| {
            let r = Recheck::new(1, seed);
            r.choose(keys.clone());
            let chosen: Vec<Key> = lock(&r.chosen).iter().copied().collect();
            assert_eq!(chosen.len(), 1);
            assert!(!r.wanted());
            chosen[0]
        };
        assert_eq!(pick(7), pick(7));
        let picked: HashSet<Key> = (0..10).map(pick).collect();
        assert!(picked.len() > 1, "ten seeds, one pick: {picked:?}");
        assert!(picked.iter().any(|k| k != &keys[0]));
    }
}
