//! A plan's jobs: listed one by one (verify, limits and stress build a few
//! thousand at most), or made from the problems' compact case lists as the
//! workers reach them (`judge run`: a million cases cost the lists' twelve
//! bytes a case, not a job each).

use super::Job;
use crate::cases::{CaseList, Partition};
use std::borrow::Cow;

/// The jobs of a plan, in case order.
#[derive(Debug)]
pub enum Jobs {
    Listed(Vec<Job>),
    Lazy(LazyJobs),
}

impl Default for Jobs {
    fn default() -> Jobs {
        Jobs::Listed(Vec::new())
    }
}

impl From<Vec<Job>> for Jobs {
    fn from(jobs: Vec<Job>) -> Jobs {
        Jobs::Listed(jobs)
    }
}

impl Jobs {
    pub fn len(&self) -> usize {
        match self {
            Jobs::Listed(jobs) => jobs.len(),
            Jobs::Lazy(lazy) => lazy.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The job at `position` (0-based within this shard).
    pub fn get(&self, position: usize) -> Option<Cow<'_, Job>> {
        match self {
            Jobs::Listed(jobs) => jobs.get(position).map(Cow::Borrowed),
            Jobs::Lazy(lazy) => lazy.get(position).map(Cow::Owned),
        }
    }

    /// The job at `position`'s index in the whole run, problem and case
    /// name, without making the case (a start to report).
    pub fn name(&self, position: usize) -> Option<(usize, usize, Cow<'_, str>)> {
        match self {
            Jobs::Listed(jobs) => jobs
                .get(position)
                .map(|j| (j.index, j.problem, Cow::Borrowed(j.case.name.as_str()))),
            Jobs::Lazy(lazy) => {
                let (index, problem, i) = lazy.locate(position)?;
                Some((index, problem, lazy.lists[problem].name(i)?))
            }
        }
    }
}

/// Each problem's cases run by its program; with `--partition`, only this
/// shard's (their positions in the whole run kept, four bytes a case).
#[derive(Debug)]
pub struct LazyJobs {
    lists: Vec<CaseList>,
    program_of: Vec<usize>,
    /// Where each problem's cases start in the whole run.
    starts: Vec<usize>,
    total: usize,
    /// This shard's cases (their index in the whole run), when sharded.
    kept: Option<Vec<u32>>,
}

/// A run too large for `--partition` (a kept case is a `u32` index).
#[derive(Debug, thiserror::Error)]
#[error(
    "--partition: {total} cases are more than a sharded run holds ({})",
    u32::MAX
)]
pub struct TooManyToShard {
    pub total: usize,
}

impl LazyJobs {
    /// The jobs of `lists[p]` run by program `program_of[p]`, kept by
    /// `partition` (`names[p]` is the problem's name, which a hash
    /// partition reads).
    pub fn new(
        lists: Vec<CaseList>,
        names: &[String],
        program_of: Vec<usize>,
        partition: Option<Partition>,
    ) -> Result<LazyJobs, TooManyToShard> {
        let mut starts = Vec::with_capacity(lists.len());
        let mut total = 0;
        for list in &lists {
            starts.push(total);
            total += list.len();
        }
        let kept = match partition {
            None => None,
            Some(part) => {
                if u32::try_from(total).is_err() {
                    return Err(TooManyToShard { total });
                }
                let mut kept = Vec::new();
                for (p, list) in lists.iter().enumerate() {
                    for i in 0..list.len() {
                        let index = starts[p] + i;
                        let name = list.name(i).unwrap_or_default();
                        if part.keeps(index, &names[p], &name) {
                            kept.push(index as u32);
                        }
                    }
                }
                kept.shrink_to_fit();
                Some(kept)
            }
        };
        Ok(LazyJobs {
            lists,
            program_of,
            starts,
            total,
            kept,
        })
    }

    /// How many cases the whole (unsharded) run has.
    pub fn total(&self) -> usize {
        self.total
    }

    fn len(&self) -> usize {
        self.kept.as_ref().map_or(self.total, Vec::len)
    }

    /// The job at `position`: its index in the whole run, its problem, and
    /// the case's place in that problem's list.
    fn locate(&self, position: usize) -> Option<(usize, usize, usize)> {
        let index = match &self.kept {
            Some(kept) => *kept.get(position)? as usize,
            None => position,
        };
        // The last problem starting at or before `index`.
        let problem = self
            .starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        Some((index, problem, index - self.starts[problem]))
    }

    fn get(&self, position: usize) -> Option<Job> {
        let (index, problem, i) = self.locate(position)?;
        let case = self.lists[problem].get(i)?;
        Some(Job {
            index,
            problem,
            program: self.program_of[problem],
            case,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(dir: &std::path::Path, names: &[&str]) -> CaseList {
        for n in names {
            std::fs::write(dir.join(format!("{n}.in")), "1\n").unwrap();
            std::fs::write(dir.join(format!("{n}.ans")), "1\n").unwrap();
        }
        crate::cases::discover(dir, crate::formats::package_of)
            .unwrap()
            .cases
    }

    #[test]
    fn jobs_are_made_in_case_order_across_problems() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let lists = vec![
            list(a.path(), &["1", "2"]),
            CaseList::default(),
            list(b.path(), &["x"]),
        ];
        let names = ["a".to_string(), "empty".to_string(), "b".to_string()];
        let jobs = LazyJobs::new(lists, &names, vec![0, 1, 2], None).unwrap();
        let jobs = Jobs::Lazy(jobs);
        assert_eq!(jobs.len(), 3);
        let made: Vec<(usize, usize, usize, String)> = (0..4)
            .filter_map(|i| jobs.get(i))
            .map(|j| (j.index, j.problem, j.program, j.case.name.clone()))
            .collect();
        assert_eq!(
            made,
            [
                (0, 0, 0, "1.in".to_string()),
                (1, 0, 0, "2.in".to_string()),
                (2, 2, 2, "x.in".to_string())
            ]
        );
        assert_eq!(jobs.get(0).unwrap().case.input, a.path().join("1.in"));
        let named = jobs.name(2).map(|(i, p, n)| (i, p, n.into_owned()));
        assert_eq!(
            named,
            Some((2, 2, "x.in".to_string())),
            "the name without the case"
        );
        assert!(jobs.name(3).is_none());
    }

    #[test]
    fn a_shard_keeps_its_cases_and_their_whole_run_index() {
        let a = tempfile::tempdir().unwrap();
        let names: Vec<String> = (0..7).map(|i| i.to_string()).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let part: Partition = "count:2/3".parse().unwrap();
        let jobs = LazyJobs::new(
            vec![list(a.path(), &refs)],
            &["p".to_string()],
            vec![0],
            Some(part),
        )
        .unwrap();
        assert_eq!(jobs.total(), 7);
        let jobs = Jobs::Lazy(jobs);
        let kept: Vec<usize> = (0..jobs.len())
            .filter_map(|i| jobs.get(i))
            .map(|j| j.index)
            .collect();
        assert_eq!(kept, [1, 4]);
    }
}
