//! The part of a semantic checker that does not depend on the puzzle: reading
//! a contestant's output token by token while keeping the canonical layout
//! of what was printed, turning a [`Finding`] into a [`CheckReport`], the
//! answer-file cross-check (an answer file that fails the same test is IE,
//! never WA) and strict mode (PE when the bytes differ from the canonical
//! layout).
//!
//! It knows no puzzle's rules: each puzzle supplies a `verify` function that
//! reads one whole output with [`Printed`] and says what is wrong with it.
//! [`judge`] words everything the same way for every puzzle; [`judge_with`]
//! takes [`Rules`] for a puzzle whose messages say more (Rotation's: the
//! answer file's findings told by [`Kind`], the case of a layout difference).

use super::reader::{Token, Tokens};
use super::{CheckReport, CheckRequest, Figure, FormatError};
use crate::text::whitespace::layout_difference;
use crate::verdict::Verdict;

/// The largest count of moves or turns a checker reads: every real answer
/// is far shorter, and the moves of a larger count would not fit in any
/// output limit.
pub const MAX_COUNT: u64 = 1_000_000_000;

/// What is wrong with an output: a Wrong Answer about the output (or, with
/// [`Finding::internal`], an error of the judge's own); [`judge`] turns it
/// into IE when the output was the answer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The case (1-based), or `None` for the output as a whole.
    pub case: Option<usize>,
    /// The output line the finding is about.
    pub line: Option<usize>,
    /// One line, testlib style.
    pub what: String,
    pub figures: Vec<Figure>,
    /// WA, or IE for a finding that shows a bug of the judge.
    pub verdict: Verdict,
    /// Which kind of finding, for [`AnswerWording::ByKind`].
    pub kind: Kind,
}

/// The kind of a [`Finding`]: what an answer file's IE message says when it
/// is worded [`AnswerWording::ByKind`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// The case was read and is wrong.
    #[default]
    Wrong,
    /// A token of the case is malformed, or the text ends inside the case.
    Malformed,
    /// The text ends before the case begins; `cases` in all.
    Missing { cases: usize },
    /// Text after the last case: `found` is the first token, quoted.
    Extra { found: String },
}

impl Finding {
    pub fn new(case: usize, line: usize, what: impl Into<String>) -> Self {
        Finding {
            case: Some(case),
            line: Some(line),
            what: what.into(),
            figures: Vec::new(),
            verdict: Verdict::WrongAnswer,
            kind: Kind::Wrong,
        }
    }

    pub fn with_figures(mut self, figures: Vec<Figure>) -> Self {
        self.figures = figures;
        self
    }

    /// The same finding, of kind `kind`.
    pub fn of_kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }

    /// The same finding as an internal error: the output shows a bug of the
    /// judge (it beats a bound the judge proved), not of the submission.
    pub fn internal(mut self) -> Self {
        self.verdict = Verdict::InternalError;
        self
    }

    fn into_report(self) -> CheckReport {
        let verdict = self.verdict;
        let report = match (self.case, self.line) {
            (Some(case), line) => CheckReport::about(verdict, case, line, &self.what),
            (None, Some(line)) => {
                CheckReport::general(verdict, format!("output line {line}: {}", self.what))
            }
            (None, None) => CheckReport::general(verdict, self.what),
        };
        report.with_figures(self.figures)
    }

    /// The IE message for this finding about the answer file.
    fn about_answer(&self, wording: AnswerWording) -> String {
        let what = &self.what;
        match wording {
            AnswerWording::ByLine => match (self.case, self.line) {
                (Some(case), Some(line)) => {
                    format!("answer file wrong for case {case} (answer line {line}): {what}")
                }
                (Some(case), None) => format!("answer file wrong for case {case}: {what}"),
                (None, Some(line)) => format!("answer file wrong (answer line {line}): {what}"),
                (None, None) => format!("answer file wrong: {what}"),
            },
            AnswerWording::ByKind => {
                let case = self.case.map(|c| format!(" case {c}")).unwrap_or_default();
                let line = self.line.map(|l| format!("line {l}"));
                match &self.kind {
                    Kind::Missing { cases } => {
                        let read = self.case.map_or(0, |c| c - 1);
                        let at = line.map(|l| format!(" ({l})")).unwrap_or_default();
                        format!("answer file ends after {read} of {cases} cases{at}")
                    }
                    Kind::Malformed => {
                        let at = line.map(|l| format!(", {l}")).unwrap_or_default();
                        format!("answer file malformed at{case}{at}: {what}")
                    }
                    Kind::Wrong => {
                        let at = line.map(|l| format!(" ({l})")).unwrap_or_default();
                        format!("answer file wrong for{case}{at}: {what}")
                    }
                    Kind::Extra { found } => {
                        let at = line.map(|l| format!(", {l}")).unwrap_or_default();
                        format!("answer file has text after the last case{at}: found {found}")
                    }
                }
            }
        }
    }
}

/// An output accepted by a puzzle's `verify`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// What was printed, in the canonical layout (see [`Printed::finish`]).
    pub canonical: Vec<u8>,
    /// A short summary for the AC message ("3 cases, all optimal").
    pub summary: String,
    /// The case each canonical line belongs to (the case its first token
    /// was read for), for [`Rules::layout_names_case`].
    pub line_cases: Vec<usize>,
}

impl Accepted {
    /// The case of canonical line `line` (1-based); a line past the end
    /// belongs to the last case. `None` when no case was printed.
    fn case_of_line(&self, line: usize) -> Option<usize> {
        let index = line.saturating_sub(1);
        self.line_cases
            .get(index)
            .or(self.line_cases.last())
            .copied()
    }
}

/// How an answer file's finding reads in the IE message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnswerWording {
    /// `answer file wrong for case 2 (answer line 4): …`, whatever the
    /// kind; the report names the case.
    #[default]
    ByLine,
    /// Told by the finding's [`Kind`]: `answer file ends after 1 of 2 cases
    /// (line 3)`, `answer file malformed at case 2, line 4: …`, `answer file
    /// wrong for case 2 (line 3): …`, `answer file has text after the last
    /// case, line 5: found "AC"`; the report names no case.
    ByKind,
}

/// How [`judge_with`] treats the answer file and a layout difference.
/// The default is [`judge`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The answer file is held to the lexicographic demand too, when the
    /// request makes it (by default it is only a cross-check of the optimum).
    pub answer_lexmin: bool,
    pub answer_wording: AnswerWording,
    /// A PE names the case of the canonical line where the layouts differ.
    pub layout_names_case: bool,
}

/// Which file a `verify` given to [`judge_with`] is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Output,
    Answer,
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
    line_cases: Vec<usize>,
    /// What the text is called at its end ("found the end of the output").
    noun: &'static str,
}

impl<'a> Printed<'a> {
    pub fn new(output: &'a [u8]) -> Self {
        Printed::called(output, "output")
    }

    /// A text whose end is called the end of the `noun` in findings.
    pub fn called(text: &'a [u8], noun: &'static str) -> Self {
        Printed {
            tokens: Tokens::new(text),
            canonical: Vec::new(),
            line_open: false,
            line_cases: Vec::new(),
            noun,
        }
    }

    /// The next token (written to the current canonical line), or a
    /// malformed finding "expected {what}, found the end of the output" for
    /// case `case`.
    pub fn next(&mut self, case: usize, what: &str) -> Result<Token<'a>, Finding> {
        let pos = self.tokens.pos();
        let Some(token) = self.tokens.next() else {
            let what = format!("expected {what}, found the end of the {}", self.noun);
            return Err(Finding::new(case, pos.line, what).of_kind(Kind::Malformed));
        };
        if self.line_open {
            self.canonical.push(b' ');
        } else {
            self.line_cases.push(case);
        }
        self.canonical.extend_from_slice(token.bytes);
        self.line_open = true;
        Ok(token)
    }

    /// Case `case` of `cases` begins here: a missing finding ("output ends
    /// after 2 of 5 cases") when only white space is left.
    pub fn begin_case(&mut self, case: usize, cases: usize) -> Result<(), Finding> {
        if !self.tokens.at_end() {
            return Ok(());
        }
        let line = self.tokens.pos().line;
        let what = format!("{} ends after {} of {cases} cases", self.noun, case - 1);
        Err(Finding::new(case, line, what).of_kind(Kind::Missing { cases }))
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
            let found = token.quoted();
            return Err(Finding {
                case: None,
                line: Some(token.pos.line),
                what: format!("extra output {after}: found {found}"),
                figures: Vec::new(),
                verdict: Verdict::WrongAnswer,
                kind: Kind::Extra { found },
            });
        }
        if self.line_open {
            self.end_line();
        }
        Ok(Accepted {
            canonical: self.canonical,
            summary,
            line_cases: self.line_cases,
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
    judge_with(request, Rules::default(), |text, lexmin, _| {
        verify(text, lexmin)
    })
}

/// [`judge`] under `rules`, with `verify(text, lexmin, source)` told which
/// file it reads.
pub fn judge_with(
    request: &CheckRequest<'_>,
    rules: Rules,
    verify: impl Fn(&[u8], bool, Source) -> Result<Accepted, Finding>,
) -> CheckReport {
    if let Some(answer) = request.answer
        && let Err(f) = verify(
            answer,
            rules.answer_lexmin && request.lexmin,
            Source::Answer,
        )
    {
        let message = f.about_answer(rules.answer_wording);
        let mut report = CheckReport::general(Verdict::InternalError, message);
        if rules.answer_wording == AnswerWording::ByLine {
            report.case = f.case;
        }
        return report;
    }
    match verify(request.output, request.lexmin, Source::Output) {
        Err(f) => f.into_report(),
        Ok(accepted) => {
            if request.strict
                && let Some(diff) = layout_difference(&accepted.canonical, request.output)
            {
                let mut report = CheckReport::general(Verdict::PresentationError, diff.to_string());
                if rules.layout_names_case {
                    report.case = accepted.case_of_line(diff.line);
                }
                return report;
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

    /// The toy format read case by case, each case begun with `begin_case`.
    fn verify_cases(output: &[u8], n: usize, source: Source) -> Result<Accepted, Finding> {
        let noun = match source {
            Source::Output => "output",
            Source::Answer => "file",
        };
        let mut printed = Printed::called(output, noun);
        for case in 1..=n {
            printed.begin_case(case, n)?;
            let token = printed.next(case, "a 1")?;
            if !token.is("1") {
                let what = format!("found {}", token.quoted());
                return Err(Finding::new(case, token.pos.line, what));
            }
            printed.end_line();
        }
        printed.finish("after the last case", format!("{n} ones"))
    }

    #[test]
    fn rules_word_the_answer_file_by_kind_and_name_the_case_of_a_layout() {
        let rules = Rules {
            answer_lexmin: true,
            answer_wording: AnswerWording::ByKind,
            layout_names_case: true,
        };
        let v = |output: &[u8], answer: Option<&[u8]>| {
            judge_with(&request(output, answer, true), rules, |o, _, source| {
                verify_cases(o, 2, source)
            })
        };
        let ie = |answer: &[u8]| {
            let report = v(b"1\n1\n", Some(answer));
            assert_eq!(report.verdict, Verdict::InternalError);
            assert_eq!(report.case, None);
            report.message
        };
        assert_eq!(ie(b"1\n"), "answer file ends after 1 of 2 cases (line 2)");
        assert_eq!(
            ie(b"1\n2\n"),
            "answer file wrong for case 2 (line 2): found \"2\""
        );
        assert_eq!(
            ie(b"1\n1\n1\n"),
            "answer file has text after the last case, line 3: found \"1\""
        );
        let missing = v(b"1\n", None);
        assert_eq!(
            missing.message,
            "case 2, output line 2: output ends after 1 of 2 cases"
        );
        let pe = v(b"1\n1 \n", None);
        assert_eq!(pe.verdict, Verdict::PresentationError);
        assert_eq!(pe.case, Some(2));
        assert_eq!(v(b"1\n1\n\n", None).case, Some(2), "a line past the end");
    }

    #[test]
    fn an_end_inside_a_case_is_malformed_and_named_by_the_noun() {
        let mut p = Printed::called(b"", "file");
        let f = p.next(1, "a 1").unwrap_err();
        assert_eq!(f.kind, Kind::Malformed);
        assert_eq!(f.what, "expected a 1, found the end of the file");
        assert_eq!(
            f.about_answer(AnswerWording::ByKind),
            "answer file malformed at case 1, line 1: expected a 1, found the end of the file"
        );
    }
}
