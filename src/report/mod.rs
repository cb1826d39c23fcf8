//! Rendering a run: reporters consume the one stream of [`Event`]s that
//! `judge` produces (as cargo-nextest's reporters do). `human` draws a
//! progress bar and the failures for people, `json` and `junit` write the
//! whole report at the end, `ndjson` streams one JSON object per event,
//! `html` writes one self-contained page to open in a browser.
//! One file per format; adding a format is one new file and one match arm.
//!
//! Files are written atomically (a temporary file in the same directory,
//! then a rename), so a reader never sees half a report.

pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod merge;

use crate::judge::{Event, Report, Reporter};
use std::io::Write;
use std::path::Path;

/// Report formats (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Ndjson,
    Junit,
    Html,
}

impl Format {
    /// The format a report file's extension suggests (`.json`, `.ndjson`,
    /// `.xml`, `.html`).
    pub fn from_extension(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "xml" => Some(Format::Junit),
            "html" | "htm" => Some(Format::Html),
            _ => None,
        }
    }
}

/// A reporter for a machine-readable format.
pub fn machine_reporter(format: Format, sink: Box<dyn Write>) -> Option<Box<dyn Reporter>> {
    match format {
        Format::Human => None,
        Format::Json => Some(Box::new(json::JsonReporter::new(sink))),
        Format::Ndjson => Some(Box::new(json::NdjsonReporter::new(sink))),
        Format::Junit => Some(Box::new(junit::JunitReporter::new(sink))),
        Format::Html => Some(Box::new(html::HtmlReporter::new(sink))),
    }
}

/// Several reporters fed the same events.
pub struct Tee(pub Vec<Box<dyn Reporter>>);

impl Reporter for Tee {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        let mut first_error = None;
        for reporter in &mut self.0 {
            if let Err(e) = reporter.event(event) {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// Check, before any work, that a report can be written to `path`: its
/// directory exists and is a directory (a typo is an error at once, not
/// after the whole run).
pub fn check_target(path: &Path) -> Result<(), TargetError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(TargetError::NoDirectory {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
        });
    }
    if path.is_dir() {
        return Err(TargetError::IsDirectory(path.to_path_buf()));
    }
    Ok(())
}

/// Why a report cannot be written where `--report` says.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("--report {}: the directory {} does not exist", .path.display(), .dir.display())]
    NoDirectory {
        path: std::path::PathBuf,
        dir: std::path::PathBuf,
    },
    #[error("--report {}: is a directory", .0.display())]
    IsDirectory(std::path::PathBuf),
}

use crate::exec::atomic::{Mode, publish, temp_beside};
pub use crate::exec::atomic::{write_atomically, write_new_atomically};

/// Where a `--report` file is written while the run goes: straight into
/// a temporary file beside the target (so memory stays flat however large
/// the report), renamed over the target by [`FileSink::commit`] when the
/// run ends. Never committed (an error, a panic), the temporary file is
/// removed and the target is untouched. `FileSink::memory()` collects in
/// memory instead, for tests and for a report rendered whole.
#[derive(Clone)]
pub struct FileSink {
    inner: std::sync::Arc<std::sync::Mutex<Spool>>,
}

enum Spool {
    Memory(Vec<u8>),
    File(std::io::BufWriter<tempfile::NamedTempFile>),
    /// Committed, or failed: nothing more is written.
    Done,
}

impl FileSink {
    /// A sink in memory.
    pub fn memory() -> FileSink {
        FileSink::with(Spool::Memory(Vec::new()))
    }

    /// A sink spooling into a temporary file beside `path`.
    pub fn beside(path: &Path) -> std::io::Result<FileSink> {
        let file = temp_beside(path)?;
        Ok(FileSink::with(Spool::File(
            std::io::BufWriter::with_capacity(1 << 16, file),
        )))
    }

    /// A sink spooling into a temporary file in the temporary directory
    /// (a report for stdout that must not appear in part: `judge merge`).
    pub fn temporary() -> std::io::Result<FileSink> {
        let file = tempfile::NamedTempFile::new()?;
        Ok(FileSink::with(Spool::File(
            std::io::BufWriter::with_capacity(1 << 16, file),
        )))
    }

    /// Copy what was collected into `out` (the temporary file is removed).
    pub fn copy_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match std::mem::replace(&mut *self.lock(), Spool::Done) {
            Spool::Memory(bytes) => out.write_all(&bytes),
            Spool::File(writer) => {
                use std::io::Seek;
                let mut file = writer.into_inner().map_err(|e| e.into_error())?;
                file.rewind()?;
                std::io::copy(&mut file, out).map(drop)
            }
            Spool::Done => Err(std::io::Error::other("the report was already written")),
        }?;
        out.flush()
    }

    fn with(spool: Spool) -> FileSink {
        FileSink {
            inner: std::sync::Arc::new(std::sync::Mutex::new(spool)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Spool> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What was collected, for a sink in memory (empty for a file).
    pub fn bytes(&self) -> Vec<u8> {
        match &*self.lock() {
            Spool::Memory(bytes) => bytes.clone(),
            _ => Vec::new(),
        }
    }

    /// Write what was collected to `path`, atomically.
    pub fn commit(&self, path: &Path) -> std::io::Result<()> {
        match std::mem::replace(&mut *self.lock(), Spool::Done) {
            Spool::Memory(bytes) => write_atomically(path, &bytes),
            Spool::File(writer) => {
                let file = writer.into_inner().map_err(|e| e.into_error())?;
                publish(file, path, Mode::Plain, true)
            }
            Spool::Done => Err(std::io::Error::other("the report was already written")),
        }
    }
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut *self.lock() {
            Spool::Memory(bytes) => {
                bytes.extend_from_slice(buf);
                Ok(buf.len())
            }
            Spool::File(writer) => writer.write(buf),
            Spool::Done => Err(std::io::Error::other("the report was already written")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut *self.lock() {
            Spool::File(writer) => writer.flush(),
            _ => Ok(()),
        }
    }
}

/// Render a finished report in a file format (for `judge merge`).
pub fn render(format: Format, report: &Report) -> std::io::Result<Vec<u8>> {
    match format {
        Format::Json | Format::Human => json::to_bytes(report),
        Format::Ndjson => json::ndjson_of_report(report),
        Format::Junit => junit::to_bytes(report),
        Format::Html => Ok(html::render(report)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_spooled_beside_its_target_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, "old\n").unwrap();
        let names = || -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        // Dropped uncommitted (a failed run): the target stands, no temporary.
        let mut sink = FileSink::beside(&path).unwrap();
        sink.write_all(b"half a report").unwrap();
        assert_eq!(names().len(), 2, "the spool is beside the target");
        drop(sink);
        assert_eq!(names(), ["r.json"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        // Committed: renamed over the target, and nothing more is written.
        let mut sink = FileSink::beside(&path).unwrap();
        sink.write_all(b"new\n").unwrap();
        sink.commit(&path).unwrap();
        assert_eq!(names(), ["r.json"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        assert!(sink.write_all(b"more").is_err());
    }
}
