//! Deciding a verdict from a finished run: RunOutcome + case → [`Judgement`].
//!
//! First the run itself (limits, crashes: [`classify_run`]), then its output:
//! `text` compares with an answer file, a built-in puzzle checker replays the
//! moves (through the `Puzzle` trait), an `external` checker program speaks
//! the testlib or Kattis protocol (run as a `tool`; `mutate` makes the
//! probes `judge validate` tries tools with). `diff` renders the unified diff a
//! report shows, `whitespace` makes white space visible. This layer decides;
//! it never prints, and the only programs it starts are the problem
//! setter's tools, through `exec::process::launch`.

pub mod diff;
pub mod external;
pub mod feedback;
pub mod interactive;
pub mod mutate;
mod next_pass;
#[cfg(test)]
mod oracle;
pub mod partial;
pub mod text;
pub mod tool;
pub use crate::text::whitespace;

use crate::exec::{Exit, LimitHit, Limits, RunOutcome};
use crate::puzzles::{CheckRequest, Figure, Puzzle};
use crate::text::stream::Text;
use crate::units::Size;
use crate::verdict::Verdict;
use external::ExternalChecker;
use std::path::Path;
pub use text::{FloatTolerance, TextMode};
use tool::ToolContext;

/// How a problem's outputs are judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Comparison {
    /// Byte for byte; a white-space-only difference is PE.
    Exact,
    /// Line by line, trailing white space and the final newline ignored.
    Lines,
    /// White-space separated tokens, optionally with a float tolerance;
    /// `case_insensitive`: ASCII letters compare without case (Kattis'
    /// default validator without `case_sensitive`).
    Tokens {
        float: Option<FloatTolerance>,
        case_insensitive: bool,
    },
    /// The built-in puzzle checker.
    Puzzle,
    /// An external checker program (testlib or Kattis protocol).
    Checker(ExternalChecker),
    /// An interactive validator or testlib interactor talking to the
    /// submission, and/or several passes ([`interactive`]).
    Interactive(interactive::Interaction),
}

impl Comparison {
    /// Whether this comparison needs an answer file. An external checker
    /// gets /dev/null when there is none.
    pub fn needs_answer(&self) -> bool {
        !matches!(
            self,
            Comparison::Puzzle | Comparison::Checker(_) | Comparison::Interactive(_)
        )
    }

    /// The external checker, if the comparison is one.
    pub fn checker(&self) -> Option<&ExternalChecker> {
        match self {
            Comparison::Checker(c) => Some(c),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Comparison::Exact => "exact",
            Comparison::Lines => "lines",
            Comparison::Tokens { .. } => "tokens",
            Comparison::Puzzle => "puzzle",
            Comparison::Checker(_) => "checker",
            Comparison::Interactive(i) if i.interactive => "interactive",
            Comparison::Interactive(_) => "multi-pass",
        }
    }
}

/// A verdict with everything a report shows about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    /// One line.
    pub message: String,
    /// The first differing hunk, for WA and PE of text comparisons.
    pub diff: Option<String>,
    /// Pictures from a puzzle checker.
    pub figures: Vec<Figure>,
    /// The dialogue of an interactive case (bounded), a line each.
    pub transcript: Option<Vec<crate::exec::interactive::Line>>,
    /// Partial credit the checker gave an accepted output (`score.txt`,
    /// `score_multiplier.txt`, testlib's `quitp` / `_pc`).
    pub partial: Option<crate::score::Partial>,
}

impl Judgement {
    pub fn new(verdict: Verdict, message: impl Into<String>) -> Self {
        Judgement {
            verdict,
            message: message.into(),
            diff: None,
            figures: Vec::new(),
            transcript: None,
            partial: None,
        }
    }
}

fn seconds(d: std::time::Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// The verdict of the run itself, if it failed before its output matters:
/// OLE, then TLE, then MLE, then RE. `None`: the run finished normally.
pub fn classify_run(outcome: &RunOutcome, limits: &Limits) -> Option<Judgement> {
    let processes = |what: &str| {
        if outcome.process_cap_hit {
            format!(
                "{what} (the process limit of {} was reached)",
                limits.processes
            )
        } else {
            what.to_string()
        }
    };
    if outcome.limit_hit == Some(LimitHit::Output) {
        return Some(Judgement::new(
            Verdict::OutputLimit,
            match limits.past_output {
                crate::exec::PastOutput::Kill => format!(
                    "output passed the limit of {}; the program was killed",
                    Size(limits.output)
                ),
                crate::exec::PastOutput::Truncate => format!(
                    "output passed the limit of {}; the rest was cut off and the program ran to its end (DOMjudge's rule)",
                    Size(limits.output)
                ),
            },
        ));
    }
    let cpu_over = outcome.cpu > limits.time;
    match outcome.limit_hit {
        Some(LimitHit::Wall) if !cpu_over && outcome.process_cap_hit => {
            return Some(Judgement::new(
                Verdict::TimeLimit,
                format!(
                    "wall-clock limit {} reached: killed; it had reached the process limit of {} (the CPU time counted, {}, is {})",
                    seconds(limits.wall),
                    limits.processes,
                    seconds(outcome.cpu),
                    outcome.cpu_source.describe()
                ),
            ));
        }
        Some(LimitHit::Wall) if !cpu_over => {
            return Some(Judgement::new(
                Verdict::TimeLimit,
                processes(&format!(
                    "wall-clock limit {} reached with {} of CPU time: killed (it was waiting, sleeping, or short of CPU on a busy machine)",
                    seconds(limits.wall),
                    seconds(outcome.cpu)
                )),
            ));
        }
        Some(LimitHit::Wall | LimitHit::Cpu) => {
            return Some(Judgement::new(
                Verdict::TimeLimit,
                processes(&format!(
                    "CPU time limit {} exceeded ({} used by {}): killed",
                    seconds(limits.time),
                    // What was measured, never the limit in its place.
                    seconds(outcome.cpu),
                    outcome.cpu_source.describe()
                )),
            ));
        }
        _ if cpu_over => {
            return Some(Judgement::new(
                Verdict::TimeLimit,
                format!(
                    "CPU time {} ({}) is over the limit {}",
                    seconds(outcome.cpu),
                    outcome.cpu_source.describe(),
                    seconds(limits.time)
                ),
            ));
        }
        _ => {}
    }
    let memory_limit = || {
        limits
            .memory
            .map(|m| Size(m).to_string())
            .unwrap_or_else(|| "?".into())
    };
    // A failed run that reached the process limit is judged by it, not by
    // memory: a fork bomb's processes, and each fork the cap refuses,
    // charge kernel memory (page tables, stacks) to the run's cgroup, and
    // on a loaded machine that alone fills the memory limit. The verdict
    // follows the cause, RE, and the message names both (below).
    let process_bomb = outcome.process_cap_hit && !outcome.exit.success();
    if let Some(evidence) = &outcome.memory_evidence
        && !process_bomb
    {
        return Some(Judgement::new(
            Verdict::MemoryLimit,
            format!(
                "memory limit {}: {evidence}; {}",
                memory_limit(),
                outcome.exit.describe()
            ),
        ));
    }
    if outcome.limit_hit == Some(LimitHit::FileSize) {
        return Some(Judgement::new(
            Verdict::RuntimeError,
            format!(
                "the program wrote a file past the file-size limit of {} (SIGXFSZ)",
                Size(limits.file_size)
            ),
        ));
    }
    if !outcome.exit.success() {
        let mut message = processes(&match outcome.exit {
            Exit::Code(_) => outcome.exit.describe(),
            Exit::Signal(_) => format!("killed by {}", outcome.exit.describe()),
        });
        if let Some(note) = stack_overflow_note(outcome, limits) {
            message.push_str(&note);
        }
        if let Some(evidence) = &outcome.memory_evidence {
            message.push_str(&format!(
                "; the memory limit {} was hit too, as the kernel charges a process bomb's forks to its memory: {evidence}",
                memory_limit()
            ));
        }
        return Some(Judgement::new(Verdict::RuntimeError, message));
    }
    None
}

/// A SIGSEGV whose peak memory reached the stack limit is a stack overflow:
/// the deep recursion of contest programs.
fn stack_overflow_note(outcome: &RunOutcome, limits: &Limits) -> Option<String> {
    if outcome.exit != Exit::Signal(libc::SIGSEGV) {
        return None;
    }
    let stack = limits.stack?;
    let ceiling = limits.memory.map_or(stack, |m| m.min(stack));
    let peak = outcome.peak_rss_kib? * 1024;
    (peak * 10 >= ceiling * 9).then(|| {
        format!(
            ": a stack overflow (peak memory {} reached the stack limit {})",
            Size(peak),
            Size(stack)
        )
    })
}

/// What a case is checked against.
pub struct CaseFiles<'a> {
    pub input: &'a Path,
    pub answer: Option<&'a Path>,
}

/// How to check outputs of one problem.
#[derive(Clone, Copy)]
pub struct CheckPlan<'a> {
    pub comparison: &'a Comparison,
    pub puzzle: Option<&'static dyn Puzzle>,
    pub lexmin: bool,
    pub strict: bool,
    /// Where an external checker runs; without it, a checker case is IE.
    pub tools: Option<ToolContext<'a>>,
}

/// Judge a finished run's output. The run must have finished normally
/// (see [`classify_run`]).
pub fn check_output(plan: CheckPlan<'_>, files: &CaseFiles<'_>, output: Text<'_>) -> Judgement {
    let read = |path: &Path, what: &str| read_package_file(path, what);
    match plan.comparison {
        Comparison::Checker(checker) => match plan.tools {
            Some(context) => {
                // The checker is given the answer's path: it must be a
                // regular file (a FIFO would hold the checker) within the cap.
                if let Some(Err(j)) = files.answer.map(|a| open_package_file(a, "answer file")) {
                    return j;
                }
                checker.check(context, files.input, files.answer, output)
            }
            None => Judgement::new(
                Verdict::InternalError,
                "an external checker needs a sandbox to run in (internal error)",
            ),
        },
        Comparison::Interactive(_) => Judgement::new(
            Verdict::InternalError,
            "an interactive or multi-pass case is judged while it runs, not from an output (internal error)",
        ),
        Comparison::Puzzle => {
            let Some(puzzle) = plan.puzzle else {
                return Judgement::new(
                    Verdict::InternalError,
                    "check = \"puzzle\" without a puzzle",
                );
            };
            let input = match read(files.input, "input") {
                Ok(bytes) => bytes,
                Err(j) => return j,
            };
            let answer = match files
                .answer
                .map(|path| read(path, "answer file"))
                .transpose()
            {
                Ok(answer) => answer,
                Err(j) => return j,
            };
            // A puzzle's output is a list of moves, parsed whole: held in
            // memory (at most the output limit).
            let output = output.to_vec();
            let report = puzzle.check(&CheckRequest {
                input: &input,
                output: &output,
                answer: answer.as_deref(),
                lexmin: plan.lexmin,
                strict: plan.strict,
            });
            Judgement {
                verdict: report.verdict,
                message: report.message,
                diff: None,
                figures: report.figures,
                transcript: None,
                partial: None,
            }
        }
        text_mode => {
            let Some(answer_path) = files.answer else {
                return Judgement::new(
                    Verdict::InternalError,
                    format!(
                        "no answer file for {} (expected a .ans or .out beside it)",
                        files.input.display()
                    ),
                );
            };
            let (mode, fold) = match text_mode {
                Comparison::Exact => (TextMode::Exact, false),
                Comparison::Lines => (TextMode::Lines, false),
                Comparison::Tokens {
                    float,
                    case_insensitive,
                } => (TextMode::Tokens(*float), *case_insensitive),
                Comparison::Puzzle | Comparison::Checker(_) | Comparison::Interactive(_) => {
                    (unreachable_mode(), false)
                }
            };
            // Streamed from the file: an answer is never held whole.
            let file = match open_package_file(answer_path, "answer file") {
                Ok(file) => file,
                Err(j) => return j,
            };
            let answer = match Text::file(&file) {
                Ok(text) => text,
                Err(e) => {
                    return Judgement::new(
                        Verdict::InternalError,
                        format!("cannot read the answer file {}: {e}", answer_path.display()),
                    );
                }
            };
            let finding = text::compare_folding(answer, output, mode, plan.strict, fold);
            let diff = (!finding.verdict.is_accepted()
                && finding.verdict != Verdict::InternalError)
                .then(|| diff::first_hunk_of(answer, output))
                .flatten();
            Judgement {
                verdict: finding.verdict,
                message: finding.message,
                diff,
                figures: Vec::new(),
                transcript: None,
                partial: None,
            }
        }
    }
}

/// The most of a package's answer or input file the judge reads to check
/// an output (1 GiB): a package file past it is IE, named.
pub const PACKAGE_FILE_CAP: u64 = 1 << 30;

/// A package's answer or input file: a regular file (its links were
/// checked when the package was read, so they are followed), opened
/// without blocking, at most [`PACKAGE_FILE_CAP`]; else IE naming the
/// file and the cap.
fn read_package_file(path: &Path, what: &str) -> Result<Vec<u8>, Judgement> {
    use crate::exec::bounded_read::{Links, read_regular};
    let ie = |why: String| {
        Judgement::new(
            Verdict::InternalError,
            format!("cannot read the {what} {}: {why}", path.display()),
        )
    };
    match read_regular(path, PACKAGE_FILE_CAP, Links::Follow) {
        Ok(read) if read.cut => Err(ie(format!(
            "it is larger than {}, the most the judge reads of a package file",
            Size(PACKAGE_FILE_CAP)
        ))),
        Ok(read) => Ok(read.bytes),
        Err(crate::exec::bounded_read::BoundedReadError::Io(e)) => Err(ie(e.to_string())),
        Err(crate::exec::bounded_read::BoundedReadError::Missing) => Err(ie(
            std::io::Error::from_raw_os_error(libc::ENOENT).to_string(),
        )),
        Err(e) => Err(ie(e.to_string())),
    }
}

/// A package's answer or input file opened to be streamed: as
/// [`read_package_file`] checks it, without reading it.
fn open_package_file(path: &Path, what: &str) -> Result<std::fs::File, Judgement> {
    use crate::exec::bounded_read::{BoundedReadError, Links, open_regular};
    let ie = |why: String| {
        Judgement::new(
            Verdict::InternalError,
            format!("cannot read the {what} {}: {why}", path.display()),
        )
    };
    match open_regular(path, Links::Follow) {
        Ok((_, meta)) if meta.len() > PACKAGE_FILE_CAP => Err(ie(format!(
            "it is larger than {}, the most the judge reads of a package file",
            Size(PACKAGE_FILE_CAP)
        ))),
        Ok((file, _)) => Ok(file),
        Err(BoundedReadError::Io(e)) => Err(ie(e.to_string())),
        Err(BoundedReadError::Missing) => Err(ie(
            std::io::Error::from_raw_os_error(libc::ENOENT).to_string()
        )),
        Err(e) => Err(ie(e.to_string())),
    }
}

fn unreachable_mode() -> TextMode {
    // Comparison::Puzzle and Comparison::Checker are handled above; keep a harmless value for the
    // type checker rather than a panic.
    TextMode::Exact
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::MemorySource;
    use std::time::Duration;

    fn outcome(exit: Exit) -> RunOutcome {
        RunOutcome {
            exit,
            cpu: Duration::from_millis(10),
            cpu_source: crate::exec::CpuSource::ProcessGroup,
            wall: Duration::from_millis(12),
            peak_rss_kib: Some(1000),
            memory_source: MemorySource::Rusage,
            stdout: Default::default(),
            stderr_tail: Vec::new(),
            limit_hit: None,
            memory_evidence: None,
            process_cap_hit: false,
            stopped: false,
        }
    }

    #[test]
    fn run_classification_order_and_messages() {
        let limits = Limits::default();
        assert!(classify_run(&outcome(Exit::Code(0)), &limits).is_none());
        let j = classify_run(&outcome(Exit::Code(3)), &limits).unwrap();
        assert_eq!(
            (j.verdict, j.message.as_str()),
            (Verdict::RuntimeError, "exit code 3")
        );
        let j = classify_run(&outcome(Exit::Signal(11)), &limits).unwrap();
        assert_eq!(j.message, "killed by SIGSEGV (signal 11)");
        let mut o = outcome(Exit::Signal(9));
        o.limit_hit = Some(LimitHit::Wall);
        let j = classify_run(&o, &limits).unwrap();
        assert_eq!(j.verdict, Verdict::TimeLimit);
        assert!(
            j.message.starts_with("wall-clock limit 3.000s reached"),
            "{}",
            j.message
        );
        let mut o = outcome(Exit::Code(0));
        o.cpu = Duration::from_millis(1500);
        assert_eq!(
            classify_run(&o, &limits).unwrap().verdict,
            Verdict::TimeLimit
        );
        o.limit_hit = Some(LimitHit::Output);
        assert_eq!(
            classify_run(&o, &limits).unwrap().verdict,
            Verdict::OutputLimit,
            "OLE first"
        );
        let mut o = outcome(Exit::Signal(6));
        o.memory_evidence = Some("an allocation failed".into());
        let j = classify_run(&o, &limits).unwrap();
        assert_eq!(j.verdict, Verdict::MemoryLimit);
        assert_eq!(
            j.message,
            "memory limit 256MiB: an allocation failed; SIGABRT (signal 6)"
        );
    }

    #[test]
    fn a_process_bomb_that_fills_memory_is_judged_by_the_process_cap() {
        let limits = Limits::default();
        let mut o = outcome(Exit::Signal(libc::SIGKILL));
        o.limit_hit = Some(LimitHit::Memory);
        o.memory_evidence = Some("the cgroup memory limit was hit (56 times)".into());
        o.process_cap_hit = true;
        let j = classify_run(&o, &limits).unwrap();
        assert_eq!(j.verdict, Verdict::RuntimeError);
        assert_eq!(
            j.message,
            "killed by SIGKILL (signal 9) (the process limit of 64 was reached); the memory limit 256MiB was hit too, as the kernel charges a process bomb's forks to its memory: the cgroup memory limit was hit (56 times)"
        );
        o.exit = Exit::Code(1);
        let j = classify_run(&o, &limits).unwrap();
        assert_eq!(j.verdict, Verdict::RuntimeError);
        assert!(
            j.message.starts_with("exit code 1 (the process limit of 64 was reached); the memory limit 256MiB was hit too"),
            "{}",
            j.message
        );
        o.process_cap_hit = false;
        assert_eq!(
            classify_run(&o, &limits).unwrap().verdict,
            Verdict::MemoryLimit,
            "without the cap, memory decides"
        );
    }

    #[test]
    fn stack_overflow_is_named() {
        let limits = Limits::default();
        let mut o = outcome(Exit::Signal(libc::SIGSEGV));
        o.peak_rss_kib = Some(250 * 1024);
        let j = classify_run(&o, &limits).unwrap();
        assert!(j.message.contains("a stack overflow"), "{}", j.message);
    }
}
