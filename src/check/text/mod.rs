//! Comparing an output with an answer file, as text: `exact` (bytes),
//! `lines` (trailing white space and the final newline ignored), `tokens`
//! (white-space separated, optionally with a float tolerance), and strict
//! variants in which a white-space-only difference is PE.
//!
//! Every comparison streams over both texts once (linear time, no token
//! list in memory), and a WA names the first differing line and token:
//! "output line 3, token 2: expected "5", found "6"".

mod layout;
#[cfg(test)]
mod tests;
mod tokens;
#[cfg(test)]
pub(in crate::check) use tokens::TokenDifference;

use crate::text::stream::Text;
use crate::text::whitespace::{layout_difference_of, visible_cut};
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

    pub(crate) fn accepts(&self, expected: f64, found: f64) -> bool {
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
    compare_folding(
        Text::Bytes(expected),
        Text::Bytes(found),
        mode,
        strict,
        false,
    )
}

/// [`compare`] of two streamed texts, with tokens that differ only in
/// ASCII letter case equal when `fold` (Kattis' default validator without
/// `case_sensitive`); a message quotes the tokens as written. A text that
/// cannot be read through is IE, named.
pub fn compare_folding(
    expected: Text<'_>,
    found: Text<'_>,
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
fn without_bom(text: Text<'_>) -> (Text<'_>, bool) {
    if text.head(BOM.len()) == BOM {
        (text.from(BOM.len() as u64), true)
    } else {
        (text, false)
    }
}

fn compare_text(
    expected: Text<'_>,
    found: Text<'_>,
    mode: TextMode,
    strict: bool,
    fold: bool,
) -> TextFinding {
    let float = match mode {
        TextMode::Tokens(f) => f,
        _ => None,
    };
    match tokens::tokens_match(expected, found, float, fold) {
        Ok(()) => {}
        Err(tokens::Mismatch::Differ(difference)) => {
            return TextFinding {
                verdict: Verdict::WrongAnswer,
                message: difference.to_string(),
            };
        }
        Err(tokens::Mismatch::Unreadable(message)) => {
            return TextFinding {
                verdict: Verdict::InternalError,
                message,
            };
        }
    }
    // The tokens agree: only the layout can differ now.
    let layout_ok = match (mode, strict) {
        (TextMode::Tokens(_), false) => true,
        (TextMode::Lines, false) => layout::lines_equal(expected, found),
        (TextMode::Exact, _) | (_, true) => layout::same_white_space(expected, found),
    };
    if layout_ok {
        return TextFinding {
            verdict: Verdict::Accepted,
            message: "output matches the answer".to_string(),
        };
    }
    let message = match layout_difference_of(expected, found) {
        Some(d) => d.to_string(),
        None => "white space differs".to_string(),
    };
    TextFinding {
        verdict: Verdict::PresentationError,
        message,
    }
}

/// A one-line preview of a text for a message: its first line with white
/// space made visible.
pub fn preview(text: &[u8]) -> String {
    let first = text.split(|&b| b == b'\n').next().unwrap_or(&[]);
    visible_cut(first, 40)
}
