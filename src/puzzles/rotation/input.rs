//! Reading case files: the strict validator (`judge validate`) and the
//! lenient reader the solver and the checker share.
//!
//! Both apply the same rules of docs/puzzles.md §1 "Valid input": 24 numbers a
//! case, each exactly `1`, `2` or `3`, eight of each, then the terminator
//! `0`, then nothing but white space. They differ in layout only:
//!
//! - [`validate`] reads line by line after [`check_plain_text`] (LF only, no
//!   CR, a final newline): a case is one line, the terminator is `0` alone on
//!   its line, and a blank line before the terminator is an error (a blank
//!   line in the middle of a case file is almost always a mistake; after the
//!   terminator blank lines are fine). Between numbers any run of spaces or
//!   tabs is accepted, as are leading and trailing ones: the statement does
//!   not fix the separator and published data (UVa 1343) uses double spaces.
//! - [`read_boards`] reads white-space separated tokens as `scanf` would: a
//!   case may span lines, CRLF and a missing final newline are fine.

use super::board::{Board, CELLS, Masks};
use crate::puzzles::reader::{self, FormatError, Pos, Token, Tokens, check_plain_text};

/// The digit of a token that must be `1`, `2` or `3`.
fn digit(token: &Token<'_>) -> Result<u8, FormatError> {
    match token.bytes {
        [d @ b'1'..=b'3'] => Ok(d - b'0'),
        [b'0'..=b'9', _, ..] if token.bytes.iter().all(u8::is_ascii_digit) => Err(
            FormatError::at_token(token, "expected a single digit 1, 2 or 3"),
        ),
        _ => Err(FormatError::at_token(token, "expected a digit 1, 2 or 3")),
    }
}

/// Validate a case file strictly; returns the number of cases.
pub fn validate(input: &[u8]) -> Result<usize, FormatError> {
    check_plain_text(input)?;
    let mut cases = 0;
    let mut ended = false;
    let mut last_line = 0;
    for line in reader::lines(input) {
        last_line = line.number;
        if ended {
            if let Some(token) = line.tokens().next() {
                return Err(FormatError::at_token(
                    &token,
                    "expected nothing after the terminator line 0",
                ));
            }
            continue;
        }
        if line.is_blank() {
            return Err(FormatError::at(
                Pos {
                    line: line.number,
                    column: 1,
                },
                "blank line before the terminator; expected a case line of 24 numbers or the terminator 0",
            ));
        }
        let mut tokens = line.tokens();
        if let (Some(first), None) = (tokens.next(), tokens.next())
            && first.is("0")
        {
            ended = true;
            continue;
        }
        validate_case_line(&line)?;
        cases += 1;
    }
    if !ended {
        return Err(FormatError::at(
            Pos {
                line: last_line + 1,
                column: 1,
            },
            "the input ends without the terminator: expected a line holding 0 alone",
        ));
    }
    Ok(cases)
}

/// One case line: the values first (in reading order), then how many, then
/// how many of each digit.
fn validate_case_line(line: &reader::Line<'_>) -> Result<(), FormatError> {
    let tokens: Vec<Token<'_>> = line.tokens().collect();
    let mut digits = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        match digit(token) {
            Ok(d) => digits.push(d),
            Err(e) if i == 0 && token.is("0") => {
                return Err(FormatError {
                    reason: format!("{} (the terminator 0 stands alone on its line)", e.reason),
                    ..e
                });
            }
            Err(e) => return Err(e),
        }
    }
    if let Some(extra) = tokens.get(CELLS) {
        return Err(FormatError::at_token(
            extra,
            format!("line holds {} numbers, expected {CELLS}", tokens.len()),
        ));
    }
    if tokens.len() < CELLS {
        return Err(FormatError::at(
            line.end_pos(),
            format!("line holds {} numbers, expected {CELLS}", tokens.len()),
        ));
    }
    let mut count = [0usize; 4];
    for &d in &digits {
        count[usize::from(d)] += 1;
    }
    let mut seen = [0usize; 4];
    for (token, &d) in tokens.iter().zip(&digits) {
        seen[usize::from(d)] += 1;
        if seen[usize::from(d)] == 9 {
            return Err(FormatError::at_token(
                token,
                format!(
                    "the digit {d} appears {} times, expected 8 of each (this is its 9th)",
                    count[usize::from(d)]
                ),
            ));
        }
    }
    Ok(())
}

/// Read the boards of a case file leniently (see the module doc), by the
/// same rules as [`validate`].
pub fn read_boards(input: &[u8]) -> Result<Vec<Board>, FormatError> {
    let mut tokens = Tokens::new(input);
    let mut boards = Vec::new();
    loop {
        let first = tokens.expect("a case of 24 numbers or the terminator 0")?;
        if first.is("0") {
            break;
        }
        let case = boards.len() + 1;
        let mut cells = [0u8; CELLS];
        cells[0] = digit(&first)?;
        for (i, cell) in cells.iter_mut().enumerate().skip(1) {
            let token = tokens.expect_with(|| format!("number {} of 24 of case {case}", i + 1))?;
            *cell = digit(&token)?;
        }
        let board = Board::new(cells).ok_or_else(|| {
            let mut count = [0usize; 4];
            for &d in &cells {
                count[usize::from(d)] += 1;
            }
            let (d, n) = (1..=3)
                .map(|d| (d, count[d]))
                .find(|&(_, n)| n > 8)
                .unwrap_or((1, count[1]));
            FormatError::at(
                first.pos,
                format!("case {case}: the digit {d} appears {n} times, expected 8 of each"),
            )
        })?;
        boards.push(board);
    }
    if let Some(token) = tokens.next() {
        return Err(FormatError::at_token(
            &token,
            "expected nothing after the terminator 0",
        ));
    }
    Ok(boards)
}

/// The digit masks of every board of a case file, for the solver: the same
/// boards as [`read_boards`], read faster when the file is laid out as
/// `judge gen` writes it.
///
/// The fast path takes lines of exactly 24 digits `1`..`3` with single
/// spaces between them, then the terminator `0` and only white space; it
/// builds the masks straight from the 48 bytes of a line. At the first byte
/// it does not expect it hands the whole file to [`read_boards`], so every
/// error and every unusual layout is read (and reported) by the one lenient
/// reader.
pub fn read_masks(input: &[u8]) -> Result<Vec<Masks>, FormatError> {
    match read_masks_fast(input) {
        Some(masks) => Ok(masks),
        None => Ok(read_boards(input)?.iter().map(Board::masks).collect()),
    }
}

/// One line as `judge gen` writes it: 47 bytes and a newline.
const LINE: usize = 2 * CELLS;

fn read_masks_fast(input: &[u8]) -> Option<Vec<Masks>> {
    let mut boards = Vec::with_capacity(input.len() / LINE);
    let mut lines = input.chunks_exact(LINE);
    let mut rest = input;
    for line in lines.by_ref() {
        if line[0] == b'0' {
            break;
        }
        boards.push(masks_of_line(line)?);
        rest = &rest[LINE..];
    }
    match rest {
        [b'0', tail @ ..] if tail.iter().all(|&b| reader::is_space(b)) => Some(boards),
        _ => None,
    }
}

/// `d d … d\n` (24 digits 1..=3, eight of each) as masks, or `None`.
#[inline]
fn masks_of_line(line: &[u8]) -> Option<Masks> {
    let mut masks = [0u32; 3];
    for (cell, pair) in line.chunks_exact(2).enumerate() {
        let separator = if cell + 1 == CELLS { b'\n' } else { b' ' };
        if pair[1] != separator {
            return None;
        }
        let digit = usize::from(pair[0].wrapping_sub(b'1'));
        *masks.get_mut(digit)? |= 1 << cell;
    }
    masks.iter().all(|m| m.count_ones() == 8).then_some(masks)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";

    fn rejects(input: &str) -> (usize, usize, String) {
        let e = validate(input.as_bytes()).unwrap_err();
        let pos = e.pos.expect("a position");
        (pos.line, pos.column, e.message())
    }

    #[test]
    fn accepts_the_sample_and_counts_cases() {
        let input = format!("{CASE}\n1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n");
        assert_eq!(validate(input.as_bytes()), Ok(2));
        assert_eq!(validate(b"0\n"), Ok(0));
        // White space after the terminator, and odd spacing inside a line.
        let input = format!(" {}\t\n0\n\n  \n", CASE.replace(' ', "  "));
        assert_eq!(validate(input.as_bytes()), Ok(1));
    }

    #[test]
    fn rejects_a_digit_out_of_range() {
        let input = format!("{}\n0\n", CASE.replacen("3", "4", 1));
        assert_eq!(
            rejects(&input),
            (1, 9, "found \"4\", expected a digit 1, 2 or 3".into())
        );
    }

    #[test]
    fn rejects_leading_zero_plus_sign_and_huge_numbers() {
        let input = format!("01{}\n0\n", &CASE[1..]);
        assert_eq!(
            rejects(&input),
            (
                1,
                1,
                "found \"01\", expected a single digit 1, 2 or 3".into()
            )
        );
        let input = format!("+1{}\n0\n", &CASE[1..]);
        assert_eq!(
            rejects(&input),
            (1, 1, "found \"+1\", expected a digit 1, 2 or 3".into())
        );
        let input = format!("{} {}\n0\n", &CASE[..45], "1".repeat(400));
        let (line, column, message) = rejects(&input);
        assert_eq!((line, column), (1, 47));
        assert!(
            message.ends_with("… (400 bytes), expected a single digit 1, 2 or 3"),
            "{message}"
        );
        let input = format!("{}x\n0\n", &CASE[..46]);
        assert_eq!(
            rejects(&input),
            (1, 47, "found \"x\", expected a digit 1, 2 or 3".into())
        );
    }

    #[test]
    fn rejects_a_case_line_starting_with_zero() {
        let input = format!("0 {CASE}\n0\n");
        let (line, column, message) = rejects(&input);
        assert_eq!((line, column), (1, 1));
        assert!(message.contains("stands alone"), "{message}");
    }

    #[test]
    fn rejects_too_few_and_too_many_numbers() {
        let input = format!("{}\n0\n", &CASE[..45]);
        assert_eq!(
            rejects(&input),
            (1, 46, "line holds 23 numbers, expected 24".into())
        );
        let input = format!("{CASE} 2\n0\n");
        assert_eq!(
            rejects(&input),
            (
                1,
                49,
                "found \"2\", line holds 25 numbers, expected 24".into()
            )
        );
    }

    #[test]
    fn rejects_nine_of_a_digit() {
        // The last 3 becomes a 2: nine 2s, seven 3s.
        let input = format!("{}2\n0\n", &CASE[..46]);
        assert_eq!(
            rejects(&input),
            (
                1,
                47,
                "found \"2\", the digit 2 appears 9 times, expected 8 of each (this is its 9th)"
                    .into()
            )
        );
    }

    #[test]
    fn rejects_a_missing_terminator() {
        let input = format!("{CASE}\n");
        assert_eq!(
            rejects(&input),
            (
                2,
                1,
                "the input ends without the terminator: expected a line holding 0 alone".into()
            )
        );
        assert_eq!(rejects("").0, 1);
    }

    #[test]
    fn rejects_text_after_the_terminator() {
        let input = format!("0\n\n{CASE}\n");
        assert_eq!(
            rejects(&input),
            (
                3,
                1,
                "found \"1\", expected nothing after the terminator line 0".into()
            )
        );
    }

    #[test]
    fn rejects_a_blank_line_before_the_terminator() {
        let input = format!("{CASE}\n\n0\n");
        let (line, column, message) = rejects(&input);
        assert_eq!((line, column), (2, 1));
        assert!(
            message.starts_with("blank line before the terminator"),
            "{message}"
        );
    }

    #[test]
    fn plain_text_rules_come_first() {
        let input = format!("{CASE}\r\n0\r\n");
        let (line, column, message) = rejects(&input);
        assert_eq!((line, column), (1, 48));
        assert!(message.contains("carriage return"), "{message}");
        assert_eq!(rejects(&format!("{CASE}\n0")).0, 2);
    }

    #[test]
    fn lenient_reader_takes_crlf_and_split_lines() {
        let split = CASE.replacen(' ', "\r\n", 5);
        let boards = read_boards(format!("{split}\r\n0").as_bytes()).unwrap();
        assert_eq!(boards.len(), 1);
        assert_eq!(boards[0].to_line(), CASE);
    }

    /// The fast path and the lenient reader agree on every input: the same
    /// boards, or the same error.
    fn both_readers(input: &str) -> Result<Vec<Masks>, FormatError> {
        let slow = read_boards(input.as_bytes()).map(|b| b.iter().map(Board::masks).collect());
        let fast = read_masks(input.as_bytes());
        assert_eq!(fast, slow, "{input:?}");
        fast
    }

    #[test]
    fn fast_reader_agrees_with_the_lenient_reader() {
        let other = "1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3";
        let two = format!("{CASE}\n{other}\n0\n");
        assert!(read_masks_fast(two.as_bytes()).is_some());
        assert_eq!(both_readers(&two).unwrap().len(), 2);
        assert!(read_masks_fast(b"0\n").is_some());
        for input in [
            format!("{CASE}\n0"),
            format!("{CASE}\n0\n\n  \t\n"),
            format!("{CASE}\n0\n{}", " ".repeat(100)),
            format!("{CASE}\r\n0\r\n"),
            format!("{CASE}\n 0\n"),
            format!("{}\n0\n", CASE.replacen(' ', "\n", 3)),
            format!("{}\n0\n", CASE.replacen(' ', "  ", 1)),
            format!("{}\n0\n", CASE.replacen('3', "4", 1)),
            format!("{}\n0\n", CASE.replacen('3', "0", 1)),
            format!("{}2\n0\n", &CASE[..46]),
            format!("{CASE}\n0\n5\n"),
            format!("{CASE}\n0 {CASE}\n"),
            format!("0 {CASE}\n0\n"),
            format!("{CASE}\n"),
            format!("{CASE}\n{CASE}"),
            format!("{CASE} 1\n0\n"),
            String::new(),
            "0".to_string(),
            "00\n".to_string(),
        ] {
            let _ = both_readers(&input);
        }
    }

    #[test]
    fn lenient_reader_keeps_the_rules() {
        let e = read_boards(format!("{CASE}\n").as_bytes()).unwrap_err();
        assert!(e.reason.contains("found the end of the file"), "{e}");
        let e = read_boards(format!("{}2\n0\n", &CASE[..46]).as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: case 1: the digit 2 appears 9 times, expected 8 of each"
        );
        let e = read_boards(format!("{CASE}\n0\n5\n").as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column 1: found \"5\", expected nothing after the terminator 0"
        );
        let e = read_boards(format!("{}\n0\n", &CASE[..45]).as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: found \"0\", expected a digit 1, 2 or 3"
        );
    }
}
