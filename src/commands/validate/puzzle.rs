//! A built-in puzzle's files: every input read by the puzzle's validator,
//! every answer proven by its checker and compared with the reference
//! solver's output.

use super::Tally;
use crate::cases::Case;
use crate::config::Problem;
use crate::puzzles::{CheckRequest, Puzzle, SolveOptions};
use crate::verdict::Verdict;

/// The built-in puzzle's validator, checker and reference solver.
pub(super) fn validate_puzzle(
    problem: &Problem,
    puzzle: &'static dyn Puzzle,
    cases: &[Case],
    tally: &mut Tally,
) {
    for case in cases {
        let Some(input) = tally.read(&case.input) else {
            continue;
        };
        if let Err(e) = puzzle.validate(&input) {
            tally.error(e.with_path(&case.input).to_string());
            continue;
        }
        let Some(answer_path) = &case.answer else {
            continue;
        };
        let Some(answer) = tally.read(answer_path) else {
            continue;
        };
        // The answer file stands in for a contestant's output: the
        // checker proves it right or says what is wrong with it.
        let report = puzzle.check(&CheckRequest {
            input: &input,
            output: &answer,
            answer: None,
            lexmin: problem.lexmin,
            strict: false,
        });
        if report.verdict != Verdict::Accepted {
            tally.error(format!(
                "{}: wrong answer file: {}",
                answer_path.display(),
                report.message
            ));
            continue;
        }
        if let Ok(reference) = puzzle.solve(&input, &SolveOptions::default())
            && reference != answer
        {
            tally.warn(format!(
                "{}: {}",
                answer_path.display(),
                reference_difference(&reference, &answer)
            ));
        }
    }
}

/// Why an answer file the checker accepted is not the reference output
/// byte for byte: another correct answer (its tokens differ: the first line
/// that differs, both shown), or the same answer laid out differently.
fn reference_difference(reference: &[u8], answer: &[u8]) -> String {
    use crate::puzzles::reader::Tokens;
    use crate::text::whitespace::{layout_difference, visible_cut};
    let same_tokens = Tokens::new(reference)
        .map(|t| t.bytes)
        .eq(Tokens::new(answer).map(|t| t.bytes));
    if same_tokens {
        let what = match layout_difference(reference, answer) {
            Some(d) => d.to_string(),
            None => "it differs from the reference output".to_string(),
        };
        return format!("correct, but not byte for byte the reference output: {what}");
    }
    let mut reference_lines = reference.split(|&b| b == b'\n');
    let mut answer_lines = answer.split(|&b| b == b'\n');
    fn tokens(line: Option<&[u8]>) -> Vec<&[u8]> {
        line.map(|l| Tokens::new(l).map(|t| t.bytes).collect())
            .unwrap_or_default()
    }
    let shown = |line: Option<&[u8]>| match line {
        Some(line) => format!("\"{}\"", visible_cut(line.trim_ascii_end(), 60)),
        None => "nothing (the file has ended)".to_string(),
    };
    for number in 1.. {
        let (r, a) = (reference_lines.next(), answer_lines.next());
        if r.is_none() && a.is_none() {
            break;
        }
        if tokens(r) != tokens(a) {
            return format!(
                "the answer file is a correct answer but not the reference's: line {number} is {}, the reference prints {}",
                shown(a),
                shown(r)
            );
        }
    }
    // Unreachable: equal tokens on every line are equal tokens.
    "the answer file is a correct answer but not the reference's: its tokens differ".to_string()
}

#[cfg(test)]
mod tests {
    use super::reference_difference;

    #[test]
    fn another_correct_answer_is_named_as_such() {
        let what = reference_difference(b"4\n1222\n1424\n", b"4\n1424\n1222\n");
        assert_eq!(
            what,
            "the answer file is a correct answer but not the reference's: line 2 is \"1424\", the reference prints \"1222\""
        );
        assert!(!what.contains("white space"), "{what}");
        // Pilots' turns: tokens, not the spaces between them.
        let what = reference_difference(b"1\n1 1\n", b"1\n4  4\n");
        assert!(
            what.contains("line 2 is \"4··4\", the reference prints \"1·1\""),
            "{what}"
        );
        // An extra token on a line that the reference has not.
        let what = reference_difference(b"1\n2\n", b"1\n");
        assert!(
            what.contains("line 2 is \"\", the reference prints \"2\""),
            "{what}"
        );
    }

    #[test]
    fn the_same_tokens_laid_out_otherwise_is_white_space() {
        let what = reference_difference(b"1\n1 1\n", b"1\n1  1\n");
        assert_eq!(
            what,
            "correct, but not byte for byte the reference output: white space differs on line 2: expected \"1·1\", found \"1··1\""
        );
    }
}
