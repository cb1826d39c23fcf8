//! A package without a time limit gets one from its accepted submissions,
//! as the Kattis formats define it: the slowest accepted run × the time
//! multiplier (legacy `limits.time_multiplier`, default 5, problemtools'
//! rule; 2023-07 and later `limits.time_multipliers.ac_to_time_limit`,
//! default 2), rounded up to a multiple of `limits.time_resolution`
//! (default 1 s). The accepted submissions run first under a probe limit;
//! the whole verification then runs under the derived limit, and the report
//! names where it came from.

use super::super::submissions::{self, Entrant, Submission};
use super::{Entered, Failure};
use crate::cases::Case;
use crate::commands::stdout::note;
use crate::config::Problem;
use crate::exec::Limits;
use crate::exec::sandbox::Sandbox;
use crate::formats::kattis::TimeInference;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How long an accepted submission may run while the limit is measured.
const PROBE_LIMIT: Duration = Duration::from_secs(20);

/// What measuring the accepted submissions needs.
pub(super) struct Probe<'a> {
    pub cases: &'a [Vec<Case>],
    pub all: &'a [Submission],
    pub entered: &'a Entered,
    pub jobs: usize,
    pub interrupted: Arc<AtomicBool>,
    pub sandbox: &'a Arc<Sandbox>,
    /// `-q`: say nothing.
    pub quiet: bool,
    /// The run cache (`--no-cache`: none).
    pub cache: Option<Arc<crate::judge::cache::RunCache>>,
}

/// Derive the time limit of every problem that needs one.
pub(super) fn derive(problems: &mut [Problem], probe: Probe<'_>) -> Result<(), Failure> {
    for p in 0..problems.len() {
        let Some(inference) = problems[p].time_inference else {
            continue;
        };
        let accepted = accepted_entrants(&probe, p);
        if accepted.is_empty() {
            if probe.quiet {
                continue;
            }
            note!(
                "{}: no time limit in the package and no accepted submission to derive one from; the judge's default {}s is used",
                problems[p].name,
                problems[p].limits.time.as_secs_f64()
            );
            continue;
        }
        let count = accepted.len();
        let slowest = slowest_run(problems, &probe, accepted)?;
        let problem = &mut problems[p];
        let limit = set_limit(problem, inference, slowest, count);
        if probe.quiet {
            continue;
        }
        note!(
            "{}: no time limit in the package: {}s, {}",
            problem.name,
            limit.as_secs_f64(),
            problem.time_limit_from
        );
    }
    Ok(())
}

/// Problem `p`'s submissions that are expected to be accepted and were
/// entered.
fn accepted_entrants(probe: &Probe<'_>, p: usize) -> Vec<Entrant> {
    let entered = probe.entered;
    probe
        .all
        .iter()
        .zip(&entered.slots)
        .filter(|(s, _)| s.problem == p && s.expectation.is_accepted())
        .filter_map(|(_, slot)| slot.as_ref().ok())
        .map(|&e| Entrant {
            problem: p,
            program: entered.entrants[e].program.clone(),
        })
        .collect()
}

/// Run `accepted` under the probe limit: the slowest CPU time of any of
/// their runs, in seconds.
fn slowest_run(
    problems: &[Problem],
    probe: &Probe<'_>,
    accepted: Vec<Entrant>,
) -> Result<f64, Failure> {
    let limits: Vec<Limits> = problems
        .iter()
        .map(|problem| Limits {
            time: PROBE_LIMIT,
            wall: Limits::default_wall(PROBE_LIMIT),
            ..problem.limits.clone()
        })
        .collect();
    let trial = submissions::trial(
        problems,
        probe.cases,
        &limits,
        accepted,
        1,
        probe.jobs,
        Some(Arc::clone(&probe.interrupted)),
        probe.sandbox,
        probe.cache.clone(),
    )?;
    Ok(trial
        .results
        .iter()
        .flatten()
        .flatten()
        .map(|r| r.cpu_ms)
        .fold(0.0_f64, f64::max)
        / 1000.0)
}

/// Set `problem`'s time limit from the slowest accepted run (`count`
/// submissions) by `inference`, and say where it came from.
fn set_limit(
    problem: &mut Problem,
    inference: TimeInference,
    slowest: f64,
    count: usize,
) -> Duration {
    let raw = slowest * inference.multiplier;
    let steps = (raw / inference.resolution).ceil().max(1.0);
    let limit = crate::units::saturating_seconds(steps * inference.resolution);
    problem.limits.time = limit;
    problem.limits.wall = Limits::default_wall(limit);
    problem.time_limit_from = format!(
        "derived: {} × the slowest accepted run ({slowest:.3}s of {count} submission{}), rounded up to a multiple of {}s",
        inference.multiplier,
        if count == 1 { "" } else { "s" },
        inference.resolution
    );
    limit
}
