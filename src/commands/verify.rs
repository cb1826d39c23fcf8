//! `judge verify [PROBLEM…]`: judge every submission of each problem on
//! every case in one parallel plan, at the time limit × `--margin`, grade
//! each case at the limit from the measured times, and check each
//! submission got what it is expected to get (its `submissions/<folder>/`,
//! its `judge:` first line, or a judge.toml `expect` table).
//!
//! Prints a table of submissions × outcome, each disagreement with the case
//! that disagreed and why, and a warning for each submission whose verdict
//! differs between the limit and the margin ("sensitive to the time
//! limit"). Exit 0 all agree, 1 some disagree, 2 usage, 3 an internal error
//! (an IE case, or a report that could not be written), 130 interrupted.
//! A submission whose compiler or interpreter is not installed is listed as
//! not run, with a warning, and does not fail the command.

use super::submissions::{self, Entrant, Readiness, Submission};
use super::{EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, Failure, Outcome, load_config, overrides};
use crate::cli::{CompareArgs, Selection, VerifyArgs};
use crate::config::{Config, Problem, Span};
use crate::expect::Disagreement;
use crate::judge::regrade;
use crate::judge::{CaseResult, Report};
use crate::report::Format;
use crate::submission::Toolchain;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

pub fn verify(config_path: Option<&Path>, args: VerifyArgs) -> Outcome {
    if !(args.margin >= 1.0 && args.margin.is_finite()) {
        return Err(Failure::Usage(format!(
            "--margin {}: a factor of at least 1 is needed",
            args.margin
        )));
    }
    if args.jobs == Some(0) {
        return Err(Failure::Usage("-j 0: at least one worker is needed".into()));
    }
    let overrides = overrides(&args.limits, &CompareArgs::default())?;
    let config = load_config(config_path, &overrides)?.ok_or_else(|| {
        Failure::Usage(
            "judge verify needs a judge.toml (here, or --config FILE) naming the problems".into(),
        )
    })?;
    let problems = chosen_problems(&config, &args.problems)?;
    let toolchain = Toolchain::new(Some(&config));
    let mut warnings = Vec::new();
    let mut cases = Vec::new();
    let mut all: Vec<Submission> = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let selection = Selection {
            paths: Vec::new(),
            problem: Some(problem.name.clone()),
            filter: args.filter.clone(),
        };
        let selected = super::select(Some(&config), &selection, &overrides)?;
        warnings.extend(selected.warnings);
        let problem_cases = selected.cases.into_iter().next().unwrap_or_default();
        if problem_cases.is_empty() {
            warnings.push(format!("{}: no cases to judge", problem.name));
        }
        cases.push(problem_cases);
        all.extend(submissions::discover(
            problem,
            i,
            &toolchain,
            &mut warnings,
        )?);
    }
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    if all.is_empty() {
        return Err(Failure::Usage(format!(
            "no submissions to verify in {}",
            problems
                .iter()
                .map(|p| p.submissions.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }

    let (interrupt, sandbox) = super::judging_sandbox(
        Some(&config),
        &problems,
        true,
        args.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        crate::exec::sandbox::SandboxMode::Auto,
    )?;
    let readiness = submissions::build_all(&all, &toolchain, &sandbox)?;
    let mut entrants = Vec::new();
    let mut entrant_of = vec![None; all.len()];
    let mut not_run = vec![None; all.len()];
    for (i, (submission, ready)) in all.iter().zip(readiness).enumerate() {
        match ready {
            Readiness::Ready(program) => {
                entrant_of[i] = Some(entrants.len());
                entrants.push(Entrant {
                    problem: submission.problem,
                    program,
                });
            }
            Readiness::NotRun(why) => not_run[i] = Some(why),
        }
    }
    let margin_limits: Vec<_> = problems
        .iter()
        .map(|p| regrade::at_margin(&p.limits, args.margin))
        .collect();
    let trial = submissions::trial(
        &problems,
        &cases,
        &margin_limits,
        entrants,
        1,
        args.jobs.unwrap_or(0),
        Some(interrupt.flag()),
        &sandbox,
    )?;

    // Grade at the limit; decide each submission.
    let mut graded_cases: Vec<CaseResult> = Vec::new();
    let mut verdicts: Vec<Option<Assessment>> = Vec::new();
    for (i, submission) in all.iter().enumerate() {
        let Some(e) = entrant_of[i] else {
            verdicts.push(None);
            continue;
        };
        let limits = &problems[submission.problem].limits;
        let raw: Vec<&CaseResult> = trial.results[e].iter().filter_map(|r| r.first()).collect();
        let graded: Vec<CaseResult> = raw.iter().map(|r| regrade::regrade(r, limits)).collect();
        verdicts.push(Some(assess(submission, &raw, &graded)));
        graded_cases.extend(graded);
    }
    graded_cases.sort_by_key(|c| c.index);
    let report = Report::new(
        trial.report.info.clone(),
        graded_cases,
        trial.report.interrupted,
        Duration::from_secs_f64(trial.report.elapsed_ms / 1000.0),
    );

    let machine_to_stdout =
        args.report.is_none() && args.format.is_some_and(|f| f != Format::Human);
    let mut out: Box<dyn std::io::Write> = if machine_to_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(super::stdout::Stdout)
    };
    let table = render(
        &problems,
        &cases,
        &all,
        &verdicts,
        &not_run,
        &report,
        args.margin,
        args.verbose,
    );
    let _ = out.write_all(table.text.as_bytes());
    drop(out);

    let mut code = if report.interrupted {
        super::EXIT_INTERRUPTED
    } else if table.internal_errors > 0 {
        EXIT_INTERNAL
    } else if table.disagreements > 0 {
        EXIT_FAILED
    } else {
        EXIT_OK
    };
    if let Some(format) = machine_format(&args)? {
        let bytes = crate::report::render(format, &report)
            .map_err(|e| Failure::Internal(format!("cannot render the report: {e}")))?;
        match &args.report {
            Some(path) => {
                if let Err(e) = crate::report::write_atomically(path, &bytes) {
                    eprintln!(
                        "judge: internal error: cannot write the report {}: {e}",
                        path.display()
                    );
                    code = code.max(EXIT_INTERNAL);
                }
            }
            None => {
                use std::io::Write;
                let _ = super::stdout::Stdout.write_all(&bytes);
            }
        }
    }
    Ok(code)
}

fn machine_format(args: &VerifyArgs) -> Result<Option<Format>, Failure> {
    Ok(match (&args.report, args.format) {
        (Some(path), None | Some(Format::Human)) => {
            Some(Format::from_extension(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "--report {}: say --format json, ndjson or junit (the extension does not tell)",
                    path.display()
                ))
            })?)
        }
        (_, Some(Format::Human)) | (None, None) => None,
        (_, Some(f)) => Some(f),
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
                Failure::Usage(format!(
                    "no problem {name:?} in {} (its problems: {})",
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

/// How one submission did.
struct Assessment {
    /// Graded verdict counts.
    counts: BTreeMap<Verdict, usize>,
    /// The disagreement, told for people.
    disagreement: Option<String>,
    /// Cases whose verdict differs between the limit and the margin.
    sensitive: Vec<String>,
    /// The slowest case that ran: (case, cpu ms, share of the limit).
    slowest: Option<(String, f64, f64)>,
    internal_error: Option<String>,
}

fn assess(submission: &Submission, raw: &[&CaseResult], graded: &[CaseResult]) -> Assessment {
    let mut counts = BTreeMap::new();
    for g in graded {
        *counts.entry(g.verdict).or_insert(0) += 1;
    }
    let internal_error = graded
        .iter()
        .find(|g| g.verdict == Verdict::InternalError)
        .map(|g| format!("{}: {}", g.case, g.message));
    let judged: Vec<Verdict> = graded.iter().map(|g| g.verdict).collect();
    let disagreement = if graded.iter().any(|g| g.verdict == Verdict::Skipped) {
        Some("not every case ran (interrupted)".to_string())
    } else {
        match submission.expectation.assess(&judged) {
            Ok(()) => None,
            Err(Disagreement::Forbidden { position, verdict }) => {
                let g = &graded[position];
                Some(format!(
                    "expected {}; got {} on {}: {}",
                    submission.expectation,
                    verdict.code(),
                    g.case,
                    g.message
                ))
            }
            Err(Disagreement::Missing { required }) => {
                let codes: Vec<&str> = required.iter().map(|v| v.code()).collect();
                let got: Vec<String> = counts
                    .iter()
                    .map(|(v, n)| format!("{} {n}", v.code()))
                    .collect();
                let slowest = slowest(graded)
                    .map(|(case, cpu, ratio)| {
                        format!(
                            "; slowest {case} {:.3}s ({:.0}% of the limit)",
                            cpu / 1000.0,
                            ratio * 100.0
                        )
                    })
                    .unwrap_or_default();
                Some(format!(
                    "expected {} on some case; got {} on {} case{}{slowest}",
                    codes.join(" or "),
                    if got.is_empty() {
                        "nothing".to_string()
                    } else {
                        got.join(", ")
                    },
                    graded.len(),
                    if graded.len() == 1 { "" } else { "s" },
                ))
            }
        }
    };
    let sensitive = raw
        .iter()
        .zip(graded)
        .filter(|(r, g)| regrade::sensitive(r, g))
        .map(|(r, g)| {
            format!(
                "{} takes {:.3}s CPU ({:.3}s wall): {} at the limit {}, {} at the margin {}",
                g.case,
                r.cpu_ms / 1000.0,
                r.wall_ms / 1000.0,
                g.verdict.code(),
                Span(Duration::from_secs_f64(g.time_limit_ms / 1000.0)),
                r.verdict.code(),
                Span(Duration::from_secs_f64(r.time_limit_ms / 1000.0)),
            )
        })
        .collect();
    Assessment {
        counts,
        disagreement,
        sensitive,
        slowest: slowest(graded),
        internal_error,
    }
}

fn slowest(graded: &[CaseResult]) -> Option<(String, f64, f64)> {
    graded
        .iter()
        .filter(|g| {
            !matches!(
                g.verdict,
                Verdict::CompileError | Verdict::InternalError | Verdict::Skipped
            )
        })
        .max_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms))
        .map(|g| (g.case.clone(), g.cpu_ms, g.tl_ratio))
}

struct Table {
    text: String,
    disagreements: usize,
    internal_errors: usize,
}

#[allow(clippy::too_many_arguments)]
fn render(
    problems: &[Problem],
    cases: &[Vec<crate::cases::Case>],
    all: &[Submission],
    verdicts: &[Option<Assessment>],
    not_run: &[Option<String>],
    report: &Report,
    margin: f64,
    verbose: bool,
) -> Table {
    use std::fmt::Write;
    let mut text = String::new();
    let mut disagreements = 0;
    let mut internal_errors = 0;
    let mut details = Vec::new();
    let mut warnings = Vec::new();
    let mut agreed = 0;
    let mut skipped = 0;
    for (p, problem) in problems.iter().enumerate() {
        let mine: Vec<usize> = (0..all.len()).filter(|&i| all[i].problem == p).collect();
        let _ = writeln!(
            text,
            "{}: {} submission{} on {} case{}, time limit {} (run at {})",
            problem.name,
            mine.len(),
            plural(mine.len()),
            cases[p].len(),
            plural(cases[p].len()),
            Span(problem.limits.time),
            Span(problem.limits.time.mul_f64(margin)),
        );
        let width = mine
            .iter()
            .map(|&i| all[i].rel.chars().count())
            .max()
            .unwrap_or(10)
            .max(10);
        let expected_width = mine
            .iter()
            .map(|&i| all[i].expectation.to_string().chars().count())
            .max()
            .unwrap_or(8)
            .max(8);
        let _ = writeln!(
            text,
            "        {:<width$}  {:<expected_width$}  {:<18}  slowest",
            "submission", "expected", "got"
        );
        for &i in &mine {
            let s = &all[i];
            let expected = s.expectation.to_string();
            let (status, got, slow) = match (&verdicts[i], &not_run[i]) {
                (_, Some(why)) => {
                    skipped += 1;
                    warnings.push(format!("{}/{} was not run: {why}", problem.name, s.rel));
                    ("skip", format!("not run: {why}"), String::new())
                }
                (Some(a), None) => {
                    let got = a
                        .counts
                        .iter()
                        .map(|(v, n)| format!("{} {n}", v.code()))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let slow = a
                        .slowest
                        .as_ref()
                        .map(|(case, cpu, ratio)| {
                            format!("{:.3}s {:>3.0}% {case}", cpu / 1000.0, ratio * 100.0)
                        })
                        .unwrap_or_default();
                    for line in &a.sensitive {
                        warnings.push(format!(
                            "{}/{} is sensitive to the time limit: {line}",
                            problem.name, s.rel
                        ));
                    }
                    let status = if let Some(ie) = &a.internal_error {
                        internal_errors += 1;
                        details.push(format!(
                            "  IE   {}/{}: an internal error, not the submission's fault: {ie}",
                            problem.name, s.rel
                        ));
                        "IE"
                    } else if let Some(d) = &a.disagreement {
                        disagreements += 1;
                        details.push(format!("  FAIL {}/{}: {d}", problem.name, s.rel));
                        "FAIL"
                    } else {
                        agreed += 1;
                        "ok"
                    };
                    (status, got, slow)
                }
                (None, None) => ("skip", "not run".to_string(), String::new()),
            };
            let _ = writeln!(
                text,
                "  {status:<4}  {:<width$}  {expected:<expected_width$}  {got:<18}  {slow}",
                s.rel
            );
            if verbose {
                for c in report
                    .cases
                    .iter()
                    .filter(|c| c.problem == problem.name && c.program.as_deref() == Some(&s.rel))
                {
                    let _ = writeln!(
                        text,
                        "          {:<4} {} {:.3}s  {}",
                        c.verdict.code(),
                        c.case,
                        c.cpu_ms / 1000.0,
                        c.message
                    );
                }
            }
        }
        let _ = writeln!(text);
    }
    if !details.is_empty() {
        let _ = writeln!(text, "Disagreements:");
        for d in &details {
            let _ = writeln!(text, "{d}");
        }
        let _ = writeln!(text);
    }
    for w in &warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    let total = all.len();
    let mut tail = vec![format!("{agreed} of {total} submissions as expected")];
    if disagreements > 0 {
        tail.push(format!(
            "{disagreements} disagree{}",
            if disagreements == 1 { "s" } else { "" }
        ));
    }
    if internal_errors > 0 {
        tail.push(format!("{internal_errors} with internal errors"));
    }
    if skipped > 0 {
        tail.push(format!("{skipped} not run"));
    }
    if report.interrupted {
        tail.push("interrupted".to_string());
    }
    let head = if disagreements + internal_errors > 0 || report.interrupted {
        "FAIL"
    } else {
        "OK"
    };
    let _ = writeln!(text, "{head}: {}", tail.join(", "));
    Table {
        text,
        disagreements,
        internal_errors,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
