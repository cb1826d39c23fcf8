//! The packs of a run cache as one store: every pack's index read on the
//! first look-up (the record of the pack made last wins), this judge's
//! new records appended to a pack of its own, and when it finishes: its
//! index written, the packs compacted when there are many, the least
//! recently used ones out when the cache is over its size.
//!
//! No lock: a pack is written by one judge only, an index and a merged
//! pack appear by rename, and a pack being merged is first claimed by
//! renaming it (one judge wins). A pack that vanishes under a reader (it
//! was merged or evicted) is a miss: the run is done again.

use super::pack::{self, Key, Kind, Row, Writer};
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime};

/// More packs than this, and a finishing judge merges the small ones.
pub const MAX_PACKS: usize = 8;
/// A pack this large is not merged again.
pub const MERGE_MAX: u64 = 64 << 20;
/// A pack without an index this old was left by a judge that died: it
/// may be merged (one younger may still be written).
const ORPHAN_AGE: Duration = Duration::from_secs(24 * 3600);
/// A claim this old was left by a judge that died while merging: the
/// pack is given back.
const CLAIM_AGE: Duration = Duration::from_secs(3600);
const CLAIMED: &str = ".merging";

/// One pack as readers see it.
struct Pack {
    path: PathBuf,
    file: OnceLock<Option<File>>,
    /// Its last use has been marked (once a process).
    touched: AtomicBool,
}

impl Pack {
    fn new(path: PathBuf) -> Arc<Pack> {
        Arc::new(Pack {
            path,
            file: OnceLock::new(),
            touched: AtomicBool::new(false),
        })
    }

    fn file(&self) -> Option<&File> {
        self.file
            .get_or_init(|| File::open(&self.path).ok())
            .as_ref()
    }
}

#[derive(Default)]
struct Index {
    packs: Vec<Arc<Pack>>,
    rows: HashMap<Key, (usize, Row)>,
}

/// The packs of `runs/packs`.
pub struct Packs {
    dir: PathBuf,
    index: OnceLock<Mutex<Index>>,
    writer: Mutex<Option<Writer>>,
    /// This judge's own pack, in `index.packs`.
    own: OnceLock<usize>,
    /// A damaged record was found: merge at the end, which drops it.
    damaged: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The packs in `dir`, oldest use first, with their last use and size.
pub fn list(dir: &Path) -> Vec<(SystemTime, u64, PathBuf)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "pack"))
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    all.sort();
    all
}

impl Packs {
    pub fn new(dir: PathBuf) -> Packs {
        Packs {
            dir,
            index: OnceLock::new(),
            writer: Mutex::new(None),
            own: OnceLock::new(),
            damaged: AtomicBool::new(false),
        }
    }

    /// Every pack's rows, read once.
    fn index(&self) -> &Mutex<Index> {
        self.index.get_or_init(|| {
            let mut index = Index::default();
            // By name, which begins with when the pack was made: a record
            // made again (its first copy was damaged) wins, however
            // recently the older pack was read.
            let mut packs: Vec<PathBuf> = list(&self.dir).into_iter().map(|(_, _, p)| p).collect();
            packs.sort();
            for path in packs {
                let Some(rows) = pack::rows(&path) else {
                    continue;
                };
                let at = index.packs.len();
                index.packs.push(Pack::new(path));
                for row in rows {
                    index.rows.insert(row.key, (at, row));
                }
            }
            Mutex::new(index)
        })
    }

    /// Whether a record of `kind` is kept under `key` (not read).
    pub fn holds(&self, kind: Kind, key: &Key) -> bool {
        lock(self.index())
            .rows
            .get(key)
            .is_some_and(|(_, row)| row.kind == kind)
    }

    /// How many records of each kind are kept.
    pub fn counts(&self) -> HashMap<Kind, usize> {
        let mut counts = HashMap::new();
        for (_, row) in lock(self.index()).rows.values() {
            *counts.entry(row.kind).or_default() += 1;
        }
        counts
    }

    /// The body kept under `key`, if its record is whole. A damaged one
    /// is said, forgotten, and left for the next merge to drop.
    pub fn get(&self, kind: Kind, key: &Key) -> Option<Vec<u8>> {
        let (pack, row) = {
            let index = lock(self.index());
            let (at, row) = *index.rows.get(key)?;
            (Arc::clone(&index.packs[at]), row)
        };
        if row.kind != kind {
            return None;
        }
        if self.own.get().is_some_and(|own| {
            lock(self.index())
                .packs
                .get(*own)
                .is_some_and(|p| Arc::ptr_eq(p, &pack))
        }) && let Some(writer) = lock(&self.writer).as_mut()
        {
            writer.flush_to(&row).ok()?;
        }
        let body = pack.file().and_then(|f| pack::read(f, &row));
        match &body {
            Some(_) if !pack.touched.swap(true, Ordering::SeqCst) => {
                super::store::touch(&pack.path);
            }
            Some(_) => {}
            None if pack.path.exists() => self.damaged(&pack.path, &row),
            None => {}
        }
        body
    }

    /// Say a record was damaged; forget it.
    pub fn damaged(&self, path: &Path, row: &Row) {
        eprintln!(
            "judge: the run cache's {} is damaged at byte {} (the record does not match its digest): ignored; what it held is done again",
            path.display(),
            row.offset
        );
        self.damaged.store(true, Ordering::SeqCst);
        lock(self.index()).rows.remove(&row.key);
    }

    /// Keep `body` under `key`, in this judge's pack. A cache that cannot
    /// be written is no error: nothing is kept.
    pub fn put(&self, kind: Kind, key: &Key, body: &[u8]) {
        if body.len() > pack::MAX_BODY {
            return;
        }
        let index = self.index();
        let mut writer = lock(&self.writer);
        if writer.is_none() {
            let Ok(new) = Writer::new(&self.dir) else {
                return;
            };
            let mut index = lock(index);
            let _ = self.own.set(index.packs.len());
            index.packs.push(Pack::new(new.path.clone()));
            *writer = Some(new);
        }
        let Some(w) = writer.as_mut() else {
            return;
        };
        if let (Ok(row), Some(own)) = (w.append(kind, key, body), self.own.get()) {
            lock(index).rows.insert(*key, (*own, row));
        }
    }

    /// Write this judge's pack through and its index; merge the packs
    /// when there are more than [`MAX_PACKS`] or a damaged one was found.
    pub fn finish(&self) {
        if let Some(mut writer) = lock(&self.writer).take() {
            let _ = writer.finish();
        }
        let packs = list(&self.dir);
        if packs.len() > MAX_PACKS || self.damaged.swap(false, Ordering::SeqCst) {
            compact(&self.dir);
        }
    }
}

impl Drop for Packs {
    /// A judge that ends without `finish` (an early error) still leaves
    /// its pack whole and indexed.
    fn drop(&mut self) {
        if let Some(mut writer) = lock(&self.writer).take() {
            let _ = writer.finish();
        }
    }
}

/// Merge the small packs of `dir` into one: each claimed by renaming it
/// (a judge merging at the same time takes others, or none), its whole
/// records copied (the newest of each key; damaged ones dropped) into a
/// new pack, whose index is written before the claimed packs go. The new
/// pack's last use is the newest of theirs.
pub fn compact(dir: &Path) {
    let now = SystemTime::now();
    give_back_stale_claims(dir, now);
    let mut claimed = Vec::new();
    for (used, len, path) in list(dir) {
        let indexed = pack::index_path(&path).is_file();
        let orphan = now.duration_since(used).is_ok_and(|age| age > ORPHAN_AGE);
        if len >= MERGE_MAX || !(indexed || orphan) {
            continue;
        }
        let claim = path.with_extension(format!("pack{CLAIMED}"));
        if std::fs::rename(&path, &claim).is_ok() {
            claimed.push((used, path, claim));
        }
    }
    if claimed.len() < 2 && !claimed.iter().any(|(_, p, _)| damaged_pack(p)) {
        for (_, path, claim) in claimed {
            let _ = std::fs::rename(claim, path);
        }
        return;
    }
    // Oldest made first: the newest record of a key wins.
    claimed.sort_by(|a, b| a.1.cmp(&b.1));
    let mut order: Vec<Key> = Vec::new();
    let mut records: HashMap<Key, (Kind, Vec<u8>)> = HashMap::new();
    for (_, _, claim) in &claimed {
        let Ok(bytes) = std::fs::read(claim) else {
            continue;
        };
        for row in pack::scan(&bytes).0 {
            let whole = &bytes[row.offset as usize..(row.offset + u64::from(row.len)) as usize];
            if let Some(body) = pack::open_record(whole, row.kind, &row.key)
                && records.insert(row.key, (row.kind, body.to_vec())).is_none()
            {
                order.push(row.key);
            }
        }
    }
    let Ok(mut merged) = Writer::new(dir) else {
        for (_, path, claim) in claimed {
            let _ = std::fs::rename(claim, path);
        }
        return;
    };
    for key in &order {
        if let Some((kind, body)) = records.get(key) {
            let _ = merged.append(*kind, key, body);
        }
    }
    if merged.finish().is_err() {
        let _ = std::fs::remove_file(&merged.path);
        for (_, path, claim) in claimed {
            let _ = std::fs::rename(claim, path);
        }
        return;
    }
    if let Some(newest) = claimed.iter().map(|(used, _, _)| *used).max()
        && let Ok(file) = File::options().append(true).open(&merged.path)
    {
        let _ = file.set_modified(newest);
    }
    for (_, path, claim) in &claimed {
        let _ = std::fs::remove_file(pack::index_path(path));
        let _ = std::fs::remove_file(claim);
    }
}

/// Whether a pack (by its name before it was claimed) had a damaged
/// record: merging even one pack drops it.
fn damaged_pack(path: &Path) -> bool {
    let claim = path.with_extension(format!("pack{CLAIMED}"));
    std::fs::read(claim).is_ok_and(|bytes| pack::scan(&bytes).1)
}

/// Claims a judge that died while merging left: the packs back.
fn give_back_stale_claims(dir: &Path, now: SystemTime) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(&format!(".pack{CLAIMED}")) else {
            continue;
        };
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > CLAIM_AGE));
        if stale {
            let _ = std::fs::rename(&path, dir.join(format!("{stem}.pack")));
        }
    }
}
