//! Globs from a user's or a package's text (`--filter`, submissions.yaml
//! keys, a subtask's cases), compiled with their limits checked first:
//! `globset` panics when a glob's regular expression is too deep for the
//! regex parser (300 nested `{…}` in a 1 KB submissions.yaml key), so a
//! glob nested past [`MAX_NESTING`] or longer than [`MAX_LENGTH`] is an
//! error naming it, never a panic.

/// The deepest nesting of `{…}` alternatives a glob may have.
pub const MAX_NESTING: usize = 8;

/// The longest glob, in bytes.
pub const MAX_LENGTH: usize = 4096;

/// Why a text is not a glob the judge compiles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GlobError {
    #[error("longer than {MAX_LENGTH} bytes ({length}), more than a glob needs")]
    TooLong { length: usize },
    #[error("nested {depth} levels deep in {{…}}; at most {MAX_NESTING}")]
    TooDeep { depth: usize },
    #[error(transparent)]
    Invalid(#[from] globset::Error),
}

/// `pattern` as a glob (`*` within one path part when `literal_separator`).
pub fn compile(pattern: &str, literal_separator: bool) -> Result<globset::Glob, GlobError> {
    if pattern.len() > MAX_LENGTH {
        return Err(GlobError::TooLong {
            length: pattern.len(),
        });
    }
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut escaped = false;
    for c in pattern.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_NESTING {
        return Err(GlobError::TooDeep { depth: deepest });
    }
    Ok(globset::GlobBuilder::new(pattern)
        .literal_separator(literal_separator)
        .build()?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_deep_glob_is_an_error_not_a_panic() {
        let deep = format!("accepted/{}b{}.py", "{a,".repeat(300), "}".repeat(300));
        let e = super::compile(&deep, true).unwrap_err();
        assert!(e.to_string().contains("nested 300 levels"), "{e}");
        let ok = super::compile("accepted/{a,{b,c}}*.py", true).expect("a glob");
        assert!(ok.compile_matcher().is_match("accepted/c1.py"));
    }
}
