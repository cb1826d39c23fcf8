//! `judge gen PACKAGE` (or `judge gen PROBLEM` for a judge.toml problem
//! with a `generators` key): make the data from a BAPCtools
//! `generators.yaml`, in named steps: read the plan, write the group
//! settings files, build the generators and the solution once, make every
//! case in parallel (generator, built-in puzzle generator, copy or inline
//! input; the answer from the generator or the solution), validate it,
//! write what changed, then the `include:`d cases, then report.
//!
//! Incremental: each case's key is a hash of everything that makes it (the
//! generator's files, its arguments and seed, copied files, inline text,
//! the solution's files, the validators' files). The manifest
//! (`.judge-gen.json` in the data directory) records every file `judge gen`
//! wrote with its key and content hash; a case whose key and files are
//! unchanged is not made again.

mod build;
mod confine;
mod context;
mod error;
mod include;
mod make;
mod manifest;
mod manual;
mod polygon;
mod prepare;
pub use polygon::generate_polygon;
mod report;
mod validate;

pub use prepare::prepare_package;

use super::{Failure, Outcome};
use crate::cli::GenArgs;
use crate::config::{Config, Overrides, Problem};
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::formats::generators::GenPlan;
use crate::report::Format;
use context::Ctx;
use make::Made;
use rayon::prelude::*;
use report::JsonTarget;
use std::path::Path;
use std::sync::Arc;

/// Whether `dir` is a problem whose data a generators.yaml makes.
pub fn has_generators(dir: &Path) -> bool {
    crate::formats::generators::is_present(dir)
}

/// `judge gen PACKAGE`.
pub fn generate_package(root: &Path, args: &GenArgs) -> Outcome {
    let json = json_target(args)?;
    let plan = crate::formats::generators::load(root).map_err(|e| Failure::Usage(e.to_string()))?;
    // The package is read after the group settings files are written: a
    // case is validated with its group's arguments from the first run.
    let problem = || {
        crate::config::package_problem(root, &Overrides::default())
            .map_err(|e| Failure::Usage(e.to_string()))
    };
    let confine = confine::Confine::new(root).map_err(Failure::usage)?;
    generate(
        &plan,
        problem,
        None,
        &root.join("data"),
        &confine,
        args,
        &json,
    )
}

/// How a plan is made: `judge gen`'s flags.
#[derive(Clone, Copy, Default)]
struct Options {
    force: bool,
    clean: bool,
    check_deterministic: bool,
    /// Say the package's own warnings (problem.yaml, group files):
    /// `judge gen` does; `verify` and `run` say them themselves.
    package_warnings: bool,
}

impl Options {
    fn of(args: &GenArgs) -> Options {
        Options {
            force: args.force,
            clean: args.clean,
            check_deterministic: args.check_deterministic,
            package_warnings: true,
        }
    }
}

/// `judge gen PROBLEM` for a judge.toml problem with `generators = "…"`:
/// programs and copies relative to that file's directory, `/path` from
/// judge.toml's directory, the cases written into the problem's `cases`.
pub fn generate_problem(config: &Config, name: &str, args: &GenArgs) -> Option<Outcome> {
    let (_, file) = config.generators.iter().find(|(n, _)| n == name)?;
    let problem = config.problem(name)?;
    let root = config.path.parent().unwrap_or(Path::new("."));
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    Some(json_target(args).and_then(|json| {
        let plan = crate::formats::generators::load_file(root, file)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let confine = confine::Confine::new(root).map_err(Failure::usage)?;
        generate(
            &plan,
            || Ok(problem.clone()),
            Some(config),
            &problem.cases,
            &confine,
            args,
            &json,
        )
    }))
}

/// `--format json` (on stdout) and `--report FILE` (JSON, atomically).
fn json_target(args: &GenArgs) -> Result<JsonTarget, Failure> {
    match args.format {
        None | Some(Format::Human) | Some(Format::Json) => {}
        Some(other) => {
            return Err(Failure::Usage(format!(
                "--format {other:?}: judge gen reports in json only"
            )));
        }
    }
    if let Some(file) = &args.report {
        crate::report::check_target(file).map_err(Failure::usage)?;
    }
    Ok(JsonTarget {
        stdout: args.format == Some(Format::Json) && args.report.is_none(),
        file: args.report.clone(),
    })
}

/// The steps, for a package or a judge.toml problem.
fn generate(
    plan: &GenPlan,
    problem: impl FnOnce() -> Result<Problem, Failure>,
    config: Option<&Config>,
    data: &Path,
    confine: &confine::Confine,
    args: &GenArgs,
    json: &JsonTarget,
) -> Outcome {
    for w in &plan.warnings {
        crate::commands::stdout::say!("warning: {w}");
    }
    if args.dry_run {
        // The data directory (a symbolic link to elsewhere, or under one)
        // is refused before anything is read from it.
        if std::fs::symlink_metadata(data).is_ok() {
            confine.check(data).map_err(Failure::usage)?;
        }
        return report::dry_run(plan, &manifest::read(data));
    }
    let (mut made, summary) = make_all(plan, problem, config, data, confine, Options::of(args))?;
    // The entries that cannot be made are this command's failures (the
    // rest is made, as BAPCtools makes it).
    made.extend(plan.skipped.iter().map(Made::skipped));
    report::finish(&plan.root, data, &made, &summary, json)
}

/// Make every case of a plan and write what changed: the cases made (or
/// why not) and what writing them came to.
fn make_all(
    plan: &GenPlan,
    problem: impl FnOnce() -> Result<Problem, Failure>,
    config: Option<&Config>,
    data: &Path,
    confine: &confine::Confine,
    options: Options,
) -> Result<(Vec<Made>, manifest::Summary), Failure> {
    let mut manifest = open_data(plan, data, confine, options)?;
    let problem = &problem()?;
    if options.package_warnings {
        for w in &problem.warnings {
            crate::commands::stdout::say!("warning: {w}");
        }
    }
    let sandbox = Arc::new(
        Sandbox::new(SandboxOptions::default()).map_err(|e| Failure::Internal(e.to_string()))?,
    );
    let (default, programs) = programs(plan, problem, config, &sandbox);
    let nothing = manifest::Manifest::default();
    let digests = context::Digests::default();
    let unrun = context::Unrun::default();
    let base = Ctx {
        plan,
        problem,
        programs: &programs,
        manifest: &nothing,
        data,
        sandbox: &sandbox,
        check_deterministic: options.check_deterministic,
        default_solution: default.as_deref(),
        digests: &digests,
        confine,
        unrun: &unrun,
    };
    let mut made: Vec<Made> = {
        let ctx = Ctx {
            manifest: &manifest,
            ..base
        };
        plan.cases.par_iter().map(|case| ctx.make(case)).collect()
    };
    let mut summary = manifest::Summary::default();
    manifest::write_cases(
        &made,
        data,
        confine,
        &mut manifest,
        options.force,
        &mut summary,
    );
    let included = {
        let ctx = Ctx {
            manifest: &manifest,
            ..base
        };
        include::make_included(&ctx, &made)
    };
    manifest::write_cases(
        &included,
        data,
        confine,
        &mut manifest,
        options.force,
        &mut summary,
    );
    made.extend(included);
    for (validator, why) in unrun.into_inner().unwrap_or_else(|e| e.into_inner()) {
        crate::commands::stdout::say!(
            "warning: {validator} could not be run, the cases are written unchecked by it: {why}"
        );
    }
    close_data(plan, data, confine, manifest, &made, options)?;
    Ok((made, summary))
}

/// The programs the plan runs, built, and the solution that makes the
/// answers when the plan names none (the first accepted submission; a
/// puzzle's answers are the judge's own).
fn programs(
    plan: &GenPlan,
    problem: &Problem,
    config: Option<&Config>,
    sandbox: &Arc<Sandbox>,
) -> (Option<std::path::PathBuf>, build::Programs) {
    let default = match problem.puzzle {
        Some(_) => None,
        None => build::default_solution(plan, &problem.submissions.join("accepted")),
    };
    let toolchain = crate::config::toolchain(config);
    let programs = build::build_programs(
        plan,
        default.as_deref(),
        &toolchain,
        sandbox,
        problem.constants.as_ref(),
    );
    (default, programs)
}

/// The data directory ready to be written: refused if it is (or is under)
/// a symbolic link to elsewhere, before anything is read from it or
/// written to it; made; its group files written. Its manifest as it was.
fn open_data(
    plan: &GenPlan,
    data: &Path,
    confine: &confine::Confine,
    options: Options,
) -> Result<manifest::Manifest, Failure> {
    if std::fs::symlink_metadata(data).is_ok() {
        confine.check(data).map_err(Failure::usage)?;
    }
    let mut manifest = manifest::read(data);
    confine.make_dirs(data).map_err(Failure::usage)?;
    manifest::write_group_files(
        plan,
        data,
        confine,
        &mut manifest,
        options.force,
        !options.package_warnings,
    )?;
    Ok(manifest)
}

/// After the cases are written: what is no longer generated removed
/// (`--clean`), the files synced, and the manifest saved with what the
/// data was made from when every case was made (`judge verify` and
/// `judge run` then know it is up to date).
fn close_data(
    plan: &GenPlan,
    data: &Path,
    confine: &confine::Confine,
    mut manifest: manifest::Manifest,
    made: &[Made],
    options: Options,
) -> Result<(), Failure> {
    if options.clean {
        manifest::clean(plan, data, confine, &mut manifest);
    }
    manifest::sync(data);
    manifest.sources = (made.iter().all(|m| m.files.is_ok()) && plan.skipped.is_empty())
        .then(|| prepare::sources(&plan.root));
    manifest::save(data, confine, &manifest)?;
    Ok(())
}
