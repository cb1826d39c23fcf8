//! Making white space visible, and finding the first place where two texts
//! differ only in white space: the message of every presentation error.
//!
//! Markers: `·` a space, `→` a tab, `␍` a carriage return, and `⏎` where the
//! final newline is missing. Used by the text comparisons and by the puzzle
//! checkers in strict mode.

use super::stream::{Stream, Text};

/// Whether a character is invisible or reorders the text around it: the
/// bidirectional controls (a right-to-left override can make a line read
/// differently from its bytes, "Trojan Source"), zero-width characters,
/// the byte-order mark and the Unicode line separators. A report shows
/// them as `\u{…}` instead of passing them to a terminal or a browser.
pub fn is_deceptive(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// Text shown as it is, except control characters (`\xNN`) and invisible
/// or reordering characters (`\u{NNNN}`, see [`is_deceptive`]): for a
/// message a tool wrote, which may quote a contestant's output.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// One character as [`escaped`] shows it.
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write;
    let _ = if c.is_control() {
        write!(out, "\\x{:02x}", c as u32)
    } else if is_deceptive(c) {
        write!(out, "\\u{{{:04x}}}", c as u32)
    } else {
        out.write_char(c)
    };
}

/// Whether `c` may not reach a terminal as it is inside a name: a control
/// character (ESC, BEL, a newline, …) or an invisible or reordering one.
fn needs_escape(c: char) -> bool {
    c.is_control() || is_deceptive(c)
}

/// A name the judge did not choose (a case, a file, a problem, a program)
/// as every report for people and every message shows it: [`escaped`],
/// so that a name cannot move the cursor, set the terminal's title, start
/// a new line or reverse the text after it. Spaces and letters (`é`, `漢`)
/// are shown as they are.
pub fn shown_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.chars().any(needs_escape) {
        std::borrow::Cow::Owned(escaped(name))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// A path as [`shown_name`] shows a name (bytes that are not UTF-8 become
/// U+FFFD, the replacement character).
pub fn shown_path(path: &std::path::Path) -> String {
    shown_name(&path.to_string_lossy()).into_owned()
}

/// A message for a terminal (stderr, a report line): control characters
/// but the newline and the tab escaped, and invisible or reordering ones,
/// whatever the message quotes. A name inside a message is escaped where it
/// is written ([`shown_name`]); this is the last guard at the output.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| needs_escape(c) && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A line with its white space made visible; other control bytes and
/// non-UTF-8 bytes escaped as `\xNN`, invisible and reordering characters
/// (see [`is_deceptive`]) as `\u{NNNN}`.
pub fn visible(line: &[u8]) -> String {
    let mut out = String::new();
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                ' ' => out.push('·'),
                '\t' => out.push('→'),
                '\r' => out.push('␍'),
                c => push_escaped(&mut out, c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// [`visible`], cut to at most `max` characters with a `…` marker.
pub fn visible_cut(line: &[u8], max: usize) -> String {
    // Each shown character comes from at most 4 bytes, so the first
    // 4 × (max + 2) bytes show more than `max` characters of a longer
    // line (a character cut at the end of them is past the cut): a line
    // of a gigabyte costs no more than one of a kilobyte.
    let line = &line[..line.len().min(max.saturating_add(2).saturating_mul(4))];
    let shown = visible(line);
    if shown.chars().count() <= max {
        return shown;
    }
    let mut cut: String = shown.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A line a person reads as prose (a compiler's message, a program's
/// stderr): spaces and tabs as they are, since nothing turns on them;
/// other control bytes and non-UTF-8 bytes as `\xNN`, invisible and
/// reordering characters as `\u{NNNN}`, so the terminal is never driven by
/// it. Cut to at most `max` characters with a `…` marker.
pub fn readable_cut(line: &[u8], max: usize) -> String {
    let mut out = String::new();
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\t' => out.push('\t'),
                c => push_escaped(&mut out, c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    if out.chars().count() <= max {
        return out;
    }
    let mut cut: String = out.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Where two texts that hold the same tokens first differ in layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutDifference {
    /// 1-based line number in the found text.
    pub line: usize,
    pub expected: String,
    pub found: String,
}

impl std::fmt::Display for LayoutDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "white space differs on line {}: expected \"{}\", found \"{}\"",
            self.line, self.expected, self.found
        )
    }
}

/// The first line where `found` differs from `expected` byte for byte, both
/// shown with visible white space (at most 60 characters each), or `None`
/// when they are identical. A missing final newline shows as `⏎` at the end
/// of the found line; an extra empty line as `""`.
pub fn layout_difference(expected: &[u8], found: &[u8]) -> Option<LayoutDifference> {
    layout_difference_of(Text::Bytes(expected), Text::Bytes(found))
}

/// [`layout_difference`] of two streamed texts: line by line as they
/// come, holding only the start of the lines that differ (a text of 63 MiB
/// of newlines once made a list of 63 million lines).
pub fn layout_difference_of(expected: Text<'_>, found: Text<'_>) -> Option<LayoutDifference> {
    let (mut a, mut b) = (expected.stream(), found.stream());
    let mut line = 1;
    {
        let (mut head_a, mut head_b) = (Vec::new(), Vec::new());
        // The bytes the two lines agree on; whether both texts end there.
        let both_end = loop {
            let (ca, cb) = (a.chunk(), b.chunk());
            let n = ca.len().min(cb.len());
            if n == 0 {
                break ca.is_empty() && cb.is_empty();
            }
            let agree = ca[..n]
                .iter()
                .zip(&cb[..n])
                .take_while(|(x, y)| x == y && **x != b'\n')
                .count();
            let newline = agree < n && ca[agree] == b'\n' && cb[agree] == b'\n';
            let room = SHOWN_LINE_BYTES.saturating_sub(head_a.len());
            head_a.extend_from_slice(&ca[..agree.min(room)]);
            head_b.extend_from_slice(&cb[..agree.min(room)]);
            a.consume(agree);
            b.consume(agree);
            if newline {
                a.consume(1);
                b.consume(1);
                head_a.clear();
                head_b.clear();
                line += 1;
                continue;
            }
            if agree < n {
                break false;
            }
        };
        if both_end {
            return None;
        }
        let e = rest_of_line(&mut a, head_a);
        let f = rest_of_line(&mut b, head_b);
        Some(LayoutDifference {
            line,
            expected: e.map(show).unwrap_or_else(|| "(no line)".to_string()),
            found: f.map(show).unwrap_or_else(|| "(no line)".to_string()),
        })
    }
}

/// The most of a line [`show`] needs: each shown character comes from at
/// most 4 bytes, and 60 are shown.
const SHOWN_LINE_BYTES: usize = 4 * 62;

/// The rest of a line whose first bytes are `head`: its start (up to
/// [`SHOWN_LINE_BYTES`]) and whether a newline ended it; `None` when the
/// text had ended before the line began.
fn rest_of_line(s: &mut Stream<'_>, mut head: Vec<u8>) -> Option<(Vec<u8>, bool)> {
    let began = !head.is_empty();
    let took = s.take_while(|b| b != b'\n', &mut head, SHOWN_LINE_BYTES);
    let (skipped, _) = s.skip_while(|b| b != b'\n');
    let ended = s.peek() == Some(b'\n');
    if ended {
        s.consume(1);
    }
    (began || took > 0 || skipped > 0 || ended).then_some((head, ended))
}

fn show((line, ended): (Vec<u8>, bool)) -> String {
    let mut s = visible_cut(&line, 60);
    if !ended {
        s.push('⏎');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_letters_and_spaces_and_lose_escapes() {
        assert_eq!(shown_name("a é 漢.in"), "a é 漢.in");
        assert_eq!(
            shown_name("\x1b]0;title\x07x\ny\u{202e}z"),
            "\\x1b]0;title\\x07x\\x0ay\\u{202e}z"
        );
        assert_eq!(shown_name("zero\u{200b}width"), "zero\\u{200b}width");
    }

    #[test]
    fn terminal_text_keeps_its_lines() {
        assert_eq!(terminal_safe("one\ntwo\tthree"), "one\ntwo\tthree");
        assert_eq!(
            terminal_safe("a\x1b[2Jb\r\u{2066}"),
            "a\\x1b[2Jb\\x0d\\u{2066}"
        );
    }

    #[test]
    fn markers() {
        assert_eq!(visible(b"a b\tc\r"), "a·b→c␍");
        assert_eq!(visible(b"\xff\x01"), "\\xff\\x01");
        assert_eq!(visible_cut(b"abcdef", 4), "abc…");
        // A right-to-left override and a zero-width space are shown, not obeyed.
        assert_eq!(
            visible("ab\u{202e}cd\u{200b}".as_bytes()),
            "ab\\u{202e}cd\\u{200b}"
        );
        assert_eq!(visible("é".as_bytes()), "é");
    }

    #[test]
    fn prose_keeps_its_spaces_and_escapes_the_rest() {
        assert_eq!(
            readable_cut(b"Traceback (most recent call last):\tx", 80),
            "Traceback (most recent call last):\tx"
        );
        assert_eq!(readable_cut(b"a\x1b]0;t\x07\r", 80), "a\\x1b]0;t\\x07\\x0d");
        assert_eq!(readable_cut("x\u{202e}y".as_bytes(), 80), "x\\u{202e}y");
        assert_eq!(readable_cut(b"abcdef", 4), "abc…");
    }

    #[test]
    fn first_layout_difference() {
        assert_eq!(layout_difference(b"AC\n2\n", b"AC\n2\n"), None);
        let d = layout_difference(b"AC\n2\n", b"AC \n2\n").unwrap();
        assert_eq!(
            d.to_string(),
            "white space differs on line 1: expected \"AC\", found \"AC·\""
        );
        let d = layout_difference(b"AC\n2\n", b"AC\n2").unwrap();
        assert_eq!((d.line, d.found.as_str()), (2, "2⏎"));
        let d = layout_difference(b"AC\n2\n", b"AC\n2\n\n").unwrap();
        assert_eq!(
            (d.line, d.expected.as_str(), d.found.as_str()),
            (3, "(no line)", "")
        );
        let d = layout_difference(b"1 2\n", b"1 2\r\n").unwrap();
        assert_eq!(d.found, "1·2␍");
    }
}
