//! The part of a semantic checker that does not depend on the puzzle: reading
//! a contestant's output token by token while keeping the canonical layout
//! of what was printed, turning a [`Finding`] into a [`CheckReport`], the
//! answer-file cross-check (an answer file that fails the same test is IE,
//! never WA) and strict mode (PE when the bytes differ from the canonical
//! layout).
//!
//! It knows no puzzle's rules: each puzzle supplies a `verify` function that
//! reads one whole output with [`Printed`] and says what is wrong with it.

use super::reader::{Token, Tokens};
use super::{CheckReport, CheckRequest, Figure, FormatError};
use crate::text::whitespace::layout_difference;
use crate::verdict::Verdict;

/// The largest count of moves or turns a checker reads: every real answer
/// is far shorter, and the moves of a larger count would not fit in any
/// output limit.
pub const MAX_COUNT: u64 = 1_000_000_000;

/// What is wrong with an output (always a Wrong Answer about the output;
/// [`judge`] turns it into IE when the output was the answer file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The case (1-based), or `None` for the output as a whole.
    pub case: Option<usize>,
    /// The output line the finding is about.
    pub line: Option<usize>,
    /// One line, testlib style.
    pub what: String,
    pub figures: Vec<Figure>,
}

impl Finding {
    pub fn new(case: usize, line: usize, what: impl Into<String>) -> Self {
        Finding {
            case: Some(case),
            line: Some(line),
            what: what.into(),
            figures: Vec::new(),
        }
    }

    pub fn with_figures(mut self, figures: Vec<Figure>) -> Self {
        self.figures = figures;
        self
    }

    fn into_report(self, verdict: Verdict) -> CheckReport {
        let report = match (self.case, self.line) {
            (Some(case), line) => CheckReport::about(verdict, case, line, &self.what),
            (None, Some(line)) => {
                CheckReport::general(verdict, format!("output line {line}: {}", self.what))
            }
            (None, None) => CheckReport::general(verdict, self.what),
        };
        report.with_figures(self.figures)
    }
}

/// An output accepted by a puzzle's `verify`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// What was printed, in the canonical layout (see [`Printed::finish`]).
    pub canonical: Vec<u8>,
    /// A short summary for the AC message ("3 cases, all optimal").
    pub summary: String,
}

/// A contestant's output, read leniently: any white space separates tokens
/// and only the line numbers are kept, for messages. As it is read it is
/// also written down again in the canonical layout: the tokens of each
/// output line joined by one space, each line ended by `\n`. Strict mode
/// compares that with the bytes printed.
pub struct Printed<'a> {
    tokens: Tokens<'a>,
    canonical: Vec<u8>,
    line_open: bool,
}

impl<'a> Printed<'a> {
    pub fn new(output: &'a [u8]) -> Self {
        Printed {
            tokens: Tokens::new(output),
            canonical: Vec::new(),
            line_open: false,
        }
    }

    /// The next token (written to the current canonical line), or a finding
    /// "expected {what}, found the end of the output" for case `case`.
    pub fn next(&mut self, case: usize, what: &str) -> Result<Token<'a>, Finding> {
        let pos = self.tokens.pos();
        let Some(token) = self.tokens.next() else {
            return Err(Finding::new(
                case,
                pos.line,
                format!("expected {what}, found the end of the output"),
            ));
        };
        if self.line_open {
            self.canonical.push(b' ');
        }
        self.canonical.extend_from_slice(token.bytes);
        self.line_open = true;
        Ok(token)
    }

    /// The next token without reading it.
    pub fn peek(&mut self) -> Option<Token<'a>> {
        self.tokens.peek()
    }

    /// The token `n` places ahead (0: the next one), without reading it.
    pub fn peek_at(&mut self, n: usize) -> Option<Token<'a>> {
        self.tokens.clone().nth(n)
    }

    /// End the current canonical line: the format puts a line break here.
    pub fn end_line(&mut self) {
        self.canonical.push(b'\n');
        self.line_open = false;
    }

    /// Everything has been read: anything but white space left is extra
    /// output (`after` says after what: "after the last case").
    pub fn finish(mut self, after: &str, summary: String) -> Result<Accepted, Finding> {
        if let Some(token) = self.tokens.next() {
            return Err(Finding {
                case: None,
                line: Some(token.pos.line),
                what: format!("extra output {after}: found {}", token.quoted()),
                figures: Vec::new(),
            });
        }
        if self.line_open {
            self.end_line();
        }
        Ok(Accepted {
            canonical: self.canonical,
            summary,
        })
    }
}

/// IE for an input the checker cannot read: the data is wrong, not the
/// submission.
pub fn bad_input(puzzle: &str, error: &FormatError) -> CheckReport {
    CheckReport::general(
        Verdict::InternalError,
        format!("the input is not a valid {puzzle} case file: {error}"),
    )
}

/// The verdict for a request, given the puzzle's `verify(output, lexmin)`.
///
/// The answer file, when given, must itself pass `verify` (without the
/// lexicographic demand: it is only a cross-check of the proven optimum, and
/// any shortest answer is a correct one); if it does not, the verdict is IE
/// whatever the contestant printed. Then the output: a finding is WA; an
/// accepted output is PE in strict mode when its bytes differ from its
/// canonical layout, AC otherwise.
pub fn judge(
    request: &CheckRequest<'_>,
    verify: impl Fn(&[u8], bool) -> Result<Accepted, Finding>,
) -> CheckReport {
    if let Some(answer) = request.answer
        && let Err(f) = verify(answer, false)
    {
        let message = match (f.case, f.line) {
            (Some(case), Some(line)) => format!(
                "answer file wrong for case {case} (answer line {line}): {}",
                f.what
            ),
            (Some(case), None) => format!("answer file wrong for case {case}: {}", f.what),
            (None, Some(line)) => format!("answer file wrong (answer line {line}): {}", f.what),
            (None, None) => format!("answer file wrong: {}", f.what),
        };
        let mut report = CheckReport::general(Verdict::InternalError, message);
        report.case = f.case;
        return report;
    }
    match verify(request.output, request.lexmin) {
        Err(f) => f.into_report(Verdict::WrongAnswer),
        Ok(accepted) => {
            if request.strict
                && let Some(diff) = layout_difference(&accepted.canonical, request.output)
            {
                return CheckReport::general(Verdict::PresentationError, diff.to_string());
            }
            CheckReport::accepted(accepted.summary)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy format: one number per line, `n` lines; wrong when a token is not `1`.
    fn verify(output: &[u8], n: usize) -> Result<Accepted, Finding> {
        let mut printed = Printed::new(output);
        for case in 1..=n {
            let token = printed.next(case, "a 1")?;
            if !token.is("1") {
                return Err(Finding::new(
                    case,
                    token.pos.line,
                    format!("found {}", token.quoted()),
                ));
            }
            printed.end_line();
        }
        printed.finish("after the last case", format!("{n} ones"))
    }

    fn request<'a>(output: &'a [u8], answer: Option<&'a [u8]>, strict: bool) -> CheckRequest<'a> {
        CheckRequest {
            input: b"",
            output,
            answer,
            lexmin: false,
            strict,
        }
    }

    #[test]
    fn canonical_layout_joins_line_tokens() {
        let mut p = Printed::new(b" a  b\r\n\nc");
        p.next(1, "x").unwrap();
        p.next(1, "x").unwrap();
        p.end_line();
        p.next(1, "x").unwrap();
        let done = p.finish("after", String::new()).unwrap();
        assert_eq!(done.canonical, b"a b\nc\n");
    }

    #[test]
    fn verdicts_from_findings() {
        let v = |r: CheckRequest<'_>| judge(&r, |o, _| verify(o, 2));
        assert_eq!(v(request(b"1\n1\n", None, true)).verdict, Verdict::Accepted);
        let pe = v(request(b"1 \n1\n", None, true));
        assert_eq!(pe.verdict, Verdict::PresentationError);
        assert!(
            pe.message.contains("white space differs on line 1"),
            "{}",
            pe.message
        );
        assert_eq!(
            v(request(b"1 \n1\n", None, false)).verdict,
            Verdict::Accepted
        );
        let wa = v(request(b"1\n", None, false));
        assert_eq!(
            wa.message,
            "case 2, output line 2: expected a 1, found the end of the output"
        );
        let extra = v(request(b"1\n1\n1\n", None, false));
        assert_eq!(
            extra.message,
            "output line 3: extra output after the last case: found \"1\""
        );
        let ie = v(request(b"2\n", Some(b"1\n2\n"), false));
        assert_eq!(ie.verdict, Verdict::InternalError);
        assert_eq!(
            ie.message,
            "answer file wrong for case 2 (answer line 2): found \"2\""
        );
        assert_eq!(ie.case, Some(2));
    }
}
