//! The verdict a case gets, as README "Verdicts" defines them.
//!
//! This file only names verdicts and orders them; deciding one is the job of
//! `check` (for outputs) and `judge` (for limits and crashes).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A case's verdict. The JSON spelling is the short code (`"AC"`, `"WA"` …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted.
    #[serde(rename = "AC")]
    Accepted,
    /// Wrong answer.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// Presentation error: only white space differs, and the problem is strict.
    #[serde(rename = "PE")]
    PresentationError,
    /// Time limit exceeded (CPU or wall clock).
    #[serde(rename = "TLE")]
    TimeLimit,
    /// Memory limit exceeded.
    #[serde(rename = "MLE")]
    MemoryLimit,
    /// Output limit exceeded.
    #[serde(rename = "OLE")]
    OutputLimit,
    /// Runtime error: a non-zero exit code or a signal.
    #[serde(rename = "RE")]
    RuntimeError,
    /// Compile error of a source submission.
    #[serde(rename = "CE")]
    CompileError,
    /// Internal error: the judge's own fault (bad data, a crashed checker),
    /// never blamed on the submission.
    #[serde(rename = "IE")]
    InternalError,
    /// Not run: skipped by `--fail-fast`, or the run was interrupted first.
    /// Not a judgement of the program.
    #[serde(rename = "SKIP")]
    Skipped,
}

impl Verdict {
    /// Every verdict, in the order summaries list them.
    pub const ALL: [Verdict; 10] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::RuntimeError,
        Verdict::CompileError,
        Verdict::InternalError,
        Verdict::Skipped,
    ];

    /// The short code: `AC`, `WA`, `PE`, `TLE`, `MLE`, `OLE`, `RE`, `CE`, `IE`, `SKIP`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::CompileError => "CE",
            Verdict::InternalError => "IE",
            Verdict::Skipped => "SKIP",
        }
    }

    /// The long name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::PresentationError => "presentation error",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::CompileError => "compile error",
            Verdict::InternalError => "internal error",
            Verdict::Skipped => "not run",
        }
    }

    /// Parse a short code (case-insensitive) or a Kattis folder name
    /// (`wrong_answer` …).
    pub fn parse(text: &str) -> Option<Verdict> {
        let lower = text.trim().to_ascii_lowercase();
        Verdict::ALL.into_iter().find(|v| {
            v.code().eq_ignore_ascii_case(&lower) || v.folder_name() == Some(lower.as_str())
        })
    }

    /// The Kattis-style `submissions/<folder>/` name, where one exists.
    pub fn folder_name(self) -> Option<&'static str> {
        Some(match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong_answer",
            Verdict::PresentationError => "presentation_error",
            Verdict::TimeLimit => "time_limit_exceeded",
            Verdict::MemoryLimit => "memory_limit_exceeded",
            Verdict::OutputLimit => "output_limit_exceeded",
            Verdict::RuntimeError => "run_time_error",
            Verdict::CompileError => "compile_error",
            Verdict::InternalError | Verdict::Skipped => return None,
        })
    }

    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The overall verdict of a list of case verdicts in case order: the first
/// one that is not AC (README "Verdicts"), AC when all are, or `None` for no cases.
pub fn overall<I: IntoIterator<Item = Verdict>>(verdicts: I) -> Option<Verdict> {
    let mut seen_any = false;
    for v in verdicts {
        seen_any = true;
        if !v.is_accepted() {
            return Some(v);
        }
    }
    seen_any.then_some(Verdict::Accepted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.code()), Some(v));
            if let Some(folder) = v.folder_name() {
                assert_eq!(Verdict::parse(folder), Some(v));
            }
        }
        assert_eq!(Verdict::parse("wa"), Some(Verdict::WrongAnswer));
        assert_eq!(Verdict::parse("nonsense"), None);
    }

    #[test]
    fn overall_is_first_failure_in_order() {
        use Verdict::*;
        assert_eq!(overall([Accepted, TimeLimit, WrongAnswer]), Some(TimeLimit));
        assert_eq!(overall([Accepted, Accepted]), Some(Accepted));
        assert_eq!(overall([]), None);
    }

    #[test]
    fn json_spelling_is_the_code() {
        let json = serde_json::to_string(&Verdict::TimeLimit).unwrap();
        assert_eq!(json, "\"TLE\"");
    }
}

/// The judge's process exit status (README "Exit codes"): the one place
/// the numbers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// Everything accepted (or the command did its work): 0.
    Ok,
    /// Some verdict other than AC, invalid data, a disagreement: 1.
    Failed,
    /// A usage or configuration error: 2.
    Usage,
    /// `judge check` only, in testlib's codes: a presentation error, 2.
    PresentationError,
    /// An internal error (an IE, a report that could not be written; for
    /// `judge check`, testlib's "fail"): 3.
    Internal,
    /// Stopped by an interrupt before the work was done: 130.
    Interrupted,
}

impl ExitCode {
    /// The number the process exits with.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Failed => 1,
            ExitCode::Usage | ExitCode::PresentationError => 2,
            ExitCode::Internal => 3,
            ExitCode::Interrupted => 130,
        }
    }

    /// The more serious of two codes: interrupted, then internal, then
    /// usage, then failed, then ok.
    pub fn worst(self, other: ExitCode) -> ExitCode {
        let rank = |c: ExitCode| match c {
            ExitCode::Ok => 0,
            ExitCode::Failed => 1,
            ExitCode::PresentationError => 2,
            ExitCode::Usage => 3,
            ExitCode::Internal => 4,
            ExitCode::Interrupted => 5,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}
