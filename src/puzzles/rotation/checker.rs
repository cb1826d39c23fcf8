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
//! rules; if it fails them the data is wrong, and the verdict is IE. Nothing
//! here copies a token or does more than linear work in the output's size.

use super::board::{Board, Move, letters};
use super::input::read_boards;
use super::pdb::pdb;
use super::search::{Solution, table_solution};
use crate::puzzles::reader::{Pos, Token, Tokens, quote};
use crate::puzzles::{CheckReport, CheckRequest, Figure};
use crate::text::whitespace::layout_difference;
use crate::verdict::Verdict;

/// What one case of an output file says.
struct Printed<'a> {
    /// The letters, empty for `No moves needed`.
    moves: &'a [u8],
    moves_line: usize,
    digit: u8,
    digit_line: usize,
}

/// Why a case's output could not be read.
enum Unreadable {
    /// The file ended before the case began.
    Missing(Pos),
    /// The file ended inside the case, or a token is malformed.
    Bad(Pos, String),
}

/// A case that was read but is wrong.
struct Finding {
    verdict: Verdict,
    line: usize,
    message: String,
    figures: Vec<Figure>,
}

impl Finding {
    fn wrong(line: usize, message: String) -> Finding {
        Finding {
            verdict: Verdict::WrongAnswer,
            line,
            message,
            figures: Vec::new(),
        }
    }
}

const NONE_NEEDED: [&str; 3] = ["No", "moves", "needed"];

fn read_case<'a>(tokens: &mut Tokens<'a>, file: &str) -> Result<Printed<'a>, Unreadable> {
    let first = tokens
        .next()
        .ok_or_else(|| Unreadable::Missing(tokens.pos()))?;
    let moves: &[u8] = if first.is(NONE_NEEDED[0]) {
        for word in &NONE_NEEDED[1..] {
            let token = next_token(
                tokens,
                file,
                &format!("{word:?} (as in \"No moves needed\")"),
            )?;
            if !token.is(word) {
                return Err(bad(
                    &token,
                    &format!("expected {word:?} (as in \"No moves needed\")"),
                ));
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
                &first,
                &format!("expected moves A..H or \"No moves needed\"{detail}"),
            ));
        }
        first.bytes
    };
    let digit = next_token(tokens, file, "the centre digit")?;
    let value = match digit.bytes {
        [d @ b'1'..=b'3'] => d - b'0',
        _ => return Err(bad(&digit, "expected the centre digit 1, 2 or 3")),
    };
    Ok(Printed {
        moves,
        moves_line: first.pos.line,
        digit: value,
        digit_line: digit.pos.line,
    })
}

/// The next token; `file` names what is read (`output`, `file`) for the
/// message at its end.
fn next_token<'a>(
    tokens: &mut Tokens<'a>,
    file: &str,
    what: &str,
) -> Result<Token<'a>, Unreadable> {
    let pos = tokens.pos();
    tokens.next().ok_or_else(|| {
        Unreadable::Bad(pos, format!("expected {what}, found the end of the {file}"))
    })
}

fn bad(token: &Token<'_>, expected: &str) -> Unreadable {
    Unreadable::Bad(token.pos, format!("found {}, {expected}", token.quoted()))
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

/// Judge one readable case against the proven optimum.
fn judge_case(
    board: &Board,
    best: &Solution,
    printed: &Printed<'_>,
    lexmin: bool,
) -> Result<(), Finding> {
    let optimum = best.moves.len();
    let count = printed.moves.len();
    let line = printed.moves_line;
    if count == 0 && optimum > 0 {
        return Err(Finding {
            figures: vec![board.figure("the board, centre not uniform")],
            ..Finding::wrong(
                line,
                format!(
                    "found \"No moves needed\", but the centre holds {}; the optimum is {optimum} moves",
                    centre_text(board)
                ),
            )
        });
    }
    let mut end = *board;
    for &letter in printed.moves {
        if let Some(m) = Move::from_letter(letter) {
            end.apply(m);
        }
    }
    // Every finding from here on is about legal moves: it shows the board
    // before them and after them.
    let boards = || {
        vec![
            board.figure("the board before the moves"),
            end.figure(format!("the board after {}", shown(printed.moves))),
        ]
    };
    let wrong = |line: usize, message: String| Finding {
        figures: boards(),
        ..Finding::wrong(line, message)
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
        return Err(Finding {
            verdict: Verdict::InternalError,
            ..Finding::wrong(
                line,
                format!(
                    "{count} moves reach the goal but the table says {optimum}: a bug of the judge"
                ),
            )
        });
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
    if let Some(answer) = request.answer
        && let Err(message) = check_answer_file(answer, &boards, &best, request.lexmin)
    {
        return CheckReport::general(Verdict::InternalError, message);
    }

    let n = boards.len();
    let mut tokens = Tokens::new(request.output);
    let mut canonical = Vec::new();
    for (i, (board, best)) in boards.iter().zip(&best).enumerate() {
        let case = i + 1;
        let printed = match read_case(&mut tokens, "output") {
            Ok(printed) => printed,
            Err(Unreadable::Missing(pos)) => {
                return CheckReport::about(
                    Verdict::WrongAnswer,
                    case,
                    Some(pos.line),
                    format!("output ends after {i} of {n} cases"),
                );
            }
            Err(Unreadable::Bad(pos, message)) => {
                return CheckReport::about(Verdict::WrongAnswer, case, Some(pos.line), message);
            }
        };
        if let Err(f) = judge_case(board, best, &printed, request.lexmin) {
            let figures = f
                .figures
                .into_iter()
                .map(|fig| Figure {
                    title: format!("{} (case {case})", fig.title),
                    ..fig
                })
                .collect();
            return CheckReport::about(f.verdict, case, Some(f.line), f.message)
                .with_figures(figures);
        }
        if printed.moves.is_empty() {
            canonical.extend_from_slice(b"No moves needed");
        } else {
            canonical.extend_from_slice(printed.moves);
        }
        canonical.extend_from_slice(format!("\n{}\n", printed.digit).as_bytes());
    }
    if let Some(extra) = tokens.next() {
        return CheckReport::general(
            Verdict::WrongAnswer,
            format!(
                "output line {}: extra output after the last case ({n} cases): found {}",
                extra.pos.line,
                extra.quoted()
            ),
        );
    }
    if request.strict
        && let Some(diff) = layout_difference(&canonical, request.output)
    {
        let case = (diff.line.div_ceil(2)).clamp(1, n.max(1));
        let mut report = CheckReport::general(Verdict::PresentationError, diff.to_string());
        report.case = (n > 0).then_some(case);
        return report;
    }
    let what = if request.lexmin {
        "shortest and smallest"
    } else {
        "shortest"
    };
    CheckReport::accepted(match n {
        0 => "no cases (the input holds only the terminator)".to_string(),
        1 => format!("1 case, {what}"),
        _ => format!("{n} cases, all {what}"),
    })
}

/// Read and judge the answer file; the error is the IE message.
fn check_answer_file(
    answer: &[u8],
    boards: &[Board],
    best: &[Solution],
    lexmin: bool,
) -> Result<(), String> {
    let mut tokens = Tokens::new(answer);
    for (i, (board, best)) in boards.iter().zip(best).enumerate() {
        let case = i + 1;
        let printed = match read_case(&mut tokens, "file") {
            Ok(printed) => printed,
            Err(Unreadable::Missing(pos)) => {
                return Err(format!(
                    "answer file ends after {i} of {} cases (line {})",
                    boards.len(),
                    pos.line
                ));
            }
            Err(Unreadable::Bad(pos, message)) => {
                return Err(format!(
                    "answer file malformed at case {case}, line {}: {message}",
                    pos.line
                ));
            }
        };
        if let Err(f) = judge_case(board, best, &printed, lexmin) {
            return Err(format!(
                "answer file wrong for case {case} (line {}): {}",
                f.line, f.message
            ));
        }
    }
    match tokens.next() {
        Some(extra) => Err(format!(
            "answer file has text after the last case, line {}: found {}",
            extra.pos.line,
            extra.quoted()
        )),
        None => Ok(()),
    }
}
