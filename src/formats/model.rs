//! The judge's own model of a problem: what every format's reader
//! resolves into (through `config`) and every writer takes. It knows no
//! format: a format's names and keys stay in its folder.

use crate::cases::CaseSettings;
use crate::check::Comparison;
use crate::check::external::InputValidator;
use crate::exec::Limits;
use crate::expect::Expectation;
use crate::formats::version::FormatVersion;
use crate::puzzles::Puzzle;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A problem as the judge works with it: everything resolved.
#[derive(Clone)]
pub struct Problem {
    pub name: String,
    /// The built-in puzzle, if the problem is one.
    pub puzzle: Option<&'static dyn Puzzle>,
    /// The cases root (absolute or relative to the working directory).
    pub cases: PathBuf,
    pub comparison: Comparison,
    /// Demand the lexicographically smallest shortest answer (puzzles).
    pub lexmin: bool,
    /// White-space differences are PE instead of AC.
    pub strict: bool,
    pub limits: Limits,
    /// Where the time limit comes from (`judge.toml time_limit`,
    /// `problem.yaml limits.time_limit`, …), for reports.
    pub time_limit_from: String,
    /// A package without a time limit: how `judge verify` derives one
    /// from the accepted submissions.
    pub time_inference: Option<TimeInference>,
    /// The reference solution's command line, if the problem names one.
    pub solution: Option<String>,
    /// Only these subdirectories of `cases` hold cases, in this order (a
    /// package's `sample` and `secret`); empty: the whole tree.
    pub case_groups: Vec<String>,
    /// External input validators (`validator`, a package's
    /// `input_validators/`), for `judge validate`.
    pub validators: Vec<InputValidator>,
    /// A package's `answer_validators/` (2025-09): each answer file on
    /// standard input, its input's path as the first argument.
    pub answer_validators: Vec<InputValidator>,
    /// The Kattis-style package the problem comes from, if any.
    pub package: Option<PathBuf>,
    /// That package's format version (what `judge validate` holds its
    /// files to).
    pub package_format: Option<FormatVersion>,
    /// Whose verdicts its submission folders speak: a package's are
    /// DOMjudge's when it is a DOMjudge problem, else Kattis'; a
    /// judge.toml problem's are the judge's own.
    pub dialect: crate::expect::Dialect,
    /// The package's 2025-09 constants, replaced in its submissions'
    /// files (its validators carry their own).
    pub constants: Option<Arc<crate::text::constants::Constants>>,
    /// What a package's groups change for their cases: each group's
    /// directory (canonical), nearest first.
    pub groups: Vec<(PathBuf, Arc<CaseSettings>)>,
    /// Things a user should know about the configuration (shown as warnings).
    pub warnings: Vec<String>,
    /// The `submissions/<expected verdict>/` tree `judge verify` reads.
    pub submissions: PathBuf,
    /// Expected verdicts declared in judge.toml, by submission path
    /// relative to `submissions` (`accepted/slow.cpp`).
    pub expectations: Vec<(String, Expectation)>,
    /// A package's `submissions/submissions.yaml` entries, in file order.
    pub submission_rules: Vec<crate::expect::SubmissionRule>,
    /// A scoring problem's plan: a package's grading, or judge.toml's
    /// `[problem.NAME.group.*]` tables.
    pub scoring: Option<crate::score::ScoringPlan>,
    /// Files the program reads and writes instead of the standard streams
    /// (a Polygon package's `input-file`/`output-file`).
    pub io_files: crate::exec::IoFiles,
    /// The package's own tests of its checker and validators, which
    /// `judge verify` runs.
    pub tool_tests: Vec<ToolTest>,
}

/// How a package without a time limit gets one from its accepted
/// submissions: the slowest accepted run × `multiplier`, rounded up to a
/// multiple of `resolution` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeInference {
    pub multiplier: f64,
    pub resolution: f64,
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Problem")
            .field("name", &self.name)
            .field("puzzle", &self.puzzle.map(|p| p.name()))
            .field("cases", &self.cases)
            .field("comparison", &self.comparison)
            .field("lexmin", &self.lexmin)
            .field("strict", &self.strict)
            .field("limits", &self.limits)
            .field("solution", &self.solution)
            .field("case_groups", &self.case_groups)
            .field("validators", &self.validators)
            .field("answer_validators", &self.answer_validators)
            .field("package", &self.package)
            .field("constants", &self.constants)
            .field("groups", &self.groups)
            .field("submissions", &self.submissions)
            .field("expectations", &self.expectations)
            .finish()
    }
}

impl Problem {
    /// What the group of the case with input `input` changes, if anything.
    pub fn settings_for(&self, input: &Path) -> Option<Arc<CaseSettings>> {
        if self.groups.is_empty() {
            return None;
        }
        let dir = std::fs::canonicalize(input.parent()?).ok()?;
        // The case itself first (its own NAME.yaml), then its groups, the
        // nearest first.
        let path = dir.join(input.file_name()?);
        self.groups
            .iter()
            .find(|(group, _)| path.starts_with(group))
            .map(|(_, settings)| Arc::clone(settings))
    }

    /// Whether some case has settings of its own (a 2025-09 `NAME.yaml`),
    /// so that the cases of one directory may differ.
    pub fn has_case_settings(&self) -> bool {
        self.groups.iter().any(|(path, _)| !path.is_dir())
    }
}

/// A package's own test of one of its tools (Polygon's checker tests and
/// validator tests): what the tool must say on given files. `name`: the
/// test's input as the package names it.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolTest {
    /// The problem's checker on `output`, for `input` and `answer`, must
    /// give `expected` (AC, WA, PE, or IE: the checker fails).
    Checker {
        name: String,
        input: PathBuf,
        output: PathBuf,
        answer: PathBuf,
        expected: Verdict,
    },
    /// The problem's `validator`th input validator must find `input`
    /// valid or not.
    Validator {
        name: String,
        validator: usize,
        input: PathBuf,
        valid: bool,
    },
}
