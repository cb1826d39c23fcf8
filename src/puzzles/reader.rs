//! Strict readers for the files a puzzle reads: case inputs, answer files and
//! contestant outputs.
//!
//! Every reader works on raw bytes (never assumes UTF-8), tracks 1-based line
//! and column numbers, and reports a problem as a [`FormatError`] that names
//! the position, the token found (quoted, escaped and shortened) and what was
//! expected. Nothing here panics on any input, and no token is ever copied
//! whole: a 10 MB "number" costs nothing more than its length.

use std::fmt;

/// Where a token starts: 1-based line and column (column counts bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A problem in a file the judge reads, with its position.
///
/// Displayed as `line L, column C: found "tok", expected …` — the caller adds
/// the file name in front (`cases/rotation/3.in:2:7: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Where the problem is; `None` for the whole file (e.g. "empty file").
    pub pos: Option<Pos>,
    /// The offending token, already quoted for display (`"12x"`), if any.
    pub found: Option<String>,
    /// What was expected, or what is wrong, in words.
    pub reason: String,
}

impl FormatError {
    pub fn new(pos: Option<Pos>, found: Option<String>, reason: impl Into<String>) -> Self {
        FormatError {
            pos,
            found,
            reason: reason.into(),
        }
    }

    /// An error about a token.
    pub fn at_token(token: &Token<'_>, reason: impl Into<String>) -> Self {
        FormatError::new(Some(token.pos), Some(token.quoted()), reason)
    }

    /// An error at a position with no token (end of file, an empty line…).
    pub fn at(pos: Pos, reason: impl Into<String>) -> Self {
        FormatError::new(Some(pos), None, reason)
    }

    /// An error about the whole file.
    pub fn whole(reason: impl Into<String>) -> Self {
        FormatError::new(None, None, reason)
    }

    /// `path:line:column: message`, the form compilers use, so editors jump to it.
    pub fn with_path(&self, path: &std::path::Path) -> String {
        match self.pos {
            Some(pos) => format!(
                "{}:{}:{}: {}",
                path.display(),
                pos.line,
                pos.column,
                self.message()
            ),
            None => format!("{}: {}", path.display(), self.message()),
        }
    }

    /// The message without the position.
    pub fn message(&self) -> String {
        match &self.found {
            Some(found) => format!("found {found}, {}", self.reason),
            None => self.reason.clone(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(pos) => write!(
                f,
                "line {}, column {}: {}",
                pos.line,
                pos.column,
                self.message()
            ),
            None => f.write_str(&self.message()),
        }
    }
}

impl std::error::Error for FormatError {}

/// How many bytes of a token a message shows before cutting it with `…`.
pub const SHOWN_TOKEN_BYTES: usize = 24;

/// Quote bytes for a message: printable ASCII as is, everything else escaped
/// (`\r`, `\t`, `\xff`), cut after [`SHOWN_TOKEN_BYTES`] with a note of the
/// full length.
pub fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes.iter().take(SHOWN_TOKEN_BYTES) {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    if bytes.len() > SHOWN_TOKEN_BYTES {
        out.push_str(&format!("… ({} bytes)", bytes.len()));
    }
    out
}

/// A white-space separated token and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub bytes: &'a [u8],
    pub pos: Pos,
}

impl<'a> Token<'a> {
    /// The token quoted for a message (see [`quote`]).
    pub fn quoted(&self) -> String {
        quote(self.bytes)
    }

    /// The token as text, if it is valid UTF-8.
    pub fn as_str(&self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes).ok()
    }

    pub fn is(&self, text: &str) -> bool {
        self.bytes == text.as_bytes()
    }

    /// Parse an unsigned decimal integer no larger than `max`: digits only
    /// (no sign, no leading `+`), and no leading zero unless `allow_leading_zero`.
    /// A 400-digit number is an error, not an overflow.
    pub fn parse_uint(&self, max: u64, allow_leading_zero: bool) -> Result<u64, FormatError> {
        let b = self.bytes;
        if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
            return Err(FormatError::at_token(
                self,
                format!("expected an integer from 0 to {max}"),
            ));
        }
        if !allow_leading_zero && b.len() > 1 && b[0] == b'0' {
            return Err(FormatError::at_token(
                self,
                "expected an integer without leading zeros",
            ));
        }
        let mut value: u64 = 0;
        for &d in b {
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
            {
                Some(v) if v <= max => v,
                _ => {
                    return Err(FormatError::at_token(
                        self,
                        format!("expected an integer from 0 to {max} (this one is too large)"),
                    ));
                }
            };
        }
        Ok(value)
    }
}

impl Token<'_> {
    /// Parse a decimal integer in `lo..=hi` the strict way [`Token::parse_uint`]
    /// does (digits only, no leading zero), with a reason that names what the
    /// number is: `expected a row from 1 to 4`.
    pub fn parse_in(&self, lo: u64, hi: u64, what: &str) -> Result<u64, FormatError> {
        let expected = || format!("expected {what} from {lo} to {hi}");
        let b = self.bytes;
        if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
            return Err(FormatError::at_token(self, expected()));
        }
        if b.len() > 1 && b[0] == b'0' {
            return Err(FormatError::at_token(
                self,
                format!("{} (without leading zeros)", expected()),
            ));
        }
        // More than 20 digits cannot fit; checked_mul keeps the rest honest.
        let mut value: u64 = 0;
        for &d in b {
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
            {
                Some(v) if v <= hi => value = v,
                _ => {
                    return Err(FormatError::at_token(
                        self,
                        format!("{} (this one is too large)", expected()),
                    ));
                }
            }
        }
        if value < lo {
            return Err(FormatError::at_token(self, expected()));
        }
        Ok(value)
    }
}

/// ASCII white space as C's `isspace` sees it (what `scanf` and `cin` skip).
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A lenient token reader: any run of white space separates tokens, lines
/// are only counted. This is how contestant programs read input with
/// `scanf`/`cin`, and how checkers read output in lenient mode.
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    data: &'a [u8],
    at: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Tokens {
            data,
            at: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.data.get(self.at) {
            if !is_space(b) {
                break;
            }
            self.at += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.at;
            }
        }
    }

    /// The position of the next token, or of the end of the data.
    pub fn pos(&mut self) -> Pos {
        self.skip_space();
        Pos {
            line: self.line,
            column: self.at - self.line_start + 1,
        }
    }

    /// The next token, without consuming it.
    pub fn peek(&mut self) -> Option<Token<'a>> {
        self.clone().next()
    }

    /// True when only white space is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.at >= self.data.len()
    }

    /// The next token, or an error "expected {what}" at the end of the data.
    pub fn expect(&mut self, what: &str) -> Result<Token<'a>, FormatError> {
        self.expect_with(|| what.to_string())
    }

    /// [`Tokens::expect`] with the description made only when it is
    /// needed: a reader of many cases allocates nothing per token.
    pub fn expect_with(&mut self, what: impl FnOnce() -> String) -> Result<Token<'a>, FormatError> {
        let pos = self.pos();
        self.next().ok_or_else(|| {
            FormatError::at(
                pos,
                format!("expected {}, found the end of the file", what()),
            )
        })
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        self.skip_space();
        let start = self.at;
        if start >= self.data.len() {
            return None;
        }
        while let Some(&b) = self.data.get(self.at) {
            if is_space(b) {
                break;
            }
            self.at += 1;
        }
        Some(Token {
            bytes: &self.data[start..self.at],
            pos: Pos {
                line: self.line,
                column: start - self.line_start + 1,
            },
        })
    }
}

/// One line of a file, without its `\n`, and its 1-based number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub bytes: &'a [u8],
    pub number: usize,
}

impl<'a> Line<'a> {
    /// The tokens of this line, separated by spaces or tabs, with positions.
    pub fn tokens(&self) -> impl Iterator<Item = Token<'a>> + 'a {
        let number = self.number;
        let bytes = self.bytes;
        let mut at = 0;
        std::iter::from_fn(move || {
            while at < bytes.len() && is_space(bytes[at]) {
                at += 1;
            }
            if at >= bytes.len() {
                return None;
            }
            let start = at;
            while at < bytes.len() && !is_space(bytes[at]) {
                at += 1;
            }
            Some(Token {
                bytes: &bytes[start..at],
                pos: Pos {
                    line: number,
                    column: start + 1,
                },
            })
        })
    }

    /// The fields of a line written the canonical way: separated by exactly
    /// one space, no space at either end, no tab. Each item is a field or the
    /// error at the first offending byte; the iterator stops after an error.
    /// Lazy, so a validator that wants `n` fields never reads further.
    pub fn single_spaced_fields(
        &self,
    ) -> impl Iterator<Item = Result<Token<'a>, FormatError>> + 'a {
        let number = self.number;
        let bytes = self.bytes;
        let mut at = 0;
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed || at >= bytes.len() {
                return None;
            }
            let pos = |column: usize| Pos {
                line: number,
                column,
            };
            if at > 0 {
                // `at` sits on the separator after the previous field.
                if bytes[at] != b' ' {
                    failed = true;
                    return Some(Err(FormatError::at(
                        pos(at + 1),
                        "expected a single space between fields",
                    )));
                }
                at += 1;
                if at >= bytes.len() {
                    failed = true;
                    return Some(Err(FormatError::at(pos(at), "the line ends with a space")));
                }
            }
            if is_space(bytes[at]) {
                failed = true;
                let reason = match (at, bytes[at]) {
                    (_, b'\t') => "a tab; fields are separated by single spaces",
                    (0, _) => "the line starts with white space",
                    _ => "expected a single space between fields, found two",
                };
                return Some(Err(FormatError::at(pos(at + 1), reason)));
            }
            let start = at;
            while at < bytes.len() && !is_space(bytes[at]) {
                at += 1;
            }
            Some(Ok(Token {
                bytes: &bytes[start..at],
                pos: pos(start + 1),
            }))
        })
    }

    /// True when the line holds only spaces and tabs (or nothing).
    pub fn is_blank(&self) -> bool {
        self.bytes.iter().all(|&b| b == b' ' || b == b'\t')
    }

    pub fn end_pos(&self) -> Pos {
        Pos {
            line: self.number,
            column: self.bytes.len() + 1,
        }
    }
}

/// Strict checks every validator makes before reading a case file: valid
/// UTF-8 (all our formats are ASCII, so any byte ≥ 0x80 is an error), no
/// byte-order mark, no carriage return (case files use LF line endings: see
/// README "CRLF"), no NUL or other control byte, and a final newline.
pub fn check_plain_text(data: &[u8]) -> Result<(), FormatError> {
    if data.starts_with(&[0xef, 0xbb, 0xbf]) {
        return Err(FormatError::at(
            Pos { line: 1, column: 1 },
            "the file starts with a UTF-8 byte-order mark; case files must be plain ASCII",
        ));
    }
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in data.iter().enumerate() {
        let pos = Pos {
            line,
            column: i - line_start + 1,
        };
        match b {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'\r' => {
                return Err(FormatError::at(
                    pos,
                    "carriage return (CRLF line ending); case files must use LF line endings (try dos2unix)",
                ));
            }
            b'\t' | 0x20..=0x7e => {}
            0x80..=0xff => {
                let reason = if looks_like_utf8_start(&data[i..]) {
                    "non-ASCII character; case files must be plain ASCII".to_string()
                } else {
                    format!("byte 0x{b:02x} is not valid UTF-8; case files must be plain ASCII")
                };
                return Err(FormatError::at(pos, reason));
            }
            _ => {
                return Err(FormatError::at(
                    pos,
                    format!("control byte 0x{b:02x}; case files must be plain ASCII text"),
                ));
            }
        }
    }
    if !data.is_empty() && !data.ends_with(b"\n") {
        return Err(FormatError::at(
            Pos {
                line,
                column: data.len() - line_start + 1,
            },
            "the last line has no newline at its end",
        ));
    }
    Ok(())
}

fn looks_like_utf8_start(rest: &[u8]) -> bool {
    // Valid UTF-8 sequence starting here (up to 4 bytes)?
    (2..=4).any(|n| rest.len() >= n && std::str::from_utf8(&rest[..n]).is_ok())
}

/// The lines of a file, split on `\n`. A final newline does not start an
/// extra empty line.
pub fn lines(data: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let mut number = 0;
    let mut parts = if data.is_empty() {
        None
    } else {
        Some(body.split(|&b| b == b'\n'))
    };
    std::iter::from_fn(move || {
        let bytes = parts.as_mut()?.next()?;
        number += 1;
        Some(Line { bytes, number })
    })
}

#[cfg(test)]
mod tests;
