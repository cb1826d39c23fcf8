//! Deciding a verdict from a finished run: RunOutcome + case → Verdict with a
//! message. `text` compares with an answer file, `diff` renders the unified
//! diff a report shows, `whitespace` makes white space visible; the puzzle
//! checkers live in `puzzles/` and are reached through the `Puzzle` trait.

pub mod whitespace;
