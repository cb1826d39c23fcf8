//! Text from a run made fit for the page, before `maud` escapes it: cut to
//! a byte budget on a character boundary (with `…`), control characters
//! shown as their Unicode pictures (`␛`, `␀`, `␍`), so a program's terminal
//! codes or NUL bytes neither vanish nor reach the HTML parser, and
//! invisible or reordering characters (a right-to-left override) as
//! `\u{202e}`, so the page reads as the bytes do. Escaping is not done
//! here: maud does it for every string.

/// One line: every control character, newlines too, made visible.
pub fn line(text: &str, max_bytes: usize) -> String {
    fit(text, max_bytes, false)
}

/// A block (a diff, stderr): newlines and tabs kept, other control
/// characters made visible.
pub fn block(text: &str, max_bytes: usize) -> String {
    fit(text, max_bytes, true)
}

/// Budgets count the bytes of the escaped text (`<` costs 4, `&lt;`), so a
/// page of `<<<<` is no bigger than a page of `aaaa`.
fn fit(text: &str, max_bytes: usize, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len().min(max_bytes) + 3);
    let mut spent = 0;
    for c in text.chars() {
        if crate::text::whitespace::is_deceptive(c) {
            let mut shown = String::new();
            crate::text::whitespace::push_escaped(&mut shown, c);
            if spent + shown.len() > max_bytes {
                out.push('…');
                return out;
            }
            spent += shown.len();
            out.push_str(&shown);
            continue;
        }
        let shown = picture(c, keep_lines);
        let cost = match shown {
            '&' => 5,
            '<' | '>' => 4,
            '"' => 6,
            _ => shown.len_utf8(),
        };
        if spent + cost > max_bytes {
            out.push('…');
            return out;
        }
        spent += cost;
        out.push(shown);
    }
    out
}

fn picture(c: char, keep_lines: bool) -> char {
    match c {
        '\n' | '\t' if keep_lines => c,
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\x7f' => '␡',
        '\u{80}'..='\u{9f}' => '\u{fffd}',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_pictures() {
        assert_eq!(line("a\x1b[31mb\0\r\n", 100), "a␛[31mb␀␍␊");
        assert_eq!(block("a\tb\nc\x07", 100), "a\tb\nc␇");
        assert_eq!(line("\u{85}", 10), "\u{fffd}");
        assert_eq!(line("a\u{202e}b", 100), "a\\u{202e}b");
    }

    #[test]
    fn cut_on_a_character_boundary() {
        assert_eq!(line("abcdef", 3), "abc…");
        // 'é' is two bytes: it does not fit in the third.
        assert_eq!(line("aéé", 4), "aé…");
        assert_eq!(line("abc", 3), "abc");
        assert_eq!(line("", 0), "");
        // Escaped, `<` takes four bytes.
        assert_eq!(line("<<<", 9), "<<…");
    }
}
