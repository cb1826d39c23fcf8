//! The puzzles the judge knows the rules of (docs/puzzles.md), behind one trait.
//!
//! Each puzzle lives in its own file or folder here and is reachable only
//! through [`Puzzle`] and the [`registry`]: nothing outside `puzzles/` knows
//! a puzzle's rules. A puzzle validates its input files, solves them (the
//! reference output, byte for byte), checks a contestant's output
//! semantically, generates cases of a chosen difficulty and, where the space
//! is small enough, states whole-space facts.
//!
//! All methods take whole files as bytes: a rotation or booksort file holds
//! many cases, the other puzzles one case a file.

pub mod reader;

mod finding;
mod grid4;

pub mod booksort;
pub mod flip;
pub mod pilots;
pub mod rotation;
pub mod swap;

use crate::verdict::Verdict;
pub use reader::FormatError;
use std::ops::RangeInclusive;

/// A puzzle with built-in knowledge. Implementations are stateless values;
/// expensive tables (a pattern database, a BFS of the whole space) are built
/// lazily once per process and shared (`std::sync::OnceLock`).
pub trait Puzzle: Send + Sync {
    /// The registry name (`rotation`, `booksort`, `swap`, `flip`, `pilots`).
    fn name(&self) -> &'static str;

    /// A one-line title for `judge list` (`Rotation Game (UVA 1343)`).
    fn title(&self) -> &'static str;

    /// Whether the statement demands the lexicographically smallest of the
    /// shortest answers when judge.toml says nothing (docs/puzzles.md "What every
    /// checker tells apart": rotation yes, the others no).
    fn default_lexmin(&self) -> bool;

    /// Whether one input file holds several cases (rotation, booksort) or
    /// exactly one (swap, flip, pilots).
    fn multi_case(&self) -> bool;

    /// Validate an input file strictly, by every rule of the statement's
    /// "Valid input" plus the plain-text rules of
    /// [`reader::check_plain_text`]. Returns the number of cases.
    fn validate(&self, input: &[u8]) -> Result<usize, FormatError>;

    /// Refuse solver options this puzzle does not have, before any case
    /// runs. By default a puzzle has no options.
    fn check_options(&self, options: &SolveOptions) -> Result<(), OptionError> {
        match &options.heuristic {
            Some(h) => Err(OptionError::new(format!(
                "--heuristic {h:?}: {} has no choice of heuristic",
                self.name()
            ))),
            None => Ok(()),
        }
    }

    /// The reference output for a whole input file, byte for byte, with a
    /// final newline. Reads the input leniently (any white space between
    /// tokens, CRLF tolerated) but refuses input that breaks the rules.
    fn solve(&self, input: &[u8], options: &SolveOptions) -> Result<Vec<u8>, SolveError>;

    /// Judge a contestant's output for an input. Never panics, whatever the
    /// bytes of `output` or `answer`.
    fn check(&self, request: &CheckRequest<'_>) -> CheckReport;

    /// Make `spec.count` new cases of the requested difficulty,
    /// deterministically for `spec.seed`.
    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError>;

    /// Join generated cases into one input file and its answer file (for a
    /// single-case puzzle, `cases` holds exactly one case).
    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>);

    /// Whole-space facts for `judge stats`.
    fn stats(&self, options: &StatsOptions) -> Result<Stats, OptionError>;

    /// The difficulty a generated case was made at, as `judge gen` options
    /// (`("length", 12)`, `("n", 15)`), so that `judge stress` can ask the
    /// generator for smaller cases. By default read from the case's label
    /// (`len12`, `n15-k5`, `turns3`); an unsolvable board has none.
    fn difficulty(&self, case: &GeneratedCase) -> Vec<(&'static str, u32)> {
        difficulty_of_label(&case.label)
    }
}

/// Read `len12`, `n15-k5` or `turns3` as `judge gen` options.
pub fn difficulty_of_label(label: &str) -> Vec<(&'static str, u32)> {
    label
        .split('-')
        .filter_map(|part| {
            let digits = part.find(|c: char| c.is_ascii_digit())?;
            let value = part[digits..].parse().ok()?;
            let option = match &part[..digits] {
                "len" => "length",
                "n" => "n",
                "k" => "moves",
                "turns" => "turns",
                _ => return None,
            };
            Some((option, value))
        })
        .collect()
}

/// Every built-in puzzle, in the order docs/puzzles.md lists them.
pub fn registry() -> &'static [&'static dyn Puzzle] {
    static ALL: [&dyn Puzzle; 5] = [
        &rotation::Rotation,
        &booksort::Booksort,
        &swap::Swap,
        &flip::Flip,
        &pilots::Pilots,
    ];
    &ALL
}

/// The built-in puzzle of that name.
pub fn find(name: &str) -> Option<&'static dyn Puzzle> {
    registry().iter().copied().find(|p| p.name() == name)
}

/// The names of all built-in puzzles, for error messages.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|p| p.name()).collect()
}

/// Options of the reference solver. A puzzle rejects an option it does not
/// have with an error naming it.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The search heuristic (rotation: `pdb` (default) or `centre`).
    pub heuristic: Option<String>,
}

/// Why the reference solver could not answer.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The input breaks the format.
    #[error("{0}")]
    Input(FormatError),
    /// An option the puzzle does not have, or a bad value for it.
    #[error("{0}")]
    Option(OptionError),
}

/// A request a puzzle cannot meet: an option it does not have, a value out
/// of its range, or a difficulty no case has (`--length 14` for Rotation).
/// The message says which and what would do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionError(String);

impl OptionError {
    pub fn new(message: impl Into<String>) -> OptionError {
        OptionError(message.into())
    }
}

/// The message, for callers that show or search it.
impl std::ops::Deref for OptionError {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<String> for OptionError {
    fn from(message: String) -> Self {
        OptionError(message)
    }
}

impl From<&str> for OptionError {
    fn from(message: &str) -> Self {
        OptionError(message.to_string())
    }
}

impl From<FormatError> for SolveError {
    fn from(e: FormatError) -> Self {
        SolveError::Input(e)
    }
}

/// One call of a semantic checker.
#[derive(Clone, Copy, Debug)]
pub struct CheckRequest<'a> {
    pub input: &'a [u8],
    pub output: &'a [u8],
    /// The answer file, if any. The checker never trusts it: it proves the
    /// optimum itself, and an answer file that disagrees is an internal error
    /// of the data (IE), never blamed on the submission.
    pub answer: Option<&'a [u8]>,
    /// Demand the lexicographically smallest of the shortest answers.
    pub lexmin: bool,
    /// Strict white space: an answer that is right but laid out differently
    /// from the reference format is PE instead of AC.
    pub strict: bool,
}

/// A checker's finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// AC, WA, PE or IE.
    pub verdict: Verdict,
    /// One line, testlib style: names the case (1-based) and the output line,
    /// says "expected X, found Y" where that makes sense.
    pub message: String,
    /// The first failing case (1-based), if the finding is about one.
    pub case: Option<usize>,
    /// Pictures that explain the finding (a board before and after the
    /// submitted moves), for the HTML and terminal reports.
    pub figures: Vec<Figure>,
}

impl CheckReport {
    pub fn accepted(message: impl Into<String>) -> Self {
        CheckReport {
            verdict: Verdict::Accepted,
            message: message.into(),
            case: None,
            figures: Vec::new(),
        }
    }

    /// A finding about case `case` (1-based) at output line `line`: the
    /// message reads `case 3, output line 5: …`.
    pub fn about(
        verdict: Verdict,
        case: usize,
        line: Option<usize>,
        what: impl AsRef<str>,
    ) -> Self {
        let message = match line {
            Some(line) => format!("case {case}, output line {line}: {}", what.as_ref()),
            None => format!("case {case}: {}", what.as_ref()),
        };
        CheckReport {
            verdict,
            message,
            case: Some(case),
            figures: Vec::new(),
        }
    }

    /// A finding about the whole output or input (not one case).
    pub fn general(verdict: Verdict, message: impl Into<String>) -> Self {
        CheckReport {
            verdict,
            message: message.into(),
            case: None,
            figures: Vec::new(),
        }
    }

    pub fn with_figures(mut self, figures: Vec<Figure>) -> Self {
        self.figures = figures;
        self
    }
}

/// A small picture of a board: a grid of cells, some empty (outside the
/// board's shape), some highlighted (the rotation centre, a wrong cell).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Figure {
    /// What the picture shows ("board after ACD (case 3)").
    pub title: String,
    pub rows: Vec<Vec<Option<FigureCell>>>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FigureCell {
    pub text: String,
    pub highlight: bool,
}

impl Figure {
    /// The figure as plain text, one row a line, cells two characters wide;
    /// highlighted cells in brackets.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}:\n", self.title);
        for row in &self.rows {
            let mut line = String::new();
            for cell in row {
                match cell {
                    None => line.push_str("   "),
                    Some(c) if c.highlight => line.push_str(&format!("[{}]", c.text)),
                    Some(c) => line.push_str(&format!(" {} ", c.text)),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// What `judge gen` asks for. Each puzzle reads the fields that are its own
/// and rejects the others with an error naming the flag (use
/// [`GenSpec::reject_other_than`]).
#[derive(Clone, Debug, Default)]
pub struct GenSpec {
    pub count: usize,
    pub seed: u64,
    /// `--length L` or `--length A..B`: exact optimal length (rotation, swap, flip).
    pub length: Option<RangeInclusive<u32>>,
    /// `--n N` or `--n A..B`: the size (booksort's shelf).
    pub n: Option<RangeInclusive<u32>>,
    /// `--moves K`: exact distance (booksort, 5 means `5 or more`).
    pub moves: Option<RangeInclusive<u32>>,
    /// `--turns K`: the number of turns (pilots).
    pub turns: Option<RangeInclusive<u32>>,
    /// `--impossible`: only unsolvable boards (flip).
    pub impossible: bool,
}

impl GenSpec {
    /// Set one option (`length`, `n`, `moves`, `turns`) to exactly `value`.
    pub fn set_exact(&mut self, option: &str, value: u32) {
        let exact = Some(value..=value);
        match option {
            "length" => self.length = exact,
            "n" => self.n = exact,
            "moves" => self.moves = exact,
            "turns" => self.turns = exact,
            _ => {}
        }
    }

    /// An error if a flag outside `allowed` (flag names without dashes:
    /// `length`, `n`, `moves`, `turns`, `impossible`) was given.
    pub fn reject_other_than(&self, puzzle: &str, allowed: &[&str]) -> Result<(), OptionError> {
        let given = [
            ("length", self.length.is_some()),
            ("n", self.n.is_some()),
            ("moves", self.moves.is_some()),
            ("turns", self.turns.is_some()),
            ("impossible", self.impossible),
        ];
        for (flag, set) in given {
            if set && !allowed.contains(&flag) {
                let options: Vec<String> = allowed.iter().map(|a| format!("--{a}")).collect();
                let options = if options.is_empty() {
                    "none".to_string()
                } else {
                    options.join(", ")
                };
                return Err(format!(
                    "{puzzle} has no --{flag} option (its difficulty options: {options})"
                )
                .into());
            }
        }
        Ok(())
    }
}

/// One generated case: its input text (one case, without a file header or
/// terminator) and its reference output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedCase {
    pub input: String,
    pub answer: String,
    /// A short description for file names and logs (`len12`, `n15-k5`).
    pub label: String,
}

impl GeneratedCase {
    /// The files of a single-case puzzle (swap, flip, pilots): the first
    /// case's input and answer, each with a final newline. A single-case
    /// format has no room for more, so the rest are not written.
    pub fn single_case_files(cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        match cases.first() {
            Some(case) => (
                format!("{}\n", case.input).into_bytes(),
                format!("{}\n", case.answer).into_bytes(),
            ),
            None => (Vec::new(), Vec::new()),
        }
    }
}

/// Options of `judge stats`.
#[derive(Clone, Debug, Default)]
pub struct StatsOptions {
    /// Booksort: the shelf size.
    pub n: Option<u32>,
}

/// 9465511770 → `9,465,511,770`: counts in stats and notes.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whole-space facts: a distribution of optimal lengths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// What was counted ("all 9,465,511,770 boards").
    pub description: String,
    /// (label, count) rows, e.g. ("0", 1234), ("Impossible", 61440).
    pub rows: Vec<(String, u64)>,
    /// The total of the rows.
    pub total: u64,
    /// Further facts worth a line ("longest optimum: 13 moves").
    pub notes: Vec<String>,
}

/// Solve many cases on every core and return their outputs in case order.
/// Cases are cut into chunks; each chunk's outputs are appended to one
/// buffer (`solve` writes a case's lines, newlines included), and the
/// buffers are joined in order, so nothing is allocated per case.
/// `bytes_per_case` sizes the buffers.
pub(crate) fn solve_in_parallel<T: Sync>(
    cases: &[T],
    bytes_per_case: usize,
    solve: impl Fn(&T, &mut Vec<u8>) + Sync,
) -> Vec<u8> {
    use rayon::prelude::*;
    /// Enough cases that a chunk's work outweighs handing it to a core.
    const CHUNK: usize = 256;
    let one_chunk = |chunk: &[T]| {
        let mut out = Vec::with_capacity(chunk.len() * bytes_per_case);
        for case in chunk {
            solve(case, &mut out);
        }
        out
    };
    if cases.len() <= CHUNK {
        return one_chunk(cases);
    }
    let parts: Vec<Vec<u8>> = cases.par_chunks(CHUNK).map(one_chunk).collect();
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        out.extend_from_slice(&part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_and_findable() {
        let names = names();
        assert_eq!(names, ["rotation", "booksort", "swap", "flip", "pilots"]);
        for name in names {
            assert_eq!(find(name).map(|p| p.name()), Some(name));
        }
        assert!(find("nope").is_none());
    }

    #[test]
    fn difficulty_is_read_from_labels() {
        assert_eq!(difficulty_of_label("len12"), [("length", 12)]);
        assert_eq!(difficulty_of_label("n15-k5"), [("n", 15), ("moves", 5)]);
        assert_eq!(difficulty_of_label("turns3"), [("turns", 3)]);
        assert!(difficulty_of_label("impossible").is_empty());
        let mut spec = GenSpec::default();
        spec.set_exact("moves", 4);
        assert_eq!(spec.moves, Some(4..=4));
    }

    #[test]
    fn gen_spec_rejects_foreign_flags() {
        let spec = GenSpec {
            turns: Some(3..=3),
            ..GenSpec::default()
        };
        let err = spec.reject_other_than("rotation", &["length"]).unwrap_err();
        assert_eq!(
            err,
            "rotation has no --turns option (its difficulty options: --length)".into()
        );
        assert!(spec.reject_other_than("pilots", &["turns"]).is_ok());
    }

    #[test]
    fn parallel_solving_keeps_case_order() {
        let cases: Vec<u32> = (0..10_000).collect();
        let out = solve_in_parallel(&cases, 6, |n, out| {
            out.extend_from_slice(n.to_string().as_bytes());
            out.push(b'\n');
        });
        let expected: String = cases.iter().map(|n| format!("{n}\n")).collect();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        assert!(solve_in_parallel(&[] as &[u32], 1, |_, _| ()).is_empty());
    }
}
