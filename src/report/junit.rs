//! JUnit XML (quick-junit): one test suite per problem, one test case per
//! case; a non-AC verdict is a failure (WA, PE) or an error (everything
//! else), with the message, the diff and the stderr tail. A scoring
//! problem's suite carries `score`, `max_score` and `score.GROUP`
//! properties, and each case its `score`.

use crate::judge::{Event, Report, Reporter};
use crate::text::format::number;
use crate::verdict::Verdict;
use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};
use std::io::Write;
use std::time::Duration;

pub fn to_bytes(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut junit = quick_junit::Report::new("judge");
    junit.set_time(Duration::from_secs_f64(report.elapsed_ms / 1000.0));
    let mut suites: Vec<TestSuite> = Vec::new();
    for case in &report.cases {
        let name = match &case.program {
            Some(p) => format!("{} [{p}]", case.problem),
            None => case.problem.clone(),
        };
        if suites.last().is_none_or(|s| s.name.as_str() != name) {
            let mut suite = TestSuite::new(name.clone());
            // A scoring problem's score and its groups' as properties.
            if let Some(score) = report
                .scores
                .iter()
                .find(|s| s.problem == case.problem && s.program == case.program)
            {
                suite.add_property(Property::new("score", number(score.score)));
                if let Some(max) = score.max_score {
                    suite.add_property(Property::new("max_score", number(max)));
                }
                for g in &score.groups {
                    suite.add_property(Property::new(format!("score.{}", g.name), number(g.score)));
                }
            }
            suites.push(suite);
        }
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
                    description.push_str(transcript);
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
        test.set_time(Duration::from_secs_f64(case.wall_ms / 1000.0));
        if let Some(stderr) = &case.stderr {
            test.set_system_err(stderr.clone());
        }
        if let Some(suite) = suites.last_mut() {
            suite.add_test_case(test);
        }
    }
    junit.add_test_suites(suites);
    let mut bytes = junit
        .to_string()
        .map_err(std::io::Error::other)?
        .into_bytes();
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes the JUnit XML when the run finishes.
pub struct JunitReporter {
    sink: Box<dyn Write>,
}

impl JunitReporter {
    pub fn new(sink: Box<dyn Write>) -> Self {
        JunitReporter { sink }
    }
}

impl Reporter for JunitReporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::Finished(report) = event {
            self.sink.write_all(&to_bytes(report)?)?;
            self.sink.flush()?;
        }
        Ok(())
    }
}
