//! What a run's summary needs, kept in bounded memory however many cases
//! the run has: the count of each verdict, the overall verdict, one row per
//! problem (and program), the first failures in full, the slowest cases,
//! and a histogram of CPU time against the limit. The runner feeds it each
//! case once, in case order ([`Digest::add`]); the human and HTML reports
//! are drawn from it, so a run of a million cases does not hold a million
//! results to print its summary.

use super::CaseResult;
use super::scoring::left_for_the_score;
use crate::verdict::Verdict;
use std::collections::{BTreeMap, HashSet};

/// Failures kept in full, in case order (the human report shows 20, the
/// HTML report details up to 200).
pub const FAILURES_KEPT: usize = 200;
/// Slowest cases kept (the HTML report lists 10, the terminal 3).
pub const SLOWEST_KEPT: usize = 10;
/// Bins of the CPU-time histogram below 125% of the limit, each
/// [`RATIO_BIN`] of the limit wide; one more bin holds everything beyond.
pub const RATIO_BINS: usize = 25;
/// The width of a histogram bin, as a share of the time limit.
pub const RATIO_BIN: f64 = 0.05;

/// One row of the summary table: a problem, or a program on a problem.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// The problem the row counts (empty for the total).
    pub problem: String,
    /// The program, when the report names programs.
    pub program: Option<String>,
    pub counts: BTreeMap<Verdict, usize>,
    pub cases: usize,
    /// The largest CPU time of a case that ran, milliseconds.
    pub max_cpu: f64,
    pub max_kib: Option<u64>,
}

impl Tally {
    /// `problem`, or `[program] problem`.
    pub fn label(&self) -> String {
        match &self.program {
            Some(program) => format!("[{program}] {}", self.problem),
            None => self.problem.clone(),
        }
    }

    fn counts(&self, case: &CaseResult) -> bool {
        self.problem == case.problem && self.program == case.program
    }

    fn add(&mut self, case: &CaseResult) {
        *self.counts.entry(case.verdict).or_insert(0) += 1;
        self.cases += 1;
        if case.verdict != Verdict::Skipped {
            self.max_cpu = self.max_cpu.max(case.cpu_ms);
            self.max_kib = self.max_kib.max(case.peak_rss_kib);
        }
    }
}

/// The bounded summary of a run's cases.
#[derive(Clone, Debug, Default)]
pub struct Digest {
    /// Cases seen.
    pub total: usize,
    /// Count per verdict (only verdicts that occur).
    pub summary: BTreeMap<Verdict, usize>,
    /// The first verdict other than AC in case order, among the cases that
    /// decide the overall verdict; `None` while every one is AC.
    pub first_verdict: Option<Verdict>,
    /// The first case not accepted (skipped ones included), in full.
    pub first_not_accepted: Option<(usize, CaseResult)>,
    /// A row per problem (and program, when the report names programs),
    /// in the order their first case came.
    pub rows: Vec<Tally>,
    /// Every row together.
    pub all: Tally,
    /// The first [`FAILURES_KEPT`] failures (not AC, not SKIP; a program's
    /// compile error once), with their positions in the report.
    pub failures: Vec<(usize, CaseResult)>,
    /// Failures in all, counted as `failures` is (a compile error once per
    /// program).
    pub failure_count: usize,
    /// Cases that failed, every one (a compile error once per case): the
    /// count a heading gives beside the summary's.
    pub failed_cases: usize,
    /// The programs whose compile error is already counted.
    compile_errors: HashSet<Option<String>>,
    /// The slowest cases that ran, slowest first, at most [`SLOWEST_KEPT`].
    pub slowest: Vec<(usize, CaseResult)>,
    /// Cases that ran, per histogram bin of CPU time / time limit, per
    /// verdict.
    pub ratio_bins: [BTreeMap<Verdict, usize>; RATIO_BINS + 1],
    /// Cases whose program ran (a process started), and cases whose run
    /// was taken from the run cache instead.
    pub ran: usize,
    pub reused: usize,
}

impl Digest {
    /// The digest of results already in case order.
    pub fn of(cases: &[CaseResult]) -> Digest {
        let mut digest = Digest::default();
        for case in cases {
            digest.add(case);
        }
        digest
    }

    /// Count the next case in case order.
    pub fn add(&mut self, case: &CaseResult) {
        let position = self.total;
        self.total += 1;
        if case.cached {
            self.reused += 1;
        } else if case.exit.is_some() {
            self.ran += 1;
        }
        *self.summary.entry(case.verdict).or_insert(0) += 1;
        if self.first_verdict.is_none() && !case.verdict.is_accepted() && !left_for_the_score(case)
        {
            self.first_verdict = Some(case.verdict);
        }
        if self.first_not_accepted.is_none() && !case.verdict.is_accepted() {
            self.first_not_accepted = Some((position, case.clone()));
        }
        self.row_of(case).add(case);
        self.all.add(case);
        if is_failure(case) {
            self.failed_cases += 1;
        }
        if is_failure(case)
            && (case.verdict != Verdict::CompileError
                || self.compile_errors.insert(case.program.clone()))
        {
            self.failure_count += 1;
            if self.failures.len() < FAILURES_KEPT {
                self.failures.push((position, case.clone()));
            }
        }
        if ran(case) {
            *self.ratio_bins[ratio_bin(case.tl_ratio)]
                .entry(case.verdict)
                .or_insert(0) += 1;
            self.keep_if_slow(position, case);
        }
    }

    /// The row `case` counts in, looked for from the newest (cases come
    /// grouped by problem and program, so it is nearly always the last),
    /// else a new one. No label is made per case.
    fn row_of(&mut self, case: &CaseResult) -> &mut Tally {
        let at = match self.rows.iter().rposition(|row| row.counts(case)) {
            Some(at) => at,
            None => {
                self.rows.push(Tally {
                    problem: case.problem.clone(),
                    program: case.program.clone(),
                    ..Tally::default()
                });
                self.rows.len() - 1
            }
        };
        &mut self.rows[at]
    }

    /// Cases that ran a program (those in the histogram).
    pub fn ran(&self) -> usize {
        self.ratio_bins.iter().flat_map(|bin| bin.values()).sum()
    }

    /// Keep `case` among the slowest (ties: the earlier case first).
    fn keep_if_slow(&mut self, position: usize, case: &CaseResult) {
        let at = self
            .slowest
            .partition_point(|(_, kept)| kept.cpu_ms >= case.cpu_ms);
        if at < SLOWEST_KEPT {
            self.slowest.insert(at, (position, case.clone()));
            self.slowest.truncate(SLOWEST_KEPT);
        }
    }

    /// The overall verdict: the first non-AC verdict in case order, AC if
    /// all are (and for no case at all).
    pub fn verdict(&self) -> Verdict {
        self.first_verdict.unwrap_or(Verdict::Accepted)
    }

    /// Cases accepted.
    pub fn accepted(&self) -> usize {
        self.summary.get(&Verdict::Accepted).copied().unwrap_or(0)
    }
}

/// A failure of the program: not accepted, and not skipped.
pub fn is_failure(case: &CaseResult) -> bool {
    !case.verdict.is_accepted() && case.verdict != Verdict::Skipped
}

/// Whether a case ran a program (its times mean something).
pub fn ran(case: &CaseResult) -> bool {
    case.verdict != Verdict::Skipped && (case.exit.is_some() || case.cpu_ms > 0.0)
}

/// The histogram bin of a CPU-time ratio.
pub fn ratio_bin(ratio: f64) -> usize {
    if ratio.is_nan() || ratio < 0.0 {
        return 0;
    }
    ((ratio / RATIO_BIN).floor() as usize).min(RATIO_BINS)
}
