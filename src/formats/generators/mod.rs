//! BAPCtools' `generators/generators.yaml`, read as that tool reads it, into
//! a plan: every case under `data/` with where its files come from, and the
//! group settings files to write.
//!
//! The facts this module relies on (BAPCtools' `generate.py`):
//! - the root keys: `solution`, `version`, `generators` (a name to the files
//!   of a multi-file generator), `data`, `random_salt`, `retries` (and the
//!   deprecated `parallel`, `gitignore_generated`, `visualizer`, ignored);
//! - `data` is a dictionary (children named by their keys, sorted; at the
//!   root in the order sample, secret, invalid_output, invalid_answer,
//!   invalid_input, valid_output, then the rest) or a list of one-key
//!   dictionaries (numbered: `NN-key`, or `NN` for an empty key; cases are
//!   numbered across the whole file, the width that of the total; groups
//!   per directory, the width that of the directory's groups);
//! - a value is a case when it is empty (the old hand-made case), a string
//!   (a command) or a map with one of `generate`, `copy`, `count`, `match`,
//!   an inline file (`in`, `ans`, …) or the old `input`; any other map is a
//!   directory (`data`, `test_group.yaml`, `include`, `solution`,
//!   `random_salt`, `retries`); the older forms are read as the BAPCtools
//!   that wrote them read them (`old.rs`);
//! - `count: N` (1 to 100), `count: [values]` or `count: "A..=B"` makes one
//!   case a value, named `-VALUE` (zero-padded to the widest value when the
//!   values are consecutive), `{count}` the value;
//! - `{seed}` (and `{seed:N}`) is the low 31 bits of the SHA-512 of
//!   `random_salt`, then `:VALUE-1` for a count value other than 1, then
//!   the command (after `{count}` is filled in) with surrounding white space
//!   removed; `{name}` is `testcase`; arguments are split as a POSIX shell
//!   splits words (Python's `shlex.split`);
//! - `include: [key, …]` puts the cases of an earlier case or directory of
//!   that key (it must be unique in the file) into this directory, each by
//!   its own name.
//!
//! An unknown key is a warning naming the file, the line, the case and the
//! key; the rest of the file is read (as BAPCtools does). What is wrong
//! with one case leaves that case out (`GenPlan::skipped`, BAPCtools'
//! "Rule contained errors. SKIPPED."); what BAPCtools cannot parse the
//! file past (the YAML, a `count`, an `include`, a list item's shape, a
//! directory's name or solution, a path out of the package in
//! `generators:`) is the `Err` of [`load`]: `judge gen` makes nothing then,
//! `judge verify` and `judge run` judge `data/` as it is.

mod builtin;
mod case;
mod command;
mod include;
mod names;
mod old;
mod parse;
#[cfg(test)]
mod tests;

pub use crate::formats::error::GenError;
pub use builtin::BuiltinGen;
pub use command::{args_with_seed, split_words};

use sha2::{Digest, Sha512};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The plan of a generators.yaml.
#[derive(Debug, Default)]
pub struct GenPlan {
    /// The problem directory: `/path` in the file is from here.
    pub root: PathBuf,
    /// Where generators and copied files are, relative to `root`
    /// (`generators` in a package).
    pub generators_dir: PathBuf,
    pub cases: Vec<GenCase>,
    /// Cases put into a second directory by `include:` (made after every
    /// other case, from the original's files).
    pub includes: Vec<Included>,
    /// Group settings files to write: path under `data/`, content.
    pub group_files: Vec<(PathBuf, String)>,
    /// Named multi-file generators: program path (from `root`) → files.
    pub generators: BTreeMap<PathBuf, Vec<PathBuf>>,
    /// Whether no `solution` key is set anywhere on the way to some case
    /// (BAPCtools then uses an accepted submission).
    pub needs_default_solution: bool,
    pub warnings: Vec<String>,
    /// Entries that cannot be made, each left out with what is wrong (a
    /// case, or a directory's settings file): BAPCtools' errors that
    /// touch one case ("Rule contained errors. SKIPPED."), the rest of
    /// the file is read and made. `judge gen` fails on them; `judge
    /// verify` and `judge run` warn and judge `data/` as it is.
    pub skipped: Vec<GenError>,
}

/// A case `include:`d into another directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Included {
    /// Its path under `data/` there, without extension.
    pub path: PathBuf,
    /// The case it is (its path under `data/`).
    pub from: PathBuf,
}

/// One case to make.
#[derive(Clone, Debug, PartialEq)]
pub struct GenCase {
    /// The case's path under `data/`, without extension (`secret/03-big`).
    pub path: PathBuf,
    pub source: CaseSource,
    /// The solution that writes the `.ans` when nothing else does: a path
    /// from the problem root. `None` with `default_solution`: the default.
    pub solution: Option<PathBuf>,
    /// No `solution` key on the way here: the default solution applies.
    pub default_solution: bool,
    /// Other files given inline (`ans: "…"`, `desc: …`): extension → text.
    pub inline: BTreeMap<String, String>,
    /// Files that are another file of the case (`in.download: {link:
    /// in.statement}`): extension → the extension whose bytes it has.
    pub links: BTreeMap<String, String>,
    pub retries: u32,
}

/// Where a case's input comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseSource {
    /// A generator: its program (a path from the problem root) and
    /// arguments with `{seed}` and `{name}` filled in; the seed and the
    /// command as written (for reports).
    Generate {
        program: PathBuf,
        args: Vec<String>,
        seed: u32,
        command: String,
        /// The arguments with `{seed}` still in them (a retry's seed is
        /// one more).
        template: Vec<String>,
    },
    /// `judge gen PUZZLE …`: a built-in puzzle's generator, run in process.
    Builtin {
        builtin: BuiltinGen,
        seed: u32,
        command: String,
    },
    /// `copy: path`: the files `path.in`, `path.ans`, … (from the problem
    /// root).
    Copy(PathBuf),
    /// `in: "…"` given inline.
    Inline,
    /// An empty entry (`name:`), BAPCtools' old form of a hand-made case:
    /// its files are already in `data/` and are used as they are (an
    /// answer the judge made before, or none, is made by the solution).
    Manual,
}

impl CaseSource {
    /// The command as written, for a generated case.
    pub fn command(&self) -> Option<&str> {
        match self {
            CaseSource::Generate { command, .. } | CaseSource::Builtin { command, .. } => {
                Some(command)
            }
            _ => None,
        }
    }

    /// The seed, for a generated case.
    pub fn seed(&self) -> Option<u32> {
        match self {
            CaseSource::Generate { seed, .. } | CaseSource::Builtin { seed, .. } => Some(*seed),
            _ => None,
        }
    }
}

/// The extensions a case may give inline (BAPCtools' known text data
/// extensions, and `hint`/`desc` of the 2023-07 packages).
const TEXT_EXTENSIONS: [&str; 11] = [
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
    "hint",
    "desc",
];

/// The files only a sample has (its statement's and its download's input
/// and answer when they differ from the judge's).
pub const SAMPLE_EXTENSIONS: [&str; 4] = [
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
];

/// The files given as `{link: EXT}`: BAPCtools' `ALLOWED_LINK_KEYS`.
pub const LINK_KEYS: [&str; 4] = SAMPLE_EXTENSIONS;

/// The visualizers' images a case may have.
const IMAGE_EXTENSIONS: [&str; 4] = ["png", "jpg", "svg", "pdf"];

/// The files of a case a generator may write (`testcase.EXT`) and a copy
/// takes: the text extensions and the visualizers' images.
pub const DATA_EXTENSIONS: [&str; 15] = concat(TEXT_EXTENSIONS, IMAGE_EXTENSIONS);

/// Two lists of extensions as one (`N` is `A + B`, checked when compiled).
// Only ever evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const fn concat<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    assert!(A + B == N, "the lengths must add up");
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// The top-level directories whose cases are meant to fail validation:
/// their answers are not made by the solution, nor validated.
pub const INVALID_DIRECTORIES: [&str; 3] = ["invalid_input", "invalid_answer", "invalid_output"];

/// BAPCtools' seed of a command: `count_value` is the `count` value of the
/// case (1 when there is none).
pub fn seed(salt: &str, count_value: i64, command: &str) -> u32 {
    let mut text = salt.to_string();
    if count_value != 1 {
        text.push_str(&format!(":{}", count_value - 1));
    }
    text.push_str(command.trim());
    let digest = Sha512::digest(text.as_bytes());
    // The big-endian number modulo 2^31: its last 31 bits.
    let tail: [u8; 4] = digest
        .as_slice()
        .last_chunk::<4>()
        .copied()
        .unwrap_or_default();
    let last = u32::from_be_bytes(tail);
    last & 0x7fff_ffff
}

type Yaml = serde_norway::Value;

/// The file's name, as messages say it.
pub const FILE_NAME: &str = "generators.yaml";
/// Where a package has it, from its root.
pub const GENERATORS_YAML: &str = "generators/generators.yaml";

/// Whether `dir` is a problem whose data a generators.yaml makes.
pub fn is_present(dir: &Path) -> bool {
    dir.join(GENERATORS_YAML).is_file()
}

/// Read `generators/generators.yaml` of the package at `root`.
pub fn load(root: &Path) -> Result<GenPlan, GenError> {
    load_file(root, &root.join(GENERATORS_YAML))
}

/// Read a generators.yaml at `file` for the problem at `root` (judge.toml's
/// `generators` key): programs and copies are relative to the file's
/// directory, `/path` to `root`.
pub fn load_file(root: &Path, file: &Path) -> Result<GenPlan, GenError> {
    let whole = |message: String| GenError {
        file: file.to_path_buf(),
        line: None,
        at: None,
        message,
    };
    let text = crate::exec::bounded_read::read_package_text(
        file,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|e| whole(format!("cannot read: {e}")))?;
    let yaml: Yaml = if text.trim().is_empty() {
        Yaml::Null
    } else {
        if let Some((line, depth)) = crate::text::yaml_too_deep(&text) {
            return Err(GenError {
                file: file.to_path_buf(),
                line: Some(line),
                at: None,
                message: format!(
                    "nested {depth} levels deep, more than the {} a package file may use",
                    crate::text::YAML_MAX_DEPTH
                ),
            });
        }
        serde_norway::from_str(crate::text::without_bom(&text)).map_err(|e| GenError {
            file: file.to_path_buf(),
            line: e.location().map(|l| l.line()),
            at: None,
            message: e.to_string(),
        })?
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    let generators_dir = dir.strip_prefix(root).unwrap_or(dir).to_path_buf();
    parse::parse(root, &generators_dir, file, Some(&text), &yaml)
}

/// Parse a generators.yaml given as a value (`file` names it in messages)
/// for the package at `root`.
pub fn parse(root: &Path, file: &Path, yaml: &Yaml) -> Result<GenPlan, GenError> {
    parse::parse(root, Path::new("generators"), file, None, yaml)
}
