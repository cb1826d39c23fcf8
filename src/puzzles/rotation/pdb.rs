//! The pattern database: the exact number of moves that bring eight cells
//! holding one digit into the centre, for every one of the C(24,8) = 735,471
//! placements of that digit.
//!
//! A move permutes cells without looking at digits, so one table serves all
//! three digits, and the optimal length of a board is the smallest of its
//! three placement distances (docs/puzzles.md §1, facts). The table is built once
//! per process by a breadth-first search from the single goal placement (all
//! eight in the centre) and shared ([`pdb`]). The move set is closed under
//! inverses, so distances *to* the goal equal distances *from* it.
//!
//! Placements are indexed by their combinatorial (colex) rank, computed with
//! three byte look-ups ([`rank`]); numeric order of the masks is rank order,
//! so [`placements`] walks them by rank. This module does not search boards;
//! `search` does.

use super::board::{CELLS, CENTRE_MASK, Masks, Move, move_mask};
use std::sync::OnceLock;

/// C(24, 8): the number of placements of one digit.
pub const PLACEMENTS: usize = 735_471;

/// `BINOM[n][k]` = C(n, k) for n ≤ 24, k ≤ 8.
pub(crate) const BINOM: [[u32; 9]; CELLS + 1] = {
    let mut t = [[0u32; 9]; CELLS + 1];
    let mut n = 0;
    while n <= CELLS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `RANK[k][before][b]`: the part of the colex rank contributed by byte `k`
/// of a mask holding byte value `b`, when `before` cells are set in the lower
/// bytes. The colex rank of cells p1 < … < p8 is Σ C(p_i, i).
static RANK: [[[u32; 256]; 9]; 3] = {
    let mut t = [[[0u32; 256]; 9]; 3];
    let mut k = 0;
    while k < 3 {
        let mut before = 0;
        while before <= 8 {
            let mut b = 0;
            while b < 256 {
                let mut sum = 0;
                let mut seen = before;
                let mut j = 0;
                while j < 8 {
                    if b >> j & 1 == 1 {
                        seen += 1;
                        if seen <= 8 {
                            sum += BINOM[8 * k + j][seen];
                        }
                    }
                    j += 1;
                }
                t[k][before][b] = sum;
                b += 1;
            }
            before += 1;
        }
        k += 1;
    }
    t
};

/// The rank (0..[`PLACEMENTS`]) of a mask of exactly eight cells below 2^24.
/// Other masks give some number below 2^31 that means nothing.
#[inline]
pub fn rank(mask: u32) -> usize {
    let b0 = mask & 0xff;
    let b1 = mask >> 8 & 0xff;
    let b2 = mask >> 16 & 0xff;
    let c0 = b0.count_ones() as usize;
    let c1 = (c0 + b1.count_ones() as usize).min(8);
    (RANK[0][0][b0 as usize] + RANK[1][c0][b1 as usize] + RANK[2][c1][b2 as usize]) as usize
}

/// Every placement (a mask of 8 of the 24 cells), in rank order.
pub fn placements() -> impl Iterator<Item = u32> {
    let mut next = Some(0xffu32);
    std::iter::from_fn(move || {
        let mask = next?;
        next = next_combination(mask).filter(|&m| m < 1 << CELLS);
        Some(mask)
    })
}

/// The next larger integer with as many set bits (Gosper's hack).
#[inline]
pub fn next_combination(mask: u32) -> Option<u32> {
    let low = mask & mask.wrapping_neg();
    let ripple = mask.checked_add(low)?;
    Some(ripple | (((mask ^ ripple) >> 2) / low))
}

/// The table: distance of every placement, indexed by rank, and the moves
/// that bring each placement one step closer.
pub struct Pdb {
    dist: Box<[u8]>,
    /// Bit `m` of `down[r]`: move `m` takes placement `r` one step closer to
    /// the centre (its distance drops by one). Filled by the same search.
    down: Box<[u8]>,
}

impl Pdb {
    /// Moves needed to bring the eight cells of `mask` into the centre.
    #[inline]
    pub fn distance(&self, mask: u32) -> u8 {
        self.dist[rank(mask)]
    }

    /// Distance by rank.
    #[inline]
    pub fn distance_of_rank(&self, rank: usize) -> u8 {
        self.dist[rank]
    }

    /// The optimal length of a board: the least of its digits' distances.
    #[inline]
    pub fn board_distance(&self, masks: &Masks) -> u8 {
        let [a, b, c] = masks.map(|m| self.distance(m));
        a.min(b).min(c)
    }

    /// The largest placement distance.
    pub fn max_distance(&self) -> u8 {
        self.dist.iter().copied().max().unwrap_or(0)
    }

    /// How many placements lie at each distance 0..=max.
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = vec![0u64; usize::from(self.max_distance()) + 1];
        for &d in self.dist.iter() {
            counts[usize::from(d)] += 1;
        }
        counts
    }

    /// The dense table itself, indexed by rank.
    pub fn table(&self) -> &[u8] {
        &self.dist
    }

    /// The lexicographically smallest shortest move sequence for a board, by
    /// greedy descent: the first move A..H after which the exact distance
    /// drops by one is the first letter of the smallest optimal string.
    pub fn lexmin_moves(&self, masks: &Masks) -> Vec<Move> {
        let mut moves = Vec::new();
        self.descend(masks, |m| moves.push(m));
        moves
    }

    /// The greedy descent of [`Pdb::lexmin_moves`], each move handed to
    /// `visit` as it is chosen (nothing allocated); returns the digit (1..=3)
    /// that fills the centre at the end.
    ///
    /// A move changes a placement's distance by at most one, so only a digit
    /// at the board's distance can lead the descent, and one that fails to
    /// drop with a move never catches up: only those "live" digits are
    /// followed. The first move of the smallest string is the lowest move in
    /// the union of the live digits' `down` sets; a distance table is exact,
    /// so every placement not in the centre has one.
    #[inline]
    pub fn descend(&self, masks: &Masks, mut visit: impl FnMut(Move)) -> u8 {
        let mut masks = *masks;
        let mut ranks = masks.map(rank);
        let dist = ranks.map(|r| self.dist[r]);
        let mut left = dist[0].min(dist[1]).min(dist[2]);
        let mut live: u8 = (0..3)
            .filter(|&d| dist[d] == left)
            .fold(0, |l, d| l | 1 << d);
        while left > 0 {
            let down = (0..3)
                .filter(|d| live >> d & 1 == 1)
                .fold(0u8, |down, d| down | self.down[ranks[d]]);
            let Some(&m) = Move::ALL.get(down.trailing_zeros() as usize) else {
                break;
            };
            visit(m);
            left -= 1;
            let mut still = 0u8;
            for d in 0..3 {
                if live >> d & 1 == 1 {
                    masks[d] = move_mask(m, masks[d]);
                    ranks[d] = rank(masks[d]);
                    if self.dist[ranks[d]] == left {
                        still |= 1 << d;
                    }
                }
            }
            live = still;
        }
        // The live digit now fills the centre (at most one can).
        live.trailing_zeros() as u8 + 1
    }
}

const UNSEEN: u8 = u8::MAX;

/// Build the table: a breadth-first search over placements from the goal.
///
/// One bit per 24-bit mask (2 MiB, so it stays in L2) marks visits during
/// the search, so the inner loop is a move (three look-ups) and one bit test,
/// with no ranking; each placement is ranked once, when its level is
/// expanded, into the dense 735,471-byte table that lookups use. (A byte per
/// mask, 16 MiB, measured about 1.5× slower; ranking every neighbour about
/// 2× slower.) A second bit set holds the levels already expanded: when a
/// level is expanded, a neighbour in it is one step closer, so the same
/// loop records each placement's `down` moves.
pub fn build_pdb() -> Pdb {
    // Word 2i holds the "seen" bits of masks 64i..64i+63, word 2i+1 their
    // "below" bits, so both tests of a neighbour touch one cache line.
    let mut bits = vec![0u64; 2 * (1 << CELLS) / 64];
    let at = |mask: u32| (2 * (mask >> 6) as usize, 1u64 << (mask & 63));
    let mut dist = vec![UNSEEN; PLACEMENTS].into_boxed_slice();
    let mut down = vec![0u8; PLACEMENTS].into_boxed_slice();
    let mut frontier = vec![CENTRE_MASK];
    let (w, b) = at(CENTRE_MASK);
    bits[w] |= b;
    let mut previous: Vec<u32> = Vec::new();
    let mut level = 0u8;
    while !frontier.is_empty() {
        for &mask in &previous {
            let (w, b) = at(mask);
            bits[w + 1] |= b;
        }
        let mut next = Vec::with_capacity(frontier.len() * 3);
        for &mask in &frontier {
            let r = rank(mask);
            dist[r] = level;
            let mut closer = 0u8;
            for m in Move::ALL {
                let to = move_mask(m, mask);
                let (w, b) = at(to);
                // Branch-free: whether a neighbour is closer is a coin toss.
                closer |= u8::from(bits[w + 1] & b != 0) << m.index();
                if bits[w] & b == 0 {
                    bits[w] |= b;
                    next.push(to);
                }
            }
            down[r] = closer;
        }
        previous = std::mem::replace(&mut frontier, next);
        level += 1;
    }
    Pdb { dist, down }
}

/// The process-wide table, built on first use.
pub fn pdb() -> &'static Pdb {
    static PDB: OnceLock<Pdb> = OnceLock::new();
    PDB.get_or_init(build_pdb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_numeric_order_and_cover_the_range() {
        let mut count = 0;
        for (i, mask) in placements().enumerate() {
            assert_eq!(mask.count_ones(), 8);
            assert_eq!(rank(mask), i, "mask {mask:#x}");
            count += 1;
        }
        assert_eq!(count, PLACEMENTS);
        assert_eq!(BINOM[24][8] as usize, PLACEMENTS);
    }

    #[test]
    fn every_placement_is_reached_and_the_goal_is_zero() {
        let pdb = pdb();
        assert!(pdb.table().iter().all(|&d| d != UNSEEN));
        assert_eq!(pdb.distance(CENTRE_MASK), 0);
        let hist = pdb.histogram();
        assert_eq!(hist[0], 1);
        assert_eq!(hist.iter().sum::<u64>(), PLACEMENTS as u64);
        // A move changes one centre cell: 8 moves from the goal, each placing
        // one foreign cell in the centre, are 8 distinct placements at 1.
        assert_eq!(hist[1], 8);
    }

    #[test]
    fn down_moves_are_exactly_the_moves_that_lower_the_distance() {
        let pdb = pdb();
        for (r, mask) in placements().enumerate() {
            let d = pdb.distance_of_rank(r);
            let expected = Move::ALL
                .iter()
                .filter(|&&m| pdb.distance(move_mask(m, mask)) + 1 == d)
                .fold(0u8, |bits, m| bits | 1 << m.index());
            assert_eq!(pdb.down[r], expected, "{mask:#x} at distance {d}");
        }
    }

    /// The descent as first written: at each step try A..H on every digit
    /// at the board's distance, then look all three distances up again.
    fn descent_by_lookups(pdb: &Pdb, masks: &Masks) -> Vec<Move> {
        let mut masks = *masks;
        let mut dist = masks.map(|m| pdb.distance(m));
        let mut left = dist[0].min(dist[1]).min(dist[2]);
        let mut moves = Vec::new();
        while left > 0 {
            let m = Move::ALL
                .iter()
                .copied()
                .find(|&m| {
                    (0..3).any(|d| {
                        dist[d] == left && pdb.distance(move_mask(m, masks[d])) + 1 == left
                    })
                })
                .expect("an exact table always has a move down");
            moves.push(m);
            masks = masks.map(|x| move_mask(m, x));
            dist = masks.map(|x| pdb.distance(x));
            left -= 1;
        }
        moves
    }

    #[test]
    fn descent_by_down_sets_equals_descent_by_lookups() {
        use super::super::board::{Board, CENTRE};
        use super::super::generate::{board_of_length, random_board};
        use rand::SeedableRng;
        let pdb = pdb();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        let boards = (0..20_000)
            .map(|_| random_board(&mut rng))
            .chain((0..=13).flat_map(|len| {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(len));
                (0..200)
                    .map(|_| board_of_length(pdb, &mut rng, len))
                    .collect::<Vec<_>>()
            }))
            .collect::<Vec<Board>>();
        for board in boards {
            let masks = board.masks();
            let mut moves = Vec::new();
            let digit = pdb.descend(&masks, |m| moves.push(m));
            assert_eq!(
                moves,
                descent_by_lookups(pdb, &masks),
                "{}",
                board.to_line()
            );
            let mut end = board;
            for &m in &moves {
                end.apply(m);
            }
            assert_eq!(end.centre_digit(), Some(digit), "{}", board.to_line());
            assert!(CENTRE.iter().all(|&c| end.cells()[c] == digit));
        }
    }

    #[test]
    fn distances_are_consistent_with_moves() {
        // |d(x) - d(move x)| ≤ 1 and some move decreases d (except at 0).
        let pdb = pdb();
        for mask in placements().step_by(97) {
            let d = pdb.distance(mask);
            let around: Vec<u8> = Move::ALL
                .iter()
                .map(|&m| pdb.distance(move_mask(m, mask)))
                .collect();
            assert!(around.iter().all(|&e| e.abs_diff(d) <= 1), "{mask:#x}");
            if d > 0 {
                assert!(around.contains(&(d - 1)), "{mask:#x}");
            }
        }
    }
}
