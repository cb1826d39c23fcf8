//! A symbolic link checked out as a text file — the one rule every reader
//! of a package uses (data files, validator, checker and generator sources
//! and their directories, included headers, submissions).
//!
//! Git, where symbolic links are off (`core.symlinks = false`, an archive
//! made from such a clone), writes a link as a small regular file holding
//! only its target's path, with no newline. The formats allow links inside
//! a package (2025-09: "The problem package may include symbolic links to
//! other files in the problem package"), and the field's own examples have
//! them (problemtools' `oddecho` data, BAPCtools' `identity` generators and
//! validators' headers). The rule (docs/packages.md):
//!
//! - a regular file of at most 1 KiB, with no newline, no white space and
//!   no NUL, whose whole content is a relative path, is such a link when
//!   that path, taken from the file's directory (lexically: `..` climbs by
//!   name), names an existing file or directory inside the package: the
//!   link is followed, the file read in its place;
//! - the same naming an existing file or directory outside the package is
//!   refused ([`LinkError::Outside`]): a package never makes the judge read
//!   outside it through a text link (real links are SECURITY.md's business:
//!   followed out only to what every user may read);
//! - except a link into a BAPCtools checkout's shared headers
//!   (`…/bapctools/resources/headers/NAME`, not inside the package): it
//!   reads `NAME` from the directory `scripts/get-bapctools-headers.sh`
//!   fills (`JUDGE_BAPCTOOLS_HEADERS`, default
//!   `~/.cache/judge/bapctools-headers`), and when it is not there says so
//!   ([`LinkError::HeaderMissing`]);
//! - anything else (a missing target, a newline, an absolute path) is the
//!   plain text it is.

use std::path::{Component, Path, PathBuf};

/// Larger files are never taken for a link (a path is short).
const LONGEST: u64 = 1024;

/// Where a BAPCtools link's shared headers lie in its checkout.
const BAPCTOOLS_HEADERS: [&str; 3] = ["bapctools", "resources", "headers"];

/// The environment variable naming the directory of BAPCtools' headers.
pub const HEADERS_ENV: &str = "JUDGE_BAPCTOOLS_HEADERS";

/// Why a text link cannot be followed: the part that reads it fails, named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error(
        "{}: holds only the path {target} (a symbolic link checked out as a text file), which leads outside the package: refused",
        .file.display()
    )]
    Outside { file: PathBuf, target: String },
    #[error(
        "{} is a link to BAPCtools' header {name}; run scripts/get-bapctools-headers.sh (looked for {})",
        .file.display(), .looked.display()
    )]
    HeaderMissing {
        file: PathBuf,
        name: String,
        looked: PathBuf,
    },
}

/// The directory of BAPCtools' shared headers: `JUDGE_BAPCTOOLS_HEADERS`,
/// else `~/.cache/judge/bapctools-headers`.
pub fn headers_dir() -> PathBuf {
    match std::env::var_os(HEADERS_ENV).filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/nonexistent"))
            .join(".cache/judge/bapctools-headers"),
    }
}

/// `path` with `.` dropped and `..` climbing by name.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The link's text, when `file` could be one (see the module's rule).
fn link_text(file: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file() || meta.len() == 0 || meta.len() > LONGEST {
        return None;
    }
    let bytes = crate::exec::bounded_read::read_package_file(file, 4096).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let bad = text.starts_with('/')
        || text.chars().any(|c| c.is_whitespace() || c == '\0')
        || !Path::new(&text)
            .components()
            .any(|c| matches!(c, Component::Normal(_)));
    (!bad).then_some(text)
}

/// If `file` is a link checked out as text, what it leads to (a path to
/// read in its place); `Ok(None)` when it is a plain file. `package` is
/// the package's root.
pub fn resolve(file: &Path, package: &Path) -> Result<Option<PathBuf>, LinkError> {
    let Some(text) = link_text(file) else {
        return Ok(None);
    };
    let absolute = |p: &Path| std::path::absolute(p).map(|a| lexical(&a)).ok();
    let (Some(file_abs), Some(root)) = (absolute(file), absolute(package)) else {
        return Ok(None);
    };
    let Some(dir) = file_abs.parent() else {
        return Ok(None);
    };
    let target = lexical(&dir.join(&text));
    let exists = std::fs::metadata(&target).is_ok();
    if target.starts_with(&root) && target != root && target != file_abs {
        return Ok(exists.then_some(target));
    }
    if let Some(name) = bapctools_header(&target) {
        let looked = headers_dir().join(&name);
        return if looked.is_file() {
            Ok(Some(looked))
        } else {
            Err(LinkError::HeaderMissing {
                file: file.to_path_buf(),
                name,
                looked,
            })
        };
    }
    if exists {
        return Err(LinkError::Outside {
            file: file.to_path_buf(),
            target: text,
        });
    }
    Ok(None)
}

/// `NAME` of a path ending in `bapctools/resources/headers/NAME`.
fn bapctools_header(target: &Path) -> Option<String> {
    let parts: Vec<&std::ffi::OsStr> = target.iter().collect();
    let [.., a, b, c, name] = parts.as_slice() else {
        return None;
    };
    ([*a, *b, *c] == BAPCTOOLS_HEADERS.map(std::ffi::OsStr::new))
        .then(|| name.to_string_lossy().into_owned())
}

/// The warning that says a file was read as the link it stands for.
pub fn warning(file: &Path, target: &Path) -> String {
    format!(
        "{}: holds only a path and no newline: a symbolic link checked out as a text file (git without symbolic links); read as a link to {}",
        file.display(),
        target.display()
    )
}

/// Every text link in `tree` (a file's directory or a program directory,
/// at most a few levels deep), each with what it leads to: the table a
/// staged copy of the tree reads from.
pub fn links_in(tree: &Path, package: &Path) -> Result<Vec<(PathBuf, PathBuf)>, LinkError> {
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(tree)
        .follow_links(true)
        .max_depth(6)
        .into_iter()
        .filter_map(Result::ok)
        .take(10_000);
    for entry in walk {
        if !entry.file_type().is_file() {
            continue;
        }
        if let Some(target) = resolve(entry.path(), package)? {
            found.push((entry.path().to_path_buf(), target));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_relative_path_to_something_inside_is_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(pkg.join("a")).unwrap();
        std::fs::create_dir_all(pkg.join("b")).unwrap();
        std::fs::write(pkg.join("a/x.c"), "int main(){}\n").unwrap();
        std::fs::write(pkg.join("b/x.c"), "../a/x.c").unwrap();
        std::fs::write(pkg.join("b/d"), "../a").unwrap();
        assert_eq!(
            resolve(&pkg.join("b/x.c"), &pkg),
            Ok(Some(pkg.join("a/x.c")))
        );
        assert_eq!(resolve(&pkg.join("b/d"), &pkg), Ok(Some(pkg.join("a"))));
        // A newline, a missing target, the package itself, a number: text.
        std::fs::write(pkg.join("b/y.c"), "../a/x.c\n").unwrap();
        std::fs::write(pkg.join("b/z.c"), "../a/none.c").unwrap();
        std::fs::write(pkg.join("b/p"), "..").unwrap();
        std::fs::write(pkg.join("b/1.ans"), "5").unwrap();
        for f in ["b/y.c", "b/z.c", "b/p", "b/1.ans", "a/x.c"] {
            assert_eq!(resolve(&pkg.join(f), &pkg), Ok(None), "{f}");
        }
        // A target outside: refused, named.
        std::fs::write(dir.path().join("out.c"), "int main(){}\n").unwrap();
        std::fs::write(pkg.join("b/w.c"), "../../out.c").unwrap();
        let refused = resolve(&pkg.join("b/w.c"), &pkg).unwrap_err();
        assert!(
            refused.to_string().contains("outside the package"),
            "{refused}"
        );
    }

    #[test]
    fn a_link_into_bapctools_headers_reads_the_fetched_header() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(pkg.join("v/x")).unwrap();
        std::fs::write(
            pkg.join("v/x/validation.h"),
            "../../../../bapctools/resources/headers/validation.h",
        )
        .unwrap();
        assert_eq!(
            bapctools_header(Path::new("/a/bapctools/resources/headers/validation.h")),
            Some("validation.h".into())
        );
        assert_eq!(
            bapctools_header(Path::new("/a/resources/headers/v.h")),
            None
        );
        // Set only here: no other test of this module reads it.
        let headers = dir.path().join("headers");
        unsafe { std::env::set_var(HEADERS_ENV, &headers) };
        let missing = resolve(&pkg.join("v/x/validation.h"), &pkg).unwrap_err();
        assert!(
            missing.to_string().contains(
                "link to BAPCtools' header validation.h; run scripts/get-bapctools-headers.sh"
            ),
            "{missing}"
        );
        std::fs::create_dir_all(&headers).unwrap();
        std::fs::write(headers.join("validation.h"), "// mine\n").unwrap();
        assert_eq!(
            resolve(&pkg.join("v/x/validation.h"), &pkg),
            Ok(Some(headers.join("validation.h")))
        );
        unsafe { std::env::remove_var(HEADERS_ENV) };
    }
}
