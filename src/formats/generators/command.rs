//! A `generate:` command's words and its `{seed}`: the command is split as
//! Python's `shlex.split` splits it (POSIX words: white space separates,
//! '…' and "…" quote, a backslash escapes), as BAPCtools does.

/// A command that does not split into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no closing quotation (or a lone backslash at the end)")]
pub struct Unquoted;

/// The words of a command, or why it cannot be split (an unclosed quote).
pub fn split_words(command: &str) -> Result<Vec<String>, Unquoted> {
    shlex::split(command).ok_or(Unquoted)
}

/// A generator's arguments with `{seed}` / `{seed:N}` filled in.
pub fn args_with_seed(template: &[String], seed: u32) -> Vec<String> {
    template
        .iter()
        .map(|a| {
            let mut a = a.clone();
            while let Some(p) = seed_placeholder(&a) {
                a = a.replacen(&p, &seed.to_string(), 1);
            }
            a
        })
        .collect()
}

/// How many `{seed}` / `{seed:N}` a word holds.
pub(super) fn seed_count(word: &str) -> usize {
    let mut count = 0;
    let mut rest = word;
    while let Some(p) = seed_placeholder(rest) {
        count += 1;
        let at = rest.find(&p).unwrap_or(0) + p.len();
        rest = &rest[at..];
    }
    count
}

/// The first `{seed}` or `{seed:N}` in a word, if any.
fn seed_placeholder(word: &str) -> Option<String> {
    let mut from = 0;
    while let Some(found) = word[from..].find("{seed") {
        let start = from + found;
        let after = &word[start + 5..];
        if let Some(end) = after.find('}') {
            let inner = &after[..end];
            let ok = inner.is_empty()
                || inner
                    .strip_prefix(':')
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            if ok {
                return Some(word[start..start + 5 + end + 1].to_string());
            }
        }
        from = start + 5;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_shlex_does() {
        assert_eq!(
            split_words("  gen.py  'a b' \"c \\\" d\" e\\ f {seed:3} ''").unwrap(),
            ["gen.py", "a b", "c \" d", "e f", "{seed:3}", ""]
        );
        assert!(split_words("gen.py 'open").is_err());
        assert_eq!(seed_count("x{seed}y{seed:2}"), 2);
        assert_eq!(seed_count("{seedling}"), 0);
        assert_eq!(
            args_with_seed(&["n={seed:7}".to_string(), "{name}".to_string()], 42),
            ["n=42", "{name}"]
        );
    }
}
