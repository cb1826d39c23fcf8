//! External checkers and input validators: programs of the problem setter,
//! run by the judge under limits of their own.
//!
//! A checker speaks one of two protocols, chosen in the configuration:
//!
//! - **testlib**: `checker INPUT OUTPUT ANSWER`, standard input /dev/null;
//!   exit 0 AC, 1 WA, 2 PE, 3 the checker failed (IE); testlib's older
//!   "dirt" code 4 and its optional "unexpected end of file" code 8 are PE,
//!   as testlib itself reports them. The message is the first non-empty
//!   line of standard error (where testlib writes "wrong answer …"), or of
//!   standard output when standard error is empty. No result file is
//!   passed: testlib writes the same text to standard error.
//! - **kattis**: `validator INPUT ANSWER FEEDBACK_DIR/ [FLAGS…] < OUTPUT`;
//!   exit 42 AC, 43 WA. The message is the first non-empty line of
//!   `judgemessage.txt` in the feedback directory, else of
//!   `teammessage.txt`, else of standard error.
//!
//! Anything else — a crash, a signal, a time-out, a memory or output limit,
//! an exit code the protocol does not define, testlib's "fail" — is IE,
//! never WA: the submission is not blamed for the judge's tools.
//!
//! Input validators get the input on standard input. testlib: exit 0 means
//! valid, any other exit code invalid (testlib validators fail with 3).
//! Kattis: 42 valid, 43 invalid, anything else a broken validator.
//!
//! How a tool is found, built and run under its limits is [`super::tool`];
//! this module speaks the protocols and decides what the answers mean.

use super::Judgement;
use super::tool::{Tool, ToolContext, tool_limits};
use crate::exec::{Exit, LimitHit, Limits, RunError, RunOutcome};
use crate::text::stream::Text;
use crate::verdict::Verdict;
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a checker or validator talks to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// testlib: `checker IN OUT ANS`, exit 0/1/2/3; validators exit 0 when valid.
    #[default]
    Testlib,
    /// Kattis: `validator IN ANS FEEDBACK_DIR < OUT`, exit 42/43.
    Kattis,
}

impl Protocol {
    /// The exit code that accepts (a checker's, a validator's, an
    /// interactor's): 0 for testlib, 42 for Kattis.
    pub fn accepts(self) -> i32 {
        match self {
            Protocol::Testlib => 0,
            Protocol::Kattis => 42,
        }
    }

    /// Whether an interactor's or a validator's exit `code` rejects the
    /// dialogue: 43 for Kattis; testlib's WA (1) and PE (2).
    pub fn rejects(self, code: i32) -> bool {
        match self {
            Protocol::Kattis => code == 43,
            Protocol::Testlib => code == 1 || code == 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Testlib => "testlib",
            Protocol::Kattis => "kattis",
        }
    }
}

/// An external checker (`check = "checker"`, or a Kattis package's output
/// validator).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalChecker {
    pub tool: Tool,
    pub protocol: Protocol,
    /// Wall-clock and CPU time for one run.
    pub time_limit: Duration,
    /// Kattis: arguments after the feedback directory (`validator_flags`).
    pub flags: Vec<String>,
    /// What testlib's `quitp(x)` means.
    pub points: TestlibPoints,
}

/// What a testlib checker's `quitp(x, …)` gives a test: a fraction of its
/// points (judge.toml's and Kattis' reading: a checker cannot know what
/// its case is worth), or, as Polygon reads it, x points, or x percent of
/// the test's points (Polygon's `treat-points-from-checker-as-percent`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TestlibPoints {
    #[default]
    Fraction,
    Points,
    Percent,
}

/// Why a tool run did not give an answer the protocol defines, or `None`
/// when it exited with a code.
fn tool_failure(what: &str, outcome: &RunOutcome, limits: &Limits) -> Option<String> {
    let said = said(&outcome.stderr_tail)
        .map(|s| format!(": {s}"))
        .unwrap_or_default();
    match outcome.limit_hit {
        Some(LimitHit::Wall) | Some(LimitHit::Cpu) => {
            return Some(format!(
                "{what} timed out (limit {:.1}s): killed",
                limits.time.as_secs_f64()
            ));
        }
        Some(LimitHit::Output) => {
            return Some(format!(
                "{what} printed more than {} on standard output: killed",
                crate::units::Size(limits.output)
            ));
        }
        Some(LimitHit::Memory) => {
            return Some(format!("{what} ran out of memory{said}"));
        }
        Some(LimitHit::FileSize) => {
            return Some(format!("{what} wrote a file past the file-size limit"));
        }
        Some(LimitHit::Processes) | None => {}
    }
    match outcome.exit {
        Exit::Signal(_) => Some(format!(
            "{what} crashed: killed by {}{said}",
            outcome.exit.describe()
        )),
        Exit::Code(_) => None,
    }
}

/// The first non-empty line of a tool's text, trimmed and cut to 300
/// characters, with "…" when more lines follow.
/// The most of a tool's standard output read for a message.
const SAID_BYTES: usize = 64 << 10;

pub fn said(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let more = lines.next().is_some();
    Some(shown(first, "", if more { " …" } else { "" }))
}

/// The last meaningful line of a feedback text, "… " before it when
/// lines came before: a validator that appends as the dialogue goes (an
/// interactive or multi-pass one, as the spec asks of the latter) says
/// why it decided last.
pub fn said_last(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let last = lines.next_back()?;
    let more = lines.next().is_some();
    Some(shown(last, if more { "… " } else { "" }, ""))
}

/// A line of at most 300 characters (" …" when cut), escaped: a checker
/// may quote the contestant's output, whose terminal escapes and
/// reordering characters are shown, not obeyed.
fn shown(line: &str, before: &str, after: &str) -> String {
    let kept: String = line.chars().take(300).collect();
    let cut = kept.len() < line.len();
    format!(
        "{before}{}{}",
        crate::text::whitespace::escaped(&kept),
        if cut { " …" } else { after }
    )
}

impl ExternalChecker {
    /// What decides this checker's verdicts, as content: the tool's
    /// identity, its protocol, flags and time limit (see `Tool::identity`).
    pub fn identity(&self, sandbox: &crate::exec::sandbox::Sandbox) -> Option<String> {
        let mut fields = crate::exec::identity::Fields::new();
        fields
            .field("tool", self.tool.identity(sandbox)?.as_bytes())
            .field("protocol", self.protocol.name().as_bytes())
            .field("time", &self.time_limit.as_nanos().to_le_bytes())
            .field("points", format!("{:?}", self.points).as_bytes());
        for flag in &self.flags {
            fields.field("flag", flag.as_bytes());
        }
        Some(fields.hex())
    }

    /// Judge `output` of a case. The run itself must have finished normally.
    pub fn check(
        &self,
        context: ToolContext<'_>,
        input: &Path,
        answer: Option<&Path>,
        output: Text<'_>,
    ) -> Judgement {
        let ie = |message: String| Judgement::new(Verdict::InternalError, message);
        let what = format!("checker {}", self.tool.display);
        // In the judge's private directory: no submission of another
        // case sees the checker's files (its feedback may quote an answer).
        let dir = match tempfile::Builder::new()
            .prefix("judge-check-")
            .tempdir_in(context.sandbox.private_dir())
        {
            Ok(d) => d,
            Err(e) => return ie(format!("cannot create a directory for the checker: {e}")),
        };
        // Scratch files in the judge's own fresh directory, read only after
        // they are written and closed: no other reader can see them half
        // written, so no temp-and-rename here.
        let output_path = dir.path().join("output");
        let feedback = dir.path().join("feedback");
        let written = std::fs::File::create(&output_path)
            .and_then(|mut file| output.write_to(&mut std::io::BufWriter::new(&mut file)))
            .and_then(|()| std::fs::create_dir(&feedback));
        if let Err(e) = written {
            return ie(format!("cannot write the output for the checker: {e}"));
        }
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let input = absolute(input);
        let answer = answer.map_or_else(|| PathBuf::from("/dev/null"), absolute);
        let (args, stdin): (Vec<OsString>, Option<&Path>) = match self.protocol {
            Protocol::Testlib => (
                vec![
                    input.into_os_string(),
                    output_path.clone().into_os_string(),
                    answer.into_os_string(),
                ],
                None,
            ),
            Protocol::Kattis => {
                let mut feedback_arg = feedback.clone().into_os_string();
                feedback_arg.push("/");
                let mut args = vec![
                    input.into_os_string(),
                    answer.into_os_string(),
                    feedback_arg,
                ];
                args.extend(self.flags.iter().map(OsString::from));
                (args, Some(output_path.as_path()))
            }
        };
        let limits = tool_limits(self.time_limit);
        let outcome = match self.tool.run(context, &args, stdin, &limits) {
            Ok(o) => o,
            Err(RunError::Interrupted) => {
                return Judgement::new(Verdict::Skipped, "not run: the judge was interrupted");
            }
            Err(RunError::Internal(m)) => return ie(format!("{what}: {m}")),
        };
        if let Some(failure) = tool_failure(&what, &outcome, &limits) {
            return ie(failure);
        }
        let Exit::Code(code) = outcome.exit else {
            return ie(format!("{what}: {}", outcome.exit.describe()));
        };
        match self.protocol {
            Protocol::Testlib => {
                let message = said(&outcome.stderr_tail)
                    .or_else(|| said(&outcome.stdout.text().head(SAID_BYTES)));
                if let Some(judgement) =
                    super::partial::testlib(code, &outcome.stderr_tail, &what, self.points)
                {
                    return judgement;
                }
                let (verdict, default) = match code {
                    0 => (Verdict::Accepted, "the checker accepted the output"),
                    1 => (Verdict::WrongAnswer, "the checker rejected the output"),
                    2 | 4 | 8 => (
                        Verdict::PresentationError,
                        "the checker found the output badly formatted",
                    ),
                    3 => {
                        return ie(format!(
                            "{what} failed (exit code 3){}",
                            message.map(|m| format!(": {m}")).unwrap_or_default()
                        ));
                    }
                    other => {
                        return ie(format!(
                            "{what} answered exit code {other}, which the testlib protocol does not define (0 AC, 1 WA, 2 PE, 3 fail){}",
                            message.map(|m| format!(": {m}")).unwrap_or_default()
                        ));
                    }
                };
                Judgement::new(verdict, message.unwrap_or_else(|| default.to_string()))
            }
            Protocol::Kattis => {
                let message = match super::feedback::judge_or_team_message(&feedback, &what, false)
                {
                    Ok(m) => m.or_else(|| said(&outcome.stderr_tail)),
                    Err(refused) => return ie(refused.to_string()),
                };
                let judgement = match code {
                    42 => Judgement::new(
                        Verdict::Accepted,
                        message.unwrap_or_else(|| "the output validator accepted".to_string()),
                    ),
                    43 => Judgement::new(
                        Verdict::WrongAnswer,
                        message.unwrap_or_else(|| "the output validator rejected".to_string()),
                    ),
                    other => {
                        return ie(format!(
                            "{what} answered exit code {other}, which the Kattis protocol does not define (42 AC, 43 WA){}",
                            message.map(|m| format!(": {m}")).unwrap_or_default()
                        ));
                    }
                };
                super::partial::with_kattis_score(judgement, &feedback, &what)
            }
        }
    }
}

/// An external input validator (`validator = "…"`, or a Kattis package's
/// `input_validators/`).
#[derive(Clone, Debug, PartialEq)]
pub struct InputValidator {
    pub tool: Tool,
    pub protocol: Protocol,
    pub time_limit: Duration,
    /// Arguments after the tool's own (Kattis input validator flags).
    pub flags: Vec<String>,
}

/// What an input validator said about an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validity {
    Valid,
    /// Rejected, with the validator's message.
    Invalid(String),
    /// The validator ended with no verdict of its protocol: Kattis' neither
    /// 42 nor 43 (an `assert` that fails exits 1 in Python), or, either
    /// protocol, killed by a signal (a C `assert` dies of SIGABRT). problemtools
    /// counts any exit but 42 as a rejection, BAPCtools as a validator
    /// error; neither as acceptance. The judge counts it as a rejection and
    /// warns, naming how it ended.
    Undefined {
        /// `exit code 1`, `SIGABRT (signal 6)`.
        ended: String,
        message: String,
    },
}

impl Validity {
    pub fn is_valid(&self) -> bool {
        matches!(self, Validity::Valid)
    }
}

/// The line of a tool's standard error that tells why it failed: the last
/// line of a Python traceback (with the source line of a failed `assert`
/// before it), a C `Assertion … failed.` line, else the first line.
pub fn telling_line(text: &[u8]) -> Option<String> {
    let whole = String::from_utf8_lossy(text);
    let lines: Vec<&str> = whole
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let pick = |line: &str| {
        let kept: String = line.chars().take(300).collect();
        crate::text::whitespace::escaped(&kept)
    };
    if let Some(start) = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last)"))
    {
        let tail = &lines[start..];
        let last = tail.last()?;
        // `File "v.py", line 7, in <module>` / `assert n <= 10` / `^^^^` /
        // `AssertionError`: the source line is the last before the error
        // that is not a marker line.
        let source = tail[..tail.len() - 1]
            .iter()
            .rev()
            .find(|l| !l.chars().all(|c| matches!(c, '^' | '~' | ' ')))
            .copied()
            .filter(|l| !l.starts_with("File ") && !l.starts_with("Traceback"));
        let at = tail
            .iter()
            .rev()
            .find(|l| l.starts_with("File "))
            .map(|l| l.to_string());
        let mut line = pick(last);
        if let Some(source) = source {
            line.push_str(&format!(" ({}", pick(source)));
            if let Some(at) = at {
                line.push_str(&format!(", {}", pick(&at)));
            }
            line.push(')');
        }
        return Some(line);
    }
    if let Some(assertion) = lines
        .iter()
        .find(|l| l.contains("Assertion") && l.contains("failed"))
    {
        return Some(pick(assertion));
    }
    said(text)
}

/// An input (or answer) validator that gave no judgement: the setter's
/// tool failed, never the data. The message names the validator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidatorError {
    /// It could not be run (no sandbox slot, interrupted, a launch error).
    #[error("{what}: {message}")]
    NotRun { what: String, message: String },
    /// It ran and failed: a limit hit, a crash, an exit with no meaning.
    #[error("{0}")]
    Failed(String),
}

impl InputValidator {
    /// Run the validator on one input file. `Err`: the validator itself
    /// failed (timed out, ran out of memory, answered an exit code testlib
    /// gives no meaning); a Kattis validator that ends with neither 42 nor
    /// 43, or any validator killed by a signal with no limit hit, is
    /// [`Validity::Undefined`].
    pub fn check(
        &self,
        context: ToolContext<'_>,
        input: &Path,
    ) -> Result<Validity, ValidatorError> {
        let what = format!("input validator {}", self.tool.display);
        let limits = tool_limits(self.time_limit);
        let args: Vec<OsString> = self.flags.iter().map(OsString::from).collect();
        let outcome = self
            .tool
            .run(context, &args, Some(input), &limits)
            .map_err(|e| ValidatorError::NotRun {
                what: what.clone(),
                message: e.to_string(),
            })?;
        let message = |ended: &str| {
            telling_line(&outcome.stderr_tail)
                .or_else(|| said(&outcome.stdout.text().head(SAID_BYTES)))
                .unwrap_or_else(|| format!("rejected ({ended})"))
        };
        // A validator killed by a signal (SIGABRT of a failed C `assert`)
        // ended undefined: a rejection with a warning. Kattis: any exit but
        // 42 fails validation; testlib (Polygon): any exit but 0 is an
        // invalid test — Polygon's packages declare validator tests invalid
        // that their validator rejects by `assert` (docs/packages.md).
        // Limits hit are the validator's failure.
        if let (Exit::Signal(_), None) = (outcome.exit, outcome.limit_hit) {
            let ended = outcome.exit.describe();
            return Ok(Validity::Undefined {
                message: message(&ended),
                ended,
            });
        }
        if let Some(failure) = tool_failure(&what, &outcome, &limits) {
            return Err(ValidatorError::Failed(failure));
        }
        let Exit::Code(code) = outcome.exit else {
            return Err(ValidatorError::Failed(format!(
                "{what}: {}",
                outcome.exit.describe()
            )));
        };
        let ended = format!("exit code {code}");
        match (self.protocol, code) {
            (protocol, code) if code == protocol.accepts() => Ok(Validity::Valid),
            (Protocol::Testlib, _) | (Protocol::Kattis, 43) => {
                Ok(Validity::Invalid(message(&ended)))
            }
            (Protocol::Kattis, _) => Ok(Validity::Undefined {
                message: message(&ended),
                ended,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn said_takes_the_first_meaningful_line() {
        assert_eq!(
            said(b"\n  \nwrong answer 1st numbers differ\n"),
            Some("wrong answer 1st numbers differ".into())
        );
        assert_eq!(said(b"a\nb\n"), Some("a …".into()));
        assert_eq!(said(b" \n\t\n"), None);
        assert_eq!(
            said_last(b"thinking of 7\nguess 1: 3\n\nguess 2: 8 is wrong\n"),
            Some("… guess 2: 8 is wrong".into())
        );
        assert_eq!(said_last(b"only\n"), Some("only".into()));
        assert_eq!(said_last(b"\n"), None);
        assert_eq!(
            said("found \x1b[2J\u{202e}x".as_bytes()),
            Some("found \\x1b[2J\\u{202e}x".into())
        );
        let long = "x".repeat(400);
        assert_eq!(said(long.as_bytes()).unwrap().chars().count(), 302);
    }

    #[test]
    fn the_telling_line_of_a_traceback_and_an_assertion() {
        let python = b"Traceback (most recent call last):\n  File \"/v/validate.py\", line 7, in <module>\n    assert 1 <= n <= 10\nAssertionError\n";
        assert_eq!(
            telling_line(python),
            Some("AssertionError (assert 1 <= n <= 10, File \"/v/validate.py\", line 7, in <module>)".into())
        );
        let raised = b"Traceback (most recent call last):\n  File \"v.py\", line 3, in <module>\n    n = int(input())\n        ^^^^^^^^^^^^\nValueError: invalid literal for int() with base 10: 'x'\n";
        assert!(
            telling_line(raised)
                .unwrap()
                .starts_with("ValueError: invalid literal")
        );
        let c = b"reading...\nv: v.c:12: main: Assertion `n <= 10' failed.\n";
        assert_eq!(
            telling_line(c),
            Some("v: v.c:12: main: Assertion `n <= 10' failed.".into())
        );
        assert_eq!(
            telling_line(b"FAIL n out of range\n"),
            Some("FAIL n out of range".into())
        );
    }
}
