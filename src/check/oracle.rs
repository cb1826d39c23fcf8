//! The comparisons as they were before they streamed (slices held
//! whole), kept as the oracle of a property test: the streamed ones, over
//! bytes and over files read in 7-byte chunks, give the same verdicts and
//! messages and the same diff.

#![allow(dead_code)]

use super::diff::first_hunk_of;
use super::text::{
    FloatTolerance, TextFinding, TextMode, TokenDifference, compare_folding as streamed,
};
use crate::puzzles::reader::{SHOWN_TOKEN_BYTES, Tokens, quote};
use crate::text::stream::Text;
use crate::text::whitespace::{LayoutDifference, visible, visible_cut};
use crate::verdict::Verdict;
use similar::{Algorithm, ChangeTag, capture_diff_slices, group_diff_ops};

const CONTEXT: usize = 2;
const WINDOW: usize = 40;
const LINE_WIDTH: usize = 100;
const LEAD: usize = 30;

fn compare(expected: &[u8], found: &[u8], mode: TextMode, strict: bool) -> TextFinding {
    compare_folding(expected, found, mode, strict, false)
}

/// [`compare`], with tokens that differ only in ASCII letter case equal
/// when `fold` (Kattis' default validator without `case_sensitive`); a
/// message quotes the tokens as written.
fn compare_folding(
    expected: &[u8],
    found: &[u8],
    mode: TextMode,
    strict: bool,
    fold: bool,
) -> TextFinding {
    // A UTF-8 byte order mark at the start is skipped, as testlib's readers
    // and Kattis' default validator skip it; under exact comparison (and
    // strict white space) a difference in it is named.
    let (expected, expected_bom) = without_bom(expected);
    let (found, found_bom) = without_bom(found);
    let bom_matters = matches!(mode, TextMode::Exact) || strict;
    let finding = compare_text(expected, found, mode, strict, fold);
    if finding.verdict == Verdict::Accepted && bom_matters && expected_bom != found_bom {
        let (has, lacks) = if found_bom {
            ("output", "answer")
        } else {
            ("answer", "output")
        };
        return TextFinding {
            verdict: Verdict::PresentationError,
            message: format!(
                "the {has} starts with a UTF-8 byte order mark (EF BB BF); the {lacks} does not"
            ),
        };
    }
    finding
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text without a leading UTF-8 byte order mark, and whether it had one.
fn without_bom(text: &[u8]) -> (&[u8], bool) {
    match text.strip_prefix(BOM) {
        Some(rest) => (rest, true),
        None => (text, false),
    }
}

fn compare_text(
    expected: &[u8],
    found: &[u8],
    mode: TextMode,
    strict: bool,
    fold: bool,
) -> TextFinding {
    let float = match mode {
        TextMode::Tokens(f) => f,
        _ => None,
    };
    if let Err(difference) = tokens_match(expected, found, float, fold) {
        return TextFinding {
            verdict: Verdict::WrongAnswer,
            message: difference.to_string(),
        };
    }
    // The tokens agree: only the layout can differ now.
    let layout_ok = match (mode, strict) {
        (TextMode::Tokens(_), false) => true,
        (TextMode::Lines, false) => lines_equal(expected, found),
        (TextMode::Exact, _) | (_, true) => same_white_space(expected, found),
    };
    if layout_ok {
        return TextFinding {
            verdict: Verdict::Accepted,
            message: "output matches the answer".to_string(),
        };
    }
    let message = match layout_difference(expected, found) {
        Some(d) => d.to_string(),
        None => "white space differs".to_string(),
    };
    TextFinding {
        verdict: Verdict::PresentationError,
        message,
    }
}

/// The first token pair that differs, as a message, or Ok if all agree.
fn tokens_match(
    expected: &[u8],
    found: &[u8],
    float: Option<FloatTolerance>,
    fold: bool,
) -> Result<(), TokenDifference> {
    let mut exp = Tokens::new(expected);
    let mut got = Tokens::new(found);
    let mut index = 0usize;
    let mut line_index = (0usize, 0usize); // (line, token number on that output line)
    loop {
        index += 1;
        match (exp.next(), got.next()) {
            (None, None) => return Ok(()),
            (Some(e), None) => {
                return Err(TokenDifference::OutputEnds {
                    tokens: index - 1,
                    expected: quote(e.bytes),
                    line: e.pos.line,
                });
            }
            (None, Some(g)) => {
                return Err(TokenDifference::Extra {
                    line: g.pos.line,
                    found: quote(g.bytes),
                    tokens: index - 1,
                });
            }
            (Some(e), Some(g)) => {
                if line_index.0 != g.pos.line {
                    line_index = (g.pos.line, 0);
                }
                line_index.1 += 1;
                if !token_equal(e.bytes, g.bytes, float, fold) {
                    let tolerance = match float {
                        Some(f)
                            if parse_number(e.bytes).is_some()
                                && parse_number(g.bytes).is_some() =>
                        {
                            format!(
                                " (difference {:e} is beyond the tolerance: absolute {:e}, relative {:e})",
                                (parse_number(e.bytes).unwrap_or(0.0)
                                    - parse_number(g.bytes).unwrap_or(0.0))
                                .abs(),
                                f.absolute,
                                f.relative
                            )
                        }
                        _ => String::new(),
                    };
                    let (expected, found) = quote_pair(e.bytes, g.bytes);
                    return Err(TokenDifference::Token {
                        line: g.pos.line,
                        token: line_index.1,
                        difference: format!("expected {expected}, found {found}{tolerance}"),
                    });
                }
            }
        }
    }
}

/// Two differing tokens quoted for a message. Long tokens that agree
/// past what [`quote`] shows are quoted from a little before their first
/// difference instead, with its byte offset, so the message shows it.
fn quote_pair(expected: &[u8], found: &[u8]) -> (String, String) {
    const LEAD: usize = 8;
    let same = expected
        .iter()
        .zip(found)
        .take_while(|(a, b)| a == b)
        .count();
    if same < SHOWN_TOKEN_BYTES {
        return (quote(expected), quote(found));
    }
    let from = same - LEAD;
    let part = |token: &[u8]| {
        let to = token.len().min(from + SHOWN_TOKEN_BYTES);
        format!(
            "…{}{} ({} bytes, the first difference at byte {})",
            quote(&token[from..to]),
            if to < token.len() { "…" } else { "" },
            token.len(),
            same + 1
        )
    };
    (part(expected), part(found))
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

/// Lines equal once trailing white space on each line and trailing empty
/// lines are ignored. Streams over both texts: no list of lines is made
/// (63 MiB of newlines made one of 63 million slices, 1 GiB).
fn lines_equal(expected: &[u8], found: &[u8]) -> bool {
    let mut exp = expected.split(|&b| b == b'\n').map(trim_end);
    let mut got = found.split(|&b| b == b'\n').map(trim_end);
    loop {
        match (exp.next(), got.next()) {
            (None, None) => return true,
            (Some(e), Some(g)) if e == g => {}
            (Some(_), Some(_)) => return false,
            // One text goes on: only empty lines may follow.
            (Some(e), None) => return e.is_empty() && exp.all(<[u8]>::is_empty),
            (None, Some(g)) => return g.is_empty() && got.all(<[u8]>::is_empty),
        }
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
        .map_or(0, |i| i + 1);
    &line[..end]
}

/// Same white space between, before and after the tokens (the tokens are
/// known to agree), i.e. a byte-level layout comparison that tolerates
/// float differences inside tokens.
fn same_white_space(expected: &[u8], found: &[u8]) -> bool {
    white_space_runs(expected).eq(white_space_runs(found))
}

/// The white-space runs of a text in order: before the first token, between
/// tokens, and after the last (each possibly empty).
fn white_space_runs(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    use crate::puzzles::reader::is_space;
    let mut at = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let start = at;
        while at < text.len() && is_space(text[at]) {
            at += 1;
        }
        let run = &text[start..at];
        if at == text.len() {
            done = true;
        } else {
            while at < text.len() && !is_space(text[at]) {
                at += 1;
            }
        }
        Some(run)
    })
}

/// A unified diff of `expected` (the answer) against `found` (the output),
/// or `None` when they are identical. Lines are compared whole and cut
/// only for display: a changed line longer than [`LINE_WIDTH`] is shown
/// around its first difference from the line it replaces, `…` marking
/// each cut end.
fn first_hunk(expected: &[u8], found: &[u8]) -> Option<String> {
    if expected == found {
        return None;
    }
    // Only the window is ever a list: the texts are walked as they are
    // (63 MiB of newlines once made two lists of 63 million lines).
    let first = lines(expected)
        .zip(lines(found))
        .take_while(|(a, b)| a == b)
        .count();
    let start = first.saturating_sub(CONTEXT);
    let old: Vec<&[u8]> = lines(expected).skip(start).take(WINDOW).collect();
    let new: Vec<&[u8]> = lines(found).skip(start).take(WINDOW).collect();
    // Whether a text has lines past the window.
    let beyond = |text: &[u8]| lines(text).nth(start + WINDOW).is_some();
    let (exp_beyond, got_beyond) = (beyond(expected), beyond(found));
    let ops = capture_diff_slices(Algorithm::Myers, &old, &new);
    let mut out = String::from("--- expected (answer)\n+++ found (output)\n");
    let Some(group) = group_diff_ops(ops, CONTEXT).into_iter().next() else {
        // The same lines: only the final newline differs.
        let which = if found.ends_with(b"\n") {
            "answer"
        } else {
            "output"
        };
        out.push_str(&format!("⏎ the {which} has no newline at its end\n"));
        return Some(out);
    };
    let (old_range, new_range) = match (group.first(), group.last()) {
        (Some(a), Some(b)) => (
            a.old_range().start..b.old_range().end,
            a.new_range().start..b.new_range().end,
        ),
        _ => return None,
    };
    out.push_str(&format!(
        "@@ -{},{} +{},{} @@\n",
        start + old_range.start + 1,
        old_range.len(),
        start + new_range.start + 1,
        new_range.len()
    ));
    for op in &group {
        // A replaced line's counterpart: the line at the same place in the
        // other side of the same change.
        let (olds, news) = (op.old_range(), op.new_range());
        for change in op.iter_changes(&old, &new) {
            let line = change.value();
            let (sign, other) = match change.tag() {
                ChangeTag::Delete => {
                    let i = change.old_index().unwrap_or(olds.start);
                    (
                        '-',
                        new.get(news.start + (i - olds.start))
                            .filter(|_| !news.is_empty()),
                    )
                }
                ChangeTag::Insert => {
                    let i = change.new_index().unwrap_or(news.start);
                    (
                        '+',
                        old.get(olds.start + (i - news.start))
                            .filter(|_| !olds.is_empty()),
                    )
                }
                ChangeTag::Equal => (' ', None),
            };
            let shown = match other {
                Some(other) => {
                    let at = line.iter().zip(*other).take_while(|(a, b)| a == b).count();
                    visible_around(line, at)
                }
                None => visible_cut(line, LINE_WIDTH),
            };
            out.push(sign);
            out.push_str(&shown);
            out.push('\n');
        }
    }
    let missing_end =
        |text: &[u8], beyond: bool| !text.is_empty() && !text.ends_with(b"\n") && !beyond;
    if missing_end(found, got_beyond) && !missing_end(expected, exp_beyond) {
        out.push_str("⏎ the output has no newline at its end\n");
    }
    if exp_beyond || got_beyond {
        out.push_str("… (diff cut: only the first differing hunk is shown)\n");
    }
    Some(out)
}

/// A line made visible and cut to [`LINE_WIDTH`] characters so that its
/// byte `at` (where it first differs from its counterpart) is in view.
/// Only bytes near `at` are made visible (each shown character comes from
/// at most 4 bytes): a line of a gigabyte costs what one of a kilobyte does.
fn visible_around(line: &[u8], at: usize) -> String {
    const SPAN: usize = 4 * (LINE_WIDTH + 2);
    let at = at.min(line.len());
    if line.len() > 2 * SPAN {
        // Longer than LINE_WIDTH shown characters, surely.
        if at < SPAN && visible(&line[..at]).chars().count() + LEAD < LINE_WIDTH {
            return visible_cut(line, LINE_WIDTH);
        }
        let lead = visible(&line[at.saturating_sub(4 * (LEAD + 2))..at]);
        let lead: String = lead
            .chars()
            .skip(lead.chars().count().saturating_sub(LEAD))
            .collect();
        let rest = visible(&line[at..line.len().min(at + SPAN)]);
        let room = LINE_WIDTH - 2 - lead.chars().count();
        let mut cut = format!("…{lead}");
        cut.extend(rest.chars().take(room));
        if rest.chars().count() > room || at + SPAN < line.len() {
            cut.push('…');
        }
        return cut;
    }
    let shown = visible(line);
    let total = shown.chars().count();
    if total <= LINE_WIDTH {
        return shown;
    }
    let before = visible(&line[..at]).chars().count();
    if before + LEAD < LINE_WIDTH {
        return visible_cut(line, LINE_WIDTH);
    }
    let from = before - LEAD;
    let mut cut = String::from("…");
    cut.extend(shown.chars().skip(from).take(LINE_WIDTH - 2));
    if from + LINE_WIDTH - 2 < total {
        cut.push('…');
    }
    cut
}

/// The lines of a text, a final newline ending the last one (no empty
/// line after it); none in an empty text.
fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .take(if text.is_empty() { 0 } else { usize::MAX })
}

fn layout_difference(expected: &[u8], found: &[u8]) -> Option<LayoutDifference> {
    if expected == found {
        return None;
    }
    // Line by line as they come: no list of lines (a text of 63 MiB of
    // newlines would make one of 63 million).
    let (mut exp_lines, mut found_lines) = (ended_lines(expected), ended_lines(found));
    let mut line = 0;
    loop {
        line += 1;
        let (e, f) = (exp_lines.next(), found_lines.next());
        if e.is_none() && f.is_none() {
            return None;
        }
        if e != f {
            return Some(LayoutDifference {
                line,
                expected: e.map(show).unwrap_or_else(|| "(no line)".to_string()),
                found: f.map(show).unwrap_or_else(|| "(no line)".to_string()),
            });
        }
    }
}

/// A line and whether it ended with `\n`.
type EndedLine<'a> = (&'a [u8], bool);

fn ended_lines(text: &[u8]) -> impl Iterator<Item = EndedLine<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        Some(match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                (line, true)
            }
            None => (std::mem::take(&mut rest), false),
        })
    })
}

fn show((line, ended): EndedLine<'_>) -> String {
    let mut s = visible_cut(line, 60);
    if !ended {
        s.push('⏎');
    }
    s
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use std::io::Write;

    fn piece() -> impl Strategy<Value = &'static [u8]> {
        prop::sample::select(vec![
            &b"1"[..],
            b"2",
            b"1.0",
            b"1.0000001",
            b"-0",
            b"a",
            b"A",
            b"ab",
            b" ",
            b"  ",
            b"\t",
            b"\n",
            b"\n",
            b"\n",
            b"\r\n",
            b"\x0b",
            b"\xEF\xBB\xBF",
            b"\xff",
            b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ])
    }

    fn text() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(piece(), 0..14).prop_map(|p| p.concat())
    }

    /// `b` often a small edit of `a`, so that texts agree far and differ late.
    fn pair() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
        (text(), piece(), 0usize..60, 0u8..4).prop_map(|(a, p, at, edit)| {
            let mut c = a.clone();
            let at = at.min(c.len());
            match edit {
                // Insert a piece, drop a byte, replace a byte by a piece.
                0 => {
                    c.splice(at..at, p.iter().copied());
                }
                1 if at < c.len() => {
                    c.remove(at);
                }
                2 if at < c.len() => {
                    c.splice(at..=at, p.iter().copied());
                }
                _ => c = p.repeat(at % 5),
            }
            (a, c)
        })
    }

    fn mode() -> impl Strategy<Value = TextMode> {
        prop_oneof![
            Just(TextMode::Exact),
            Just(TextMode::Lines),
            Just(TextMode::Tokens(None)),
            Just(TextMode::Tokens(FloatTolerance::new(Some(1e-6), None))),
        ]
    }

    fn file_of(bytes: &[u8]) -> std::fs::File {
        let mut f = tempfile::tempfile().expect("a temporary file");
        f.write_all(bytes).expect("written");
        f
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn streamed_comparisons_agree_with_the_held_ones(
            (expected, found) in pair(), mode in mode(), strict: bool, fold: bool
        ) {
            let held = compare_folding(&expected, &found, mode, strict, fold);
            let (fe, ff) = (file_of(&expected), file_of(&found));
            let (te, tf) = (Text::file(&fe).expect("len"), Text::file(&ff).expect("len"));
            prop_assert_eq!(&streamed(Text::Bytes(&expected), Text::Bytes(&found), mode, strict, fold), &held);
            prop_assert_eq!(&streamed(te, tf, mode, strict, fold), &held);
            let hunk = first_hunk(&expected, &found);
            prop_assert_eq!(&first_hunk_of(Text::Bytes(&expected), Text::Bytes(&found)), &hunk);
            prop_assert_eq!(&first_hunk_of(te, tf), &hunk);
            let layout = layout_difference(&expected, &found).map(|d| d.to_string());
            prop_assert_eq!(
                crate::text::whitespace::layout_difference_of(te, tf).map(|d| d.to_string()),
                layout
            );
        }
    }
}
