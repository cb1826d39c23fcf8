//! When a run measured under some limits stands for a run under others:
//! the one table of the run request's fields that are *not* in a run's
//! key ([`RULES`]), each with its rule, and the code of those rules
//! ([`reusable`]). Every other field of the request is in the key
//! (see `key.rs`), so a run is reused only where every one of them is the
//! same. `docs/cache.md` shows the same table (a test below checks it).
//!
//! How the run ended decides which way a limit may move:
//! - Under the same limits: always.
//! - A run that ended on its own (no limit stopped it, no sign that memory
//!   or the process cap made it fail) stands under limits it stayed well
//!   within: CPU and wall time within [`MARGIN`] of a changed time or
//!   wall limit, output within the output limit, and a memory limit at
//!   least the old one. Memory is not reused downwards: an address-space
//!   limit counts what a program reserves, which is not measured, so a
//!   smaller limit may fail an allocation the run made.
//! - Under an address-space memory limit (RLIMIT_AS: no memory cgroup),
//!   memory is reused under the same limit only, however the run ended
//!   (issue 40, found by `tests/cache_differential.rs`): an allocation
//!   that failed leaves no trace, so a run that "ended on its own" may
//!   have ended because of its limit (a program that checks malloc and
//!   prints something else is WA there and AC with more), and an MLE
//!   there is the judge's reading of a failure with the peak within 10%
//!   of the limit, which a smaller limit may not repeat (whole blocks of
//!   20 MiB peak at 61 MiB of 64, MLE, but at 41 of 48, RE). A memory
//!   cgroup's limit fails no allocation: it kills, and says so.
//! - A run a limit stopped stands under a tighter one, the other limits
//!   unchanged: a time-out (CPU or wall) under a time and wall limit each
//!   at most the old, an out-of-memory under a memory limit at most the
//!   old, an output-limit kill under an output limit at most the old.
//! - Anything else (a file-size or process-cap stop, a crash blamed on
//!   memory) only under the same limits.
//!
//! The stack limit is in the key, not here (issue 40): a run stopped by
//! the memory limit with the stack as large as memory overflows its stack
//! first under a smaller stack (RE, not MLE), and a larger stack makes
//! every thread glibc starts reserve more address space, so a run that
//! ended on its own may fail under it. No direction follows.

use crate::exec::LimitHit;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The limits a cached run ran under: those a run may be reused across
/// (the rest are in its key). Made only by `key.rs` from a request;
/// [`reusable`] destructures it whole, so a field added here has no rule
/// until one is written there (a compile error until then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RanUnder {
    pub time_ns: u64,
    pub wall_ns: u64,
    pub memory: Option<u64>,
    pub output: u64,
}

pub fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// One field of the run request that is not in a run's key, and when a
/// run measured under one value of it stands under another.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The field, as `RunRequest`'s path to it.
    pub field: &'static str,
    pub rule: &'static str,
}

/// Every field of the run request a cached run may be reused across.
/// Any field not listed is in the key (`split` in `key.rs` names each).
pub const RULES: [Rule; 5] = [
    Rule {
        field: "slot",
        rule: "any: which worker ran it (each worker's user and cgroup are alike; the kind of sandbox is in the key)",
    },
    Rule {
        field: "limits.time",
        rule: "a run that ended on its own: its CPU time at most 90% of the new limit; a time-out: a new limit at most the old; any other end: the same limit",
    },
    Rule {
        field: "limits.wall",
        rule: "a run that ended on its own: its wall time at most 90% of the new limit; a time-out: a new limit at most the old; any other end: the same limit",
    },
    Rule {
        field: "limits.memory",
        rule: "under an address-space limit (no memory cgroup): the same limit only; else a run that ended on its own: a new limit at least the old (none is the largest), never smaller; a memory-limit stop: a new limit at most the old (not none); any other end: the same limit",
    },
    Rule {
        field: "limits.output",
        rule: "a run that ended on its own: its output at most the new limit; an output-limit stop: a new limit at most the old; any other end: the same limit",
    },
];

/// The share of a changed time (or wall) limit a run that ended on its
/// own may have used to stand under it: a run that used 0.95 s is not
/// reused as AC under a new 1 s limit, where a fresh run on a busy
/// machine may well go over. Under the same limit it is reused as it is
/// (that is the cache; `--recheck` samples such runs).
pub const MARGIN: f64 = 0.9;

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
    /// Its memory limit was the address space's (RLIMIT_AS: no memory
    /// cgroup measured the run), where a failed allocation leaves no
    /// trace.
    pub address_space: bool,
}

/// How a run ended, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    OnItsOwn,
    Time,
    Memory,
    Output,
    Other,
}

fn ended(run: &Measured) -> Ended {
    match run.limit_hit {
        None if !run.limited => Ended::OnItsOwn,
        Some(LimitHit::Cpu | LimitHit::Wall) => Ended::Time,
        Some(LimitHit::Memory) => Ended::Memory,
        Some(LimitHit::Output) => Ended::Output,
        _ => Ended::Other,
    }
}

/// `None` is no limit: larger than any.
fn at_least(new: Option<u64>, old: Option<u64>) -> bool {
    match (new, old) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(n), Some(o)) => n >= o,
    }
}

/// `used` is within [`MARGIN`] of `limit`.
fn within_margin(used: u64, limit: u64) -> bool {
    (used as f64) <= (limit as f64) * MARGIN
}

/// Whether `run`, measured under `old`, stands for a run under `new`:
/// each field by its rule of [`RULES`].
pub fn reusable(old: &RanUnder, run: &Measured, new: &RanUnder) -> bool {
    if old == new {
        return true;
    }
    let end = ended(run);
    // Exhaustive on purpose: a field added to `RanUnder` is a compile
    // error here until it has a rule (and a row in `RULES`).
    let RanUnder {
        time_ns,
        wall_ns,
        memory,
        output,
    } = *new;
    let time = time_ns == old.time_ns
        || match end {
            Ended::OnItsOwn => within_margin(run.cpu_ns, time_ns),
            Ended::Time => time_ns <= old.time_ns,
            _ => false,
        };
    let wall = wall_ns == old.wall_ns
        || match end {
            Ended::OnItsOwn => within_margin(run.wall_ns, wall_ns),
            Ended::Time => wall_ns <= old.wall_ns,
            _ => false,
        };
    let memory = memory == old.memory
        || (!run.address_space
            && match end {
                Ended::OnItsOwn => at_least(memory, old.memory),
                Ended::Memory => memory.is_some() && at_least(old.memory, memory),
                _ => false,
            });
    let output = output == old.output
        || match end {
            Ended::OnItsOwn => run.output_bytes <= output,
            Ended::Output => output <= old.output,
            _ => false,
        };
    time && wall && memory && output
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time_ms: u64) -> RanUnder {
        RanUnder {
            time_ns: time_ms * 1_000_000,
            wall_ns: (time_ms * 2 + 1000) * 1_000_000,
            memory: Some(256 << 20),
            output: 64 << 20,
        }
    }

    fn measured(cpu_ms: u64, limit_hit: Option<LimitHit>) -> Measured {
        Measured {
            cpu_ns: cpu_ms * 1_000_000,
            wall_ns: cpu_ms * 1_100_000,
            output_bytes: 10,
            limit_hit,
            limited: false,
            address_space: false,
        }
    }

    #[test]
    fn a_run_within_its_limits_stands_under_any_it_stayed_well_within() {
        let old = limits(500);
        let run = measured(100, None);
        assert!(reusable(&old, &run, &limits(1000)));
        assert!(reusable(&old, &run, &limits(200)));
        assert!(!reusable(&old, &run, &limits(105)), "it used 100 ms of 105");
        assert!(!reusable(&old, &run, &limits(50)), "it used 100 ms");
        let less_memory = RanUnder {
            memory: Some(1 << 20),
            ..limits(500)
        };
        assert!(!reusable(&old, &run, &less_memory));
        let limited = Measured {
            limited: true,
            ..run
        };
        assert!(!reusable(&old, &limited, &limits(1000)));
        assert!(reusable(&old, &limited, &limits(500)), "the same limits");
    }

    #[test]
    fn a_time_out_stands_under_a_tighter_limit_only() {
        let old = limits(1000);
        let run = measured(1000, Some(LimitHit::Cpu));
        assert!(reusable(&old, &run, &limits(500)));
        assert!(!reusable(&old, &run, &limits(2000)));
        let less_memory = RanUnder {
            memory: Some(1 << 20),
            ..limits(500)
        };
        assert!(
            !reusable(&old, &run, &less_memory),
            "it might run out first"
        );
    }

    #[test]
    fn an_out_of_memory_stands_under_less_memory_only() {
        let old = limits(1000);
        let run = measured(10, Some(LimitHit::Memory));
        let less = RanUnder {
            memory: Some(1 << 20),
            ..old
        };
        let none = RanUnder {
            memory: None,
            ..old
        };
        assert!(reusable(&old, &run, &less));
        assert!(!reusable(&less, &run, &old));
        assert!(!reusable(&old, &run, &none));
    }

    #[test]
    fn under_an_address_space_limit_memory_is_reused_under_the_same_limit_only() {
        let old = limits(1000);
        let more = RanUnder {
            memory: Some(1 << 30),
            ..old
        };
        let less = RanUnder {
            memory: Some(1 << 20),
            ..old
        };
        let on_its_own = Measured {
            address_space: true,
            ..measured(10, None)
        };
        assert!(
            !reusable(&old, &on_its_own, &more),
            "malloc may have failed"
        );
        assert!(reusable(&old, &on_its_own, &limits(2000)), "time alone");
        let out_of_memory = Measured {
            address_space: true,
            ..measured(10, Some(LimitHit::Memory))
        };
        assert!(!reusable(&old, &out_of_memory, &less), "the 10% rule");
        assert!(reusable(&old, &out_of_memory, &old));
    }

    #[test]
    fn other_stops_stand_under_the_same_limits_only() {
        let old = limits(1000);
        let run = measured(10, Some(LimitHit::FileSize));
        assert!(reusable(&old, &run, &limits(1000)));
        assert!(!reusable(&old, &run, &limits(900)));
    }

    #[test]
    fn docs_show_the_same_table() {
        let docs = include_str!("../../../docs/cache.md");
        for Rule { field, rule } in RULES {
            let row = format!("| `{field}` | {rule} |");
            assert!(
                docs.contains(&row),
                "docs/cache.md lacks the row of {field}: {row}"
            );
        }
    }
}
