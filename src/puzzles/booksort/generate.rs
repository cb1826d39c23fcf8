//! Booksort case generation: shelves of a chosen size at an exact distance.
//!
//! Up to [`TABLE_MAX_N`] books the shelf is drawn uniformly from all shelves
//! at that distance (a whole-space table). Beyond, a shelf at distance K < 5
//! comes from K random block moves applied to the sorted shelf, kept when
//! its distance is exactly K; a `5 or more` shelf is made the hard way on
//! purpose: 5 to 7 random moves, kept only when the lower bound still says
//! 4 moves might do (so a search has to refute the whole depth-4 tree, the
//! case that tells a slow solution from a fast one), falling back to any
//! shelf at distance 5 or more if such shelves are too rare at this size.

use super::search::{self, FIVE_OR_MORE, MAX_BOOKS};
use crate::puzzles::{GenSpec, GeneratedCase, OptionError};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::ops::RangeInclusive;

/// Up to this size the generator samples from the whole-space table.
const TABLE_MAX_N: usize = 8;

/// The largest distance (capped at 5) of any shelf of `n` books, index n.
/// Checked against the whole-space table for n ≤ 9 in the tests; it can
/// only grow with n (drop the largest book from every shelf of a sorting
/// sequence and it still sorts the smaller shelf).
pub const MAX_DISTANCE: [u8; MAX_BOOKS + 1] = [0, 0, 1, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5];

/// How many random shelves the generator tries before giving up.
const ATTEMPTS: usize = 20_000;

/// The answer line for a distance.
pub fn answer_text(distance: u8) -> String {
    if distance >= FIVE_OR_MORE {
        "5 or more".to_string()
    } else {
        distance.to_string()
    }
}

fn range_text(r: &RangeInclusive<u32>) -> String {
    if r.start() == r.end() {
        r.start().to_string()
    } else {
        format!("{}..{}", r.start(), r.end())
    }
}

pub fn generate(spec: &GenSpec, rng: &mut ChaCha8Rng) -> Result<Vec<GeneratedCase>, OptionError> {
    let n_range = spec
        .n
        .clone()
        .unwrap_or(MAX_BOOKS as u32..=MAX_BOOKS as u32);
    let k_range = spec.moves.clone().unwrap_or(0..=u32::from(FIVE_OR_MORE));
    if n_range.is_empty() || *n_range.start() < 1 || *n_range.end() > MAX_BOOKS as u32 {
        return Err(OptionError::new(format!(
            "booksort --n {} is out of range: a shelf holds 1 to {MAX_BOOKS} books",
            range_text(&n_range)
        )));
    }
    if k_range.is_empty() || *k_range.end() > u32::from(FIVE_OR_MORE) {
        return Err(OptionError::new(format!(
            "booksort --moves {} is out of range: 0 to 4, or 5 for `5 or more`",
            range_text(&k_range)
        )));
    }
    // Each size with the distances it can have within the requested range.
    let choices: Vec<(usize, Vec<u8>)> = n_range
        .clone()
        .map(|n| {
            let n = n as usize;
            let ks = k_range
                .clone()
                .filter(|&k| k <= u32::from(MAX_DISTANCE[n]))
                .map(|k| k as u8)
                .collect();
            (n, ks)
        })
        .filter(|(_, ks): &(usize, Vec<u8>)| !ks.is_empty())
        .collect();
    if choices.is_empty() {
        let n = *n_range.end() as usize;
        let most = match MAX_DISTANCE[n] {
            FIVE_OR_MORE => "5 or more".to_string(),
            d => d.to_string(),
        };
        return Err(OptionError::new(format!(
            "booksort --moves {} is impossible with --n {}: every shelf of {n} book{} sorts in at most {most} move{}",
            range_text(&k_range),
            range_text(&n_range),
            if n == 1 { "" } else { "s" },
            if most == "1" { "" } else { "s" },
        )));
    }
    let mut tables: HashMap<usize, Vec<u8>> = HashMap::new();
    let mut cases = Vec::new();
    for _ in 0..spec.count {
        let (n, ks) = &choices[rng.random_range(0..choices.len())];
        let k = ks[rng.random_range(0..ks.len())];
        let shelf = if *n <= TABLE_MAX_N {
            let table = tables
                .entry(*n)
                .or_insert_with(|| search::distance_table(*n));
            from_table(table, *n, k, rng)
        } else {
            by_random_moves(*n, k, rng)?
        };
        let input = format!(
            "{n}\n{}",
            shelf
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
        cases.push(GeneratedCase {
            input,
            answer: answer_text(k),
            label: format!("n{n}-k{k}"),
        });
    }
    Ok(cases)
}

fn from_table(table: &[u8], n: usize, k: u8, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let ranks: Vec<usize> = (0..table.len()).filter(|&r| table[r] == k).collect();
    // MAX_DISTANCE (tested) guarantees at least one shelf at distance k.
    let r = ranks
        .get(rng.random_range(0..ranks.len().max(1)))
        .copied()
        .unwrap_or(0);
    search::unrank(r, n).iter().map(|b| b + 1).collect()
}

/// Apply `moves` random block moves to `shelf`.
fn shuffle_by_moves(shelf: &mut [u8], moves: usize, rng: &mut ChaCha8Rng) {
    let n = shelf.len();
    for _ in 0..moves {
        let i = rng.random_range(0..n - 1);
        let j = rng.random_range(i + 1..n);
        let k = rng.random_range(j + 1..=n);
        shelf[i..k].rotate_left(j - i);
    }
}

fn by_random_moves(n: usize, k: u8, rng: &mut ChaCha8Rng) -> Result<Vec<u8>, OptionError> {
    let sorted: Vec<u8> = (1..=n as u8).collect();
    if k == 0 {
        return Ok(sorted);
    }
    for _ in 0..ATTEMPTS {
        let mut shelf = sorted.clone();
        if k < FIVE_OR_MORE {
            shuffle_by_moves(&mut shelf, usize::from(k), rng);
            if search::distance(&shelf) == k {
                return Ok(shelf);
            }
        } else {
            let moves = rng.random_range(5..=7);
            shuffle_by_moves(&mut shelf, moves, rng);
            if search::lower_bound(&shelf) <= 4 && search::distance(&shelf) == FIVE_OR_MORE {
                return Ok(shelf);
            }
        }
    }
    if k == FIVE_OR_MORE {
        for _ in 0..ATTEMPTS {
            let mut shelf = sorted.clone();
            shelf.shuffle(rng);
            if search::distance(&shelf) == FIVE_OR_MORE {
                return Ok(shelf);
            }
        }
    }
    Err(OptionError::new(format!(
        "booksort: found no shelf of {n} books at distance {} in {ATTEMPTS} tries",
        answer_text(k)
    )))
}
