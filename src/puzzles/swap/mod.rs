//! The black-and-white swap game (codevs 2743): the shortest sequence of
//! swaps of edge-adjacent pieces that turns a 4×4 start board into a target
//! board, 8 white (`1`) and 8 black (`0`) pieces each (docs/puzzles.md §3).
//!
//! - Solver: a breadth-first search from the target over the 12,870 boards,
//!   then the lexicographically smallest shortest sequence greedily (see
//!   `space`). Each move is written with its two cells in reading order
//!   (upper or left cell first: `1222`), and moves compare as those strings.
//! - Checker: any legal shortest sequence is accepted, a move may name its
//!   two cells in either order; with `lexmin` the moves, compared as the
//!   4-digit strings written (docs/puzzles.md §3), must be the reference's, so a
//!   move must also be written with its cells in reading order (`2212` is
//!   a larger string than `1222`).
//! - Stats: the distribution of optimal lengths over all 12,870 × 12,870
//!   ordered (start, target) pairs, computed once per symmetry class.
//!
//! It does not judge how the contestant found the sequence, and it reads no
//! more than the count and the moves: anything after them is extra output.
//! It replays the moves as it reads them and keeps only the board reached
//! and the first optimum-many moves, and a count above [`READ_LIMIT`] is
//! wrong from the count line alone: memory does not grow with the output.

mod space;
#[cfg(test)]
mod tests;

use super::finding::{self, Accepted, Finding, Printed};
use super::grid4::{self, BoardName, Grid, Symbols};
use super::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use space::Move;

/// The black-and-white swap game (codevs 2743).
pub struct Swap;

const SYMBOLS: Symbols = Symbols {
    clear: b'0',
    set: b'1',
};
const BOARDS: [BoardName; 2] = ["the start board", "the target board"];

/// The longest optimum over all ordered (start, target) pairs (checked by a
/// test against the whole-space count).
pub const MAX_LENGTH: u32 = 20;

/// How many random targets the generator tries for a long `--length` before
/// it picks among the targets known to be that far from some board.
const RANDOM_TARGETS: usize = 32;

/// Both boards of a case, with the statement's 8 + 8 rule checked.
fn boards(grids: &[Grid], input_lines: bool) -> Result<(Grid, Grid), FormatError> {
    let (start, target) = match grids {
        [start, target] => (*start, *target),
        _ => {
            return Err(FormatError::whole(
                "expected a start board and a target board",
            ));
        }
    };
    for (index, &board) in [start, target].iter().enumerate() {
        let white = board.count_ones();
        if white != 8 {
            let other = [target, start][index].count_ones();
            let mut reason = format!(
                "{} holds {white} white pieces (1) and {} black (0); the statement fixes 8 of each",
                BOARDS[index],
                16 - white
            );
            if other != white {
                reason.push_str(&format!(
                    ", and {} holds {other} white: swaps never change the count, so no sequence joins them",
                    BOARDS[1 - index]
                ));
            }
            // Name the board's first row when the file is laid out in lines.
            let pos = input_lines.then_some(reader::Pos {
                line: 4 * index + 1,
                column: 1,
            });
            return Err(FormatError::new(pos, None, reason));
        }
    }
    Ok((start, target))
}

fn read(input: &[u8]) -> Result<(Grid, Grid), FormatError> {
    boards(&grid4::read_lenient(input, &BOARDS, SYMBOLS)?, false)
}

/// The reference output for two boards: the count, then the smallest
/// shortest sequence, one move a line.
fn reference(start: Grid, target: Grid) -> Vec<Move> {
    // Both boards hold 8 white pieces, so the target reaches every board.
    space::shortest_shared(start, target).unwrap_or_default()
}

fn render(moves: &[Move]) -> String {
    let mut out = moves.len().to_string();
    for &m in moves {
        out.push('\n');
        out.push_str(&space::move_text(m));
    }
    out
}

impl Puzzle for Swap {
    fn name(&self) -> &'static str {
        "swap"
    }

    fn title(&self) -> &'static str {
        "Black-and-white swap game (codevs 2743)"
    }

    fn default_lexmin(&self) -> bool {
        false
    }

    fn multi_case(&self) -> bool {
        false
    }

    fn validate(&self, input: &[u8]) -> Result<usize, FormatError> {
        boards(&grid4::read_strict(input, &BOARDS, SYMBOLS)?, true)?;
        Ok(1)
    }

    fn solve(&self, input: &[u8], options: &SolveOptions) -> Result<Vec<u8>, SolveError> {
        if let Some(h) = &options.heuristic {
            return Err(SolveError::Option(format!(
                "swap has no --heuristic option (got {h:?}): its solver is a breadth-first search"
            ).into()));
        }
        let (start, target) = read(input)?;
        let mut out = render(&reference(start, target)).into_bytes();
        out.push(b'\n');
        Ok(out)
    }

    fn check(&self, request: &CheckRequest<'_>) -> CheckReport {
        let (start, target) = match read(request.input) {
            Ok(b) => b,
            Err(e) => return finding::bad_input(self.name(), &e),
        };
        let best = reference(start, target);
        finding::judge(request, |output, lexmin| {
            verify(output, start, target, &best, lexmin)
        })
    }

    fn generate(&self, spec: &GenSpec) -> Result<Vec<GeneratedCase>, OptionError> {
        spec.reject_other_than(self.name(), &["length"])?;
        if let Some(range) = &spec.length
            && (range.is_empty() || *range.end() > MAX_LENGTH)
        {
            return Err(format!(
                "swap --length {}..{} is out of range: the longest optimum over all start and target boards is {MAX_LENGTH} moves",
                range.start(),
                range.end()
            ).into());
        }
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let mut cases = Vec::new();
        for _ in 0..spec.count {
            let (start, target) = match &spec.length {
                None => (random_board(&mut rng), random_board(&mut rng)),
                Some(range) => {
                    let length = rng.random_range(range.clone());
                    pair_at(length as u8, &mut rng)
                }
            };
            let moves = reference(start, target);
            cases.push(GeneratedCase {
                input: format!(
                    "{}\n{}",
                    grid4::render(start, SYMBOLS),
                    grid4::render(target, SYMBOLS)
                ),
                answer: render(&moves),
                label: format!("len{}", moves.len()),
            });
        }
        Ok(cases)
    }

    fn assemble(&self, cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        GeneratedCase::single_case_files(cases)
    }

    fn stats(&self, _options: &StatsOptions) -> Result<Stats, OptionError> {
        let mut totals: Vec<u64> = Vec::new();
        for class in space::classes() {
            if totals.len() < class.lengths.len() {
                totals.resize(class.lengths.len(), 0);
            }
            for (d, &count) in class.lengths.iter().enumerate() {
                totals[d] += count * class.size;
            }
        }
        let total: u64 = totals.iter().sum();
        let longest = totals.len().saturating_sub(1);
        // The statement sample's start board, 1111/0000/1110/0010.
        let sample_start = grid4::read_lenient(b"1111 0000 1110 0010", &BOARDS[..1], SYMBOLS)
            .map_err(|e| e.to_string())?[0];
        let dist = space::distances_to(sample_start);
        let mut from_sample = vec![0u64; MAX_LENGTH as usize + 1];
        for board in space::all_boards() {
            if let Some(slot) = from_sample.get_mut(usize::from(dist[usize::from(board)])) {
                *slot += 1;
            }
        }
        while from_sample.last() == Some(&0) {
            from_sample.pop();
        }
        let from_sample: Vec<String> = from_sample
            .iter()
            .enumerate()
            .map(|(d, c)| format!("{d}:{c}"))
            .collect();
        Ok(Stats {
            description: format!(
                "all {total} ordered (start, target) pairs of the {} boards with 8 white pieces",
                space::BOARDS
            ),
            rows: totals
                .iter()
                .enumerate()
                .map(|(d, &c)| (d.to_string(), c))
                .collect(),
            total,
            notes: vec![
                format!(
                    "the longest optimum is {longest} moves ({} ordered pairs)",
                    totals.last().copied().unwrap_or(0)
                ),
                format!(
                    "{} symmetry classes of targets (the square's 8 symmetries and swapping the colours keep every distance)",
                    space::classes().len()
                ),
                format!(
                    "from the statement's start board 1111/0000/1110/0010 to every target (length:count): {}",
                    from_sample.join(" ")
                ),
            ],
        })
    }
}

fn random_board(rng: &mut ChaCha8Rng) -> Grid {
    let mut cells = [0u8, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
    cells.shuffle(rng);
    cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &c)| acc | Grid::from(c) << i)
}

/// A (start, target) pair whose optimum is exactly `length` (at most
/// [`MAX_LENGTH`]): a random target that has boards that far, a random one
/// of those as the start.
fn pair_at(length: u8, rng: &mut ChaCha8Rng) -> (Grid, Grid) {
    let pick = |target: Grid, rng: &mut ChaCha8Rng| {
        let dist = space::distances_to(target);
        let starts: Vec<Grid> = space::all_boards()
            .filter(|&b| dist[usize::from(b)] == length)
            .collect();
        starts.choose(rng).map(|&start| (start, target))
    };
    for _ in 0..RANDOM_TARGETS {
        let target = random_board(rng);
        if let Some(pair) = pick(target, rng) {
            return pair;
        }
    }
    // Long lengths are rare from a random target: pick among the classes
    // that reach that far, in a random symmetry.
    let far: Vec<Grid> = space::classes()
        .iter()
        .filter(|c| c.lengths.len() > usize::from(length))
        .map(|c| c.representative)
        .collect();
    let target = far.choose(rng).copied().unwrap_or(0x00ff);
    let target = space::transform(target, rng.random_range(0..16));
    pick(target, rng).unwrap_or((target, target))
}

/// Why a move token is not a legal move.
struct BadMove {
    what: String,
    /// The cells it names that are on the board, to mark in a figure.
    cells: Grid,
    /// False when the token is not even four digits (no board is shown).
    digits: bool,
}

/// Parse a move token: four digits naming two adjacent cells.
fn parse_move(token: &reader::Token<'_>, index: usize) -> Result<Move, BadMove> {
    let b = token.bytes;
    let shown = token.quoted();
    if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
        return Err(BadMove {
            what: format!(
                "move {index}: found {shown}, expected a move r1c1r2c2 (four digits: the rows and columns of two adjacent cells, 1 to 4)"
            ),
            cells: 0,
            digits: false,
        });
    }
    let d: Vec<u8> = b.iter().map(|c| c - b'0').collect();
    let on_board = |r: u8, c: u8| (1..=4).contains(&r) && (1..=4).contains(&c);
    let cells = [(d[0], d[1]), (d[2], d[3])]
        .iter()
        .filter(|&&(r, c)| on_board(r, c))
        .fold(0, |acc: Grid, &(r, c)| acc | 1 << ((r - 1) * 4 + (c - 1)));
    for cell in [(d[0], d[1]), (d[2], d[3])] {
        if !on_board(cell.0, cell.1) {
            return Err(BadMove {
                what: format!(
                    "move {index} {shown}: cell ({}, {}) is off the 4×4 board (rows and columns are 1 to 4)",
                    cell.0, cell.1
                ),
                cells,
                digits: true,
            });
        }
    }
    let a = (d[0] - 1) * 4 + (d[1] - 1);
    let c = (d[2] - 1) * 4 + (d[3] - 1);
    let (a, c) = (a.min(c), a.max(c));
    if !space::MOVES.contains(&(a, c)) {
        return Err(BadMove {
            what: format!(
                "move {index} {shown}: cells ({}, {}) and ({}, {}) are not adjacent (a move swaps two cells that share an edge)",
                d[0], d[1], d[2], d[3]
            ),
            cells,
            digits: true,
        });
    }
    Ok((a, c))
}

/// The most moves a count may announce for the moves to be read: 50 times
/// the longest optimum, so a longer count is wrong whatever follows it.
/// Above it the checker answers from the count line alone, and reads and
/// stores nothing more: its memory and time do not grow with the output.
pub const READ_LIMIT: u64 = 1000;

/// A shortest move as read: the move, its line and the bytes written.
type Read<'a> = (Move, usize, &'a [u8]);

/// Read the count and the moves, replaying them as they are read: the
/// board reached and the first `best.len()` moves (all that the lexmin
/// comparison needs) are kept, nothing else. Findings, in the order looked
/// for: a malformed count; a count above [`READ_LIMIT`]; a malformed or
/// illegal move (with the board it was played on); too few moves; a further
/// move after the count's; other extra output; the target not reached; a
/// length other than the optimum; not the smallest (with `lexmin`).
fn verify(
    output: &[u8],
    start: Grid,
    target: Grid,
    best: &[Move],
    lexmin: bool,
) -> Result<Accepted, Finding> {
    let mut printed = Printed::new(output);
    let count_token = printed.next(1, "the number of moves")?;
    let count_line = count_token.pos.line;
    let count = count_token
        .parse_in(0, finding::MAX_COUNT, "the number of moves")
        .map_err(|e| Finding::new(1, count_line, e.message()))?;
    printed.end_line();
    if count > READ_LIMIT {
        return Err(Finding::new(
            1,
            count_line,
            format!(
                "the count announces {count} moves, but the optimum is {}: no two boards are more than {MAX_LENGTH} moves apart, so a count above {READ_LIMIT} is wrong whatever follows (the moves were not read)",
                best.len()
            ),
        ));
    }
    let mut board = start;
    let mut kept: Vec<Read<'_>> = Vec::with_capacity(best.len());
    let mut last_line = count_line;
    for index in 1..=count {
        let token = printed.next(
            1,
            &format!(
                "move {index} of the {count} the count announced ({} listed)",
                index - 1
            ),
        )?;
        let m = parse_move(&token, index as usize)
            .map_err(|bad| illegal(bad, token.pos.line, board, index - 1))?;
        board = space::apply(board, m);
        if kept.len() < best.len() {
            kept.push((m, token.pos.line, token.bytes));
        }
        last_line = token.pos.line;
        printed.end_line();
    }
    if let Some(next) = printed.peek()
        && parse_move(&next, count as usize + 1).is_ok()
    {
        let after = if count == 0 {
            "right after it".to_string()
        } else {
            format!("after move {count}")
        };
        return Err(Finding::new(
            1,
            next.pos.line,
            format!(
                "the count on line {count_line} announces {count} moves, but more moves follow: found {} {after}",
                next.quoted()
            ),
        ));
    }
    let accepted = printed.finish(
        &format!("after the {count} moves the count announced"),
        String::new(),
    )?;
    if board != target {
        return Err(Finding::new(
            1,
            last_line,
            format!(
                "the moves do not reach the target: reached {}, expected {}",
                grid4::render_inline(board, SYMBOLS),
                grid4::render_inline(target, SYMBOLS)
            ),
        )
        .with_figures(vec![
            grid4::figure(
                format!("board reached after {count} moves (wrong cells marked)"),
                board,
                SYMBOLS,
                board ^ target,
            ),
            grid4::figure("target board", target, SYMBOLS, 0),
        ]));
    }
    if count != best.len() as u64 {
        return Err(Finding::new(
            1,
            count_line,
            format!("{count} moves, optimum is {}", best.len()),
        ));
    }
    let expected: Vec<String> = best.iter().map(|&m| space::move_text(m)).collect();
    if lexmin
        && let Some((i, &(m, line, written))) = kept
            .iter()
            .enumerate()
            .find(|&(i, &(_, _, written))| written != expected[i].as_bytes())
    {
        let shown = String::from_utf8_lossy(written);
        let why = if m == best[i] {
            format!(
                "move {} is written {shown}: the same swap, but the smallest writes it {} (the upper or left cell first; moves compare as the strings written)",
                i + 1,
                expected[i]
            )
        } else {
            format!("move {} is {shown}, expected {}", i + 1, expected[i])
        };
        return Err(Finding::new(
            1,
            line,
            format!(
                "not the lexicographically smallest shortest sequence: {why} (the smallest is {})",
                expected.join(" ")
            ),
        ));
    }
    let summary = if lexmin {
        format!("{} moves, optimal and the smallest", best.len())
    } else {
        format!("{} moves, optimal", best.len())
    };
    Ok(Accepted {
        summary,
        ..accepted
    })
}

/// The finding for an illegal move, played on `board` after `played` legal
/// moves: four digits that are not a move get the board (in the message and
/// as a figure, the cells named marked).
fn illegal(bad: BadMove, line: usize, board: Grid, played: u64) -> Finding {
    if !bad.digits {
        return Finding::new(1, line, bad.what);
    }
    let when = match played {
        0 => "the start board".to_string(),
        1 => "the board after 1 move".to_string(),
        n => format!("the board after {n} moves"),
    };
    Finding::new(
        1,
        line,
        format!(
            "{}; it was played on {when}, {}",
            bad.what,
            grid4::render_inline(board, SYMBOLS)
        ),
    )
    .with_figures(vec![grid4::figure(
        format!("{when} (the cells the move names marked)"),
        board,
        SYMBOLS,
        bad.cells,
    )])
}
