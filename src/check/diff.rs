//! The unified diff a report shows for a WA or PE: the first differing hunk
//! only, a few lines of context, long lines cut with a marker, white space
//! made visible on changed lines. Made with `similar`, over a bounded window
//! around the first difference, so a 64 MiB output costs one linear scan.

use crate::text::stream::Text;
use crate::text::whitespace::{visible, visible_cut};
use similar::{Algorithm, ChangeTag, capture_diff_slices, group_diff_ops};

/// Lines of context around a change.
const CONTEXT: usize = 2;
/// How many lines of each side go into the diff, from a little before the
/// first difference.
const WINDOW: usize = 40;
/// Characters shown of a line before it is cut with `…`.
const LINE_WIDTH: usize = 100;
/// Characters shown before the first difference when a changed line is
/// cut to show where it differs.
const LEAD: usize = 30;

/// A unified diff of `expected` (the answer) against `found` (the output),
/// or `None` when they are identical. Lines are compared whole and cut
/// only for display: a changed line longer than [`LINE_WIDTH`] is shown
/// around its first difference from the line it replaces, `…` marking
/// each cut end.
pub fn first_hunk(expected: &[u8], found: &[u8]) -> Option<String> {
    first_hunk_of(Text::Bytes(expected), Text::Bytes(found))
}

/// A line of the window: where it is in its text, and what it holds (its
/// length and a hash of its bytes: the diff of the window compares those,
/// and bytes are read again only for the few lines shown).
#[derive(Clone, Copy, Debug)]
struct Line {
    offset: u64,
    len: u64,
    hash: u64,
}

// The diff compares lines by length and hash only: where a line is does
// not make it another line.
#[derive(Clone, Copy, Debug)]
struct Placed(Line);

impl PartialEq for Placed {
    fn eq(&self, other: &Self) -> bool {
        (self.0.len, self.0.hash) == (other.0.len, other.0.hash)
    }
}
impl Eq for Placed {}
impl std::hash::Hash for Placed {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0.len, self.0.hash).hash(state);
    }
}

/// [`first_hunk`] of two streamed texts: walked as they are, only the
/// window's lines ever a list, and of each only where it is and a hash
/// (63 MiB of newlines once made two lists of 63 million lines; a line of
/// a gigabyte is read, never held).
pub fn first_hunk_of(expected: Text<'_>, found: Text<'_>) -> Option<String> {
    if expected.same_bytes(&found) {
        return None;
    }
    let first = equal_leading_lines(expected, found);
    let start = first.saturating_sub(CONTEXT);
    let (old, exp_beyond) = window(expected, start);
    let (new, got_beyond) = window(found, start);
    let ops = capture_diff_slices(Algorithm::Myers, &old, &new);
    let mut out = String::from("--- expected (answer)\n+++ found (output)\n");
    let Some(group) = group_diff_ops(ops, CONTEXT).into_iter().next() else {
        // The same lines: only the final newline differs.
        let which = if found.last() == Some(b'\n') {
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
            let Placed(line) = change.value();
            let (sign, text, other) = match change.tag() {
                ChangeTag::Delete => {
                    let i = change.old_index().unwrap_or(olds.start);
                    let other = new
                        .get(news.start + (i - olds.start))
                        .filter(|_| !news.is_empty());
                    ('-', expected, other.map(|o| (found, o.0)))
                }
                ChangeTag::Insert => {
                    let i = change.new_index().unwrap_or(news.start);
                    let other = old
                        .get(olds.start + (i - news.start))
                        .filter(|_| !olds.is_empty());
                    ('+', found, other.map(|o| (expected, o.0)))
                }
                ChangeTag::Equal => (' ', expected, None),
            };
            let at_line = text.from(line.offset);
            let shown = match other {
                Some((other_text, other)) => {
                    let at = common_prefix(
                        at_line,
                        other_text.from(other.offset),
                        line.len.min(other.len),
                    );
                    visible_around(at_line, line.len, at)
                }
                None => visible_cut(&at_line.head(line_bytes(line.len, SPAN)), LINE_WIDTH),
            };
            out.push(sign);
            out.push_str(&shown);
            out.push('\n');
        }
    }
    let missing_end =
        |text: Text<'_>, beyond: bool| !text.is_empty() && text.last() != Some(b'\n') && !beyond;
    if missing_end(found, got_beyond) && !missing_end(expected, exp_beyond) {
        out.push_str("⏎ the output has no newline at its end\n");
    }
    if exp_beyond || got_beyond {
        out.push_str("… (diff cut: only the first differing hunk is shown)\n");
    }
    Some(out)
}

/// At most `max` of a line of `len` bytes.
fn line_bytes(len: u64, max: usize) -> usize {
    len.min(max as u64) as usize
}

/// How many lines (see [`window`]) the two texts begin with alike.
fn equal_leading_lines(a: Text<'_>, b: Text<'_>) -> usize {
    let (mut a, mut b) = (a.stream(), b.stream());
    let mut first = 0;
    while a.peek().is_some() && b.peek().is_some() {
        // One line of each, in lockstep.
        let newlines = loop {
            let (ca, cb) = (a.chunk(), b.chunk());
            let n = ca.len().min(cb.len());
            if n == 0 {
                break false;
            }
            let agree = ca[..n]
                .iter()
                .zip(&cb[..n])
                .take_while(|(x, y)| x == y && **x != b'\n')
                .count();
            let newline = agree < n && ca[agree] == b'\n' && cb[agree] == b'\n';
            a.consume(agree);
            b.consume(agree);
            if newline || agree < n {
                break newline;
            }
        };
        if newlines {
            a.consume(1);
            b.consume(1);
            first += 1;
            continue;
        }
        // A line that ends one text is alike a line ended by a newline.
        match (a.peek(), b.peek()) {
            (None, None) => first += 1,
            (None, Some(b'\n')) | (Some(b'\n'), None) => first += 1,
            _ => {}
        }
        break;
    }
    first
}

/// The [`WINDOW`] lines of a text from line `start` (0-based), and whether
/// it has lines past them. A final newline ends the last line (no empty
/// line after it); an empty text has none.
fn window(text: Text<'_>, start: usize) -> (Vec<Placed>, bool) {
    use std::hash::Hasher;
    let mut s = text.stream();
    for _ in 0..start {
        s.skip_while(|b| b != b'\n');
        if s.peek().is_none() {
            break;
        }
        s.consume(1);
    }
    let mut lines = Vec::new();
    while s.peek().is_some() {
        if lines.len() == WINDOW {
            return (lines, true);
        }
        let offset = s.offset();
        let mut hasher = std::hash::DefaultHasher::new();
        let mut len = 0u64;
        loop {
            let chunk = s.chunk();
            if chunk.is_empty() {
                break;
            }
            let n = chunk
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(chunk.len());
            hasher.write(&chunk[..n]);
            let ended = n < chunk.len();
            s.consume(n);
            len += n as u64;
            if ended {
                s.consume(1);
                break;
            }
        }
        lines.push(Placed(Line {
            offset,
            len,
            hash: hasher.finish(),
        }));
    }
    (lines, false)
}

/// How many of the first `max` bytes of two texts agree.
fn common_prefix(a: Text<'_>, b: Text<'_>, max: u64) -> usize {
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
            .take_while(|(x, y)| x == y)
            .count();
        same += agree as u64;
        if agree < n {
            break;
        }
        a.consume(n);
        b.consume(n);
    }
    same as usize
}

/// Bytes of a line made visible from [`LEAD`] characters before the byte
/// at which a changed line differs.
const SPAN: usize = 4 * (LINE_WIDTH + 2);

/// A line (`len` bytes of `line`) made visible and cut to [`LINE_WIDTH`]
/// characters so that its byte `at` (where it first differs from its
/// counterpart) is in view. Only bytes near `at` are read (each shown
/// character comes from at most 4 bytes): a line of a gigabyte costs what
/// one of a kilobyte does.
fn visible_around(line: Text<'_>, len: u64, at: usize) -> String {
    let len_us = usize::try_from(len).unwrap_or(usize::MAX);
    let at = at.min(len_us);
    if len_us > 2 * SPAN {
        // Longer than LINE_WIDTH shown characters, surely.
        if at < SPAN && visible(&line.head(at)).chars().count() + LEAD < LINE_WIDTH {
            return visible_cut(&line.head(SPAN), LINE_WIDTH);
        }
        let from = at.saturating_sub(4 * (LEAD + 2));
        let lead = visible(&line.read_range(from as u64, at - from));
        let lead: String = lead
            .chars()
            .skip(lead.chars().count().saturating_sub(LEAD))
            .collect();
        let rest = visible(&line.read_range(at as u64, SPAN.min(len_us - at)));
        let room = LINE_WIDTH - 2 - lead.chars().count();
        let mut cut = format!("…{lead}");
        cut.extend(rest.chars().take(room));
        if rest.chars().count() > room || at + SPAN < len_us {
            cut.push('…');
        }
        return cut;
    }
    let line = line.head(len_us);
    let shown = visible(&line);
    let total = shown.chars().count();
    if total <= LINE_WIDTH {
        return shown;
    }
    let before = visible(&line[..at]).chars().count();
    if before + LEAD < LINE_WIDTH {
        return visible_cut(&line, LINE_WIDTH);
    }
    let from = before - LEAD;
    let mut cut = String::from("…");
    cut.extend(shown.chars().skip(from).take(LINE_WIDTH - 2));
    if from + LINE_WIDTH - 2 < total {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_first_hunk_with_real_line_numbers() {
        let exp: String = (1..=30).map(|i| format!("{i}\n")).collect();
        let got = exp.replace("\n17\n", "\n71\n").replace("\n25\n", "\n52\n");
        let d = first_hunk(exp.as_bytes(), got.as_bytes()).unwrap();
        assert_eq!(
            d,
            "--- expected (answer)\n+++ found (output)\n@@ -15,5 +15,5 @@\n 15\n 16\n-17\n+71\n 18\n 19\n"
        );
    }

    #[test]
    fn white_space_is_visible_and_long_lines_cut() {
        let d = first_hunk(b"a b\n", b"a  b\n").unwrap();
        assert!(d.contains("-a·b\n+a··b\n"), "{d}");
        let long = "x".repeat(500);
        let d = first_hunk(b"y\n", long.as_bytes()).unwrap();
        assert!(d.contains(&format!("+{}…", "x".repeat(99))), "{d}");
        let d = first_hunk(b"1\n2\n", b"1\n2").unwrap();
        assert!(d.contains("⏎"), "{d}");
        assert_eq!(first_hunk(b"same\n", b"same\n"), None);
    }

    #[test]
    fn huge_texts_show_the_same_window() {
        // 4 MiB of newlines against one line: the same hunk as a short
        // text would give, the rest cut.
        let many = vec![b'\n'; 4 << 20];
        let d = first_hunk(b"42\n", &many).unwrap();
        assert!(
            d.starts_with("--- expected (answer)\n+++ found (output)\n@@ -1,1 +1,"),
            "{d}"
        );
        assert!(
            d.ends_with("… (diff cut: only the first differing hunk is shown)\n"),
            "{d}"
        );
        // One line of 4 MiB differing at its end: shown around the difference.
        let mut long = vec![b'a'; 4 << 20];
        let exp = long.clone();
        long.push(b'b');
        let d = first_hunk(&exp, &long).unwrap();
        assert!(d.contains(&format!("\n+…{}b\n", "a".repeat(30))), "{d}");
        assert!(d.contains(&format!("\n-…{}\n", "a".repeat(30))), "{d}");
        assert!(d.len() < 1000, "{} bytes", d.len());
    }

    #[test]
    fn lines_differing_past_the_cut_show_where() {
        let exp = format!("{}\n", "a".repeat(150));
        let got = format!("{}b\n", "a".repeat(149));
        let d = first_hunk(exp.as_bytes(), got.as_bytes()).unwrap();
        assert!(!d.contains("no newline"), "{d}");
        assert!(d.contains("@@ -1,1 +1,1 @@"), "{d}");
        assert!(d.contains(&format!("\n+…{}b\n", "a".repeat(30))), "{d}");
        assert!(d.contains(&format!("\n-…{}\n", "a".repeat(31))), "{d}");
        // A long line differing early is cut at its end only.
        let exp = format!("x{}\n", "a".repeat(300));
        let got = format!("y{}\n", "a".repeat(300));
        let d = first_hunk(exp.as_bytes(), got.as_bytes()).unwrap();
        assert!(d.contains(&format!("\n+y{}…\n", "a".repeat(98))), "{d}");
    }
}
