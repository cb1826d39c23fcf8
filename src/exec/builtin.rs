//! A built-in puzzle solver as a [`Runner`]: no process is spawned, the
//! solver runs on the worker thread and is timed with the thread's CPU clock.
//!
//! A built-in solver is trusted code: it is not contained, and no memory
//! figure is measured for it (`memory_source = "none"`).

use super::{CpuSource, Exit, LimitHit, MemorySource, RunError, RunOutcome, RunRequest, Runner};
use crate::puzzles::{Puzzle, SolveOptions};
use std::time::{Duration, Instant};

pub struct BuiltinRunner {
    puzzle: &'static dyn Puzzle,
    options: SolveOptions,
}

impl BuiltinRunner {
    pub fn new(puzzle: &'static dyn Puzzle, options: SolveOptions) -> Self {
        BuiltinRunner { puzzle, options }
    }
}

/// CPU time of the calling thread.
pub fn thread_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Runner for BuiltinRunner {
    fn run(&self, request: &RunRequest<'_>) -> Result<RunOutcome, RunError> {
        let input = std::fs::read(request.input).map_err(|e| {
            RunError::Internal(format!("cannot read {}: {e}", request.input.display()))
        })?;
        let wall_start = Instant::now();
        let cpu_start = thread_cpu_time();
        let stdout = self.puzzle.solve(&input, &self.options).map_err(|e| {
            RunError::Internal(format!(
                "the built-in {} solver refused {}: {e}",
                self.puzzle.name(),
                request.input.display()
            ))
        })?;
        let cpu = thread_cpu_time().saturating_sub(cpu_start);
        let wall = wall_start.elapsed();
        let limit_hit = (stdout.len() as u64 > request.limits.output).then_some(LimitHit::Output);
        Ok(RunOutcome {
            cpu_source: CpuSource::InProcess,
            exit: Exit::Code(0),
            cpu,
            wall,
            peak_rss_kib: None,
            memory_source: MemorySource::None,
            stdout: stdout.into(),
            stderr_tail: Vec::new(),
            limit_hit,
            memory_evidence: None,
            process_cap_hit: false,
            stopped: false,
        })
    }
}
