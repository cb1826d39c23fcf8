//! Argument parsing only (clap derive). Each subcommand's arguments are a
//! plain struct that `commands` turns into work; nothing here touches the
//! file system.

use crate::config::{Size, Span};
use crate::exec::sandbox::SandboxMode;
use crate::report::Format;
use clap::{Args, Parser, Subcommand};
use std::ops::RangeInclusive;
use std::path::PathBuf;

mod cache;
mod tools;
pub use cache::{CacheAction, CacheArgs, CacheCommandArgs};
pub use tools::{CompletionsArgs, ExportArgs, ExportFormat, KattisVersion, ManArgs, NewArgs};

#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version = crate::exec::identity::JUDGE_BUILD,
    about = "An online-judge test harness: run programs on cases under limits, in parallel, with verdicts that explain themselves.",
    after_help = "Exit codes: 0 all accepted, 1 some other verdict (or invalid data), 2 usage or configuration error, 3 internal error, 130 interrupted."
)]
pub struct Cli {
    /// The configuration file (default: ./judge.toml, if it exists).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Say less: errors, warnings and the final line only (`run`: one line
    /// at the end; `verify`: the outcome and the counts).
    #[arg(long, short = 'q', global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Say more: every case, not only failures (`run`, `verify`); other
    /// commands say what they say by default.
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Command,
}

// The help texts below are clap's, written for a terminal: `<expected verdict>` is
// a placeholder there, not an HTML tag.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge cases: the reference solvers by default, or a submission.
    #[command(after_help = "Examples:
  judge run                                  every problem of ./judge.toml, by its reference
  judge run cases/sum --submission sol.cpp   a source: built (cached), then judged
  judge run --submission ./a.out --report out.html -j 4")]
    Run(RunArgs),
    /// Run a built-in reference solver on an input (a program like any other).
    #[command(after_help = "Examples:
  judge solve rotation cases/rotation/sample.in
  judge solve flip < board.txt")]
    Solve(SolveArgs),
    /// Check one output, testlib style: exit 0 AC, 1 WA, 2 PE, 3 judge failure.
    #[command(after_help = "Examples:
  judge check rotation input.txt output.txt
  judge check swap input.txt output.txt answer.txt")]
    Check(CheckArgs),
    /// Generate cases of a chosen difficulty, with their answers.
    #[command(after_help = "Examples:
  judge gen rotation --count 100 --seed 7 --length 10..13 --out cases/rotation/new
  judge gen examples/gensum                  a package's generators (BAPCtools)")]
    Gen(GenArgs),
    /// Validate case files: inputs well-formed, answers correct.
    #[command(after_help = "Examples:
  judge validate cases/rotation              inputs well-formed, answers proven right
  judge validate examples/gensum             a package's input validators and checker")]
    Validate(ValidateArgs),
    /// Whole-space facts about a puzzle: the distribution of optimal lengths.
    #[command(after_help = "Examples:
  judge stats flip
  judge stats rotation")]
    Stats(StatsArgs),
    /// List problems, case counts and limits.
    #[command(after_help = "Examples:
  judge list
  judge --config examples/judge.toml list")]
    List,
    /// Merge the JSON reports of shards (--partition) into one report.
    #[command(after_help = "Examples:
  judge merge shard1.json shard2.json --report all.json
  judge merge shard*.json --format junit --partial")]
    Merge(MergeArgs),
    /// Judge every submission in submissions/<expected verdict>/ and check
    /// each got the verdict its folder (or its declaration) expects. Works
    /// on judge.toml's problems, or on a Kattis package (its submissions/).
    #[command(after_help = "Examples:
  judge verify examples/guess                a package's submissions/, each against its folder
  judge --config examples/judge.toml verify sum
  judge verify examples/gensum -q")]
    Verify(VerifyArgs),
    /// Derive a time limit from the accepted submissions; check the
    /// time_limit_exceeded ones against it.
    #[command(after_help = "Examples:
  judge --config examples/judge.toml limits sum
  judge limits examples/guess                a package: its accepted submissions' times")]
    Limits(LimitsArgs),
    /// Random cases until a submission disagrees with the reference, then
    /// the smallest failing case, written with its answer.
    #[command(after_help = "Examples:
  judge stress rotation --submission sol.cpp --length 10..13
  judge stress sum --generator \"python3 gen.py\" --submission wrong.c")]
    Stress(StressArgs),
    /// Start a new problem: a Kattis 2025-09 package (problem.yaml, a
    /// sample, a generator, an input validator, an accepted and a wrong
    /// submission) that `judge verify` passes as it is.
    #[command(after_help = "Examples:
  judge new hello                            then: judge verify hello
  judge new guess --interactive --name \"Guess the sum\"
  judge new close --checker                  a custom output validator")]
    New(NewArgs),
    /// Write a package in the format a contest system imports: Kattis
    /// (2025-09, 2023-07, legacy) or DOMjudge (a .zip, or a directory).
    #[command(after_help = "Examples:
  judge export examples/guess --to kattis out/guess            2025-09
  judge export examples/guess --to kattis --version legacy out/guess
  judge export examples/twice --to domjudge twice.zip
  judge --config examples/judge.toml export pairs --to kattis out/pairs")]
    Export(ExportArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:
  judge completions bash > ~/.local/share/bash-completion/completions/judge
  judge completions zsh > ~/.zfunc/_judge")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command.
    #[command(after_help = "Examples:
  judge man > judge.1 && man ./judge.1
  judge man --out-dir man/                   one page per command")]
    Man(ManArgs),
    /// Show the run and build cache (location, size, entries), or clear it.
    #[command(after_help = "Examples:
  judge cache                                where it is, what it holds
  judge cache clear                          remove every kept run and build")]
    Cache(CacheCommandArgs),
}

/// Which cases, and the limits and comparison to judge them by.
#[derive(Debug, Args, Clone, Default)]
pub struct Selection {
    /// Case directories or files (default: every problem in judge.toml).
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,

    /// The problem (a judge.toml name or a built-in puzzle) for PATHS, or the
    /// one problem to judge.
    #[arg(long, short = 'p', value_name = "NAME")]
    pub problem: Option<String>,

    /// Only cases whose name matches (`len1*`, `rotation/*`).
    #[arg(long, value_name = "GLOB")]
    pub filter: Option<String>,
}

#[derive(Debug, Args, Clone, Default)]
pub struct LimitArgs {
    /// CPU time limit, e.g. 2s or 500ms.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<Span>,
    /// Wall-clock limit (default: 2 × CPU limit + 1s).
    #[arg(long, value_name = "DURATION")]
    pub wall_limit: Option<Span>,
    /// Memory limit, e.g. 256MiB (at least 1MiB).
    #[arg(long, value_name = "SIZE", value_parser = crate::config::parse_memory)]
    pub memory_limit: Option<Size>,
    /// Stack limit (default: the memory limit).
    #[arg(long, value_name = "SIZE")]
    pub stack_limit: Option<Size>,
    /// Output limit, e.g. 64MiB.
    #[arg(long, value_name = "SIZE")]
    pub output_limit: Option<Size>,
    /// Processes and threads a run may have at once (default 64).
    #[arg(long, value_name = "N", value_parser = crate::config::parse_processes)]
    pub processes: Option<u32>,
}

#[derive(Debug, Args, Clone, Default)]
pub struct CompareArgs {
    /// How to compare outputs: exact, lines, tokens, puzzle or checker.
    #[arg(long, value_name = "MODE")]
    pub check: Option<String>,
    /// A white-space-only difference is PE instead of AC.
    #[arg(long)]
    pub strict: bool,
    /// Demand the lexicographically smallest shortest answer (true/false).
    #[arg(long, value_name = "BOOL")]
    pub lexmin: Option<bool>,
    /// Absolute and relative float tolerance, for the problems compared as
    /// tokens (others are not changed by it).
    #[arg(long, value_name = "EPS", value_parser = crate::config::parse_tolerance)]
    pub float_tolerance: Option<f64>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub selection: Selection,

    /// The program to judge: a source file (`sol.cpp`, `.c`, `.rs`, `.py`,
    /// `.pas`) or a directory with one, compiled by its language (cached);
    /// else a command line split like a shell would (`"./sol --fast"`), run
    /// with no shell.
    #[arg(
        long,
        short = 's',
        value_name = "CMD|SOURCE",
        conflicts_with = "builtin"
    )]
    pub submission: Option<String>,

    /// The language of a source submission whose extension does not say it.
    #[arg(long, value_name = "NAME", requires = "submission")]
    pub language: Option<String>,

    /// Judge the built-in reference solvers (the default when no
    /// submission is given and the problem is a puzzle).
    #[arg(long)]
    pub builtin: bool,

    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub compare: CompareArgs,

    /// Report format on stdout, or in --report FILE.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Write the report to FILE (atomically); the human report stays on stdout.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Run one shard: count:K/N or hash:K/N.
    #[arg(long, value_name = "SPEC")]
    pub partition: Option<String>,

    /// Stop launching cases after the first failure.
    #[arg(long)]
    pub fail_fast: bool,

    #[command(flatten)]
    pub cache: CacheArgs,

    /// The built-in solver's heuristic (rotation: pdb or centre).
    #[arg(long, value_name = "NAME")]
    pub heuristic: Option<String>,

    /// How hard to contain submissions: auto (the strongest this machine
    /// allows: own user, namespaces, cgroups) or plain (limits only).
    #[arg(long, value_enum, default_value_t = SandboxMode::Auto)]
    pub sandbox: SandboxMode,

    /// Leave everything to the scheduler. By default, when there are no
    /// more workers than CPUs, each worker and the process that starts its
    /// programs keep to a core of their own; when every CPU has a slot
    /// (the default -j), each program also stays on its slot's core (it
    /// sees one CPU), otherwise programs get every CPU of the judge.
    #[arg(long)]
    pub no_pin: bool,

    /// `-q` (global, see `judge --help`).
    #[arg(skip)]
    pub quiet: bool,

    /// `-v` (global, see `judge --help`).
    #[arg(skip)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The puzzle (or a judge.toml problem that is one).
    pub problem: String,
    /// The input file, or - for standard input (the default).
    pub input: Option<PathBuf>,
    /// Search heuristic (rotation: pdb (default) or centre).
    #[arg(long, value_name = "NAME")]
    pub heuristic: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The puzzle or judge.toml problem.
    pub problem: String,
    pub input: PathBuf,
    pub output: PathBuf,
    pub answer: Option<PathBuf>,
    /// A white-space-only difference is PE.
    #[arg(long)]
    pub strict: bool,
    /// Demand the lexicographically smallest shortest answer (true/false).
    #[arg(long, value_name = "BOOL")]
    pub lexmin: Option<bool>,
}

/// The difficulty of generated cases, for `judge gen` and `judge stress`.
#[derive(Debug, Args, Clone, Default)]
pub struct Difficulty {
    /// Exact optimal length, or a range A..B (rotation, swap, flip).
    #[arg(long, value_parser = parse_range, value_name = "L|A..B")]
    pub length: Option<RangeInclusive<u32>>,
    /// Size (booksort's shelf), or a range.
    #[arg(long, value_parser = parse_range, value_name = "N|A..B")]
    pub n: Option<RangeInclusive<u32>>,
    /// Exact distance (booksort; 5 means "5 or more"), or a range.
    #[arg(long, value_parser = parse_range, value_name = "K|A..B")]
    pub moves: Option<RangeInclusive<u32>>,
    /// Number of turns (pilots), or a range.
    #[arg(long, value_parser = parse_range, value_name = "K|A..B")]
    pub turns: Option<RangeInclusive<u32>>,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// The puzzle (or a judge.toml problem that is one), a package
    /// directory with generators/generators.yaml, or a judge.toml problem
    /// with `generators = "FILE"`.
    pub problem: String,
    /// How many cases.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// The random seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub difficulty: Difficulty,
    /// Only unsolvable boards (flip).
    #[arg(long)]
    pub impossible: bool,
    /// Where to write (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    /// File name stem (default: gen-SEED).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// One case per file (always so for single-case puzzles).
    #[arg(long)]
    pub split: bool,
    /// Overwrite existing files (for a package: files `judge gen` did not
    /// write, or that changed since).
    #[arg(long)]
    pub force: bool,
    /// A package with generators/generators.yaml: print the plan, make
    /// nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// A package: remove the files `judge gen` wrote that no entry makes
    /// any more.
    #[arg(long)]
    pub clean: bool,
    /// A package: run every generator twice and fail a case whose two
    /// inputs differ.
    #[arg(long)]
    pub check_deterministic: bool,
    /// A package: `json` lists every case (command, seed, cache hit,
    /// validation, time) on stdout.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// A package: write the JSON report of every case to FILE (atomically).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub selection: Selection,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The puzzle.
    pub problem: String,
    /// Booksort: the shelf size.
    #[arg(long)]
    pub n: Option<u32>,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// JSON reports of shards.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Write the merged report here (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Format of the merged report (json, junit, ndjson, html; default json).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Merge even when shards are missing (a shard job that died): the
    /// merged report then says which are missing. Without it, a missing
    /// or repeated shard is an error.
    #[arg(long)]
    pub partial: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Problems to verify: judge.toml names or Kattis package directories
    /// (default: every problem in judge.toml with a submissions directory,
    /// or, with no judge.toml, the package in the current directory).
    #[arg(value_name = "PROBLEM|PACKAGE")]
    pub problems: Vec<String>,

    /// Only cases whose name matches.
    #[arg(long, value_name = "GLOB")]
    pub filter: Option<String>,

    /// Run at the time limit × this, then grade at the limit from the
    /// measured times: a verdict that differs is "sensitive to the time limit".
    #[arg(long, default_value_t = 1.5, value_name = "FACTOR")]
    pub margin: f64,

    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Report format (json, ndjson, junit, html): on stdout, or in --report
    /// FILE. With a report on stdout, the table of submissions goes to
    /// stderr; otherwise it is on stdout.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Write the report of every case (each with its `program`) and each
    /// submission's expectation and outcome to FILE (.json, .html, …).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// A submission whose compiler or interpreter is not installed is
    /// skipped with a warning instead of failing the verification.
    #[arg(long)]
    pub allow_missing: bool,

    #[command(flatten)]
    pub cache: CacheArgs,

    /// `-q` (global, see `judge --help`).
    #[arg(skip)]
    pub quiet: bool,

    /// `-v` (global, see `judge --help`).
    #[arg(skip)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct LimitsArgs {
    /// The problem: a judge.toml problem, or a package directory (Kattis,
    /// DOMjudge, Polygon).
    pub problem: String,

    /// The time limit is the slowest accepted case × this, rounded up.
    #[arg(long, default_value_t = 2.0, value_name = "FACTOR")]
    pub multiplier: f64,

    /// time_limit_exceeded submissions run at the limit × this; one that
    /// finishes within it is "sensitive to the time limit".
    #[arg(long, default_value_t = 1.5, value_name = "FACTOR")]
    pub margin: f64,

    /// Round the limit up to a multiple of this.
    #[arg(long, default_value = "100ms", value_name = "DURATION")]
    pub round: Span,

    /// Run each accepted case K times; the limit uses each case's median.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub repeat: usize,

    /// The time limit the accepted submissions run under.
    #[arg(long, default_value = "10s", value_name = "DURATION")]
    pub ceiling: Span,

    /// Write the limit into judge.toml (comments and layout kept).
    #[arg(long)]
    pub write: bool,

    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct StressArgs {
    /// The problem: a built-in puzzle, a judge.toml problem, or a package
    /// directory (Kattis, DOMjudge, Polygon).
    pub problem: String,

    /// The program under test (a command line or a source file).
    #[arg(long, short = 's', value_name = "CMD|SOURCE")]
    pub submission: String,

    /// The program to compare with (default: the built-in solver and
    /// checker of a puzzle, or the problem's `solution`).
    #[arg(long, value_name = "CMD|SOURCE")]
    pub against: Option<String>,

    /// A generator, called as `CMD SEED`, writing one input on stdout
    /// (default: the puzzle's own generator).
    #[arg(long, value_name = "CMD|SOURCE")]
    pub generator: Option<String>,

    /// The first seed; round i uses SEED + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Stop after this many rounds.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub count: u64,

    /// Stop after this long.
    #[arg(long, value_name = "DURATION")]
    pub time: Option<Span>,

    /// Cases in each generated file (puzzles with several cases a file).
    #[arg(long, default_value_t = 10, value_name = "M")]
    pub cases: usize,

    #[command(flatten)]
    pub difficulty: Difficulty,

    /// Tries at each smaller size while shrinking.
    #[arg(long, default_value_t = 8, value_name = "T")]
    pub tries: usize,

    /// Where to write the failing case (default: the problem's cases
    /// directory, or ./stress without one).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// File name stem (default: stress-SEED).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

pub use crate::units::parse_range;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("12"), Ok(12..=12));
        assert_eq!(parse_range("10..13"), Ok(10..=13));
        assert_eq!(parse_range("10..=13"), Ok(10..=13));
        assert!(parse_range("13..10").is_err());
        assert!(parse_range("x").is_err());
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
