//! The 2025-09 rules on the shape of `data/`, checked and named as
//! warnings (the judge still runs what it finds, as before):
//!
//! - `data/secret` holds test data groups or test cases, never both;
//! - groups do not nest: no `test_group.yaml` below `data/secret/GROUP/`;
//! - `data/sample` has no groups (a directory with a `test_group.yaml`);
//! - a directory is never named as a test case beside it (`huge.in` and
//!   `huge/`).
//!
//! Older formats allow nested groups and cases beside groups; nothing is
//! checked for them.

use std::path::Path;

/// The warnings for a 2025-09 package's `data/` at `data`.
pub(super) fn warnings(data: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let secret = data.join("secret");
    let (cases, groups) = entries(&secret, &mut found);
    if !cases.is_empty() && !groups.is_empty() {
        found.push(format!(
            "{}: holds both test cases ({}) and test data groups ({}/); 2025-09 allows one or the other",
            secret.display(),
            first(&cases),
            first(&groups)
        ));
    }
    for group in &groups {
        nested_group_files(&secret.join(group), &secret.join(group), &mut found);
    }
    // A directory in sample is a group when it has a test_group.yaml.
    let sample = data.join("sample");
    let (_, sample_dirs) = entries(&sample, &mut found);
    for d in sample_dirs {
        if sample.join(&d).join("test_group.yaml").is_file() {
            found.push(format!(
                "{}: {d}/: data/sample must not contain test data groups (2025-09)",
                sample.display()
            ));
        }
    }
    found
}

/// The case names (`.in` stems) and directory names in `dir`; a directory
/// named as a case beside it is named in `found`.
fn entries(dir: &Path, found: &mut Vec<String>) -> (Vec<String>, Vec<String>) {
    let (mut cases, mut dirs) = (Vec::new(), Vec::new());
    let Ok(read) = std::fs::read_dir(dir) else {
        return (cases, dirs);
    };
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        // The spec treats names starting with `.` or `-` as absent (the
        // judge's discovery skips dot files too).
        if name.starts_with('.') || name.starts_with('-') {
            continue;
        }
        let is_dir = entry.path().is_dir();
        if is_dir && !name.ends_with(".files") {
            dirs.push(name);
        } else if let Some(stem) = name.strip_suffix(".in") {
            cases.push(stem.to_string());
        }
    }
    cases.sort();
    dirs.sort();
    for d in &dirs {
        if cases.binary_search(d).is_ok() {
            found.push(format!(
                "{}: a directory named as the test case {d}.in beside it (2025-09 forbids it)",
                dir.join(d).display()
            ));
        }
    }
    (cases, dirs)
}

/// `test_group.yaml` files below a group: 2025-09 groups do not nest.
fn nested_group_files(group: &Path, dir: &Path, found: &mut Vec<String>) {
    let (_, dirs) = entries(dir, found);
    for d in dirs {
        let sub = dir.join(&d);
        let file = sub.join("test_group.yaml");
        if file.is_file() {
            found.push(format!(
                "{}: a test_group.yaml inside the group {}; 2025-09 groups do not nest (its settings are applied all the same)",
                file.display(),
                group.display()
            ));
        }
        nested_group_files(group, &sub, found);
    }
}

fn first(names: &[String]) -> &str {
    names.first().map_or("", String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path();
        let write = |rel: &str| {
            let path = data.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "1\n").unwrap();
        };
        write("sample/1.in");
        write("sample/extra/2.in");
        write("sample/extra/test_group.yaml");
        write("sample/plain/3.in");
        write("secret/.old/1.in");
        write("secret/loose.in");
        write("secret/g1/1.in");
        write("secret/g1/deep/test_group.yaml");
        write("secret/g1/deep/2.in");
        write("secret/g2/huge.in");
        write("secret/g2/huge/3.in");
        write("secret/g2/4.files/x.txt");
        let found = warnings(data).join("\n");
        for expected in [
            "holds both test cases (loose) and test data groups (g1/)",
            "deep/test_group.yaml: a test_group.yaml inside the group",
            "g2/huge: a directory named as the test case huge.in",
            "extra/: data/sample must not contain test data groups",
        ] {
            assert!(found.contains(expected), "{expected}: {found}");
        }
        assert!(!found.contains("4.files"), "{found}");
        assert_eq!(found.lines().count(), 4, "{found}");
    }

    #[test]
    fn a_well_formed_tree_is_quiet() {
        let dir = tempfile::tempdir().unwrap();
        for rel in [
            "sample/1.in",
            "secret/g1/1.in",
            "secret/g1/sub/2.in",
            "secret/g2/3.in",
        ] {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "1\n").unwrap();
        }
        assert!(warnings(dir.path()).is_empty());
    }
}
