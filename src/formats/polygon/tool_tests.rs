//! The package's own tests of its tools: problem.xml's `<checker><testset>`
//! (each test an input, an output and an answer, with the verdict the
//! checker must give: `ok`, `wrong-answer`, `presentation-error`,
//! `crashed`) and each `<validator><testset>` (each test an input, `valid`
//! or `invalid`). Polygon runs them so that a checker that passes the
//! solutions but accepts a wrong answer is caught; `judge verify` runs
//! them too (`commands::verify::tools`) and reports a disagreement as it
//! reports a solution's.
//!
//! Decisions (docs/packages.md): a test whose file is not in the package
//! is a warning and not run (Polygon's package holds them; a hand-made
//! one may not); an expected verdict other than those above is a
//! warning and the test is not run; `crashed` is the checker failing
//! (testlib's exit code 3), the judge's IE.

use super::pattern::format_pattern;
use super::xml::Element;
use crate::formats::error::{FormatError, Place};
use crate::formats::model::ToolTest;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// One test as problem.xml declares it, its paths relative to the
/// package (not yet looked for).
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    pub index: usize,
    pub input: String,
    /// The checker's tests only: the output judged and the answer.
    pub output: Option<String>,
    pub answer: Option<String>,
    pub verdict: String,
    pub line: usize,
}

/// The tests of the tool `tool` (a `<checker>` or `<validator>`): none
/// when it has no `<testset>`. `checker`: whether output and answer
/// patterns are read.
pub fn declared(file: &Path, tool: &Element, checker: bool) -> Result<Vec<Declared>, FormatError> {
    let Some(set) = tool.child("testset") else {
        return Ok(Vec::new());
    };
    let pattern = |name: &str| -> Result<Option<String>, FormatError> {
        let Some(e) = set.child(name) else {
            return Ok(None);
        };
        let pattern = e.text.trim().to_string();
        let example =
            format_pattern(&pattern, 1).map_err(|why| element(file, e, why.to_string()))?;
        crate::exec::beneath::lexically_beneath(Path::new(&example))
            .map_err(|why| element(file, e, why.to_string()))?;
        Ok(Some(pattern))
    };
    let input = pattern("input-path-pattern")?;
    let (output, answer) = if checker {
        (
            pattern("output-path-pattern")?,
            pattern("answer-path-pattern")?,
        )
    } else {
        (None, None)
    };
    let mut out = Vec::new();
    let Some(list) = set.child("tests") else {
        return Ok(out);
    };
    for (i, test) in list.all("test").enumerate() {
        let index = i + 1;
        let path = |pattern: &Option<String>, what: &str| -> Result<Option<String>, FormatError> {
            match pattern {
                None => Err(element(
                    file,
                    set,
                    format!("a test and no <{what}-path-pattern>"),
                )),
                Some(p) => format_pattern(p, index)
                    .map(Some)
                    .map_err(|why| element(file, set, why.to_string())),
            }
        };
        let Some(input) = path(&input, "input")? else {
            continue;
        };
        out.push(Declared {
            index,
            input,
            output: if checker {
                path(&output, "output")?
            } else {
                None
            },
            answer: if checker {
                path(&answer, "answer")?
            } else {
                None
            },
            verdict: test.attr("verdict").unwrap_or("").to_string(),
            line: test.line,
        });
    }
    Ok(out)
}

fn element(file: &Path, e: &Element, message: String) -> FormatError {
    FormatError::Element {
        place: Place::line(file, e.line),
        element: e.name.clone(),
        attribute: None,
        message,
    }
}

/// The checker's declared tests as the model's, found in the package at
/// `root`; what cannot be run is a warning.
pub fn checker_tests(
    root: &Path,
    file: &Path,
    declared: &[Declared],
    store: &Path,
    warnings: &mut Vec<String>,
) -> Vec<ToolTest> {
    let mut out = Vec::new();
    for test in declared {
        let expected = match test.verdict.as_str() {
            "ok" => Verdict::Accepted,
            "wrong-answer" => Verdict::WrongAnswer,
            "presentation-error" => Verdict::PresentationError,
            "crashed" => Verdict::InternalError,
            other => {
                warnings.push(not_run(
                    file,
                    test,
                    "checker",
                    &format!(
                        "verdict {other:?}: expected ok, wrong-answer, presentation-error or crashed"
                    ),
                ));
                continue;
            }
        };
        let (Some(output), Some(answer)) = (&test.output, &test.answer) else {
            continue;
        };
        let paths = [&test.input, output, answer];
        if let Some(missing) = paths.iter().find(|p| !root.join(p.as_str()).is_file()) {
            warnings.push(not_run(
                file,
                test,
                "checker",
                &format!("{missing} is not in the package"),
            ));
            continue;
        }
        let mut read = |rel: &str| as_read(&root.join(rel), store, file, test, warnings);
        let (Some(input), Some(output), Some(answer)) =
            (read(&test.input), read(output), read(answer))
        else {
            continue;
        };
        out.push(ToolTest::Checker {
            name: test.input.clone(),
            input,
            output,
            answer,
            expected,
        });
    }
    out
}

/// The declared tests of the validator that is the model's `validator`th
/// as the model's, found in the package at `root`.
pub fn validator_tests(
    root: &Path,
    file: &Path,
    validator: usize,
    declared: &[Declared],
    store: &Path,
    warnings: &mut Vec<String>,
) -> Vec<ToolTest> {
    let mut out = Vec::new();
    for test in declared {
        let valid = match test.verdict.as_str() {
            "valid" => true,
            "invalid" => false,
            other => {
                warnings.push(not_run(
                    file,
                    test,
                    "validator",
                    &format!("verdict {other:?}: expected valid or invalid"),
                ));
                continue;
            }
        };
        if !root.join(&test.input).is_file() {
            warnings.push(not_run(
                file,
                test,
                "validator",
                &format!("{} is not in the package", test.input),
            ));
            continue;
        }
        let Some(input) = as_read(&root.join(&test.input), store, file, test, warnings) else {
            continue;
        };
        out.push(ToolTest::Validator {
            name: test.input.clone(),
            validator,
            input,
            valid,
        });
    }
    out
}

/// A tool test's file as Polygon's programs read it (Windows text with
/// `\n` line ends, [`super::crlf`]); `None` with a warning when it cannot
/// be read.
fn as_read(
    path: &Path,
    store: &Path,
    file: &Path,
    test: &Declared,
    warnings: &mut Vec<String>,
) -> Option<PathBuf> {
    match super::crlf::as_read(path, store) {
        Ok((read, _)) => Some(read),
        Err(e) => {
            warnings.push(not_run(
                file,
                test,
                "tool",
                &format!("{}: {e}", path.display()),
            ));
            None
        }
    }
}

/// The warning for a declared `kind` test (`checker`, `validator`) that
/// is not run, and why.
fn not_run(file: &Path, test: &Declared, kind: &str, why: &str) -> String {
    format!(
        "{}:{}: {kind} test {}: {why}; not run",
        file.display(),
        test.line,
        test.index
    )
}
