//! One job: run the case's program (or its interaction) and judge the run
//! into a [`CaseResult`].

use super::{Job, Plan};
use crate::check::tool::ToolContext;
use crate::check::{self, CaseFiles, CheckPlan, Judgement};
use crate::config::Problem;
use crate::exec::{Given, MemorySource, RunError, RunOutcome, RunRequest};
use crate::judge::CaseResult;
use crate::judge::cache::{Key, Kind, RanUnder, RunCache, disagreement};
use crate::text::format::millis as ms;
use crate::verdict::Verdict;
use std::time::Duration;

pub(super) fn skipped(plan: &Plan, job: &Job, why: &str) -> CaseResult {
    let problem = &plan.problems[job.problem];
    base_result(
        plan,
        job,
        Judgement::new(Verdict::Skipped, why),
        None,
        problem,
    )
}

fn base_result(
    plan: &Plan,
    job: &Job,
    judgement: Judgement,
    outcome: Option<&RunOutcome>,
    problem: &Problem,
) -> CaseResult {
    let limit = problem.limits.time;
    let (cpu, wall) = outcome.map_or((Duration::ZERO, Duration::ZERO), |o| (o.cpu, o.wall));
    let stderr = outcome
        .filter(|o| !o.stderr_tail.is_empty())
        .map(|o| String::from_utf8_lossy(&o.stderr_tail).into_owned());
    CaseResult {
        index: job.index,
        problem: problem.name.clone(),
        case: job.case.name.clone(),
        verdict: judgement.verdict,
        message: judgement.message,
        cpu_ms: ms(cpu),
        wall_ms: ms(wall),
        peak_rss_kib: outcome.and_then(|o| o.peak_rss_kib),
        memory_source: outcome.map_or(MemorySource::None, |o| o.memory_source),
        tl_ratio: (cpu.as_secs_f64() / limit.as_secs_f64() * 1000.0).round() / 1000.0,
        time_limit_ms: ms(limit),
        exit: outcome.map(|o| o.exit.describe()),
        program: plan
            .label_programs
            .then(|| plan.programs[job.program].label.clone()),
        diff: judgement.diff,
        stderr,
        figures: judgement.figures,
        transcript: judgement.transcript,
        passes: None,
        partial: judgement.partial,
        score: None,
        cached: false,
    }
}

/// Run one job and judge it.
pub fn run_job(plan: &Plan, job: &Job, slot: usize) -> CaseResult {
    let problem = &plan.problems[job.problem];
    if problem.comparison.needs_answer() && job.case.answer.is_none() {
        let judgement = Judgement::new(
            Verdict::InternalError,
            format!(
                "no answer file for {} (expected {} or .out beside it); not run",
                job.case.name,
                job.case.input.with_extension("ans").display()
            ),
        );
        return base_result(plan, job, judgement, None, problem);
    }
    let program = &plan.programs[job.program];
    if let Some(error) = &program.compile_error {
        let mut result = base_result(
            plan,
            job,
            Judgement::new(Verdict::CompileError, error.message.clone()),
            None,
            problem,
        );
        result.stderr = (!error.output.is_empty()).then(|| error.output.clone());
        return result;
    }
    let comparison = comparison_of(problem, job);
    if let check::Comparison::Interactive(interaction) = comparison {
        return interactive_job(plan, job, slot, interaction);
    }
    let files = case_files(problem, job);
    let request = RunRequest {
        input: &job.case.input,
        limits: &problem.limits,
        slot,
        given: Given {
            files: files.as_deref(),
            args: case_args(job),
            io: &problem.io_files,
        },
    };
    let (outcome, cached) = cached_run(plan, job, &request);
    match outcome {
        Err(RunError::Interrupted) => skipped(plan, job, "not run: the judge was interrupted"),
        Err(RunError::Internal(message)) => base_result(
            plan,
            job,
            Judgement::new(Verdict::InternalError, message),
            None,
            problem,
        ),
        Ok(outcome) => {
            let settings = job.case.settings.as_deref();
            let judgement = check::classify_run(&outcome, &problem.limits).unwrap_or_else(|| {
                cached_check(
                    plan,
                    CheckPlan {
                        comparison: settings
                            .and_then(|s| s.comparison.as_ref())
                            .unwrap_or(&problem.comparison),
                        puzzle: problem.puzzle,
                        lexmin: problem.lexmin,
                        strict: settings.and_then(|s| s.strict).unwrap_or(problem.strict),
                        tools: plan
                            .tools
                            .as_deref()
                            .map(|sandbox| ToolContext { sandbox, slot }),
                    },
                    &CaseFiles {
                        input: &job.case.input,
                        answer: job.case.answer.as_deref(),
                    },
                    outcome.stdout.text(),
                )
            });
            let mut result = base_result(plan, job, judgement, Some(&outcome), problem);
            result.cached = cached;
            result
        }
    }
}

/// The cache key of the job's run and the limits it is kept with; `None`
/// when it is not cached.
fn run_key(plan: &Plan, job: &Job, request: &RunRequest<'_>) -> Option<(Key, RanUnder)> {
    plan.cache.as_ref()?;
    plan.programs[job.program]
        .runner
        .identity(request.limits)
        .and_then(|identity| RunCache::run_key(&identity, request))
}

/// Draw the `--recheck` sample from the plan's jobs whose runs the cache
/// holds (nothing without `--recheck`).
pub(super) fn recheck_sample(plan: &Plan) {
    let Some(cache) = plan.cache.as_deref() else {
        return;
    };
    if !cache.recheck.wanted() {
        return;
    }
    let mut cached = Vec::new();
    for position in 0..plan.jobs.len() {
        let Some(job) = plan.jobs.get(position) else {
            continue;
        };
        let problem = &plan.problems[job.problem];
        if plan.programs[job.program].compile_error.is_some() {
            continue;
        }
        let files = case_files(problem, &job);
        let request = RunRequest {
            input: &job.case.input,
            limits: &problem.limits,
            slot: 0,
            given: Given {
                files: files.as_deref(),
                args: case_args(&job),
                io: &problem.io_files,
            },
        };
        let key = match comparison_of(problem, &job) {
            check::Comparison::Interactive(interaction) => {
                interaction_key(plan, &job, interaction, &request)
                    .map(|(k, _)| (Kind::Interaction, k))
            }
            _ => run_key(plan, &job, &request)
                .filter(|(k, under)| cache.lookup_run(k, under).is_some())
                .map(|(k, _)| (Kind::Run, k)),
        };
        if let Some((kind, key)) = key
            && cache.holds(kind, &key)
        {
            cached.push(key);
        }
    }
    cache.recheck.choose(cached);
}

/// The comparison that judges the job's case.
fn comparison_of<'a>(problem: &'a Problem, job: &'a Job) -> &'a check::Comparison {
    job.case
        .settings
        .as_deref()
        .and_then(|s| s.comparison.as_ref())
        .unwrap_or(&problem.comparison)
}

/// Run the job's program, or take its run from the cache when one there
/// stands under these limits; whether it was taken. A `--recheck` sample
/// runs again and is compared with what was kept.
fn cached_run(
    plan: &Plan,
    job: &Job,
    request: &RunRequest<'_>,
) -> (Result<RunOutcome, RunError>, bool) {
    let runner = plan.programs[job.program].runner.as_ref();
    let (Some(cache), Some((key, under))) = (plan.cache.as_deref(), run_key(plan, job, request))
    else {
        return (runner.run(request), false);
    };
    let kept = cache.lookup_run(&key, &under);
    if let Some(kept) = &kept
        && !cache.recheck.take(&key)
    {
        return (Ok(kept.clone()), true);
    }
    let fresh = runner.run(request);
    if let Ok(outcome) = &fresh {
        if let Some(why) = kept.as_ref().and_then(|k| disagreement(k, outcome)) {
            cache.recheck.disagreed(format!(
                "{} on {} {} disagrees with its cached run: {why}",
                plan.programs[job.program].label, plan.problems[job.problem].name, job.case.name
            ));
        }
        cache.store_run(&key, &under, outcome);
    }
    (fresh, false)
}

/// Check the output, or take an external checker's verdict from the cache.
fn cached_check(
    plan: &Plan,
    check_plan: CheckPlan<'_>,
    files: &CaseFiles<'_>,
    output: crate::text::stream::Text<'_>,
) -> Judgement {
    let key = match (
        plan.cache.as_deref(),
        check_plan.comparison.checker(),
        &check_plan.tools,
    ) {
        (Some(_), Some(checker), Some(tools)) => checker
            .identity(tools.sandbox)
            .and_then(|checker| RunCache::check_key(&checker, files.input, files.answer, output)),
        _ => None,
    };
    let (Some(cache), Some(key)) = (plan.cache.as_deref(), key) else {
        return check::check_output(check_plan, files, output);
    };
    if let Some(judgement) = cache.lookup_check(&key) {
        cache.count_check(true);
        return judgement;
    }
    cache.count_check(false);
    let judgement = check::check_output(check_plan, files, output);
    cache.store_check(&key, &judgement);
    judgement
}

/// Run one case of an interactive or multi-pass problem and judge it.
/// A package's test case may come with files for the working directory
/// (2025-09 `NAME.files/`).
fn case_files(problem: &Problem, job: &Job) -> Option<std::path::PathBuf> {
    problem
        .package
        .as_ref()
        .map(|_| job.case.input.with_extension("files"))
        .filter(|d| d.is_dir())
}

/// The submission's arguments for this case (2025-09 `args`).
fn case_args(job: &Job) -> &[String] {
    job.case
        .settings
        .as_deref()
        .and_then(|s| s.args.as_deref())
        .unwrap_or(&[])
}

/// What an interaction is, as content: its validator or interactor
/// (bytes and build), protocol, time limit, flags, passes and checker.
fn interaction_identity(
    interaction: &check::interactive::Interaction,
    sandbox: &crate::exec::sandbox::Sandbox,
) -> Option<String> {
    let mut fields = crate::exec::identity::Fields::new();
    fields
        .field("tool", interaction.tool.identity(sandbox)?.as_bytes())
        .field("protocol", format!("{:?}", interaction.protocol).as_bytes())
        .field("time", &interaction.time_limit.as_nanos().to_le_bytes())
        .field("interactive", &[u8::from(interaction.interactive)])
        .field("passes", &interaction.passes.to_le_bytes());
    for flag in &interaction.flags {
        fields.field("flag", flag.as_bytes());
    }
    if let Some(checker) = &interaction.checker {
        fields.field("checker", checker.identity(sandbox)?.as_bytes());
    }
    Some(fields.hex())
}

/// The cache key of an interactive or multi-pass case, kept whole.
fn interaction_key(
    plan: &Plan,
    job: &Job,
    interaction: &check::interactive::Interaction,
    request: &RunRequest<'_>,
) -> Option<(Key, RanUnder)> {
    plan.cache.as_ref()?;
    let program = plan.programs[job.program].runner.identity(request.limits)?;
    let interaction = interaction_identity(interaction, plan.tools.as_deref()?)?;
    RunCache::interaction_key(&program, &interaction, request, job.case.answer.as_deref())
}

/// Run one case of an interactive or multi-pass problem and judge it, or
/// take it whole from the cache.
fn interactive_job(
    plan: &Plan,
    job: &Job,
    slot: usize,
    interaction: &check::interactive::Interaction,
) -> CaseResult {
    let problem = &plan.problems[job.problem];
    let program = &plan.programs[job.program];
    let Some(sandbox) = plan.tools.as_deref() else {
        let judgement = Judgement::new(
            Verdict::InternalError,
            "an interactive validator needs a sandbox to run in (internal error)",
        );
        return base_result(plan, job, judgement, None, problem);
    };
    let files = case_files(problem, job);
    let given = Given {
        files: files.as_deref(),
        args: case_args(job),
        io: &problem.io_files,
    };
    let request = RunRequest {
        input: &job.case.input,
        limits: &problem.limits,
        slot,
        given,
    };
    let cached = plan
        .cache
        .as_deref()
        .zip(interaction_key(plan, job, interaction, &request));
    let kept = cached.and_then(|(cache, (key, _))| cache.lookup_interaction(&key));
    let recheck =
        kept.is_some() && cached.is_some_and(|(cache, (key, _))| cache.recheck.take(&key));
    let result = |judgement, outcome: Option<&RunOutcome>, passes, reused| {
        let mut result = base_result(plan, job, judgement, outcome, problem);
        if interaction.passes > 1 {
            result.passes = Some(passes);
        }
        result.cached = reused;
        result
    };
    if let Some(kept) = &kept
        && !recheck
    {
        let (judgement, outcome) = (kept.judgement.clone(), kept.outcome.as_ref());
        return result(judgement, outcome, kept.passes, true);
    }
    let done = check::interactive::run_case(
        interaction,
        program.runner.as_ref(),
        ToolContext { sandbox, slot },
        (&job.case.input, job.case.answer.as_deref(), given),
        &problem.limits,
    );
    if let Some((cache, (key, under))) = cached {
        if let Some(kept) = &kept {
            let was = (kept.judgement.verdict, kept.passes);
            let now = (done.judgement.verdict, done.passes);
            let why = if was != now {
                Some(format!(
                    "cached: {} after {} pass(es), re-run: {} after {}",
                    was.0, was.1, now.0, now.1
                ))
            } else {
                kept.outcome
                    .as_ref()
                    .zip(done.outcome.as_ref())
                    .and_then(|(k, d)| disagreement(k, d))
            };
            if let Some(why) = why {
                cache.recheck.disagreed(format!(
                    "{} on {} {} disagrees with its cached run: {why}",
                    program.label, problem.name, job.case.name
                ));
            }
        }
        cache.store_interaction(
            &key,
            &under,
            &done.judgement,
            done.outcome.as_ref(),
            done.passes,
        );
    }
    result(done.judgement, done.outcome.as_ref(), done.passes, false)
}
