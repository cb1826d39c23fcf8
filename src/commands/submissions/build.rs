//! Building a problem's submissions (in parallel, cached) and judging
//! them all in one plan, programs × cases, under chosen limits.

use super::*;

/// Whether a not-run reason is a tool this machine lacks (a compiler or
/// interpreter not installed, a language the judge has no build for):
/// what `--allow-missing` forgives. A submission the judge cannot build as
/// laid out (several languages, no main file) is never forgiven.
pub fn missing_tool(reason: &str) -> bool {
    reason.contains("is not installed") || reason.contains("no language of the judge's builds")
}

/// A submission as the plan runs it, or why it cannot run here.
pub enum Readiness {
    Ready(Program),
    NotRun(String),
}

/// Build every submission (in parallel; cached builds are instant). A
/// missing compiler or interpreter makes that submission not runnable,
/// named; a compile error makes a program whose cases are all CE.
pub fn build_all(
    submissions: &[Submission],
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<Vec<Readiness>, Failure> {
    let built: Vec<Result<Readiness, Failure>> = submissions
        .par_iter()
        .enumerate()
        .map(|(i, s)| build_one(s, i, toolchain, sandbox))
        .collect();
    built.into_iter().collect()
}

/// One submission built on build slot `i`: its program, or why it is not
/// run.
fn build_one(
    s: &Submission,
    i: usize,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<Readiness, Failure> {
    let source = match &s.source {
        Ok(source) => source,
        Err(Unready::NotRun(e)) => return Ok(Readiness::NotRun(e.clone())),
        Err(Unready::CompileError(e)) => {
            return Ok(Readiness::Ready(crate::commands::prepare::compile_failed(
                &s.label, e,
            )));
        }
    };
    match toolchain.build(source, sandbox, i) {
        Ok(Built::Ready(exe)) => match exe.runner(sandbox, &source.path) {
            Ok(runner) => Ok(Readiness::Ready(Program::new(Arc::new(runner), &s.label))),
            Err(e) => Ok(Readiness::NotRun(e.to_string())),
        },
        Ok(Built::CompileError(error)) => Ok(Readiness::Ready(
            crate::commands::prepare::not_built(&s.label, error),
        )),
        Err(BuildError::MissingTool {
            title,
            role,
            tool,
            package,
            ..
        }) => Ok(Readiness::NotRun(
            crate::submission::languages::missing_tool_message(
                &title,
                role,
                &tool,
                crate::submission::languages::package_hint(package.as_deref()).as_deref(),
            ),
        )),
        Err(BuildError::BrokenTool {
            title,
            role,
            tool,
            reason,
            ..
        }) => Ok(Readiness::NotRun(
            crate::submission::languages::missing_tool_message(
                &title,
                role,
                &tool,
                Some(&format!("its command fails: {reason}")),
            ),
        )),
        Err(BuildError::Unreachable { language, tool, .. }) => Ok(Readiness::NotRun(format!(
            "the {language} compiler {tool} cannot be run by the sandbox's users"
        ))),
        Err(BuildError::SourceTooLarge(message)) => Ok(Readiness::Ready(
            crate::commands::prepare::compile_failed(&s.label, message),
        )),
        Err(BuildError::Interrupted) => Err(Failure::Interrupted),
        Err(BuildError::Internal(m)) => Err(Failure::Internal(m)),
    }
}

/// Programs to judge, each on every case of its problem.
pub struct Entrant {
    pub problem: usize,
    pub program: Program,
}

/// What a trial gives: per entrant, per case (in order), the results of
/// its `repeat` runs.
pub struct Trial {
    pub results: Vec<Vec<Vec<CaseResult>>>,
    /// The raw report of the whole plan (results as run, every case with
    /// its program).
    pub report: Report,
}

/// Judge every entrant on every case of its problem, each case `repeat`
/// times, under `limits[problem]`, in one parallel plan.
#[allow(clippy::too_many_arguments)]
pub fn trial(
    problems: &[Problem],
    cases: &[Vec<Case>],
    limits: &[Limits],
    entrants: Vec<Entrant>,
    repeat: usize,
    jobs: usize,
    interrupted: Option<Arc<AtomicBool>>,
    sandbox: &Arc<Sandbox>,
    cache: Option<Arc<crate::judge::cache::RunCache>>,
) -> Result<Trial, Failure> {
    let protections = sandbox.protections().clone();
    let tools = crate::commands::prepare_checkers(problems, sandbox)?;
    let mut plan_problems: Vec<Problem> = problems.to_vec();
    for (p, l) in plan_problems.iter_mut().zip(limits) {
        p.limits = l.clone();
    }
    let mut plan_jobs = Vec::new();
    // (entrant, case, repeat) of each job.
    let mut slots = Vec::new();
    for (e, entrant) in entrants.iter().enumerate() {
        for (c, case) in cases[entrant.problem].iter().enumerate() {
            for r in 0..repeat.max(1) {
                plan_jobs.push(Job {
                    index: plan_jobs.len(),
                    problem: entrant.problem,
                    program: e,
                    case: case.clone(),
                });
                slots.push((e, c, r));
            }
        }
    }
    let labels: Vec<String> = entrants.iter().map(|e| e.program.label.clone()).collect();
    let case_counts: Vec<usize> = entrants.iter().map(|e| cases[e.problem].len()).collect();
    let info = RunInfo {
        programs: labels.clone(),
        problems: plan_problems.iter().map(judge::problem_info).collect(),
        protections,
        ..RunInfo::default()
    };
    let plan = Plan {
        problems: plan_problems,
        programs: entrants.into_iter().map(|e| e.program).collect(),
        jobs: plan_jobs.into(),
        tools,
        label_programs: true,
        cache,
    };
    let progress = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let mut reporter = HumanReporter::new(
        Box::new(std::io::sink()),
        Verbosity::Normal,
        false,
        progress,
    );
    let options = RunOptions {
        jobs,
        fail_fast: false,
        interrupted,
        // Verify, limits and stress look at every case afterwards.
        keep_cases: true,
        unpinned: false,
    };
    let mut report = judge::run(&plan, info, &options, &mut reporter)
        .map_err(|e| Failure::Internal(format!("cannot report: {e}")))?;
    drop(reporter);
    let mut results: Vec<Vec<Vec<CaseResult>>> =
        case_counts.iter().map(|&n| vec![Vec::new(); n]).collect();
    for (case, &(e, c, _)) in report.cases.iter_mut().zip(&slots) {
        case.program = Some(labels[e].clone());
        results[e][c].push(case.clone());
    }
    Ok(Trial { results, report })
}
