//! `judge validate`: every input well-formed (the puzzle's validator: file,
//! line, column, token and reason; or the problem's external input
//! validators), and every answer file right (checked by the puzzle's
//! checker against the proven optimum and compared with the reference
//! output byte for byte; or accepted by the problem's external checker).
//! Works with no judge.toml given `--problem PUZZLE` or a package.
//!
//! External tools are probed too: small mutations of valid inputs (an
//! extra space, a leading zero, junk at the end, …) must be rejected by the
//! input validators, and mutations of answer files (a token changed, a line
//! dropped, junk appended) by the checker; a tool that accepts one gets a
//! warning naming the mutation. Warnings never fail the command; an invalid
//! file, a wrong answer file or a broken tool does (exit 1).

mod folders;
mod puzzle;

use crate::text::stream::Text;
use puzzle::validate_puzzle;

use super::{Failure, Outcome, load_config, select};
use crate::cases::Case;
use crate::check::external::{ExternalChecker, InputValidator, Validity};
use crate::check::mutate::{self, Mutation};
use crate::check::tool::ToolContext;
use crate::cli::ValidateArgs;
use crate::commands::stdout::outln;
use crate::config::{Overrides, Problem};
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::text::format::plural;
use crate::verdict::ExitCode;
use crate::verdict::Verdict;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// How many valid inputs (the smallest) and answers are mutated per tool.
const PROBED_FILES: usize = 3;

/// Counts and the files already counted.
#[derive(Default)]
struct Tally {
    errors: usize,
    warnings: usize,
    files: HashSet<PathBuf>,
    /// Warnings already printed: each is printed once.
    warned: HashSet<String>,
}

impl Tally {
    fn error(&mut self, line: String) {
        outln!("{line}");
        self.errors += 1;
    }

    fn warn(&mut self, line: String) {
        if !self.warned.insert(line.clone()) {
            return;
        }
        outln!("warning: {line}");
        self.warnings += 1;
    }

    fn count(&mut self, path: &Path) {
        self.files.insert(path.to_path_buf());
    }

    /// Count and read a file; one that cannot be read is an error.
    fn read(&mut self, path: &Path) -> Option<Vec<u8>> {
        self.count(path);
        std::fs::read(path)
            .map_err(|e| self.error(format!("{}: cannot read: {e}", path.display())))
            .ok()
    }
}

pub fn validate(config_path: Option<&Path>, args: ValidateArgs) -> Outcome {
    let overrides = Overrides::default();
    let config = load_config(config_path, &overrides)?;
    let selected = select(config.as_ref(), &args.selection, &overrides)?;
    let mut tally = Tally::default();
    for warning in &selected.warnings {
        tally.warn(warning.clone());
    }
    let needs_tools = selected.problems.iter().any(|p| {
        !p.validators.is_empty() || p.comparison.checker().is_some() || p.package.is_some()
    });
    let sandbox = if needs_tools {
        Some(
            Sandbox::new(SandboxOptions::default())
                .map_err(|e| Failure::Internal(e.to_string()))?,
        )
    } else {
        None
    };
    for (problem, cases) in selected.problems.iter().zip(&selected.cases) {
        let cases = &cases.to_vec();
        let mut checked = false;
        if let Some(puzzle) = problem.puzzle {
            checked = true;
            validate_puzzle(problem, puzzle, cases, &mut tally);
        }
        if let Some(sandbox) = &sandbox {
            let context = ToolContext { sandbox, slot: 0 };
            let mut valid: Option<Vec<&Case>> = None;
            if !problem.validators.is_empty() {
                checked = true;
                valid = Some(validate_inputs(problem, cases, context, &mut tally));
            }
            if let Some(checker) = problem.comparison.checker() {
                checked = true;
                // Probe the checker with the cases whose inputs are valid.
                let usable: Vec<&Case> = valid.unwrap_or_else(|| cases.iter().collect());
                validate_answers(problem, checker, &usable, context, &mut tally);
            }
            if problem.package.is_some() {
                checked |= !problem.answer_validators.is_empty();
                folders::validate(problem, cases, context, &mut tally);
            }
        }
        if !checked {
            outln!(
                "{}: no validator (not a built-in puzzle, no validator or checker configured); {} case{} found",
                problem.name,
                cases.len(),
                if cases.len() == 1 { "" } else { "s" }
            );
        }
    }
    let files = tally.files.len();
    outln!(
        "validated {files} file{}: {} error{}, {} warning{}",
        if files == 1 { "" } else { "s" },
        tally.errors,
        if tally.errors == 1 { "" } else { "s" },
        tally.warnings,
        if tally.warnings == 1 { "" } else { "s" }
    );
    if tally.errors > 0 {
        Ok(ExitCode::Failed)
    } else {
        Ok(ExitCode::Ok)
    }
}

/// The smallest files first (then case order), at most `PROBED_FILES`.
fn smallest<'c>(cases: &[&'c Case], path: impl Fn(&Case) -> Option<&Path>) -> Vec<&'c Case> {
    let mut sized: Vec<(u64, usize, &Case)> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let p = path(c)?;
            let size = std::fs::metadata(p).ok()?.len();
            Some((size, i, *c))
        })
        .collect();
    sized.sort_by_key(|&(size, i, _)| (size, i));
    sized
        .into_iter()
        .take(PROBED_FILES)
        .map(|(_, _, c)| c)
        .collect()
}

/// Write a mutated file where a tool can read it.
fn write_mutation(dir: &Path, name: &str, m: &Mutation) -> Result<PathBuf, String> {
    let path = dir.join(name);
    crate::report::write_atomically(&path, &m.bytes)
        .map_err(|e| format!("cannot write a mutated file {}: {e}", path.display()))?;
    Ok(path)
}

/// Run every input validator on every input, then probe each validator with
/// mutations of the smallest valid inputs. Returns the cases whose inputs
/// every validator accepted.
fn validate_inputs<'c>(
    problem: &Problem,
    cases: &'c [Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) -> Vec<&'c Case> {
    let (usable, built) = build_validators(problem, context, tally);
    let mut valid = Vec::new();
    let mut rejected = vec![0usize; usable.len()];
    for case in cases {
        tally.count(&case.input);
        let mut ok = usable.len() == problem.validators.len();
        // The case's group may give the validators arguments
        // (input_validator_args); the programs are the same, built once.
        let own = crate::cases::CaseSettings::input_validators(
            case.settings.as_deref(),
            &problem.validators,
        );
        let validators: Vec<&InputValidator> = own
            .iter()
            .zip(&built)
            .filter(|(_, built)| **built)
            .map(|(v, _)| v)
            .collect();
        for (v, validator) in validators.iter().enumerate() {
            match validator.check(context, &case.input) {
                Ok(Validity::Valid) => {}
                Ok(Validity::Invalid(message)) => {
                    ok = false;
                    rejected[v] += 1;
                    tally.error(format!(
                        "{}: invalid (input validator {}): {message}",
                        case.input.display(),
                        validator.tool.display
                    ));
                }
                Ok(Validity::Undefined { ended, message }) => {
                    ok = false;
                    rejected[v] += 1;
                    tally.warn(undefined_exit(&validator.tool.display, &ended));
                    tally.error(format!(
                        "{}: invalid (input validator {}, {ended}): {message}",
                        case.input.display(),
                        validator.tool.display
                    ));
                }
                Err(e) => {
                    ok = false;
                    tally.error(format!("{}: {e}", case.input.display()));
                }
            }
        }
        if ok {
            valid.push(case);
        }
    }
    let probes = smallest(&valid, |c| Some(c.input.as_path()));
    probe_validators(
        problem,
        &usable,
        &probes,
        &rejected,
        cases.len(),
        context,
        tally,
    );
    valid
}

/// Each input validator built once: those that built, and for each of the
/// problem's validators whether it did (one that did not is an error).
fn build_validators<'p>(
    problem: &'p Problem,
    context: ToolContext<'_>,
    tally: &mut Tally,
) -> (Vec<&'p InputValidator>, Vec<bool>) {
    let mut usable = Vec::new();
    let mut built = Vec::new();
    for validator in &problem.validators {
        match validator.tool.prepare(context.sandbox) {
            Ok(_) => {
                usable.push(validator);
                built.push(true);
            }
            Err(e) => {
                built.push(false);
                tally.error(format!("{}: input validator: {e}", problem.name));
            }
        }
    }
    (usable, built)
}

/// The warning for a Kattis validator that ended with neither 42 nor 43.
fn undefined_exit(validator: &str, ended: &str) -> String {
    format!(
        "input validator {validator} ended with {ended}, which the Kattis protocol does not define (42 valid, 43 invalid): counted as a rejection"
    )
}

/// Probe each input validator with mutations of the smallest valid inputs,
/// and print its line: inputs checked and rejected, mutations tried and
/// the kinds it accepted.
fn probe_validators(
    problem: &Problem,
    usable: &[&InputValidator],
    probes: &[&Case],
    rejected: &[usize],
    checked: usize,
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    let dir = match tempfile::Builder::new().prefix("judge-probe-").tempdir() {
        Ok(d) => d,
        Err(e) => {
            tally.error(format!("cannot create a directory for probing: {e}"));
            return;
        }
    };
    for (v, validator) in usable.iter().enumerate() {
        let Some(probed) = probe_validator(problem, validator, probes, dir.path(), context, tally)
        else {
            return;
        };
        for ended in &probed.undefined {
            tally.warn(undefined_exit(&validator.tool.display, ended));
        }
        let failed = if probed.failed > 0 {
            format!(" ({} failed to run)", probed.failed)
        } else {
            String::new()
        };
        let tried = probed.tried;
        outln!(
            "{}: input validator {}: {} input{} checked, {} invalid; {tried} mutation{}{failed} of {} valid input{} probed, {}",
            problem.name,
            validator.tool.display,
            checked,
            plural(checked),
            rejected[v],
            plural(tried),
            probes.len(),
            plural(probes.len()),
            accepted_kinds(&probed.accepted)
        );
    }
}

/// What probing one input validator found.
struct Probed {
    /// Mutations given to it.
    tried: usize,
    /// The kinds of mutation it accepted (each tried no further).
    accepted: BTreeSet<&'static str>,
    /// The undefined exits it ended with.
    undefined: BTreeSet<String>,
    /// Mutations it failed to run on.
    failed: usize,
}

/// Give `validator` the mutations of each probe (written in `dir`), with a
/// warning for each it accepts or fails on; `None` when a mutation could
/// not be written (the error is in `tally`).
fn probe_validator(
    problem: &Problem,
    validator: &InputValidator,
    probes: &[&Case],
    dir: &Path,
    context: ToolContext<'_>,
    tally: &mut Tally,
) -> Option<Probed> {
    let mut probed = Probed {
        tried: 0,
        accepted: BTreeSet::new(),
        undefined: BTreeSet::new(),
        failed: 0,
    };
    for (n, case) in probes.iter().enumerate() {
        let Ok(bytes) = std::fs::read(&case.input) else {
            continue;
        };
        for m in mutate::input_mutations(&bytes, n as u64 + 1) {
            if probed.accepted.contains(m.kind) {
                continue;
            }
            let path = match write_mutation(dir, &format!("mutated-{n}.in"), &m) {
                Ok(p) => p,
                Err(e) => {
                    tally.error(e);
                    return None;
                }
            };
            probed.tried += 1;
            match validator.check(context, &path) {
                Ok(Validity::Invalid(_)) => {}
                Ok(Validity::Undefined { ended, .. }) => {
                    probed.undefined.insert(ended);
                }
                Ok(Validity::Valid) => {
                    probed.accepted.insert(m.kind);
                    tally.warn(format!(
                        "{}: input validator {} accepted a mutated {}: {}; a validator should reject it",
                        problem.name, validator.tool.display, case.name, m.what
                    ));
                }
                Err(e) => {
                    // A validator that fails on a mutation neither
                    // accepted nor rejected it: named, not counted.
                    probed.failed += 1;
                    tally.warn(format!(
                        "{}: on a mutated {} ({}): {e}",
                        problem.name, case.name, m.what
                    ));
                }
            }
        }
    }
    Some(probed)
}

/// "all rejected", or how many kinds of mutation were accepted.
fn accepted_kinds(accepted: &BTreeSet<&'static str>) -> String {
    if accepted.is_empty() {
        "all rejected".to_string()
    } else {
        format!("{} kind{} accepted", accepted.len(), plural(accepted.len()))
    }
}

/// Give each answer file to the checker as an output (it must accept it),
/// then probe the checker with mutations of the smallest answers.
fn validate_answers(
    problem: &Problem,
    checker: &ExternalChecker,
    cases: &[&Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) {
    if let Err(e) = checker.tool.prepare(context.sandbox) {
        tally.error(format!("{}: checker: {e}", problem.name));
        return;
    }
    let mut accepting: Vec<&Case> = Vec::new();
    let mut answers = 0usize;
    for case in cases {
        let Some(answer_path) = &case.answer else {
            continue;
        };
        answers += 1;
        let Some(answer) = tally.read(answer_path) else {
            continue;
        };
        let judgement = checker.check(
            context,
            &case.input,
            Some(answer_path),
            Text::Bytes(&answer),
        );
        match judgement.verdict {
            Verdict::Accepted => accepting.push(case),
            Verdict::InternalError | Verdict::Skipped => tally.error(format!(
                "{}: the checker failed on the answer file as an output: {}",
                answer_path.display(),
                judgement.message
            )),
            other if folders::shown_as_is(problem, case) => tally.error(format!(
                "{}: the checker does not accept the answer file as an output ({other}: {}), \
                 but a sample's .ans shown in the statement must pass it (2025-09; a .out or \
                 .ans.statement beside it would be shown instead)",
                answer_path.display(),
                judgement.message
            )),
            other => tally.warn(format!(
                "{}: the checker does not accept the answer file as an output ({other}: {})",
                answer_path.display(),
                judgement.message
            )),
        }
    }
    let probes = smallest(&accepting, |c| c.answer.as_deref());
    let (tried, accepted) = probe_checker(problem, checker, &probes, context, tally);
    outln!(
        "{}: checker {} ({}): {} answer file{} given as outputs, {} accepted; {tried} mutation{} of {} answer{} probed, {}",
        problem.name,
        checker.tool.display,
        checker.protocol.name(),
        answers,
        plural(answers),
        accepting.len(),
        plural(tried),
        probes.len(),
        plural(probes.len()),
        accepted_kinds(&accepted)
    );
}

/// Give the checker mutations of the smallest accepted answers as outputs:
/// how many were tried, and the kinds it accepted (or failed on).
fn probe_checker(
    problem: &Problem,
    checker: &ExternalChecker,
    probes: &[&Case],
    context: ToolContext<'_>,
    tally: &mut Tally,
) -> (usize, BTreeSet<&'static str>) {
    let mut tried = 0usize;
    let mut accepted: BTreeSet<&'static str> = BTreeSet::new();
    for case in probes {
        let Some(answer_path) = &case.answer else {
            continue;
        };
        let Ok(answer) = std::fs::read(answer_path) else {
            continue;
        };
        for m in mutate::answer_mutations(&answer) {
            if accepted.contains(m.kind) {
                continue;
            }
            tried += 1;
            let judgement = checker.check(
                context,
                &case.input,
                Some(answer_path),
                Text::Bytes(&m.bytes),
            );
            match judgement.verdict {
                Verdict::Accepted => {
                    accepted.insert(m.kind);
                    tally.warn(format!(
                        "{}: checker {} accepted a mutated answer of {} as an output: {}; a checker should reject it",
                        problem.name, checker.tool.display, case.name, m.what
                    ));
                }
                Verdict::InternalError => {
                    accepted.insert(m.kind);
                    tally.warn(format!(
                        "{}: checker {} failed on a mutated answer of {} ({}) instead of rejecting it: {}",
                        problem.name, checker.tool.display, case.name, m.what, judgement.message
                    ));
                }
                _ => {}
            }
        }
    }
    (tried, accepted)
}
