//! The ways to finish a board once one digit's placement is fixed: the 16
//! cells outside it split into two placements of eight, C(16,8) = 12,870
//! ways.
//!
//! A split is a 16-bit mask `x` over the free cells in increasing order (bit
//! `j` = the `j`-th free cell). [`Splits`] turns `x` into a cell mask and
//! into the rank of that cell mask without building it, by two byte
//! look-ups each (a software `pdep` and a rank table specialised to these
//! cells); the complementary split is `!x`. Used by `stats`, which walks all
//! splits of every placement, and by `generate`, which looks for a split
//! with given distances. Knows nothing of distances itself.

use super::board::CELLS;
use super::pdb::BINOM;

/// All 24 cells.
pub const FULL: u32 = (1 << CELLS) - 1;

/// Look-up tables for the splits of the cells outside one placement.
pub struct Splits {
    /// The free cells, low to high.
    free: [u8; 16],
    /// Cell mask of the low/high byte of `x`.
    mask_lo: [u32; 256],
    mask_hi: [u32; 256],
    /// Rank contribution of the low byte; of the high byte given how many
    /// bits the low byte holds (see `pdb::rank`).
    rank_lo: [u32; 256],
    rank_hi: [[u32; 256]; 9],
}

impl Splits {
    /// The tables for the cells outside `placement` (which must hold 8 of
    /// the 24 cells).
    pub fn new(placement: u32) -> Box<Splits> {
        let free_mask = !placement & FULL;
        let mut free = [0u8; 16];
        let mut bits = free_mask;
        for slot in &mut free {
            // A placement of other than 8 cells gives meaningless tables, not a panic.
            *slot = bits.trailing_zeros().min(23) as u8;
            bits &= bits.wrapping_sub(1);
        }
        let mut s = Box::new(Splits {
            free,
            mask_lo: [0; 256],
            mask_hi: [0; 256],
            rank_lo: [0; 256],
            rank_hi: [[0; 256]; 9],
        });
        // Each entry extends the one without its top bit; that bit is the
        // `count`-th set bit, so it adds C(cell, count) to the rank.
        for v in 1usize..256 {
            let top = v.ilog2() as usize;
            let rest = v ^ 1 << top;
            let count = v.count_ones() as usize;
            let lo_cell = usize::from(s.free[top]);
            let hi_cell = usize::from(s.free[8 + top]);
            s.mask_lo[v] = s.mask_lo[rest] | 1 << lo_cell;
            s.mask_hi[v] = s.mask_hi[rest] | 1 << hi_cell;
            s.rank_lo[v] = s.rank_lo[rest] + BINOM[lo_cell][count];
            for before in 0..=8 {
                let k = before + count;
                let add = if k <= 8 { BINOM[hi_cell][k] } else { 0 };
                s.rank_hi[before][v] = s.rank_hi[before][rest] + add;
            }
        }
        s
    }

    /// The free cells, low to high.
    pub fn free_cells(&self) -> &[u8; 16] {
        &self.free
    }

    /// The cell mask of split `x`.
    #[inline]
    pub fn mask(&self, x: u16) -> u32 {
        self.mask_lo[usize::from(x & 0xff)] | self.mask_hi[usize::from(x >> 8)]
    }

    /// The rank of the cell mask of split `x` (`x` must hold 8 bits).
    #[inline]
    pub fn rank(&self, x: u16) -> usize {
        let lo = usize::from(x & 0xff);
        let before = (x & 0xff).count_ones() as usize;
        (self.rank_lo[lo] + self.rank_hi[before][usize::from(x >> 8)]) as usize
    }

    /// The rank contribution of the low byte of a split: with
    /// [`Splits::rank_high`], the inner loop of `stats`, which already knows
    /// how many bits the low byte holds.
    #[inline]
    pub fn rank_low(&self, lo: u8) -> usize {
        self.rank_lo[usize::from(lo)] as usize
    }

    /// The rank contribution of the high byte, `before` bits being set in
    /// the low byte.
    #[inline]
    pub fn rank_high(&self, before: usize, hi: u8) -> usize {
        self.rank_hi[before][usize::from(hi)] as usize
    }
}

/// Every 16-bit mask with 8 bits set, in increasing order (12,870).
pub fn all_splits() -> impl Iterator<Item = u16> {
    let mut next = Some(0xffu32);
    std::iter::from_fn(move || {
        let x = next?;
        next = super::pdb::next_combination(x).filter(|&m| m < 1 << 16);
        u16::try_from(x).ok()
    })
}

/// The bytes holding exactly `k` set bits, for `k` = 0..=8.
pub fn bytes_by_count() -> [Vec<u8>; 9] {
    let mut out: [Vec<u8>; 9] = Default::default();
    for b in 0..=255u8 {
        out[b.count_ones() as usize].push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::pdb::rank;
    use super::*;

    #[test]
    fn split_masks_and_ranks_match_the_plain_computation() {
        for placement in [
            0xff_u32,
            0xff_0000,
            0b1010_1010_0101_0101_0000_0000,
            super::super::board::CENTRE_MASK,
        ] {
            let s = Splits::new(placement);
            let mut count = 0;
            for x in all_splits() {
                let mask = s.mask(x);
                assert_eq!(mask & placement, 0);
                assert_eq!(mask.count_ones(), 8);
                assert_eq!(s.rank(x), rank(mask), "{placement:#x} {x:#x}");
                let other = s.mask(!x);
                assert_eq!(mask | other | placement, FULL);
                count += 1;
            }
            assert_eq!(count, 12_870);
        }
    }
}
