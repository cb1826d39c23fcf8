//! Polygon's source types (`cpp.g++17`, `python.3`, `java11`, …) against
//! the judge's languages: the judge picks a language by the file's
//! extension; a type it has no language for is a named error for that
//! program only.

use super::read::Program;
use std::path::Path;

/// The families of Polygon source types the judge builds, with the file
/// extensions each may have.
const FAMILIES: [(&str, &[&str]); 8] = [
    ("cpp.", &["cpp", "cc", "cxx", "c++"]),
    ("c.", &["c"]),
    ("java", &["java"]),
    ("kotlin", &["kt"]),
    ("python.3", &["py"]),
    ("python.pypy3", &["py"]),
    ("rust", &["rs"]),
    ("go", &["go"]),
];

/// Whether the judge can build `program` by its type: `Err` names the
/// file, line and type.
pub fn check_type(program: &Program, file: &Path) -> Result<(), String> {
    let Some(kind) = &program.kind else {
        return Ok(());
    };
    let known = FAMILIES
        .iter()
        .any(|(prefix, _)| kind.starts_with(prefix) || kind == prefix.trim_end_matches('.'));
    if known {
        return Ok(());
    }
    Err(format!(
        "{}:{}: {}: source type {kind:?} is not one the judge builds (C, C++, Java, Kotlin, Python 3, Rust, Go)",
        file.display(),
        program.line,
        program.path
    ))
}
