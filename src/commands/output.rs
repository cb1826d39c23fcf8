//! Where a command's report goes: the human report on stdout, a machine
//! format (JSON, NDJSON, JUnit, HTML) on stdout, or a machine format in
//! `--report FILE` (written atomically at the end) beside the human report.
//! Every command that reports chooses through [`ReportChoice::new`], so the
//! rules and their messages are the same everywhere.

use super::Failure;
use crate::judge::Reporter;
use crate::report::human::{HumanReporter, Verbosity};
use crate::report::{FileSink, Format, Tee, machine_reporter};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// What `--report` and `--format` asked for.
#[derive(Clone, Debug)]
pub struct ReportChoice {
    /// A machine report written into this file, in this format.
    pub file: Option<(PathBuf, Format)>,
    /// A machine format on stdout instead of the human report.
    pub stdout: Option<Format>,
}

impl ReportChoice {
    /// `--report FILE` takes its format from `--format` or the file's
    /// extension; `--format F` alone puts F on stdout. A report file into a
    /// missing directory is refused before any work.
    pub fn new(report: Option<&Path>, format: Option<Format>) -> Result<ReportChoice, Failure> {
        let Some(path) = report else {
            return Ok(ReportChoice {
                file: None,
                stdout: format.filter(|f| *f != Format::Human),
            });
        };
        crate::report::check_target(path).map_err(Failure::usage)?;
        let format = match format {
            Some(f) if f != Format::Human => f,
            _ => Format::from_extension(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "--report {}: say --format json, ndjson, junit or html (the extension does not tell)",
                    path.display()
                ))
            })?,
        };
        Ok(ReportChoice {
            file: Some((path.to_path_buf(), format)),
            stdout: None,
        })
    }

    /// The machine format to render, to the file or to stdout.
    pub fn machine(&self) -> Option<Format> {
        self.file.as_ref().map(|(_, f)| *f).or(self.stdout)
    }
}

/// `-q`, `-v` or neither.
pub fn verbosity(quiet: bool, verbose: bool) -> Verbosity {
    if quiet {
        Verbosity::Quiet
    } else if verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    }
}

/// The human report on stdout: in colour on a terminal (unless `NO_COLOR`),
/// with a progress bar on a terminal's stderr outside CI.
pub fn human_reporter(verbosity: Verbosity) -> Box<dyn Reporter> {
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let progress = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    Box::new(HumanReporter::new(
        Box::new(super::stdout::Stdout),
        verbosity,
        color,
        progress,
    ))
}

/// The live reporter of a run, and the temporary file a `--report` file is
/// renamed from when the run ends (it is written as cases settle).
pub fn reporter_for(
    choice: &ReportChoice,
    verbosity: Verbosity,
) -> Result<(Box<dyn Reporter>, FileSink), Failure> {
    let file_sink = match &choice.file {
        Some((path, _)) => FileSink::beside(path).map_err(|e| {
            Failure::Usage(format!(
                "--report {}: cannot write beside it: {e}",
                path.display()
            ))
        })?,
        None => FileSink::memory(),
    };
    let reporter = match (&choice.file, choice.stdout) {
        (Some((_, format)), _) => {
            let mut all = vec![human_reporter(verbosity)];
            all.extend(machine_reporter(*format, Box::new(file_sink.clone())));
            Box::new(Tee(all))
        }
        (None, Some(format)) => machine_reporter(format, Box::new(super::stdout::Stdout))
            .unwrap_or_else(|| human_reporter(verbosity)),
        (None, None) => human_reporter(verbosity),
    };
    Ok((reporter, file_sink))
}
