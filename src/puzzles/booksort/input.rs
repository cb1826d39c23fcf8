//! Reading booksort case files, strictly for the validator and leniently for
//! the solver and checker. Both apply the statement's rules: T ≥ 0 and
//! exactly T cases, 1 ≤ n ≤ 15, each shelf a permutation of 1..n, numbers
//! written in plain decimal (no sign, no leading zero).
//!
//! The strict layout: T alone on the first line, then per case n alone on a
//! line and the n books on the next, separated by single spaces, with no
//! space at either end of a line. After the T cases only blank lines (empty,
//! or spaces and tabs only) may follow, as editors often leave one; a blank
//! line inside the cases is an error. The lenient reader takes any white
//! space (CRLF included) between the same tokens.

use super::search::MAX_BOOKS;
use crate::puzzles::reader::{self, FormatError, Line, Pos, Token, Tokens};

/// The largest T we read: a bound that keeps the number honest, far above
/// any real file (no storage is reserved from it).
const MAX_CASES: u64 = 1_000_000_000;

/// A shelf: the books from left to right, held in place (a file of many
/// cases is read without an allocation per case). Derefs to the books.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Shelf {
    len: u8,
    books: [u8; MAX_BOOKS],
}

impl Shelf {
    /// A shelf of at most [`MAX_BOOKS`] books (any more are cut off).
    pub fn new(books: &[u8]) -> Shelf {
        let mut shelf = Shelf {
            len: 0,
            books: [0; MAX_BOOKS],
        };
        for &book in books.iter().take(MAX_BOOKS) {
            shelf.push(book);
        }
        shelf
    }

    fn push(&mut self, book: u8) {
        if let Some(slot) = self.books.get_mut(usize::from(self.len)) {
            *slot = book;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Shelf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.books[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for Shelf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

fn parse_n(token: &Token<'_>) -> Result<usize, FormatError> {
    Ok(token.parse_in(1, MAX_BOOKS as u64, "the number of books n")? as usize)
}

fn parse_t(token: &Token<'_>) -> Result<u64, FormatError> {
    token.parse_in(0, MAX_CASES, "the number of cases T")
}

/// Books of one shelf, checked as a permutation of `1..=n` as they come.
struct ShelfCheck {
    n: usize,
    books: Shelf,
    /// Where each book was first seen.
    seen: [Option<Pos>; MAX_BOOKS + 1],
    /// The first repeat: the book, where it was first seen, where again.
    repeat: Option<(u8, Pos, Pos)>,
}

impl ShelfCheck {
    fn new(n: usize) -> Self {
        ShelfCheck {
            n,
            books: Shelf::new(&[]),
            seen: [None; MAX_BOOKS + 1],
            repeat: None,
        }
    }

    fn push(&mut self, token: &Token<'_>) -> Result<(), FormatError> {
        let book = token.parse_in(1, self.n as u64, "a book number")? as u8;
        match self.seen[usize::from(book)] {
            Some(first) => {
                self.repeat.get_or_insert((book, first, token.pos));
            }
            None => self.seen[usize::from(book)] = Some(token.pos),
        }
        self.books.push(book);
        Ok(())
    }

    /// The shelf, or an error at the first repeat naming the missing books.
    fn finish(self, case: usize) -> Result<Shelf, FormatError> {
        let Some((book, first, again)) = self.repeat else {
            return Ok(self.books);
        };
        let missing: Vec<String> = (1..=self.n)
            .filter(|&b| self.seen[b].is_none())
            .map(|b| b.to_string())
            .collect();
        let missing = match missing.len() {
            1 => format!("book {} is missing", missing[0]),
            _ => format!("books {} are missing", missing.join(", ")),
        };
        Err(FormatError::new(
            Some(again),
            Some(reader::quote(book.to_string().as_bytes())),
            format!(
                "case {case}: book {book} appears twice (first at line {}, column {}) and {missing}; expected each of 1..{} once",
                first.line, first.column, self.n
            ),
        ))
    }
}

/// Validate a case file strictly; the number of cases.
pub fn validate(input: &[u8]) -> Result<usize, FormatError> {
    reader::check_plain_text(input)?;
    let mut lines = reader::lines(input);
    let mut last_line = 0;
    let mut next_line = |what: &dyn Fn() -> String| -> Result<Line<'_>, FormatError> {
        match lines.next() {
            Some(line) => {
                last_line = line.number;
                Ok(line)
            }
            None => Err(FormatError::at(
                Pos {
                    line: last_line + 1,
                    column: 1,
                },
                format!("expected {}, found the end of the file", what()),
            )),
        }
    };
    let first = next_line(&|| "the number of cases T".to_string())?;
    let t = single_field(&first, "the number of cases T", parse_t)?;
    for case in 1..=t as usize {
        let line = next_line(&|| format!("case {case} of {t} (a line with n)"))?;
        let n = single_field(&line, "n", parse_n)?;
        let line = next_line(&|| format!("the {n} books of case {case}"))?;
        let mut shelf = ShelfCheck::new(n);
        let mut fields = line.single_spaced_fields();
        for count in 0..n {
            match fields.next() {
                Some(field) => shelf.push(&field?)?,
                None => {
                    return Err(FormatError::at(
                        line.end_pos(),
                        format!("case {case}: expected {n} books on this line, found {count}"),
                    ));
                }
            }
        }
        if let Some(extra) = fields.next() {
            return Err(FormatError::at_token(
                &extra?,
                format!("case {case}: expected the end of the line after {n} books (n = {n})"),
            ));
        }
        shelf.finish(case)?;
    }
    for line in lines {
        if !line.is_blank() {
            let (pos, found) = match line.tokens().next() {
                Some(tok) => (tok.pos, tok.quoted()),
                None => (line.end_pos(), reader::quote(line.bytes)),
            };
            return Err(FormatError::new(
                Some(pos),
                Some(found),
                format!(
                    "expected nothing after the {t} cases T announced (only blank lines may follow)"
                ),
            ));
        }
    }
    Ok(t as usize)
}

/// A line that must hold exactly one field.
fn single_field<T>(
    line: &Line<'_>,
    what: &str,
    parse: impl Fn(&Token<'_>) -> Result<T, FormatError>,
) -> Result<T, FormatError> {
    let mut fields = line.single_spaced_fields();
    let Some(field) = fields.next() else {
        return Err(FormatError::at(
            line.end_pos(),
            format!("expected {what}, found an empty line"),
        ));
    };
    let value = parse(&field?)?;
    if let Some(extra) = fields.next() {
        return Err(FormatError::at_token(
            &extra?,
            format!("expected only {what} on this line"),
        ));
    }
    Ok(value)
}

/// Read a case file leniently (any white space, CRLF), by the same rules.
pub fn read(input: &[u8]) -> Result<Vec<Shelf>, FormatError> {
    let mut tokens = Tokens::new(input);
    let t = parse_t(&tokens.expect("the number of cases T")?)?;
    let mut shelves = Vec::new();
    for case in 1..=t as usize {
        let n = parse_n(&tokens.expect_with(|| format!("case {case} of {t} (n)"))?)?;
        let mut shelf = ShelfCheck::new(n);
        for i in 1..=n {
            shelf.push(&tokens.expect_with(|| format!("book {i} of {n} of case {case}"))?)?;
        }
        shelves.push(shelf.finish(case)?);
    }
    if let Some(extra) = tokens.next() {
        return Err(FormatError::at_token(
            &extra,
            format!("expected nothing after the {t} cases T announced"),
        ));
    }
    Ok(shelves)
}
