//! `judge verify [PROBLEM…]`: judge every submission of each problem on
//! every case in one parallel plan, at the time limit × `--margin`, grade
//! each case at the limit from the measured times, and check each
//! submission got what it is expected to get (its `submissions/<folder>/`,
//! its `judge:` first line, or a judge.toml `expect` table).
//!
//! The problems are judge.toml's, or Kattis packages (a directory with
//! problem.yaml, read with its own `submissions/`): named on the command
//! line, or the current directory when there is no judge.toml.
//!
//! Prints a table of submissions × outcome, each disagreement with the case
//! that disagreed and why, and a warning for each submission whose verdict
//! differs between the limit and the margin ("sensitive to the time
//! limit"); `-q` prints only the last line. Exit 0 all agree, 1 some
//! disagree or could not run (a compiler or interpreter is missing; with
//! `--allow-missing` such a submission is skipped with a warning), 2 usage,
//! 3 an internal error (an IE case, or a report that could not be
//! written), 130 interrupted. The report (`--report`, `--format`) carries
//! the outcome in `verify`.

mod assess;
mod table;
mod time_limit;
mod tools;

use super::output::ReportChoice;
use super::submissions::{self, Entrant, Readiness, Submission};
use super::{Failure, Outcome, load_config, overrides};
use crate::cli::{CompareArgs, Selection, VerifyArgs};
use crate::config::{self, Config, Overrides, Problem};
use crate::judge::regrade;
use crate::judge::{CaseResult, Report};
use crate::verdict::ExitCode;
use assess::Assessed;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub fn verify(config_path: Option<&Path>, args: VerifyArgs) -> Outcome {
    check_args(&args)?;
    let choice = ReportChoice::new(args.report.as_deref(), args.format)?;
    let overrides = overrides(&args.limits, &CompareArgs::default())?;
    let config = load_config(config_path, &overrides)?;
    let targets = targets(config.as_ref(), &args.problems, &overrides)?;
    let mut problems: Vec<Problem> = targets.iter().map(|t| t.problem.clone()).collect();
    let toolchain = crate::config::toolchain(config.as_ref());
    let (cases, all) =
        cases_and_submissions(&targets, config.as_ref(), &args, &overrides, &toolchain)?;
    let hidden = super::sandbox::Hidden {
        config: config.as_ref(),
        problems: &problems,
        cases: super::sandbox::HiddenCases::Made(&cases),
        submissions: true,
        extra: Vec::new(),
    };
    let (interrupt, sandbox) = super::sandbox::trial_sandbox(&hidden, args.jobs)?;
    let entered = enter(&all, &toolchain, &sandbox)?;
    let cache = super::cache::open(&args.cache)?;
    time_limit::derive(
        &mut problems,
        time_limit::Probe {
            cases: &cases,
            all: &all,
            entered: &entered,
            jobs: args.jobs.unwrap_or(0),
            interrupted: interrupt.flag(),
            sandbox: &sandbox,
            quiet: args.quiet,
            cache: cache.clone(),
        },
    )?;
    let margin_limits: Vec<_> = problems
        .iter()
        .map(|p| regrade::at_margin(&p.limits, args.margin))
        .collect();
    let trial = submissions::trial(
        &problems,
        &cases,
        &margin_limits,
        entered.entrants,
        1,
        args.jobs.unwrap_or(0),
        Some(interrupt.flag()),
        &sandbox,
        cache.clone(),
    )?;
    super::cache::finish(cache.as_deref());
    let (mut report, assessed) = grade(
        &problems,
        &all,
        &entered.slots,
        &trial,
        &margin_limits,
        &args,
    );
    let tool_tests = tools::run(&problems, &sandbox);
    let verification = table::verification(
        &assessed,
        tool_tests,
        report.interrupted,
        args.allow_missing,
        args.margin,
    );
    print_table(
        &args,
        &choice,
        &problems,
        &cases,
        &all,
        &report,
        &assessed,
        &verification,
    );
    let code = exit_code(&report, &verification);
    report.verify = Some(verification);
    Ok(code.worst(write_report(&choice, &report)?))
}

fn check_args(args: &VerifyArgs) -> Result<(), Failure> {
    if crate::units::factor(args.margin, 1.0).is_none() {
        return Err(Failure::Usage(format!(
            "--margin {:?}: a factor from 1 to {} is needed",
            args.margin,
            crate::units::MAX_FACTOR
        )));
    }
    if args.jobs == Some(0) {
        return Err(Failure::Usage("-j 0: at least one worker is needed".into()));
    }
    Ok(())
}

/// Each problem's cases, and every submission of every problem (labelled
/// with its problem when there are several). Warnings are printed here.
fn cases_and_submissions(
    targets: &[Target],
    config: Option<&Config>,
    args: &VerifyArgs,
    overrides: &Overrides,
    toolchain: &crate::submission::Toolchain,
) -> Result<(Vec<Vec<crate::cases::Case>>, Vec<Submission>), Failure> {
    let mut warnings = Vec::new();
    let mut cases = Vec::new();
    let mut all: Vec<Submission> = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        let problem = &target.problem;
        // A package's cases as `judge run PKG` finds them; a configured
        // problem's by its name.
        let (selection_config, paths, name) = match &target.package {
            Some(root) => (None, vec![root.clone()], None),
            None => (config, Vec::new(), Some(problem.name.clone())),
        };
        let selection = Selection {
            paths,
            problem: name,
            filter: args.filter.clone(),
        };
        let selected = super::select(selection_config, &selection, overrides)?;
        warnings.extend(selected.warnings);
        let problem_cases = selected.cases.into_iter().next().unwrap_or_default();
        // A submission judged on no case is never as expected: a problem
        // with no tests to judge is an error.
        if problem_cases.is_empty() {
            for w in &warnings {
                crate::commands::stdout::say!("warning: {w}");
            }
            return Err(Failure::Usage(format!(
                "{}: no cases to judge{}",
                problem.name,
                if args.filter.is_some() {
                    " (--filter left none)"
                } else {
                    ""
                }
            )));
        }
        cases.push(problem_cases.to_vec());
        let mut found = submissions::discover(problem, i, toolchain, &mut warnings)?;
        if targets.len() > 1 {
            // Two problems may both have accepted/sum.c: name the problem.
            for s in &mut found {
                s.label = format!("{}/{}", problem.name, s.rel);
            }
        }
        all.extend(found);
    }
    for w in &warnings {
        crate::commands::stdout::say!("warning: {w}");
    }
    if all.is_empty() {
        return Err(Failure::Usage(format!(
            "no submissions to verify in {}",
            targets
                .iter()
                .map(|t| t.problem.submissions.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok((cases, all))
}

/// The submissions that could be built, as entrants of the trial, and per
/// submission either its entrant's index or why it was not run.
struct Entered {
    entrants: Vec<Entrant>,
    slots: Vec<Result<usize, String>>,
}

fn enter(
    all: &[Submission],
    toolchain: &crate::submission::Toolchain,
    sandbox: &std::sync::Arc<crate::exec::sandbox::Sandbox>,
) -> Result<Entered, Failure> {
    let readiness = submissions::build_all(all, toolchain, sandbox)?;
    let mut entered = Entered {
        entrants: Vec::new(),
        slots: Vec::with_capacity(all.len()),
    };
    for (submission, ready) in all.iter().zip(readiness) {
        match ready {
            Readiness::Ready(program) => {
                entered.slots.push(Ok(entered.entrants.len()));
                entered.entrants.push(Entrant {
                    problem: submission.problem,
                    program,
                });
            }
            Readiness::NotRun(why) => entered.slots.push(Err(why)),
        }
    }
    Ok(entered)
}

/// Grade every case at the limit and decide each submission; the report
/// of the graded cases, its problems carrying their real limits with the
/// limit the runs were made under (× the margin) beside them.
fn grade(
    problems: &[Problem],
    all: &[Submission],
    slots: &[Result<usize, String>],
    trial: &submissions::Trial,
    margin_limits: &[crate::exec::Limits],
    args: &VerifyArgs,
) -> (Report, Vec<Assessed>) {
    let mut graded_cases: Vec<CaseResult> = Vec::new();
    let mut assessed: Vec<Assessed> = Vec::new();
    for (submission, slot) in all.iter().zip(slots) {
        let name = &problems[submission.problem].name;
        let e = match slot {
            Ok(e) => *e,
            Err(why) => {
                assessed.push(assess::not_run(name, submission, why, args.allow_missing));
                continue;
            }
        };
        let limits = &problems[submission.problem].limits;
        let raw: Vec<&CaseResult> = trial.results[e].iter().filter_map(|r| r.first()).collect();
        let mut graded: Vec<CaseResult> = raw.iter().map(|r| regrade::regrade(r, limits)).collect();
        // A scoring problem: graded at the limit, then scored (a case that
        // fails only at the limit can stop its group).
        let score = problems[submission.problem]
            .scoring
            .as_ref()
            .map(|plan| crate::judge::score_program(plan, &mut graded));
        assessed.push(assess::assess(
            name,
            submission,
            &raw,
            &graded,
            score,
            args.filter.is_some(),
        ));
        graded_cases.extend(graded);
    }
    graded_cases.sort_by_key(|c| c.index);
    let mut info = trial.report.info.clone();
    // Expectations --filter left unchecked: said on stderr whatever the
    // format or -q, and kept in the report.
    for (a, submission) in assessed.iter().zip(all) {
        for line in &a.unchecked {
            let warning = format!(
                "{}/{}: {line}",
                problems[submission.problem].name, submission.rel
            );
            crate::commands::stdout::say!("warning: {warning}");
            info.warnings.push(warning);
        }
    }
    info.problems = problems
        .iter()
        .zip(margin_limits)
        .map(|(p, at_margin)| {
            let mut described = crate::judge::problem_info(p);
            described.run_time_limit_ms = Some(crate::text::format::millis(at_margin.time));
            described
        })
        .collect();
    let mut report = Report::scored(
        info,
        graded_cases,
        trial.report.interrupted,
        Duration::try_from_secs_f64(trial.report.elapsed_ms / 1000.0).unwrap_or_default(),
    );
    report.cache = trial.report.cache.clone();
    (report, assessed)
}

/// The verify table (or with `-q` its last line): on stdout, or on stderr
/// when a machine report goes to stdout.
#[allow(clippy::too_many_arguments)]
fn print_table(
    args: &VerifyArgs,
    choice: &ReportChoice,
    problems: &[Problem],
    cases: &[Vec<crate::cases::Case>],
    all: &[Submission],
    report: &Report,
    assessed: &[Assessed],
    verification: &crate::judge::verified::Verification,
) {
    let mut out: Box<dyn std::io::Write> = if choice.stdout.is_some() {
        Box::new(std::io::stderr())
    } else {
        Box::new(super::stdout::Stdout)
    };
    let text = if args.quiet {
        format!(
            "{}{}\n",
            table::last_line(verification, report.interrupted),
            cache_line(report, true)
        )
    } else {
        let counts: Vec<usize> = cases.iter().map(Vec::len).collect();
        table::render(
            &table::Context {
                problems,
                cases: &counts,
                all,
                report,
                margin: args.margin,
                verbose: args.verbose,
            },
            assessed,
            verification,
        )
    };
    // Names in it were escaped where they were written; no control
    // character a file name or a program's message held reaches the
    // terminal.
    let text = crate::text::whitespace::terminal_safe(&text);
    let _ = out.write_all(text.as_bytes());
    if !args.quiet {
        let _ = out.write_all(cache_line(report, false).as_bytes());
    }
}

/// What the run cache did: with `-q`, after the last line when any run
/// was reused; otherwise a line of its own. Then each `--recheck`
/// disagreement, named.
fn cache_line(report: &Report, quiet: bool) -> String {
    let Some(cache) = &report.cache else {
        return String::new();
    };
    let mut text = match (quiet, cache.reused) {
        (true, 0) => String::new(),
        (true, reused) => format!(" ({} ran, {reused} reused from the cache)", cache.ran),
        (false, reused) => format!(
            "cache: {} ran, {reused} reused{} (--no-cache runs everything)\n",
            cache.ran,
            match cache.rechecked {
                0 => String::new(),
                n => format!(", {n} re-checked"),
            }
        ),
    };
    for d in &cache.disagreements {
        text.push_str(&if quiet {
            format!("\nrecheck: {d}")
        } else {
            format!("recheck: {d}\n")
        });
    }
    text
}

fn exit_code(report: &Report, verification: &crate::judge::verified::Verification) -> ExitCode {
    if report.interrupted {
        ExitCode::Interrupted
    } else if verification.internal_errors > 0 {
        ExitCode::Internal
    } else if !verification.ok {
        ExitCode::Failed
    } else {
        ExitCode::Ok
    }
}

/// The machine report, if one was asked for: into `--report` (atomically;
/// a failure is an internal error) or on stdout.
fn write_report(choice: &ReportChoice, report: &Report) -> Result<ExitCode, Failure> {
    let Some(format) = choice.machine() else {
        return Ok(ExitCode::Ok);
    };
    let bytes = crate::report::render(format, report)
        .map_err(|e| Failure::Internal(format!("cannot render the report: {e}")))?;
    match &choice.file {
        Some((path, _)) => {
            if let Err(e) = crate::report::write_atomically(path, &bytes) {
                crate::commands::stdout::say!(
                    "judge: internal error: cannot write the report {}: {e}",
                    path.display()
                );
                return Ok(ExitCode::Internal);
            }
        }
        None => {
            use std::io::Write;
            let _ = super::stdout::Stdout.write_all(&bytes);
        }
    }
    Ok(ExitCode::Ok)
}

/// A problem to verify, and the package it was read from when it is not
/// one of judge.toml's.
struct Target {
    problem: Problem,
    package: Option<PathBuf>,
}

/// The problems to verify: judge.toml's (all with a submissions directory,
/// or those named), packages named by their directory, or with no
/// judge.toml and no names the package in the current directory.
fn targets(
    config: Option<&Config>,
    names: &[String],
    overrides: &Overrides,
) -> Result<Vec<Target>, Failure> {
    let configured = |problem: Problem| Target {
        problem,
        package: None,
    };
    if names.is_empty() {
        return match config {
            Some(config) => Ok(chosen_problems(config, &[])?
                .into_iter()
                .map(configured)
                .collect()),
            None if crate::formats::is_package(Path::new(".")) => {
                Ok(vec![package_target(Path::new("."), overrides)?])
            }
            None => Err(Failure::Usage(format!(
                "judge verify needs a judge.toml (here, or --config FILE) naming the problems, or a problem package: run it in a directory with {}, or name one (judge verify PACKAGE_DIR)",
                crate::formats::kattis::PROBLEM_YAML
            ))),
        };
    }
    names
        .iter()
        .map(|name| {
            let path = Path::new(name);
            match config {
                Some(config) if config.problem(name).is_some() || !crate::formats::is_package(path) => {
                    Ok(configured(
                        chosen_problems(config, std::slice::from_ref(name))?.remove(0),
                    ))
                }
                _ if crate::formats::is_package(path) => package_target(path, overrides),
                _ => Err(Failure::Usage(format!(
                    "{name}: not a problem package (no {} or {} in it), and no judge.toml here (or --config FILE) names problems",
                    crate::formats::kattis::PROBLEM_YAML,
                    crate::formats::kattis::DOMJUDGE_INI
                ))),
            }
        })
        .collect()
}

/// A Kattis package as a problem, with its own `submissions/`.
fn package_target(root: &Path, overrides: &Overrides) -> Result<Target, Failure> {
    // Data a generators.yaml makes is made first when missing or stale.
    crate::commands::generators::prepare_package(root)?;
    let problem =
        config::package_problem(root, overrides).map_err(|e| Failure::Usage(e.to_string()))?;
    if !problem.submissions.is_dir() {
        return Err(Failure::Usage(format!(
            "package {}: no submissions directory {} (submissions/<expected verdict>/ with the programs to verify)",
            root.display(),
            problem.submissions.display()
        )));
    }
    Ok(Target {
        problem,
        package: Some(root.to_path_buf()),
    })
}

/// The problems named, or every problem with a submissions directory.
pub fn chosen_problems(config: &Config, names: &[String]) -> Result<Vec<Problem>, Failure> {
    if names.is_empty() {
        let with: Vec<Problem> = config
            .problems
            .iter()
            .filter(|p| p.submissions.is_dir())
            .cloned()
            .collect();
        if with.is_empty() {
            return Err(Failure::Usage(format!(
                "no problem in {} has a submissions directory (submissions/NAME beside it, or submissions = \"DIR\" in its table)",
                config.path.display()
            )));
        }
        return Ok(with);
    }
    names
        .iter()
        .map(|name| {
            let problem = config.problem(name).ok_or_else(|| {
                // A name that looks like a path was meant as a package.
                let missing = if name.contains('/') && !std::path::Path::new(name).exists() {
                    format!("{name}: no such directory, and ")
                } else {
                    String::new()
                };
                Failure::Usage(format!(
                    "{missing}no problem {name:?} in {} (its problems: {})",
                    config.path.display(),
                    config
                        .problems
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            if !problem.submissions.is_dir() {
                return Err(Failure::Usage(format!(
                    "problem {name}: no submissions directory {} (set submissions = \"DIR\" in its table)",
                    problem.submissions.display()
                )));
            }
            Ok(problem.clone())
        })
        .collect()
}
