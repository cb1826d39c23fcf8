//! The board of the Rotation Game: 24 cells in a `#`, the eight moves A..H
//! and the centre, exactly as docs/puzzles.md §1 numbers them.
//!
//! Two views of the same position: [`Board`] holds the digit of every cell
//! (what files hold and figures draw), [`Masks`] holds, for each digit, the
//! 24-bit set of cells where it stands (what the searches and the pattern
//! database work on, because a move then costs three table look-ups). This
//! module knows nothing of distances or files.

use crate::puzzles::{Figure, FigureCell};

/// The number of cells.
pub const CELLS: usize = 24;

/// The cells of each move's line, in the order of docs/puzzles.md's table (§1): a move
/// puts the value of each listed cell into the cell listed before it, and the
/// value of the first into the last.
pub const LINES: [[usize; 7]; 8] = [
    [0, 2, 6, 11, 15, 20, 22],    // A
    [1, 3, 8, 12, 17, 21, 23],    // B
    [10, 9, 8, 7, 6, 5, 4],       // C
    [19, 18, 17, 16, 15, 14, 13], // D
    [23, 21, 17, 12, 8, 3, 1],    // E
    [22, 20, 15, 11, 6, 2, 0],    // F
    [13, 14, 15, 16, 17, 18, 19], // G
    [4, 5, 6, 7, 8, 9, 10],       // H
];

/// The eight centre cells.
pub const CENTRE: [usize; 8] = [6, 7, 8, 11, 12, 15, 16, 17];

/// The centre as a cell mask.
pub const CENTRE_MASK: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < CENTRE.len() {
        mask |= 1 << CENTRE[i];
        i += 1;
    }
    mask
};

/// Where each cell stands in the 7×7 square around the `#` (row, column).
pub const CELL_POS: [(usize, usize); CELLS] = [
    (0, 2),
    (0, 4),
    (1, 2),
    (1, 4),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (3, 2),
    (3, 4),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 4),
    (4, 5),
    (4, 6),
    (5, 2),
    (5, 4),
    (6, 2),
    (6, 4),
];

/// One of the moves A..H, as its index 0..8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u8);

impl Move {
    /// A..H in order: the order in which every search tries them.
    pub const ALL: [Move; 8] = [
        Move(0),
        Move(1),
        Move(2),
        Move(3),
        Move(4),
        Move(5),
        Move(6),
        Move(7),
    ];

    /// The move of a letter `A`..`H`.
    pub fn from_letter(letter: u8) -> Option<Move> {
        letter.checked_sub(b'A').filter(|&i| i < 8).map(Move)
    }

    pub fn letter(self) -> char {
        char::from(b'A' + self.0)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The move that undoes this one (A↔F, B↔E, C↔H, D↔G): the same line
    /// listed backwards.
    pub fn inverse(self) -> Move {
        const INVERSE: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];
        Move(INVERSE[self.index()])
    }

    pub fn cells(self) -> &'static [usize; 7] {
        &LINES[self.index()]
    }
}

/// A move sequence as letters (`""` for none).
pub fn letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// The digits 1, 2, 3 in the 24 cells, in cell order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

impl Default for Board {
    /// The statement's second sample: eight 1s, then eight 2s, then eight 3s.
    fn default() -> Board {
        Board {
            cells: std::array::from_fn(|i| (i / 8) as u8 + 1),
        }
    }
}

impl Board {
    /// A board from 24 digits 1..=3; `None` unless there are eight of each.
    pub fn new(cells: [u8; CELLS]) -> Option<Board> {
        let mut count = [0usize; 4];
        for &c in &cells {
            *count.get_mut(usize::from(c))? += 1;
        }
        (count[0] == 0 && count[1..] == [8, 8, 8]).then_some(Board { cells })
    }

    /// The board whose digit `d` stands on the cells of `masks[d - 1]`. The
    /// masks must partition the 24 cells into three sets of eight.
    pub fn from_masks(masks: &Masks) -> Option<Board> {
        let mut cells = [0u8; CELLS];
        for (cell, slot) in cells.iter_mut().enumerate() {
            for (d, mask) in (1u8..).zip(masks) {
                if mask >> cell & 1 == 1 {
                    *slot = d;
                }
            }
        }
        Board::new(cells)
    }

    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    pub fn apply(&mut self, m: Move) {
        let line = m.cells();
        let first = self.cells[line[0]];
        for i in 0..6 {
            self.cells[line[i]] = self.cells[line[i + 1]];
        }
        self.cells[line[6]] = first;
    }

    pub fn masks(&self) -> Masks {
        let mut masks = [0u32; 3];
        for (cell, &d) in self.cells.iter().enumerate() {
            masks[usize::from(d - 1)] |= 1 << cell;
        }
        masks
    }

    /// The digits in the centre cells, in the order of [`CENTRE`].
    pub fn centre(&self) -> [u8; 8] {
        CENTRE.map(|c| self.cells[c])
    }

    /// The digit filling the centre, if the centre is uniform.
    pub fn centre_digit(&self) -> Option<u8> {
        let centre = self.centre();
        centre.iter().all(|&d| d == centre[0]).then_some(centre[0])
    }

    /// The 24 digits separated by single spaces, as a case line.
    pub fn to_line(&self) -> String {
        let digits: Vec<String> = self.cells.iter().map(u8::to_string).collect();
        digits.join(" ")
    }

    /// The board drawn in its `#` shape, centre cells highlighted.
    pub fn figure(&self, title: impl Into<String>) -> Figure {
        let mut rows = vec![vec![None; 7]; 7];
        for (cell, &(r, c)) in CELL_POS.iter().enumerate() {
            rows[r][c] = Some(FigureCell {
                text: self.cells[cell].to_string(),
                highlight: CENTRE_MASK >> cell & 1 == 1,
            });
        }
        Figure {
            title: title.into(),
            rows,
        }
    }
}

/// For digits 1, 2, 3 (indices 0, 1, 2): the cells holding that digit.
pub type Masks = [u32; 3];

/// Where a move sends the content of each cell.
const fn destinations(line: &[usize; 7]) -> [usize; CELLS] {
    let mut dest = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        dest[c] = c;
        c += 1;
    }
    let mut i = 0;
    while i < 6 {
        dest[line[i + 1]] = line[i];
        i += 1;
    }
    dest[line[0]] = line[6];
    dest
}

/// `MASK_MOVES[m][k][b]`: the image under move `m` of the cells of byte `k`
/// of a mask whose byte `k` is `b`. A move then costs three look-ups and two
/// ORs on a mask, whatever it holds.
static MASK_MOVES: [[[u32; 256]; 3]; 8] = {
    let mut table = [[[0u32; 256]; 3]; 8];
    let mut m = 0;
    while m < 8 {
        let dest = destinations(&LINES[m]);
        let mut k = 0;
        while k < 3 {
            let mut b = 0;
            while b < 256 {
                let mut image = 0u32;
                let mut j = 0;
                while j < 8 {
                    if b >> j & 1 == 1 {
                        image |= 1 << dest[8 * k + j];
                    }
                    j += 1;
                }
                table[m][k][b] = image;
                b += 1;
            }
            k += 1;
        }
        m += 1;
    }
    table
};

/// A set of cells after move `m`.
#[inline]
pub fn move_mask(m: Move, mask: u32) -> u32 {
    let t = &MASK_MOVES[m.index()];
    t[0][(mask & 0xff) as usize]
        | t[1][(mask >> 8 & 0xff) as usize]
        | t[2][(mask >> 16 & 0xff) as usize]
}

/// All three digit masks after move `m`.
#[inline]
pub fn move_masks(m: Move, masks: &Masks) -> Masks {
    masks.map(|mask| move_mask(m, mask))
}

/// The eight symmetries of the `#` (the dihedral group of the square), as
/// cell permutations: `SYMMETRIES[g][c]` is the image of cell `c`. Each maps
/// every move line onto a move line (possibly reversed, i.e. onto the
/// inverse move) and the centre onto itself, so distances are invariant.
pub fn symmetries() -> [[usize; CELLS]; 8] {
    let mut cell_at = [[None; 7]; 7];
    for (cell, &(r, c)) in CELL_POS.iter().enumerate() {
        cell_at[r][c] = Some(cell);
    }
    type Map = fn(usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |r, c| (r, c),
        |r, c| (c, 6 - r),
        |r, c| (6 - r, 6 - c),
        |r, c| (6 - c, r),
        |r, c| (r, 6 - c),
        |r, c| (6 - r, c),
        |r, c| (c, r),
        |r, c| (6 - c, 6 - r),
    ];
    maps.map(|f| {
        let mut perm = [0; CELLS];
        for (cell, &(r, c)) in CELL_POS.iter().enumerate() {
            let (r2, c2) = f(r, c);
            // The `#` is symmetric, so the image is always a cell.
            perm[cell] = cell_at[r2][c2].unwrap_or(cell);
        }
        perm
    })
}

/// A cell mask under a cell permutation.
pub fn permute_mask(perm: &[usize; CELLS], mask: u32) -> u32 {
    perm.iter()
        .enumerate()
        .filter(|&(cell, _)| mask >> cell & 1 == 1)
        .fold(0, |acc, (_, &to)| acc | 1 << to)
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

    fn play(b: &mut Board, moves: &str) {
        for &l in moves.as_bytes() {
            b.apply(Move::from_letter(l).unwrap());
        }
    }

    #[test]
    fn statement_sample_moves_reach_the_stated_centre() {
        let mut b = board("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3");
        assert_eq!(b.centre_digit(), None);
        play(&mut b, "A");
        assert_eq!(b.centre_digit(), None);
        play(&mut b, "C");
        assert_eq!(b.centre_digit(), Some(2));
        let mut b = board("1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3");
        play(&mut b, "DDH");
        assert_eq!(b.centre_digit(), None);
        play(&mut b, "H");
        assert_eq!(b.centre_digit(), Some(2));
    }

    #[test]
    fn a_move_shifts_values_towards_the_first_listed_cell() {
        // Values 1..=24 are not a legal board; check the shift on raw cells.
        let mut b = Board {
            cells: std::array::from_fn(|i| i as u8),
        };
        b.apply(Move::from_letter(b'A').unwrap());
        assert_eq!(b.cells[0], 2);
        assert_eq!(b.cells[2], 6);
        assert_eq!(b.cells[20], 22);
        assert_eq!(b.cells[22], 0);
        assert_eq!(b.cells[1], 1);
    }

    #[test]
    fn inverses_undo_and_lines_are_reversed() {
        let start = board("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3");
        for m in Move::ALL {
            let mut b = start;
            b.apply(m);
            assert_ne!(b, start, "{}", m.letter());
            b.apply(m.inverse());
            assert_eq!(b, start, "{}", m.letter());
            let mut reversed = *m.cells();
            reversed.reverse();
            assert_eq!(&reversed, m.inverse().cells());
        }
        let pairs: String = Move::ALL.iter().map(|m| m.inverse().letter()).collect();
        assert_eq!(pairs, "FEHGBADC");
    }

    #[test]
    fn mask_moves_agree_with_board_moves() {
        let mut b = board("1 3 2 2 3 1 1 3 2 1 2 2 2 2 3 3 2 3 3 1 1 1 3 1");
        for (i, m) in "ABCDEFGHHGCAEB"
            .bytes()
            .map(|l| Move::from_letter(l).unwrap())
            .enumerate()
        {
            let before = b.masks();
            b.apply(m);
            assert_eq!(move_masks(m, &before), b.masks(), "step {i}");
        }
        assert_eq!(Board::from_masks(&b.masks()), Some(b));
    }

    #[test]
    fn letters_round_trip_and_reject_others() {
        assert_eq!(letters(&Move::ALL), "ABCDEFGH");
        for l in [b'@', b'I', b'a', b'0', 0xff] {
            assert_eq!(Move::from_letter(l), None);
        }
    }

    #[test]
    fn boards_need_eight_of_each_digit() {
        let mut cells = [1u8; CELLS];
        cells[8..16].fill(2);
        cells[16..].fill(3);
        assert!(Board::new(cells).is_some());
        cells[0] = 2;
        assert!(Board::new(cells).is_none());
        cells[0] = 4;
        assert!(Board::new(cells).is_none());
    }

    #[test]
    fn symmetries_map_lines_to_lines_and_fix_the_centre() {
        let lines: Vec<u32> = LINES
            .iter()
            .map(|l| l.iter().fold(0, |a, &c| a | 1 << c))
            .collect();
        let syms = symmetries();
        for perm in &syms {
            let mut seen = [false; CELLS];
            for &to in perm {
                seen[to] = true;
            }
            assert!(seen.iter().all(|&s| s), "a permutation");
            assert_eq!(permute_mask(perm, CENTRE_MASK), CENTRE_MASK);
            for &line in &lines {
                assert!(lines.contains(&permute_mask(perm, line)));
            }
        }
        let distinct: std::collections::HashSet<_> = syms.iter().collect();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn figure_is_the_hash_shape() {
        let b = board("1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3");
        let text = b.figure("start").to_text();
        let expected = "start:\n       1     1\n       1     1\n 1  1 [1][1][2] 2  2\n      [2]   [2]\n 2  2 [2][3][3] 3  3\n       3     3\n       3     3\n";
        assert_eq!(text, expected);
    }
}
