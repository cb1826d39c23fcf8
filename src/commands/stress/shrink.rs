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
    mut cases: Vec<GeneratedCase>,
    mut finding: Finding,
    seed: u64,
    tries: usize,
) -> Result<(Vec<GeneratedCase>, Finding, Vec<String>), Failure> {
    let mut steps = Vec::new();
    let before = cases.len();
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
    if cases.len() < before {
        steps.push(format!("{before} cases → {}", cases.len()));
    }
    for position in 0..cases.len() {
        let dims = puzzle.difficulty(&cases[position]);
        for (d, &(option, start)) in dims.iter().enumerate() {
            let mut value = start;
            while value > 0 {
                let smaller = value - 1;
                let mut found = None;
                for t in 0..tries as u64 {
                    let mut spec = GenSpec {
                        count: 1,
                        seed: seed
                            .wrapping_mul(1_000_003)
                            .wrapping_add(u64::from(smaller) * 1_000 + t * 7 + d as u64),
                        ..GenSpec::default()
                    };
                    for &(o, v) in &puzzle.difficulty(&cases[position]) {
                        spec.set_exact(o, if o == option { smaller } else { v });
                    }
                    let Ok(made) = puzzle.generate(&spec) else {
                        break;
                    };
                    let Some(case) = made.into_iter().next() else {
                        break;
                    };
                    let mut trial = cases.clone();
                    trial[position] = case;
                    if let Some(f) = arena.judge(&Candidate::Cases(trial.clone()), Some(puzzle))? {
                        found = Some((trial, f));
                        break;
                    }
                }
                match found {
                    Some((smaller_cases, f)) => {
                        cases = smaller_cases;
                        finding = f;
                        value = smaller;
                    }
                    None => break,
                }
            }
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
    Ok((cases, finding, steps))
}
