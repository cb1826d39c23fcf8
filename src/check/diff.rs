//! The unified diff a report shows for a WA or PE: the first differing hunk
//! only, a few lines of context, long lines cut with a marker, white space
//! made visible on changed lines. Made with `similar`, over a bounded window
//! around the first difference, so a 64 MiB output costs one linear scan.

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
