//! The swap game's state space: the 12,870 boards with 8 white pieces, the
//! 24 moves (swaps of two edge-adjacent cells), breadth-first distances to
//! a target, the smallest shortest sequence, and whole-space facts computed
//! once per symmetry class (the 8 symmetries of the square times swapping
//! the colours, which keep every distance).

use crate::puzzles::grid4::{FULL, Grid};
use std::sync::OnceLock;

/// A move: two adjacent cells `(a, b)`, `a < b` in reading order.
pub type Move = (u8, u8);

/// Boards with 8 white pieces: C(16, 8).
pub const BOARDS: usize = 12_870;

/// Not reached (yet) in a distance table.
pub const UNREACHED: u8 = u8::MAX;

/// The 24 moves, sorted as their 4-digit strings `r1c1r2c2`: for a fixed
/// first cell the right neighbour (`r c r c+1`) sorts before the one below
/// (`r c r+1 c`), which is the order of the second cell's index.
pub const MOVES: [Move; 24] = {
    let mut moves = [(0u8, 0u8); 24];
    let mut count = 0;
    let mut a = 0;
    while a < 16 {
        if a % 4 < 3 {
            moves[count] = (a, a + 1);
            count += 1;
        }
        if a < 12 {
            moves[count] = (a, a + 4);
            count += 1;
        }
        a += 1;
    }
    moves
};

/// The board after a move (unchanged when both cells hold the same colour).
#[inline]
pub fn apply(board: Grid, (a, b): Move) -> Grid {
    if (board >> a ^ board >> b) & 1 == 1 {
        board ^ (1 << a | 1 << b)
    } else {
        board
    }
}

/// The move as printed: `r1c1r2c2`, 1-based, cells in the order given.
pub fn move_text((a, b): Move) -> String {
    format!("{}{}{}{}", a / 4 + 1, a % 4 + 1, b / 4 + 1, b % 4 + 1)
}

/// Distance of every board to `target` (boards with another number of
/// white pieces stay [`UNREACHED`]).
pub fn distances_to(target: Grid) -> Box<[u8]> {
    let mut dist = vec![UNREACHED; 1 << 16].into_boxed_slice();
    dist[usize::from(target)] = 0;
    let mut queue = Vec::with_capacity(BOARDS);
    queue.push(target);
    let mut head = 0;
    while let Some(&board) = queue.get(head) {
        head += 1;
        let next = dist[usize::from(board)] + 1;
        for m in MOVES {
            let child = apply(board, m);
            if dist[usize::from(child)] == UNREACHED {
                dist[usize::from(child)] = next;
                queue.push(child);
            }
        }
    }
    dist
}

/// The lexicographically smallest shortest sequence from `start` to the
/// target of `dist`: at each step the first move (in [`MOVES`] order) after
/// which the distance drops by one. `None` when `start` is unreached. The
/// per-case search as first written, kept as [`shortest_shared`]'s oracle.
#[cfg(test)]
pub fn smallest_shortest(start: Grid, dist: &[u8]) -> Option<Vec<Move>> {
    let mut left = *dist.get(usize::from(start))?;
    if left == UNREACHED {
        return None;
    }
    let mut board = start;
    let mut moves = Vec::with_capacity(usize::from(left));
    while left > 0 {
        let m = MOVES
            .into_iter()
            .find(|&m| dist[usize::from(apply(board, m))] == left - 1)?;
        board = apply(board, m);
        moves.push(m);
        left -= 1;
    }
    Some(moves)
}

/// The smallest shortest sequence from `start` to `target` (both with 8
/// white pieces; `None` otherwise), the same as [`smallest_shortest`] over
/// [`distances_to`]`(target)`, read from tables shared by the whole
/// process: one per symmetry class of targets (the 16 symmetries of
/// [`transform`] keep every distance), built by one breadth-first search
/// the first time a case of the class asks. `judge run` over many swap
/// files, and its checker, then search once per class (at most 12,870 / 16
/// plus the fixed boards, about 830) instead of once per case and again per
/// check.
///
/// The descent tries the moves in [`MOVES`] order on the start board as
/// given; only the look-ups happen in the class's frame (the board and each
/// move mapped by the symmetry), so the answer is the one the per-case
/// search gives.
pub fn shortest_shared(start: Grid, target: Grid) -> Option<Vec<Move>> {
    if start.count_ones() != 8 || target.count_ones() != 8 {
        return None;
    }
    let (canonical, symmetry) = (0..16)
        .map(|s| (transform(target, s), s))
        .min()
        .unwrap_or((target, 0));
    let index = board_index();
    let table = class_table(canonical, index);
    let dist = |board: Grid| table[usize::from(index[usize::from(board)])];
    let map = &symmetries()[symmetry % 8];
    let mapped = MOVES.map(|(a, b)| (map[usize::from(a)], map[usize::from(b)]));
    let mut board = transform(start, symmetry);
    let mut left = dist(board);
    let mut moves = Vec::with_capacity(usize::from(left));
    while left > 0 {
        let i = (0..MOVES.len()).find(|&i| dist(apply(board, mapped[i])) == left - 1)?;
        board = apply(board, mapped[i]);
        moves.push(MOVES[i]);
        left -= 1;
    }
    Some(moves)
}

/// The index (0..[`BOARDS`]) of each board with 8 white pieces, in
/// increasing order; other entries are unused.
fn board_index() -> &'static [u16] {
    static INDEX: OnceLock<Box<[u16]>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = vec![0u16; 1 << 16].into_boxed_slice();
        for (i, board) in (0u16..).zip(all_boards()) {
            index[usize::from(board)] = i;
        }
        index
    })
}

/// The distances to a class's canonical target, by board index (12,870
/// bytes), made on first use.
fn class_table(canonical: Grid, index: &[u16]) -> &'static [u8] {
    /// One slot per board index; only canonical targets' slots fill.
    type Slots = Box<[OnceLock<Box<[u8]>>]>;
    static TABLES: OnceLock<Slots> = OnceLock::new();
    let tables = TABLES.get_or_init(|| (0..BOARDS).map(|_| OnceLock::new()).collect());
    tables[usize::from(index[usize::from(canonical)])].get_or_init(|| {
        let dist = distances_to(canonical);
        all_boards().map(|board| dist[usize::from(board)]).collect()
    })
}

/// Every board with 8 white pieces, in increasing order.
pub fn all_boards() -> impl Iterator<Item = Grid> {
    (0..=FULL).filter(|b| b.count_ones() == 8)
}

/// The 8 symmetries of the square as cell maps: cell `i` goes to `map[i]`.
fn symmetries() -> &'static [[u8; 16]; 8] {
    static MAPS: OnceLock<[[u8; 16]; 8]> = OnceLock::new();
    MAPS.get_or_init(|| {
        let mut maps = [[0u8; 16]; 8];
        for (s, map) in maps.iter_mut().enumerate() {
            for (i, cell) in map.iter_mut().enumerate() {
                let (r, c) = (i / 4, i % 4);
                let (r2, c2) = match s {
                    0 => (r, c),
                    1 => (c, 3 - r),
                    2 => (3 - r, 3 - c),
                    3 => (3 - c, r),
                    4 => (r, 3 - c),
                    5 => (3 - r, c),
                    6 => (c, r),
                    _ => (3 - c, 3 - r),
                };
                *cell = (4 * r2 + c2) as u8;
            }
        }
        maps
    })
}

fn image(board: Grid, map: &[u8; 16]) -> Grid {
    (0..16)
        .filter(|&i| board >> i & 1 == 1)
        .fold(0, |acc, i| acc | 1 << map[i])
}

/// A board under one of the 16 symmetries (index 0..16: the square's 8,
/// then the same with colours swapped).
pub fn transform(board: Grid, symmetry: usize) -> Grid {
    let maps = symmetries();
    let moved = image(board, &maps[symmetry % 8]);
    if symmetry >= 8 { !moved } else { moved }
}

/// One target per symmetry class, with the size of its class and the
/// distribution of distances from it (index = distance).
pub struct Class {
    pub representative: Grid,
    pub size: u64,
    pub lengths: Vec<u64>,
}

/// All symmetry classes of targets, computed once (about 800 searches).
pub fn classes() -> &'static [Class] {
    static CLASSES: OnceLock<Vec<Class>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let mut sizes: std::collections::BTreeMap<Grid, u64> = std::collections::BTreeMap::new();
        for board in all_boards() {
            let canonical = (0..16).map(|s| transform(board, s)).min().unwrap_or(board);
            *sizes.entry(canonical).or_default() += 1;
        }
        sizes
            .into_iter()
            .map(|(representative, size)| {
                let dist = distances_to(representative);
                let mut lengths = Vec::new();
                for board in all_boards() {
                    let d = usize::from(dist[usize::from(board)]);
                    if lengths.len() <= d {
                        lengths.resize(d + 1, 0);
                    }
                    lengths[d] += 1;
                }
                Class {
                    representative,
                    size,
                    lengths,
                }
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_the_24_adjacent_pairs_in_string_order() {
        let texts: Vec<String> = MOVES.iter().map(|&m| move_text(m)).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        assert_eq!(texts[0], "1112");
        assert_eq!(texts[1], "1121");
        assert_eq!(texts[23], "4344");
    }

    #[test]
    fn shared_tables_give_the_per_case_answer() {
        use rand::{RngExt, SeedableRng};
        let boards: Vec<Grid> = all_boards().collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        let mut targets: Vec<Grid> = (0..60)
            .map(|_| boards[rng.random_range(0..boards.len())])
            .collect();
        targets.extend([0x00ff, 0xff00, 0x5a5a, 0xa5a5, 0x0ff0, 0x3c3c]);
        for target in targets {
            let dist = distances_to(target);
            for _ in 0..200 {
                let start = boards[rng.random_range(0..boards.len())];
                assert_eq!(
                    shortest_shared(start, target),
                    smallest_shortest(start, &dist),
                    "{start:#06x} to {target:#06x}"
                );
            }
            assert_eq!(shortest_shared(target, target), Some(Vec::new()));
        }
        assert_eq!(shortest_shared(0x00ff, 0x01ff), None);
    }

    #[test]
    fn symmetries_keep_distances() {
        let a: Grid = 0x00ff;
        let b: Grid = 0x5a5a;
        let d = distances_to(b)[usize::from(a)];
        for s in 0..16 {
            let (ta, tb) = (transform(a, s), transform(b, s));
            assert_eq!(ta.count_ones(), 8);
            assert_eq!(distances_to(tb)[usize::from(ta)], d, "symmetry {s}");
        }
    }
}
