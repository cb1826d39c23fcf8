//! Whole-space facts: the exact number of boards of every optimal length,
//! over all 24!/(8!·8!·8!) = 9,465,511,770 boards.
//!
//! A board is an ordered partition (S1, S2, S3) of the 24 cells into the
//! placements of digits 1, 2, 3, and its optimal length is the least of the
//! three placement distances. Walking all of them takes two reductions:
//!
//! - Symmetry of the board. The 8 symmetries of the `#` map moves to moves
//!   and fix the centre, so a symmetry g maps the splits of S1's complement
//!   one to one onto those of gS1's, keeping every distance. The count over
//!   S1's splits is therefore the same for every S1 in an orbit: walk one
//!   representative per orbit (the least mask of the orbit) and weight it by
//!   the orbit's size. No Burnside average is needed, as whole orbits are
//!   counted, not orbits themselves; [`count_boards_plain`] checks it.
//! - S2 ↔ S3. Swapping two digits keeps the optimal length, so only splits
//!   where S2 holds the first free cell are walked, counted twice.
//!
//! That leaves about 92,000 × 6,435 boards, each two rank look-ups
//! ([`Splits`]) and two reads of the distance table, spread over the cores
//! with rayon. This module counts; it does not search or generate.

use super::board::{CELLS, symmetries};
use super::pdb::{PLACEMENTS, Pdb, pdb, placements};
use super::split::{Splits, bytes_by_count};
use crate::puzzles::Stats;
use rayon::prelude::*;

/// The number of boards: 24! / (8!·8!·8!).
pub const BOARDS: u64 = 9_465_511_770;

/// Number of boards by optimal length (index = length).
pub type Counts = Vec<u64>;

/// `SYM[g][k][b]`: image under symmetry g of the cells of byte k = b.
fn symmetry_tables() -> Vec<[[u32; 256]; 3]> {
    symmetries()
        .iter()
        .map(|perm| {
            let mut t = [[0u32; 256]; 3];
            for (k, row) in t.iter_mut().enumerate() {
                for (b, slot) in row.iter_mut().enumerate() {
                    *slot = (0..8)
                        .filter(|j| b >> j & 1 == 1)
                        .fold(0, |acc, j| acc | 1 << perm[8 * k + j]);
                }
            }
            t
        })
        .collect()
}

fn apply(t: &[[u32; 256]; 3], mask: u32) -> u32 {
    t[0][(mask & 0xff) as usize] | t[1][(mask >> 8 & 0xff) as usize] | t[2][(mask >> 16) as usize]
}

/// One placement per symmetry orbit (its least mask) and the orbit's size.
pub fn orbit_representatives() -> Vec<(u32, u64)> {
    let tables = symmetry_tables();
    placements()
        .filter_map(|mask| {
            let mut images: Vec<u32> = tables.iter().map(|t| apply(t, mask)).collect();
            if images.iter().any(|&m| m < mask) {
                return None;
            }
            images.sort_unstable();
            images.dedup();
            Some((mask, images.len() as u64))
        })
        .collect()
}

/// The boards whose digit-1 placement is `s1`, by optimal length (added to
/// `counts`, times `weight`).
fn count_splits(table: &Pdb, bytes: &[Vec<u8>; 9], s1: u32, weight: u64, counts: &mut [u64]) {
    let d1 = table.distance(s1);
    if d1 == 0 {
        counts[0] += weight * 12_870;
        return;
    }
    let splits = Splits::new(s1);
    let dist = table.table();
    let mut local = [0u64; 16];
    // Bit 0 of the split (the first free cell) goes to S2; the mirror
    // split, with S2 and S3 swapped, has the same optimal length.
    for lo in (1..=255u8).step_by(2) {
        let c = lo.count_ones() as usize;
        let r2 = splits.rank_low(lo);
        let r3 = splits.rank_low(!lo);
        for &hi in &bytes[8 - c] {
            let d2 = dist[r2 + splits.rank_high(c, hi)];
            let d3 = dist[r3 + splits.rank_high(8 - c, !hi)];
            local[usize::from(d1.min(d2).min(d3))] += 1;
        }
    }
    for (total, n) in counts.iter_mut().zip(local) {
        *total += 2 * weight * n;
    }
}

fn count(reps: &[(u32, u64)]) -> Counts {
    let table = pdb();
    let bytes = bytes_by_count();
    let mut counts = reps
        .par_chunks(64)
        .map(|chunk| {
            let mut counts = vec![0u64; 16];
            for &(s1, weight) in chunk {
                count_splits(table, &bytes, s1, weight, &mut counts);
            }
            counts
        })
        .reduce(
            || vec![0u64; 16],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    while counts.last() == Some(&0) {
        counts.pop();
    }
    counts
}

/// Boards by optimal length, using the symmetries (see the module doc).
pub fn count_boards() -> Counts {
    count(&orbit_representatives())
}

/// Boards by optimal length, every placement walked (8× the work): the
/// check of the symmetry reduction.
pub fn count_boards_plain() -> Counts {
    let all: Vec<(u32, u64)> = placements().map(|m| (m, 1)).collect();
    count(&all)
}

/// The count of every board did not add up: a bug of the judge.
#[derive(Debug, thiserror::Error)]
#[error("counted {total} boards, expected {BOARDS}: this is a bug of the judge")]
pub struct Miscount {
    total: u64,
}

/// The `judge stats rotation` report.
pub fn stats() -> Result<Stats, Miscount> {
    let counts = count_boards();
    let total: u64 = counts.iter().sum();
    if total != BOARDS {
        return Err(Miscount { total });
    }
    let longest = counts.len().saturating_sub(1);
    let placement_counts: Vec<String> = pdb()
        .histogram()
        .iter()
        .enumerate()
        .map(|(d, n)| format!("{d}: {n}"))
        .collect();
    Ok(Stats {
        description: format!(
            "all {} boards, by optimal number of moves",
            crate::puzzles::group_digits(BOARDS)
        ),
        rows: counts
            .iter()
            .enumerate()
            .map(|(len, &n)| (len.to_string(), n))
            .collect(),
        total,
        notes: vec![
            format!(
                "longest optimum: {longest} moves ({} boards)",
                crate::puzzles::group_digits(counts.last().copied().unwrap_or(0))
            ),
            format!(
                "placement distances: {} ({} placements of one digit, by moves to bring them into the centre)",
                placement_counts.join(", "),
                crate::puzzles::group_digits(PLACEMENTS as u64)
            ),
            format!(
                "counted over {} placements, one per orbit of the board's 8 symmetries, out of the {CELLS}-cell board's {}",
                crate::puzzles::group_digits(orbit_representatives().len() as u64),
                crate::puzzles::group_digits(PLACEMENTS as u64)
            ),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_every_placement() {
        let reps = orbit_representatives();
        let covered: u64 = reps.iter().map(|&(_, w)| w).sum();
        assert_eq!(covered, PLACEMENTS as u64);
        // Some placements are symmetric (e.g. the centre itself: orbit of 1).
        assert!(reps.contains(&(super::super::board::CENTRE_MASK, 1)));
    }

    #[test]
    fn distances_are_invariant_under_the_symmetries() {
        let table = pdb();
        let tables = symmetry_tables();
        for mask in placements().step_by(101) {
            for t in &tables {
                assert_eq!(
                    table.distance(apply(t, mask)),
                    table.distance(mask),
                    "{mask:#x}"
                );
            }
        }
    }

    #[test]
    fn an_orbit_counts_the_same_from_each_of_its_members() {
        let table = pdb();
        let bytes = bytes_by_count();
        let tables = symmetry_tables();
        for &(rep, weight) in orbit_representatives().iter().step_by(9_001) {
            let mut members: Vec<u32> = tables.iter().map(|t| apply(t, rep)).collect();
            members.sort_unstable();
            members.dedup();
            assert_eq!(members.len() as u64, weight);
            let mut by_rep = vec![0u64; 16];
            count_splits(table, &bytes, rep, weight, &mut by_rep);
            let mut by_members = vec![0u64; 16];
            for m in members {
                count_splits(table, &bytes, m, 1, &mut by_members);
            }
            assert_eq!(by_rep, by_members, "{rep:#x}");
            assert_eq!(by_rep.iter().sum::<u64>(), weight * 12_870);
        }
    }

    #[test]
    fn every_board_is_counted_and_the_longest_optimum_is_13_with_192_boards() {
        let s = stats().unwrap();
        assert_eq!(s.total, BOARDS);
        assert_eq!(s.rows.iter().map(|(_, n)| n).sum::<u64>(), BOARDS);
        assert_eq!(s.rows.len(), 14);
        assert_eq!(s.rows[13], ("13".to_string(), 192));
        assert_eq!(s.notes[0], "longest optimum: 13 moves (192 boards)");
        // Optimum 0: some digit fills the centre; 3 × C(16,8) ways, none twice.
        assert_eq!(s.rows[0].1, 3 * 12_870);
        // The whole distribution, as the plain count (no symmetry) also gives.
        let counts: Vec<u64> = s.rows.iter().map(|(_, n)| *n).collect();
        assert_eq!(
            counts,
            [
                38_610,
                308_880,
                1_698_840,
                8_030_880,
                33_820_248,
                124_134_840,
                400_278_348,
                1_098_954_804,
                2_316_756_348,
                3_172_593_156,
                1_992_066_648,
                312_776_400,
                4_053_576,
                192
            ]
        );
        assert!(
            s.notes[1].starts_with("placement distances: 0: 1, 1: 8, 2: 44, "),
            "{}",
            s.notes[1]
        );
        assert!(
            s.notes[1].contains("14: 188 (735,471 placements"),
            "{}",
            s.notes[1]
        );
    }

    #[test]
    // The whole space counted without the symmetry shortcut (about 8× the
    // stats time, some 20 s on 2 cores): the orbit weighting must not lie.
    fn plain_count_agrees_with_the_symmetric_count() {
        assert_eq!(count_boards_plain(), count_boards());
    }

    #[test]
    fn groups_digits() {
        assert_eq!(crate::puzzles::group_digits(BOARDS), "9,465,511,770");
        assert_eq!(crate::puzzles::group_digits(192), "192");
        assert_eq!(crate::puzzles::group_digits(1000), "1,000");
    }
}
