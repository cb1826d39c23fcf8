//! A Polygon package's tests made (`formats::polygon::make`) and said on
//! the terminal: `judge gen` writes them into the package, `judge verify`
//! and `judge run` build what the package does not hold into the judge's
//! cache. The package's programs build with the judge's own languages
//! (no judge.toml: a Polygon package names its languages itself).

use super::{Failure, Outcome};
use crate::formats::polygon::make::{self, Event};
use crate::verdict::ExitCode;
use std::io::IsTerminal;
use std::path::Path;

/// `judge gen POLYGON_PACKAGE`.
pub fn generate_polygon(root: &Path) -> Outcome {
    let toolchain = crate::config::toolchain(None);
    let made = make::generate_polygon(root, &toolchain, &mut terminal)?;
    for line in made.differ.iter().chain(&made.failed) {
        crate::commands::stdout::note!("{line}");
    }
    crate::commands::stdout::outln!("{}", made.summary(root));
    Ok(if made.ok() {
        ExitCode::Ok
    } else {
        ExitCode::Failed
    })
}

/// Build the tests the Polygon package at `root` declares and does not
/// hold; the line that says what was done (`None`: nothing to build).
pub fn prepare_polygon(root: &Path) -> Result<Option<String>, Failure> {
    let toolchain = crate::config::toolchain(None);
    Ok(make::prepare_polygon(root, &toolchain, &mut terminal)?)
}

/// Notes to standard error; progress as one rewritten line, on a terminal
/// and without `--quiet`.
fn terminal(event: Event<'_>) {
    match event {
        Event::Note(line) => crate::commands::stdout::note!("{line}"),
        Event::Progress { announce, done, of } => {
            if crate::commands::stdout::quiet() || !std::io::stderr().is_terminal() {
                return;
            }
            let text = crate::text::whitespace::terminal_safe(announce);
            eprint!("\r{text} ... {done}/{of}");
            if done == of {
                eprint!("\r\x1b[K");
            }
        }
    }
}
