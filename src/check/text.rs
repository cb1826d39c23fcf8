//! Comparing an output with an answer file, as text: `exact` (bytes),
//! `lines` (trailing white space and the final newline ignored), `tokens`
//! (white-space separated, optionally with a float tolerance), and strict
//! variants in which a white-space-only difference is PE.
//!
//! Every comparison streams over both texts once (linear time, no token
//! list in memory), and a WA names the first differing line and token:
//! "output line 3, token 2: expected "5", found "6"".

use crate::puzzles::reader::{SHOWN_TOKEN_BYTES, Tokens, quote};
use crate::text::format::plural;
use crate::text::whitespace::{layout_difference, visible_cut};
use crate::verdict::Verdict;

/// Float tolerance for `tokens`: a pair of numeric tokens matches when the
/// difference is within the absolute OR the relative tolerance (as Kattis'
/// default validator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatTolerance {
    pub absolute: f64,
    pub relative: f64,
}

impl FloatTolerance {
    /// A tolerance if either part is given (the other is then 0).
    pub fn new(absolute: Option<f64>, relative: Option<f64>) -> Option<FloatTolerance> {
        if absolute.is_none() && relative.is_none() {
            return None;
        }
        Some(FloatTolerance {
            absolute: absolute.unwrap_or(0.0),
            relative: relative.unwrap_or(0.0),
        })
    }

    fn accepts(&self, expected: f64, found: f64) -> bool {
        let diff = (expected - found).abs();
        diff <= self.absolute || diff <= self.relative * expected.abs()
    }
}

/// How to compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextMode {
    Exact,
    Lines,
    Tokens(Option<FloatTolerance>),
}

/// The finding of a text comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextFinding {
    pub verdict: Verdict,
    pub message: String,
}

/// Compare `found` with `expected`. `strict`: a difference in white space
/// only is PE (in `exact` mode it always is).
pub fn compare(expected: &[u8], found: &[u8], mode: TextMode, strict: bool) -> TextFinding {
    compare_folding(expected, found, mode, strict, false)
}

/// [`compare`], with tokens that differ only in ASCII letter case equal
/// when `fold` (Kattis' default validator without `case_sensitive`); a
/// message quotes the tokens as written.
pub fn compare_folding(
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
    if let Err(message) = tokens_match(expected, found, float, fold) {
        return TextFinding {
            verdict: Verdict::WrongAnswer,
            message,
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
) -> Result<(), String> {
    let mut exp = Tokens::new(expected);
    let mut got = Tokens::new(found);
    let mut index = 0usize;
    let mut line_index = (0usize, 0usize); // (line, token number on that output line)
    loop {
        index += 1;
        match (exp.next(), got.next()) {
            (None, None) => return Ok(()),
            (Some(e), None) => {
                return Err(format!(
                    "output ends after {} token{}; expected {} (answer line {})",
                    index - 1,
                    plural(index - 1),
                    quote(e.bytes),
                    e.pos.line
                ));
            }
            (None, Some(g)) => {
                return Err(format!(
                    "extra output at line {}: {} (the answer has {} token{})",
                    g.pos.line,
                    quote(g.bytes),
                    index - 1,
                    plural(index - 1)
                ));
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
                    return Err(format!(
                        "output line {}, token {}: expected {expected}, found {found}{tolerance}",
                        g.pos.line, line_index.1,
                    ));
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

/// A one-line preview of a text for a message: its first line with white
/// space made visible.
pub fn preview(text: &[u8]) -> String {
    let first = text.split(|&b| b == b'\n').next().unwrap_or(&[]);
    visible_cut(first, 40)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    fn check(exp: &str, found: &str, mode: TextMode, strict: bool) -> (Verdict, String) {
        let f = compare(exp.as_bytes(), found.as_bytes(), mode, strict);
        (f.verdict, f.message)
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_named_where_it_matters() {
        let float = TextMode::Tokens(FloatTolerance::new(Some(1e-6), None));
        for mode in [TextMode::Tokens(None), float, TextMode::Lines] {
            assert_eq!(
                check("3\n", "\u{feff}3\n", mode, false).0,
                Accepted,
                "{mode:?}"
            );
            assert_eq!(
                check("\u{feff}3\n", "3\n", mode, false).0,
                Accepted,
                "{mode:?}"
            );
            assert_eq!(check("\u{feff}3\n", "\u{feff}3\n", mode, false).0, Accepted);
        }
        assert_eq!(
            check("0.5\n", "\u{feff}0.5000001\n", float, false).0,
            Accepted
        );
        let (v, m) = check("3\n", "\u{feff}3\n", TextMode::Exact, false);
        assert_eq!(v, PresentationError);
        assert_eq!(
            m,
            "the output starts with a UTF-8 byte order mark (EF BB BF); the answer does not"
        );
        let (v, m) = check("\u{feff}3\n", "3\n", TextMode::Exact, false);
        assert_eq!(v, PresentationError);
        assert!(m.starts_with("the answer starts with"), "{m}");
        assert_eq!(
            check("\u{feff}3\n", "\u{feff}3\n", TextMode::Exact, false).0,
            Accepted
        );
        assert_eq!(
            check("3\n", "\u{feff}4\n", TextMode::Exact, false).0,
            WrongAnswer
        );
    }

    #[test]
    fn exact_mode() {
        assert_eq!(check("1 2\n", "1 2\n", TextMode::Exact, false).0, Accepted);
        let (v, m) = check("1 2\n", "1  2\n", TextMode::Exact, false);
        assert_eq!(v, PresentationError);
        assert_eq!(
            m,
            "white space differs on line 1: expected \"1·2\", found \"1··2\""
        );
        let (v, m) = check("1 2\n", "1 3\n", TextMode::Exact, false);
        assert_eq!(v, WrongAnswer);
        assert_eq!(m, "output line 1, token 2: expected \"2\", found \"3\"");
    }

    #[test]
    fn lines_mode_ignores_trailing_space_and_final_newline() {
        assert_eq!(
            check("a b\nc\n", "a b  \nc", TextMode::Lines, false).0,
            Accepted
        );
        assert_eq!(
            check("a b\nc\n", "a b\nc\n\n\n", TextMode::Lines, false).0,
            Accepted
        );
        assert_eq!(
            check("a b\nc\n", "a  b\nc\n", TextMode::Lines, false).0,
            PresentationError
        );
        assert_eq!(
            check("a b\nc\n", "a b\n\nc\n", TextMode::Lines, false).0,
            PresentationError
        );
        let (v, m) = check("a b\nc\n", "a b \nc\n", TextMode::Lines, true);
        assert_eq!(v, PresentationError);
        assert_eq!(
            m,
            "white space differs on line 1: expected \"a·b\", found \"a·b·\""
        );
        let (v, m) = check("a b\nc\n", "a b\nc", TextMode::Lines, true);
        assert_eq!(v, PresentationError);
        assert_eq!(
            m,
            "white space differs on line 2: expected \"c\", found \"c⏎\""
        );
    }

    /// Folded case: a case-only difference passes, and a real one is
    /// quoted as written, not lower-cased.
    #[test]
    fn folded_tokens_quote_the_text_as_written() {
        let ok = compare_folding(
            b"Hello World!\n",
            b"hello WORLD!\n",
            TextMode::Tokens(None),
            false,
            true,
        );
        assert_eq!(ok.verdict, Verdict::Accepted);
        let wa = compare_folding(
            b"Hello World!\n",
            b"hello World?\n",
            TextMode::Tokens(None),
            false,
            true,
        );
        assert_eq!(wa.verdict, Verdict::WrongAnswer);
        assert!(
            wa.message.contains("expected \"World!\", found \"World?\""),
            "{}",
            wa.message
        );
        let strict = compare(b"Hello\n", b"hello\n", TextMode::Tokens(None), false);
        assert_eq!(strict.verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn tokens_mode_lenient_and_strict() {
        let tokens = TextMode::Tokens(None);
        assert_eq!(check("1 2\n3\n", "1\n2 3", tokens, false).0, Accepted);
        assert_eq!(
            check("1 2\n3\n", "1\n2 3", tokens, true).0,
            PresentationError
        );
        assert_eq!(check("1 2\n3\n", "1 2\n3\n", tokens, true).0, Accepted);
        let (v, m) = check("1 2\n3\n", "1 2\n", tokens, false);
        assert_eq!(v, WrongAnswer);
        assert_eq!(
            m,
            "output ends after 2 tokens; expected \"3\" (answer line 2)"
        );
        let (v, m) = check("1\n", "1\n2\n", tokens, false);
        assert_eq!(v, WrongAnswer);
        assert_eq!(m, "extra output at line 2: \"2\" (the answer has 1 token)");
        let (_, m) = check("x\ny z\n", "x\ny w\n", tokens, false);
        assert_eq!(m, "output line 2, token 2: expected \"z\", found \"w\"");
    }

    #[test]
    fn float_tolerance() {
        let tol = TextMode::Tokens(FloatTolerance::new(Some(1e-6), Some(1e-6)));
        assert_eq!(check("1.0000000\n", "1.0000004\n", tol, false).0, Accepted);
        assert_eq!(
            check("1000000\n", "1000000.5\n", tol, false).0,
            Accepted,
            "relative"
        );
        let (v, m) = check("1.0\n", "1.1\n", tol, false);
        assert_eq!(v, WrongAnswer);
        assert!(m.contains("beyond the tolerance"), "{m}");
        assert_eq!(
            check("nan\n", "nan\n", tol, false).0,
            Accepted,
            "equal strings"
        );
        assert_eq!(check("inf\n", "1e400\n", tol, false).0, WrongAnswer);
        assert_eq!(
            check("1.0\n", "1.0000001\n", tol, true).0,
            Accepted,
            "strict: layout only"
        );
        assert_eq!(
            check("1.0\n", "1.0000001\n", TextMode::Tokens(None), false).0,
            WrongAnswer
        );
    }

    #[test]
    fn binary_and_huge_tokens_do_not_panic() {
        let huge = "9".repeat(1 << 20);
        let f = compare(b"1\n", huge.as_bytes(), TextMode::Tokens(None), false);
        assert_eq!(f.verdict, WrongAnswer);
        assert!(f.message.contains("(1048576 bytes)"), "{}", f.message);
        let f = compare(b"1\n", b"\xff\xfe\n", TextMode::Lines, true);
        assert_eq!(f.verdict, WrongAnswer);
        assert!(f.message.contains("\\xff"), "{}", f.message);
    }

    #[test]
    fn long_tokens_are_quoted_where_they_differ() {
        let exp = format!("{}\n", "a".repeat(150));
        let got = format!("{}b\n", "a".repeat(149));
        let (v, m) = check(&exp, &got, TextMode::Tokens(None), false);
        assert_eq!(v, WrongAnswer);
        assert_eq!(
            m,
            "output line 1, token 1: expected …\"aaaaaaaaa\" (150 bytes, the first difference at byte 150), \
             found …\"aaaaaaaab\" (150 bytes, the first difference at byte 150)"
        );
    }
}
