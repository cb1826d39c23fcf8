//! `judge`: an online-judge test harness for problem setters, contest judges
//! and CI. See README.md for the tour and DESIGN.md's layers for the shape:
//! config + cases → jobs → runs → verdicts → reports.

pub mod check;
pub mod puzzles;
pub mod verdict;

pub use verdict::Verdict;
