//! The reference solver's search: IDA* over move sequences, with a choice of
//! two admissible heuristics.
//!
//! Moves are tried A..H at every depth and the inverse of the previous move
//! is skipped, so the first solution found at the smallest bound is the
//! lexicographically smallest of the shortest (a shortest sequence never
//! holds a move followed by its inverse). Both heuristics therefore print the
//! same answer; they differ only in speed:
//!
//! - `pdb` (default): the exact distance from the pattern database, so the
//!   search walks straight down (at most 8 children looked at per level);
//! - `centre`: the classic 8 − (count of the most frequent digit in the
//!   centre), kept as the textbook baseline and as an independent cross-check
//!   of the table.

use super::board::{Board, CENTRE_MASK, Masks, Move, move_masks};
use super::pdb::{Pdb, pdb};

/// Which lower bound the IDA* uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Exact distance from the pattern database.
    Pdb,
    /// 8 − most frequent digit count in the centre.
    Centre,
}

impl Heuristic {
    /// The names `--heuristic` accepts, the default first.
    pub const NAMES: [&'static str; 2] = ["pdb", "centre"];

    /// The heuristic of that name; the error names the valid values.
    pub fn parse(name: &str) -> Result<Heuristic, crate::puzzles::OptionError> {
        match name {
            "pdb" => Ok(Heuristic::Pdb),
            "centre" => Ok(Heuristic::Centre),
            other => Err(crate::puzzles::OptionError::new(format!(
                "rotation has no heuristic {other:?} (valid: {})",
                Heuristic::NAMES.join(", ")
            ))),
        }
    }
}

/// A solved case: the moves and the digit the centre then holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: Vec<Move>,
    pub digit: u8,
}

impl Solution {
    /// The first output line: the letters, or `No moves needed`.
    pub fn moves_line(&self) -> String {
        if self.moves.is_empty() {
            "No moves needed".to_string()
        } else {
            super::board::letters(&self.moves)
        }
    }

    /// The case's two output lines, without the final newline.
    pub fn render(&self) -> String {
        format!("{}\n{}", self.moves_line(), self.digit)
    }

    /// The case's two output lines, each with its newline, appended to
    /// `out` without an allocation of their own.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        if self.moves.is_empty() {
            out.extend_from_slice(b"No moves needed");
        } else {
            out.extend(self.moves.iter().map(|m| m.letter() as u8));
        }
        out.push(b'\n');
        out.push(b'0' + self.digit);
        out.push(b'\n');
    }
}

/// The digit (1..=3) whose mask covers the centre, if any.
pub fn uniform_digit(masks: &Masks) -> Option<u8> {
    (1u8..)
        .zip(masks)
        .find(|(_, m)| *m & CENTRE_MASK == CENTRE_MASK)
        .map(|(d, _)| d)
}

/// The lexicographically smallest shortest solution of a board. With the
/// exact pattern database IDA* never backtracks: the first move (A..H) that
/// lowers the table's distance by one is the one it keeps, so the answer is
/// read off the table by that descent ([`table_solution`]); with the
/// `centre` bound it is a real IDA* search.
pub fn solve_board(board: &Board, heuristic: Heuristic) -> Solution {
    let masks = board.masks();
    let mut path = Vec::new();
    match heuristic {
        Heuristic::Pdb => return table_solution(pdb(), board),
        Heuristic::Centre => {
            ida_star(&masks, &mut path, centre_bound);
        }
    }
    let mut end = masks;
    for &m in &path {
        end = move_masks(m, &end);
    }
    Solution {
        // The search only stops on a uniform centre.
        digit: uniform_digit(&end).unwrap_or(0),
        moves: path,
    }
}

/// The solution read off the table by greedy descent: the same answer as
/// [`solve_board`], without a search (the checker's and generator's oracle).
pub fn table_solution(table: &Pdb, board: &Board) -> Solution {
    let mut moves = Vec::new();
    let digit = table.descend(&board.masks(), |m| moves.push(m));
    Solution { moves, digit }
}

/// [`table_solution`]'s two output lines, each with its newline, appended
/// to `out`: the reference solver's inner loop, which allocates nothing.
pub fn write_table_solution(table: &Pdb, masks: &Masks, out: &mut Vec<u8>) {
    let start = out.len();
    let digit = table.descend(masks, |m| out.push(m.letter() as u8));
    if out.len() == start {
        out.extend_from_slice(b"No moves needed");
    }
    out.push(b'\n');
    out.push(b'0' + digit);
    out.push(b'\n');
}

/// The classic bound: each move changes one centre cell.
pub fn centre_bound(masks: &Masks) -> u8 {
    let best = masks
        .iter()
        .map(|m| (m & CENTRE_MASK).count_ones())
        .max()
        .unwrap_or(0);
    8 - best as u8
}

/// Iterative deepening A*: raise the bound from h(start) until the
/// depth-first search finds a uniform centre. Every board is solvable in at
/// most 13 moves, so this ends; `path` then holds the moves.
fn ida_star(start: &Masks, path: &mut Vec<Move>, h: impl Fn(&Masks) -> u8 + Copy) {
    let mut bound = h(start);
    loop {
        path.clear();
        if dfs(start, bound, None, path, h) {
            return;
        }
        bound += 1;
    }
}

fn dfs(
    masks: &Masks,
    left: u8,
    prev: Option<Move>,
    path: &mut Vec<Move>,
    h: impl Fn(&Masks) -> u8 + Copy,
) -> bool {
    let estimate = h(masks);
    if estimate == 0 {
        return uniform_digit(masks).is_some();
    }
    if estimate > left {
        return false;
    }
    for m in Move::ALL {
        if prev.is_some_and(|p| p.inverse() == m) {
            continue;
        }
        path.push(m);
        if dfs(&move_masks(m, masks), left - 1, Some(m), path, h) {
            return true;
        }
        path.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        let cells: Vec<u8> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        Board::new(cells.try_into().unwrap()).unwrap()
    }

    #[test]
    fn statement_sample() {
        for h in [Heuristic::Pdb, Heuristic::Centre] {
            let s = solve_board(&board("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"), h);
            assert_eq!(s.render(), "AC\n2");
            let s = solve_board(&board("1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3"), h);
            assert_eq!(s.render(), "DDHH\n2");
        }
    }

    #[test]
    fn uniform_centre_needs_no_moves() {
        let b = board("1 1 3 1 3 3 2 2 2 3 1 2 2 3 1 2 2 2 3 1 3 1 1 3");
        let s = solve_board(&b, Heuristic::Pdb);
        assert_eq!(s.render(), "No moves needed\n2");
        assert_eq!(table_solution(pdb(), &b), s);
    }

    #[test]
    fn heuristic_names() {
        assert_eq!(Heuristic::parse("pdb"), Ok(Heuristic::Pdb));
        assert_eq!(Heuristic::parse("centre"), Ok(Heuristic::Centre));
        let err = Heuristic::parse("center").unwrap_err();
        assert!(
            err.contains("\"center\"") && err.contains("pdb, centre"),
            "{err}"
        );
    }

    #[test]
    fn both_bounds_are_admissible_and_pdb_is_exact() {
        let b = board("3 3 3 3 1 1 2 1 2 2 3 1 2 2 3 1 2 2 3 1 1 1 3 2");
        let s = solve_board(&b, Heuristic::Pdb);
        assert_eq!(s.moves.len(), usize::from(pdb().board_distance(&b.masks())));
        assert!(centre_bound(&b.masks()) as usize <= s.moves.len());
    }
}
