//! A problem's limits and where its time limit comes from: flags, the
//! problem's table, the package, the top level, the defaults.

use super::SpannedMessage;
use crate::config::schema::{ProblemTable, RootTable};
use crate::config::{
    DEFAULT_MEMORY_LIMIT, DEFAULT_OUTPUT_LIMIT, DEFAULT_PROCESSES, DEFAULT_TIME_LIMIT, Overrides,
    kattis,
};
use crate::exec::Limits;

/// Where the time limit comes from (for reports), and for a package that
/// has none, how `judge verify` derives it.
pub(super) fn time_limit_from(
    table: &ProblemTable,
    root: &RootTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
) -> (String, Option<kattis::TimeInference>) {
    let from = if overrides.time_limit.is_some() {
        "--time-limit"
    } else if table.time_limit.is_some() {
        "judge.toml time_limit"
    } else if let Some(p) = package.filter(|p| p.limits.time_limit.is_some()) {
        p.limits.time_limit_from
    } else if root.time_limit.is_some() {
        "judge.toml time_limit (top level)"
    } else {
        let inference = package.and_then(|p| p.limits.time_inference);
        return ("the judge's default".to_string(), inference);
    };
    (from.to_string(), None)
}

/// The limits: flags, the table, the package, the top level, the defaults.
pub(super) fn limits(
    table: &ProblemTable,
    root: &RootTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
) -> Result<Limits, SpannedMessage> {
    let time = overrides
        .time_limit
        .or(table.time_limit.map(|s| s.0))
        .or(package.and_then(|p| p.limits.time_limit))
        .or(root.time_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_TIME_LIMIT);
    let wall = overrides
        .wall_limit
        .or(table.wall_limit.map(|s| s.0))
        .or(root.wall_limit.map(|s| s.0))
        .unwrap_or_else(|| crate::exec::Limits::default_wall(time));
    let memory = overrides
        .memory_limit
        .or(table.memory_limit.map(|s| s.0))
        .or(package.map(|p| p.limits.memory))
        .or(root.memory_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_MEMORY_LIMIT);
    let stack = overrides
        .stack_limit
        .or(table.stack_limit.map(|s| s.0))
        .or(root.stack_limit.map(|s| s.0));
    // A DOMjudge package's programs run as DOMjudge's runguard runs them,
    // with no stack limit ("Always set the stack size to be unlimited"):
    // a thread then gets glibc's default stack (2 MiB), which DOMjudge's
    // own `test-multithread.c` checks; a stack as large as the memory
    // limit would make every new thread's stack overrun RLIMIT_AS.
    let domjudge = package.is_some_and(|p| p.domjudge);
    let stack = match stack {
        Some(s) => Some(s),
        None if domjudge => None,
        None => Some(memory),
    };
    let output = overrides
        .output_limit
        .or(table.output_limit.map(|s| s.0))
        .or(package.map(|p| p.limits.output))
        .or(root.output_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_OUTPUT_LIMIT);
    let file_size = table
        .file_size_limit
        .or(root.file_size_limit)
        .map(|s| s.0)
        .unwrap_or(output);
    let processes = overrides
        .processes
        .or(table.processes)
        .or(root.processes)
        .unwrap_or(DEFAULT_PROCESSES);
    if time.is_zero() || wall.is_zero() {
        return Err(("time limits must be greater than zero".to_string(), None));
    }
    if processes == 0 {
        return Err(("processes must be at least 1".to_string(), None));
    }
    // A DOMjudge package's programs are judged by DOMjudge's rules: output
    // past the limit is cut off and the program runs on.
    let past_output = if domjudge {
        crate::exec::PastOutput::Truncate
    } else {
        crate::exec::PastOutput::Kill
    };
    Ok(Limits {
        time,
        wall,
        memory: Some(memory),
        stack,
        output,
        past_output,
        file_size,
        processes,
        // DOMjudge's judgehost, and a 2025-09 package unless it says
        // `allow_file_writing: true`, give a submission a working
        // directory it cannot write (see `Limits::writable_workdir`).
        writable_workdir: package.is_none_or(|p| p.file_writing),
    })
}
