//! What a submission path holds: one source file, or a directory of
//! sources of one language (a multi-file submission), with its main file.
//!
//! The main file of a directory (`{src}`, `{main}`): the one an
//! `entrypoint` names; else, by language:
//! - Java: the file declaring `static void main`; Kotlin: `fun main`;
//! - Python: `__main__.py`, `main.py`, the file testing
//!   `__name__ == "__main__"`, or the file named after the directory;
//! - JavaScript: `main.js`, `index.js`, or the file named after the
//!   directory;
//! - C, C++ and the rest: the file defining `main(` (all files are compiled
//!   together through `{files}`);
//! - a single file is always the main file.
//!
//! When no rule decides, the error names the files and asks for an
//! `entrypoint`. A `.py` file whose first line is `#!…python2` is Python 2.

use super::languages::Language;
use super::{SourceError, Toolchain};
use std::path::{Path, PathBuf};

/// A source submission: its files, its main file and its language.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file, or the directory of a multi-file submission.
    pub path: PathBuf,
    pub language: Language,
    /// Every source file of the language, relative to the directory (for a
    /// single file: its name), sorted.
    pub files: Vec<PathBuf>,
    /// The main file, relative like `files`.
    pub main: PathBuf,
    /// Directories whose files are copied beside the sources before the
    /// build (a package's `include/<language>/` and `include/default/`).
    pub includes: Vec<PathBuf>,
    /// A package's 2025-09 constants, replaced in every file staged for
    /// the build (its sources and its included code).
    pub constants: Option<std::sync::Arc<crate::text::constants::Constants>>,
    /// Files of the source or its includes that are links checked out as
    /// text (the package reader's table: the path as found → the file read
    /// in its place, when it is staged).
    pub links: Vec<(PathBuf, PathBuf)>,
}

impl Source {
    /// A single-file source.
    pub fn file(path: &Path, language: Language) -> Source {
        let name = PathBuf::from(path.file_name().unwrap_or(path.as_os_str()));
        Source {
            path: path.to_path_buf(),
            language,
            files: vec![name.clone()],
            main: name,
            includes: Vec::new(),
            constants: None,
            links: Vec::new(),
        }
    }

    /// The directory the files are relative to.
    pub fn root(&self) -> &Path {
        if self.path.is_dir() {
            &self.path
        } else {
            self.path.parent().unwrap_or(Path::new("."))
        }
    }
}

impl Toolchain {
    /// The language of a file: by its extension, and for a `.py` or `.pl`
    /// file by its content ([`super::languages::by_content`]: a
    /// `#!…python2` line, Perl code).
    pub fn language_of(&self, path: &Path) -> Option<&Language> {
        let ext = path.extension()?.to_str()?;
        let language = self
            .languages
            .iter()
            .find(|l| l.extensions.iter().any(|e| e == ext))?;
        if matches!(ext, "py" | "pl")
            && let Ok(bytes) =
                crate::exec::bounded_read::read_package_file(path, super::staging::SOURCE_CAP)
            && let Some(name) = super::languages::by_content(ext, &bytes)
            && let Some(other) = self.languages.iter().find(|l| l.name == name)
        {
            return Some(other);
        }
        Some(language)
    }

    /// The source a path means: a file of a known language, or a directory
    /// of sources of one language. `Ok(None)`: not a source (a command
    /// line, or a file to run as it is). `entry`: the main file, when the
    /// package names one.
    pub fn find_source(&self, path: &Path) -> Result<Option<Source>, SourceError> {
        self.find_source_with(path, None)
    }

    /// [`Toolchain::find_source`] with a given entry point (a file name in
    /// the directory, or a Java class name).
    pub fn find_source_with(
        &self,
        path: &Path,
        entry: Option<&str>,
    ) -> Result<Option<Source>, SourceError> {
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(None);
        };
        if meta.is_file() {
            return Ok(self
                .language_of(path)
                .map(|language| Source::file(path, language.clone())));
        }
        if !meta.is_dir() {
            return Ok(None);
        }
        let files = source_files(self, path)?;
        let Some((language, _)) = files.first() else {
            let mut found: Vec<String> = other_files(path, &[])
                .iter()
                .filter_map(|f| f.extension().map(|e| format!(".{}", e.to_string_lossy())))
                .collect();
            found.sort();
            found.dedup();
            return Err(SourceError::NoSource {
                dir: path.to_path_buf(),
                extensions: self
                    .languages
                    .iter()
                    .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
                    .collect(),
                found,
            });
        };
        let language = language.clone();
        if files.iter().any(|(l, _)| l.name != language.name) {
            return Err(SourceError::SeveralSources {
                dir: path.to_path_buf(),
                files: files
                    .iter()
                    .map(|(l, f)| format!("{} ({})", f.display(), l.name))
                    .collect(),
            });
        }
        let rel: Vec<PathBuf> = files.into_iter().map(|(_, f)| f).collect();
        let main = main_file(path, &language, &rel, entry)?;
        // The directory's other files (headers, data) are staged with the
        // sources; `{files}` names only the sources.
        let mut all = rel;
        all.extend(other_files(path, &all));
        all.sort();
        Ok(Some(Source {
            path: path.to_path_buf(),
            language,
            files: all,
            main,
            includes: Vec::new(),
            constants: None,
            links: Vec::new(),
        }))
    }
}

/// The source files under a directory (hidden names skipped), each with
/// its language, relative and sorted.
fn source_files(
    toolchain: &Toolchain,
    dir: &Path,
) -> Result<Vec<(Language, PathBuf)>, SourceError> {
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .max_depth(8)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walk {
        let entry = entry.map_err(|e| SourceError::Unreadable {
            dir: dir.to_path_buf(),
            reason: e.to_string(),
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        if let Some(language) = toolchain.language_of(entry.path()) {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap_or(entry.path())
                .to_path_buf();
            found.push((language.clone(), rel));
        }
    }
    found.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(found)
}

/// The regular files under `dir` (hidden names skipped) that are not in
/// `sources`, relative.
fn other_files(dir: &Path, sources: &[PathBuf]) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .follow_links(true)
        .max_depth(8)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.path().strip_prefix(dir).ok().map(Path::to_path_buf))
        .filter(|rel| !sources.contains(rel))
        .collect()
}

/// The main file of a directory's sources (see the module's rules).
fn main_file(
    dir: &Path,
    language: &Language,
    files: &[PathBuf],
    entry: Option<&str>,
) -> Result<PathBuf, SourceError> {
    if let Some(entry) = entry {
        // A file name, or a class name (`Main`, `se.kth.Main`).
        let as_class = entry.replace('.', "/");
        return files
            .iter()
            .find(|f| {
                f.as_os_str() == entry
                    || f.file_name().is_some_and(|n| n == entry)
                    || f.with_extension("").as_os_str() == as_class.as_str()
                    || f.file_stem().is_some_and(|s| s == entry)
            })
            .cloned()
            .ok_or_else(|| SourceError::NoEntry {
                dir: dir.to_path_buf(),
                reason: format!("the entry point {entry:?} is none of its files"),
                files: names(files),
            });
    }
    if let [one] = files {
        return Ok(one.clone());
    }
    let read = |f: &PathBuf| {
        crate::exec::bounded_read::read_package_file(&dir.join(f), super::staging::SOURCE_CAP)
            .unwrap_or_default()
    };
    let contains = |f: &PathBuf, needles: &[&str]| {
        let text = String::from_utf8_lossy(&read(f)).into_owned();
        needles.iter().any(|n| text.contains(n))
    };
    let named = |names: &[&str]| {
        files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| names.iter().any(|m| n == *m)))
            .cloned()
    };
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let after_dir = || {
        files
            .iter()
            .find(|f| {
                f.file_stem()
                    .is_some_and(|s| s.to_string_lossy() == dir_name)
            })
            .cloned()
    };
    let only = |candidates: Vec<&PathBuf>| match candidates.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    };
    // Java and Kotlin: the one file that declares a main (read as the
    // language's words: a comment or a string mentioning one does not
    // count); of several, `Main` or the one named after the directory.
    let with_main = || -> Result<PathBuf, SourceError> {
        let mains: Vec<&PathBuf> = files
            .iter()
            .filter(|f| super::languages::declares_main(&language.name, &read(f)))
            .collect();
        let preferred = mains.iter().find(|f| {
            f.file_stem().is_some_and(|s| {
                let s = s.to_string_lossy();
                s == "Main" || s == "main" || s == dir_name
            })
        });
        if mains.len() > 1
            && let Some(one) = preferred
        {
            return Ok((*one).clone());
        }
        match mains.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(SourceError::NoProgram {
                dir: dir.to_path_buf(),
                reason: format!(
                    "no {} source declares a main ({})",
                    language.name,
                    names(files).join(", ")
                ),
            }),
            several => Err(SourceError::NoProgram {
                dir: dir.to_path_buf(),
                reason: format!(
                    "{} {} sources declare a main ({}) and no entrypoint (submissions.yaml) says which",
                    several.len(),
                    language.name,
                    several
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }
    };
    let found = match language.name.as_str() {
        "java" | "kotlin" => return with_main(),
        // Every file is compiled into one program: which is "main" only
        // names it, and the compiler says whether there is one main.
        "c" | "cpp" => only(
            files
                .iter()
                .filter(|f| contains(f, &["main(", "main ("]))
                .collect(),
        )
        .or_else(|| files.first().cloned()),
        "python3" | "python2" => named(&["__main__.py", "main.py"])
            .or_else(|| {
                only(
                    files
                        .iter()
                        .filter(|f| {
                            contains(f, &["__name__ == \"__main__\"", "__name__ == '__main__'"])
                        })
                        .collect(),
                )
            })
            .or_else(after_dir),
        // Else the first file, as DOMjudge takes the first file of a
        // submission with no entry point (its `run_time_error/multifile-js`
        // expects the first file run); every file is syntax-checked.
        "javascript" => named(&["main.js", "index.js", "main.mjs", "index.mjs"])
            .or_else(after_dir)
            .or_else(|| files.first().cloned()),
        // The one file that does not begin as a `unit` (a unit is never
        // the program).
        "pascal" => {
            only(files.iter().filter(|f| !pascal_unit(&read(f))).collect()).or_else(after_dir)
        }
        // The file that defines `main` (SWI-Prolog runs `main`).
        "prolog" => only(
            files
                .iter()
                .filter(|f| contains(f, &["main :-", "main:-"]))
                .collect(),
        )
        .or_else(after_dir),
        // The CLICS default entry point (`main.php`, `main.lisp`), else the
        // file named after the directory.
        "php" | "lisp" | "ruby" | "perl" | "lua" | "bash" | "awk" | "r" => files
            .iter()
            .find(|f| {
                f.file_stem()
                    .is_some_and(|s| s.eq_ignore_ascii_case("main"))
            })
            .cloned()
            .or_else(after_dir),
        _ => only(
            files
                .iter()
                .filter(|f| contains(f, &["main(", "main (", "main =", "main :: "]))
                .collect(),
        )
        .or_else(|| named(&["main.rs"])),
    };
    found.ok_or_else(|| SourceError::NoEntry {
        dir: dir.to_path_buf(),
        reason: format!(
            "{} {} sources and no rule picks the main one",
            files.len(),
            language.name
        ),
        files: names(files),
    })
}

/// Whether a Pascal source's first word (after comments) is `unit`.
fn pascal_unit(source: &[u8]) -> bool {
    let text = String::from_utf8_lossy(source).to_ascii_lowercase();
    let mut rest = text.as_str();
    loop {
        rest = rest.trim_start();
        let (opening, closing) = if rest.starts_with("(*") {
            ("(*", "*)")
        } else if rest.starts_with('{') {
            ("{", "}")
        } else if rest.starts_with("//") {
            ("//", "\n")
        } else {
            break;
        };
        // The closing after the opening (`(*)` opens a comment).
        let body = &rest[opening.len()..];
        match body.find(closing) {
            Some(end) => rest = &body[end + closing.len()..],
            None => return false,
        }
    }
    rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .is_some_and(|w| w == "unit")
}

fn names(files: &[PathBuf]) -> Vec<String> {
    files.iter().map(|f| f.display().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::pascal_unit;

    #[test]
    fn a_pascal_unit_is_told_by_its_first_word() {
        assert!(pascal_unit(b"unit hello;\ninterface\n"));
        assert!(pascal_unit(b"(* a unit *)\n{ note }\n// x\nUNIT Hello;"));
        assert!(!pascal_unit(
            b"(*\n * the hello.pp unit file\n *)\nprogram helloworldunit(input, output);\nuses hello;"
        ));
        assert!(!pascal_unit(b"(* never closed"));
        assert!(pascal_unit(b"(*) still a comment *) unit u;"));
    }
}
