//! Booksort (POJ 3460, AcWing 180): the least number of block moves that
//! sorts a shelf of n ≤ 15 books, or `5 or more` (docs/puzzles.md §2).
//!
//! - `input`: the strict validator and the lenient reader;
//! - `search`: the reference IDA* (pruned with the bound before a child is
//!   built), the seed's classic IDA* for comparison, the whole-space table;
//! - `generate`: shelves of a chosen size at an exact distance.
//!
//! The checker reads one answer per case (a number or `5 or more`) and
//! compares it with the distance the search proves, never trusting the
//! answer file. It does not ask for the moves: the statement only wants the
//! number.

mod generate;
mod input;
mod meet;
mod search;
#[cfg(test)]
mod tests;

pub use generate::MAX_DISTANCE;
pub use input::{Shelf, read as read_cases};
pub use search::{FIVE_OR_MORE, classic_distance, distance, lower_bound};

use super::finding::{self, Accepted, Finding, Printed};
use super::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Booksort (POJ 3460).
pub struct Booksort;

/// `judge stats booksort` covers all n! shelves up to this size.
const STATS_MAX_N: u32 = 10;
const STATS_DEFAULT_N: u32 = 8;

impl Puzzle for Booksort {
    fn name(&self) -> &'static str {
        "booksort"
    }

    fn title(&self) -> &'static str {
        "Booksort (POJ 3460)"
    }

    fn default_lexmin(&self) -> bool {
        false
    }

    fn multi_case(&self) -> bool {
        true
    }

    fn validate(&self, input: &[u8]) -> Result<usize, FormatError> {
        input::validate(input)
    }

    fn solve(&self, input: &[u8], options: &SolveOptions) -> Result<Vec<u8>, SolveError> {
        if let Some(h) = &options.heuristic {
            return Err(SolveError::Option(format!(
                "booksort has no --heuristic option (got {h:?}): its search always uses the ⌈wrong successors / 3⌉ bound"
            ).into()));
        }
        let shelves = input::read(input)?;
        let distance = distance_for(shelves.len());
        Ok(super::solve_in_parallel(
            &shelves,
            2,
            |shelf, out| match distance(shelf) {
                d if d >= search::FIVE_OR_MORE => out.extend_from_slice(b"5 or more\n"),
                d => {
                    out.push(b'0' + d);
                    out.push(b'\n');
                }
            },
        ))
    }

    fn check(&self, request: &CheckRequest<'_>) -> CheckReport {
        let shelves = match input::read(request.input) {
            Ok(s) => s,
            Err(e) => return finding::bad_input(self.name(), &e),
        };
        let distance = distance_for(shelves.len());
        let optimum: Vec<u8> = shelves.iter().map(|s| distance(s)).collect();
        finding::judge(request, |output, _lexmin| verify(output, &optimum))
    }

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
        spec.reject_other_than(self.name(), &["n", "moves"])?;
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        generate::generate(spec, &mut rng)
    }

    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        let mut input = format!("{}\n", cases.len());
        let mut answer = String::new();
        for case in cases {
            input.push_str(&case.input);
            input.push('\n');
            answer.push_str(&case.answer);
            answer.push('\n');
        }
        (input.into_bytes(), answer.into_bytes())
    }

    fn stats(&self, options: &StatsOptions) -> Result<Stats, OptionError> {
        let n = options.n.unwrap_or(STATS_DEFAULT_N);
        if !(1..=STATS_MAX_N).contains(&n) {
            return Err(format!(
                "booksort stats covers all n! shelves, so n must be from 1 to {STATS_MAX_N} (got {n}; 11! is already 39,916,800 shelves)"
            ).into());
        }
        let table = search::distance_table(n as usize);
        let mut counts = [0u64; FIVE_OR_MORE as usize + 1];
        for &d in &table {
            counts[usize::from(d)] += 1;
        }
        let rows: Vec<(String, u64)> = counts
            .iter()
            .enumerate()
            .map(|(d, &c)| (generate::answer_text(d as u8), c))
            .collect();
        let total = table.len() as u64;
        let farthest = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
        Ok(Stats {
            description: format!(
                "all {total} shelves of n = {n} books (breadth-first from the sorted shelf)"
            ),
            rows,
            total,
            notes: vec![format!(
                "the farthest shelves need {} move(s)",
                generate::answer_text(farthest as u8)
            )],
        })
    }
}

/// The search for a file of `cases` cases: meeting in the middle pays for
/// its table from [`meet::MANY`] cases on; both give the same numbers.
fn distance_for(cases: usize) -> fn(&[u8]) -> u8 {
    if cases >= meet::MANY {
        meet::distance
    } else {
        distance
    }
}

/// Read one output and compare each case with the proven distance.
fn verify(output: &[u8], optimum: &[u8]) -> Result<Accepted, Finding> {
    let mut printed = Printed::new(output);
    for (index, &best) in optimum.iter().enumerate() {
        let case = index + 1;
        let first = printed.next(case, &format!("the answer for case {case}"))?;
        let line = first.pos.line;
        let found = if first.is("5") && printed.peek().is_some_and(|t| t.is("or")) {
            printed.next(case, "`or`")?;
            let more = printed.next(case, "`more` (the answer `5 or more`)")?;
            if !more.is("more") {
                return Err(Finding::new(
                    case,
                    more.pos.line,
                    format!(
                        "found {}, expected `more` (the answer `5 or more`)",
                        more.quoted()
                    ),
                ));
            }
            FIVE_OR_MORE
        } else {
            match first.parse_in(0, 4, "a number") {
                Ok(k) => k as u8,
                Err(_) => {
                    return Err(Finding::new(
                        case,
                        line,
                        format!(
                            "found {}, expected a number from 0 to 4 or `5 or more`",
                            first.quoted()
                        ),
                    ));
                }
            }
        };
        printed.end_line();
        if found != best {
            let what = match (found, best) {
                (FIVE_OR_MORE, _) => {
                    format!("found `5 or more`, but {best} move(s) suffice: the optimum is {best}")
                }
                (_, FIVE_OR_MORE) => {
                    format!(
                        "found {found}, but no {found} moves sort this shelf: the optimum is `5 or more`"
                    )
                }
                _ => format!("found {found}, the optimum is {best}"),
            };
            return Err(Finding::new(case, line, what));
        }
    }
    let summary = match optimum.len() {
        1 => "1 case, optimal".to_string(),
        n => format!("{n} cases, all optimal"),
    };
    printed.finish("after the last case", summary)
}
