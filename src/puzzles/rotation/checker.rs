//! The semantic checker: replays a contestant's moves on every case and
//! proves them shortest (and, where asked, the smallest of the shortest)
//! against the pattern database, never against the answer file alone.
//!
//! The output is read as white-space separated tokens (CR counts as white
//! space; `No moves needed` is three tokens), case by case, keeping each
//! token's line for the message. Findings, in the order they are looked for:
//! a malformed token; `No moves needed` when moves are needed or moves when
//! none are; moves that leave the centre mixed; a wrong centre digit; a
//! sequence longer than the optimum; a shortest one that is not the
//! smallest (when `lexmin`). Each of these carries figures of the board
//! before and after the moves (one board for `No moves needed`); missing
//! cases; output after the last case. Each is WA naming the case and the
//! output line. In strict mode an accepted output must also be laid out
//! exactly as the reference prints it, else PE.
//!
//! An answer file, when given, is read the same way and judged by the same
//! rules; if it fails them the data is wrong, and the verdict is IE. The
//! reading, the canonical layout, the answer file's cross-check and strict
//! mode are `puzzles/finding.rs`'s, under Rotation's `RULES`. Nothing here
//! copies a token or does more than linear work in the output's size.

use super::board::{Board, Move, letters};
use super::input::read_boards;
use super::pdb::pdb;
use super::search::{Solution, table_solution};
use crate::puzzles::finding::{
    self, Accepted, AnswerWording, Finding, Kind, Printed, Rules, Source,
};
use crate::puzzles::reader::{Token, quote};
use crate::puzzles::{CheckReport, CheckRequest, Figure};
use crate::verdict::Verdict;

/// What one case of an output file says.
struct Case<'a> {
    /// The letters, empty for `No moves needed`.
    moves: &'a [u8],
    moves_line: usize,
    digit: u8,
    digit_line: usize,
}

/// How Rotation's findings read: the answer file held to `lexmin` too, its
/// findings told by kind, a layout difference naming its case.
const RULES: Rules = Rules {
    answer_lexmin: true,
    answer_wording: AnswerWording::ByKind,
    layout_names_case: true,
};

const NONE_NEEDED: [&str; 3] = ["No", "moves", "needed"];

/// Read case `case` of `cases`.
fn read_case<'a>(
    printed: &mut Printed<'a>,
    case: usize,
    cases: usize,
) -> Result<Case<'a>, Finding> {
    printed.begin_case(case, cases)?;
    let first = printed.next(case, "moves A..H or \"No moves needed\"")?;
    let moves: &[u8] = if first.is(NONE_NEEDED[0]) {
        for word in &NONE_NEEDED[1..] {
            let expected = format!("{word:?} (as in \"No moves needed\")");
            let token = printed.next(case, &expected)?;
            if !token.is(word) {
                return Err(bad(case, &token, &format!("expected {expected}")));
            }
        }
        &[]
    } else {
        if let Some(at) = first
            .bytes
            .iter()
            .position(|&b| Move::from_letter(b).is_none())
        {
            let detail = if first.bytes.len() == 1 {
                String::new()
            } else {
                format!(
                    " (character {}, {}, is not a move)",
                    at + 1,
                    quote(&first.bytes[at..=at])
                )
            };
            return Err(bad(
                case,
                &first,
                &format!("expected moves A..H or \"No moves needed\"{detail}"),
            ));
        }
        first.bytes
    };
    printed.end_line();
    let digit = printed.next(case, "the centre digit")?;
    let value = match digit.bytes {
        [d @ b'1'..=b'3'] => d - b'0',
        _ => return Err(bad(case, &digit, "expected the centre digit 1, 2 or 3")),
    };
    printed.end_line();
    Ok(Case {
        moves,
        moves_line: first.pos.line,
        digit: value,
        digit_line: digit.pos.line,
    })
}

/// A malformed token of case `case`.
fn bad(case: usize, token: &Token<'_>, expected: &str) -> Finding {
    let what = format!("found {}, {expected}", token.quoted());
    Finding::new(case, token.pos.line, what).of_kind(Kind::Malformed)
}

/// Letters for a title or message, cut if long.
fn shown(moves: &[u8]) -> String {
    const MAX: usize = 24;
    if moves.len() <= MAX {
        String::from_utf8_lossy(moves).into_owned()
    } else {
        format!(
            "{}… ({} moves)",
            String::from_utf8_lossy(&moves[..MAX]),
            moves.len()
        )
    }
}

fn centre_text(board: &Board) -> String {
    let digits: Vec<String> = board.centre().iter().map(u8::to_string).collect();
    digits.join(" ")
}

/// The figure of `board`, its title naming case `case`.
fn figure(board: &Board, case: usize, title: impl std::fmt::Display) -> Figure {
    board.figure(format!("{title} (case {case})"))
}

/// Judge case `case`, read, against the proven optimum.
fn judge_case(
    board: &Board,
    best: &Solution,
    case: usize,
    printed: &Case<'_>,
    lexmin: bool,
) -> Result<(), Finding> {
    let optimum = best.moves.len();
    let count = printed.moves.len();
    let line = printed.moves_line;
    if count == 0 && optimum > 0 {
        let what = format!(
            "found \"No moves needed\", but the centre holds {}; the optimum is {optimum} moves",
            centre_text(board)
        );
        let figures = vec![figure(board, case, "the board, centre not uniform")];
        return Err(Finding::new(case, line, what).with_figures(figures));
    }
    let mut end = *board;
    for &letter in printed.moves {
        if let Some(m) = Move::from_letter(letter) {
            end.apply(m);
        }
    }
    // Every finding from here on is about legal moves: it shows the board
    // before them and after them.
    let wrong = |line: usize, what: String| {
        let after = format!("the board after {}", shown(printed.moves));
        let figures = vec![
            figure(board, case, "the board before the moves"),
            figure(&end, case, after),
        ];
        Finding::new(case, line, what).with_figures(figures)
    };
    if count > 0 && optimum == 0 {
        return Err(wrong(
            line,
            format!(
                "found {count} moves {}, but no moves are needed: the centre already holds {}",
                quote(printed.moves),
                best.digit
            ),
        ));
    }
    let Some(reached) = end.centre_digit() else {
        return Err(wrong(
            line,
            format!(
                "the centre is not uniform after {}: it holds {}",
                quote(printed.moves),
                centre_text(&end)
            ),
        ));
    };
    if printed.digit != reached {
        return Err(wrong(
            printed.digit_line,
            format!(
                "wrong centre digit: expected {reached}, found {}",
                printed.digit
            ),
        ));
    }
    if count > optimum {
        return Err(wrong(line, format!("{count} moves, optimum is {optimum}")));
    }
    if count < optimum {
        let what = format!(
            "{count} moves reach the goal but the table says {optimum}: a bug of the judge"
        );
        return Err(Finding::new(case, line, what).internal());
    }
    let smallest = letters(&best.moves);
    if lexmin && printed.moves != smallest.as_bytes() {
        // Same length, different letters: there is a first difference.
        let (at, found, want) = printed
            .moves
            .iter()
            .zip(smallest.bytes())
            .enumerate()
            .find(|(_, (a, b))| **a != *b)
            .map(|(i, (&a, b))| (i, char::from(a), char::from(b)))
            .unwrap_or((0, '?', '?'));
        return Err(wrong(
            line,
            format!(
                "not the smallest of the shortest answers: position {}: found {}, smallest is {}; expected {smallest}",
                at + 1,
                found,
                want,
            ),
        ));
    }
    Ok(())
}

/// The whole check (see the module doc).
pub fn check(request: &CheckRequest<'_>) -> CheckReport {
    let boards = match read_boards(request.input) {
        Ok(boards) => boards,
        Err(e) => return CheckReport::general(Verdict::InternalError, format!("input file: {e}")),
    };
    let table = pdb();
    let best: Vec<Solution> = boards.iter().map(|b| table_solution(table, b)).collect();
    finding::judge_with(request, RULES, |text, lexmin, source| {
        verify(text, source, &boards, &best, lexmin)
    })
}

/// Read and judge a whole output (or answer file, `source`) case by case.
fn verify(
    text: &[u8],
    source: Source,
    boards: &[Board],
    best: &[Solution],
    lexmin: bool,
) -> Result<Accepted, Finding> {
    let noun = match source {
        Source::Output => "output",
        Source::Answer => "file",
    };
    let mut printed = Printed::called(text, noun);
    let n = boards.len();
    for (i, (board, best)) in boards.iter().zip(best).enumerate() {
        let case = i + 1;
        let read = read_case(&mut printed, case, n)?;
        judge_case(board, best, case, &read, lexmin)?;
    }
    let what = if lexmin {
        "shortest and smallest"
    } else {
        "shortest"
    };
    let summary = match n {
        0 => "no cases (the input holds only the terminator)".to_string(),
        1 => format!("1 case, {what}"),
        _ => format!("{n} cases, all {what}"),
    };
    printed.finish(&format!("after the last case ({n} cases)"), summary)
}
