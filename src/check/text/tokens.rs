//! The token comparison of two streamed texts: white-space separated
//! tokens in lockstep, the first pair that differs named by its output
//! line and its place on that line.
//!
//! A token is held whole up to [`HOLD`] bytes (numbers are read from it
//! then); a longer one is compared where it lies in its text, from its
//! offset, so one token of a gigabyte costs two buffers. Decision: a
//! token longer than [`HOLD`] is never read as a number (no float
//! tolerance for a megabyte of digits); it is equal only when its bytes
//! are (or their ASCII case, when folding).

use super::FloatTolerance;
use crate::puzzles::reader::{SHOWN_TOKEN_BYTES, is_space};
use crate::text::format::plural;
use crate::text::stream::{Stream, Text};

/// The most of a token held in memory whole.
pub(super) const HOLD: usize = 1 << 20;

/// Where a token is and what of it is held.
struct Token {
    /// Its first byte's offset in its text.
    start: u64,
    /// Its line (1-based).
    line: usize,
    /// Its length in bytes.
    len: u64,
    /// Whether it is held whole (in the reader's `head`).
    whole: bool,
}

/// The tokens of a text, as they come.
struct Reader<'a> {
    text: Text<'a>,
    stream: Stream<'a>,
    line: usize,
    /// The current token's first [`HOLD`] bytes.
    head: Vec<u8>,
}

impl<'a> Reader<'a> {
    fn new(text: Text<'a>) -> Self {
        Reader {
            text,
            stream: text.stream(),
            line: 1,
            head: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<Token> {
        let (_, newlines) = self.stream.skip_while(is_space);
        self.line += newlines;
        let start = self.stream.offset();
        self.head.clear();
        let held = self
            .stream
            .take_while(|b| !is_space(b), &mut self.head, HOLD);
        if held == 0 {
            return None;
        }
        let (rest, _) = self.stream.skip_while(|b| !is_space(b));
        Some(Token {
            start,
            line: self.line,
            len: held as u64 + rest,
            whole: rest == 0,
        })
    }
}

/// Why the tokens of two texts do not agree.
pub(super) enum Mismatch {
    /// The first pair that differs.
    Differ(TokenDifference),
    /// A text could not be read through.
    Unreadable(String),
}

/// Where the output's tokens first part from the answer's: the WA
/// message. Tokens are quoted as messages show them.
#[derive(Debug, thiserror::Error)]
pub(in crate::check) enum TokenDifference {
    #[error(
        "output ends after {tokens} token{}; expected {expected} (answer line {line})",
        plural(*.tokens)
    )]
    OutputEnds {
        tokens: usize,
        expected: String,
        line: usize,
    },
    #[error(
        "extra output at line {line}: {found} (the answer has {tokens} token{})",
        plural(*.tokens)
    )]
    Extra {
        line: usize,
        found: String,
        tokens: usize,
    },
    /// The `token`th token of output line `line` differs (`difference`:
    /// "expected …, found …" and any tolerance).
    #[error("output line {line}, token {token}: {difference}")]
    Token {
        line: usize,
        token: usize,
        difference: String,
    },
}

/// Ok if all tokens agree, else the first pair that differs.
pub(super) fn tokens_match(
    expected: Text<'_>,
    found: Text<'_>,
    float: Option<FloatTolerance>,
    fold: bool,
) -> Result<(), Mismatch> {
    let mut exp = Reader::new(expected);
    let mut got = Reader::new(found);
    let result = walk(&mut exp, &mut got, float, fold);
    for (reader, which) in [(&mut exp, "answer"), (&mut got, "output")] {
        if let Some(e) = reader.stream.error() {
            return Err(Mismatch::Unreadable(format!(
                "cannot read the {which} through: {e}"
            )));
        }
    }
    result.map_err(Mismatch::Differ)
}

fn walk(
    exp: &mut Reader<'_>,
    got: &mut Reader<'_>,
    float: Option<FloatTolerance>,
    fold: bool,
) -> Result<(), TokenDifference> {
    let mut index = 0usize;
    let mut line_index = (0usize, 0usize); // (line, token number on that output line)
    loop {
        index += 1;
        match (exp.next(), got.next()) {
            (None, None) => return Ok(()),
            (Some(e), None) => {
                return Err(TokenDifference::OutputEnds {
                    tokens: index - 1,
                    expected: quote_held(&exp.head, e.len),
                    line: e.line,
                });
            }
            (None, Some(g)) => {
                return Err(TokenDifference::Extra {
                    line: g.line,
                    found: quote_held(&got.head, g.len),
                    tokens: index - 1,
                });
            }
            (Some(e), Some(g)) => {
                if line_index.0 != g.line {
                    line_index = (g.line, 0);
                }
                line_index.1 += 1;
                if let Some(difference) = differ(exp, &e, got, &g, float, fold) {
                    return Err(TokenDifference::Token {
                        line: g.line,
                        token: line_index.1,
                        difference,
                    });
                }
            }
        }
    }
}

/// How a pair of tokens differs ("expected "5", found "6""), or `None`.
fn differ(
    exp: &Reader<'_>,
    e: &Token,
    got: &Reader<'_>,
    g: &Token,
    float: Option<FloatTolerance>,
    fold: bool,
) -> Option<String> {
    if e.whole && g.whole {
        if token_equal(&exp.head, &got.head, float, fold) {
            return None;
        }
        let tolerance = match (float, parse_number(&exp.head), parse_number(&got.head)) {
            (Some(f), Some(a), Some(b)) => format!(
                " (difference {:e} is beyond the tolerance: absolute {:e}, relative {:e})",
                (a - b).abs(),
                f.absolute,
                f.relative
            ),
            _ => String::new(),
        };
        let (expected, found) = quote_pair(&exp.head, &got.head);
        return Some(format!("expected {expected}, found {found}{tolerance}"));
    }
    // One is longer than what is held: compared where they lie.
    let (et, gt) = (exp.text.from(e.start), got.text.from(g.start));
    let same = common_prefix(et, gt, e.len.min(g.len), false);
    let equal =
        e.len == g.len && (same == e.len || (fold && common_prefix(et, gt, e.len, true) == e.len));
    if equal {
        return None;
    }
    let (expected, found) = quote_long_pair(et, e.len, gt, g.len, same);
    Some(format!("expected {expected}, found {found}"))
}

/// How many of the first `max` bytes of two texts agree (ASCII case
/// folded when `fold`).
fn common_prefix(a: Text<'_>, b: Text<'_>, max: u64, fold: bool) -> u64 {
    let (mut a, mut b) = (a.stream(), b.stream());
    let mut same = 0u64;
    while same < max {
        let (ca, cb) = (a.chunk(), b.chunk());
        let n = (ca.len().min(cb.len()) as u64).min(max - same) as usize;
        if n == 0 {
            break;
        }
        let agree = ca[..n]
            .iter()
            .zip(&cb[..n])
            .take_while(|(x, y)| x == y || (fold && x.eq_ignore_ascii_case(y)))
            .count();
        same += agree as u64;
        if agree < n {
            break;
        }
        a.consume(n);
        b.consume(n);
    }
    same
}

/// Bytes quoted for a message: printable ASCII as is, everything else
/// escaped, cut after [`SHOWN_TOKEN_BYTES`] with a note of the length.
fn quote_held(head: &[u8], len: u64) -> String {
    let mut out = crate::puzzles::reader::quote(&head[..head.len().min(SHOWN_TOKEN_BYTES)]);
    if len > SHOWN_TOKEN_BYTES as u64 {
        out.push_str(&format!("… ({len} bytes)"));
    }
    out
}

/// Two differing tokens quoted for a message. Long tokens that agree
/// past what [`quote_held`] shows are quoted from a little before their
/// first difference instead, with its byte offset, so the message shows it.
pub(super) fn quote_pair(expected: &[u8], found: &[u8]) -> (String, String) {
    let same = expected
        .iter()
        .zip(found)
        .take_while(|(a, b)| a == b)
        .count();
    quote_long_pair(
        Text::Bytes(expected),
        expected.len() as u64,
        Text::Bytes(found),
        found.len() as u64,
        same as u64,
    )
}

/// [`quote_pair`] of two tokens where they lie: `len` bytes of each text,
/// the first `same` of which agree.
fn quote_long_pair(
    expected: Text<'_>,
    expected_len: u64,
    found: Text<'_>,
    found_len: u64,
    same: u64,
) -> (String, String) {
    const LEAD: u64 = 8;
    if same < SHOWN_TOKEN_BYTES as u64 {
        return (
            quote_held(&expected.head(SHOWN_TOKEN_BYTES), expected_len),
            quote_held(&found.head(SHOWN_TOKEN_BYTES), found_len),
        );
    }
    let from = same - LEAD;
    let part = |token: Text<'_>, len: u64| {
        let to = len.min(from + SHOWN_TOKEN_BYTES as u64);
        let shown = token.read_range(from, (to - from) as usize);
        format!(
            "…{}{} ({} bytes, the first difference at byte {})",
            crate::puzzles::reader::quote(&shown),
            if to < len { "…" } else { "" },
            len,
            same + 1
        )
    };
    (part(expected, expected_len), part(found, found_len))
}

fn token_equal(expected: &[u8], found: &[u8], float: Option<FloatTolerance>, fold: bool) -> bool {
    if expected == found || (fold && expected.eq_ignore_ascii_case(found)) {
        return true;
    }
    match (float, parse_number(expected), parse_number(found)) {
        (Some(tol), Some(e), Some(f)) => tol.accepts(e, f),
        _ => false,
    }
}

/// A decimal number (`-1.5`, `2e-3`, `.5`); not `inf`, `nan` or hex.
fn parse_number(token: &[u8]) -> Option<f64> {
    let first = *token.first()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return None;
    }
    if !token
        .iter()
        .all(|&b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
    {
        return None;
    }
    let v: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    v.is_finite().then_some(v)
}
