//! The run cache as commands use it: `open` for `run` and `verify`
//! (`--no-cache`, `--recheck`, `--cache-size`), `finish` after a run
//! (eviction), and `judge cache` (show, clear).

use super::Failure;
use super::stdout::{note, outln};
use crate::cli::{CacheAction, CacheArgs, CacheCommandArgs};
use crate::judge::cache::{self as run_cache, DEFAULT_SIZE, Kind, RUNS, RunCache, store};
use crate::units::Size;
use crate::verdict::ExitCode;
use std::path::PathBuf;
use std::sync::Arc;

/// The environment variable of the cache's size.
const SIZE_VAR: &str = "JUDGE_CACHE_SIZE";
/// The environment variable that turns the run cache off (`--no-cache`
/// for every run: a CI job that must run everything).
const NO_CACHE_VAR: &str = "JUDGE_NO_CACHE";
/// The environment variable of the `--recheck` sample's seed.
const SEED_VAR: &str = "JUDGE_RECHECK_SEED";
/// What the cache directory holds besides runs: submissions' builds and
/// checkers' and validators' builds.
const BUILDS: [&str; 2] = ["compile", "tools"];

/// The size to keep the run cache under: the flag, else
/// `$JUDGE_CACHE_SIZE`, else [`DEFAULT_SIZE`].
fn size(flag: Option<Size>) -> Result<u64, Failure> {
    if let Some(size) = flag {
        return Ok(size.0);
    }
    match std::env::var(SIZE_VAR) {
        Ok(text) if !text.trim().is_empty() => {
            text.trim().parse::<Size>().map(|s| s.0).map_err(|e| {
                Failure::Usage(format!(
                    "{SIZE_VAR}={text:?}: {e} (expected a size such as 512MiB or 2GiB)"
                ))
            })
        }
        _ => Ok(DEFAULT_SIZE),
    }
}

/// The cache directory, checked (the judge's user's own, closed to
/// others; a private one for this run otherwise).
fn directory() -> PathBuf {
    crate::exec::cache_dir::checked(&crate::exec::cache_dir())
}

/// The run cache a run uses, or none with `--no-cache`.
pub fn open(args: &CacheArgs) -> Result<Option<Arc<RunCache>>, Failure> {
    let limit = size(args.cache_size)?;
    let off_by_env = std::env::var_os(NO_CACHE_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    if args.no_cache || off_by_env {
        return Ok(None);
    }
    Ok(Some(Arc::new(RunCache::open(
        &directory(),
        limit,
        args.recheck.unwrap_or(0),
        seed(args.recheck_seed)?,
    ))))
}

/// The `--recheck` sample's seed: the flag, else `$JUDGE_RECHECK_SEED`,
/// else a new one.
fn seed(flag: Option<u64>) -> Result<u64, Failure> {
    if let Some(seed) = flag {
        return Ok(seed);
    }
    match std::env::var(SEED_VAR) {
        Ok(text) if !text.trim().is_empty() => text.trim().parse::<u64>().map_err(|e| {
            Failure::Usage(format!(
                "{SEED_VAR}={text:?}: {e} (expected a whole number from 0 to {})",
                u64::MAX
            ))
        }),
        _ => Ok(run_cache::random_seed()),
    }
}

/// After a run: keep the cache under its size.
pub fn finish(cache: Option<&RunCache>) {
    if let Some(cache) = cache {
        cache.finish();
    }
}

/// `judge cache`.
pub fn cache(args: CacheCommandArgs) -> Result<ExitCode, Failure> {
    let dir = directory();
    if args.clear || args.action == CacheAction::Clear {
        return clear(&dir);
    }
    let runs = dir.join(RUNS);
    let kept = run_cache::counts(&dir);
    let count = |kind| kept.get(&kind).copied().unwrap_or(0);
    let all = store::usage(&runs);
    let objects = store::usage(&runs.join("objects"));
    let packs = run_cache::packs::list(&runs.join(run_cache::PACKS)).len();
    let builds =
        BUILDS
            .iter()
            .map(|b| store::usage(&dir.join(b)))
            .fold(store::Usage::default(), |a, u| store::Usage {
                files: a.files + u.files,
                bytes: a.bytes + u.bytes,
            });
    let limit = size(None)?;
    outln!("cache: {}", dir.display());
    outln!(
        "runs: {} kept, {} checks kept, {} interactive cases kept, {} outputs, in {packs} packs: {} of at most {} (least recently used out first)",
        count(Kind::Run),
        count(Kind::Check),
        count(Kind::Interaction),
        objects.files,
        Size(all.bytes),
        Size(limit)
    );
    outln!(
        "builds: {} files, {} (never evicted; `judge cache clear` removes them)",
        builds.files,
        Size(builds.bytes)
    );
    Ok(ExitCode::Ok)
}

/// Remove the runs and the builds: only the judge's own subdirectories,
/// never the directory itself (`JUDGE_CACHE_DIR` may name one that holds
/// other things).
fn clear(dir: &std::path::Path) -> Result<ExitCode, Failure> {
    let mut removed = store::Usage::default();
    for sub in std::iter::once(RUNS).chain(BUILDS) {
        let path = dir.join(sub);
        if !path.exists() {
            continue;
        }
        let usage = store::usage(&path);
        std::fs::remove_dir_all(&path)
            .map_err(|e| Failure::Internal(format!("cannot remove {}: {e}", path.display())))?;
        removed.files += usage.files;
        removed.bytes += usage.bytes;
    }
    note!(
        "judge: cleared {}: {} files, {}",
        dir.display(),
        removed.files,
        Size(removed.bytes)
    );
    Ok(ExitCode::Ok)
}
