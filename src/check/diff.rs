//! The unified diff a report shows for a WA or PE: the first differing hunk
//! only, a few lines of context, long lines cut with a marker, white space
//! made visible on changed lines. Made with `similar`, over a bounded window
//! around the first difference, so a 64 MiB output costs one linear scan.

use super::whitespace::visible_cut;
use similar::{ChangeTag, TextDiff};

/// Lines of context around a change.
const CONTEXT: usize = 2;
/// How many lines of each side go into the diff, from a little before the
/// first difference.
const WINDOW: usize = 40;
/// Characters shown of a line before it is cut with `…`.
const LINE_WIDTH: usize = 100;

/// A unified diff of `expected` (the answer) against `found` (the output),
/// or `None` when they are identical.
pub fn first_hunk(expected: &[u8], found: &[u8]) -> Option<String> {
    if expected == found {
        return None;
    }
    let exp: Vec<&[u8]> = split_lines(expected);
    let got: Vec<&[u8]> = split_lines(found);
    let first = exp.iter().zip(&got).take_while(|(a, b)| a == b).count();
    let start = first.saturating_sub(CONTEXT);
    let window = |lines: &[&[u8]]| -> Vec<String> {
        lines
            .iter()
            .skip(start)
            .take(WINDOW)
            .map(|l| format!("{}\n", visible_cut(l, LINE_WIDTH)))
            .collect()
    };
    let old = window(&exp);
    let new = window(&got);
    let old_refs: Vec<&str> = old.iter().map(String::as_str).collect();
    let new_refs: Vec<&str> = new.iter().map(String::as_str).collect();
    let diff = TextDiff::from_slices(&old_refs, &new_refs);
    let mut out = String::from("--- expected (answer)\n+++ found (output)\n");
    let Some(group) = diff.grouped_ops(CONTEXT).into_iter().next() else {
        // Same lines: only the final newline differs.
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
        for change in diff.iter_changes(op) {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            out.push(sign);
            out.push_str(change.value());
        }
    }
    let missing_end = |text: &[u8], lines: usize| {
        !text.is_empty() && !text.ends_with(b"\n") && lines <= start + WINDOW
    };
    if missing_end(found, got.len()) && !missing_end(expected, exp.len()) {
        out.push_str("⏎ the output has no newline at its end\n");
    }
    if exp.len() > start + WINDOW || got.len() > start + WINDOW {
        out.push_str("… (diff cut: only the first differing hunk is shown)\n");
    }
    Some(out)
}

fn split_lines(text: &[u8]) -> Vec<&[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split(|&b| b == b'\n').collect()
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
}
