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
use crate::report::write_atomically;
use crate::verdict::ExitCode;
use arena::{Arena, Candidate};
use generator::Generator;
use shrink::shrink_cases;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

pub fn stress(config_path: Option<&Path>, args: StressArgs) -> Outcome {
    let overrides = overrides(&args.limits, &CompareArgs::default())?;
    let config = load_config(config_path, &overrides)?;
    let problem = match config.as_ref().and_then(|c| c.problem(&args.problem)) {
        Some(p) => p.clone(),
        None if crate::puzzles::find(&args.problem).is_some() => {
            config::ad_hoc_problem(&args.problem, PathBuf::from("stress"), &overrides)
                .map_err(|e| Failure::Usage(e.to_string()))?
        }
        None => {
            return Err(Failure::Usage(format!(
                "{:?} is neither a problem in judge.toml nor a built-in puzzle ({})",
                args.problem,
                crate::puzzles::names().join(", ")
            )));
        }
    };
    if args.cases == 0 || args.count == 0 {
        return Err(Failure::Usage(
            "--cases and --count must be at least 1".into(),
        ));
    }
    let from_config = config
        .as_ref()
        .is_some_and(|c| c.problem(&args.problem).is_some());
    let out_dir = args.out.clone().unwrap_or_else(|| {
        if from_config {
            problem.cases.clone()
        } else {
            PathBuf::from("stress")
        }
    });

    // Rounds run one at a time: one worker slot.
    let (interrupt, sandbox) = super::judging_sandbox(
        config.as_ref(),
        std::slice::from_ref(&problem),
        true,
        1,
        crate::exec::sandbox::SandboxMode::Auto,
    )?;
    let toolchain = crate::config::toolchain(config.as_ref());
    let submission =
        super::submission_program(&args.submission, None, &toolchain, &sandbox, false)?;
    if submission.compile_error.is_some() {
        return Err(Failure::Usage(format!(
            "{} does not compile: nothing to stress",
            args.submission
        )));
    }
    let against = match (&args.against, problem.puzzle, &problem.solution) {
        (Some(cmd), _, _) => Some(super::submission_program(
            cmd, None, &toolchain, &sandbox, false,
        )?),
        (None, Some(_), _) => None,
        (None, None, Some(solution)) => Some(super::submission_program(
            solution, None, &toolchain, &sandbox, false,
        )?),
        (None, None, None) => {
            return Err(Failure::Usage(format!(
                "problem {} has no reference: give --against CMD, or solution = \"CMD\" in its table",
                problem.name
            )));
        }
    };
    if against.as_ref().is_some_and(|a| a.compile_error.is_some()) {
        return Err(Failure::Usage(
            "the --against program does not compile".into(),
        ));
    }
    let generator = match &args.generator {
        Some(cmd) => Some(Generator::new(cmd, &toolchain, &sandbox)?),
        None => None,
    };
    let puzzle = match (&generator, problem.puzzle) {
        (Some(_), _) => None,
        (None, Some(p)) => Some(p),
        (None, None) => {
            return Err(Failure::Usage(format!(
                "problem {} is not a built-in puzzle: give --generator CMD (called as `CMD SEED`)",
                problem.name
            )));
        }
    };
    if generator.is_some() && against.is_none() {
        return Err(Failure::Usage(
            "--generator needs a reference to compare with: --against CMD".into(),
        ));
    }
    let spec_of =
        |count: usize, seed: u64| super::generate::spec(&args.difficulty, count, seed, false);
    if let Some(p) = puzzle {
        // Refuse options the puzzle does not have before any round runs.
        p.generate(&spec_of(1, args.seed)).map_err(Failure::Usage)?;
    }

    let scratch = tempfile::Builder::new()
        .prefix("judge-stress-")
        .tempdir()
        .map_err(|e| Failure::Internal(format!("cannot create a temporary directory: {e}")))?;
    let tools = super::prepare_checkers(std::slice::from_ref(&problem), &sandbox)?;
    let arena = Arena {
        problem: &problem,
        tools,
        submission,
        against,
        dir: scratch.path().to_path_buf(),
        interrupted: interrupt.flag(),
        runs: std::cell::Cell::new(0),
    };
    let started = Instant::now();
    let per_file = match puzzle {
        Some(p) if p.multi_case() => args.cases,
        _ => 1,
    };
    let mut round = 0;
    let found = loop {
        if round >= args.count
            || args.time.is_some_and(|t| started.elapsed() >= t.0)
            || arena.interrupted.load(Ordering::SeqCst)
        {
            break None;
        }
        let seed = args.seed.wrapping_add(round);
        round += 1;
        let candidate = match (puzzle, &generator) {
            (Some(p), _) => Candidate::Cases(
                p.generate(&spec_of(per_file, seed))
                    .map_err(Failure::Usage)?,
            ),
            (None, Some(g)) => Candidate::Input(g.input(seed, &sandbox)?),
            (None, None) => unreachable_candidate()?,
        };
        if let Some(finding) = arena.judge(&candidate, puzzle)? {
            break Some((seed, candidate, finding));
        }
    };
    if arena.interrupted.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted);
    }
    let Some((seed, candidate, finding)) = found else {
        outln!(
            "no difference in {round} round{} (seeds {}..{}) in {:.1}s",
            if round == 1 { "" } else { "s" },
            args.seed,
            args.seed.wrapping_add(round.saturating_sub(1)),
            started.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::Ok);
    };
    outln!("round {round} (seed {seed}): {}", finding.describe());
    let runs_before = arena.runs.get();
    let (input, answer, finding, about) = match (puzzle, candidate) {
        (Some(p), Candidate::Cases(cases)) => {
            let (cases, finding, steps) =
                shrink_cases(&arena, p, cases, finding, seed, args.tries)?;
            let (input, answer) = p.assemble(&cases);
            let dims: Vec<String> = cases
                .iter()
                .flat_map(|c| p.difficulty(c))
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let about = format!(
                "{} case{}{}; {}",
                cases.len(),
                if cases.len() == 1 { "" } else { "s" },
                if dims.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", dims.join(", "))
                },
                steps.join("; ")
            );
            (input, answer, finding, about)
        }
        (_, Candidate::Input(input)) => {
            let g = generator
                .as_ref()
                .ok_or_else(|| Failure::Internal("no generator".into()))?;
            let mut best = (input, finding, seed);
            let more = (args.tries as u64) * 8;
            for i in 0..more {
                if arena.interrupted.load(Ordering::SeqCst)
                    || args.time.is_some_and(|t| started.elapsed() >= t.0)
                {
                    break;
                }
                let s = seed.wrapping_add(1 + i);
                let input = g.input(s, &sandbox)?;
                if input.len() >= best.0.len() {
                    continue;
                }
                if let Some(f) = arena.judge(&Candidate::Input(input.clone()), None)? {
                    best = (input, f, s);
                }
            }
            let answer = best.1.answer.clone().unwrap_or_default();
            let about = format!(
                "the smallest failing input of {} more seeds: {} bytes (seed {})",
                more,
                best.0.len(),
                best.2
            );
            (best.0, answer, best.1, about)
        }
        (None, Candidate::Cases(_)) => return Err(Failure::Internal("no puzzle".into())),
    };
    if arena.interrupted.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted);
    }
    outln!(
        "shrunk to {about} ({} run{})",
        arena.runs.get() - runs_before,
        if arena.runs.get() - runs_before == 1 {
            ""
        } else {
            "s"
        }
    );
    outln!("the submission: {}", finding.describe());

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
        (out_dir.join(format!("{stem}.in")), input),
        (out_dir.join(format!("{stem}.ans")), answer),
    ];
    if !args.force
        && let Some((path, _)) = files.iter().find(|(p, _)| p.exists())
    {
        return Err(Failure::Usage(format!(
            "{} already exists: use --force to overwrite, or --name/--out to write elsewhere (the finding: seed {seed})",
            path.display()
        )));
    }
    std::fs::create_dir_all(&out_dir)
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
    outln!("reproduce: {}", reproduce(config_path, &args, seed));
    Ok(ExitCode::Failed)
}

fn unreachable_candidate() -> Result<Candidate, Failure> {
    Err(Failure::Internal("neither a puzzle nor a generator".into()))
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
