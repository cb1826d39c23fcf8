//! Expected verdicts of a problem's submissions, for `judge verify`: what a
//! `submissions/<folder>/` means, what a submission declares in its first
//! line (`// judge: permitted AC TLE, required TLE`), and whether a run's
//! verdicts agree.
//!
//! An expectation is two sets, as in the Kattis problem package format:
//! `permitted` (every case must get one of these) and `required` (at least
//! one case must get one of these). A folder `wrong_answer/` means permitted
//! AC WA, required WA; `accepted/` means every case AC; `compile_error/`
//! means CE. A declaration replaces the folder's expectation wholly: an
//! omitted `permitted` permits every verdict, an omitted `required`
//! requires nothing. This module decides; it neither runs nor prints.

use crate::score::ScoreRange;
use crate::verdict::Verdict;
use std::fmt;

pub mod rules;
pub use rules::{NodeExpectation, SubmissionRule};

/// A declaration of expected verdicts that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpectError {
    #[error("{0:?} is not a verdict (AC, WA, PE, TLE, MLE, OLE, RE, CE)")]
    UnknownVerdict(String),
    #[error("{0:?} cannot be expected: it is not a judgement of the submission")]
    NotAJudgement(String),
    /// A `judge:` comment that says nothing or says it wrong.
    #[error("{0}")]
    Declaration(String),
    #[error(
        "@EXPECTED_RESULTS@: {0:?} is not a DOMjudge result (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, COMPILER-ERROR, NO-OUTPUT, OUTPUT-LIMIT)"
    )]
    DomJudgeResult(String),
    #[error("@EXPECTED_RESULTS@: lists no result")]
    NoResult,
    /// A submissions.yaml key that is not a glob.
    #[error("{pattern:?}: not a glob: {source}")]
    NotAGlob {
        pattern: String,
        source: crate::text::glob::GlobError,
    },
    /// The marker more than once: DOMjudge refuses such a source too
    /// (prose that mentions the tag must not contain it with its colon).
    #[error(
        "{tag} appears again on line {again} (first on line {first}); a source may declare its expected results once"
    )]
    Repeated {
        tag: &'static str,
        first: usize,
        again: usize,
    },
    /// An error on a line of the source.
    #[error("{line}: {error}")]
    OnLine {
        line: usize,
        error: Box<ExpectError>,
    },
}

/// Where an expectation came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The submission's `submissions/<folder>/`.
    Folder(Verdict),
    /// A folder with no single verdict: `rejected/` (any failure),
    /// `check_manually/` (listed, never counted), `no_output/`.
    NamedFolder(&'static str),
    /// A `judge:` comment in the source's first line.
    Comment,
    /// DOMjudge's `@EXPECTED_RESULTS@:` line in the source.
    ExpectedResults,
    /// A 2025-09 `submissions/submissions.yaml` entry.
    SubmissionsYaml,
    /// A `[problem.NAME.expect."PATH"]` table in judge.toml.
    Table,
}

/// Whose verdicts an expectation speaks in. The judge tells MLE, OLE and
/// PE apart; the contest formats do not, and count them as their own
/// judges report them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The judge's own verdicts (judge.toml's submissions).
    #[default]
    Judge,
    /// Kattis/CLICS: AC, WA, TLE, RTE. A memory overrun and an output
    /// overrun are run-time errors (problemtools enforces the output limit
    /// as a file-size limit, which kills the program); PE is WA.
    Kattis,
    /// DOMjudge: CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR,
    /// COMPILER-ERROR, NO-OUTPUT, OUTPUT-LIMIT. A memory overrun is a
    /// RUN-ERROR; PE is WRONG-ANSWER.
    DomJudge,
}

impl Dialect {
    /// The verdict a case of the judge's counts as in this format.
    pub fn counts_as(self, verdict: Verdict) -> Verdict {
        match (self, verdict) {
            (Dialect::Judge, v) => v,
            (_, Verdict::MemoryLimit) => Verdict::RuntimeError,
            (Dialect::Kattis, Verdict::OutputLimit) => Verdict::RuntimeError,
            (_, Verdict::PresentationError) => Verdict::WrongAnswer,
            (_, v) => v,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dialect::Judge => "judge",
            Dialect::Kattis => "Kattis",
            Dialect::DomJudge => "DOMjudge",
        }
    }

    /// `RE (MLE: the memory limit)` when the format counts a verdict as
    /// another; else the verdict's code.
    pub fn show(self, verdict: Verdict) -> String {
        let counted = self.counts_as(verdict);
        if counted == verdict {
            verdict.code().to_string()
        } else {
            format!(
                "{} ({}: {} counts it so)",
                counted.code(),
                verdict.code(),
                self.name()
            )
        }
    }
}

/// The verdicts a submission may and must get, and on a scoring problem
/// the score it must get.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// Every case gets one of these; `None`: any verdict.
    pub permitted: Option<Vec<Verdict>>,
    /// Some case gets one of these; `None`: nothing is required.
    pub required: Option<Vec<Verdict>>,
    pub origin: Origin,
    /// Whose verdicts `permitted` and `required` are.
    pub dialect: Dialect,
    /// The score of the whole (submissions.yaml `score`, judge.toml
    /// `score`).
    pub score: Option<ScoreRange>,
    /// Named groups' scores (`secret/group1`, a judge.toml group).
    pub group_scores: Vec<(String, ScoreRange)>,
    /// Verdicts a test data node's cases may and must get (submissions.yaml
    /// `sample: {permitted: [AC]}`, `secret/*/huge: {required: [TLE]}`).
    pub nodes: Vec<NodeExpectation>,
}

/// Why a run disagrees with its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// The case at this position (in the order given) got a verdict that
    /// is not permitted.
    Forbidden { position: usize, verdict: Verdict },
    /// No case got a required verdict.
    Missing { required: Vec<Verdict> },
}

impl Expectation {
    /// The meaning of a `submissions/<folder>/` in a format: a verdict's
    /// [`Verdict::folder_name`], and the format's own folders (DOMjudge's
    /// `compiler_error`, `no_output`, `output_limit`, `check_manually`;
    /// Kattis' `rejected`).
    pub fn of_folder_in(folder: &str, dialect: Dialect) -> Option<Expectation> {
        let named = |permitted: Option<Vec<Verdict>>, required: Option<Vec<Verdict>>, name| {
            Some(Expectation {
                permitted,
                required,
                origin: Origin::NamedFolder(name),
                dialect,
                score: None,
                group_scores: Vec::new(),
                nodes: Vec::new(),
            })
        };
        let failures = || {
            Verdict::ALL
                .into_iter()
                .filter(|v| {
                    !matches!(
                        v,
                        Verdict::Accepted | Verdict::InternalError | Verdict::Skipped
                    )
                })
                .collect::<Vec<_>>()
        };
        match (folder, dialect) {
            ("check_manually", _) => return named(None, None, "check_manually"),
            ("rejected", Dialect::Kattis | Dialect::DomJudge) => {
                return named(None, Some(failures()), "rejected");
            }
            // A partial solution: on a scoring problem judged by its score
            // (some points, not all: `judge verify`); on a pass-fail one it
            // must pass some case and fail some other.
            ("partially_accepted", _) => {
                return named(None, Some(failures()), "partially_accepted");
            }
            // 2023-07 and later: too slow or crashing, never wrong.
            ("brute_force", Dialect::Kattis) => {
                return named(
                    Some(vec![
                        Verdict::Accepted,
                        Verdict::RuntimeError,
                        Verdict::TimeLimit,
                    ]),
                    Some(vec![Verdict::RuntimeError, Verdict::TimeLimit]),
                    "brute_force",
                );
            }
            // problemtools' own example `different` has it; no format
            // defines it, and problemtools and BAPCtools pass it over
            // unjudged. As its name says: correct, possibly too slow.
            ("slow_accepted", Dialect::Kattis) => {
                return named(
                    Some(vec![Verdict::Accepted, Verdict::TimeLimit]),
                    None,
                    "slow_accepted",
                );
            }
            // An empty output is a wrong answer; the judge does not tell
            // it apart, so NO-OUTPUT is WA here.
            ("no_output", Dialect::DomJudge) => {
                return named(
                    Some(vec![Verdict::Accepted, Verdict::WrongAnswer]),
                    Some(vec![Verdict::WrongAnswer]),
                    "no_output",
                );
            }
            ("compiler_error", Dialect::DomJudge) => {
                return Expectation::of_folder_in("compile_error", dialect);
            }
            ("output_limit", Dialect::DomJudge) => {
                return Expectation::of_folder_in("output_limit_exceeded", dialect);
            }
            _ => {}
        }
        let mut e = Expectation::of_folder(folder)?;
        e.dialect = dialect;
        Some(e)
    }

    /// The meaning of a `submissions/<folder>/` in the judge's own verdicts
    /// (a verdict's [`Verdict::folder_name`]).
    pub fn of_folder(folder: &str) -> Option<Expectation> {
        let verdict = Verdict::ALL
            .into_iter()
            .find(|v| v.folder_name() == Some(folder))?;
        let (permitted, required) = match verdict {
            Verdict::Accepted => (vec![Verdict::Accepted], None),
            Verdict::CompileError => (vec![Verdict::CompileError], Some(vec![verdict])),
            other => (vec![Verdict::Accepted, other], Some(vec![other])),
        };
        Some(Expectation {
            permitted: Some(permitted),
            required,
            origin: Origin::Folder(verdict),
            dialect: Dialect::Judge,
            score: None,
            group_scores: Vec::new(),
            nodes: Vec::new(),
        })
    }

    /// An expectation written in judge.toml.
    pub fn declared(permitted: Option<Vec<Verdict>>, required: Option<Vec<Verdict>>) -> Self {
        Expectation {
            permitted,
            required,
            origin: Origin::Table,
            dialect: Dialect::Judge,
            score: None,
            group_scores: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Do the verdicts of a submission's cases (in case order) agree?
    /// The first case with a verdict that is not permitted is the
    /// disagreement; failing that, a missing required verdict.
    /// Verdicts count as the expectation's format counts them
    /// ([`Dialect::counts_as`]); a disagreement names the judge's own.
    pub fn assess(&self, verdicts: &[Verdict]) -> Result<(), Disagreement> {
        let counted = |v: &Verdict| self.dialect.counts_as(*v);
        if let Some(permitted) = &self.permitted
            && let Some((position, &verdict)) = verdicts
                .iter()
                .enumerate()
                .find(|(_, v)| !permitted.contains(&counted(v)))
        {
            return Err(Disagreement::Forbidden { position, verdict });
        }
        if let Some(required) = &self.required
            && !verdicts.iter().any(|v| required.contains(&counted(v)))
        {
            return Err(Disagreement::Missing {
                required: required.clone(),
            });
        }
        // partially_accepted/: some points, not all — judged pass or fail
        // per case, some case passes as well as some fails.
        if self.origin == Origin::NamedFolder("partially_accepted")
            && !verdicts.iter().any(|v| v.is_accepted())
        {
            return Err(Disagreement::Missing {
                required: vec![Verdict::Accepted],
            });
        }
        Ok(())
    }

    /// Whether the expectation allows only AC (an accepted submission, whose
    /// times `judge limits` derives a time limit from).
    pub fn is_accepted(&self) -> bool {
        self.permitted.as_deref() == Some(&[Verdict::Accepted])
    }

    /// Whether the expectation requires a TLE on some case (a submission
    /// that must time out: `judge limits` checks it against the margin).
    pub fn requires_time_limit(&self) -> bool {
        self.required
            .as_deref()
            .is_some_and(|r| r == [Verdict::TimeLimit])
    }
}

impl fmt::Display for Expectation {
    /// `WA` for a folder's expectation; `permitted AC TLE, required TLE`
    /// for a declared one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Origin::Folder(v) = self.origin {
            return f.write_str(v.code());
        }
        if let Origin::NamedFolder(name) = self.origin {
            return f.write_str(name);
        }
        let codes = |vs: &[Verdict]| vs.iter().map(|v| v.code()).collect::<Vec<_>>().join(" ");
        let mut parts = Vec::new();
        if let Some(p) = &self.permitted {
            parts.push(format!("permitted {}", codes(p)));
        }
        if let Some(r) = &self.required {
            parts.push(format!("required {}", codes(r)));
        }
        for node in &self.nodes {
            let mut said = Vec::new();
            if let Some(p) = &node.permitted {
                said.push(format!("permitted {}", codes(p)));
            }
            if let Some(r) = &node.required {
                said.push(format!("required {}", codes(r)));
            }
            parts.push(format!("on {}: {}", node.pattern, said.join(" ")));
        }
        f.write_str(&parts.join(", "))
    }
}

/// A verdict as an expectation names it: a code (`TLE`, `RTE` as Kattis
/// spells RE) or a folder name. IE and SKIP are never expected.
pub fn parse_verdict(text: &str) -> Result<Verdict, ExpectError> {
    let verdict = if text.eq_ignore_ascii_case("RTE") {
        Some(Verdict::RuntimeError)
    } else {
        Verdict::parse(text)
    };
    match verdict {
        Some(Verdict::InternalError | Verdict::Skipped) => {
            Err(ExpectError::NotAJudgement(text.to_string()))
        }
        Some(v) => Ok(v),
        None => Err(ExpectError::UnknownVerdict(text.to_string())),
    }
}

/// The `judge:` declaration in a source's first line (the second after a
/// `#!` line), in any of the usual comment styles: `// judge: …`,
/// `# judge: …`, `-- judge: …`, `{ judge: … }`, `(* judge: … *)`,
/// `/* judge: … */`. `Ok(None)` when there is none.
pub fn parse_declaration(source: &[u8]) -> Result<Option<Expectation>, ExpectError> {
    let text = String::from_utf8_lossy(&source[..source.len().min(4096)]);
    let mut lines = text.lines();
    let mut line = lines.next().unwrap_or("");
    if line.starts_with("#!") {
        line = lines.next().unwrap_or("");
    }
    let mut body = line.trim();
    let mut stripped = false;
    for (open, close) in [
        ("//", ""),
        ("/*", "*/"),
        ("(*", "*)"),
        ("{", "}"),
        ("#", ""),
        ("--", ""),
        ("%", ""),
        (";", ""),
    ] {
        if let Some(rest) = body.strip_prefix(open) {
            body = rest.trim_end();
            if !close.is_empty() {
                body = body.strip_suffix(close).unwrap_or(body);
            }
            body = body.trim();
            stripped = true;
            break;
        }
    }
    if !stripped {
        return Ok(None);
    }
    let Some(clauses) = body.strip_prefix("judge:") else {
        return Ok(None);
    };
    let mut permitted = None;
    let mut required = None;
    for clause in clauses.split([',', ';']) {
        let mut words = clause.split_whitespace();
        let Some(key) = words.next() else { continue };
        let verdicts = words.map(parse_verdict).collect::<Result<Vec<_>, _>>()?;
        if verdicts.is_empty() {
            return Err(ExpectError::Declaration(format!(
                "`judge: {key}` names no verdict"
            )));
        }
        let slot = match key {
            "permitted" => &mut permitted,
            "required" => &mut required,
            other => {
                return Err(ExpectError::Declaration(format!(
                    "`judge: {other} …`: expected `permitted V…` and/or `required V…`"
                )));
            }
        };
        if slot.is_some() {
            return Err(ExpectError::Declaration(format!(
                "`judge: {key}` is given twice"
            )));
        }
        *slot = Some(verdicts);
    }
    if permitted.is_none() && required.is_none() {
        return Err(ExpectError::Declaration(
            "`judge:` declares nothing: write `judge: permitted AC TLE, required TLE`".into(),
        ));
    }
    Ok(Some(Expectation {
        permitted,
        required,
        origin: Origin::Comment,
        dialect: Dialect::Judge,
        score: None,
        group_scores: Vec::new(),
        nodes: Vec::new(),
    }))
}

/// The marker of DOMjudge's expected results line.
const EXPECTED_RESULTS: &str = "@EXPECTED_RESULTS@:";

/// DOMjudge's `@EXPECTED_RESULTS@: TIMELIMIT, WRONG-ANSWER` anywhere in a
/// source: the submission's result is one of these. CORRECT among them
/// permits an accepted run; without it some case must fail as listed.
pub fn parse_expected_results(source: &[u8]) -> Result<Option<Expectation>, ExpectError> {
    let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
    // DOMjudge also accepts the older tag `@EXPECTED_SCORE@:`.
    let mut found = [EXPECTED_RESULTS, "@EXPECTED_SCORE@:"]
        .into_iter()
        .flat_map(|tag| text.match_indices(tag))
        .collect::<Vec<_>>();
    found.sort();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let Some(&(at, tag)) = found.first() else {
        return Ok(None);
    };
    let tag_len = tag.len();
    let on_line = |error: ExpectError| ExpectError::OnLine {
        line: line_of(at),
        error: Box::new(error),
    };
    if let Some(&(again, tag)) = found.get(1) {
        return Err(ExpectError::OnLine {
            line: line_of(again),
            error: Box::new(ExpectError::Repeated {
                tag: if tag == EXPECTED_RESULTS {
                    EXPECTED_RESULTS
                } else {
                    "@EXPECTED_SCORE@:"
                },
                first: line_of(at),
                again: line_of(again),
            }),
        });
    }
    let line = text[at + tag_len..]
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches("*/")
        .trim_end_matches("-->");
    let mut listed = Vec::new();
    for word in line.split([',', ' ', '\t']).filter(|w| !w.is_empty()) {
        let verdict = match word.to_ascii_uppercase().as_str() {
            "CORRECT" | "ACCEPTED" => Verdict::Accepted,
            "WRONG-ANSWER" | "WRONG_ANSWER" | "NO-OUTPUT" | "NO_OUTPUT" => Verdict::WrongAnswer,
            // DOMjudge remaps the Kattis names (its `PROBLEM_RESULT_REMAP`).
            "TIMELIMIT" | "TIME-LIMIT" | "TIME_LIMIT_EXCEEDED" => Verdict::TimeLimit,
            "RUN-ERROR" | "RUN_ERROR" | "RUN_TIME_ERROR" | "MEMORY-LIMIT" => Verdict::RuntimeError,
            "COMPILER-ERROR" | "COMPILER_ERROR" => Verdict::CompileError,
            "OUTPUT-LIMIT" | "OUTPUT_LIMIT" => Verdict::OutputLimit,
            other => return Err(on_line(ExpectError::DomJudgeResult(other.to_string()))),
        };
        if !listed.contains(&verdict) {
            listed.push(verdict);
        }
    }
    if listed.is_empty() {
        return Err(on_line(ExpectError::NoResult));
    }
    let correct = listed.contains(&Verdict::Accepted);
    let failures: Vec<Verdict> = listed
        .iter()
        .copied()
        .filter(|v| *v != Verdict::Accepted)
        .collect();
    let (permitted, required) = if listed == [Verdict::CompileError] {
        (
            vec![Verdict::CompileError],
            Some(vec![Verdict::CompileError]),
        )
    } else {
        let mut permitted = listed.clone();
        if !correct {
            permitted.insert(0, Verdict::Accepted);
        }
        (permitted, (!correct).then_some(failures))
    };
    Ok(Some(Expectation {
        permitted: Some(permitted),
        required,
        origin: Origin::ExpectedResults,
        dialect: Dialect::DomJudge,
        score: None,
        group_scores: Vec::new(),
        nodes: Vec::new(),
    }))
}

#[cfg(test)]
mod tests;
