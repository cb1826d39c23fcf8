//! `judge validate`: every input well-formed (the puzzle's validator: file,
//! line, column, token and reason), and every answer file right (checked by
//! the puzzle's checker against the proven optimum, and compared with the
//! reference output byte for byte). Works with no judge.toml given
//! `--problem PUZZLE`.

use super::{EXIT_FAILED, EXIT_OK, Outcome, load_config, select};
use crate::cli::ValidateArgs;
use crate::config::Overrides;
use crate::puzzles::{CheckRequest, SolveOptions};
use crate::verdict::Verdict;
use std::path::Path;

pub fn validate(config_path: Option<&Path>, args: ValidateArgs) -> Outcome {
    let overrides = Overrides::default();
    let config = load_config(config_path, &overrides)?;
    let selected = select(config.as_ref(), &args.selection, &overrides)?;
    let mut errors = 0usize;
    let mut warnings = selected.warnings.len();
    let mut files = 0usize;
    for warning in &selected.warnings {
        println!("warning: {warning}");
    }
    for (problem, cases) in selected.problems.iter().zip(&selected.cases) {
        let Some(puzzle) = problem.puzzle else {
            println!(
                "{}: no validator (not a built-in puzzle); {} case{} found",
                problem.name,
                cases.len(),
                if cases.len() == 1 { "" } else { "s" }
            );
            continue;
        };
        for case in cases {
            files += 1;
            let input = match std::fs::read(&case.input) {
                Ok(bytes) => bytes,
                Err(e) => {
                    println!("{}: cannot read: {e}", case.input.display());
                    errors += 1;
                    continue;
                }
            };
            if let Err(e) = puzzle.validate(&input) {
                println!("{}", e.with_path(&case.input));
                errors += 1;
                continue;
            }
            let Some(answer_path) = &case.answer else {
                continue;
            };
            files += 1;
            let answer = match std::fs::read(answer_path) {
                Ok(bytes) => bytes,
                Err(e) => {
                    println!("{}: cannot read: {e}", answer_path.display());
                    errors += 1;
                    continue;
                }
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
                println!(
                    "{}: wrong answer file: {}",
                    answer_path.display(),
                    report.message
                );
                errors += 1;
                continue;
            }
            if let Ok(reference) = puzzle.solve(&input, &SolveOptions::default())
                && reference != answer
            {
                let what = match crate::check::whitespace::layout_difference(&reference, &answer) {
                    Some(d) => d.to_string(),
                    None => "it differs from the reference output".to_string(),
                };
                println!(
                    "warning: {}: correct, but not byte for byte the reference output: {what}",
                    answer_path.display()
                );
                warnings += 1;
            }
        }
    }
    println!(
        "validated {files} file{}: {errors} error{}, {warnings} warning{}",
        if files == 1 { "" } else { "s" },
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    );
    if errors > 0 {
        Ok(EXIT_FAILED)
    } else {
        Ok(EXIT_OK)
    }
}
