//! `judge`: an online-judge test harness for problem setters, contest judges
//! and CI. README.md is the tour; ARCHITECTURE.md the map: the layers, lowest
//! first (`verdict`, `units`, `text`, `expect`; `puzzles`; `exec`; `check`;
//! `submission`; `cases`; `config`; `judge`; `report`; `cli`; `commands`),
//! each importing only layers below it (enforced by `tests/layers.rs`).

pub mod cases;
pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod exec;
pub mod expect;
pub mod formats;
pub mod judge;
pub mod puzzles;
pub mod report;
pub mod score;
pub mod submission;
pub mod text;
pub mod units;
pub mod verdict;

pub use verdict::Verdict;
