//! A testset's path patterns (`tests/%02d`): printf's `%d`, `%0Nd` and
//! `%%`, shared by the reader, the script and the tools' own tests.

/// The widest `%0Nd` a path pattern may ask for: a file name is at most
/// 255 bytes on Linux.
pub const MAX_WIDTH: usize = 255;

/// A testset's path pattern that the judge does not understand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// A `%` other than `%d`, `%0Nd` or `%%`.
    #[error("path pattern {pattern:?}: only %d, %0Nd and %% are understood")]
    Unknown { pattern: String },
    /// A width past [`MAX_WIDTH`] (`digits` as written).
    #[error(
        "path pattern {pattern:?}: a width of {digits}; at most {MAX_WIDTH} (a file name's length)"
    )]
    TooWide { pattern: String, digits: String },
}

/// A path pattern (`tests/%02d`) with test number `n`: printf's `%d`,
/// `%0Nd` and `%%`. Errors name what is not understood.
pub fn format_pattern(pattern: &str, n: usize) -> Result<String, PatternError> {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut spec = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            spec.push(d);
            chars.next();
        }
        if chars.next() != Some('d') {
            return Err(PatternError::Unknown {
                pattern: pattern.to_string(),
            });
        }
        let digits = spec.trim_start_matches('0');
        let width: usize = match digits.parse() {
            Ok(w) if w <= MAX_WIDTH => w,
            _ if digits.is_empty() => 0,
            _ => {
                return Err(PatternError::TooWide {
                    pattern: pattern.to_string(),
                    digits: digits.to_string(),
                });
            }
        };
        if spec.starts_with('0') {
            out.push_str(&format!("{n:0width$}"));
        } else {
            out.push_str(&format!("{n:width$}"));
        }
    }
    Ok(out)
}
