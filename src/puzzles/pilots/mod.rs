//! The Pilots Brothers' refrigerator (POJ 2965): open every handle of a 4×4
//! grid (`+` closed, `-` open) with the fewest turns, where turning handle
//! (i, j) turns every handle in row i and column j (docs/puzzles.md §5).
//!
//! Turns commute and undo themselves, and the 16 turn masks are independent
//! over GF(2), so every board has exactly one shortest set: turn (i, j)
//! exactly when row i and column j together (the handle once) hold an odd
//! number of `+`. The reference prints that set in row-major order.
//!
//! The checker accepts the set in any order (with `lexmin`, only in
//! row-major order, the lexicographically smallest listing), replays the
//! turns and names the first thing wrong. It never trusts the answer file.
//! It replays the turns as it reads them and keeps at most 16, and a count
//! above [`READ_LIMIT`] is wrong from the count line alone, so its memory
//! does not grow with the output. A turn line holding a third number puts
//! every later turn out of step: what goes wrong after it is reported on
//! that line.

#[cfg(test)]
mod tests;

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
            ).into()));
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

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
        spec.reject_other_than(self.name(), &["turns"])?;
        if let Some(range) = &spec.turns
            && (range.is_empty() || *range.end() > 16)
        {
            return Err(format!(
                "pilots --turns {}..{} is out of range: there are 16 handles, and a shortest answer turns each at most once",
                range.start(),
                range.end()
            ).into());
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

    fn stats(&self, _options: &StatsOptions) -> Result<Stats, OptionError> {
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

/// The most turns a count may announce for the turns to be read: a
/// shortest answer turns each of the 16 handles at most once, so a larger
/// count is wrong whatever follows, and the checker answers from the count
/// line alone (its memory and time do not grow with the output).
pub const READ_LIMIT: u64 = 1000;

/// A turn line that holds a third number (row, column, and one more, alone
/// on its line): every turn after it is read out of step, so a reading
/// error further on is reported here.
struct Stray {
    line: usize,
    turn: usize,
    token: String,
}

impl Stray {
    /// The reading finding `f`, told from the stray number it comes from.
    fn explain(&self, f: Finding) -> Finding {
        let at = f
            .line
            .map(|l| format!(" (output line {l})"))
            .unwrap_or_default();
        Finding::new(
            1,
            self.line,
            format!(
                "line {} holds a third number, {}, after the row and column of turn {} (a turn line holds two), so the turns after it are read out of step: {}{at}",
                self.line, self.token, self.turn, f.what
            ),
        )
    }
}

/// Read the count and the turns, replaying them as they are read; only
/// the first 16 turns (all that the lexmin comparison can need) are kept.
fn verify(output: &[u8], board: Grid, lexmin: bool) -> Result<Accepted, Finding> {
    let best = shortest_turns(board);
    let mut printed = Printed::new(output);
    let count_token = printed.next(1, "the number of turns")?;
    let line = count_token.pos.line;
    let count = count_token
        .parse_in(0, finding::MAX_COUNT, "the number of turns")
        .map_err(|e| Finding::new(1, line, e.message()))?;
    printed.end_line();
    if count > READ_LIMIT {
        return Err(Finding::new(
            1,
            line,
            format!(
                "the count announces {count} turns, but the optimum is {}: a shortest answer turns each of the 16 handles at most once, so a count above {READ_LIMIT} is wrong whatever follows (the turns were not read)",
                best.count_ones()
            ),
        ));
    }
    let mut reached = board;
    let mut listed: Vec<(usize, usize)> = Vec::with_capacity(16);
    let mut first_turn_of = [0usize; 16];
    let mut twice: Option<(usize, usize, usize)> = None;
    let mut stray: Option<Stray> = None;
    let mut previous_line = line;
    let read = || -> Result<Accepted, Finding> {
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
            let (row, row_line) = coordinate("row")?;
            let (column, column_line) = coordinate("column")?;
            // A third number alone with this turn on its line.
            let third = printed.peek_at(0);
            let fourth_line = printed.peek_at(1).map(|t| t.pos.line);
            if let Some(third) = third
                && stray.is_none()
                && previous_line < row_line
                && row_line == column_line
                && third.pos.line == row_line
                && fourth_line != Some(row_line)
            {
                stray = Some(Stray {
                    line: row_line,
                    turn: index,
                    token: third.quoted(),
                });
            }
            previous_line = column_line;
            printed.end_line();
            let cell = 4 * row + column;
            match first_turn_of[cell] {
                0 => first_turn_of[cell] = index,
                first => {
                    twice.get_or_insert((cell, first, index));
                }
            }
            reached ^= turn_mask(cell);
            if listed.len() < 16 {
                listed.push((cell, row_line));
            }
        }
        let coordinate = |t: Option<reader::Token<'_>>| {
            t.filter(|t| t.parse_in(1, 4, "a coordinate").is_ok())
                .map(|t| String::from_utf8_lossy(t.bytes).into_owned())
        };
        if let (Some(row), Some(column)) = (
            coordinate(printed.peek_at(0)),
            coordinate(printed.peek_at(1)),
        ) {
            let after = if count == 0 {
                "right after it".to_string()
            } else {
                format!("after turn {count}")
            };
            return Err(Finding::new(
                1,
                printed.peek_at(0).map_or(line, |t| t.pos.line),
                format!(
                    "the count on line {line} announces {count} turns, but more turns follow: found \"{row} {column}\" {after}"
                ),
            ));
        }
        printed.finish(
            &format!("after the {count} turns the count announced"),
            String::new(),
        )
    };
    // Any finding once a stray number was read comes from reading out of
    // step, and is told from it.
    let read = read();
    let explain = |f: Finding| match &stray {
        Some(stray) => stray.explain(f),
        None => f,
    };
    let accepted = read.map_err(explain)?;
    judge_turns(board, count, line, reached, &listed, twice, lexmin)
        .map(|summary| Accepted {
            summary,
            ..accepted
        })
        .map_err(explain)
}

/// Judge turns that were read: `reached` is the board after them, `listed`
/// the first 16 (handle, line), `twice` the first handle turned twice (with
/// the two turns). The summary for an accepted answer.
fn judge_turns(
    board: Grid,
    count: u64,
    line: usize,
    reached: Grid,
    listed: &[(usize, usize)],
    twice: Option<(usize, usize, usize)>,
    lexmin: bool,
) -> Result<String, Finding> {
    let best = shortest_turns(board);
    let twice_note = twice.map(|(cell, a, b)| {
        format!(
            "handle {} is turned twice (turns {a} and {b})",
            handle(cell)
        )
    });
    if reached != 0 {
        let closed: Vec<String> = cells(reached).map(handle).collect();
        let mut what = format!(
            "not all handles are open after the {count} turns: {} still closed",
            closed.join(", ")
        );
        if let Some(note) = &twice_note {
            what.push_str(&format!("; {note}"));
        }
        return Err(Finding::new(1, line, what).with_figures(vec![grid4::figure(
            format!("refrigerator after the {count} turns (closed handles marked)"),
            reached,
            SYMBOLS,
            reached,
        )]));
    }
    if let Some(note) = twice_note {
        return Err(Finding::new(
            1,
            line,
            format!("{count} turns, optimum is {}: {note}", best.count_ones()),
        ));
    }
    // Distinct turns that open everything are the unique shortest set (at
    // most 16, all kept).
    if lexmin {
        let expected: Vec<usize> = cells(best).collect();
        if let Some(i) =
            (0..expected.len()).find(|&i| listed.get(i).map(|t| t.0) != Some(expected[i]))
        {
            let (cell, turn_line) = listed.get(i).copied().unwrap_or((expected[i], line));
            return Err(Finding::new(
                1,
                turn_line,
                format!(
                    "not in row-major order (the lexicographically smallest listing): turn {} is {}, expected {}",
                    i + 1,
                    handle(cell),
                    handle(expected[i])
                ),
            ));
        }
    }
    Ok(format!("{count} turns, optimal"))
}
