//! JUnit XML (quick-junit): one test suite per problem (and program), one
//! test case per case; a non-AC verdict is a failure (WA, PE) or an error (everything
//! else), with the message, the diff and the stderr tail. A scoring
//! problem's suite carries `score`, `max_score` and `score.GROUP`
//! properties, and each case its `score`.
//!
//! `judge verify`'s document is another one: there a test case is a
//! *submission*, and it passes when the submission got what it is
//! expected to get (a WA submission that got WA passes), fails when it did
//! not (or could not run and that fails the verification), and is skipped
//! when `--allow-missing` let it pass unrun; one suite per problem. Its
//! system-out has the details: the expectation, the verdict counts, the
//! reason, and the first cases that were not AC (at most
//! [`SHOWN_CASES`]). A passing verify is a green JUnit: the counts of
//! failures and errors are those of disagreeing submissions.
//!
//! Streamed: the test cases are serialized as they settle, a few hundred
//! at a time, into an anonymous spool file; when the run ends the
//! document is written with each suite's counts and properties (known only
//! then) and the spooled cases copied into place. Memory stays flat
//! however many cases the run has.

use crate::judge::{CaseResult, Event, Report, Reporter};
use crate::text::format::number;
use crate::verdict::Verdict;
use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};
use std::io::{Read, Seek, SeekFrom, Write};
use std::time::Duration;

/// Cases serialized together into the spool.
const CHUNK: usize = 256;
/// The name of the stand-in test case whose place the spooled cases take.
/// The document it is looked for in holds no real case (those are in the
/// spool), so no case name can be taken for it.
const MARKER: &str = "<testcase name=\"judge-spooled-cases\"";

/// The cases of a program a verify test case's system-out names.
const SHOWN_CASES: usize = 20;

/// The whole JUnit document of a finished report (`judge merge`, tests):
/// the same bytes the streaming reporter writes.
pub fn to_bytes(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut writer = JunitReporter::new(Box::new(&mut out));
    for case in &report.cases {
        writer.case(case)?;
    }
    writer.finish(report)?;
    drop(writer);
    Ok(out)
}

/// A suite's counts and where its cases are in the spool.
struct Suite {
    name: String,
    problem: String,
    program: Option<String>,
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    start: u64,
    end: u64,
    /// Its first cases that were not AC, as verify's system-out lists
    /// them (bounded), and how many there were.
    not_accepted: Vec<String>,
    not_accepted_count: usize,
}

/// Writes the JUnit XML: cases spooled as they settle, the document when
/// the run finishes.
pub struct JunitReporter<'w> {
    sink: Box<dyn Write + 'w>,
    spool: Option<std::io::BufWriter<std::fs::File>>,
    written: u64,
    suites: Vec<Suite>,
    chunk: Vec<TestCase>,
}

impl<'w> JunitReporter<'w> {
    pub fn new(sink: Box<dyn Write + 'w>) -> Self {
        JunitReporter {
            sink,
            spool: None,
            written: 0,
            suites: Vec::new(),
            chunk: Vec::new(),
        }
    }

    fn case(&mut self, case: &CaseResult) -> std::io::Result<()> {
        let name = match &case.program {
            Some(p) => format!("{} [{p}]", case.problem),
            None => case.problem.clone(),
        };
        if self.suites.last().is_none_or(|s| s.name != name) {
            self.spill()?;
            self.suites.push(Suite {
                name,
                problem: case.problem.clone(),
                program: case.program.clone(),
                tests: 0,
                failures: 0,
                errors: 0,
                skipped: 0,
                start: self.written,
                end: self.written,
                not_accepted: Vec::new(),
                not_accepted_count: 0,
            });
        }
        if case.verdict != Verdict::Accepted
            && let Some(suite) = self.suites.last_mut()
        {
            suite.not_accepted_count += 1;
            if suite.not_accepted.len() < SHOWN_CASES {
                suite.not_accepted.push(format!(
                    "{} {}: {}",
                    case.verdict.code(),
                    case.case,
                    case.message
                ));
            }
        }
        let test = test_case(case);
        if let Some(suite) = self.suites.last_mut() {
            suite.tests += 1;
            match &test.status {
                TestCaseStatus::Success { .. } => {}
                TestCaseStatus::Skipped { .. } => suite.skipped += 1,
                TestCaseStatus::NonSuccess { kind, .. } => match kind {
                    NonSuccessKind::Failure => suite.failures += 1,
                    NonSuccessKind::Error => suite.errors += 1,
                },
            }
        }
        self.chunk.push(test);
        if self.chunk.len() == CHUNK {
            self.spill()?;
        }
        Ok(())
    }

    /// Serialize the chunk of cases into the spool.
    fn spill(&mut self) -> std::io::Result<()> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let mut suite = TestSuite::new("chunk");
        suite.add_test_cases(std::mem::take(&mut self.chunk));
        let mut junit = quick_junit::Report::new("judge");
        junit.add_test_suite(suite);
        let text = junit.to_string().map_err(std::io::Error::other)?;
        let cases = inner_of_suite(&text)?;
        let spool = match &mut self.spool {
            Some(spool) => spool,
            None => self.spool.insert(std::io::BufWriter::with_capacity(
                1 << 16,
                tempfile::tempfile()?,
            )),
        };
        spool.write_all(cases.as_bytes())?;
        self.written += cases.len() as u64;
        if let Some(suite) = self.suites.last_mut() {
            suite.end = self.written;
        }
        Ok(())
    }

    /// The document: each suite with its counts and properties, its cases
    /// copied from the spool in place of a stand-in.
    fn finish(&mut self, report: &Report) -> std::io::Result<()> {
        if let Some(verification) = &report.verify {
            return self.finish_verify(report, verification);
        }
        self.spill()?;
        let mut junit = quick_junit::Report::new("judge");
        junit.set_time(Duration::try_from_secs_f64(report.elapsed_ms / 1000.0).unwrap_or_default());
        for suite in &self.suites {
            let mut out = TestSuite::new(suite.name.clone());
            add_score_properties(&mut out, report, suite);
            out.add_test_case(TestCase::new(
                "judge-spooled-cases",
                TestCaseStatus::success(),
            ));
            out.tests = suite.tests;
            out.failures = suite.failures;
            out.errors = suite.errors;
            out.skipped = suite.skipped;
            junit.add_test_suite(out);
        }
        let text = junit.to_string().map_err(std::io::Error::other)?;
        let mut spool = match self.spool.take() {
            Some(spool) => Some(spool.into_inner().map_err(|e| e.into_error())?),
            None => None,
        };
        let mut rest = text.as_str();
        for suite in &self.suites {
            let (before, after) = around_marker(rest)?;
            self.sink.write_all(before.as_bytes())?;
            if let Some(spool) = &mut spool {
                spool.seek(SeekFrom::Start(suite.start))?;
                std::io::copy(
                    &mut Read::by_ref(spool).take(suite.end - suite.start),
                    &mut self.sink,
                )?;
            }
            rest = after;
        }
        self.sink.write_all(rest.as_bytes())?;
        self.sink.write_all(b"\n")?;
        self.sink.flush()
    }
}

impl JunitReporter<'_> {
    /// Verify's document (see the module doc): a test case per
    /// submission, in the verify table's order, a suite per problem.
    fn finish_verify(
        &mut self,
        report: &Report,
        verification: &crate::judge::verified::Verification,
    ) -> std::io::Result<()> {
        use crate::judge::verified::Status;
        let mut junit = quick_junit::Report::new("judge verify");
        junit.set_time(Duration::try_from_secs_f64(report.elapsed_ms / 1000.0).unwrap_or_default());
        let mut suites: Vec<TestSuite> = Vec::new();
        for outcome in &verification.submissions {
            let at = suite_of(&mut suites, &outcome.problem);
            let cases = self.suites.iter().find(|s| {
                s.problem == outcome.problem && s.program.as_ref() == Some(&outcome.program)
            });
            let got = outcome
                .got
                .iter()
                .map(|(v, n)| format!("{} {n}", v.code()))
                .collect::<Vec<_>>()
                .join(", ");
            let mut out = format!(
                "expected: {} (from {})\ngot: {}\n",
                outcome.expected,
                outcome.expected_from,
                if got.is_empty() { "no case run" } else { &got }
            );
            if let Some(score) = outcome.score {
                out.push_str(&format!("score: {}", number(score)));
                if let Some(max) = outcome.max_score {
                    out.push_str(&format!(" of {}", number(max)));
                }
                if let Some(expected) = &outcome.expected_score {
                    out.push_str(&format!(" (expected {expected})"));
                }
                out.push('\n');
            }
            if let Some(reason) = &outcome.reason {
                out.push_str(&format!("reason: {reason}\n"));
            }
            if let Some(case) = &outcome.case {
                out.push_str(&format!("the case that disagreed: {case}\n"));
            }
            if let Some(cases) = cases.filter(|c| c.not_accepted_count > 0) {
                out.push_str("cases not AC:\n");
                for line in &cases.not_accepted {
                    out.push_str(&format!("  {line}\n"));
                }
                if cases.not_accepted_count > cases.not_accepted.len() {
                    out.push_str(&format!(
                        "  … and {} more\n",
                        cases.not_accepted_count - cases.not_accepted.len()
                    ));
                }
            }
            let why = outcome
                .reason
                .clone()
                .unwrap_or_else(|| format!("expected {}, got {got}", outcome.expected));
            let status = match outcome.status {
                Status::Ok => TestCaseStatus::success(),
                Status::Skipped => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(why);
                    s
                }
                status => {
                    // An internal error is not the submission's fault: an
                    // error, as JUnit means it; a disagreement or a
                    // submission that could not run fails verify.
                    let kind = if status == Status::InternalError {
                        NonSuccessKind::Error
                    } else {
                        NonSuccessKind::Failure
                    };
                    let mut s = TestCaseStatus::non_success(kind);
                    s.set_type(status.word());
                    s.set_message(why);
                    s
                }
            };
            let mut test = TestCase::new(outcome.path.clone(), status);
            test.set_classname(outcome.problem.clone());
            test.set_system_out(out);
            suites[at].add_test_case(test);
        }
        // The package's own tests of its tools: a test case each, passing
        // when the tool said what the test declares.
        for tool_test in &verification.tool_tests {
            let at = suite_of(&mut suites, &tool_test.problem);
            let said = format!(
                "declared: {}\ngot: {}\n{}",
                tool_test.expected,
                tool_test.got,
                tool_test
                    .message
                    .as_deref()
                    .map(|m| format!("said: {m}\n"))
                    .unwrap_or_default()
            );
            let status = if tool_test.agrees {
                TestCaseStatus::success()
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_type("FAIL");
                s.set_message(format!(
                    "declared {}, got {}",
                    tool_test.expected, tool_test.got
                ));
                s
            };
            let mut test = TestCase::new(
                format!("{} test {}", tool_test.tool, tool_test.test),
                status,
            );
            test.set_classname(tool_test.problem.clone());
            test.set_system_out(said);
            suites[at].add_test_case(test);
        }
        junit.add_test_suites(suites);
        let text = junit.to_string().map_err(std::io::Error::other)?;
        // The per-case spool is not part of this document.
        self.spool = None;
        self.chunk.clear();
        self.sink.write_all(text.as_bytes())?;
        self.sink.write_all(b"\n")?;
        self.sink.flush()
    }
}

/// A scoring problem's score and its groups' as the suite's properties.
fn add_score_properties(out: &mut TestSuite, report: &Report, suite: &Suite) {
    let Some(score) = report
        .scores
        .iter()
        .find(|s| s.problem == suite.problem && s.program == suite.program)
    else {
        return;
    };
    out.add_property(Property::new("score", number(score.score)));
    if let Some(max) = score.max_score {
        out.add_property(Property::new("max_score", number(max)));
    }
    for g in &score.groups {
        out.add_property(Property::new(format!("score.{}", g.name), number(g.score)));
    }
}

/// The lines of a one-suite document between the suite's start tag and
/// its end tag: its test cases, indented as in the whole document.
fn inner_of_suite(text: &str) -> std::io::Result<&str> {
    let malformed = || std::io::Error::other("quick-junit wrote an unexpected layout");
    let open = text.find("\n    <testsuite ").ok_or_else(malformed)?;
    let start = open + 1 + text[open + 1..].find('\n').ok_or_else(malformed)? + 1;
    let end = text.rfind("    </testsuite>").ok_or_else(malformed)?;
    text.get(start..end).ok_or_else(malformed)
}

/// The document before the stand-in case's line and after it.
fn around_marker(text: &str) -> std::io::Result<(&str, &str)> {
    let malformed = || std::io::Error::other("quick-junit wrote an unexpected layout");
    let at = text.find(MARKER).ok_or_else(malformed)?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = at + text[at..].find('\n').ok_or_else(malformed)? + 1;
    Ok((&text[..line_start], &text[line_end..]))
}

/// A case as a JUnit test case: AC a success, SKIP skipped, WA and PE a
/// failure, anything else an error; the message, the diff, the dialogue
/// and the stderr tail.
fn test_case(case: &CaseResult) -> TestCase {
    let status = match case.verdict {
        Verdict::Accepted => TestCaseStatus::success(),
        Verdict::Skipped => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(case.message.clone());
            s
        }
        v => {
            let kind = if matches!(v, Verdict::WrongAnswer | Verdict::PresentationError) {
                NonSuccessKind::Failure
            } else {
                NonSuccessKind::Error
            };
            let mut s = TestCaseStatus::non_success(kind);
            s.set_message(format!("{}: {}", v.code(), case.message));
            s.set_type(v.code());
            let mut description = case.message.clone();
            if let Some(diff) = &case.diff {
                description.push('\n');
                description.push_str(diff);
            }
            if let Some(transcript) = &case.transcript {
                description.push_str("\ndialogue:\n");
                description.push_str(&crate::exec::interactive::render(transcript));
            }
            s.set_description(description);
            s
        }
    };
    let mut test = TestCase::new(case.case.clone(), status);
    test.set_classname(case.problem.clone());
    if let Some(score) = case.score {
        test.add_property(Property::new("score", number(score)));
    }
    // A run from the cache: its time is the one measured when it ran.
    if case.cached {
        test.add_property(Property::new("cached", "true"));
    }
    test.set_time(Duration::from_secs_f64(case.wall_ms / 1000.0));
    if let Some(stderr) = &case.stderr {
        test.set_system_err(stderr.clone());
    }
    test
}

impl Reporter for JunitReporter<'_> {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        match event {
            Event::CaseSettled(case) => self.case(case),
            Event::Finished(report) => self.finish(report),
            _ => Ok(()),
        }
    }
}

/// The index of the suite of `problem`, made when it is the first.
fn suite_of(suites: &mut Vec<TestSuite>, problem: &str) -> usize {
    match suites.iter().position(|s| s.name.as_str() == problem) {
        Some(at) => at,
        None => {
            suites.push(TestSuite::new(problem.to_string()));
            suites.len() - 1
        }
    }
}
