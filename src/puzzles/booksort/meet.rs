//! Booksort distances for files of many cases: meet in the middle.
//!
//! The costly question is whether 3 or 4 moves suffice (refuting the whole
//! depth-4 tree for a shelf that needs 5 or more). Moves are reversible, so
//! a shelf is within 4 moves of sorted exactly when some shelf two moves
//! from it is within 2 moves of sorted: the [`Ball`] of those is made once
//! per shelf size (at n = 15 at most 1 + 560 + 560² shelves, a few
//! milliseconds) and every case then searches two levels instead of four,
//! with the same O(1) bound on each child as [`super::search`]. Distances 0
//! to 2 are left to the IDA*, which finds them at once.
//!
//! Used by `solve` on files of [`MANY`] cases or more; a small file is not
//! worth the ball. Tests compare it with the IDA* on every shelf up to n = 7
//! and on random and hard shelves of 15.

use super::search::{
    FIVE_OR_MORE, Framed, MAX_BOOKS, any_child, frame, good, sorts_within, swapped,
};
use std::sync::OnceLock;

/// From this many cases in a file, `solve` meets in the middle.
pub const MANY: usize = 2_000;

/// The shelves of `n` books within two moves of sorted, as an
/// open-addressing set of their books packed 4 bits each (never 0).
pub struct Ball {
    slots: Box<[u64]>,
    shift: u32,
    /// One bit per hash value of [`FILTER_BITS`] bits, set for each member:
    /// most look-ups miss, and this 256 KiB stays in L2 where the slots
    /// (4 MiB at n = 15) do not.
    filter: Box<[u64]>,
}

const FILTER_BITS: u32 = 21;

fn key(p: &Framed, n: usize) -> u64 {
    (1..=n).fold(0, |k, i| k | u64::from(p[i]) << (4 * (i - 1)))
}

impl Ball {
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    fn filter_bit(key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(0xc2b2_ae3d_27d4_eb4f) >> (64 - FILTER_BITS);
        ((h >> 6) as usize, 1 << (h & 63))
    }

    fn insert(&mut self, key: u64) {
        let (word, bit) = Ball::filter_bit(key);
        self.filter[word] |= bit;
        let mask = self.slots.len() - 1;
        let mut at = self.slot(key);
        while self.slots[at] != 0 && self.slots[at] != key {
            at = (at + 1) & mask;
        }
        self.slots[at] = key;
    }

    fn contains(&self, key: u64) -> bool {
        let (word, bit) = Ball::filter_bit(key);
        if self.filter[word] & bit == 0 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut at = self.slot(key);
        loop {
            match self.slots[at] {
                0 => return false,
                k if k == key => return true,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Sorted, every shelf one move away, and every shelf two moves away.
    fn build(n: usize) -> Ball {
        let moves = (n + 1) * n * n.saturating_sub(1) / 6;
        let most = 1 + moves + moves * moves;
        let size = (most + most / 2).next_power_of_two().max(2);
        let mut ball = Ball {
            slots: vec![0; size].into_boxed_slice(),
            shift: 64 - size.trailing_zeros(),
            filter: vec![0; 1 << (FILTER_BITS - 6)].into_boxed_slice(),
        };
        let books: Vec<u8> = (1..=n as u8).collect();
        let sorted = frame(&books);
        ball.insert(key(&sorted, n));
        each_child(&sorted, n, |one| {
            ball.insert(key(&one, n));
            each_child(&one, n, |two| ball.insert(key(&two, n)));
        });
        ball
    }
}

/// Every shelf one block swap away from `p` (all C(n + 1, 3) swaps).
fn each_child(p: &Framed, n: usize, mut visit: impl FnMut(Framed)) {
    for i in 1..n {
        for j in i + 1..=n {
            for k in j + 1..=n + 1 {
                visit(swapped(p, i, j, k));
            }
        }
    }
}

/// The ball of shelves of `n` books (1 ≤ n ≤ 15), made on first use.
fn ball(n: usize) -> &'static Ball {
    static BALLS: [OnceLock<Ball>; MAX_BOOKS + 1] = [const { OnceLock::new() }; MAX_BOOKS + 1];
    BALLS[n].get_or_init(|| Ball::build(n))
}

/// The same number as [`super::distance`]: the least number of block moves
/// that sorts `books` (0 to 4), or [`FIVE_OR_MORE`].
pub fn distance(books: &[u8]) -> u8 {
    let n = books.len();
    if n > MAX_BOOKS || n == 0 {
        return super::distance(books);
    }
    let p = frame(books);
    let wrong: u32 = p[..n + 2].windows(2).map(|w| 1 - good(w[0], w[1])).sum();
    for limit in wrong.div_ceil(3)..=2 {
        if sorts_within(&p, n, wrong, limit) {
            return limit as u8;
        }
    }
    // More than 2: within 3 when a child is in the ball, within 4 when a
    // grandchild is. A shelf in the ball has at most 6 wrong pairs.
    let ball = ball(n);
    for (depth, answer) in [(1, 3), (2, 4)] {
        if wrong <= 6 + 3 * depth && reaches(&p, n, wrong, depth, ball) {
            return answer;
        }
    }
    FIVE_OR_MORE
}

/// Whether a shelf exactly `depth` moves from `p` (with `wrong` wrong
/// pairs) lies in the ball; children that cannot get there are skipped
/// before they are built, as in [`sorts_within`].
fn reaches(p: &Framed, n: usize, wrong: u32, depth: u32, ball: &Ball) -> bool {
    if depth == 0 {
        return ball.contains(key(p, n));
    }
    // A child may keep 6 wrong pairs plus 3 per move it has left.
    let budget = 6 + 3 * (depth - 1);
    any_child(p, n, wrong, budget, |child, child_wrong| {
        reaches(child, n, child_wrong, depth - 1, ball)
    })
}

#[cfg(test)]
mod tests {
    use super::super::search::{distance_table, unrank};
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    #[test]
    fn agrees_with_the_whole_space_table() {
        for n in 1..=7 {
            for (r, &want) in distance_table(n).iter().enumerate() {
                let books: Vec<u8> = unrank(r, n).iter().map(|b| b + 1).collect();
                assert_eq!(distance(&books), want, "{books:?}");
            }
        }
    }

    #[test]
    fn agrees_with_the_search_on_random_and_hard_shelves() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        for n in [8, 9, 10, 12, 15] {
            for _ in 0..400 {
                let mut books: Vec<u8> = (1..=n).collect();
                books.shuffle(&mut rng);
                assert_eq!(
                    distance(&books),
                    super::super::distance(&books),
                    "{books:?}"
                );
            }
        }
        let spec = crate::puzzles::GenSpec {
            count: 300,
            seed: 18,
            n: Some(13..=15),
            ..Default::default()
        };
        for moves in 0..=5 {
            let spec = crate::puzzles::GenSpec {
                moves: Some(moves..=moves),
                ..spec.clone()
            };
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(moves));
            for case in super::super::generate::generate(&spec, &mut rng).unwrap() {
                let books: Vec<u8> = case
                    .input
                    .split_whitespace()
                    .skip(1)
                    .map(|t| t.parse().unwrap())
                    .collect();
                let want = super::super::distance(&books);
                assert_eq!(distance(&books), want, "{books:?}");
                assert_eq!(want, moves as u8, "{books:?}");
            }
        }
    }
}
