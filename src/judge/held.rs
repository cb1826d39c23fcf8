//! A scored run's results until grading. A scoring problem's graders need
//! every case of a program before any case's final verdict (a `break` or a
//! failed prerequisite turns later cases into SKIP), so its results wait
//! for the end of the run. They wait on disk: each result is one JSON line
//! in an anonymous temporary file, and memory keeps only what grading
//! reads (the verdict and the partial credit) and where the line is, about
//! 32 bytes a case whatever the messages, diffs and transcripts hold.
//!
//! Should the temporary file fail (a full disk), the results from then on
//! are kept in memory: nothing is lost, the run only costs more memory.

use super::scoring::{Graded, Pair, grade};
use super::{CaseResult, Plan};
use crate::score::Partial;
use crate::verdict::Verdict;
use indexmap::IndexMap;
use std::borrow::Cow;
use std::fs::File;
use std::os::unix::fs::FileExt;

/// One position of the run.
enum Entry {
    /// Not finished (never launched: it settles as SKIP).
    Missing,
    /// A JSON line of the spool.
    Spooled {
        offset: u64,
        len: u32,
        verdict: Verdict,
        partial: Option<Partial>,
    },
    /// Kept in memory (the spool failed).
    Kept(Box<CaseResult>),
}

/// The held results of a scored run, by position.
pub(super) struct Held {
    entries: Vec<Entry>,
    spool: Option<File>,
    /// Where the next line starts.
    end: u64,
    /// Set once the spool failed: results are kept in memory from then on.
    failed: bool,
    line: Vec<u8>,
}

impl Held {
    pub(super) fn new(total: usize) -> Held {
        let mut entries = Vec::with_capacity(total);
        entries.resize_with(total, || Entry::Missing);
        Held {
            entries,
            spool: None,
            end: 0,
            failed: false,
            line: Vec::new(),
        }
    }

    /// Hold the result at `position`.
    pub(super) fn put(&mut self, position: usize, result: CaseResult) {
        let Some(entry) = self.entries.get_mut(position) else {
            return;
        };
        *entry = if self.failed {
            Entry::Kept(Box::new(result))
        } else {
            match spool(&mut self.spool, &mut self.line, self.end, &result) {
                Ok(len) => {
                    let offset = self.end;
                    self.end += len as u64;
                    Entry::Spooled {
                        offset,
                        len,
                        verdict: result.verdict,
                        partial: result.partial,
                    }
                }
                Err(_) => {
                    self.failed = true;
                    Entry::Kept(Box::new(result))
                }
            }
        };
    }

    /// Grade every (problem, program) whose problem has a scoring plan, in
    /// the order their first cases come; a position never finished is
    /// graded as the SKIP it settles as.
    pub(super) fn grade(&self, plan: &Plan) -> Graded {
        let mut pairs: IndexMap<(usize, usize), Vec<usize>> = IndexMap::new();
        for position in 0..self.entries.len() {
            if let Some(job) = plan.jobs.get(position)
                && plan.problems[job.problem].scoring.is_some()
            {
                pairs
                    .entry((job.problem, job.program))
                    .or_default()
                    .push(position);
            }
        }
        let pairs = pairs
            .into_iter()
            .filter_map(|((problem, program), positions)| {
                Some(Pair {
                    plan: plan.problems[problem].scoring.as_ref()?,
                    problem: plan.problems[problem].name.clone(),
                    program: plan
                        .label_programs
                        .then(|| plan.programs[program].label.clone()),
                    positions,
                })
            })
            .collect();
        grade(self.entries.len(), pairs, |p| {
            let name = plan.jobs.name(p).map_or(Cow::Borrowed(""), |(_, _, n)| n);
            let (verdict, partial) = self.grading_input(p);
            (name, verdict, partial)
        })
    }

    fn grading_input(&self, position: usize) -> (Verdict, Option<Partial>) {
        match &self.entries[position] {
            Entry::Missing => (Verdict::Skipped, None),
            Entry::Spooled {
                verdict, partial, ..
            } => (*verdict, *partial),
            Entry::Kept(result) => (result.verdict, result.partial),
        }
    }

    /// The held results in case order, each passed to `settle` (`None` for
    /// a position never finished). A line that cannot be read back is an
    /// error: the run's report would lose a case.
    pub(super) fn drain(
        mut self,
        mut settle: impl FnMut(usize, Option<CaseResult>),
    ) -> std::io::Result<()> {
        let file = self.spool.take();
        for (position, entry) in std::mem::take(&mut self.entries).into_iter().enumerate() {
            let result = match entry {
                Entry::Missing => None,
                Entry::Kept(result) => Some(*result),
                Entry::Spooled { offset, len, .. } => {
                    let file = file
                        .as_ref()
                        .ok_or_else(|| std::io::Error::other("a scored run's spool is missing"))?;
                    self.line.resize(len as usize, 0);
                    file.read_exact_at(&mut self.line, offset)?;
                    Some(serde_json::from_slice(&self.line).map_err(|e| {
                        std::io::Error::other(format!(
                            "reading back a scored run's result {position}: {e}"
                        ))
                    })?)
                }
            };
            settle(position, result);
        }
        Ok(())
    }
}

/// Write `result` as one line at `end` of the spool (made on first use);
/// its length. Each line is written at once, so a failed write loses no
/// line before it.
fn spool(
    spool: &mut Option<File>,
    line: &mut Vec<u8>,
    end: u64,
    result: &CaseResult,
) -> std::io::Result<u32> {
    line.clear();
    serde_json::to_writer(&mut *line, result)?;
    line.push(b'\n');
    let len = u32::try_from(line.len()).map_err(std::io::Error::other)?;
    end.checked_add(len as u64)
        .ok_or_else(|| std::io::Error::other("the spool is full"))?;
    let file = match spool {
        Some(file) => file,
        None => spool.insert(tempfile::tempfile()?),
    };
    file.write_all_at(line, end)?;
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::MemorySource;
    use crate::puzzles::{Figure, FigureCell};

    fn result(index: usize, verdict: Verdict) -> CaseResult {
        CaseResult {
            index,
            problem: "p".into(),
            case: format!("secret/g{index}/{index}.in"),
            verdict,
            message: format!("line 1\n\"quoted\" \u{1b} é {index}"),
            // Parsed back to the bit only with serde_json's `float_roundtrip`.
            cpu_ms: 985.6906946328695 + index as f64,
            wall_ms: 1e-7 * index as f64 + std::f64::consts::PI,
            peak_rss_kib: Some(u64::MAX - index as u64),
            memory_source: MemorySource::None,
            tl_ratio: 2.0f64.sqrt(),
            time_limit_ms: 1000.0,
            exit: Some("exit code 3".into()),
            program: Some("a.py".into()),
            diff: Some("-1\n+2".into()),
            stderr: Some("x".repeat(10_000)),
            figures: vec![Figure {
                title: "board".into(),
                rows: vec![vec![
                    Some(FigureCell {
                        text: "1".into(),
                        highlight: true,
                    }),
                    None,
                ]],
            }],
            transcript: Some(vec![crate::exec::interactive::Line {
                at: 0.5,
                from: crate::exec::interactive::Speaker::Validator,
                text: "1".into(),
            }]),
            passes: Some(2),
            partial: Some(Partial::Fraction(1.0 / 3.0)),
            score: None,
            cached: false,
        }
    }

    /// Results held out of order come back in case order, equal in every
    /// field (floats to the bit), and a position never put comes back as
    /// none; grading reads the verdict and partial credit without them.
    #[test]
    fn held_results_come_back_whole_in_case_order() {
        let mut held = Held::new(5);
        let verdicts = [
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::TimeLimit,
            Verdict::Accepted,
        ];
        for position in [3, 0, 2, 1] {
            held.put(position, result(position, verdicts[position]));
        }
        assert!(held.end > 40_000, "the results went to the spool");
        assert!(held.entries.iter().all(|e| !matches!(e, Entry::Kept(_))));
        assert_eq!(
            held.grading_input(1),
            (Verdict::WrongAnswer, Some(Partial::Fraction(1.0 / 3.0)))
        );
        assert_eq!(held.grading_input(4), (Verdict::Skipped, None));
        let mut back = Vec::new();
        held.drain(|position, r| back.push((position, r))).unwrap();
        assert_eq!(back.len(), 5);
        for (position, r) in back {
            match position {
                4 => assert_eq!(r, None),
                _ => assert_eq!(r, Some(result(position, verdicts[position]))),
            }
        }
    }

    /// After the spool fails, results are kept in memory and still come
    /// back, after the spooled ones before them.
    #[test]
    fn a_failed_spool_keeps_the_results_in_memory() {
        let mut held = Held::new(3);
        held.put(0, result(0, Verdict::Accepted));
        // The spool turns unwritable (as a full disk would fail a write):
        // the next write fails, and results are kept from then on. The
        // line before it is still read back from the file.
        let spooled = held.spool.take().unwrap();
        let path = format!(
            "/proc/self/fd/{}",
            std::os::fd::AsRawFd::as_raw_fd(&spooled)
        );
        held.spool = Some(File::open(path).unwrap());
        held.put(1, result(1, Verdict::WrongAnswer));
        assert!(held.failed, "the failed write was seen");
        held.put(2, result(2, Verdict::Accepted));
        assert!(matches!(held.entries[1], Entry::Kept(_)));
        let mut back = Vec::new();
        held.drain(|_, r| back.push(r)).unwrap();
        assert_eq!(
            back,
            vec![
                Some(result(0, Verdict::Accepted)),
                Some(result(1, Verdict::WrongAnswer)),
                Some(result(2, Verdict::Accepted)),
            ]
        );
    }
}
