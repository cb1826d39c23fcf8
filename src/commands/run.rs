//! `judge run`: choose problems and cases, choose each problem's program
//! (the submission, the built-in solver, or the problem's reference
//! `solution`), build the jobs (filter, then partition), run them, and
//! report: the human report on stdout, or a machine format on stdout, or a
//! machine format in `--report FILE` (written atomically) beside the human
//! report.

use super::output::{ReportChoice, reporter_for, verbosity};
use super::sandbox::Hidden;
use super::select::Selected;
use super::{Failure, Outcome, load_config, overrides, select};
use crate::cases::{CaseList, Partition};
use crate::cli::RunArgs;
use crate::config::Problem;
use crate::exec::builtin::BuiltinRunner;
use crate::exec::runner::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use crate::judge::{self, Jobs, LazyJobs, Plan, Program, RunInfo, RunOptions};
use crate::puzzles::SolveOptions;
use crate::submission::Toolchain;
use crate::verdict::ExitCode;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

pub fn run(config_path: Option<&Path>, args: RunArgs) -> Outcome {
    let overrides = overrides(&args.limits, &args.compare)?;
    let config = load_config(config_path, &overrides)?;
    let mut selected = select(config.as_ref(), &args.selection, &overrides)?;
    release_discovery_memory();
    let partition = partition(&args)?;
    let workers = workers(&args)?;
    let hidden = Hidden {
        config: config.as_ref(),
        problems: &selected.problems,
        cases: super::sandbox::HiddenCases::Lists(&selected.cases),
        submissions: args.submission.is_some(),
        extra: Vec::new(),
    };
    let (interrupt, sandbox) = super::judging_sandbox(&hidden, workers, args.sandbox)?;
    let toolchain = crate::config::toolchain(config.as_ref());
    let (programs, program_of) = programs(&selected.problems, &args, &toolchain, &sandbox)?;
    let tools = super::prepare_checkers(&selected.problems, &sandbox)?;
    let cases = std::mem::take(&mut selected.cases);
    let (jobs, total) = jobs(cases, &selected.problems, &program_of, partition)?;
    if total == 0 {
        return Err(nothing_to_judge(&selected, &args));
    }
    let choice = ReportChoice::new(args.report.as_deref(), args.format)?;
    let info = RunInfo {
        programs: programs.iter().map(|p| p.label.clone()).collect(),
        problems: selected.problems.iter().map(judge::problem_info).collect(),
        protections: sandbox.protections().clone(),
        partition: partition.map(|p| p.to_string()),
        run_cases: partition.map(|_| total),
        warnings: selected.warnings.clone(),
        ..RunInfo::default()
    };
    let plan = Plan {
        problems: selected.problems,
        programs,
        jobs,
        tools,
        label_programs: false,
        cache: super::cache::open(&args.cache)?,
    };
    let (mut reporter, file_sink) = reporter_for(&choice, verbosity(args.quiet, args.verbose))?;
    let options = RunOptions {
        jobs: workers,
        fail_fast: args.fail_fast,
        interrupted: Some(interrupt.flag()),
        keep_cases: false,
        unpinned: args.no_pin,
    };
    let report = judge::run(&plan, info, &options, reporter.as_mut())
        .map_err(|e| Failure::Internal(format!("cannot write the report: {e}")))?;
    drop(reporter);
    super::cache::finish(plan.cache.as_deref());
    let mut code = report.exit_code();
    if let Some((path, _)) = &choice.file
        && let Err(e) = file_sink.commit(path)
    {
        crate::commands::stdout::say!(
            "judge: internal error: cannot write the report {}: {e} (the verdicts above stand)",
            path.display()
        );
        code = code.worst(ExitCode::Internal);
    }
    drop(plan);
    drop(sandbox);
    Ok(code)
}

/// Discovery's scaffolding (the walk's buffers, the cases a filter
/// dropped) is gone: give its memory back before the long run starts.
fn release_discovery_memory() {
    // SAFETY: malloc_trim only releases free heap memory.
    unsafe { libc::malloc_trim(0) };
}

fn partition(args: &RunArgs) -> Result<Option<Partition>, Failure> {
    args.partition
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(Failure::usage)
}

/// `-j N`, or one worker a core.
fn workers(args: &RunArgs) -> Result<usize, Failure> {
    match args.jobs {
        Some(0) => Err(Failure::Usage(
            "-j 0: at least one worker is needed".to_string(),
        )),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// How to make a problem's program, and the key that tells two problems
/// running the same program apart from two different ones.
type MakeProgram = Box<dyn Fn() -> Result<Program, Failure>>;

/// One program per distinct command, shared by the problems that use it;
/// and, per problem, the index of its program.
fn programs(
    problems: &[Problem],
    args: &RunArgs,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<(Vec<Program>, Vec<usize>), Failure> {
    let mut programs: Vec<Program> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut program_of = Vec::new();
    for problem in problems {
        let (key, make) = program_for(problem, args, toolchain, sandbox)?;
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
    Ok((programs, program_of))
}

/// A problem's program: the `--submission`, the built-in solver of a
/// puzzle, or the problem's `solution` command.
fn program_for(
    problem: &Problem,
    args: &RunArgs,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<(String, MakeProgram), Failure> {
    if let Some(cmd) = &args.submission {
        let (sandbox, cmd, toolchain) = (Arc::clone(sandbox), cmd.clone(), toolchain.clone());
        let (language, quiet) = (args.language.clone(), args.quiet);
        // A package's include/ and constants make its build its own.
        let staging = super::prepare::PackageStaging::of(problem);
        let key = format!(
            "cmd:{}{}",
            args.submission.as_deref().unwrap_or(""),
            staging
                .as_ref()
                .map(|s| format!(" in {}", s.root.display()))
                .unwrap_or_default()
        );
        let make = move || {
            super::submission_program(
                &cmd,
                language.as_deref(),
                &toolchain,
                &sandbox,
                quiet,
                staging.as_ref(),
            )
        };
        return Ok((key, Box::new(make)));
    }
    if let Some(puzzle) = problem
        .puzzle
        .filter(|_| args.builtin || problem.solution.is_none())
    {
        let options = SolveOptions {
            heuristic: args.heuristic.clone(),
        };
        let make = move || {
            // Refuse a bad option before any case runs.
            puzzle
                .check_options(&options)
                .map_err(|e| Failure::Usage(format!("{}: {e}", puzzle.name())))?;
            Ok(Program::new(
                Arc::new(BuiltinRunner::new(puzzle, options.clone())),
                format!("built-in {} solver", puzzle.name()),
            ))
        };
        return Ok((format!("builtin:{}", puzzle.name()), Box::new(make)));
    }
    if args.builtin {
        return Err(Failure::Usage(format!(
            "--builtin: problem {:?} is not a built-in puzzle",
            problem.name
        )));
    }
    let Some(solution) = &problem.solution else {
        return Err(Failure::Usage(format!(
            "problem {:?} has no reference to run: give --submission CMD, or set solution = \"CMD\" in its judge.toml table",
            problem.name
        )));
    };
    let (sandbox, cmd, name) = (Arc::clone(sandbox), solution.clone(), problem.name.clone());
    let make = move || {
        let runner = ProcessRunner::new(&cmd, Arc::clone(&sandbox))
            .map_err(|e| Failure::Usage(format!("problem {name}: solution: {e}")))?;
        Ok(Program::new(Arc::new(runner), cmd.clone()))
    };
    Ok((format!("cmd:{solution}"), Box::new(make)))
}

/// The jobs of this shard, made from the case lists as the workers reach
/// them, and how many cases the whole run has.
fn jobs(
    cases: Vec<CaseList>,
    problems: &[Problem],
    program_of: &[usize],
    partition: Option<Partition>,
) -> Result<(Jobs, usize), Failure> {
    let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    let lazy = LazyJobs::new(cases, &names, program_of.to_vec(), partition)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let total = lazy.total();
    Ok((Jobs::Lazy(lazy), total))
}

/// Nothing to judge is a mistake (a wrong path, a filter that matches
/// nothing), not a green run. An empty shard is fine.
fn nothing_to_judge(selected: &Selected, args: &RunArgs) -> Failure {
    let roots: Vec<String> = selected
        .problems
        .iter()
        .map(|p| p.cases.display().to_string())
        .collect();
    Failure::Usage(match &args.selection.filter {
        Some(glob) => format!(
            "no case matches --filter {glob:?} (in {})",
            roots.join(", ")
        ),
        None => format!("no cases found: no NAME.in file under {}", roots.join(", ")),
    })
}
