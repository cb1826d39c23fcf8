//! Shrinking a failing file of puzzle cases to the smallest one that still
//! fails (a generator's input is shrunk by further seeds, in the command).

use super::arena::{Arena, Candidate, Finding};
use crate::commands::Failure;
use crate::puzzles::{GenSpec, GeneratedCase, Puzzle};

/// Shrink a failing file of puzzle cases: each case alone, then without
/// the cases it does not need, then each remaining case made smaller by
/// the generator (shorter optimum, smaller n) while the failure stays.
pub(super) fn shrink_cases(
    arena: &Arena<'_>,
    puzzle: &'static dyn Puzzle,
    cases: Vec<GeneratedCase>,
    finding: Finding,
    seed: u64,
    tries: usize,
) -> Result<(Vec<GeneratedCase>, Finding, Vec<String>), Failure> {
    let mut steps = Vec::new();
    let before = cases.len();
    let (cases, finding) = fewer_cases(arena, puzzle, cases, finding)?;
    if cases.len() < before {
        steps.push(format!("{before} cases → {}", cases.len()));
    }
    let mut failing = Failing { cases, finding };
    for position in 0..failing.cases.len() {
        let dims = puzzle.difficulty(&failing.cases[position]);
        for (d, &(option, start)) in dims.iter().enumerate() {
            let shrunk = Shrink {
                arena,
                puzzle,
                seed,
                tries,
                position,
                dimension: d,
                option,
            };
            let value = shrunk.smallest(&mut failing, start)?;
            if value < start {
                steps.push(format!("{option} {start} → {value}"));
            } else {
                steps.push(format!(
                    "{option} {start} is the smallest that fails ({tries} tries at {})",
                    start.saturating_sub(1)
                ));
            }
        }
    }
    Ok((failing.cases, failing.finding, steps))
}

/// The cases that still fail, and how.
struct Failing {
    cases: Vec<GeneratedCase>,
    finding: Finding,
}

/// A failing case alone if one is enough; then every case dropped that the
/// failure does not need.
fn fewer_cases(
    arena: &Arena<'_>,
    puzzle: &'static dyn Puzzle,
    mut cases: Vec<GeneratedCase>,
    mut finding: Finding,
) -> Result<(Vec<GeneratedCase>, Finding), Failure> {
    if cases.len() > 1 {
        for i in 0..cases.len() {
            let alone = vec![cases[i].clone()];
            if let Some(f) = arena.judge(&Candidate::Cases(alone.clone()), Some(puzzle))? {
                cases = alone;
                finding = f;
                break;
            }
        }
    }
    let mut i = cases.len();
    while i > 0 && cases.len() > 1 {
        i -= 1;
        let mut fewer = cases.clone();
        fewer.remove(i);
        if let Some(f) = arena.judge(&Candidate::Cases(fewer.clone()), Some(puzzle))? {
            cases = fewer;
            finding = f;
        }
    }
    Ok((cases, finding))
}

/// Shrinking one difficulty option of one case.
struct Shrink<'a, 'b> {
    arena: &'a Arena<'b>,
    puzzle: &'static dyn Puzzle,
    seed: u64,
    tries: usize,
    position: usize,
    dimension: usize,
    option: &'static str,
}

impl Shrink<'_, '_> {
    /// Lower the option one step at a time while some generated case at the
    /// lower value still fails; the smallest value that failed.
    fn smallest(&self, failing: &mut Failing, start: u32) -> Result<u32, Failure> {
        let mut value = start;
        while value > 0 {
            let smaller = value - 1;
            match self.failing_at(&failing.cases, smaller)? {
                Some((cases, finding)) => {
                    *failing = Failing { cases, finding };
                    value = smaller;
                }
                None => break,
            }
        }
        Ok(value)
    }

    /// Up to `tries` cases generated at `value` in place of the case: the
    /// first set that still fails.
    fn failing_at(
        &self,
        cases: &[GeneratedCase],
        value: u32,
    ) -> Result<Option<(Vec<GeneratedCase>, Finding)>, Failure> {
        for t in 0..self.tries as u64 {
            let mut spec = GenSpec {
                count: 1,
                seed: self
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add(u64::from(value) * 1_000 + t * 7 + self.dimension as u64),
                ..GenSpec::default()
            };
            for &(o, v) in &self.puzzle.difficulty(&cases[self.position]) {
                spec.set_exact(o, if o == self.option { value } else { v });
            }
            let Ok(made) = self.puzzle.generate(&spec) else {
                break;
            };
            let Some(case) = made.into_iter().next() else {
                break;
            };
            let mut trial = cases.to_vec();
            trial[self.position] = case;
            if let Some(f) = self
                .arena
                .judge(&Candidate::Cases(trial.clone()), Some(self.puzzle))?
            {
                return Ok(Some((trial, f)));
            }
        }
        Ok(None)
    }
}
