//! A 4×4 board of two-state cells, as the swap game (`0`/`1`), Flip Game
//! (`b`/`w`) and the Pilots Brothers' refrigerator (`-`/`+`) write it: one
//! board is 4 lines of 4 characters.
//!
//! For those puzzles this module reads boards, strictly (the validator) or
//! leniently (the solver and checker), and draws them as text or as a
//! [`Figure`]. It knows nothing of moves, flips or turns: what a cell means
//! is the puzzle's business.
//!
//! The strict reader's decision on trailing lines: after the last board only
//! blank lines (empty, or spaces and tabs only) may follow. Editors and
//! hand-made files often end with one; any other text is an error at its
//! first byte.

use super::reader::{self, FormatError, Pos, Tokens};
use super::{Figure, FigureCell};

/// A board: bit `4 * row + column` (0-based, reading order) is set where the
/// cell holds [`Symbols::set`].
pub type Grid = u16;

/// The 16 bits of a full board.
pub const FULL: Grid = 0xffff;

/// The bit of the cell at `row`, `column` (0-based).
pub const fn bit(row: usize, column: usize) -> Grid {
    1 << (4 * row + column)
}

/// The two characters a puzzle writes its cells with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbols {
    /// The character of a clear bit (`0`, `b`, `-`).
    pub clear: u8,
    /// The character of a set bit (`1`, `w`, `+`).
    pub set: u8,
}

impl Symbols {
    /// `` `0` or `1` ``, for messages.
    pub fn describe(self) -> String {
        format!("`{}` or `{}`", self.clear as char, self.set as char)
    }

    fn value(self, b: u8) -> Option<bool> {
        match b {
            _ if b == self.clear => Some(false),
            _ if b == self.set => Some(true),
            _ => None,
        }
    }

    fn char_of(self, grid: Grid, index: usize) -> char {
        if grid >> index & 1 == 1 {
            self.set as char
        } else {
            self.clear as char
        }
    }
}

/// What a board in a file is called in messages ("the start board").
pub type BoardName = &'static str;

/// Read boards strictly: [`reader::check_plain_text`], then exactly 4 lines
/// of exactly 4 symbols per board, then only blank lines.
pub fn read_strict(
    input: &[u8],
    names: &[BoardName],
    symbols: Symbols,
) -> Result<Vec<Grid>, FormatError> {
    reader::check_plain_text(input)?;
    let mut lines = reader::lines(input);
    let mut grids = Vec::with_capacity(names.len());
    let mut last_end = Pos { line: 1, column: 1 };
    for name in names {
        let mut grid: Grid = 0;
        for row in 0..4 {
            let Some(line) = lines.next() else {
                let wanted = 4 * names.len();
                return Err(FormatError::at(
                    Pos {
                        line: last_end.line + usize::from(!input.is_empty()),
                        column: 1,
                    },
                    format!(
                        "expected row {} of {name} (the file has {wanted} lines of 4 characters), found the end of the file",
                        row + 1
                    ),
                ));
            };
            last_end = line.end_pos();
            for (column, &b) in line.bytes.iter().enumerate().take(4) {
                let Some(value) = symbols.value(b) else {
                    return Err(FormatError::new(
                        Some(Pos {
                            line: line.number,
                            column: column + 1,
                        }),
                        Some(reader::quote(&[b])),
                        format!(
                            "expected {} (row {} of {name})",
                            symbols.describe(),
                            row + 1
                        ),
                    ));
                };
                if value {
                    grid |= bit(row, column);
                }
            }
            if line.bytes.len() < 4 {
                return Err(FormatError::at(
                    line.end_pos(),
                    format!(
                        "row {} of {name} has {} characters, expected 4",
                        row + 1,
                        line.bytes.len()
                    ),
                ));
            }
            if line.bytes.len() > 4 {
                return Err(FormatError::new(
                    Some(Pos {
                        line: line.number,
                        column: 5,
                    }),
                    Some(reader::quote(&line.bytes[4..])),
                    format!(
                        "expected the end of row {} of {name} after 4 characters",
                        row + 1
                    ),
                ));
            }
        }
        grids.push(grid);
    }
    for line in lines {
        if !line.is_blank() {
            let token = line.tokens().next();
            let (pos, found) = match token {
                Some(t) => (t.pos, t.quoted()),
                None => (line.end_pos(), reader::quote(line.bytes)),
            };
            return Err(FormatError::new(
                Some(pos),
                Some(found),
                format!(
                    "expected nothing after {} (only blank lines may follow)",
                    names.last().unwrap_or(&"the board")
                ),
            ));
        }
    }
    Ok(grids)
}

/// Read boards leniently, as `cin >> ch` would: the cells are the non-space
/// bytes in order, however they are spread over lines (CRLF is white space).
/// The number of cells and the symbols are still checked, and nothing but
/// white space may follow the last board.
pub fn read_lenient(
    input: &[u8],
    names: &[BoardName],
    symbols: Symbols,
) -> Result<Vec<Grid>, FormatError> {
    let mut tokens = Tokens::new(input);
    let mut grids = Vec::with_capacity(names.len());
    let mut pending: Option<(reader::Token<'_>, usize)> = None;
    for name in names {
        let mut grid: Grid = 0;
        for index in 0..16 {
            let (token, offset) = match pending.take() {
                Some(p) => p,
                None => {
                    let pos = tokens.pos();
                    let Some(token) = tokens.next() else {
                        return Err(FormatError::at(
                            pos,
                            format!(
                                "expected cell {} of {name} ({} per board), found the end of the file",
                                index + 1,
                                symbols.describe()
                            ),
                        ));
                    };
                    (token, 0)
                }
            };
            let b = token.bytes[offset];
            let Some(value) = symbols.value(b) else {
                return Err(FormatError::new(
                    Some(Pos {
                        line: token.pos.line,
                        column: token.pos.column + offset,
                    }),
                    Some(reader::quote(&[b])),
                    format!(
                        "expected {} (row {} of {name})",
                        symbols.describe(),
                        index / 4 + 1
                    ),
                ));
            };
            if value {
                grid |= 1 << index;
            }
            if offset + 1 < token.bytes.len() {
                pending = Some((token, offset + 1));
            }
        }
        grids.push(grid);
    }
    let extra = match pending {
        Some((token, offset)) => Some((
            Pos {
                line: token.pos.line,
                column: token.pos.column + offset,
            },
            &token.bytes[offset..],
        )),
        None => tokens.next().map(|t| (t.pos, t.bytes)),
    };
    if let Some((pos, bytes)) = extra {
        return Err(FormatError::new(
            Some(pos),
            Some(reader::quote(bytes)),
            format!(
                "expected nothing after {}",
                names.last().unwrap_or(&"the board")
            ),
        ));
    }
    Ok(grids)
}

/// The board as 4 lines of 4 symbols, without a final newline.
pub fn render(grid: Grid, symbols: Symbols) -> String {
    let mut out = String::with_capacity(19);
    for row in 0..4 {
        if row > 0 {
            out.push('\n');
        }
        for column in 0..4 {
            out.push(symbols.char_of(grid, 4 * row + column));
        }
    }
    out
}

/// The board in one line, rows separated by `/` (`1111/0000/1110/0010`), for
/// one-line messages.
pub fn render_inline(grid: Grid, symbols: Symbols) -> String {
    render(grid, symbols).replace('\n', "/")
}

/// The board as a [`Figure`], the cells in `highlight` marked.
pub fn figure(title: impl Into<String>, grid: Grid, symbols: Symbols, highlight: Grid) -> Figure {
    let rows = (0..4)
        .map(|row| {
            (0..4)
                .map(|column| {
                    let index = 4 * row + column;
                    Some(FigureCell {
                        text: symbols.char_of(grid, index).to_string(),
                        highlight: highlight >> index & 1 == 1,
                    })
                })
                .collect()
        })
        .collect();
    Figure {
        title: title.into(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BITS: Symbols = Symbols {
        clear: b'0',
        set: b'1',
    };
    const TWO: &[BoardName] = &["the start board", "the target board"];

    fn err_at(e: &FormatError) -> (usize, usize) {
        let pos = e.pos.unwrap_or_default();
        (pos.line, pos.column)
    }

    #[test]
    fn strict_reads_boards_and_trailing_blank_lines() {
        let input = b"1000\n0000\n0000\n0001\n0000\n0000\n0000\n0000\n\n \n";
        let grids = read_strict(input, TWO, BITS).unwrap();
        assert_eq!(grids, vec![bit(0, 0) | bit(3, 3), 0]);
    }

    #[test]
    fn strict_names_line_column_and_reason() {
        let e = read_strict(b"1000\n0x00\n", TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (2, 2));
        assert_eq!(
            e.message(),
            "found \"x\", expected `0` or `1` (row 2 of the start board)"
        );
        let e = read_strict(b"100\n", TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (1, 4));
        assert_eq!(
            e.reason,
            "row 1 of the start board has 3 characters, expected 4"
        );
        let e = read_strict(b"10001\n", TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (1, 5));
        assert!(e.reason.contains("after 4 characters"), "{e}");
        let e = read_strict(b"1000\n0000\n", TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (3, 1));
        assert!(e.reason.contains("row 3 of the start board"), "{e}");
        let e = read_strict(
            b"0000\n0000\n0000\n0000\n0000\n0000\n0000\n0000\n\n x\n",
            TWO,
            BITS,
        )
        .unwrap_err();
        assert_eq!(err_at(&e), (10, 2));
        assert!(e.reason.contains("nothing after the target board"), "{e}");
        let e = read_strict(b"0000\r\n", TWO, BITS).unwrap_err();
        assert!(e.reason.contains("carriage return"), "{e}");
    }

    #[test]
    fn lenient_reads_any_white_space_but_counts_cells() {
        let grids =
            read_lenient(b"1 000\r\n0000 00\n00 0001\r\n00000000 00000000", TWO, BITS).unwrap();
        assert_eq!(grids, vec![bit(0, 0) | bit(3, 3), 0]);
        let e = read_lenient(b"0000", TWO, BITS).unwrap_err();
        assert!(e.reason.contains("cell 5 of the start board"), "{e}");
        let e = read_lenient(&[b'0'; 33], TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (1, 33));
        let e = read_lenient(b"00 2", TWO, BITS).unwrap_err();
        assert_eq!(err_at(&e), (1, 4));
    }

    #[test]
    fn renders_and_draws() {
        let g = bit(0, 0) | bit(1, 2);
        assert_eq!(render(g, BITS), "1000\n0010\n0000\n0000");
        assert_eq!(render_inline(g, BITS), "1000/0010/0000/0000");
        let f = figure("reached", g, BITS, bit(1, 2));
        assert_eq!(
            f.to_text(),
            "reached:\n 1  0  0  0\n 0  0 [1] 0\n 0  0  0  0\n 0  0  0  0\n"
        );
    }
}
