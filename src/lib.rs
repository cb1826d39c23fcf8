//! `judge`: an online-judge test harness for problem setters, contest judges
//! and CI. See README.md for the tour and DESIGN.md's layers for the shape:
//! config + cases → jobs → runs → verdicts → reports.
//!
//! Layers, each a module: `cli` (argument parsing), `commands` (one file per
//! subcommand, gluing the layers), `config`, `cases`, `exec`, `check`,
//! `puzzles`, `judge` (orchestration) and `report`; `submission` (what
//! program a submission means: compiling sources, the build cache) and
//! `expect` (the verdicts a submission is expected to get).

pub mod cases;
pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod exec;
pub mod expect;
pub mod judge;
pub mod puzzles;
pub mod report;
pub mod submission;
pub mod text;
pub mod units;
pub mod verdict;

pub use verdict::Verdict;
