//! A package's answer validators and its folders of known-bad and
//! known-good files (the 2025-09 format), for `judge validate`:
//!
//! - `answer_validators/` run on every answer of `sample/` and `secret/`
//!   (`validator INPUT [output validator args] < ANSWER`): each must accept;
//! - `data/invalid_input/*.in`: some input validator must reject each;
//! - `data/invalid_answer/*.ans`: some answer validator must reject each;
//! - `data/invalid_output/*.out`: the output check (custom or default,
//!   against the case's `.ans`) must reject each;
//! - `data/valid_output/*.out`: the output check must accept each;
//! - the `.in` of both output folders must be valid input;
//! - `data/sample/` of a 2025-09 package that is neither interactive nor
//!   multi-pass: each `.out` must pass the output check against its
//!   `.ans` (the spec's "Validation" of samples; that an `.ans` the
//!   statement shows as it is must pass too is checked with every answer
//!   in `validate_answers`, see [`shown_as_is`]).
//!
//! A folder with no tool to check it is a warning naming the folder.

use super::Tally;
use crate::cases::{self, Case};
use crate::check::external::{InputValidator, ValidatorError, Validity};
use crate::check::tool::ToolContext;
use crate::check::{CaseFiles, CheckPlan};
use crate::commands::stdout::outln;
use crate::config::Problem;
use crate::verdict::Verdict;
use std::path::Path;

/// Check a package's answer validators and special folders.
pub(super) fn validate(
    problem: &Problem,
    cases: &[Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    let Some(package) = &problem.package else {
        return;
    };
    let data = package.join("data");
    if !problem.answer_validators.is_empty() {
        answers_accepted(problem, cases, context, tally);
    }
    if let Some(found) = folder(&data, "invalid_input", tally) {
        invalid_inputs(problem, &found, context, tally);
    }
    if let Some(found) = folder(&data, "invalid_answer", tally) {
        invalid_answers(problem, &found, context, tally);
    }
    for (name, must_accept) in [("invalid_output", false), ("valid_output", true)] {
        if let Some(found) = folder(&data, name, tally) {
            outputs(problem, name, &found, must_accept, context, tally);
        }
    }
    if samples_validated(problem) {
        sample_outputs(problem, &data.join("sample"), cases, context, tally);
    }
}

/// A 2025-09 package that is neither interactive nor multi-pass: what its
/// samples show must pass the output validator.
fn samples_validated(problem: &Problem) -> bool {
    problem.package_format == Some(crate::formats::kattis::FormatVersion::V2025_09)
        && !matches!(problem.comparison, crate::check::Comparison::Interactive(_))
}

/// Whether `case` is a sample whose `.ans` the statement shows as it is
/// (no `.out`, no `.ans.statement` beside it) in a package whose samples
/// are validated: the `.ans` must then pass the output validator (an
/// error, where other answers the checker rejects are warnings).
pub(super) fn shown_as_is(problem: &Problem, case: &Case) -> bool {
    let Some(package) = &problem.package else {
        return false;
    };
    samples_validated(problem)
        && case.input.starts_with(package.join("data").join("sample"))
        && !case.input.with_extension("out").exists()
        && !case.input.with_extension("ans.statement").exists()
}

/// The samples' `.out` files, judged as a contestant's output against the
/// case's `.ans`: each must be accepted.
fn sample_outputs(
    problem: &Problem,
    sample: &Path,
    cases: &[Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    let mut right = 0;
    let mut total = 0;
    for case in cases.iter().filter(|c| c.input.starts_with(sample)) {
        let out = case.input.with_extension("out");
        if !out.is_file() {
            continue;
        }
        let Some(output) = tally.read(&out) else {
            continue;
        };
        total += 1;
        let judgement = output_judgement(problem, case, case.answer.as_deref(), &output, context);
        if judgement.verdict == Verdict::Accepted {
            right += 1;
        } else if judgement.verdict == Verdict::InternalError {
            tally.error(format!("{}: {}", out.display(), judgement.message));
        } else {
            tally.error(format!(
                "{}: the output check said {} ({}), but a sample's .out must pass it (it is shown in the statement)",
                out.display(),
                judgement.verdict.code(),
                judgement.message
            ));
        }
    }
    if total > 0 {
        outln!(
            "{}: sample: {right} of {total} .out files accepted as they must be",
            problem.name
        );
    }
}

/// The output check of `problem` on `output` for `case` (its group's
/// comparison, or the problem's), against `answer`.
fn output_judgement(
    problem: &Problem,
    case: &Case,
    answer: Option<&Path>,
    output: &[u8],
    context: ToolContext<'_>,
) -> crate::check::Judgement {
    let settings = problem.settings_for(&case.input);
    crate::check::check_output(
        CheckPlan {
            comparison: settings
                .as_deref()
                .and_then(|s| s.comparison.as_ref())
                .unwrap_or(&problem.comparison),
            puzzle: problem.puzzle,
            lexmin: problem.lexmin,
            strict: problem.strict,
            tools: Some(context),
        },
        &CaseFiles {
            input: &case.input,
            answer,
        },
        crate::text::stream::Text::Bytes(output),
    )
}

/// The input of a `valid_output/` or `invalid_output/` case must be valid
/// (2025-09: "The input file `tc.in`, which must contain valid input"):
/// each input validator, with the case's arguments, must accept it.
fn valid_input(
    problem: &Problem,
    name: &str,
    case: &Case,
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    for (validator, said) in input_checks(problem, case, context) {
        match said {
            Ok(Validity::Valid) => {}
            Ok(Validity::Invalid(why) | Validity::Undefined { message: why, .. }) => {
                tally.error(format!(
                    "{}: input validator {validator} rejected it ({}), but data/{name}/ needs valid input",
                    case.input.display(),
                    why.lines().next().unwrap_or("").trim()
                ))
            }
            Err(e) => tally.error(format!("{}: {e}", case.input.display())),
        }
    }
}

/// What each input validator says of a case's input (its name, its
/// word), with the arguments of the case's group or its own NAME.yaml.
fn input_checks(
    problem: &Problem,
    case: &Case,
    context: ToolContext<'_>,
) -> Vec<(String, Result<Validity, ValidatorError>)> {
    let settings = problem.settings_for(&case.input);
    crate::cases::CaseSettings::input_validators(settings.as_deref(), &problem.validators)
        .iter()
        .map(|v| (v.tool.display.clone(), v.check(context, &case.input)))
        .collect()
}

/// The cases of `data/NAME/`, if the folder exists.
fn folder(data: &Path, name: &str, tally: &mut Tally) -> Option<Vec<Case>> {
    let dir = data.join(name);
    if !dir.is_dir() {
        return None;
    }
    match cases::discover(&dir, crate::formats::package_of) {
        Ok(d) => Some(d.cases.to_vec()),
        Err(e) => {
            tally.error(format!("{}: {e}", dir.display()));
            None
        }
    }
}

/// Run an answer validator on one answer: its input's path first, then
/// the output validator arguments of the case's group.
fn check_answer(
    problem: &Problem,
    validator: &InputValidator,
    case: &Case,
    answer: &Path,
    context: ToolContext<'_>,
) -> Result<Validity, String> {
    let mut v = validator.clone();
    let input = std::path::absolute(&case.input).unwrap_or_else(|_| case.input.clone());
    let group_args = problem
        .settings_for(&case.input)
        .and_then(|s| s.output_args.clone())
        .unwrap_or_default();
    v.flags = std::iter::once(input.to_string_lossy().into_owned())
        .chain(v.flags)
        .chain(group_args)
        .collect();
    v.check(context, answer).map_err(|e| e.to_string())
}

fn answers_accepted(
    problem: &Problem,
    cases: &[Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    let mut checked = 0;
    let mut rejected = 0;
    for case in cases {
        let Some(answer) = &case.answer else { continue };
        tally.count(answer);
        checked += 1;
        for validator in &problem.answer_validators {
            match check_answer(problem, validator, case, answer, context) {
                Ok(Validity::Valid) => {}
                Ok(Validity::Invalid(message) | Validity::Undefined { message, .. }) => {
                    rejected += 1;
                    tally.error(format!(
                        "{}: invalid answer (answer validator {}): {message}",
                        answer.display(),
                        validator.tool.display
                    ));
                }
                Err(e) => tally.error(format!("{}: {e}", answer.display())),
            }
        }
    }
    outln!(
        "{}: answer validators: {checked} answer{} checked, {rejected} invalid",
        problem.name,
        if checked == 1 { "" } else { "s" }
    );
}

fn invalid_inputs(problem: &Problem, found: &[Case], context: ToolContext<'_>, tally: &mut Tally) {
    if problem.validators.is_empty() {
        tally.warn(format!(
            "{}: data/invalid_input/ holds {} input{} but there is no input validator to reject them",
            problem.name,
            found.len(),
            if found.len() == 1 { "" } else { "s" }
        ));
        return;
    }
    let mut caught = 0;
    for case in found {
        tally.count(&case.input);
        let mut rejected = false;
        for (_, said) in input_checks(problem, case, context) {
            match said {
                Ok(Validity::Valid) => {}
                Ok(Validity::Invalid(_) | Validity::Undefined { .. }) => rejected = true,
                Err(e) => tally.error(format!("{}: {e}", case.input.display())),
            }
        }
        if rejected {
            caught += 1;
        } else {
            tally.error(format!(
                "{}: every input validator accepted it, but data/invalid_input/ says it is invalid",
                case.input.display()
            ));
        }
    }
    outln!(
        "{}: invalid_input: {caught} of {} rejected as they must be",
        problem.name,
        found.len()
    );
}

fn invalid_answers(problem: &Problem, found: &[Case], context: ToolContext<'_>, tally: &mut Tally) {
    if problem.answer_validators.is_empty() {
        tally.warn(format!(
            "{}: data/invalid_answer/ is not checked: the package has no answer_validators/",
            problem.name
        ));
        return;
    }
    let mut caught = 0;
    for case in found {
        let Some(answer) = &case.answer else {
            tally.error(format!(
                "{}: no .ans beside it in data/invalid_answer/",
                case.input.display()
            ));
            continue;
        };
        tally.count(answer);
        let rejected = problem.answer_validators.iter().any(|v| {
            matches!(
                check_answer(problem, v, case, answer, context),
                Ok(Validity::Invalid(_) | Validity::Undefined { .. })
            )
        });
        if rejected {
            caught += 1;
        } else {
            tally.error(format!(
                "{}: every answer validator accepted it, but data/invalid_answer/ says it is invalid",
                answer.display()
            ));
        }
    }
    outln!(
        "{}: invalid_answer: {caught} of {} rejected as they must be",
        problem.name,
        found.len()
    );
}

/// `invalid_output/` (must be rejected) or `valid_output/` (accepted): each
/// case's `.out` judged as a contestant's output against its `.ans`.
fn outputs(
    problem: &Problem,
    name: &str,
    found: &[Case],
    must_accept: bool,
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    let mut right = 0;
    let mut total = 0;
    for case in found {
        valid_input(problem, name, case, context, tally);
        let output_path = case.input.with_extension("out");
        let answer = case.input.with_extension("ans");
        let output = match std::fs::read(&output_path) {
            Ok(bytes) => bytes,
            Err(e) => {
                tally.error(format!(
                    "{}: data/{name}/ needs a .out beside each .in: {e}",
                    output_path.display()
                ));
                continue;
            }
        };
        total += 1;
        tally.count(&output_path);
        let answer = answer.is_file().then_some(answer.as_path());
        let judgement = output_judgement(problem, case, answer, &output, context);
        let accepted = judgement.verdict == Verdict::Accepted;
        if judgement.verdict == Verdict::InternalError {
            tally.error(format!("{}: {}", output_path.display(), judgement.message));
        } else if accepted == must_accept {
            right += 1;
        } else {
            tally.error(format!(
                "{}: the output check said {} ({}), but data/{name}/ says it must be {}",
                output_path.display(),
                judgement.verdict.code(),
                judgement.message,
                if must_accept { "accepted" } else { "rejected" }
            ));
        }
    }
    outln!(
        "{}: {name}: {right} of {total} {} as they must be",
        problem.name,
        if must_accept { "accepted" } else { "rejected" }
    );
}
