//! Text as the judge shows it: white space made visible, invisible and
//! reordering characters escaped, the first white-space-only difference
//! between two texts (`whitespace`); words and numbers in messages
//! (`format`). A leaf: it knows no other module of the crate.

pub mod constants;
pub mod format;
pub mod glob;
pub mod source_words;
pub mod stream;
pub mod whitespace;

/// `text` without a leading UTF-8 byte order mark (some editors write one
/// at the start of a YAML file).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// How deep a YAML file may nest (flow brackets, compact `- `/`? `
/// indicators on one line, or indentation in columns / 2). No package file
/// needs more than a handful of levels; a deeper one is refused before it
/// is parsed, since the parser's time grows with the square of the depth
/// (200,000 levels in 400 KB held `judge verify` for minutes).
pub const YAML_MAX_DEPTH: usize = 64;

/// The first line (1-based) where `text`, read as YAML, nests deeper than
/// [`YAML_MAX_DEPTH`], and the depth it reaches there. Quoted scalars and
/// comments are passed over; the count is an upper bound of the real
/// nesting, never below it.
pub fn yaml_too_deep(text: &str) -> Option<(usize, usize)> {
    let mut flow = 0usize;
    let mut quote: Option<char> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let mut chars = line.chars().peekable();
        let mut column = 0usize;
        let mut block = 0usize;
        let mut at_start = quote.is_none() && flow == 0;
        let mut previous = ' ';
        while let Some(c) = chars.next() {
            column += 1;
            if let Some(q) = quote {
                if c == q {
                    // '' inside a single-quoted scalar is a quote.
                    if q == '\'' && chars.peek() == Some(&'\'') {
                        chars.next();
                    } else {
                        quote = None;
                    }
                } else if c == '\\' && q == '"' {
                    chars.next();
                }
                previous = c;
                continue;
            }
            match c {
                ' ' | '\t' if at_start => {}
                '-' | '?' if at_start && matches!(chars.peek(), Some(' ') | None) => {
                    block += 1;
                    chars.next();
                    column += 1;
                }
                '#' if previous == ' ' || previous == '\t' || column == 1 => break,
                '"' | '\'' => {
                    at_start = false;
                    quote = Some(c);
                }
                '[' | '{' => {
                    at_start = false;
                    flow += 1;
                }
                ']' | '}' => {
                    at_start = false;
                    flow = flow.saturating_sub(1);
                }
                _ => at_start = false,
            }
            let indent = line.len() - line.trim_start().len();
            let depth = flow + block + indent / 2;
            if depth > YAML_MAX_DEPTH {
                return Some((number, depth));
            }
            previous = c;
        }
        // A double-quoted scalar may go on to the next line; a single
        // line break ends nothing else.
        if quote == Some('\'') && line.is_empty() {
            quote = None;
        }
    }
    None
}

#[cfg(test)]
mod yaml_depth_tests {
    use super::*;

    #[test]
    fn ordinary_files_pass_and_deep_ones_are_named() {
        let ordinary =
            "name: x\nlimits:\n  time_limit: 2\nkeywords: [a, b, \"c]]]\"]\n# [[[[\n- - a\n";
        assert_eq!(yaml_too_deep(ordinary), None);
        let flow = format!("keywords: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(yaml_too_deep(&flow).map(|(l, _)| l), Some(1));
        let mapping = format!("a: {}1{}\n", "{a: ".repeat(200), "}".repeat(200));
        assert!(yaml_too_deep(&mapping).is_some());
        let compact = format!("x:\n{}a\n", "- ".repeat(100));
        assert_eq!(yaml_too_deep(&compact).map(|(l, _)| l), Some(2));
        let indented = format!("a:\n{}b: 1\n", " ".repeat(200));
        assert!(yaml_too_deep(&indented).is_some());
        assert_eq!(yaml_too_deep("s: 'it''s [[[[[[[[[['\n"), None);
    }
}
