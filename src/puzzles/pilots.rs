//! The Pilots Brothers' refrigerator (POJ 2965): open every handle of a 4×4
//! grid (`+` closed, `-` open) with the fewest turns, where turning handle
//! (i, j) turns every handle in row i and column j (PROBLEMS.md §5).
//!
//! Turns commute and undo themselves, and the 16 turn masks are independent
//! over GF(2), so every board has exactly one shortest set: turn (i, j)
//! exactly when row i and column j together (the handle once) hold an odd
//! number of `+`. The reference prints that set in row-major order.
//!
//! The checker accepts the set in any order (with `lexmin`, only in
//! row-major order, the lexicographically smallest listing), replays the
//! turns and names the first thing wrong. It never trusts the answer file.

use super::finding::{self, Accepted, Finding, Printed};
use super::grid4::{self, BoardName, FULL, Grid, Symbols};
use super::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The Pilots Brothers' refrigerator (POJ 2965).
pub struct Pilots;

/// `-` open (a clear bit), `+` closed (a set bit).
const SYMBOLS: Symbols = Symbols {
    clear: b'-',
    set: b'+',
};
const BOARD: [BoardName; 1] = ["the refrigerator"];

/// The handles a turn of `cell` turns: its row and its column.
fn turn_mask(cell: usize) -> Grid {
    let (r, c) = (cell / 4, cell % 4);
    let row: Grid = 0xf << (4 * r);
    let column: Grid = 0x1111 << c;
    row | column
}

/// The unique shortest set of turns, as a board-shaped bit set.
pub fn shortest_turns(board: Grid) -> Grid {
    (0..16)
        .filter(|&cell| (board & turn_mask(cell)).count_ones() % 2 == 1)
        .fold(0, |set, cell| set | 1 << cell)
}

fn cells(set: Grid) -> impl Iterator<Item = usize> {
    (0..16).filter(move |&cell| set >> cell & 1 == 1)
}

fn render(set: Grid) -> String {
    let mut out = set.count_ones().to_string();
    for cell in cells(set) {
        out.push_str(&format!("\n{} {}", cell / 4 + 1, cell % 4 + 1));
    }
    out
}

fn read(input: &[u8]) -> Result<Grid, FormatError> {
    Ok(grid4::read_lenient(input, &BOARD, SYMBOLS)?[0])
}

fn handle(cell: usize) -> String {
    format!("({}, {})", cell / 4 + 1, cell % 4 + 1)
}

impl Puzzle for Pilots {
    fn name(&self) -> &'static str {
        "pilots"
    }

    fn title(&self) -> &'static str {
        "The Pilots Brothers' refrigerator (POJ 2965)"
    }

    fn default_lexmin(&self) -> bool {
        false
    }

    fn multi_case(&self) -> bool {
        false
    }

    fn validate(&self, input: &[u8]) -> Result<usize, FormatError> {
        grid4::read_strict(input, &BOARD, SYMBOLS)?;
        Ok(1)
    }

    fn solve(&self, input: &[u8], options: &SolveOptions) -> Result<Vec<u8>, SolveError> {
        if let Some(h) = &options.heuristic {
            return Err(SolveError::Option(format!(
                "pilots has no --heuristic option (got {h:?}): its answer follows from a parity rule"
            )));
        }
        let board = read(input)?;
        Ok(format!("{}\n", render(shortest_turns(board))).into_bytes())
    }

    fn check(&self, request: &CheckRequest<'_>) -> CheckReport {
        let board = match read(request.input) {
            Ok(b) => b,
            Err(e) => return finding::bad_input(self.name(), &e),
        };
        finding::judge(request, |output, lexmin| verify(output, board, lexmin))
    }

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, String> {
        spec.reject_other_than(self.name(), &["turns"])?;
        if let Some(range) = &spec.turns
            && (range.is_empty() || *range.end() > 16)
        {
            return Err(format!(
                "pilots --turns {}..{} is out of range: there are 16 handles, and a shortest answer turns each at most once",
                range.start(),
                range.end()
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let mut cases = Vec::new();
        for _ in 0..spec.count {
            let board = match &spec.turns {
                // No difficulty asked: every board equally likely.
                None => rng.random::<u16>(),
                Some(range) => {
                    // The shortest set is unique, so turning k distinct
                    // handles from all-open gives a board exactly k turns away.
                    let k = rng.random_range(range.clone()) as usize;
                    let mut all: Vec<usize> = (0..16).collect();
                    all.shuffle(&mut rng);
                    all[..k]
                        .iter()
                        .fold(0, |board, &cell| board ^ turn_mask(cell))
                }
            };
            let set = shortest_turns(board);
            cases.push(GeneratedCase {
                input: grid4::render(board, SYMBOLS),
                answer: render(set),
                label: format!("turns{}", set.count_ones()),
            });
        }
        Ok(cases)
    }

    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        GeneratedCase::single_case_files(cases)
    }

    fn stats(&self, _options: &StatsOptions) -> Result<Stats, String> {
        let mut counts = [0u64; 17];
        for board in 0..=FULL {
            counts[shortest_turns(board).count_ones() as usize] += 1;
        }
        Ok(Stats {
            description: "all 65536 boards".to_string(),
            rows: counts.iter().enumerate().map(|(k, &c)| (k.to_string(), c)).collect(),
            total: 1 << 16,
            notes: vec![
                "every board can be opened, and its shortest set of turns is unique (the 16 turn masks are independent), so k turns are needed by C(16, k) boards".to_string(),
            ],
        })
    }
}

fn verify(output: &[u8], board: Grid, lexmin: bool) -> Result<Accepted, Finding> {
    let best = shortest_turns(board);
    let mut printed = Printed::new(output);
    let count_token = printed.next(1, "the number of turns")?;
    let count = count_token
        .parse_in(0, finding::MAX_COUNT, "the number of turns")
        .map_err(|e| Finding::new(1, count_token.pos.line, e.message()))?;
    printed.end_line();
    let mut turns: Vec<(usize, usize)> = Vec::new();
    let mut first_turn_of = [0usize; 16];
    let mut twice: Option<(usize, usize, usize)> = None;
    for index in 1..=count as usize {
        let what = |part: &str| {
            format!(
                "the {part} of turn {index} of the {count} the count announced ({} listed)",
                index - 1
            )
        };
        let mut coordinate = |part: &str| -> Result<(usize, usize), Finding> {
            let token = printed.next(1, &what(part))?;
            token
                .parse_in(1, 4, &format!("a {part}"))
                .map(|v| (v as usize - 1, token.pos.line))
                .map_err(|e| {
                    Finding::new(1, token.pos.line, format!("turn {index}: {}", e.message()))
                })
        };
        let (row, line) = coordinate("row")?;
        let (column, _) = coordinate("column")?;
        printed.end_line();
        let cell = 4 * row + column;
        match first_turn_of[cell] {
            0 => first_turn_of[cell] = index,
            first => {
                twice.get_or_insert((cell, first, index));
            }
        }
        turns.push((cell, line));
    }
    let accepted = printed.finish(
        &format!("after the {count} turns the count announced"),
        String::new(),
    )?;
    let reached = turns
        .iter()
        .fold(board, |b, &(cell, _)| b ^ turn_mask(cell));
    let twice_note = twice.map(|(cell, a, b)| {
        format!(
            "handle {} is turned twice (turns {a} and {b})",
            handle(cell)
        )
    });
    let line = count_token.pos.line;
    if reached != 0 {
        let closed: Vec<String> = cells(reached).map(handle).collect();
        let mut what = format!(
            "not all handles are open after the {} turns: {} still closed",
            turns.len(),
            closed.join(", ")
        );
        if let Some(note) = &twice_note {
            what.push_str(&format!("; {note}"));
        }
        return Err(Finding::new(1, line, what).with_figures(vec![grid4::figure(
            format!(
                "refrigerator after the {} turns (closed handles marked)",
                turns.len()
            ),
            reached,
            SYMBOLS,
            reached,
        )]));
    }
    if let Some(note) = twice_note {
        return Err(Finding::new(
            1,
            line,
            format!(
                "{} turns, optimum is {}: {note}",
                turns.len(),
                best.count_ones()
            ),
        ));
    }
    // Distinct turns that open everything are the unique shortest set.
    if lexmin {
        let expected: Vec<usize> = cells(best).collect();
        if let Some(i) = (0..expected.len()).find(|&i| turns[i].0 != expected[i]) {
            return Err(Finding::new(
                1,
                turns[i].1,
                format!(
                    "not in row-major order (the lexicographically smallest listing): turn {} is {}, expected {}",
                    i + 1,
                    handle(turns[i].0),
                    handle(expected[i])
                ),
            ));
        }
    }
    Ok(Accepted {
        summary: format!("{} turns, optimal", turns.len()),
        ..accepted
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use proptest::prelude::*;
    use std::path::Path;

    /// POJ 2965's sample.
    const SAMPLE: &[u8] = b"-+--\n----\n----\n-+--\n";

    fn solve(input: &[u8]) -> String {
        String::from_utf8(Pilots.solve(input, &SolveOptions::default()).unwrap()).unwrap()
    }

    fn check_with(output: &[u8], answer: Option<&[u8]>, lexmin: bool) -> CheckReport {
        Pilots.check(&CheckRequest {
            input: SAMPLE,
            output,
            answer,
            lexmin,
            strict: false,
        })
    }

    fn check(output: &[u8]) -> CheckReport {
        check_with(output, None, false)
    }

    const BEST: &[u8] = b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n";

    #[test]
    fn published_data_is_reproduced_exactly() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pilots");
        let mut files = 0;
        for i in 1..=64 {
            let input = std::fs::read(dir.join(format!("{i}.in"))).unwrap();
            let published = std::fs::read_to_string(dir.join(format!("{i}.out"))).unwrap();
            assert_eq!(solve(&input), published, "file {i}");
            files += 1;
        }
        assert_eq!(files, 64);
        assert_eq!(solve(SAMPLE).as_bytes(), BEST);
    }

    #[test]
    fn validator_rejections() {
        let err = |input: &[u8]| {
            let e = Pilots.validate(input).unwrap_err();
            let pos = e.pos.unwrap_or_default();
            (pos.line, pos.column, e.message())
        };
        let (l, c, m) = err(b"-+--\n--0-\n");
        assert_eq!((l, c), (2, 3));
        assert!(
            m.contains("found \"0\", expected `-` or `+` (row 2 of the refrigerator)"),
            "{m}"
        );
        let (l, c, m) = err(b"-+--\n");
        assert_eq!((l, c), (2, 1));
        assert!(m.contains("expected row 2 of the refrigerator"), "{m}");
        let (l, c, m) = err(b"-+-\n");
        assert_eq!((l, c), (1, 4));
        assert!(
            m.contains("row 1 of the refrigerator has 3 characters, expected 4"),
            "{m}"
        );
        let (l, c, m) = err(b"-+---\n");
        assert_eq!((l, c), (1, 5));
        assert!(
            m.contains(
                "found \"-\", expected the end of row 1 of the refrigerator after 4 characters"
            ),
            "{m}"
        );
        let (l, _, m) = err(b"-+--\n----\n----\n-+--\n----\n");
        assert_eq!(l, 5);
        assert!(m.contains("expected nothing after the refrigerator"), "{m}");
        assert_eq!(Pilots.validate(SAMPLE), Ok(1));
    }

    #[test]
    fn checker_findings() {
        assert_eq!(check(BEST).verdict, Verdict::Accepted);
        let shuffled = b"6\n4 4\n1 1\n1 3\n1 4\n4 1\n4 3\n";
        assert_eq!(check(shuffled).verdict, Verdict::Accepted);
        let wa = check_with(shuffled, None, true);
        assert_eq!(wa.verdict, Verdict::WrongAnswer);
        assert!(
            wa.message.contains("turn 1 is (4, 4), expected (1, 1)"),
            "{}",
            wa.message
        );
        let cases: &[(&[u8], &str)] = &[
            (
                b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n5 0\n",
                "case 1, output line 7: turn 6: found \"5\", expected a row from 1 to 4",
            ),
            (
                b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n4 0\n",
                "turn 6: found \"0\", expected a column from 1 to 4",
            ),
            (
                b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n",
                "expected the row of turn 6 of the 6 the count announced (5 listed)",
            ),
            (
                b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n",
                "output line 7: extra output after the 5 turns the count announced",
            ),
            (
                b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n",
                "not all handles are open after the 5 turns: (1, 4), (2, 4), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4) still closed",
            ),
            (
                b"8\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n2 2\n2 2\n",
                "8 turns, optimum is 6: handle (2, 2) is turned twice (turns 7 and 8)",
            ),
            (
                b"2\n1 1\n1 1\n",
                "handle (1, 1) is turned twice (turns 1 and 2)",
            ),
            (b"x\n", "found \"x\", expected the number of turns"),
        ];
        for (output, message) in cases {
            let report = check(output);
            assert_eq!(report.verdict, Verdict::WrongAnswer, "{}", report.message);
            assert!(report.message.contains(message), "{}", report.message);
        }
        let open = check(b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n");
        assert_eq!(open.figures.len(), 1);
        assert_eq!(
            open.figures[0].rows[3][3]
                .as_ref()
                .map(|c| (c.text.as_str(), c.highlight)),
            Some(("+", true))
        );
        let mut huge = b"6\n1 ".to_vec();
        huge.extend(std::iter::repeat_n(b'1', 10 << 20));
        let wa = check(&huge);
        assert!(wa.message.contains("turn 1: found \"111"), "{}", wa.message);
        assert!(wa.message.contains("(10485760 bytes)"), "{}", wa.message);
        let ie = check_with(BEST, Some(b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n"), false);
        assert_eq!(ie.verdict, Verdict::InternalError);
        assert!(
            ie.message.starts_with("answer file wrong for case 1"),
            "{}",
            ie.message
        );
    }

    #[test]
    fn generator_and_stats() {
        for k in 0..=16 {
            let spec = GenSpec {
                count: 2,
                seed: 3,
                turns: Some(k..=k),
                ..GenSpec::default()
            };
            let cases = Pilots.generate(&spec).unwrap();
            assert_eq!(cases, Pilots.generate(&spec).unwrap());
            for case in cases {
                let (input, answer) = Pilots.assemble(&[case]);
                assert_eq!(Pilots.validate(&input), Ok(1));
                assert_eq!(solve(&input).as_bytes(), &answer[..]);
                assert!(answer.starts_with(format!("{k}\n").as_bytes()));
            }
        }
        assert!(
            Pilots
                .generate(&GenSpec {
                    turns: Some(17..=17),
                    ..GenSpec::default()
                })
                .is_err()
        );
        let stats = Pilots.stats(&StatsOptions::default()).unwrap();
        let binomial = |k: u64| (0..k).fold(1u64, |acc, i| acc * (16 - i) / (i + 1));
        for (k, row) in stats.rows.iter().enumerate() {
            assert_eq!(row.1, binomial(k as u64), "k = {k}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn solver_output_passes_the_checker(board in any::<u16>()) {
            let input = format!("{}\n", grid4::render(board, SYMBOLS));
            prop_assert_eq!(Pilots.validate(input.as_bytes()), Ok(1));
            let output = Pilots.solve(input.as_bytes(), &SolveOptions::default()).unwrap();
            let report = Pilots.check(&CheckRequest { input: input.as_bytes(), output: &output, answer: Some(&output), lexmin: true, strict: true });
            prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
        }

        #[test]
        fn validator_and_checker_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let _ = Pilots.validate(&bytes);
            let _ = Pilots.solve(&bytes, &SolveOptions::default());
            let _ = check_with(&bytes, Some(&bytes), true);
        }
    }
}
