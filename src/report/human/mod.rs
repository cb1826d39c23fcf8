//! The report for people, shaped after cargo-nextest and pytest. On a
//! terminal: a live progress bar (on stderr) with counts per verdict and
//! the case running longest, its clock ticking; each failure as one line
//! above the bar as it happens. At the end: the failures first, each with
//! the few lines that matter (message, diff, the puzzle's boards side by
//! side, stderr's end), then an aligned summary table (counts per verdict,
//! maximum CPU time and memory per problem), the slowest cases and one
//! closing line. Not on a terminal: the same lines, no bar.
//!
//! Colours only when the caller says so (a terminal, and no `NO_COLOR`:
//! see `commands::run`). `-q` prints the closing line alone, `-v` a line
//! for every case. It renders; it decides nothing.

mod progress;
mod scores;
pub use scores::fraction;
mod summary;

use crate::config::Size;
use crate::judge::digest::is_failure;
use crate::judge::{CaseResult, Event, Report, Reporter, RunInfo};
use crate::text::format::plural;
use crate::text::whitespace::{shown_name, terminal_safe};
use crate::verdict::Verdict;
use console::Style;
use progress::Progress;
use std::collections::BTreeMap;
use std::io::Write;

/// How much to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// One line at the end.
    Quiet,
    /// Failures and a summary.
    Normal,
    /// Every case.
    Verbose,
}

/// How many failures are shown in full at the end; the rest are counted.
const FAILURES_SHOWN: usize = 20;

/// Styles that are plain text when there is no colour.
pub(crate) struct Paint {
    color: bool,
}

impl Paint {
    fn apply(&self, style: Style, text: &str) -> String {
        style.force_styling(self.color).apply_to(text).to_string()
    }

    fn verdict_style(verdict: Verdict) -> Style {
        match verdict {
            Verdict::Accepted => Style::new().green(),
            Verdict::Skipped => Style::new().dim(),
            Verdict::PresentationError => Style::new().yellow(),
            Verdict::TimeLimit | Verdict::MemoryLimit | Verdict::OutputLimit => {
                Style::new().yellow().bold()
            }
            Verdict::InternalError | Verdict::CompileError => Style::new().magenta().bold(),
            Verdict::WrongAnswer | Verdict::RuntimeError => Style::new().red().bold(),
        }
    }

    fn verdict(&self, verdict: Verdict, text: &str) -> String {
        self.apply(Paint::verdict_style(verdict), text)
    }

    /// The verdict's code, padded to one width.
    fn code(&self, verdict: Verdict) -> String {
        self.verdict(verdict, &format!("{:<4}", verdict.code()))
    }

    fn dim(&self, text: &str) -> String {
        self.apply(Style::new().dim(), text)
    }

    fn bold(&self, text: &str) -> String {
        self.apply(Style::new().bold(), text)
    }

    fn red(&self, text: &str) -> String {
        self.apply(Style::new().red(), text)
    }

    fn green(&self, text: &str) -> String {
        self.apply(Style::new().green(), text)
    }

    fn highlight(&self, text: &str) -> String {
        self.apply(Style::new().yellow().bold(), text)
    }

    /// `AC 15  WA 4  TLE 1`.
    fn counts(&self, counts: &BTreeMap<Verdict, usize>) -> String {
        counts
            .iter()
            .map(|(v, n)| format!("{} {n}", self.verdict(*v, v.code())))
            .collect::<Vec<_>>()
            .join("  ")
    }
}

/// `[program] problem/case`, each name escaped ([`shown_name`]): a case
/// file named `\x1b]0;…\x07` or holding a right-to-left override must not
/// reach the terminal as it is.
fn case_name(r: &CaseResult) -> String {
    let (problem, case) = (shown_name(&r.problem), shown_name(&r.case));
    match &r.program {
        Some(p) => format!("[{}] {problem}/{case}", shown_name(p)),
        None => format!("{problem}/{case}"),
    }
}

pub struct HumanReporter {
    out: Box<dyn Write>,
    verbosity: Verbosity,
    paint: Paint,
    progress: Option<Progress>,
    counts: BTreeMap<Verdict, usize>,
    /// Programs whose compile error was shown: a compile error makes every
    /// case CE, and one showing is enough.
    compile_errors_shown: std::collections::HashSet<Option<String>>,
    /// Scoring problems: their cases' lines wait until the case settles,
    /// graded (a case the rules leave unjudged is SKIP there, whatever it
    /// did when it ran), so the lines agree with the summary.
    scored: std::collections::HashSet<String>,
}

impl HumanReporter {
    /// `color`: use colours (the caller checks the terminal and `NO_COLOR`);
    /// `progress`: draw a live bar on stderr.
    pub fn new(out: Box<dyn Write>, verbosity: Verbosity, color: bool, progress: bool) -> Self {
        HumanReporter {
            out,
            verbosity,
            paint: Paint { color },
            progress: (progress && verbosity != Verbosity::Quiet).then(Progress::new),
            counts: BTreeMap::new(),
            compile_errors_shown: Default::default(),
            scored: Default::default(),
        }
    }

    /// Print a line above the bar (or plainly).
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        match &self.progress {
            Some(progress) => progress.suspend(|| writeln!(self.out, "{text}")),
            None => writeln!(self.out, "{text}"),
        }
    }

    /// A case as one line, as it finishes:
    /// `WA   [ 0.002s  1.5MiB] sum/3.in  expected "7", found "8"`.
    fn case_line(&self, r: &CaseResult) -> String {
        let memory = r
            .peak_rss_kib
            .map(|kib| Size(kib * 1024).to_string())
            .unwrap_or_default();
        // A run taken from the cache shows what it measured when it ran.
        let cached = if r.cached { " cached" } else { "" };
        let measures = format!("[{:>7} {memory:>7}{cached}]", summary::seconds(r.cpu_ms));
        let mut line = format!(
            "{} {} {}",
            self.paint.code(r.verdict),
            self.paint.dim(&measures),
            case_name(r)
        );
        if !r.verdict.is_accepted() {
            line.push_str("  ");
            line.push_str(&terminal_safe(&r.message));
        }
        line
    }

    fn started(&mut self, info: &RunInfo) -> std::io::Result<()> {
        if let Some(progress) = &self.progress {
            progress.set_total(info.total);
        }
        self.scored = info
            .problems
            .iter()
            .filter(|p| p.scoring.is_some())
            .map(|p| p.name.clone())
            .collect();
        // Warnings survive `-q` (`judge --help`: errors, warnings and the
        // final line): a typo'd key must not go unsaid.
        for warning in &info.warnings {
            self.line(&format!("warning: {}", terminal_safe(warning)))?;
        }
        if self.verbosity == Verbosity::Quiet {
            return Ok(());
        }
        let programs = info
            .programs
            .iter()
            .map(|p| shown_name(p))
            .collect::<Vec<_>>()
            .join(", ");
        let problems = info.problems.len();
        let partition = info
            .partition
            .as_ref()
            .map(|p| format!(", shard {p}"))
            .unwrap_or_default();
        self.line(&format!(
            "judging {} case{} of {problems} problem{} with {programs} ({} worker{}{partition})",
            info.total,
            plural(info.total),
            plural(problems),
            info.jobs,
            plural(info.jobs)
        ))?;
        if !info.protections.off.is_empty() {
            self.line(&format!(
                "protections off: {}",
                terminal_safe(&info.protections.off.join("; "))
            ))?;
        }
        Ok(())
    }

    fn finished_case(&mut self, r: &CaseResult) -> std::io::Result<()> {
        *self.counts.entry(r.verdict).or_insert(0) += 1;
        if let Some(progress) = &self.progress {
            progress.case_finished(r.index, self.paint.counts(&self.counts));
        }
        if self.scored.contains(&r.problem) {
            return Ok(());
        }
        self.case_shown(r)
    }

    /// A case's line, if the verbosity shows it.
    fn case_shown(&mut self, r: &CaseResult) -> std::io::Result<()> {
        let repeated_compile_error = r.verdict == Verdict::CompileError
            && !self.compile_errors_shown.insert(r.program.clone());
        let shown = match self.verbosity {
            Verbosity::Verbose => true,
            Verbosity::Normal => is_failure(r) && !repeated_compile_error,
            Verbosity::Quiet => false,
        };
        if shown {
            let line = self.case_line(r);
            self.line(&line)?;
        }
        Ok(())
    }

    fn finished(&mut self, report: &Report) -> std::io::Result<()> {
        if let Some(progress) = self.progress.take() {
            progress.finish();
        }
        let elapsed = report.elapsed_ms / 1000.0;
        let total = report.total();
        let accepted = report.summary.get(&Verdict::Accepted).copied().unwrap_or(0);
        let paint = &self.paint;
        if self.verbosity == Verbosity::Quiet {
            let others: BTreeMap<Verdict, usize> = report
                .summary
                .iter()
                .filter(|(v, _)| !v.is_accepted())
                .map(|(v, n)| (*v, *n))
                .collect();
            let detail = if others.is_empty() {
                String::new()
            } else {
                format!(" ({})", paint.counts(&others))
            };
            writeln!(
                self.out,
                "{}: {accepted}/{total} accepted{detail}{} in {elapsed:.2}s{}",
                paint.verdict(report.verdict, report.verdict.code()),
                scores::short(report),
                summary::cache_short(report)
            )?;
            for line in summary::disagreements(report) {
                writeln!(self.out, "{line}")?;
            }
            return Ok(());
        }
        let mut lines = Vec::new();
        // In case order, whatever order they finished in; a program's
        // compile error once, not once per case (the digest keeps them so).
        let digest = &report.digest;
        if digest.failure_count > 0 {
            lines.push(String::new());
            // A compile error is shown once per program but counted per
            // case, as the summary counts it.
            let collapsed = if digest.failed_cases > digest.failure_count {
                ", a compile error shown once"
            } else {
                ""
            };
            lines.push(paint.bold(&format!(
                "Failures ({} of {total} case{}{collapsed}):",
                digest.failed_cases,
                plural(total)
            )));
            for (_, r) in digest.failures.iter().take(FAILURES_SHOWN) {
                lines.extend(summary::failure(r, paint));
            }
            if digest.failure_count > FAILURES_SHOWN {
                lines.push(format!(
                    "  … and {} more (see --report FILE.html or --format json)",
                    digest.failure_count - FAILURES_SHOWN
                ));
            }
        }
        lines.push(String::new());
        lines.push(paint.bold("Summary:"));
        lines.extend(summary::table(report, paint));
        lines.extend(summary::slowest(report));
        lines.extend(scores::table(report, paint));
        if report.interrupted {
            lines.push("  interrupted: cases not run are marked SKIP".to_string());
        }
        lines.extend(summary::cache_line(report));
        lines.extend(summary::disagreements(report));
        let first_failure = digest
            .first_not_accepted
            .as_ref()
            .map(|(_, c)| format!(" (first: {})", case_name(c)))
            .unwrap_or_default();
        lines.push(format!(
            "{}: {accepted}/{total} accepted{} in {elapsed:.2}s{first_failure}",
            paint.verdict(report.verdict, report.verdict.code()),
            scores::short(report)
        ));
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }
}

impl Reporter for HumanReporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        match event {
            Event::Started(info) => self.started(info),
            Event::CaseStarted {
                index,
                problem,
                case,
            } => {
                if let Some(progress) = &self.progress {
                    progress.case_started(
                        *index,
                        format!("{}/{}", shown_name(problem), shown_name(case)),
                    );
                }
                Ok(())
            }
            Event::CaseFinished { result, .. } => self.finished_case(result),
            Event::CaseSettled(result) if self.scored.contains(&result.problem) => {
                self.case_shown(result)
            }
            Event::CaseSettled(_) => Ok(()),
            Event::Finished(report) => self.finished(report),
        }
    }
}
