//! `judge run`: choose problems and cases, choose each problem's program
//! (the submission, the built-in solver, or the problem's reference
//! `solution`), build the jobs (filter, then partition), run them, and
//! report: the human report on stdout, or a machine format on stdout, or a
//! machine format in `--report FILE` (written atomically) beside the human
//! report.

use super::{Failure, Outcome, load_config, overrides, select};
use crate::cases::Partition;
use crate::cli::RunArgs;
use crate::exec::builtin::BuiltinRunner;
use crate::exec::process::ProcessRunner;
use crate::judge::{self, Job, Plan, Program, Reporter, RunInfo, RunOptions};
use crate::puzzles::SolveOptions;
use crate::report::human::{HumanReporter, Verbosity};
use crate::report::{FileSink, Format, Tee, machine_reporter};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

pub fn run(config_path: Option<&Path>, args: RunArgs) -> Outcome {
    let overrides = overrides(&args.limits, &args.compare)?;
    let config = load_config(config_path, &overrides)?;
    let mut selected = select(config.as_ref(), &args.selection, &overrides)?;
    // Discovery's scaffolding (a map of every file under the cases roots)
    // is gone: give its memory back before the long run starts.
    // SAFETY: malloc_trim only releases free heap memory.
    unsafe { libc::malloc_trim(0) };
    let partition: Option<Partition> = args
        .partition
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(Failure::Usage)?;
    if args.jobs == Some(0) {
        return Err(Failure::Usage(
            "-j 0: at least one worker is needed".to_string(),
        ));
    }

    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (interrupt, sandbox) = super::judging_sandbox(
        config.as_ref(),
        &selected.problems,
        args.submission.is_some(),
        workers,
        args.sandbox,
    )?;

    let toolchain = crate::config::toolchain(config.as_ref());
    // One program per distinct command, shared by the problems that use it.
    let mut programs: Vec<Program> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut program_of = Vec::new();
    let solve_options = SolveOptions {
        heuristic: args.heuristic.clone(),
    };
    for problem in &selected.problems {
        let (key, make): (String, Box<dyn Fn() -> Result<Program, Failure>>) = if let Some(cmd) =
            &args.submission
        {
            let sandbox = Arc::clone(&sandbox);
            let cmd = cmd.clone();
            let toolchain = toolchain.clone();
            let language = args.language.clone();
            let quiet = args.quiet;
            (
                format!("cmd:{cmd}"),
                Box::new(move || {
                    super::submission_program(
                        &cmd,
                        language.as_deref(),
                        &toolchain,
                        &sandbox,
                        quiet,
                    )
                }),
            )
        } else if let Some(puzzle) = problem
            .puzzle
            .filter(|_| args.builtin || problem.solution.is_none())
        {
            let options = solve_options.clone();
            (
                format!("builtin:{}", puzzle.name()),
                Box::new(move || {
                    // Refuse a bad option before any case runs.
                    puzzle
                        .check_options(&options)
                        .map_err(|e| Failure::Usage(format!("{}: {e}", puzzle.name())))?;
                    Ok(Program::new(
                        Arc::new(BuiltinRunner::new(puzzle, options.clone())),
                        format!("built-in {} solver", puzzle.name()),
                    ))
                }),
            )
        } else if args.builtin {
            return Err(Failure::Usage(format!(
                "--builtin: problem {:?} is not a built-in puzzle",
                problem.name
            )));
        } else if let Some(solution) = &problem.solution {
            let sandbox = Arc::clone(&sandbox);
            let cmd = solution.clone();
            let name = problem.name.clone();
            (
                format!("cmd:{cmd}"),
                Box::new(move || {
                    let runner = ProcessRunner::new(&cmd, Arc::clone(&sandbox))
                        .map_err(|e| Failure::Usage(format!("problem {name}: solution: {e}")))?;
                    Ok(Program::new(Arc::new(runner), cmd.clone()))
                }),
            )
        } else {
            return Err(Failure::Usage(format!(
                "problem {:?} has no reference to run: give --submission CMD, or set solution = \"CMD\" in its judge.toml table",
                problem.name
            )));
        };
        let index = match by_key.get(&key) {
            Some(&i) => i,
            None => {
                programs.push(make()?);
                by_key.insert(key, programs.len() - 1);
                programs.len() - 1
            }
        };
        program_of.push(index);
    }

    let tools = super::prepare_checkers(&selected.problems, &sandbox)?;

    let mut jobs = Vec::new();
    let mut index = 0;
    // The cases move into the jobs: a large run keeps one copy of each.
    let all_cases = std::mem::take(&mut selected.cases);
    for (p, cases) in all_cases.into_iter().enumerate() {
        for case in cases {
            let keep = partition
                .is_none_or(|part| part.keeps(index, &selected.problems[p].name, &case.name));
            if keep {
                jobs.push(Job {
                    index,
                    problem: p,
                    program: program_of[p],
                    case,
                });
            }
            index += 1;
        }
    }

    // Nothing to judge is a mistake (a wrong path, a filter that matches
    // nothing), not a green run. An empty shard is fine.
    if index == 0 {
        let roots: Vec<String> = selected
            .problems
            .iter()
            .map(|p| p.cases.display().to_string())
            .collect();
        return Err(Failure::Usage(match &args.selection.filter {
            Some(glob) => format!(
                "no case matches --filter {glob:?} (in {})",
                roots.join(", ")
            ),
            None => format!("no cases found: no NAME.in file under {}", roots.join(", ")),
        }));
    }

    let info = RunInfo {
        programs: programs.iter().map(|p| p.label.clone()).collect(),
        problems: selected.problems.iter().map(judge::problem_info).collect(),
        protections: sandbox.protections().clone(),
        partition: partition.map(|p| p.to_string()),
        warnings: selected.warnings.clone(),
        ..RunInfo::default()
    };
    let plan = Plan {
        problems: selected.problems,
        programs,
        jobs,
        tools,
        label_programs: false,
    };

    // Reporters.
    if let Some(path) = &args.report {
        crate::report::check_target(path).map_err(Failure::Usage)?;
    }
    let report_format = match (&args.report, args.format) {
        (Some(path), None | Some(Format::Human)) => {
            Some(Format::from_extension(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "--report {}: say --format json, ndjson, junit or html (the extension does not tell)",
                    path.display()
                ))
            })?)
        }
        (Some(_), Some(f)) => Some(f),
        (None, _) => None,
    };
    let verbosity = if args.quiet {
        Verbosity::Quiet
    } else if args.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let progress = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let human = || -> Box<dyn Reporter> {
        Box::new(HumanReporter::new(
            Box::new(super::stdout::Stdout),
            verbosity,
            color,
            progress,
        ))
    };
    let file_sink = FileSink::new();
    let mut reporter: Box<dyn Reporter> = match (&args.report, report_format, args.format) {
        (Some(_), Some(format), _) => {
            let machine = machine_reporter(format, Box::new(file_sink.clone()));
            let mut all = vec![human()];
            all.extend(machine);
            Box::new(Tee(all))
        }
        (None, _, Some(format)) if format != Format::Human => {
            machine_reporter(format, Box::new(super::stdout::Stdout)).unwrap_or_else(human)
        }
        _ => human(),
    };

    let options = RunOptions {
        jobs: workers,
        fail_fast: args.fail_fast,
        interrupted: Some(interrupt.flag()),
    };
    let report = judge::run(&plan, info, &options, reporter.as_mut())
        .map_err(|e| Failure::Internal(format!("cannot write the report: {e}")))?;
    drop(reporter);
    let mut code = report.exit_code();
    if let Some(path) = &args.report
        && let Err(e) = file_sink.commit(path)
    {
        eprintln!(
            "judge: internal error: cannot write the report {}: {e} (the verdicts above stand)",
            path.display()
        );
        code = if report.interrupted {
            130
        } else {
            super::EXIT_INTERNAL
        };
    }
    drop(plan);
    drop(sandbox);
    Ok(code)
}
