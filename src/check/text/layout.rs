//! The layout of two streamed texts whose tokens agree: equal lines once
//! trailing white space and trailing empty lines are ignored (`lines`), or
//! the same white space between, before and after the tokens (strict and
//! `exact`). Both walk the texts in lockstep, holding nothing.

use crate::puzzles::reader::is_space;
use crate::text::stream::{Stream, Text};

/// White space at the end of a line that `lines` ignores.
fn trailing(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// How two streams part: the bytes ahead agree up to here.
enum Part {
    /// Both at a newline.
    Newlines,
    /// They differ here (or one ended).
    Differ,
}

/// Pass the bytes both streams agree on, up to a newline in both.
fn pass_common_line(a: &mut Stream<'_>, b: &mut Stream<'_>) -> Part {
    loop {
        let (ca, cb) = (a.chunk(), b.chunk());
        let n = ca.len().min(cb.len());
        if n == 0 {
            return Part::Differ;
        }
        let agree = ca[..n]
            .iter()
            .zip(&cb[..n])
            .take_while(|(x, y)| x == y && **x != b'\n')
            .count();
        let newline = agree < n && ca[agree] == b'\n' && cb[agree] == b'\n';
        a.consume(agree);
        b.consume(agree);
        if newline {
            a.consume(1);
            b.consume(1);
            return Part::Newlines;
        }
        if agree < n {
            return Part::Differ;
        }
    }
}

/// Lines equal once trailing white space on each line and trailing empty
/// lines are ignored.
pub(super) fn lines_equal(expected: Text<'_>, found: Text<'_>) -> bool {
    let (mut a, mut b) = (expected.stream(), found.stream());
    loop {
        if let Part::Newlines = pass_common_line(&mut a, &mut b) {
            continue;
        }
        // Where they part, the rest of each line must be trailing space.
        a.skip_while(trailing);
        b.skip_while(trailing);
        match (a.peek(), b.peek()) {
            (Some(b'\n'), Some(b'\n')) => {
                a.consume(1);
                b.consume(1);
            }
            (None, None) => return true,
            // One text goes on: only empty lines may follow.
            (Some(b'\n'), None) => return only_space(&mut a),
            (None, Some(b'\n')) => return only_space(&mut b),
            _ => return false,
        }
    }
}

/// Whether the rest of a stream is white space.
fn only_space(s: &mut Stream<'_>) -> bool {
    s.skip_while(is_space);
    s.peek().is_none()
}

/// Same white space between, before and after the tokens (the tokens are
/// known to agree), i.e. a byte-level layout comparison that tolerates
/// float differences inside tokens.
pub(super) fn same_white_space(expected: Text<'_>, found: Text<'_>) -> bool {
    let (mut a, mut b) = (expected.stream(), found.stream());
    loop {
        // The white-space runs in lockstep.
        loop {
            let (ca, cb) = (a.chunk(), b.chunk());
            let n = ca.len().min(cb.len());
            let agree = ca[..n]
                .iter()
                .zip(&cb[..n])
                .take_while(|(x, y)| x == y && is_space(**x))
                .count();
            let at_a = ca.get(agree).copied();
            let at_b = cb.get(agree).copied();
            a.consume(agree);
            b.consume(agree);
            if agree < n || n == 0 {
                let space = |c: Option<u8>| c.is_some_and(is_space);
                // Both runs end here, or they differ.
                if space(at_a) || space(at_b) {
                    return false;
                }
                break;
            }
        }
        match (a.peek(), b.peek()) {
            (None, None) => return true,
            (Some(_), Some(_)) => {
                a.skip_while(|c| !is_space(c));
                b.skip_while(|c| !is_space(c));
            }
            _ => return false,
        }
    }
}
