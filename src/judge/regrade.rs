//! Judging once at a margin and grading at the limit: a run under limits
//! raised by a factor ([`at_margin`]) measures each case's CPU and wall
//! time, and [`regrade`] gives the verdict the case would have had at the
//! real limit from those times alone. `judge verify` and `judge limits`
//! use it to say a submission is "sensitive to the time limit" (its
//! verdict differs between the limit and the margin) without a second run.
//!
//! A case over the limit would have been killed there, before it could
//! finish, print, crash or run out of memory, so any verdict of a program
//! that ran longer than the limit becomes TLE. Pure logic: no process.

use super::CaseResult;
use crate::exec::Limits;
use crate::verdict::Verdict;

/// The limits of a run at the margin: CPU and wall-clock limits times
/// `margin` (≥ 1); the others unchanged.
pub fn at_margin(limits: &Limits, margin: f64) -> Limits {
    Limits {
        time: limits.time.mul_f64(margin),
        wall: limits.wall.mul_f64(margin),
        ..limits.clone()
    }
}

/// The result a case measured under higher limits would have had under
/// `limits`.
pub fn regrade(result: &CaseResult, limits: &Limits) -> CaseResult {
    let mut graded = result.clone();
    let limit_ms = ms(limits.time);
    graded.time_limit_ms = limit_ms;
    graded.tl_ratio = (result.cpu_ms / limit_ms * 1000.0).round() / 1000.0;
    if matches!(
        result.verdict,
        Verdict::CompileError | Verdict::InternalError | Verdict::Skipped
    ) {
        return graded;
    }
    let over = if result.cpu_ms > limit_ms {
        Some(format!(
            "CPU time {:.3}s is over the limit {:.3}s",
            result.cpu_ms / 1000.0,
            limit_ms / 1000.0
        ))
    } else if result.wall_ms > ms(limits.wall) {
        Some(format!(
            "wall-clock time {:.3}s is over the wall-clock limit {:.3}s",
            result.wall_ms / 1000.0,
            ms(limits.wall) / 1000.0
        ))
    } else {
        None
    };
    if let Some(why) = over
        && result.verdict != Verdict::TimeLimit
    {
        graded.verdict = Verdict::TimeLimit;
        graded.message = format!(
            "{why} (measured at the margin {:.3}s, where it was {})",
            result.time_limit_ms / 1000.0,
            result.verdict.code()
        );
        graded.diff = None;
        graded.figures.clear();
    }
    graded
}

/// Whether a case's verdict differs at the limit and at the margin.
pub fn sensitive(at_margin: &CaseResult, at_limit: &CaseResult) -> bool {
    at_margin.verdict != at_limit.verdict
}

use crate::text::format::millis as ms;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::MemorySource;
    use std::time::Duration;

    fn result(verdict: Verdict, cpu_ms: f64, wall_ms: f64) -> CaseResult {
        CaseResult {
            index: 0,
            problem: "p".into(),
            case: "1.in".into(),
            verdict,
            message: "m".into(),
            cpu_ms,
            wall_ms,
            peak_rss_kib: None,
            memory_source: MemorySource::Rusage,
            tl_ratio: 0.0,
            time_limit_ms: 1500.0,
            exit: None,
            program: None,
            diff: Some("diff".into()),
            stderr: None,
            figures: Vec::new(),
            transcript: None,
            partial: None,
            score: None,
            cached: false,
            passes: None,
        }
    }

    fn limits(time_ms: u64) -> Limits {
        Limits {
            time: Duration::from_millis(time_ms),
            wall: Duration::from_millis(2 * time_ms + 1000),
            ..Limits::default()
        }
    }

    #[test]
    fn margin_scales_time_and_wall_only() {
        let l = at_margin(&limits(1000), 1.5);
        assert_eq!(l.time, Duration::from_millis(1500));
        assert_eq!(l.wall, Duration::from_millis(4500));
        assert_eq!(l.memory, Limits::default().memory);
    }

    #[test]
    fn over_the_limit_is_tle_whatever_it_was() {
        for v in [
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::RuntimeError,
            Verdict::MemoryLimit,
            Verdict::OutputLimit,
        ] {
            let g = regrade(&result(v, 1200.0, 1300.0), &limits(1000));
            assert_eq!(g.verdict, Verdict::TimeLimit, "{v}");
            assert!(
                g.message
                    .starts_with("CPU time 1.200s is over the limit 1.000s"),
                "{}",
                g.message
            );
            assert!(g.message.contains(&format!("where it was {}", v.code())));
            assert_eq!(g.diff, None);
            assert_eq!(g.time_limit_ms, 1000.0);
            assert_eq!(g.tl_ratio, 1.2);
        }
    }

    #[test]
    fn within_the_limit_keeps_the_verdict_and_message() {
        let r = result(Verdict::WrongAnswer, 999.0, 1000.0);
        let g = regrade(&r, &limits(1000));
        assert_eq!((g.verdict, g.message.as_str()), (Verdict::WrongAnswer, "m"));
        assert_eq!(g.diff.as_deref(), Some("diff"));
        assert!(!sensitive(&r, &g));
        // A TLE at the margin stays TLE with its own message.
        let t = result(Verdict::TimeLimit, 1500.0, 1600.0);
        let g = regrade(&t, &limits(1000));
        assert_eq!((g.verdict, g.message.as_str()), (Verdict::TimeLimit, "m"));
    }

    #[test]
    fn a_sleeper_over_the_wall_limit_is_tle() {
        let g = regrade(&result(Verdict::Accepted, 10.0, 3500.0), &limits(1000));
        assert_eq!(g.verdict, Verdict::TimeLimit);
        assert!(
            g.message.starts_with("wall-clock time 3.500s"),
            "{}",
            g.message
        );
    }

    #[test]
    fn not_judged_cases_stay_as_they_are() {
        for v in [
            Verdict::CompileError,
            Verdict::InternalError,
            Verdict::Skipped,
        ] {
            let g = regrade(&result(v, 5000.0, 5000.0), &limits(1000));
            assert_eq!(g.verdict, v);
        }
    }

    #[test]
    fn sensitive_when_the_margin_changes_the_verdict() {
        let r = result(Verdict::Accepted, 1200.0, 1250.0);
        let g = regrade(&r, &limits(1000));
        assert!(sensitive(&r, &g));
    }
}
