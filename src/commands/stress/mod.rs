//! `judge stress PROBLEM --submission CMD`: random cases until the
//! submission disagrees with the reference, then the smallest failing case
//! it can find, written with its answer, and the command that reproduces it.
//!
//! Two modes. A puzzle's own generator (`--length`, `--n`, `--moves`,
//! `--turns` as for `judge gen`) with the built-in checker as the oracle
//! (or `--against CMD`, judged by the same checker: the two must get the
//! same verdict); shrinking then tries each case alone, drops cases that
//! are not needed, and asks the generator for smaller cases (shorter
//! optimum, smaller n) while the failure stays. Or `--generator CMD`,
//! called as `CMD SEED` with an input on stdout, against `--against CMD`
//! (or the problem's `solution`) by the problem's comparison; shrinking
//! then keeps the smallest failing input among further seeds.
//!
//! Round i uses seed SEED + i, and shrinking derives its seeds from the
//! failing round's, so `--seed S --count 1` reproduces a finding exactly.
//! Exit 1 when a difference was found, 0 when none was within `--count`
//! and `--time`.
//!
//! This file is the command; a round is `arena`, shrinking puzzle cases
//! `shrink`, running a `--generator` `generator`.

mod arena;
mod generator;
mod shrink;

use super::{Failure, Outcome, load_config, overrides};
use crate::cli::{CompareArgs, StressArgs};
use crate::commands::stdout::outln;
use crate::config;
use crate::exec::sandbox::Sandbox;
use crate::judge::Program;
use crate::puzzles::Puzzle;
use crate::report::write_atomically;
use crate::submission::Toolchain;
use crate::text::format::plural;
use crate::verdict::ExitCode;
use arena::{Arena, Candidate, Finding};
use generator::Generator;
use shrink::shrink_cases;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub fn stress(config_path: Option<&Path>, args: StressArgs) -> Outcome {
    let overrides = overrides(&args.limits, &CompareArgs::default())?;
    let config = load_config(config_path, &overrides)?;
    let (problem, from_config) = stress_problem(config.as_ref(), &args, &overrides)?;
    if args.cases == 0 || args.count == 0 {
        return Err(Failure::Usage(
            "--cases and --count must be at least 1".into(),
        ));
    }
    let out_dir = args.out.clone().unwrap_or_else(|| match from_config {
        true => problem.cases.clone(),
        false => PathBuf::from("stress"),
    });
    // Each round's case and answer are written here: hidden like the
    // cases of a run.
    let scratch = tempfile::Builder::new()
        .prefix("judge-stress-")
        .tempdir()
        .map_err(|e| Failure::Internal(format!("cannot create a temporary directory: {e}")))?;
    let hidden = super::sandbox::Hidden {
        config: config.as_ref(),
        problems: std::slice::from_ref(&problem),
        cases: super::sandbox::HiddenCases::Made(&[]),
        submissions: true,
        extra: vec![scratch.path().to_path_buf()],
    };
    // Rounds run one at a time: one worker slot.
    let (interrupt, sandbox) =
        super::judging_sandbox(&hidden, 1, crate::exec::sandbox::SandboxMode::Auto)?;
    let toolchain = crate::config::toolchain(config.as_ref());
    let (submission, against) = contestants(&problem, &args, &toolchain, &sandbox)?;
    let source = source(&problem, &args, &toolchain, &sandbox, against.is_some())?;
    let arena = Arena {
        problem: &problem,
        tools: super::prepare_checkers(std::slice::from_ref(&problem), &sandbox)?,
        submission,
        against,
        dir: scratch.path().to_path_buf(),
        interrupted: interrupt.flag(),
        runs: std::cell::Cell::new(0),
    };
    let started = Instant::now();
    let (rounds, found) = search(&arena, &source, &args, &sandbox, started)?;
    let Some((seed, candidate, finding)) = found else {
        outln!(
            "no difference in {rounds} round{} (seeds {}..{}) in {:.1}s",
            plural(rounds as usize),
            args.seed,
            args.seed.wrapping_add(rounds.saturating_sub(1)),
            started.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::Ok);
    };
    outln!("round {rounds} (seed {seed}): {}", finding.describe());
    let runs_before = arena.runs.get();
    let smallest = shrink(
        &arena, &source, candidate, finding, seed, &args, &sandbox, started,
    )?;
    if arena.interrupted.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted);
    }
    let runs = arena.runs.get() - runs_before;
    outln!("shrunk to {} ({runs} run{})", smallest.about, plural(runs));
    outln!("the submission: {}", smallest.finding.describe());
    write_finding(&out_dir, &args, seed, &smallest)?;
    outln!("reproduce: {}", reproduce(config_path, &args, seed));
    Ok(ExitCode::Failed)
}

/// The problem to stress: judge.toml's, or a built-in puzzle by name; and
/// whether it came from judge.toml.
fn stress_problem(
    config: Option<&config::Config>,
    args: &StressArgs,
    overrides: &config::Overrides,
) -> Result<(config::Problem, bool), Failure> {
    if let Some(p) = config.and_then(|c| c.problem(&args.problem)) {
        return Ok((p.clone(), true));
    }
    let path = Path::new(&args.problem);
    if crate::formats::is_package(path) {
        let mut problem =
            config::package_problem(path, overrides).map_err(|e| Failure::Usage(e.to_string()))?;
        if problem.solution.is_none() {
            problem.solution = package_reference(path);
        }
        return Ok((problem, false));
    }
    if crate::puzzles::find(&args.problem).is_some() {
        let problem = config::ad_hoc_problem(&args.problem, PathBuf::from("stress"), overrides)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        return Ok((problem, false));
    }
    Err(Failure::Usage(format!(
        "{:?} is neither a problem in judge.toml, a package directory ({} or {}), nor a built-in puzzle ({})",
        args.problem,
        crate::formats::kattis::PROBLEM_YAML,
        crate::formats::polygon::PROBLEM_XML,
        crate::puzzles::names().join(", ")
    )))
}

/// A package's reference solution: a Polygon package's `main` solution,
/// or the first (by name) of a Kattis package's `submissions/accepted/`.
fn package_reference(root: &Path) -> Option<String> {
    if crate::formats::polygon::is_package(root) {
        let (desc, _) = crate::formats::polygon::describe(root).ok()?;
        let main = desc.solutions.iter().find(|s| s.tag == "main")?;
        return Some(root.join(&main.source.path).to_string_lossy().into_owned());
    }
    let mut accepted: Vec<PathBuf> = std::fs::read_dir(root.join("submissions/accepted"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    accepted.sort();
    accepted.first().map(|p| p.to_string_lossy().into_owned())
}

/// The submission, and the reference it is compared with (`--against`,
/// or the problem's `solution`; none for a puzzle, whose checker decides).
fn contestants(
    problem: &config::Problem,
    args: &StressArgs,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<(Program, Option<Program>), Failure> {
    let staging = super::prepare::PackageStaging::of(problem);
    let build = |cmd: &str| {
        super::submission_program(cmd, None, toolchain, sandbox, false, staging.as_ref())
    };
    let submission = build(&args.submission)?;
    if submission.compile_error.is_some() {
        return Err(Failure::Usage(format!(
            "{} does not compile: nothing to stress",
            args.submission
        )));
    }
    let against = match (&args.against, problem.puzzle, &problem.solution) {
        (Some(cmd), _, _) => Some(build(cmd)?),
        (None, Some(_), _) => None,
        (None, None, Some(solution)) => Some(build(solution)?),
        // An interactive problem's validator judges each run by itself.
        (None, None, None) if interactive(problem) => None,
        (None, None, None) => {
            return Err(Failure::Usage(format!(
                "problem {} has no reference: give --against CMD, or solution = \"CMD\" in its table (a package: a Polygon `main` solution or a submissions/accepted/ program)",
                problem.name
            )));
        }
    };
    if against.as_ref().is_some_and(|a| a.compile_error.is_some()) {
        return Err(Failure::Usage(
            "the --against program does not compile".into(),
        ));
    }
    Ok((submission, against))
}

/// Whether the problem's runs are judged by an interactive validator (or
/// in passes): then a round judges each program with it, and a reference
/// is optional.
fn interactive(problem: &config::Problem) -> bool {
    matches!(problem.comparison, crate::check::Comparison::Interactive(_))
}

/// Where the rounds' cases come from.
enum Source {
    /// A puzzle's own generator, `cases` cases a file.
    Puzzle {
        puzzle: &'static dyn Puzzle,
        cases: usize,
    },
    /// `--generator CMD`, called as `CMD SEED`.
    Generator(Generator),
}

fn source(
    problem: &config::Problem,
    args: &StressArgs,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    has_reference: bool,
) -> Result<Source, Failure> {
    if let Some(cmd) = &args.generator {
        if !has_reference && !interactive(problem) {
            return Err(Failure::Usage(
                "--generator needs a reference to compare with: --against CMD".into(),
            ));
        }
        return Ok(Source::Generator(Generator::new(cmd, toolchain, sandbox)?));
    }
    let Some(puzzle) = problem.puzzle else {
        return Err(Failure::Usage(format!(
            "problem {} is not a built-in puzzle: give --generator CMD (called as `CMD SEED`)",
            problem.name
        )));
    };
    // Refuse options the puzzle does not have before any round runs.
    puzzle
        .generate(&spec_of(args, 1, args.seed))
        .map_err(Failure::usage)?;
    let cases = if puzzle.multi_case() { args.cases } else { 1 };
    Ok(Source::Puzzle { puzzle, cases })
}

fn spec_of(args: &StressArgs, count: usize, seed: u64) -> crate::puzzles::GenSpec {
    super::generate::spec(&args.difficulty, count, seed, false)
}

impl Source {
    fn puzzle(&self) -> Option<&'static dyn Puzzle> {
        match self {
            Source::Puzzle { puzzle, .. } => Some(*puzzle),
            Source::Generator(_) => None,
        }
    }

    /// The candidate of round `seed`.
    fn candidate(
        &self,
        args: &StressArgs,
        seed: u64,
        sandbox: &Sandbox,
    ) -> Result<Candidate, Failure> {
        match self {
            Source::Puzzle { puzzle, cases } => Ok(Candidate::Cases(
                puzzle
                    .generate(&spec_of(args, *cases, seed))
                    .map_err(Failure::usage)?,
            )),
            Source::Generator(g) => Ok(Candidate::Input(g.input(seed, sandbox)?)),
        }
    }
}

/// A failing round: its seed, what it tried, how the submission failed.
type Found = (u64, Candidate, Finding);

/// Rounds until the submission disagrees, `--count` rounds pass, `--time`
/// is up or an interrupt comes; returns the rounds run and the finding.
fn search(
    arena: &Arena<'_>,
    source: &Source,
    args: &StressArgs,
    sandbox: &Sandbox,
    started: Instant,
) -> Result<(u64, Option<Found>), Failure> {
    let mut round = 0;
    loop {
        if round >= args.count
            || args.time.is_some_and(|t| started.elapsed() >= t.0)
            || arena.interrupted.load(Ordering::SeqCst)
        {
            break;
        }
        let seed = args.seed.wrapping_add(round);
        round += 1;
        let candidate = source.candidate(args, seed, sandbox)?;
        if let Some(finding) = arena.judge(&candidate, source.puzzle())? {
            return Ok((round, Some((seed, candidate, finding))));
        }
    }
    if arena.interrupted.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted);
    }
    Ok((round, None))
}

/// The smallest failing case found, as files, with how it was found.
struct Smallest {
    input: Vec<u8>,
    answer: Vec<u8>,
    finding: Finding,
    about: String,
}

/// Shrink a finding: a puzzle's cases by `shrink_cases`; a generator's
/// input by trying further seeds for a shorter failing input.
#[allow(clippy::too_many_arguments)]
fn shrink(
    arena: &Arena<'_>,
    source: &Source,
    candidate: Candidate,
    finding: Finding,
    seed: u64,
    args: &StressArgs,
    sandbox: &Sandbox,
    started: Instant,
) -> Result<Smallest, Failure> {
    match (source, candidate) {
        (Source::Puzzle { puzzle, .. }, Candidate::Cases(cases)) => {
            let (cases, finding, steps) =
                shrink_cases(arena, *puzzle, cases, finding, seed, args.tries)?;
            let (input, answer) = puzzle.assemble(&cases);
            let dims: Vec<String> = cases
                .iter()
                .flat_map(|c| puzzle.difficulty(c))
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let about = format!(
                "{} case{}{}; {}",
                cases.len(),
                plural(cases.len()),
                if dims.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", dims.join(", "))
                },
                steps.join("; ")
            );
            Ok(Smallest {
                input,
                answer,
                finding,
                about,
            })
        }
        (Source::Generator(g), Candidate::Input(input)) => {
            let mut best = (input, finding, seed);
            let more = (args.tries as u64) * 8;
            for i in 0..more {
                if arena.interrupted.load(Ordering::SeqCst)
                    || args.time.is_some_and(|t| started.elapsed() >= t.0)
                {
                    break;
                }
                let s = seed.wrapping_add(1 + i);
                let input = g.input(s, sandbox)?;
                if input.len() >= best.0.len() {
                    continue;
                }
                if let Some(f) = arena.judge(&Candidate::Input(input.clone()), None)? {
                    best = (input, f, s);
                }
            }
            Ok(Smallest {
                answer: best.1.answer.clone().unwrap_or_default(),
                about: format!(
                    "the smallest failing input of {more} more seeds: {} bytes (seed {})",
                    best.0.len(),
                    best.2
                ),
                input: best.0,
                finding: best.1,
            })
        }
        _ => Err(Failure::Internal(
            "a stress candidate of the other kind than its source".into(),
        )),
    }
}

/// Write the smallest failing case and its answer as `--name` (or
/// `stress-SEED`) `.in`/`.ans` into the output directory; an existing file
/// is kept unless `--force`.
fn write_finding(
    out_dir: &Path,
    args: &StressArgs,
    seed: u64,
    smallest: &Smallest,
) -> Result<(), Failure> {
    let stem = args
        .name
        .clone()
        .unwrap_or_else(|| format!("stress-{seed}"));
    if stem.is_empty() || stem.contains('/') {
        return Err(Failure::Usage(format!(
            "--name {stem:?}: a file name without '/' is needed"
        )));
    }
    let files = [
        (out_dir.join(format!("{stem}.in")), &smallest.input),
        (out_dir.join(format!("{stem}.ans")), &smallest.answer),
    ];
    if !args.force
        && let Some((path, _)) = files.iter().find(|(p, _)| p.exists())
    {
        return Err(Failure::Usage(format!(
            "{} already exists: use --force to overwrite, or --name/--out to write elsewhere (the finding: seed {seed})",
            path.display()
        )));
    }
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Failure::Usage(format!("{}: cannot create: {e}", out_dir.display())))?;
    for (path, bytes) in &files {
        write_atomically(path, bytes)
            .map_err(|e| Failure::Internal(format!("{}: cannot write: {e}", path.display())))?;
    }
    outln!(
        "wrote {} and {}",
        files[0].0.display(),
        files[1].0.display()
    );
    Ok(())
}

/// The command line that runs exactly the failing round again.
fn reproduce(config_path: Option<&Path>, args: &StressArgs, seed: u64) -> String {
    let mut words: Vec<String> = vec!["judge".into()];
    if let Some(c) = config_path {
        words.extend(["--config".into(), c.display().to_string()]);
    }
    words.extend([
        "stress".into(),
        args.problem.clone(),
        "--submission".into(),
        args.submission.clone(),
    ]);
    for (flag, value) in [
        ("--against", &args.against),
        ("--generator", &args.generator),
    ] {
        if let Some(v) = value {
            words.extend([flag.to_string(), v.clone()]);
        }
    }
    words.extend([
        "--seed".into(),
        seed.to_string(),
        "--count".into(),
        "1".into(),
        "--cases".into(),
        args.cases.to_string(),
    ]);
    for (flag, range) in [
        ("--length", &args.difficulty.length),
        ("--n", &args.difficulty.n),
        ("--moves", &args.difficulty.moves),
        ("--turns", &args.difficulty.turns),
    ] {
        if let Some(r) = range {
            let text = if r.start() == r.end() {
                r.start().to_string()
            } else {
                format!("{}..{}", r.start(), r.end())
            };
            words.extend([flag.to_string(), text]);
        }
    }
    if let Some(t) = &args.limits.time_limit {
        words.extend(["--time-limit".into(), t.to_string()]);
    }
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}
