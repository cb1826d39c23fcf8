//! Standard output for every command. A reader that stops reading (`judge
//! list | head -1`, `judge run | less` quit early) is not an error: output
//! stops, the work goes on to its end (a `--report` file is still
//! written, scratch files are still removed), and the exit code is the
//! command's own. Any other write error is reported once on stderr.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout fails: nothing more is written to it.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Set by `-q`: notes (what was built, written, removed) are not said.
static QUIET: AtomicBool = AtomicBool::new(false);

/// `-q` for every command (see [`note`]).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `-q` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Whether stdout has been closed by its reader (or failed).
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// `std::io::stdout()` that swallows a closed pipe (see the module).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stdout;

impl Stdout {
    fn failed(e: std::io::Error) -> std::io::Result<()> {
        if !CLOSED.swap(true, Ordering::Relaxed) && e.kind() != ErrorKind::BrokenPipe {
            eprintln!("judge: cannot write to stdout: {e}; the rest of the output is dropped");
        }
        Ok(())
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if closed() {
            return Ok(buf.len());
        }
        match std::io::stdout().lock().write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => Self::failed(e).map(|()| buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if closed() {
            return Ok(());
        }
        std::io::stdout().lock().flush().or_else(Self::failed)
    }
}

/// `println!` through [`Stdout`], control characters but the newline and
/// the tab escaped ([`terminal_safe`](crate::text::whitespace::terminal_safe)):
/// what commands print may name files.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(
            $crate::commands::stdout::Stdout,
            "{}",
            $crate::text::whitespace::terminal_safe(&text)
        );
    }};
}

/// `print!` through [`Stdout`], escaped as [`outln`] escapes.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = write!(
            $crate::commands::stdout::Stdout,
            "{}",
            $crate::text::whitespace::terminal_safe(&text)
        );
    }};
}

/// `eprintln!`, escaped as [`outln`] escapes: every message on stderr
/// (errors, warnings, what was compiled) may name a file or a case.
macro_rules! say {
    ($($arg:tt)*) => {{
        let text = format!($($arg)*);
        eprintln!("{}", $crate::text::whitespace::terminal_safe(&text));
    }};
}

/// [`say`] for a note: a line that says what was done (built, written,
/// removed), left out under `-q`. Warnings and errors are never notes.
macro_rules! note {
    ($($arg:tt)*) => {{
        if !$crate::commands::stdout::quiet() {
            $crate::commands::stdout::say!($($arg)*);
        }
    }};
}

pub(crate) use {note, out, outln, say};
