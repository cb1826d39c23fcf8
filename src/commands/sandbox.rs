//! The sandbox a command judges programs in, and what it hides from them.

use super::Failure;
use crate::config::{Config, Problem};
use std::path::PathBuf;

/// The sandbox for judging programs, and the interrupt that reaches it.
/// Submissions must not see the data or the judge's files: it hides every
/// cases root (of these problems and of the whole judge.toml), judge.toml
/// itself, the problems' checkers and validators, and, when `submissions`
/// are judged (not the reference solutions themselves), the reference
/// solutions.
pub fn judging_sandbox(
    config: Option<&Config>,
    problems: &[Problem],
    submissions: bool,
    workers: usize,
    mode: crate::exec::sandbox::SandboxMode,
) -> Result<
    (
        crate::exec::interrupt::Interrupt,
        std::sync::Arc<crate::exec::sandbox::Sandbox>,
    ),
    Failure,
> {
    use crate::exec::sandbox::{Sandbox, SandboxOptions};
    let interrupt = crate::exec::interrupt::Interrupt::install()
        .map_err(|e| Failure::Internal(format!("cannot catch signals: {e}")))?;
    let mut hide: Vec<PathBuf> = problems.iter().map(|p| p.cases.clone()).collect();
    let mut all: Vec<&Problem> = problems.iter().collect();
    if let Some(config) = config {
        hide.push(config.path.clone());
        all.extend(config.problems.iter());
    }
    let tool_path = |tool: &crate::check::tool::Tool| match &tool.source {
        crate::check::tool::Source::Path(p) => Some(p.clone()),
        crate::check::tool::Source::Name(_) => None,
    };
    for problem in all {
        hide.push(problem.cases.clone());
        if let Some(checker) = problem.comparison.checker() {
            hide.extend(tool_path(&checker.tool));
        }
        hide.extend(problem.validators.iter().filter_map(|v| tool_path(&v.tool)));
        if submissions
            && let Some(first) = problem
                .solution
                .as_deref()
                .and_then(shlex::split)
                .and_then(|w| w.into_iter().next())
        {
            hide.push(first.into());
        }
    }
    hide.retain(|p| p.exists());
    hide.sort();
    hide.dedup();
    let sandbox = Sandbox::new(SandboxOptions {
        interrupt: Some(interrupt.fd()),
        mode,
        hide,
        slots: workers.max(1),
        ..SandboxOptions::default()
    })
    .map_err(Failure::Internal)?;
    Ok((interrupt, std::sync::Arc::new(sandbox)))
}
