//! The cases of a Polygon package as the judge's case walk reads them:
//! a directory outside the package (in the judge's cache directory, one a
//! package, named by a digest of its path) of links `NN.in` → the test's
//! input (`tests/NN`) and `NN.ans` → its answer (`tests/NN.a`). The package
//! itself is never written to. Rebuilt on every load: a link is replaced
//! only when it leads elsewhere, anything not a test's is removed.

use super::read::{Description, Method, format_pattern};
use super::scoring::case_name;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Make the view of `root`'s tests; a test whose input is missing (a
/// standard package's generated test) is named in a warning and left out.
pub fn make(
    root: &Path,
    desc: &Description,
    warnings: &mut Vec<String>,
) -> Result<PathBuf, String> {
    let real = std::fs::canonicalize(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let digest = Sha256::digest(real.as_os_str().as_encoded_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
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
        format_pattern(pattern, index)
            .map_err(|e| format!("{}: {e}", root.join(super::PROBLEM_XML).display()))
    };
    for test in &set.tests {
        let input = real.join(pattern(&set.input_pattern, test.index)?);
        let answer = real.join(pattern(&set.answer_pattern, test.index)?);
        let name = case_name(test.index, count);
        if !input.is_file() {
            missing.push(match (&test.method, &test.cmd) {
                (Method::Generated, Some(cmd)) => format!("{} (`{cmd}`)", test.index),
                _ => test.index.to_string(),
            });
            continue;
        }
        wanted.push((format!("{name}.in"), input));
        if answer.is_file() {
            wanted.push((format!("{name}.ans"), answer));
        } else {
            unanswered.push(test.index.to_string());
        }
    }
    if !missing.is_empty() {
        warnings.push(format!(
            "{}: {} no input file ({}): not judged; a standard package's generated tests are made by `judge gen` on the package (or use the full package)",
            root.display(),
            some_tests(&missing),
            set.input_pattern
        ));
    }
    if !unanswered.is_empty() {
        warnings.push(format!(
            "{}: {} no answer file ({}): a standard package's answers are made by its main solution in `judge gen` on the package",
            root.display(),
            some_tests(&unanswered),
            set.answer_pattern
        ));
    }
    for entry in std::fs::read_dir(&view)
        .map_err(|e| format!("{}: {e}", view.display()))?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let keep = wanted.iter().any(|(n, target)| {
            *n == name && std::fs::read_link(entry.path()).is_ok_and(|t| &t == target)
        });
        if !keep {
            std::fs::remove_file(entry.path())
                .map_err(|e| format!("{}: cannot remove: {e}", entry.path().display()))?;
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
            Err(e) => return Err(format!("{}: cannot link: {e}", link.display())),
        }
    }
    Ok(view)
}

/// Tests named in a warning, with their verb: all of a few, the first of
/// many and how many more.
fn some_tests(tests: &[String]) -> String {
    const SHOWN: usize = 8;
    if tests.len() == 1 {
        return format!("test {} has", tests[0]);
    }
    if tests.len() <= SHOWN {
        return format!("tests {} have", tests.join(", "));
    }
    format!(
        "{} tests ({}, … and {} more) have",
        tests.len(),
        tests[..SHOWN].join(", "),
        tests.len() - SHOWN
    )
}

fn create_private(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Ok(()) => Ok(()),
        Err(e) => Err(format!("{}: cannot create: {e}", dir.display())),
    }
}
