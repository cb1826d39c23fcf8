//! What `judge verify` decided, carried by its report: the JSON report's
//! `verify` object and the HTML page's header and matrix read it. The
//! verify command decides; this is only the record (README "The JSON
//! report").

use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The outcome of a verification: did every submission get what it is
/// expected to get?
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Verification {
    /// `OK` or `FAIL`, as the terminal's last line says.
    pub outcome: String,
    /// Whether verify passed (exit 0).
    pub ok: bool,
    /// Submissions that got what they are expected to get.
    pub agreed: usize,
    /// Every submission found.
    pub total: usize,
    /// Submissions that got something else.
    pub disagreed: usize,
    /// Submissions with an internal error on some case.
    pub internal_errors: usize,
    /// Submissions that could not run here (a compiler or interpreter is
    /// not installed).
    pub not_run: usize,
    /// Whether a submission that could not run is let pass
    /// (`--allow-missing`); otherwise it fails the verification.
    pub allow_missing: bool,
    /// Runs were made at each time limit × this, graded at the limit.
    pub margin: f64,
    /// One per submission, in the terminal table's order.
    pub submissions: Vec<SubmissionOutcome>,
    /// The package's own tests of its checker and validators (Polygon's),
    /// one per test; a disagreement fails the verification.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_tests: Vec<ToolTestOutcome>,
}

/// One test of a package's tool: what the tool was declared to say, what
/// it said.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ToolTestOutcome {
    pub problem: String,
    /// `checker`, or `validator files/val.cpp`.
    pub tool: String,
    /// The test's input as the package names it.
    pub test: String,
    /// A verdict (`AC`, `WA`, `PE`, `IE`: the checker fails) or `valid` /
    /// `invalid`.
    pub expected: String,
    /// The same, or `failed` (the validator itself failed).
    pub got: String,
    pub agrees: bool,
    /// What the tool said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One submission: what it was expected to get, what it got, whether they
/// agree.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SubmissionOutcome {
    pub problem: String,
    /// Its label: the `program` of its cases in the report.
    pub program: String,
    /// Its path relative to the problem's submissions directory.
    pub path: String,
    /// The expectation as people read it: a folder's verdict (`WA`) or a
    /// declaration (`permitted AC TLE, required TLE`).
    pub expected: String,
    /// Where it comes from: `folder`, `comment` or `judge.toml`.
    pub expected_from: String,
    /// Every case must get one of these (null: any verdict).
    pub permitted: Option<Vec<Verdict>>,
    /// Some case must get one of these (null: nothing required).
    pub required: Option<Vec<Verdict>>,
    pub status: Status,
    /// Whether the submission got what it is expected to get.
    pub agrees: bool,
    /// Verdict counts over its cases, graded at the limit.
    pub got: BTreeMap<Verdict, usize>,
    /// Why it disagrees, is an internal error, or was not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The case that disagreed (a verdict not permitted), if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// That case's `index` in the report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_index: Option<usize>,
    /// A scoring problem: the score it got, and the most it could.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
    /// The score it is expected to get (`30`, `0..40`, `secret/g1 30`,
    /// `some points, not all`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_score: Option<String>,
}

/// A submission's standing.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It got what it is expected to get.
    Ok,
    /// It got something else.
    Fail,
    /// A case ended in an internal error: not the submission's fault.
    InternalError,
    /// It could not run here, and that fails the verification.
    NotRun,
    /// It could not run here, let pass by `--allow-missing`.
    Skipped,
}

impl Status {
    /// The word in the terminal table and on the page.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Fail => "FAIL",
            Status::InternalError => "IE",
            Status::NotRun => "MISS",
            Status::Skipped => "skip",
        }
    }
}
