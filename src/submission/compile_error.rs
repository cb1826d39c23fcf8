//! A compile error from a finished build: the message (the compiler's
//! first error, or the limit the build passed) and the end of its output.

use super::CompileError;
use super::staging::Places;
use crate::exec::{LimitHit, MemorySource, RunOutcome};
use std::time::Duration;

/// How many lines of the compiler's output a compile error keeps.
const COMPILE_OUTPUT_LINES: usize = 30;

/// A compile error from a finished compiler run, or `None` if it built.
/// `limits`: those the build ran under.
pub(super) fn compile_error(
    outcome: &RunOutcome,
    limits: &crate::exec::Limits,
    places: &Places,
) -> Option<CompileError> {
    if outcome.exit.success() && outcome.limit_hit.is_none() {
        return None;
    }
    // The build directory's path means nothing to the user: show names.
    let mut text = String::from_utf8_lossy(&outcome.stderr_tail).into_owned();
    if text.trim().is_empty() {
        let stdout = &outcome.stdout.tail(4096)[..];
        text = String::from_utf8_lossy(stdout).into_owned();
    }
    let text = text.replace(&format!("{}/", places.dir), "");
    let lines: Vec<&str> = text.lines().collect();
    let output = lines[lines.len().saturating_sub(COMPILE_OUTPUT_LINES)..].join("\n");
    let message = match passed_limit(outcome, limits) {
        Some(limit) => format!("compile error: compilation passed {limit}"),
        None => {
            let first = first_error_line(&lines).map(|l| l.trim().to_string());
            match first {
                Some(line) if line.chars().count() > 200 => format!(
                    "compile error: {}…",
                    line.chars().take(200).collect::<String>()
                ),
                Some(line) => format!("compile error: {line}"),
                None => format!(
                    "compile error: the compiler ended with {}",
                    outcome.exit.describe()
                ),
            }
        }
    };
    Some(CompileError { message, output })
}

/// The limit a build was stopped by, as measured by the judge: a memory
/// verdict only from the cgroup's count (a compiler's message about
/// memory, which the source can make it print, is not one).
fn passed_limit(outcome: &RunOutcome, limits: &crate::exec::Limits) -> Option<String> {
    let span = |d: Duration| crate::units::Span(d);
    let size = crate::units::Size;
    Some(match outcome.limit_hit? {
        LimitHit::Cpu | LimitHit::Wall => {
            format!("the compile time limit of {}", span(limits.time))
        }
        LimitHit::Memory if outcome.memory_source == MemorySource::Cgroup => format!(
            "its memory limit of {} (its cgroup's count)",
            size(limits.memory?)
        ),
        LimitHit::Memory => return None,
        LimitHit::Output => format!("its output limit of {}", size(limits.output)),
        LimitHit::FileSize => format!("its file size limit of {}", size(limits.file_size)),
        LimitHit::Processes => format!("its cap of {} processes", limits.processes),
    })
}

/// The line of a compiler's output that says what went wrong: the first
/// error, where the linker's own summary (`collect2: error: ld returned
/// 1`) gives way to the line it sums up (`undefined reference to …`);
/// else the first line that says anything.
fn first_error_line<'a>(lines: &[&'a str]) -> Option<&'a str> {
    let summary = |l: &str| l.contains("collect2:") || l.contains("ld returned");
    let says_error = |l: &str| {
        let l = l.to_ascii_lowercase();
        l.contains("error") || l.contains("undefined reference")
    };
    lines
        .iter()
        .find(|l| says_error(l) && !summary(l))
        .or_else(|| lines.iter().find(|l| says_error(l)))
        .or_else(|| lines.iter().find(|l| !l.trim().is_empty()))
        .copied()
}

#[cfg(test)]
mod compile_message_tests {
    use super::first_error_line;

    #[test]
    fn a_link_error_names_what_is_undefined_not_the_linkers_summary() {
        let lines = [
            "/usr/bin/ld: /tmp/cc1.o: in function `main':",
            "hello.c:(.text+0x9): undefined reference to `message'",
            "collect2: error: ld returned 1 exit status",
        ];
        assert_eq!(
            first_error_line(&lines),
            Some("hello.c:(.text+0x9): undefined reference to `message'")
        );
        let compile = ["x.c: In function 'main':", "x.c:3:5: error: expected ';'"];
        assert_eq!(
            first_error_line(&compile),
            Some("x.c:3:5: error: expected ';'")
        );
        assert_eq!(
            first_error_line(&["", "warning: odd"]),
            Some("warning: odd")
        );
    }
}
