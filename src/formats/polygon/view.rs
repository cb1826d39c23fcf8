//! The cases of a Polygon package as the judge's case walk reads them:
//! a directory outside the package (in the judge's cache directory, one a
//! package, named by a digest of its path) of links `NN.in` → the test's
//! input (`tests/NN`) and `NN.ans` → its answer (`tests/NN.a`), or, for a
//! test the package declares and does not hold, → what `judge verify` /
//! `run` built for it (the built map beside the view: each test's input
//! and answer in the store of built tests, named by the key of what made
//! them). The package itself is never written to. Rebuilt on every load: a
//! link is replaced only when it leads elsewhere, anything not a test's is
//! removed. A test with no input, or with no answer, is not judged (named
//! in a warning): no case is checked against an answer that does not
//! exist.

use super::read::{Description, Method, format_pattern};
use super::scoring::case_name;
use crate::formats::error::{FormatError, Place};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The store of built tests: each file named by the hex key of what made
/// it (the generator's sources and command, or the main solution's source
/// and the input).
pub fn built_store() -> PathBuf {
    crate::exec::cache_dir().join("polygon").join("built")
}

/// The built map of the package at `root`: `in INDEX KEY` and `ans INDEX
/// KEY` lines, one a built file of a test the package does not hold.
pub fn built_map(root: &Path) -> Result<PathBuf, FormatError> {
    Ok(crate::exec::cache_dir()
        .join("polygon")
        .join(format!("{}.built", package_digest(root)?)))
}

fn package_digest(root: &Path) -> Result<String, FormatError> {
    let real = std::fs::canonicalize(root).map_err(FormatError::io(root, ""))?;
    let digest = Sha256::digest(real.as_os_str().as_encoded_bytes());
    Ok(crate::exec::identity::hex(
        digest.get(..12).unwrap_or(&digest),
    ))
}

/// The built map as (kind, index) → the built file; a line that does not
/// read, or a file no longer in the store, is left out.
fn read_built(root: &Path) -> HashMap<(bool, usize), PathBuf> {
    let mut out = HashMap::new();
    let Ok(map) = built_map(root) else {
        return out;
    };
    let Ok(text) = crate::exec::bounded_read::read_package_file(&map, 16 << 20) else {
        return out;
    };
    let store = built_store();
    for line in String::from_utf8_lossy(&text).lines() {
        let mut words = line.split(' ');
        let (Some(kind), Some(index), Some(key), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            continue;
        };
        let (Ok(index), true) = (
            index.parse::<usize>(),
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_hexdigit()),
        ) else {
            continue;
        };
        let file = store.join(key);
        if file.is_file() && matches!(kind, "in" | "ans") {
            out.insert((kind == "in", index), file);
        }
    }
    out
}

/// Make the view of `root`'s tests; a test whose input is missing (a
/// standard package's generated test) is named in a warning and left out.
pub fn make(
    root: &Path,
    desc: &Description,
    warnings: &mut Vec<String>,
) -> Result<PathBuf, FormatError> {
    let real = std::fs::canonicalize(root).map_err(FormatError::io(root, ""))?;
    let hex = package_digest(root)?;
    let built = read_built(root);
    let base = crate::exec::cache_dir().join("polygon");
    let view = base.join(hex);
    create_private(&base)?;
    create_private(&view)?;
    let set = &desc.testset;
    let count = set.tests.len();
    let mut wanted: Vec<(String, PathBuf)> = Vec::new();
    let mut missing = Vec::new();
    let mut unanswered = Vec::new();
    let pattern = |pattern: &str, index: usize| {
        format_pattern(pattern, index).map_err(|e| {
            FormatError::key(
                Place::file(&root.join(super::PROBLEM_XML)),
                "path-pattern",
                Some(pattern.to_string()),
                e.to_string(),
            )
        })
    };
    for test in &set.tests {
        let input = real.join(pattern(&set.input_pattern, test.index)?);
        let answer = real.join(pattern(&set.answer_pattern, test.index)?);
        let name = case_name(test.index, count);
        let input = match built.get(&(true, test.index)) {
            Some(made) if !input.is_file() => made.clone(),
            _ => input,
        };
        let answer = match built.get(&(false, test.index)) {
            Some(made) if !answer.is_file() => made.clone(),
            _ => answer,
        };
        if !input.is_file() {
            missing.push(match (&test.method, &test.cmd) {
                (Method::Generated, Some(cmd)) => format!("{} (`{cmd}`)", test.index),
                _ => test.index.to_string(),
            });
            continue;
        }
        if answer.is_file() {
            wanted.push((format!("{name}.in"), input));
            wanted.push((format!("{name}.ans"), answer));
        } else {
            unanswered.push(test.index.to_string());
        }
    }
    if !missing.is_empty() {
        warnings.push(format!(
            "{}: {} no input file ({}), and none was built: not judged (`judge verify` and `judge run` build a standard package's tests; `judge gen` writes them into the package)",
            root.display(),
            some_tests(&missing),
            set.input_pattern
        ));
    }
    if !unanswered.is_empty() {
        warnings.push(format!(
            "{}: {} no answer file ({}), and none was built: not judged (no case is checked against an answer that does not exist; `judge verify` and `judge run` make a standard package's answers with its main solution)",
            root.display(),
            some_tests(&unanswered),
            set.answer_pattern
        ));
    }
    // Windows text as Polygon's programs read it (`crlf`).
    let store = built_store();
    let mut windows = 0usize;
    for (_, target) in &mut wanted {
        let (read, converted) =
            super::crlf::as_read(target, &store).map_err(FormatError::io(target, ""))?;
        windows += usize::from(converted);
        *target = read;
    }
    if windows > 0 {
        warnings.push(format!(
            "{}: {windows} test file{} Windows line ends (\\r\\n): given to every program with \\n, as Polygon's judges read them in text mode (docs/packages.md)",
            root.display(),
            if windows == 1 { " has" } else { "s have" }
        ));
    }
    for entry in std::fs::read_dir(&view)
        .map_err(FormatError::io(&view, ""))?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let keep = wanted.iter().any(|(n, target)| {
            *n == name && std::fs::read_link(entry.path()).is_ok_and(|t| &t == target)
        });
        if !keep {
            std::fs::remove_file(entry.path())
                .map_err(FormatError::io(&entry.path(), "cannot remove"))?;
        }
    }
    for (name, target) in &wanted {
        let link = view.join(name);
        if std::fs::read_link(&link).is_ok_and(|t| &t == target) {
            continue;
        }
        match std::os::unix::fs::symlink(target, &link) {
            Ok(()) => {}
            // Another judge made the same link meanwhile.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(FormatError::io(&link, "cannot link")(e)),
        }
    }
    Ok(view)
}

/// Tests named in a warning, with their verb: all of a few, the first of
/// many and how many more.
fn some_tests(tests: &[String]) -> String {
    const SHOWN: usize = 8;
    if let [one] = tests {
        return format!("test {one} has");
    }
    if tests.len() <= SHOWN {
        return format!("tests {} have", tests.join(", "));
    }
    format!(
        "{} tests ({}, … and {} more) have",
        tests.len(),
        tests.get(..SHOWN).unwrap_or(tests).join(", "),
        tests.len() - SHOWN
    )
}

fn create_private(dir: &Path) -> Result<(), FormatError> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Ok(()) => Ok(()),
        Err(e) => Err(FormatError::io(dir, "cannot create")(e)),
    }
}
