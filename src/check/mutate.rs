//! Small mutations of valid files, for probing the problem setter's tools
//! (`judge validate`): an input validator should reject every mutated input,
//! and a checker every mutated answer given as an output. A tool that
//! accepts one is too weak, and gets a warning naming the mutation.
//!
//! Each mutation is deterministic and says what it changed; mutations that
//! would not change the file (no number to put a zero before, one line to
//! drop) are left out. This module only makes bytes: running the tools on
//! them and warning is `judge validate`'s job.

use rand::{RngExt, SeedableRng};

/// A mutated file and what was done to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// "a leading zero on "5" (line 2)": names the change for a warning.
    pub what: String,
    /// A short stable name for grouping warnings ("leading zero").
    pub kind: &'static str,
    pub bytes: Vec<u8>,
}

fn mutation(kind: &'static str, what: String, bytes: Vec<u8>) -> Mutation {
    Mutation { what, kind, bytes }
}

/// Lines without their `\n`; a final newline does not make an empty line.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    if body.is_empty() && text.len() <= 1 {
        return if text.is_empty() {
            Vec::new()
        } else {
            vec![body]
        };
    }
    body.split(|&b| b == b'\n').collect()
}

/// The first token (non-white-space run): its byte range and line (1-based).
fn first_token(text: &[u8], pred: impl Fn(&[u8]) -> bool) -> Option<(usize, usize, usize)> {
    let mut i = 0;
    let mut line = 1;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            if text[i] == b'\n' {
                line += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && !text[i].is_ascii_whitespace() {
            i += 1;
        }
        if pred(&text[start..i]) {
            return Some((start, i, line));
        }
    }
    None
}

fn is_integer(token: &[u8]) -> bool {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

fn show(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let cut: String = text.chars().take(20).collect();
    if cut.len() < text.len() {
        format!("\"{cut}…\"")
    } else {
        format!("\"{cut}\"")
    }
}

/// Mutations of a valid input that a strict validator rejects: an extra
/// space at a line end, a leading zero on a number, junk at the end, the
/// last line dropped, Windows line endings, an empty file, random bytes.
pub fn input_mutations(input: &[u8], seed: u64) -> Vec<Mutation> {
    let mut out = Vec::new();
    // An extra space at the end of the first line.
    let end = input
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(input.len());
    if !input.is_empty() {
        let mut bytes = input.to_vec();
        bytes.insert(end, b' ');
        out.push(mutation(
            "extra space",
            "an extra space at the end of line 1".into(),
            bytes,
        ));
    }
    // A leading zero on the first integer.
    if let Some((start, stop, line)) = first_token(input, is_integer) {
        let mut bytes = input.to_vec();
        let at = if input[start] == b'-' {
            start + 1
        } else {
            start
        };
        bytes.insert(at, b'0');
        let changed = &bytes[start..stop + 1];
        out.push(mutation(
            "leading zero",
            format!(
                "a leading zero: {} became {} (line {line})",
                show(&input[start..stop]),
                show(changed)
            ),
            bytes,
        ));
    }
    // Junk after the last line.
    let mut bytes = input.to_vec();
    bytes.extend_from_slice(b"junk\n");
    out.push(mutation(
        "junk at the end",
        "\"junk\" appended at the end".into(),
        bytes,
    ));
    // The last line dropped.
    let all = lines(input);
    if all.len() >= 2 {
        let mut bytes = all[..all.len() - 1].join(&b'\n');
        bytes.push(b'\n');
        out.push(mutation(
            "line dropped",
            format!("the last line (line {}) dropped", all.len()),
            bytes,
        ));
    }
    // Windows line endings.
    if input.contains(&b'\n') && !input.contains(&b'\r') {
        let mut bytes = Vec::with_capacity(input.len() + all.len());
        for &b in input {
            if b == b'\n' {
                bytes.push(b'\r');
            }
            bytes.push(b);
        }
        out.push(mutation(
            "CRLF",
            "Windows line endings (CR LF)".into(),
            bytes,
        ));
    }
    if !input.is_empty() {
        out.push(mutation("empty file", "an empty file".into(), Vec::new()));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let random: Vec<u8> = (0..64).map(|_| rng.random::<u8>()).collect();
    out.push(mutation("random bytes", "64 random bytes".into(), random));
    out.retain(|m| m.bytes != input);
    out
}

/// Mutations of a correct answer, as an output a checker must not accept:
/// a token changed, the last line dropped, junk appended.
pub fn answer_mutations(answer: &[u8]) -> Vec<Mutation> {
    let mut out = Vec::new();
    if let Some((start, stop, line)) = first_token(answer, |_| true) {
        let token = &answer[start..stop];
        let mut changed = token.to_vec();
        if let Some(i) = changed.iter().position(u8::is_ascii_digit) {
            changed[i] = if changed[i] == b'9' {
                b'0'
            } else {
                changed[i] + 1
            };
            if i == 0 && changed[0] == b'0' && changed.len() > 1 {
                // "9…" must not become "0…", a number with a leading zero.
                changed[0] = b'1';
            }
        } else if let Some(i) = changed.iter().position(u8::is_ascii_alphabetic) {
            changed[i] = match changed[i] {
                b'z' => b'a',
                b'Z' => b'A',
                c => c + 1,
            };
        } else {
            changed.push(b'x');
        }
        let mut bytes = answer[..start].to_vec();
        bytes.extend_from_slice(&changed);
        bytes.extend_from_slice(&answer[stop..]);
        out.push(mutation(
            "token changed",
            format!(
                "a token changed: {} became {} (line {line})",
                show(token),
                show(&changed)
            ),
            bytes,
        ));
    }
    let all = lines(answer);
    if all.len() >= 2 {
        let mut bytes = all[..all.len() - 1].join(&b'\n');
        bytes.push(b'\n');
        out.push(mutation(
            "line dropped",
            format!("the last line (line {}) dropped", all.len()),
            bytes,
        ));
    } else if !answer.iter().all(u8::is_ascii_whitespace) {
        out.push(mutation(
            "line dropped",
            "the only line dropped (an empty output)".into(),
            Vec::new(),
        ));
    }
    let mut bytes = answer.to_vec();
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"junk\n");
    out.push(mutation("junk appended", "\"junk\" appended".into(), bytes));
    out.retain(|m| m.bytes != answer);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(all: &'a [Mutation], kind: &str) -> Option<&'a Mutation> {
        all.iter().find(|m| m.kind == kind)
    }

    #[test]
    fn input_mutations_change_what_they_say() {
        let input = b"2\n-5 7\n3 4\n";
        let all = input_mutations(input, 1);
        assert_eq!(find(&all, "extra space").unwrap().bytes, b"2 \n-5 7\n3 4\n");
        let zero = find(&all, "leading zero").unwrap();
        assert_eq!(zero.bytes, b"02\n-5 7\n3 4\n");
        assert_eq!(zero.what, "a leading zero: \"2\" became \"02\" (line 1)");
        assert_eq!(
            find(&all, "junk at the end").unwrap().bytes,
            b"2\n-5 7\n3 4\njunk\n"
        );
        assert_eq!(find(&all, "line dropped").unwrap().bytes, b"2\n-5 7\n");
        assert_eq!(find(&all, "CRLF").unwrap().bytes, b"2\r\n-5 7\r\n3 4\r\n");
        assert!(find(&all, "empty file").unwrap().bytes.is_empty());
        assert_eq!(find(&all, "random bytes").unwrap().bytes.len(), 64);
        assert_eq!(input_mutations(input, 1), all, "deterministic");
        let neg = input_mutations(b"x -5\n", 1);
        assert_eq!(find(&neg, "leading zero").unwrap().bytes, b"x -05\n");
        assert!(
            find(&neg, "line dropped").is_none(),
            "one line: nothing to drop"
        );
    }

    #[test]
    fn answer_mutations_change_a_token_drop_a_line_append_junk() {
        let all = answer_mutations(b"3\n7\n");
        let token = find(&all, "token changed").unwrap();
        assert_eq!(token.bytes, b"4\n7\n");
        assert_eq!(token.what, "a token changed: \"3\" became \"4\" (line 1)");
        assert_eq!(find(&all, "line dropped").unwrap().bytes, b"3\n");
        assert_eq!(find(&all, "junk appended").unwrap().bytes, b"3\n7\njunk\n");
        assert_eq!(
            find(&answer_mutations(b"99\n"), "token changed")
                .unwrap()
                .bytes,
            b"19\n"
        );
        assert_eq!(
            find(&answer_mutations(b"YES"), "token changed")
                .unwrap()
                .bytes,
            b"ZES"
        );
        assert_eq!(
            find(&answer_mutations(b"YES"), "junk appended")
                .unwrap()
                .bytes,
            b"YES\njunk\n"
        );
        assert!(
            find(&answer_mutations(b"YES\n"), "line dropped")
                .unwrap()
                .bytes
                .is_empty()
        );
    }
}
