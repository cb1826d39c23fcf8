//! The terminal table of `judge verify`: per problem, a row per submission
//! (status, expected, got, slowest case), then each disagreement, the
//! warnings, and one last line with the outcome (all `-q` prints).

use super::super::submissions::Submission;
use super::assess::Assessed;
use crate::config::{Problem, Span};
use crate::judge::verified::ToolTestOutcome;
use crate::judge::{Report, Status, Verification};
use crate::text::format::{columns, pad, plural};
use crate::text::whitespace::shown_name;
use std::fmt::Write;

/// The verify outcome from each submission's: counts and OK or FAIL.
pub(super) fn verification(
    assessed: &[Assessed],
    tool_tests: Vec<ToolTestOutcome>,
    interrupted: bool,
    allow_missing: bool,
    margin: f64,
) -> Verification {
    let count = |status: Status| {
        assessed
            .iter()
            .filter(|a| a.outcome.status == status)
            .count()
    };
    let agreed = count(Status::Ok);
    let disagreed = count(Status::Fail);
    let internal_errors = count(Status::InternalError);
    let not_run = count(Status::NotRun) + count(Status::Skipped);
    let ok = !interrupted
        && disagreed + internal_errors + count(Status::NotRun) == 0
        && tool_tests.iter().all(|t| t.agrees);
    Verification {
        outcome: if ok { "OK" } else { "FAIL" }.to_string(),
        ok,
        agreed,
        total: assessed.len(),
        disagreed,
        internal_errors,
        not_run,
        allow_missing,
        margin,
        submissions: assessed.iter().map(|a| a.outcome.clone()).collect(),
        tool_tests,
    }
}

/// The last line: `OK: 20 of 20 submissions as expected`, or `FAIL: …`
/// with what went wrong.
pub(super) fn last_line(v: &Verification, interrupted: bool) -> String {
    let mut tail = vec![format!(
        "{} of {} submissions as expected",
        v.agreed, v.total
    )];
    if v.disagreed > 0 {
        tail.push(format!(
            "{} disagree{}",
            v.disagreed,
            if v.disagreed == 1 { "s" } else { "" }
        ));
    }
    if v.internal_errors > 0 {
        tail.push(format!("{} with internal errors", v.internal_errors));
    }
    if v.not_run > 0 {
        // Why: a missing compiler or interpreter, or a submission the judge
        // cannot build as laid out (each named above with its reason).
        let missing = v
            .submissions
            .iter()
            .filter(|s| matches!(s.status, Status::NotRun | Status::Skipped))
            .filter(|s| {
                s.reason
                    .as_deref()
                    .is_some_and(super::super::submissions::missing_tool)
            })
            .count();
        let why = match (missing, v.not_run - missing) {
            (_, 0) => "a compiler or interpreter is missing".to_string(),
            (0, _) => "the judge cannot build them as laid out or read what they expect (each named above)".to_string(),
            (m, o) => format!(
                "{m} with a compiler or interpreter missing, {o} the judge cannot build as laid out or read what they expect"
            ),
        };
        tail.push(format!(
            "{} not run{}",
            v.not_run,
            if v.allow_missing && missing == v.not_run {
                " (--allow-missing)".to_string()
            } else {
                format!(": {why}")
            }
        ));
    }
    if !v.tool_tests.is_empty() {
        let agreed = v.tool_tests.iter().filter(|t| t.agrees).count();
        tail.push(format!(
            "{agreed} of {} tool test{} as declared",
            v.tool_tests.len(),
            plural(v.tool_tests.len())
        ));
    }
    if interrupted {
        tail.push("interrupted".to_string());
    }
    format!("{}: {}", v.outcome, tail.join(", "))
}

/// What the table shows besides the outcomes.
pub(super) struct Context<'a> {
    pub problems: &'a [Problem],
    /// Cases per problem.
    pub cases: &'a [usize],
    pub all: &'a [Submission],
    pub report: &'a Report,
    pub margin: f64,
    /// Every case of every submission.
    pub verbose: bool,
}

/// The whole table, ending with the last line.
pub(super) fn render(
    context: &Context<'_>,
    assessed: &[Assessed],
    verification: &Verification,
) -> String {
    let mut text = String::new();
    let mut notes = Notes::default();
    for (p, problem) in context.problems.iter().enumerate() {
        problem_rows(&mut text, &mut notes, context, assessed, p, problem);
    }
    tool_rows(&mut text, &verification.tool_tests);
    if !notes.details.is_empty() {
        let _ = writeln!(text, "Disagreements:");
        for d in &notes.details {
            let _ = writeln!(text, "{d}");
        }
        let _ = writeln!(text);
    }
    for w in &notes.warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    let _ = writeln!(
        text,
        "{}",
        last_line(verification, context.report.interrupted)
    );
    text
}

/// The package's tool tests: how many agree, and each that does not.
fn tool_rows(text: &mut String, tests: &[ToolTestOutcome]) {
    if tests.is_empty() {
        return;
    }
    let agreed = tests.iter().filter(|t| t.agrees).count();
    let _ = writeln!(
        text,
        "Tool tests (the package's own, of its checker and validators): {agreed} of {} as declared",
        tests.len()
    );
    for t in tests.iter().filter(|t| !t.agrees) {
        let _ = writeln!(
            text,
            "  {}: {} test {}: declared {}, got {}{}",
            t.problem,
            t.tool,
            shown_name(&t.test),
            t.expected,
            t.got,
            t.message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(text);
}

/// What is said after the table: each disagreement in full, and warnings.
#[derive(Default)]
struct Notes {
    details: Vec<String>,
    warnings: Vec<String>,
}

/// One problem's heading and a row per submission (with `-v`, a line per
/// case below each).
fn problem_rows(
    text: &mut String,
    notes: &mut Notes,
    context: &Context<'_>,
    assessed: &[Assessed],
    p: usize,
    problem: &Problem,
) {
    let all = context.all;
    let mine: Vec<usize> = (0..all.len()).filter(|&i| all[i].problem == p).collect();
    let _ = writeln!(
        text,
        "{}: {} submission{} on {} case{}, time limit {} (run at {})",
        problem.name,
        mine.len(),
        plural(mine.len()),
        context.cases[p],
        plural(context.cases[p]),
        Span(problem.limits.time),
        Span(problem.limits.time.mul_f64(context.margin)),
    );
    let column = |f: &dyn Fn(&Submission) -> usize, least: usize| {
        mine.iter()
            .map(|&i| f(&all[i]))
            .max()
            .unwrap_or(least)
            .max(least)
    };
    let width = column(&|s| columns(&shown_name(&s.rel)), 10);
    let expected_width = mine
        .iter()
        .map(|&i| columns(&expected_text(&assessed[i].outcome)))
        .max()
        .unwrap_or(8)
        .max(8);
    let _ = writeln!(
        text,
        "        {}  {}  {}  slowest",
        pad("submission", width),
        pad("expected", expected_width),
        pad("got", 18)
    );
    for &i in &mine {
        let (s, a) = (&all[i], &assessed[i]);
        let o = &a.outcome;
        let name = format!("{}/{}", shown_name(&problem.name), shown_name(&s.rel));
        let reason = o.reason.as_deref().unwrap_or("");
        let got = got_text(o, reason);
        let slow = slowest_text(a);
        for line in &a.sensitive {
            notes
                .warnings
                .push(format!("{name} is sensitive to the time limit: {line}"));
        }
        note(notes, o.status, &name, reason);
        let _ = writeln!(
            text,
            "  {}  {}  {}  {}  {slow}",
            pad(o.status.word(), 4),
            pad(&shown_name(&s.rel), width),
            pad(&expected_text(o), expected_width),
            pad(&got, 18),
        );
        if context.verbose {
            case_lines(text, context.report, &s.label);
        }
    }
    let _ = writeln!(text);
}

/// The "expected" column: a scoring problem's expected score sits beside
/// the verdicts.
fn expected_text(o: &crate::judge::SubmissionOutcome) -> String {
    match &o.expected_score {
        Some(score) if o.expected.is_empty() => format!("score {score}"),
        Some(score) => format!("{}, score {score}", o.expected),
        None => o.expected.clone(),
    }
}

/// The "slowest" column: the slowest case's CPU time, its share of the
/// limit, and its name.
fn slowest_text(a: &Assessed) -> String {
    a.slowest
        .as_ref()
        .map(|(case, cpu, ratio)| {
            format!(
                "{:.3}s {:>3.0}% {}",
                cpu / 1000.0,
                ratio * 100.0,
                shown_name(case)
            )
        })
        .unwrap_or_default()
}

/// The "got" column: verdict counts (and the score), or why it did not run.
fn got_text(o: &crate::judge::SubmissionOutcome, reason: &str) -> String {
    let got = match o.status {
        Status::NotRun | Status::Skipped => reason.to_string(),
        _ => o
            .got
            .iter()
            .map(|(v, n)| format!("{} {n}", v.code()))
            .collect::<Vec<_>>()
            .join(" "),
    };
    match o.score {
        Some(score) => format!(
            "{got}, score {}",
            crate::report::human::fraction(score, o.max_score)
        ),
        None => got,
    }
}

/// What a submission's status adds after the table.
fn note(notes: &mut Notes, status: Status, name: &str, reason: &str) {
    // One line each: a case or submission named with a newline must not
    // print a line of its own (a forged `OK: 9 of 9 …`).
    let name = &*crate::text::whitespace::shown_name(name);
    let reason = &*crate::text::whitespace::shown_name(reason);
    match status {
        Status::Ok => {}
        Status::Fail => notes.details.push(format!("  FAIL {name}: {reason}")),
        Status::InternalError => notes.details.push(format!(
            "  IE   {name}: an internal error, not the submission's fault: {reason}"
        )),
        Status::NotRun if super::super::submissions::missing_tool(reason) => {
            notes.details.push(format!(
                "  MISS {name}: {reason} ({}pass --allow-missing to skip such submissions)",
                // A language the judge has no build for is not installed by
                // installing anything.
                if reason.contains("is not installed") {
                    "install it, or "
                } else {
                    ""
                }
            ))
        }
        Status::NotRun => notes.details.push(format!("  MISS {name}: {reason}")),
        Status::Skipped => notes.warnings.push(format!("{name} was {reason}")),
    }
}

/// `-v`: every case of one submission.
fn case_lines(text: &mut String, report: &Report, label: &str) {
    for c in report
        .cases
        .iter()
        .filter(|c| c.program.as_deref() == Some(label))
    {
        let _ = writeln!(
            text,
            "          {:<4} {} {:.3}s  {}",
            c.verdict.code(),
            shown_name(&c.case),
            c.cpu_ms / 1000.0,
            c.message
        );
    }
}
