//! The report for people. On a terminal: a live progress bar (on stderr)
//! with counts per verdict and the slowest running case; failures as they
//! happen; at the end the failures first, with the few lines that matter
//! (message, diff, stderr tail, board pictures), then a summary table.
//! Not on a terminal: plain lines, no bar, no colours. Colours never with
//! `NO_COLOR`. `-q` prints one line, `-v` every case.

use crate::judge::{CaseResult, Event, Report, Reporter, RunInfo};
use crate::verdict::Verdict;
use console::Style;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::time::{Duration, Instant};

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
/// How many lines of a diff or of stderr a failure shows.
const DIFF_LINES: usize = 14;
const STDERR_LINES: usize = 5;

pub struct HumanReporter {
    out: Box<dyn Write>,
    verbosity: Verbosity,
    color: bool,
    bar: Option<ProgressBar>,
    counts: BTreeMap<Verdict, usize>,
    running: HashMap<usize, (String, Instant)>,
    failures: Vec<CaseResult>,
    failure_count: usize,
    /// Programs whose compile error was shown: a compile error makes every
    /// case CE, and one showing is enough.
    compile_errors_shown: std::collections::HashSet<Option<String>>,
}

impl HumanReporter {
    /// `color`: use colours (the caller checks the terminal and `NO_COLOR`);
    /// `progress`: draw a live bar on stderr.
    pub fn new(out: Box<dyn Write>, verbosity: Verbosity, color: bool, progress: bool) -> Self {
        let bar = (progress && verbosity != Verbosity::Quiet).then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{bar:28}] {pos}/{len} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        HumanReporter {
            out,
            verbosity,
            color,
            bar,
            counts: BTreeMap::new(),
            running: HashMap::new(),
            failures: Vec::new(),
            failure_count: 0,
            compile_errors_shown: Default::default(),
        }
    }

    fn style(&self, verdict: Verdict) -> Style {
        let style = match verdict {
            Verdict::Accepted => Style::new().green(),
            Verdict::Skipped => Style::new().dim(),
            Verdict::PresentationError => Style::new().yellow(),
            Verdict::InternalError | Verdict::CompileError => Style::new().magenta().bold(),
            _ => Style::new().red().bold(),
        };
        style.force_styling(self.color)
    }

    fn dim(&self) -> Style {
        Style::new().dim().force_styling(self.color)
    }

    fn code(&self, verdict: Verdict) -> String {
        self.style(verdict)
            .apply_to(format!("{:<4}", verdict.code()))
            .to_string()
    }

    /// Print a line above the bar (or plainly).
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        match &self.bar {
            Some(bar) => {
                bar.suspend(|| writeln!(self.out, "{text}"))?;
                Ok(())
            }
            None => writeln!(self.out, "{text}"),
        }
    }

    fn counts_text(&self, counts: &BTreeMap<Verdict, usize>) -> String {
        counts
            .iter()
            .map(|(v, n)| format!("{} {n}", self.style(*v).apply_to(v.code())))
            .collect::<Vec<_>>()
            .join("  ")
    }

    fn update_bar(&self) {
        let Some(bar) = &self.bar else { return };
        let mut message = self.counts_text(&self.counts);
        if let Some((name, since)) = self.running.values().min_by_key(|(_, t)| *t) {
            let elapsed = since.elapsed();
            if elapsed > Duration::from_millis(300) {
                message.push_str(&format!(
                    "  · running {name} ({:.1}s)",
                    elapsed.as_secs_f64()
                ));
            }
        }
        bar.set_message(message);
    }

    fn case_line(&self, r: &CaseResult) -> String {
        let program = r
            .program
            .as_ref()
            .map(|p| format!("[{p}] "))
            .unwrap_or_default();
        let mut memory = String::new();
        if let Some(kib) = r.peak_rss_kib {
            memory = format!(" {}", crate::config::Size(kib * 1024));
        }
        format!(
            "{} {program}{}/{} {}",
            self.code(r.verdict),
            r.problem,
            r.case,
            self.dim()
                .apply_to(format!("{:.3}s{memory}", r.cpu_ms / 1000.0))
        )
    }

    fn started(&mut self, info: &RunInfo) -> std::io::Result<()> {
        if let Some(bar) = &self.bar {
            bar.set_length(info.total as u64);
        }
        if self.verbosity == Verbosity::Quiet {
            return Ok(());
        }
        for warning in &info.warnings {
            self.line(&format!("warning: {warning}"))?;
        }
        let programs = info.programs.join(", ");
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
                info.protections.off.join("; ")
            ))?;
        }
        Ok(())
    }

    fn finished_case(&mut self, r: &CaseResult) -> std::io::Result<()> {
        *self.counts.entry(r.verdict).or_insert(0) += 1;
        self.running.remove(&r.index);
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        let failed = !r.verdict.is_accepted() && r.verdict != Verdict::Skipped;
        if r.verdict == Verdict::CompileError
            && !self.compile_errors_shown.insert(r.program.clone())
        {
            // The same compile error again: counted, not shown.
            self.failure_count += 1;
            self.update_bar();
            return Ok(());
        }
        if failed {
            self.failure_count += 1;
            if self.failures.len() < FAILURES_SHOWN {
                self.failures.push(r.clone());
            }
        }
        match self.verbosity {
            Verbosity::Verbose => {
                let mut line = self.case_line(r);
                if !r.verdict.is_accepted() {
                    line.push_str(&format!("  {}", r.message));
                }
                self.line(&line)?;
            }
            Verbosity::Normal if failed => {
                let line = format!("{}  {}", self.case_line(r), r.message);
                self.line(&line)?;
            }
            _ => {}
        }
        self.update_bar();
        Ok(())
    }

    fn finished(&mut self, report: &Report) -> std::io::Result<()> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let elapsed = report.elapsed_ms / 1000.0;
        let total = report.cases.len();
        let accepted = report.summary.get(&Verdict::Accepted).copied().unwrap_or(0);
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
                format!(" ({})", self.counts_text(&others))
            };
            return writeln!(
                self.out,
                "{}: {accepted}/{total} accepted{detail} in {elapsed:.2}s",
                self.style(report.verdict).apply_to(report.verdict.code())
            );
        }
        if !self.failures.is_empty() {
            writeln!(self.out)?;
            writeln!(self.out, "Failures:")?;
            let failures = std::mem::take(&mut self.failures);
            for r in &failures {
                self.write_failure(r)?;
            }
            if self.failure_count > failures.len() {
                writeln!(
                    self.out,
                    "  … and {} more (see --format json)",
                    self.failure_count - failures.len()
                )?;
            }
        }
        writeln!(self.out)?;
        writeln!(self.out, "Summary:")?;
        writeln!(self.out, "  {}", self.counts_text(&report.summary))?;
        let ran: Vec<&CaseResult> = report
            .cases
            .iter()
            .filter(|c| c.verdict != Verdict::Skipped)
            .collect();
        if let Some(max_cpu) = ran.iter().max_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms)) {
            let mut slowest = ran.clone();
            slowest.sort_by(|a, b| b.cpu_ms.total_cmp(&a.cpu_ms));
            let list: Vec<String> = slowest
                .iter()
                .take(3)
                .map(|c| {
                    format!(
                        "{}/{} {:.3}s ({:.0}% of limit)",
                        c.problem,
                        c.case,
                        c.cpu_ms / 1000.0,
                        c.tl_ratio * 100.0
                    )
                })
                .collect();
            writeln!(self.out, "  slowest: {}", list.join(", "))?;
            let _ = max_cpu;
            if let Some(m) = ran
                .iter()
                .filter(|c| c.peak_rss_kib.is_some())
                .max_by_key(|c| c.peak_rss_kib)
            {
                writeln!(
                    self.out,
                    "  max memory: {} ({}/{}, {})",
                    crate::config::Size(m.peak_rss_kib.unwrap_or(0) * 1024),
                    m.problem,
                    m.case,
                    serde_json::to_value(m.memory_source)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default()
                )?;
            }
        }
        if report.interrupted {
            writeln!(self.out, "  interrupted: cases not run are marked SKIP")?;
        }
        let first_failure = report
            .cases
            .iter()
            .find(|c| !c.verdict.is_accepted())
            .map(|c| format!(" (first: {}/{})", c.problem, c.case))
            .unwrap_or_default();
        writeln!(
            self.out,
            "{}: {accepted}/{total} accepted in {elapsed:.2}s{first_failure}",
            self.style(report.verdict).apply_to(report.verdict.code())
        )
    }

    fn write_failure(&mut self, r: &CaseResult) -> std::io::Result<()> {
        let head = self.case_line(r);
        writeln!(self.out, "  {head}")?;
        writeln!(self.out, "      {}", r.message)?;
        if let Some(exit) = &r.exit
            && !r.message.contains(exit.as_str())
            && !exit.ends_with("code 0")
        {
            writeln!(self.out, "      {}", self.dim().apply_to(exit))?;
        }
        if let Some(diff) = &r.diff {
            for line in diff.lines().take(DIFF_LINES) {
                let styled = match line.chars().next() {
                    Some('-') if !line.starts_with("---") => Style::new()
                        .red()
                        .force_styling(self.color)
                        .apply_to(line)
                        .to_string(),
                    Some('+') if !line.starts_with("+++") => Style::new()
                        .green()
                        .force_styling(self.color)
                        .apply_to(line)
                        .to_string(),
                    _ => line.to_string(),
                };
                writeln!(self.out, "      {styled}")?;
            }
        }
        for figure in &r.figures {
            for line in figure.to_text().lines() {
                writeln!(self.out, "      {line}")?;
            }
        }
        if r.verdict == Verdict::CompileError {
            if let Some(output) = &r.stderr {
                writeln!(
                    self.out,
                    "      {}",
                    self.dim().apply_to("compiler output (end):")
                )?;
                for line in output.lines() {
                    writeln!(self.out, "      | {line}")?;
                }
            }
            writeln!(
                self.out,
                "      {}",
                self.dim().apply_to(
                    "(a compile error makes every case of the submission CE; nothing ran)"
                )
            )?;
            return Ok(());
        }
        if let Some(stderr) = &r.stderr {
            let lines: Vec<&str> = stderr.lines().collect();
            let start = lines.len().saturating_sub(STDERR_LINES);
            writeln!(self.out, "      {}", self.dim().apply_to("stderr (end):"))?;
            for line in &lines[start..] {
                writeln!(
                    self.out,
                    "      | {}",
                    crate::check::whitespace::visible_cut(line.as_bytes(), 120)
                )?;
            }
        }
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
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
                self.running
                    .insert(*index, (format!("{problem}/{case}"), Instant::now()));
                self.update_bar();
                Ok(())
            }
            Event::CaseFinished { result, .. } => self.finished_case(result),
            Event::Finished(report) => self.finished(report),
        }
    }
}
