//! Rotation Game (UVA 1343, POJ 2286, HDU 1667, AcWing 181): docs/puzzles.md §1.
//!
//! A `#` of 24 cells holds eight 1s, 2s and 3s; moves A..H rotate one of its
//! four lines; make the 8 centre cells one digit in the fewest moves, and
//! print the lexicographically smallest such sequence and the digit.
//!
//! Everything rests on one fact: the goal "centre all x" depends only on
//! where the eight x's are, so one breadth-first search over the 735,471
//! placements of a digit ([`pdb`]) gives the exact distance of every board
//! (the least of its three placements' distances). From it:
//!
//! - [`board`]: cells, moves, the centre, the figure of a board;
//! - [`pdb`]: the distance table, ranked placements, greedy lexmin descent;
//! - [`search`]: the reference IDA*, heuristic `pdb` (exact, default) or
//!   `centre` (the classic 8 − most frequent centre digit count);
//! - [`input`]: the strict validator and the lenient reader of case files
//!   (blank lines before the terminator are rejected; CR is rejected by the
//!   validator and read as white space by the solver and the checker);
//! - [`checker`]: replays and proves a contestant's output;
//! - [`split`], [`generate`], [`stats`]: cases of an exact length, and the
//!   exact count of boards of every length (longest 13, with 192 boards).
//!
//! Nothing outside this folder knows these rules: the rest of the judge
//! reaches them through [`Rotation`]'s [`Puzzle`] implementation.

pub mod board;
pub mod checker;
pub mod generate;
pub mod input;
pub mod pdb;
pub mod search;
pub mod split;
pub mod stats;

use super::*;
use search::{Heuristic, solve_board};

/// Rotation Game (UVA 1343, POJ 2286).
pub struct Rotation;

impl Puzzle for Rotation {
    fn name(&self) -> &'static str {
        "rotation"
    }

    fn title(&self) -> &'static str {
        "Rotation Game (UVA 1343, POJ 2286)"
    }

    fn default_lexmin(&self) -> bool {
        true
    }

    fn multi_case(&self) -> bool {
        true
    }

    fn validate(&self, input: &[u8]) -> Result<usize, FormatError> {
        input::validate(input)
    }

    /// The one option: `--heuristic pdb` (default) or `centre`.
    fn check_options(&self, options: &SolveOptions) -> Result<(), OptionError> {
        match options.heuristic.as_deref() {
            None => Ok(()),
            Some(name) => Heuristic::parse(name).map(|_| ()),
        }
    }

    /// Per case: the moves (or `No moves needed`), then the centre digit.
    fn solve(&self, input: &[u8], options: &SolveOptions) -> Result<Vec<u8>, SolveError> {
        let heuristic = match options.heuristic.as_deref() {
            None => Heuristic::Pdb,
            Some(name) => Heuristic::parse(name).map_err(SolveError::Option)?,
        };
        if heuristic == Heuristic::Centre {
            let boards = input::read_boards(input)?;
            return Ok(super::solve_in_parallel(&boards, 16, |board, out| {
                solve_board(board, heuristic).write_to(out)
            }));
        }
        // The table is built on one core while the input is read on another.
        let (boards, table) = rayon::join(|| input::read_masks(input), pdb::pdb);
        let boards = boards?;
        Ok(super::solve_in_parallel(&boards, 16, |masks, out| {
            search::write_table_solution(table, masks, out)
        }))
    }

    fn check(&self, request: &CheckRequest<'_>) -> CheckReport {
        checker::check(request)
    }

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
        generate::generate(spec)
    }

    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        generate::assemble(cases)
    }

    fn stats(&self, options: &StatsOptions) -> Result<Stats, OptionError> {
        if options.n.is_some() {
            return Err(
                "rotation has no --n option: its statistics cover the one board size".into(),
            );
        }
        stats::stats().map_err(|e| OptionError::new(e.to_string()))
    }
}

#[cfg(test)]
mod tests;
