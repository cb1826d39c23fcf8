//! A symbolic link checked out as a text file: git, where symbolic links
//! are off (`core.symlinks = false`, an archive unpacked without them),
//! writes a link as a small file holding only its target's path, with no
//! newline. The formats allow links inside a package (2025-09: "The problem
//! package may include symbolic links to other files in the problem
//! package"), and DOMjudge's and problemtools' own examples have them
//! (`boolfind`'s `mixed-verdicts/`, `oddecho`'s `subtask2/`), so such a
//! file is read as the link it stands for — with a warning naming it —
//! when its whole content is a relative path to a file or directory
//! inside the package. A real source or text file always ends with a
//! newline or holds more than one path, so nothing else is taken for one.

use std::path::{Path, PathBuf};

/// Larger files are never taken for a link (a path is short).
const LONGEST: u64 = 1024;

/// If `file` is a link checked out as text whose target lies inside
/// `package`, that target (as a path beside `file`).
pub fn target(file: &Path, package: &Path) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file() || meta.len() == 0 || meta.len() > LONGEST {
        return None;
    }
    let bytes = std::fs::read(file).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    if text.starts_with('/') || text.chars().any(|c| c.is_whitespace() || c == '\0') {
        return None;
    }
    let target = file.parent()?.join(text);
    let resolved = target.canonicalize().ok()?;
    let inside = package.canonicalize().ok()?;
    (resolved.starts_with(&inside) && resolved != file.canonicalize().ok()?).then_some(target)
}

/// The warning that says a file was read as the link it stands for.
pub fn warning(file: &Path, target: &Path) -> String {
    format!(
        "{}: holds only the path {} and no newline: a symbolic link checked out as a text file (git without symbolic links); read as a link to {}",
        file.display(),
        std::fs::read_to_string(file).unwrap_or_default(),
        target.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_relative_path_to_a_file_inside_is_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(pkg.join("a")).unwrap();
        std::fs::create_dir_all(pkg.join("b")).unwrap();
        std::fs::write(pkg.join("a/x.c"), "int main(){}\n").unwrap();
        std::fs::write(pkg.join("b/x.c"), "../a/x.c").unwrap();
        assert_eq!(
            target(&pkg.join("b/x.c"), &pkg),
            Some(pkg.join("b/../a/x.c"))
        );
        // A newline, a missing target, a target outside: plain text.
        std::fs::write(pkg.join("b/y.c"), "../a/x.c\n").unwrap();
        std::fs::write(pkg.join("b/z.c"), "../a/none.c").unwrap();
        std::fs::write(dir.path().join("out.c"), "int main(){}\n").unwrap();
        std::fs::write(pkg.join("b/w.c"), "../../out.c").unwrap();
        for f in ["b/y.c", "b/z.c", "b/w.c", "a/x.c"] {
            assert_eq!(target(&pkg.join(f), &pkg), None, "{f}");
        }
    }
}
