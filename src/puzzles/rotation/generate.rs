//! Making cases of a chosen difficulty: boards whose optimal length is
//! exactly L (`--length L`, or `--length A..B` with each case's length drawn
//! uniformly from the range), deterministic for a seed (ChaCha8).
//!
//! Without `--length` a board is uniformly random over all 9,465,511,770
//! (a shuffle of eight 1s, 2s and 3s), so most have length 8 to 10.
//!
//! With L, random boards would almost never do (192 boards in the whole
//! space have length 13), so the board is built from the pattern database: a
//! board has length L exactly when one digit's placement is at distance L and
//! the other two at distance ≥ L. Pick that placement uniformly among those
//! at distance L, then a split of the other 16 cells whose two halves are both
//! at distance ≥ L (a few random tries, then all 12,870 splits, one chosen
//! uniformly; another placement if none fits), then a random labelling of
//! the three digits. For L = 13 the choice is uniform among all 192 boards,
//! listed once per process. For L < 13 the boards are not exactly uniform
//! among those of length L (a placement with many fitting splits is picked as
//! often as one with few); the generator promises the length, not the law.

use super::board::{Board, Masks};
use super::pdb::{Pdb, pdb};
use super::search::table_solution;
use super::split::{FULL, Splits, all_splits};
use crate::puzzles::OptionError;
use crate::puzzles::{GenSpec, GeneratedCase};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// The longest optimal length of any board.
pub const LONGEST: u32 = 13;

/// Random splits tried before walking all of them.
const RANDOM_TRIES: usize = 24;

/// Make `spec.count` cases (see the module doc).
pub fn generate(spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
    spec.reject_other_than("rotation", &["length"])?;
    if let Some(range) = &spec.length {
        if range.start() > range.end() {
            return Err(format!(
                "--length {}..{} is an empty range",
                range.start(),
                range.end()
            )
            .into());
        }
        if *range.end() > LONGEST {
            return Err(format!(
                "--length {}: no board needs more than {LONGEST} moves (the longest optimum)",
                range.end()
            )
            .into());
        }
    }
    let table = pdb();
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut cases = Vec::with_capacity(spec.count);
    for _ in 0..spec.count {
        let board = match &spec.length {
            None => random_board(&mut rng),
            Some(range) => {
                let len = rng.random_range(range.clone());
                board_of_length(table, &mut rng, len)
            }
        };
        let solution = table_solution(table, &board);
        cases.push(GeneratedCase {
            input: board.to_line(),
            answer: solution.render(),
            label: format!("len{}", solution.moves.len()),
        });
    }
    Ok(cases)
}

/// The input file (each case a line, then `0`) and the answer file.
pub fn assemble(cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
    let mut input = String::new();
    let mut answer = String::new();
    for case in cases {
        input.push_str(&case.input);
        input.push('\n');
        answer.push_str(&case.answer);
        answer.push('\n');
    }
    input.push_str("0\n");
    (input.into_bytes(), answer.into_bytes())
}

/// A uniformly random board.
pub fn random_board(rng: &mut ChaCha8Rng) -> Board {
    let mut cells: [u8; 24] = std::array::from_fn(|i| (i / 8) as u8 + 1);
    cells.shuffle(rng);
    // Eight of each by construction, so never the default.
    Board::new(cells).unwrap_or_default()
}

/// A board whose optimal length is exactly `len` (≤ [`LONGEST`]).
pub fn board_of_length(table: &Pdb, rng: &mut ChaCha8Rng, len: u32) -> Board {
    if len >= LONGEST
        && let Some(masks) = longest_boards().choose(rng)
    {
        return Board::from_masks(masks).unwrap_or_default();
    }
    let len = len.min(LONGEST) as u8;
    let candidates = &placements_by_distance()[usize::from(len)];
    let dist = table.table();
    loop {
        let Some(&s1) = candidates.choose(rng) else {
            // No placement at that distance: cannot happen for len ≤ 13.
            return Board::default();
        };
        let splits = Splits::new(s1);
        let fits = |x: u16| dist[splits.rank(x)] >= len && dist[splits.rank(!x)] >= len;
        let mut found = (0..RANDOM_TRIES)
            .map(|_| random_split(rng))
            .find(|&x| fits(x));
        if found.is_none() {
            let all: Vec<u16> = all_splits().filter(|&x| fits(x)).collect();
            found = all.choose(rng).copied();
        }
        if let Some(x) = found {
            let mut masks: Masks = [s1, splits.mask(x), splits.mask(!x)];
            masks.shuffle(rng);
            return Board::from_masks(&masks).unwrap_or_default();
        }
    }
}

/// A random 16-bit mask with 8 bits set.
fn random_split(rng: &mut ChaCha8Rng) -> u16 {
    let mut order: [u8; 16] = std::array::from_fn(|i| i as u8);
    order.shuffle(rng);
    order[..8].iter().fold(0, |x, &j| x | 1 << j)
}

/// The placements at each distance, in rank order.
pub fn placements_by_distance() -> &'static [Vec<u32>] {
    static LISTS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    LISTS.get_or_init(|| {
        let table = pdb();
        let mut lists = vec![Vec::new(); usize::from(table.max_distance()) + 1];
        for (rank, mask) in super::pdb::placements().enumerate() {
            lists[usize::from(table.distance_of_rank(rank))].push(mask);
        }
        lists
    })
}

/// Every board of the longest optimal length, as digit masks, listed once
/// per process (see [`find_longest_boards`]).
pub fn longest_boards() -> &'static [Masks] {
    static BOARDS: OnceLock<Vec<Masks>> = OnceLock::new();
    BOARDS.get_or_init(|| find_longest_boards(pdb()))
}

/// Every board of the longest optimal length: all three placements at
/// distance ≥ 13 and one exactly 13. Only 10,233 placements are that far,
/// so pairing them (disjoint pairs, the third part being the rest) is quick.
pub fn find_longest_boards(table: &Pdb) -> Vec<Masks> {
    let len = LONGEST as u8;
    let mut far: Vec<u32> = super::pdb::placements()
        .filter(|&m| table.distance(m) >= len)
        .collect();
    far.sort_unstable();
    let mut boards = Vec::new();
    for (i, &a) in far.iter().enumerate() {
        for &b in &far[i + 1..] {
            let c = FULL ^ a ^ b;
            // Each partition once, as a < b < c.
            if a & b != 0 || c <= b || table.distance(c) < len {
                continue;
            }
            if table.board_distance(&[a, b, c]) != len {
                continue;
            }
            for order in [
                [a, b, c],
                [a, c, b],
                [b, a, c],
                [b, c, a],
                [c, a, b],
                [c, b, a],
            ] {
                boards.push(order);
            }
        }
    }
    boards.sort_unstable();
    boards
}

#[cfg(test)]
mod tests {
    use super::super::search::{Heuristic, solve_board};
    use super::*;

    fn spec(length: Option<std::ops::RangeInclusive<u32>>, count: usize, seed: u64) -> GenSpec {
        GenSpec {
            count,
            seed,
            length,
            ..GenSpec::default()
        }
    }

    #[test]
    fn there_are_192_longest_boards() {
        let boards = longest_boards();
        assert_eq!(boards.len(), 192);
        let table = pdb();
        assert!(boards.iter().all(|m| table.board_distance(m) == 13));
    }

    #[test]
    fn every_length_is_exact_and_both_heuristics_agree() {
        for len in 0..=LONGEST {
            let cases = generate(&spec(Some(len..=len), 2, u64::from(len))).unwrap();
            for case in &cases {
                assert_eq!(case.label, format!("len{len}"));
                let cells: Vec<u8> = case.input.split(' ').map(|t| t.parse().unwrap()).collect();
                let board = Board::new(cells.try_into().unwrap()).unwrap();
                let pdb_answer = solve_board(&board, Heuristic::Pdb);
                assert_eq!(pdb_answer.moves.len(), len as usize, "{}", case.input);
                assert_eq!(pdb_answer.render(), case.answer);
                // The classic search is slow on the longest boards: once each.
                if case == &cases[0] {
                    assert_eq!(
                        solve_board(&board, Heuristic::Centre),
                        pdb_answer,
                        "{}",
                        case.input
                    );
                }
            }
        }
    }

    #[test]
    fn deterministic_for_a_seed_and_different_across_seeds() {
        let a = generate(&spec(Some(5..=12), 20, 7)).unwrap();
        assert_eq!(a, generate(&spec(Some(5..=12), 20, 7)).unwrap());
        assert_ne!(a, generate(&spec(Some(5..=12), 20, 8)).unwrap());
        let lengths: std::collections::BTreeSet<&str> =
            a.iter().map(|c| c.label.as_str()).collect();
        assert!(
            lengths.len() > 3,
            "lengths drawn from the range: {lengths:?}"
        );
        assert!(
            a.iter()
                .all(|c| (5..=12).contains(&c.label[3..].parse::<u32>().unwrap()))
        );
    }

    #[test]
    fn random_boards_without_a_length() {
        let cases = generate(&spec(None, 5, 1)).unwrap();
        assert_eq!(cases.len(), 5);
        let distinct: std::collections::BTreeSet<&String> =
            cases.iter().map(|c| &c.input).collect();
        assert_eq!(distinct.len(), 5);
    }

    #[test]
    fn rejects_bad_lengths_and_foreign_flags() {
        let err = generate(&spec(Some(14..=14), 1, 0)).unwrap_err();
        assert!(err.contains("13"), "{err}");
        #[allow(clippy::reversed_empty_ranges)]
        let err = generate(&spec(Some(5..=3), 1, 0)).unwrap_err();
        assert!(err.contains("empty"), "{err}");
        let foreign = GenSpec {
            n: Some(3..=3),
            ..spec(None, 1, 0)
        };
        assert_eq!(
            generate(&foreign).unwrap_err(),
            "rotation has no --n option (its difficulty options: --length)".into()
        );
    }

    #[test]
    fn assembled_files_validate_and_solve_to_the_answers() {
        let cases = generate(&spec(Some(0..=13), 6, 3)).unwrap();
        let (input, answer) = assemble(&cases);
        assert_eq!(super::super::input::validate(&input), Ok(6));
        let boards = super::super::input::read_boards(&input).unwrap();
        let solved: String = boards
            .iter()
            .map(|b| solve_board(b, Heuristic::Pdb).render() + "\n")
            .collect();
        assert_eq!(solved.as_bytes(), &answer[..]);
        assert!(input.ends_with(b"\n0\n"));
    }
}
