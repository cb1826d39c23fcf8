//! The run cache's arguments: `--no-cache`, `--recheck N` and
//! `--cache-size` of `run` and `verify`, and the `judge cache` command.

use crate::config::Size;
use clap::{Args, ValueEnum};

/// How `run` and `verify` use the run cache (docs/cache.md).
#[derive(Debug, Args, Clone, Default)]
pub struct CacheArgs {
    /// Run everything: take nothing from the run cache, keep nothing in it
    /// (builds are still cached).
    #[arg(long, conflicts_with = "recheck")]
    pub no_cache: bool,

    /// Run again a random sample of N of the runs found in the cache and
    /// name any whose outcome or output disagrees with what was kept (a
    /// random program, a machine that got slower).
    #[arg(long, value_name = "N")]
    pub recheck: Option<usize>,

    /// The seed of the `--recheck` sample: the same seed, the same sample
    /// (default: $JUDGE_RECHECK_SEED, else a new one each run).
    #[arg(long, value_name = "SEED", requires = "recheck")]
    pub recheck_seed: Option<u64>,

    /// Keep the run cache under SIZE, least recently used out first
    /// (default: $JUDGE_CACHE_SIZE, else 1GiB).
    #[arg(long, value_name = "SIZE")]
    pub cache_size: Option<Size>,
}

/// `judge cache`: what it holds, or empty it.
#[derive(Debug, Args)]
pub struct CacheCommandArgs {
    /// show (the default) or clear.
    #[arg(value_enum, default_value_t = CacheAction::Show)]
    pub action: CacheAction,

    /// The same as `judge cache clear`.
    #[arg(long)]
    pub clear: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CacheAction {
    /// The cache's location, size and entries.
    Show,
    /// Remove every kept run, check and build.
    Clear,
}
