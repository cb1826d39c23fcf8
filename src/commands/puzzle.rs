//! `judge solve`, `judge check` and `judge stats`: a built-in puzzle used as
//! a program, as a testlib-style checker, and as a source of facts.

use super::{Failure, Outcome, load_config, puzzle_named};
use crate::check::{self, CaseFiles, CheckPlan, Comparison};
use crate::cli::{CheckArgs, SolveArgs, StatsArgs};
use crate::config::Overrides;
use crate::puzzles::{SolveError, SolveOptions, StatsOptions};
use crate::verdict::ExitCode;
use crate::verdict::Verdict;
use std::io::{Read, Write};
use std::path::Path;

pub fn solve(config_path: Option<&Path>, args: SolveArgs) -> Outcome {
    let config = load_config(config_path, &Overrides::default())?;
    let (puzzle, _) = puzzle_named(&args.problem, config.as_ref())?;
    let options = SolveOptions {
        heuristic: args.heuristic,
    };
    puzzle.check_options(&options).map_err(Failure::usage)?;
    let (input, name) = match args.input.as_deref() {
        None => (read_stdin()?, "<stdin>".to_string()),
        Some(p) if p == Path::new("-") => (read_stdin()?, "<stdin>".to_string()),
        Some(p) => (
            std::fs::read(p)
                .map_err(|e| Failure::Usage(format!("{}: cannot read: {e}", p.display())))?,
            p.display().to_string(),
        ),
    };
    match puzzle.solve(&input, &options) {
        Ok(output) => {
            let mut stdout = super::stdout::Stdout;
            stdout
                .write_all(&output)
                .and_then(|_| stdout.flush())
                .map_err(|e| Failure::Internal(format!("cannot write the output: {e}")))?;
            Ok(ExitCode::Ok)
        }
        Err(SolveError::Input(e)) => Err(Failure::Usage(e.with_path(Path::new(&name)))),
        Err(SolveError::Option(e)) => Err(Failure::usage(e)),
    }
}

fn read_stdin() -> Result<Vec<u8>, Failure> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
    Ok(input)
}

/// testlib's exit codes: 0 AC, 1 WA, 2 PE, 3 judge failure; the message on
/// stderr, one line, prefixed with the verdict as testlib prints it ("ok",
/// "wrong answer", "wrong output format", "FAIL").
pub fn check(config_path: Option<&Path>, args: CheckArgs) -> Outcome {
    let config = load_config(config_path, &Overrides::default())
        .map_err(|f| Failure::Internal(f.message().to_string()))?;
    let configured = config
        .as_ref()
        .and_then(|c| c.problem(&args.problem))
        .cloned();
    let (comparison, puzzle, lexmin, strict) = match configured {
        Some(p) => (p.comparison.clone(), p.puzzle, p.lexmin, p.strict),
        None => {
            let puzzle = crate::puzzles::find(&args.problem).ok_or_else(|| {
                Failure::Internal(format!(
                    "unknown puzzle {:?}: the built-in puzzles are {}",
                    args.problem,
                    crate::puzzles::names().join(", ")
                ))
            })?;
            (
                Comparison::Puzzle,
                Some(puzzle),
                puzzle.default_lexmin(),
                false,
            )
        }
    };
    let output = std::fs::read(&args.output)
        .map_err(|e| Failure::Internal(format!("{}: cannot read: {e}", args.output.display())))?;
    // An external checker runs in a sandbox of its own.
    let sandbox = match &comparison {
        crate::check::Comparison::Checker(_) => Some(
            crate::exec::sandbox::Sandbox::new(Default::default())
                .map_err(|e| Failure::Internal(e.to_string()))?,
        ),
        _ => None,
    };
    let judgement = check::check_output(
        CheckPlan {
            comparison: &comparison,
            puzzle,
            lexmin: args.lexmin.unwrap_or(lexmin),
            strict: args.strict || strict,
            tools: sandbox
                .as_ref()
                .map(|sandbox| crate::check::tool::ToolContext { sandbox, slot: 0 }),
        },
        &CaseFiles {
            input: &args.input,
            answer: args.answer.as_deref(),
        },
        crate::text::stream::Text::Bytes(&output),
    );
    let (code, word) = match judgement.verdict {
        Verdict::Accepted => (ExitCode::Ok, "ok"),
        Verdict::WrongAnswer => (ExitCode::Failed, "wrong answer"),
        Verdict::PresentationError => (ExitCode::PresentationError, "wrong output format"),
        _ => (ExitCode::Internal, "FAIL"),
    };
    crate::commands::stdout::say!("{}", testlib_line(word, &judgement.message));
    Ok(code)
}

/// testlib's line: the verdict word, then the message, unless the message
/// already starts with it (a testlib checker's own "wrong answer …").
fn testlib_line(word: &str, message: &str) -> String {
    let starts = message
        .get(..word.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(word));
    if starts {
        message.to_string()
    } else {
        format!("{word} {message}")
    }
}

pub fn stats(config_path: Option<&Path>, args: StatsArgs) -> Outcome {
    let config = load_config(config_path, &Overrides::default())?;
    let (puzzle, _) = puzzle_named(&args.problem, config.as_ref())?;
    let started = std::time::Instant::now();
    let stats = puzzle
        .stats(&StatsOptions { n: args.n })
        .map_err(Failure::usage)?;
    let mut out = super::stdout::Stdout;
    let width = stats
        .rows
        .iter()
        .map(|(l, _)| l.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let total_width = crate::puzzles::group_digits(stats.total).len();
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}: {}", puzzle.name(), stats.description)?;
        writeln!(
            out,
            "{:>width$}  {:>total_width$}  share",
            "length", "count"
        )?;
        for (label, count) in &stats.rows {
            let share = *count as f64 / stats.total.max(1) as f64 * 100.0;
            writeln!(
                out,
                "{label:>width$}  {:>total_width$}  {share:.4}%",
                crate::puzzles::group_digits(*count)
            )?;
        }
        writeln!(
            out,
            "{:>width$}  {:>total_width$}",
            "total",
            crate::puzzles::group_digits(stats.total)
        )?;
        for note in &stats.notes {
            writeln!(out, "{note}")?;
        }
        writeln!(out, "(computed in {:.2}s)", started.elapsed().as_secs_f64())
    };
    write(&mut out).map_err(|e| Failure::Internal(format!("cannot write: {e}")))?;
    Ok(ExitCode::Ok)
}

#[cfg(test)]
mod tests {
    #[test]
    fn digits_are_grouped() {
        assert_eq!(crate::puzzles::group_digits(9465511770), "9,465,511,770");
        assert_eq!(crate::puzzles::group_digits(192), "192");
        assert_eq!(crate::puzzles::group_digits(1000), "1,000");
    }

    #[test]
    fn testlib_prefix_is_written_once() {
        assert_eq!(
            super::testlib_line("wrong answer", "wrong answer 1st numbers differ"),
            "wrong answer 1st numbers differ"
        );
        assert_eq!(
            super::testlib_line("wrong answer", "3 moves, expected 2"),
            "wrong answer 3 moves, expected 2"
        );
        assert_eq!(super::testlib_line("ok", "ok 3 numbers"), "ok 3 numbers");
    }
}
