//! Booksort distances: the exact number of block moves that sorts a shelf,
//! capped at [`FIVE_OR_MORE`], two ways, plus the whole-space ball for stats.
//!
//! - [`distance`], the reference: IDA* over block moves seen as swaps of two
//!   adjacent blocks (each of the C(n+1, 3) swaps once), with the bound
//!   ⌈wrong successors / 3⌉ counted over the n + 1 pairs of a shelf framed by
//!   a book 0 and a book n + 1, and that bound applied to every child before
//!   it is built: a swap changes only the three successor pairs at its cuts,
//!   so the child's bound costs O(1) and a child that cannot make it is never
//!   written down.
//! - [`classic_distance`], the seed's IDA* kept as it is (inner pairs only,
//!   each child copied and its bound recounted), as the benchmark's baseline
//!   and a second opinion in tests.
//!
//! Shelves here are slices of books `1..=n`, already validated (n ≤ 15).

/// The distance reported for a shelf that needs 5 moves or more.
pub const FIVE_OR_MORE: u8 = 5;

/// The deepest search: the statement only asks whether 4 moves suffice.
const LIMIT: u32 = 4;

/// The largest shelf (the statement's bound).
pub const MAX_BOOKS: usize = 15;

/// The framed shelf: `p[0] = 0`, the books in `p[1..=n]`, `p[n + 1] = n + 1`.
pub(super) type Framed = [u8; MAX_BOOKS + 2];

#[inline]
pub(super) fn good(a: u8, b: u8) -> u32 {
    u32::from(b == a.wrapping_add(1))
}

pub(super) fn frame(books: &[u8]) -> Framed {
    let n = books.len().min(MAX_BOOKS);
    let mut p = [0u8; MAX_BOOKS + 2];
    p[1..=n].copy_from_slice(&books[..n]);
    p[n + 1] = n as u8 + 1;
    p
}

/// Successor pairs `(p[i], p[i + 1])` of the framed shelf that are wrong.
fn wrong_pairs(p: &[u8]) -> u32 {
    p.windows(2).map(|w| 1 - good(w[0], w[1])).sum()
}

/// The lower bound [`distance`] uses: ⌈wrong successors / 3⌉ over the n + 1
/// pairs of the framed shelf (one move changes at most three pairs).
pub fn lower_bound(books: &[u8]) -> u32 {
    let p = frame(books);
    wrong_pairs(&p[..books.len() + 2]).div_ceil(3)
}

/// The least number of block moves that sorts `books` (0 to 4), or
/// [`FIVE_OR_MORE`].
pub fn distance(books: &[u8]) -> u8 {
    let n = books.len();
    if n > MAX_BOOKS {
        return FIVE_OR_MORE;
    }
    let p = frame(books);
    let wrong = wrong_pairs(&p[..n + 2]);
    // Limits below the root's bound cannot succeed: start at the bound.
    for limit in wrong.div_ceil(3)..=LIMIT {
        if sorts_within(&p, n, wrong, limit) {
            return limit as u8;
        }
    }
    FIVE_OR_MORE
}

/// The shelf with blocks `p[i..j]` and `p[j..k]` swapped (1 ≤ i < j < k ≤
/// 16): the books `p[1..17]` as one 128-bit number, the segment rotated by
/// shifts. (A slice rotation and back, as before, spent about a tenth of
/// the search in `memmove`.)
#[inline]
pub(super) fn swapped(p: &Framed, i: usize, j: usize, k: usize) -> Framed {
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&p[1..]);
    let x = u128::from_le_bytes(bytes);
    let (at, len, by) = (8 * (i - 1), 8 * (k - i), 8 * (j - i));
    // len ≤ 8 × 15 bits, so the shift stays below 128.
    let mask = (1u128 << len) - 1;
    let segment = x >> at & mask;
    let rotated = (segment >> by | segment << (len - by)) & mask;
    let y = (x & !(mask << at)) | rotated << at;
    let mut child = *p;
    child[1..].copy_from_slice(&y.to_le_bytes());
    child
}

/// Whether the framed shelf (with `wrong` wrong pairs) sorts in `depth` moves.
pub(super) fn sorts_within(p: &Framed, n: usize, wrong: u32, depth: u32) -> bool {
    if wrong == 0 {
        return true;
    }
    if depth == 0 {
        return false;
    }
    // A child may keep at most 3 wrong pairs per move it has left.
    let budget = 3 * (depth - 1);
    any_child(p, n, wrong, budget, |child, child_wrong| {
        sorts_within(child, n, child_wrong, depth - 1)
    })
}

/// Whether `visit` holds for some child of the framed shelf `p` (with
/// `wrong` wrong pairs) that keeps at most `budget` wrong pairs; children
/// that cannot are skipped before they are built. A child swaps the blocks
/// `p[i..j]` and `p[j..k]`: its wrong pairs are counted from the three cuts
/// alone. The search's and the meet-in-the-middle's one loop.
#[inline(always)]
pub(super) fn any_child(
    p: &Framed,
    n: usize,
    wrong: u32,
    budget: u32,
    mut visit: impl FnMut(&Framed, u32) -> bool,
) -> bool {
    for i in 1..n {
        let (before_i, at_i) = (p[i - 1], p[i]);
        for j in i + 1..=n {
            let (before_j, at_j) = (p[j - 1], p[j]);
            let kept = wrong + good(before_i, at_i) + good(before_j, at_j);
            let made = good(before_i, at_j);
            if kept - made > budget + 2 {
                // Even the best third cut (fixing one pair, breaking none) is too little.
                continue;
            }
            for k in j + 1..=n + 1 {
                let (before_k, at_k) = (p[k - 1], p[k]);
                let child = kept + good(before_k, at_k)
                    - made
                    - good(before_k, at_i)
                    - good(before_j, at_k);
                if child <= budget && visit(&swapped(p, i, j, k), child) {
                    return true;
                }
            }
        }
    }
    false
}

/// The seed's IDA* (the classic solution), kept for comparison: limits 0 to
/// 4 in turn, the bound ⌈wrong inner pairs / 3⌉ recounted at every node, and
/// every child built by copying before its bound is looked at.
pub fn classic_distance(books: &[u8]) -> u8 {
    let n = books.len();
    if n > MAX_BOOKS {
        return FIVE_OR_MORE;
    }
    let mut q = [0u8; MAX_BOOKS];
    q[..n].copy_from_slice(books);
    for limit in 0..=LIMIT {
        if classic_dfs(&mut q, n, 0, limit) {
            return limit as u8;
        }
    }
    FIVE_OR_MORE
}

fn classic_bound(q: &[u8]) -> u32 {
    let wrong: u32 = q.windows(2).map(|w| 1 - good(w[0], w[1])).sum();
    wrong.div_ceil(3)
}

fn classic_dfs(q: &mut [u8; MAX_BOOKS], n: usize, depth: u32, limit: u32) -> bool {
    let bound = classic_bound(&q[..n]);
    if depth + bound > limit {
        return false;
    }
    if bound == 0 {
        return true;
    }
    let saved = *q;
    // Take the block q[l..=r] and put it after q[k] (only forwards: moving
    // it backwards is the same as moving the block it jumps forwards).
    for len in 1..=n {
        for l in 0..=n - len {
            let r = l + len - 1;
            for k in r + 1..n {
                let mut y = l;
                for &book in &saved[r + 1..=k] {
                    q[y] = book;
                    y += 1;
                }
                for &book in &saved[l..=r] {
                    q[y] = book;
                    y += 1;
                }
                if classic_dfs(q, n, depth + 1, limit) {
                    return true;
                }
                *q = saved;
            }
        }
    }
    false
}

/// Rank of a permutation of `0..n` (Lehmer code), for tables over all n! shelves.
pub fn rank(perm: &[u8]) -> usize {
    let n = perm.len();
    let mut r = 0;
    for i in 0..n {
        let smaller_after = perm[i + 1..].iter().filter(|&&x| x < perm[i]).count();
        r = r * (n - i) + smaller_after;
    }
    r
}

/// The permutation of `0..n` with rank `r` (the inverse of [`rank`]).
pub fn unrank(mut r: usize, n: usize) -> Vec<u8> {
    let mut digits = vec![0usize; n];
    for i in (0..n).rev() {
        let base = n - i;
        digits[i] = r % base;
        r /= base;
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    digits.iter().map(|&d| free.remove(d)).collect()
}

pub fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// The capped distance of every shelf of `n` books (n ≤ 10), by rank of the
/// shelf with books written `0..n`: a breadth-first search from the sorted
/// shelf, 4 levels deep; the rest are [`FIVE_OR_MORE`].
pub fn distance_table(n: usize) -> Vec<u8> {
    let total = factorial(n);
    let mut table = vec![FIVE_OR_MORE; total];
    let sorted: Vec<u8> = (0..n as u8).collect();
    table[rank(&sorted)] = 0;
    let mut frontier = vec![sorted];
    for level in 1..=LIMIT as u8 {
        let mut next = Vec::new();
        for shelf in &frontier {
            let mut child = shelf.clone();
            for i in 0..n {
                for j in i + 1..n {
                    for k in j + 1..=n {
                        child[i..k].rotate_left(j - i);
                        let r = rank(&child);
                        if table[r] == FIVE_OR_MORE {
                            table[r] = level;
                            next.push(child.clone());
                        }
                        child[i..k].rotate_right(j - i);
                    }
                }
            }
        }
        frontier = next;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_sample_distances() {
        for d in [distance, classic_distance] {
            assert_eq!(d(&[1, 3, 4, 6, 2, 5]), 2);
            assert_eq!(d(&[5, 4, 3, 2, 1]), 3);
            assert_eq!(d(&[6, 8, 5, 3, 4, 7, 2, 9, 1, 10]), FIVE_OR_MORE);
            assert_eq!(d(&[1]), 0);
            assert_eq!(d(&[2, 1]), 1);
        }
    }

    #[test]
    fn rank_round_trips() {
        for r in 0..factorial(5) {
            assert_eq!(rank(&unrank(r, 5)), r);
        }
        assert_eq!(rank(&[0, 1, 2]), 0);
        assert_eq!(rank(&[2, 1, 0]), 5);
    }

    #[test]
    fn both_searches_agree_with_the_whole_space_table() {
        for n in 1..=7 {
            let table = distance_table(n);
            for (r, &want) in table.iter().enumerate() {
                let books: Vec<u8> = unrank(r, n).iter().map(|b| b + 1).collect();
                assert_eq!(distance(&books), want, "{books:?}");
                if r % 7 == 0 {
                    assert_eq!(classic_distance(&books), want, "{books:?}");
                }
            }
        }
    }

    #[test]
    fn bound_counts_the_frame() {
        // 2 1: pairs 0-2, 2-1, 1-3 are all wrong; the inner count sees one.
        assert_eq!(lower_bound(&[2, 1]), 1);
        assert_eq!(lower_bound(&[1, 2, 3]), 0);
        assert_eq!(lower_bound(&[3, 2, 1]), 2);
    }
}
