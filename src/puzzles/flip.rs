//! Flip Game (POJ 1753): the least number of flips (a piece and its edge
//! neighbours) that makes a 4×4 board of `b`/`w` pieces one colour, or
//! `Impossible` (docs/puzzles.md §4).
//!
//! Flips commute and undo themselves, so an answer is a set of cells and the
//! boards reachable from all-black are a 12-dimensional space over GF(2)
//! that holds all-white too: one breadth-first search from all-black over
//! the 2^16 boards gives every answer (the distance to all-white of a board
//! is the distance to all-black of its complement). The table is built once
//! per process.
//!
//! The checker compares the one answer (a number or `Impossible`) with the
//! table, never with the answer file alone. It does not ask which pieces to
//! flip: the statement wants only the number.

use super::finding::{self, Accepted, Finding, Printed};
use super::grid4::{self, BoardName, FULL, Grid, Symbols};
use super::*;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// Flip Game (POJ 1753).
pub struct Flip;

/// `b` black up (a clear bit), `w` white up (a set bit).
const SYMBOLS: Symbols = Symbols {
    clear: b'b',
    set: b'w',
};
const BOARD: [BoardName; 1] = ["the board"];

/// The answer of a board that cannot be made one colour.
pub const IMPOSSIBLE: u8 = u8::MAX;

/// The longest optimum over all boards (checked by a test against the table).
pub const MAX_FLIPS: u32 = 6;

/// The cells a flip at `cell` turns over: itself and its edge neighbours.
fn flip_mask(cell: usize) -> Grid {
    let (r, c) = (cell / 4, cell % 4);
    let mut mask = grid4::bit(r, c);
    if r > 0 {
        mask |= grid4::bit(r - 1, c);
    }
    if r < 3 {
        mask |= grid4::bit(r + 1, c);
    }
    if c > 0 {
        mask |= grid4::bit(r, c - 1);
    }
    if c < 3 {
        mask |= grid4::bit(r, c + 1);
    }
    mask
}

/// The answer for every board: the least flips to one colour, or [`IMPOSSIBLE`].
pub fn answers() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let masks: Vec<Grid> = (0..16).map(flip_mask).collect();
        let mut to_black = vec![IMPOSSIBLE; 1 << 16];
        to_black[0] = 0;
        let mut queue: Vec<Grid> = vec![0];
        let mut head = 0;
        while let Some(&board) = queue.get(head) {
            head += 1;
            let next = to_black[usize::from(board)] + 1;
            for &mask in &masks {
                let child = board ^ mask;
                if to_black[usize::from(child)] == IMPOSSIBLE {
                    to_black[usize::from(child)] = next;
                    queue.push(child);
                }
            }
        }
        (0..=FULL)
            .map(|board| to_black[usize::from(board)].min(to_black[usize::from(board ^ FULL)]))
            .collect()
    })
}

fn answer_of(board: Grid) -> u8 {
    answers()[usize::from(board)]
}

fn answer_text(answer: u8) -> String {
    if answer == IMPOSSIBLE {
        "Impossible".to_string()
    } else {
        answer.to_string()
    }
}

fn read(input: &[u8]) -> Result<Grid, FormatError> {
    Ok(grid4::read_lenient(input, &BOARD, SYMBOLS)?[0])
}

impl Puzzle for Flip {
    fn name(&self) -> &'static str {
        "flip"
    }

    fn title(&self) -> &'static str {
        "Flip Game (POJ 1753)"
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
                "flip has no --heuristic option (got {h:?}): its answers come from a table of all boards"
            ).into()));
        }
        let board = read(input)?;
        Ok(format!("{}\n", answer_text(answer_of(board))).into_bytes())
    }

    fn check(&self, request: &CheckRequest<'_>) -> CheckReport {
        let board = match read(request.input) {
            Ok(b) => b,
            Err(e) => return finding::bad_input(self.name(), &e),
        };
        let best = answer_of(board);
        finding::judge(request, |output, _lexmin| verify(output, best))
    }

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
        spec.reject_other_than(self.name(), &["length", "impossible"])?;
        if spec.impossible && spec.length.is_some() {
            return Err("flip --impossible and --length exclude each other: an impossible board has no length".into());
        }
        if let Some(range) = &spec.length
            && (range.is_empty() || *range.end() > MAX_FLIPS)
        {
            return Err(format!(
                "flip --length {}..{} is out of range: the longest optimum over all boards is {MAX_FLIPS} flips",
                range.start(),
                range.end()
            ).into());
        }
        let table = answers();
        let mut by_answer: Vec<Vec<Grid>> = vec![Vec::new(); MAX_FLIPS as usize + 2];
        for board in 0..=FULL {
            let slot = match table[usize::from(board)] {
                IMPOSSIBLE => MAX_FLIPS as usize + 1,
                a => usize::from(a),
            };
            if let Some(list) = by_answer.get_mut(slot) {
                list.push(board);
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let mut cases = Vec::new();
        for _ in 0..spec.count {
            let slot = if spec.impossible {
                MAX_FLIPS as usize + 1
            } else if let Some(range) = &spec.length {
                rng.random_range(range.clone()) as usize
            } else {
                // No difficulty asked: a solvable board, each equally likely.
                let solvable: usize = by_answer[..=MAX_FLIPS as usize].iter().map(Vec::len).sum();
                let mut pick = rng.random_range(0..solvable);
                let mut slot = 0;
                while pick >= by_answer[slot].len() {
                    pick -= by_answer[slot].len();
                    slot += 1;
                }
                slot
            };
            let board = by_answer[slot].choose(&mut rng).copied().unwrap_or(0);
            let answer = answer_of(board);
            cases.push(GeneratedCase {
                input: grid4::render(board, SYMBOLS),
                answer: answer_text(answer),
                label: if answer == IMPOSSIBLE {
                    "impossible".to_string()
                } else {
                    format!("len{answer}")
                },
            });
        }
        Ok(cases)
    }

    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        GeneratedCase::single_case_files(cases)
    }

    fn stats(&self, _options: &StatsOptions) -> Result<Stats, OptionError> {
        let mut counts = vec![0u64; MAX_FLIPS as usize + 1];
        let mut impossible = 0;
        for &a in answers() {
            match counts.get_mut(usize::from(a)) {
                Some(c) => *c += 1,
                None => impossible += 1,
            }
        }
        let solvable: u64 = counts.iter().sum();
        let mut rows: Vec<(String, u64)> = counts
            .iter()
            .enumerate()
            .map(|(d, &c)| (d.to_string(), c))
            .collect();
        rows.push(("Impossible".to_string(), impossible));
        Ok(Stats {
            description: "all 65536 boards".to_string(),
            rows,
            total: 1 << 16,
            notes: vec![
                format!(
                    "{solvable} boards can be made one colour: the 16 flips span a space of dimension 12, which holds all-white"
                ),
                format!("the longest optimum is {MAX_FLIPS} flips"),
            ],
        })
    }
}

fn verify(output: &[u8], best: u8) -> Result<Accepted, Finding> {
    let mut printed = Printed::new(output);
    let token = printed.next(1, "the number of flips or `Impossible`")?;
    let line = token.pos.line;
    let found = if token.is("Impossible") {
        IMPOSSIBLE
    } else {
        match token.parse_in(0, 16, "a number") {
            Ok(k) => k as u8,
            Err(_) => {
                return Err(Finding::new(
                    1,
                    line,
                    format!(
                        "found {}, expected a number of flips (0 to 16) or `Impossible`",
                        token.quoted()
                    ),
                ));
            }
        }
    };
    printed.end_line();
    if found != best {
        let what = match (found, best) {
            (IMPOSSIBLE, _) => format!(
                "found `Impossible`, but {best} flip(s) make the board one colour: the optimum is {best}"
            ),
            (_, IMPOSSIBLE) => format!(
                "found {found}, but no flips make this board one colour: expected `Impossible`"
            ),
            _ => format!("found {found}, the optimum is {best}"),
        };
        return Err(Finding::new(1, line, what));
    }
    printed.finish(
        "after the answer",
        format!("{}, optimal", answer_text(best)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use proptest::prelude::*;
    use std::path::Path;

    const SAMPLE: &[u8] = b"bwwb\nbbwb\nbwwb\nbwww\n";

    fn solve(input: &[u8]) -> String {
        String::from_utf8(Flip.solve(input, &SolveOptions::default()).unwrap()).unwrap()
    }

    fn check(output: &[u8], answer: Option<&[u8]>) -> CheckReport {
        Flip.check(&CheckRequest {
            input: SAMPLE,
            output,
            answer,
            lexmin: false,
            strict: false,
        })
    }

    #[test]
    fn statement_examples() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flip");
        for i in 1..=2 {
            let input = std::fs::read(dir.join(format!("{i}.in"))).unwrap();
            let published = std::fs::read_to_string(dir.join(format!("{i}.out"))).unwrap();
            assert_eq!(Flip.validate(&input), Ok(1));
            assert_eq!(solve(&input), published, "example {i}");
        }
        assert_eq!(solve(SAMPLE), "4\n");
    }

    #[test]
    fn table_facts() {
        let stats = Flip.stats(&StatsOptions::default()).unwrap();
        assert_eq!(stats.rows.last(), Some(&("Impossible".to_string(), 61_440)));
        assert_eq!(stats.rows.iter().map(|r| r.1).sum::<u64>(), 65_536);
        assert_eq!(stats.rows[0], ("0".to_string(), 2));
        // MAX_FLIPS is the real maximum: its row is not empty.
        assert!(stats.rows[MAX_FLIPS as usize].1 > 0);
        assert_eq!(
            answers()
                .iter()
                .filter(|&&a| a != IMPOSSIBLE)
                .max()
                .copied(),
            Some(MAX_FLIPS as u8)
        );
        // One flip from either colour: 16 boards each, none shared.
        assert_eq!(stats.rows[1].1, 32);
    }

    #[test]
    fn validator_rejections() {
        let err = |input: &[u8]| {
            let e = Flip.validate(input).unwrap_err();
            let pos = e.pos.unwrap_or_default();
            (pos.line, pos.column, e.message())
        };
        let (l, c, m) = err(b"bwwb\nbbxb\n");
        assert_eq!((l, c), (2, 3));
        assert!(
            m.contains("found \"x\", expected `b` or `w` (row 2 of the board)"),
            "{m}"
        );
        let (l, c, m) = err(b"bwwb\nbbwb\nbwwb\n");
        assert_eq!((l, c), (4, 1));
        assert!(m.contains("expected row 4 of the board"), "{m}");
        let (l, c, m) = err(b"bwwb\nbbw\n");
        assert_eq!((l, c), (2, 4));
        assert!(m.contains("has 3 characters, expected 4"), "{m}");
        let (l, c, m) = err(b"bwwbb\n");
        assert_eq!((l, c), (1, 5));
        assert!(m.contains("after 4 characters"), "{m}");
        let (l, _, m) = err(b"bwwb\nbbwb\nbwwb\nbwww\nb\n");
        assert_eq!(l, 5);
        assert!(m.contains("expected nothing after the board"), "{m}");
        let (l, c, m) = err(b"BWWB\n");
        assert_eq!((l, c), (1, 1));
        assert!(m.contains("found \"B\", expected `b` or `w`"), "{m}");
        assert_eq!(Flip.validate(b"bwwb\nbbwb\nbwwb\nbwww\n\n"), Ok(1));
    }

    #[test]
    fn checker_findings() {
        assert_eq!(check(b"4\n", None).verdict, Verdict::Accepted);
        assert_eq!(check(b" 4", None).verdict, Verdict::Accepted);
        let cases: &[(&[u8], &str)] = &[
            (b"3\n", "case 1, output line 1: found 3, the optimum is 4"),
            (
                b"Impossible\n",
                "found `Impossible`, but 4 flip(s) make the board one colour",
            ),
            (
                b"impossible\n",
                "found \"impossible\", expected a number of flips (0 to 16) or `Impossible`",
            ),
            (
                b"\n\n",
                "case 1, output line 3: expected the number of flips or `Impossible`, found the end",
            ),
            (
                b"4\n4\n",
                "output line 2: extra output after the answer: found \"4\"",
            ),
            (b"\xc3\x28\n", "found \"\\xc3(\""),
        ];
        for (output, message) in cases {
            let report = check(output, None);
            assert_eq!(report.verdict, Verdict::WrongAnswer, "{}", report.message);
            assert!(report.message.contains(message), "{}", report.message);
        }
        let impossible = b"bwbw\nwwww\nbbwb\nbwwb\n";
        let report = Flip.check(&CheckRequest {
            input: impossible,
            output: b"5\n",
            answer: None,
            lexmin: false,
            strict: false,
        });
        assert!(
            report
                .message
                .contains("found 5, but no flips make this board one colour"),
            "{}",
            report.message
        );
        let ie = check(b"4\n", Some(b"3\n"));
        assert_eq!(ie.verdict, Verdict::InternalError);
        assert!(
            ie.message.starts_with("answer file wrong for case 1"),
            "{}",
            ie.message
        );
        let huge = vec![b'w'; 10 << 20];
        assert_eq!(check(&huge, None).verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn generator() {
        for length in 0..=MAX_FLIPS {
            let spec = GenSpec {
                count: 2,
                seed: length.into(),
                length: Some(length..=length),
                ..GenSpec::default()
            };
            for case in Flip.generate(&spec).unwrap() {
                let (input, answer) = Flip.assemble(&[case]);
                assert_eq!(Flip.validate(&input), Ok(1));
                assert_eq!(solve(&input).as_bytes(), &answer[..]);
                assert_eq!(answer, format!("{length}\n").as_bytes());
            }
        }
        let spec = GenSpec {
            count: 3,
            impossible: true,
            ..GenSpec::default()
        };
        let cases = Flip.generate(&spec).unwrap();
        assert!(cases.iter().all(|c| c.answer == "Impossible"));
        assert_eq!(cases, Flip.generate(&spec).unwrap());
        let default = Flip
            .generate(&GenSpec {
                count: 20,
                ..GenSpec::default()
            })
            .unwrap();
        assert!(default.iter().all(|c| c.answer != "Impossible"));
        let too_long = GenSpec {
            length: Some(7..=7),
            ..GenSpec::default()
        };
        assert!(
            Flip.generate(&too_long)
                .unwrap_err()
                .contains("longest optimum")
        );
        let both = GenSpec {
            length: Some(1..=1),
            impossible: true,
            ..GenSpec::default()
        };
        assert!(
            Flip.generate(&both)
                .unwrap_err()
                .contains("exclude each other")
        );
        let foreign = GenSpec {
            n: Some(1..=1),
            ..GenSpec::default()
        };
        assert!(Flip.generate(&foreign).unwrap_err().contains("no --n"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn solver_output_passes_the_checker(board in any::<u16>()) {
            let input = format!("{}\n", grid4::render(board, SYMBOLS));
            prop_assert_eq!(Flip.validate(input.as_bytes()), Ok(1));
            let output = Flip.solve(input.as_bytes(), &SolveOptions::default()).unwrap();
            let report = Flip.check(&CheckRequest { input: input.as_bytes(), output: &output, answer: Some(&output), lexmin: false, strict: true });
            prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
        }

        #[test]
        fn validator_and_checker_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let _ = Flip.validate(&bytes);
            let _ = Flip.solve(&bytes, &SolveOptions::default());
            let _ = check(&bytes, Some(&bytes));
        }
    }
}
