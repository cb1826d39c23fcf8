//! One stress round: the [`Candidate`] it tries (a puzzle's generated
//! cases or a generator's input), the [`Arena`] that judges the submission
//! (and the reference) on it as `judge run` would, and the [`Finding`] when
//! they disagree.

use crate::cases::Case;
use crate::check;
use crate::commands::Failure;
use crate::config::Problem;
use crate::exec::sandbox::Sandbox;
use crate::exec::{Given, RunError, RunRequest};
use crate::judge::{self, CaseResult, Job, Plan, Program};
use crate::puzzles::{GeneratedCase, Puzzle};
use crate::score::Partial;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// What one round tries.
#[derive(Clone)]
pub(super) enum Candidate {
    /// A puzzle's generated cases, one file.
    Cases(Vec<GeneratedCase>),
    /// A generator's input.
    Input(Vec<u8>),
}

/// How the submission disagreed.
#[derive(Clone, Debug)]
pub(super) struct Finding {
    pub(super) submission: CaseResult,
    /// The reference's verdict when it differs from AC (with --against on a puzzle).
    pub(super) against: Option<Verdict>,
    /// The reference's output (generator mode): the case's answer.
    pub(super) answer: Option<Vec<u8>>,
}

/// Write a round's file in the arena's directory.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    std::fs::write(path, bytes)
        .map_err(|e| Failure::Internal(format!("{}: cannot write: {e}", path.display())))
}

/// On a scoring problem an accepted case is still a disagreement when the
/// checker gave it less than full credit (a fraction below 1), or fewer
/// points than the reference earned on it (when the reference was judged).
fn short_of(mine: &CaseResult, reference: Option<Partial>) -> bool {
    if !mine.verdict.is_accepted() {
        return false;
    }
    match (mine.partial, reference) {
        (Some(Partial::Fraction(f)), None) => f < 1.0 - 1e-9,
        (Some(Partial::Fraction(f)), Some(Partial::Fraction(r))) => f < r - 1e-9,
        (Some(Partial::Points(p)), Some(Partial::Points(r))) => p < r - 1e-9,
        _ => false,
    }
}

impl Finding {
    pub(super) fn describe(&self) -> String {
        let mut text = format!(
            "{}: {}",
            self.submission.verdict.code(),
            self.submission.message
        );
        if let Some(partial) = self.submission.partial {
            text.push_str(&format!(" (partial credit: {})", partial.describe()));
        }
        if let Some(v) = self.against {
            text.push_str(&format!(" (the reference: {})", v.code()));
        }
        text
    }
}

/// Everything a round needs.
pub(super) struct Arena<'a> {
    pub(super) problem: &'a Problem,
    /// Where an external checker runs, if the problem has one.
    pub(super) tools: Option<Arc<Sandbox>>,
    pub(super) submission: Program,
    pub(super) against: Option<Program>,
    pub(super) dir: PathBuf,
    pub(super) interrupted: Arc<std::sync::atomic::AtomicBool>,
    pub(super) runs: std::cell::Cell<usize>,
}

impl Arena<'_> {
    fn interactive(&self) -> bool {
        matches!(
            self.problem.comparison,
            crate::check::Comparison::Interactive(_)
        )
    }

    /// Run a candidate; `Some` when the submission disagrees.
    pub(super) fn judge(
        &self,
        candidate: &Candidate,
        puzzle: Option<&'static dyn Puzzle>,
    ) -> Result<Option<Finding>, Failure> {
        self.runs.set(self.runs.get() + 1);
        let input_path = self.dir.join("case.in");
        let answer_path = self.dir.join("case.ans");
        match candidate {
            Candidate::Cases(cases) => {
                let p = puzzle.ok_or_else(|| Failure::Internal("no puzzle".into()))?;
                let (input, answer) = p.assemble(cases);
                write_file(&input_path, &input)?;
                write_file(&answer_path, &answer)?;
                let mine = self.run(&self.submission, &input_path, Some(&answer_path))?;
                let theirs = match &self.against {
                    Some(a) => Some(self.run(a, &input_path, Some(&answer_path))?.verdict),
                    None => None,
                };
                let reference = theirs.unwrap_or(Verdict::Accepted);
                Ok((mine.verdict != reference).then(|| Finding {
                    submission: mine,
                    against: theirs.filter(|v| !v.is_accepted()),
                    answer: None,
                }))
            }
            Candidate::Input(input) if self.interactive() => {
                write_file(&input_path, input)?;
                self.interactive_round(&input_path)
            }
            Candidate::Input(input) => {
                write_file(&input_path, input)?;
                self.generated_round(&input_path, &answer_path)
            }
        }
    }

    /// An interactive problem's round: the validator judges each program;
    /// the reference (if any) must pass, the submission disagrees when it
    /// fails or earns less.
    fn interactive_round(&self, input_path: &Path) -> Result<Option<Finding>, Failure> {
        let mut theirs_partial = None;
        if let Some(against) = &self.against {
            let theirs = self.run(against, input_path, None)?;
            theirs_partial = theirs.partial;
            if !theirs.verdict.is_accepted() {
                return Err(Failure::Internal(format!(
                    "the reference {} failed on a generated input ({}): {}; it is kept in {}",
                    against.label,
                    theirs.verdict.code(),
                    theirs.message,
                    input_path.display()
                )));
            }
        }
        let mine = self.run(&self.submission, input_path, None)?;
        Ok(
            (!mine.verdict.is_accepted() || short_of(&mine, theirs_partial)).then_some(Finding {
                submission: mine,
                against: None,
                answer: None,
            }),
        )
    }

    /// A generator's round: the reference's output is the answer, the
    /// submission is judged against it.
    fn generated_round(
        &self,
        input_path: &Path,
        answer_path: &Path,
    ) -> Result<Option<Finding>, Failure> {
        let against = self
            .against
            .as_ref()
            .ok_or_else(|| Failure::Internal("no reference".into()))?;
        let outcome = against
            .runner
            .run(&RunRequest {
                input: input_path,
                limits: &self.problem.limits,
                slot: 0,
                given: Given::default(),
            })
            .map_err(|e| match e {
                RunError::Interrupted => Failure::Interrupted,
                RunError::Internal(m) => Failure::Internal(m),
            })?;
        if let Some(j) = check::classify_run(&outcome, &self.problem.limits) {
            return Err(Failure::Internal(format!(
                "the reference {} failed on a generated input ({}): {}; it is kept in {}",
                against.label,
                j.verdict.code(),
                j.message,
                input_path.display()
            )));
        }
        let answer = outcome.stdout.bytes().map_err(|e| {
            Failure::Internal(format!(
                "cannot read the reference {}'s output back: {e}",
                against.label
            ))
        })?;
        write_file(answer_path, &answer)?;
        let mine = self.run(&self.submission, input_path, Some(answer_path))?;
        Ok(
            (!mine.verdict.is_accepted() || short_of(&mine, None)).then_some(Finding {
                submission: mine,
                against: None,
                answer: Some(answer.into_owned()),
            }),
        )
    }

    /// Judge one program on one case, as `judge run` would.
    fn run(
        &self,
        program: &Program,
        input: &Path,
        answer: Option<&Path>,
    ) -> Result<CaseResult, Failure> {
        let plan = Plan {
            problems: vec![self.problem.clone()],
            programs: vec![program.clone()],
            jobs: Default::default(),
            tools: self.tools.clone(),
            label_programs: false,
            cache: None,
        };
        let job = Job {
            index: 0,
            problem: 0,
            program: 0,
            case: Case::new(
                "case.in".into(),
                input.to_path_buf(),
                answer.map(Path::to_path_buf),
            ),
        };
        let result = judge::run_job(&plan, &job, 0);
        if result.verdict == Verdict::Skipped || self.interrupted.load(Ordering::SeqCst) {
            return Err(Failure::Interrupted);
        }
        // The checker proves the answer itself; an IE is the judge's fault.
        if result.verdict == Verdict::InternalError {
            return Err(Failure::Internal(format!(
                "{} on a generated case: {}",
                program.label, result.message
            )));
        }
        Ok(result)
    }
}
