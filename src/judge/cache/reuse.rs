//! When a run measured under some limits stands for a run under others.
//!
//! - Under the same limits: always.
//! - A run that ended on its own (no limit stopped it, no sign that memory
//!   or the process cap made it fail) stands under any limits it stayed
//!   within: CPU time at most the new time limit, wall time below the new
//!   wall limit, output within the new output limit, and a memory (and
//!   stack) limit at least the old one. Memory is not reused downwards:
//!   an address-space limit counts what a program reserves, which is not
//!   measured, so a smaller limit may fail an allocation the run made.
//! - A run a limit stopped stands under a tighter one, the other limits
//!   unchanged: a time-out (CPU or wall) under a time and wall limit each
//!   at most the old, an out-of-memory under a memory (and stack) limit at
//!   most the old, an output-limit kill under an output limit at most the
//!   old.
//! - Anything else (a file-size or process-cap stop, a crash blamed on
//!   memory) only under the same limits.

use crate::exec::{LimitHit, Limits};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The limits a cached run ran under (those that may differ between
/// reuses; the rest are in its key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RanUnder {
    pub time_ns: u64,
    pub wall_ns: u64,
    pub memory: Option<u64>,
    pub stack: Option<u64>,
    pub output: u64,
}

impl RanUnder {
    pub fn of(limits: &Limits) -> RanUnder {
        RanUnder {
            time_ns: nanos(limits.time),
            wall_ns: nanos(limits.wall),
            memory: limits.memory,
            stack: limits.stack,
            output: limits.output,
        }
    }
}

pub fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// What the rule needs of a measured run.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub cpu_ns: u64,
    pub wall_ns: u64,
    pub output_bytes: u64,
    pub limit_hit: Option<LimitHit>,
    /// Memory evidence, a process cap reached, or a stop by an
    /// interactive partner: the run may have ended because of its limits.
    pub limited: bool,
}

/// `None` is no limit: larger than any.
fn at_least(new: Option<u64>, old: Option<u64>) -> bool {
    match (new, old) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(n), Some(o)) => n >= o,
    }
}

/// Whether `run`, measured under `old`, stands for a run under `new`.
pub fn reusable(old: &RanUnder, run: &Measured, new: &Limits) -> bool {
    let new = RanUnder::of(new);
    if *old == new {
        return true;
    }
    let same = |time: bool, memory: bool, output: bool| {
        (!time || (old.time_ns == new.time_ns && old.wall_ns == new.wall_ns))
            && (!memory || (old.memory == new.memory && old.stack == new.stack))
            && (!output || old.output == new.output)
    };
    match run.limit_hit {
        None if !run.limited => {
            run.cpu_ns <= new.time_ns
                && run.wall_ns < new.wall_ns
                && run.output_bytes <= new.output
                && at_least(new.memory, old.memory)
                && at_least(new.stack, old.stack)
        }
        Some(LimitHit::Cpu | LimitHit::Wall) => {
            new.time_ns <= old.time_ns && new.wall_ns <= old.wall_ns && same(false, true, true)
        }
        Some(LimitHit::Memory) => {
            at_least(old.memory, new.memory)
                && at_least(old.stack, new.stack)
                && new.memory.is_some()
                && same(true, false, true)
        }
        Some(LimitHit::Output) => new.output <= old.output && same(true, true, false),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time_ms: u64) -> Limits {
        let time = Duration::from_millis(time_ms);
        Limits {
            time,
            wall: Limits::default_wall(time),
            ..Limits::default()
        }
    }

    fn measured(cpu_ms: u64, limit_hit: Option<LimitHit>) -> Measured {
        Measured {
            cpu_ns: cpu_ms * 1_000_000,
            wall_ns: cpu_ms * 1_100_000,
            output_bytes: 10,
            limit_hit,
            limited: false,
        }
    }

    #[test]
    fn a_run_within_its_limits_stands_under_any_it_stayed_within() {
        let old = RanUnder::of(&limits(500));
        let run = measured(100, None);
        assert!(reusable(&old, &run, &limits(1000)));
        assert!(reusable(&old, &run, &limits(200)));
        assert!(!reusable(&old, &run, &limits(50)), "it used 100 ms");
        let less_memory = Limits {
            memory: Some(1 << 20),
            ..limits(500)
        };
        assert!(!reusable(&old, &run, &less_memory));
        let limited = Measured {
            limited: true,
            ..run
        };
        assert!(!reusable(&old, &limited, &limits(1000)));
    }

    #[test]
    fn a_time_out_stands_under_a_tighter_limit_only() {
        let old = RanUnder::of(&limits(1000));
        let run = measured(1000, Some(LimitHit::Cpu));
        assert!(reusable(&old, &run, &limits(500)));
        assert!(!reusable(&old, &run, &limits(2000)));
        let less_memory = Limits {
            memory: Some(1 << 20),
            ..limits(500)
        };
        assert!(
            !reusable(&old, &run, &less_memory),
            "it might run out first"
        );
    }

    #[test]
    fn other_stops_stand_under_the_same_limits_only() {
        let old = RanUnder::of(&limits(1000));
        let run = measured(10, Some(LimitHit::FileSize));
        assert!(reusable(&old, &run, &limits(1000)));
        assert!(!reusable(&old, &run, &limits(900)));
    }
}
