//! The package's own tests of its tools (Polygon's checker tests and
//! validator tests, `formats::model::ToolTest`), run by `judge verify`
//! beside the submissions: the checker must give each checker test its
//! expected verdict, each validator must find each of its tests valid or
//! invalid as declared. A disagreement fails the verification as a
//! submission's does: a checker that passes the solutions but accepts a
//! wrong answer is what those tests exist to catch.
//!
//! Run one after another after the trial (slot 0 of the sandbox, nothing
//! else running): they are a package's handful of small files.

use crate::check::Comparison;
use crate::check::external::{ExternalChecker, InputValidator, Validity};
use crate::check::tool::ToolContext;
use crate::config::Problem;
use crate::exec::sandbox::Sandbox;
use crate::formats::model::ToolTest;
use crate::judge::verified::ToolTestOutcome;
use crate::verdict::Verdict;

/// Every tool test of every problem, in order.
pub(super) fn run(problems: &[Problem], sandbox: &Sandbox) -> Vec<ToolTestOutcome> {
    let context = ToolContext { sandbox, slot: 0 };
    let mut out = Vec::new();
    for problem in problems {
        for test in &problem.tool_tests {
            out.push(match test {
                ToolTest::Checker {
                    name,
                    input,
                    output,
                    answer,
                    expected,
                } => {
                    let (got, message) = match checker_of(problem) {
                        Some(checker) => checked(checker, context, input, output, answer),
                        None => (
                            Verdict::InternalError,
                            "the problem has no checker program to run".to_string(),
                        ),
                    };
                    outcome(
                        problem,
                        "checker",
                        name,
                        expected.code(),
                        got.code(),
                        *expected == got,
                        message,
                    )
                }
                ToolTest::Validator {
                    name,
                    validator,
                    input,
                    valid,
                } => {
                    let expected = if *valid { "valid" } else { "invalid" };
                    let Some(v) = problem.validators.get(*validator) else {
                        continue;
                    };
                    let tool = format!("validator {}", v.tool.display);
                    let (got, message) = validated(v, context, input);
                    let agrees = got == expected;
                    outcome(problem, &tool, name, expected, got, agrees, message)
                }
            });
        }
    }
    out
}

fn outcome(
    problem: &Problem,
    tool: &str,
    test: &str,
    expected: &str,
    got: &str,
    agrees: bool,
    message: String,
) -> ToolTestOutcome {
    ToolTestOutcome {
        problem: problem.name.clone(),
        tool: tool.to_string(),
        test: test.to_string(),
        expected: expected.to_string(),
        got: got.to_string(),
        agrees,
        message: (!message.is_empty()).then_some(message),
    }
}

/// The checker program the problem's outputs are judged by, if any.
fn checker_of(problem: &Problem) -> Option<&ExternalChecker> {
    match &problem.comparison {
        Comparison::Checker(c) => Some(c),
        Comparison::Interactive(i) => i.checker.as_deref(),
        _ => None,
    }
}

/// What the checker says of `output` (its verdict; IE when it fails).
fn checked(
    checker: &ExternalChecker,
    context: ToolContext<'_>,
    input: &std::path::Path,
    output: &std::path::Path,
    answer: &std::path::Path,
) -> (Verdict, String) {
    if let Err(e) = checker.tool.prepare(context.sandbox) {
        return (Verdict::InternalError, e.to_string());
    }
    let opened =
        crate::exec::bounded_read::open_regular(output, crate::exec::bounded_read::Links::Follow);
    let file = match opened {
        Ok((f, _)) => f,
        Err(e) => return (Verdict::InternalError, format!("{}: {e}", output.display())),
    };
    let text = match crate::text::stream::Text::file(&file) {
        Ok(t) => t,
        Err(e) => return (Verdict::InternalError, format!("{}: {e}", output.display())),
    };
    let judged = checker.check(context, input, Some(answer), text);
    (judged.verdict, judged.message)
}

/// `valid`, `invalid`, or `failed` (the validator itself failed), with
/// what it said.
fn validated(
    validator: &InputValidator,
    context: ToolContext<'_>,
    input: &std::path::Path,
) -> (&'static str, String) {
    if let Err(e) = validator.tool.prepare(context.sandbox) {
        return ("failed", e.to_string());
    }
    match validator.check(context, input) {
        Ok(Validity::Valid) => ("valid", String::new()),
        Ok(Validity::Invalid(m)) => ("invalid", m),
        Ok(Validity::Undefined { message, ended }) => ("invalid", format!("{message} ({ended})")),
        Err(e) => ("failed", e.to_string()),
    }
}
