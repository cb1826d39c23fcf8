//! What can be wrong with a package, typed: [`FormatError`] for reading
//! one (a file that cannot be read, a syntax error at its place, a key
//! whose value is wrong, an element of problem.xml, a rule of the format
//! broken), [`ExportError`] for writing one. Every variant names the file
//! (and the line and column where known); one whose cause is the user's
//! input names the key and the value too, for a caller to match on. The
//! messages are the ones users have always seen: each variant's text is
//! the place, then what is wrong as the format's users say it.

use std::fmt;
use std::path::{Path, PathBuf};

/// A place in a file: the file, and the line and column (from 1) when the
/// error has a position (32 bits each: a package file is capped far
/// below; they keep every error small).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub path: PathBuf,
    pub line: Option<u32>,
    /// Only with a line.
    pub column: Option<u32>,
}

fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Place {
    /// The file as a whole.
    pub fn file(path: &Path) -> Place {
        Place {
            path: path.to_path_buf(),
            line: None,
            column: None,
        }
    }

    /// A line of the file.
    pub fn line(path: &Path, line: usize) -> Place {
        Place {
            path: path.to_path_buf(),
            line: Some(narrow(line)),
            column: None,
        }
    }

    /// A line and column of the file.
    pub fn at(path: &Path, line: usize, column: usize) -> Place {
        Place {
            path: path.to_path_buf(),
            line: Some(narrow(line)),
            column: Some(narrow(column)),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// A package (or a file of one) that cannot be read as its format says.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file cannot be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file or directory the reader looks at (or the view it makes in
    /// the judge's cache) that cannot be listed, resolved, made or
    /// removed: `doing` is the message's words for it (`cannot link`;
    /// empty: the system's reason alone).
    #[error("{}: {}{source}", .path.display(), doing_prefix(.doing))]
    Io {
        path: PathBuf,
        doing: &'static str,
        source: std::io::Error,
    },
    /// The file is not UTF-8 from byte `byte` on.
    #[error("{}: not UTF-8 (at byte {byte})", .path.display())]
    NotUtf8 { path: PathBuf, byte: usize },
    /// A YAML file nested deeper than any package file needs.
    #[error(
        "{place}: nested {depth} levels deep, more than the {} a package file may use",
        crate::text::YAML_MAX_DEPTH
    )]
    TooDeep { place: Place, depth: usize },
    /// The file's syntax (YAML, XML): the parser's own words.
    #[error("{place}: {message}")]
    Syntax { place: Place, message: String },
    /// A key whose value is wrong: the key (dotted, `limits.memory`) and
    /// the value as the file writes it, when there is one; `message`
    /// says what is wrong, naming them as the format's users know them.
    #[error("{place}: {message}")]
    Key {
        place: Place,
        key: String,
        value: Option<String>,
        message: String,
    },
    /// An element of an XML file (problem.xml): its name, the attribute
    /// and its value when one is at fault, and what is wrong.
    #[error("{place}: <{element}>: {}{message}", attribute_prefix(.attribute))]
    Element {
        place: Place,
        element: String,
        attribute: Option<Box<(String, String)>>,
        message: String,
    },
    /// A rule of the format broken by the file as a whole, or between its
    /// keys or files (a program missing, two validators, a group that
    /// requires one after it).
    #[error("{place}: {message}")]
    Rule { place: Place, message: String },
    /// A link in the package the link rule refuses.
    #[error(transparent)]
    Link(#[from] crate::exec::links::LinkError),
    /// A generators.yaml.
    #[error(transparent)]
    Generators(#[from] GenError),
    /// A Polygon testset's generation script.
    #[error(transparent)]
    Script(#[from] ScriptError),
}

fn attribute_prefix(attribute: &Option<Box<(String, String)>>) -> String {
    attribute
        .as_deref()
        .map(|(key, value)| format!("{key}={value:?}: "))
        .unwrap_or_default()
}

impl FormatError {
    /// The place, when the error has one.
    pub fn place(&self) -> Option<&Place> {
        match self {
            FormatError::TooDeep { place, .. }
            | FormatError::Syntax { place, .. }
            | FormatError::Key { place, .. }
            | FormatError::Element { place, .. }
            | FormatError::Rule { place, .. } => Some(place),
            _ => None,
        }
    }

    /// A key's wrong value at `place`.
    pub(crate) fn key(
        place: Place,
        key: impl Into<String>,
        value: Option<String>,
        message: String,
    ) -> FormatError {
        FormatError::Key {
            place,
            key: key.into(),
            value,
            message,
        }
    }

    /// A rule of the format broken at `place`.
    pub(crate) fn rule(place: Place, message: impl Into<String>) -> FormatError {
        FormatError::Rule {
            place,
            message: message.into(),
        }
    }

    /// An io failure on `path`, in the words `doing`.
    pub(crate) fn io(
        path: &Path,
        doing: &'static str,
    ) -> impl FnOnce(std::io::Error) -> FormatError {
        let path = path.to_path_buf();
        move |source| FormatError::Io {
            path,
            doing,
            source,
        }
    }

    /// A YAML parse error of `file`, at the line and column where known.
    pub(crate) fn yaml(file: &Path, e: &serde_norway::Error) -> FormatError {
        let place = match e.location() {
            Some(at) => Place::at(file, at.line(), at.column()),
            None => Place::file(file),
        };
        FormatError::Syntax {
            place,
            message: e.to_string(),
        }
    }

    /// Refuse a YAML file nested deeper than any package file needs,
    /// before it is parsed (see [`crate::text::YAML_MAX_DEPTH`]).
    pub(crate) fn shallow_yaml(file: &Path, text: &str) -> Result<(), FormatError> {
        match crate::text::yaml_too_deep(text) {
            None => Ok(()),
            Some((line, depth)) => Err(FormatError::TooDeep {
                place: Place::line(file, line),
                depth,
            }),
        }
    }
}

/// A generators.yaml that cannot be read as BAPCtools reads it: the file,
/// the line when it is known, the entry (`data/secret/a`) and what is wrong.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}{}: {}{message}", .file.display(), .line.map(|l| format!(":{l}")).unwrap_or_default(), .at.as_ref().map(|a| format!("data/{a}: ")).unwrap_or_default())]
pub struct GenError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub at: Option<String>,
    pub message: String,
}

impl GenError {
    /// `file:line` (or the file alone): where the error is.
    pub fn place(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.file.display()),
            None => self.file.display().to_string(),
        }
    }

    /// The entry under `data/` (`secret/a`), when the error is one's.
    pub fn entry(&self) -> Option<&str> {
        self.at.as_deref()
    }
}

/// A Polygon testset's generation script that cannot be read: `at` is
/// the script's place in problem.xml, `line` the script's own line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScriptError {
    /// A line that is not `generator args > target`: its text and what
    /// is wrong.
    #[error("{at}: script line {line} ({text:?}): {message}")]
    Line {
        at: Place,
        line: usize,
        text: String,
        message: String,
    },
    /// A test that a line makes and may not (past the test-count, a
    /// manual one, one made twice).
    #[error("{at}: script line {line} (`{cmd} > …`): test {test}: {message}")]
    Test {
        at: Place,
        line: usize,
        cmd: String,
        test: usize,
        message: String,
    },
}

/// Why a Polygon package was not read into its model: problem.xml itself,
/// or its meaning, named with the package (`root`) as a whole.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(transparent)]
    Read(#[from] FormatError),
    #[error("{source}")]
    Whole {
        root: PathBuf,
        source: Box<FormatError>,
    },
}

/// Why a Polygon package's tests cannot be made (`formats::polygon::make`):
/// the package's fault (a test, its command, a program it names: a usage
/// error) or the judge's (its sandbox, its cache).
#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    /// What the package declares cannot be made: the message names the
    /// test and the command or program.
    #[error("{0}")]
    Package(String),
    /// The judge's own failure.
    #[error("{0}")]
    Judge(String),
    /// problem.xml (or the package) cannot be read.
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// An export that cannot be written: a file of it, what the target format
/// cannot say, or the source package that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file or directory of the export (or of its source) that cannot
    /// be made, written, copied, moved aside or removed: `doing` is the
    /// message's words for it (`cannot write`; empty: the system's reason
    /// alone).
    #[error("{}: {}{source}", .path.display(), doing_prefix(.doing))]
    Io {
        path: PathBuf,
        doing: &'static str,
        source: std::io::Error,
    },
    /// The staging directory.
    #[error("cannot make a temporary directory: {0}")]
    TempDir(#[source] std::io::Error),
    /// OUT exists and `--force` was not given.
    #[error("{}: exists; not written over (--force replaces it)", .0.display())]
    Exists(PathBuf),
    /// A file name of the export that it may not have: the name, why.
    #[error("{}: {message}", crate::text::whitespace::shown_path(.name))]
    Name { name: PathBuf, message: String },
    /// What the source has that the target format has no form for: the
    /// problem or file it is of, and what.
    #[error("{of}: {message}")]
    NoForm { of: String, message: String },
    /// A file written through the package's directory guard.
    #[error(transparent)]
    Beneath(#[from] crate::exec::beneath::BeneathError),
    /// A zip file's entry (its name), or the archive (no name).
    #[error("{}{source}", .name.as_ref().map(|n| format!("{n}: ")).unwrap_or_default())]
    Zip {
        name: Option<String>,
        source: zip::result::ZipError,
    },
    /// The zip file, written beside `path`, that cannot be renamed into
    /// place.
    #[error("{}: cannot write: {source}", .path.display())]
    Persist {
        path: PathBuf,
        source: tempfile::PersistError,
    },
    /// The zip file at `path`, and what went wrong in it.
    #[error("{}: {source}", .path.display())]
    Archive {
        path: PathBuf,
        source: Box<ExportError>,
    },
    /// A YAML file of the export that cannot be made.
    #[error(transparent)]
    Yaml(#[from] serde_norway::Error),
    /// The source package.
    #[error(transparent)]
    Source(#[from] FormatError),
}

fn doing_prefix(doing: &str) -> String {
    if doing.is_empty() {
        String::new()
    } else {
        format!("{doing}: ")
    }
}

impl ExportError {
    /// An io failure on `path`, in the words `doing`.
    pub(crate) fn io(
        path: &Path,
        doing: &'static str,
    ) -> impl FnOnce(std::io::Error) -> ExportError {
        let path = path.to_path_buf();
        move |source| ExportError::Io {
            path,
            doing,
            source,
        }
    }
}
