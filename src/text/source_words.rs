//! Source text of a C-like language (Java, Kotlin) as words and chosen
//! punctuation, with comments, strings and character literals left out:
//! enough to find a main class or a package declaration without a parser.

/// The words (`[A-Za-z0-9_$]+`) of `text` and each byte of `punctuation`
/// as a word of its own, in order; `//` and `/* */` comments, `"…"` and
/// `'…'` literals skipped.
pub fn c_like_words<'t>(text: &'t str, punctuation: &[u8]) -> Vec<&'t str> {
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if punctuation.contains(&c) {
            words.push(&text[i..i + 1]);
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            words.push(&text[start..i]);
        } else {
            i += 1;
        }
    }
    words
}

/// kotlinc's class of a file's top-level functions: `check.kt` →
/// `CheckKt`, `test-hello.kt` → `Test_helloKt`.
pub fn kotlin_file_class(stem: &str) -> String {
    let mut chars = stem.chars();
    match chars.next() {
        Some(first) => {
            first
                .to_uppercase()
                .chain(chars)
                .map(|c| {
                    if c.is_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
                + "Kt"
        }
        None => "MainKt".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_strings_are_left_out() {
        let text = "package a.b; // class X\n/* class Y */ class Z { String s = \"class W\"; }";
        assert_eq!(
            c_like_words(text, b"{}(;."),
            [
                "package", "a", ".", "b", ";", "class", "Z", "{", "String", "s", ";", "}"
            ]
        );
        assert_eq!(
            c_like_words(text, b"{"),
            ["package", "a", "b", "class", "Z", "{", "String", "s"]
        );
    }
}
