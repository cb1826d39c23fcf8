//! `judge gen PACKAGE`: make a package's `data/` from its
//! `generators/generators.yaml`, as BAPCtools would, in named steps: read
//! the plan, write the group settings files, build the generators and the
//! solution once, make every case in parallel (generator, copy or inline
//! input; the answer from the generator or the solution), validate it,
//! and write what changed.
//!
//! Incremental: each case's key is a hash of everything that makes it (the
//! generator's files, its arguments and seed, copied files, inline text,
//! the solution's files, the validators' files). The manifest
//! (`data/.judge-gen.json`) records every file `judge gen` wrote with its
//! key and content hash; a case whose key and files are unchanged is not
//! made again. A file the manifest does not own, or one changed by hand
//! since, is never replaced without `--force`; `--clean` removes only
//! files the manifest owns that no entry makes any more.

use super::{Failure, Outcome};
use crate::check::external::Validity;
use crate::check::tool::ToolContext;
use crate::cli::GenArgs;
use crate::config::generators::{CaseSource, GenCase, GenPlan};
use crate::config::{Overrides, Problem};
use crate::exec::process::{Launch, ProcessRunner, Trust, launch};
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::exec::{Exit, Limits, RunRequest, Runner};
use crate::report::write_atomically;
use crate::submission::{Built, Toolchain};
use crate::text::format::plural;
use crate::verdict::ExitCode;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long one generator or solution run may take.
const GENERATOR_TIME: Duration = Duration::from_secs(30);
const MANIFEST: &str = ".judge-gen.json";

/// What `judge gen` wrote: path under `data/` → (case key, content hash).
#[derive(Default, Serialize, Deserialize)]
struct Manifest {
    files: BTreeMap<String, Owned>,
}

#[derive(Clone, Serialize, Deserialize, PartialEq)]
struct Owned {
    key: String,
    sha256: String,
}

/// A program ready to run: its command line.
#[derive(Clone)]
struct Ready {
    program: PathBuf,
    args: Vec<OsString>,
}

/// One case made: its files, or why not.
struct Made {
    case: GenCase,
    key: String,
    files: Result<BTreeMap<String, Vec<u8>>, String>,
    cached: bool,
}

/// Whether `dir` is a problem whose data a generators.yaml makes.
pub fn has_generators(dir: &Path) -> bool {
    dir.join("generators").join("generators.yaml").is_file()
}

pub fn generate_package(root: &Path, args: &GenArgs) -> Outcome {
    let plan = crate::config::generators::load(root).map_err(Failure::Usage)?;
    for w in &plan.warnings {
        eprintln!("warning: {w}");
    }
    let data = root.join("data");
    let mut manifest = read_manifest(&data);
    if args.dry_run {
        return dry_run(&plan, &manifest);
    }
    write_group_files(&plan, &data, &mut manifest, args.force)?;
    let problem = crate::config::package_problem(root, &Overrides::default())
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let sandbox = Arc::new(
        Sandbox::new(SandboxOptions::default()).map_err(|e| Failure::Internal(e.to_string()))?,
    );
    let toolchain = crate::config::toolchain(None);
    let programs = build_programs(&plan, &toolchain, &sandbox)?;
    let made: Vec<Made> = plan
        .cases
        .par_iter()
        .map(|case| {
            make(
                case,
                &plan,
                &problem,
                &programs,
                &manifest,
                &data,
                &sandbox,
                args.check_deterministic,
            )
        })
        .collect();
    let summary = write_cases(&made, &data, &mut manifest, args.force);
    if args.clean {
        clean(&plan, &data, &mut manifest);
    }
    save_manifest(&data, &manifest)?;
    report(&made, &summary)
}

/// What writing the cases came to.
#[derive(Default)]
struct Summary {
    written: usize,
    unchanged: usize,
    refused: Vec<String>,
}

fn report(made: &[Made], summary: &Summary) -> Outcome {
    let failed: Vec<&Made> = made.iter().filter(|m| m.files.is_err()).collect();
    for m in &failed {
        if let Err(e) = &m.files {
            eprintln!("data/{}: {e}", m.case.path.display());
        }
    }
    for r in &summary.refused {
        eprintln!("{r}");
    }
    let cached = made.iter().filter(|m| m.cached).count();
    eprintln!(
        "{} case{}: {} made, {cached} unchanged (nothing run), {} failed; {} file{} written, {} already as made",
        made.len(),
        plural(made.len()),
        made.len() - cached - failed.len(),
        failed.len(),
        summary.written,
        plural(summary.written),
        summary.unchanged
    );
    if failed.is_empty() && summary.refused.is_empty() {
        Ok(ExitCode::Ok)
    } else {
        Ok(ExitCode::Failed)
    }
}

fn read_manifest(data: &Path) -> Manifest {
    std::fs::read(data.join(MANIFEST))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn save_manifest(data: &Path, manifest: &Manifest) -> Result<(), Failure> {
    let bytes =
        serde_json::to_vec_pretty(manifest).map_err(|e| Failure::Internal(e.to_string()))?;
    std::fs::create_dir_all(data)
        .and_then(|()| write_atomically(&data.join(MANIFEST), &bytes))
        .map_err(|e| Failure::Internal(format!("{}: {e}", data.join(MANIFEST).display())))
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `--dry-run`: each case, how it would be made, whether it is cached.
fn dry_run(plan: &GenPlan, manifest: &Manifest) -> Outcome {
    for case in &plan.cases {
        let how = match &case.source {
            CaseSource::Generate { command, seed, .. } => {
                format!("generate: {command} (seed {seed})")
            }
            CaseSource::Copy(p) => format!("copy: {}", p.display()),
            CaseSource::Inline => "inline".to_string(),
        };
        let owned = manifest
            .files
            .contains_key(&format!("{}.in", case.path.display()));
        println!(
            "data/{}: {how}{}",
            case.path.display(),
            if owned { " (made before)" } else { "" }
        );
    }
    for (path, _) in &plan.group_files {
        println!("data/{}: group settings", path.display());
    }
    Ok(ExitCode::Ok)
}

/// Write a file under `data/` unless it is someone else's: a file the
/// manifest does not own (or that changed since) needs `force`.
fn write_owned(
    data: &Path,
    rel: &str,
    bytes: &[u8],
    key: &str,
    manifest: &mut Manifest,
    force: bool,
) -> Result<bool, String> {
    let path = data.join(rel);
    let hash = sha256(bytes);
    if let Ok(existing) = std::fs::read(&path) {
        let existing_hash = sha256(&existing);
        if existing_hash == hash {
            manifest.files.insert(
                rel.to_string(),
                Owned {
                    key: key.to_string(),
                    sha256: hash,
                },
            );
            return Ok(false);
        }
        let ours = manifest
            .files
            .get(rel)
            .is_some_and(|o| o.sha256 == existing_hash);
        if !ours && !force {
            return Err(format!(
                "data/{rel}: not replaced: judge gen did not write it (or it changed since); --force replaces it"
            ));
        }
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    write_atomically(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    manifest.files.insert(
        rel.to_string(),
        Owned {
            key: key.to_string(),
            sha256: hash,
        },
    );
    Ok(true)
}

fn write_group_files(
    plan: &GenPlan,
    data: &Path,
    manifest: &mut Manifest,
    force: bool,
) -> Result<(), Failure> {
    for (path, text) in &plan.group_files {
        let rel = path.display().to_string();
        write_owned(data, &rel, text.as_bytes(), "group", manifest, force)
            .map_err(Failure::Usage)?;
    }
    Ok(())
}

/// Every generator and solution the plan uses, built once: a path from the
/// problem root → its command line, or why it cannot run.
fn build_programs(
    plan: &GenPlan,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
) -> Result<HashMap<PathBuf, Result<Ready, String>>, Failure> {
    let mut wanted: Vec<PathBuf> = Vec::new();
    for case in &plan.cases {
        if let CaseSource::Generate { program, .. } = &case.source {
            wanted.push(program.clone());
        }
        if let Some(s) = &case.solution {
            wanted.push(s.clone());
        }
    }
    wanted.sort();
    wanted.dedup();
    let built = wanted
        .par_iter()
        .enumerate()
        .map(|(slot, rel)| (rel.clone(), build_one(plan, rel, toolchain, sandbox, slot)))
        .collect();
    Ok(built)
}

fn build_one(
    plan: &GenPlan,
    rel: &Path,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    slot: usize,
) -> Result<Ready, String> {
    let path = plan.root.join(rel);
    // A named multi-file generator is the directory of its files.
    let named = rel
        .strip_prefix("generators")
        .ok()
        .and_then(|n| plan.generators.get(&n.display().to_string()));
    let source_path = match named {
        Some(files) => files
            .first()
            .and_then(|f| plan.root.join(f).parent().map(Path::to_path_buf))
            .unwrap_or(path.clone()),
        None => path.clone(),
    };
    match toolchain.find_source(&source_path) {
        Ok(Some(source)) => match toolchain.build(&source, sandbox, slot) {
            Ok(Built::Ready(exe)) => Ok(Ready {
                program: exe.program,
                args: exe.args,
            }),
            Ok(Built::CompileError(e)) => Err(format!("{}: {}", rel.display(), e.message)),
            Err(e) => Err(e.to_string()),
        },
        Ok(None) if path.is_file() => Ok(Ready {
            program: std::path::absolute(&path).unwrap_or(path),
            args: Vec::new(),
        }),
        Ok(None) => Err(format!("{}: no such program", rel.display())),
        Err(e) => Err(e.to_string()),
    }
}

/// The key of a case: everything that makes it.
fn case_key(case: &GenCase, plan: &GenPlan, problem: &Problem) -> String {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    let files_of = |path: &Path, part: &mut dyn FnMut(&[u8])| {
        for entry in walkdir::WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_file() {
                // Names relative to the package: a copied package keeps
                // its keys.
                let rel = entry
                    .path()
                    .strip_prefix(&plan.root)
                    .unwrap_or(entry.path());
                part(rel.as_os_str().as_encoded_bytes());
                part(&std::fs::read(entry.path()).unwrap_or_default());
            }
        }
    };
    match &case.source {
        CaseSource::Generate { program, args, .. } => {
            files_of(&plan.root.join(program), &mut part);
            for a in args {
                part(a.as_bytes());
            }
        }
        CaseSource::Copy(p) => {
            for ext in ["in", "ans", "hint", "desc", "out"] {
                part(&std::fs::read(plan.root.join(p).with_extension(ext)).unwrap_or_default());
            }
        }
        CaseSource::Inline => part(b"inline"),
    }
    for (ext, text) in &case.inline {
        part(ext.as_bytes());
        part(text.as_bytes());
    }
    if let Some(s) = &case.solution {
        files_of(&plan.root.join(s), &mut part);
    }
    for v in problem.validators.iter().chain(&problem.answer_validators) {
        files_of(Path::new(&plan.root.join(&v.tool.display)), &mut part);
    }
    Sha256::digest(hash.finalize())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Make one case (or find it unchanged).
#[allow(clippy::too_many_arguments)]
fn make(
    case: &GenCase,
    plan: &GenPlan,
    problem: &Problem,
    programs: &HashMap<PathBuf, Result<Ready, String>>,
    manifest: &Manifest,
    data: &Path,
    sandbox: &Arc<Sandbox>,
    check_deterministic: bool,
) -> Made {
    let key = case_key(case, plan, problem);
    // Unchanged: made with this key before, and every file it made is
    // still as it was made.
    let input_rel = format!("{}.in", case.path.display());
    let prefix = format!("{}.", case.path.display());
    let unchanged = manifest.files.get(&input_rel).is_some_and(|o| o.key == key)
        && manifest
            .files
            .iter()
            .filter(|(rel, _)| rel.starts_with(&prefix))
            .all(|(rel, o)| {
                o.key == key && std::fs::read(data.join(rel)).is_ok_and(|b| sha256(&b) == o.sha256)
            });
    if unchanged && !check_deterministic {
        return Made {
            case: case.clone(),
            key,
            files: Ok(BTreeMap::new()),
            cached: true,
        };
    }
    let slot = rayon::current_thread_index().unwrap_or(0);
    let files = produce(case, plan, programs, sandbox, slot, check_deterministic)
        .and_then(|files| validate(case, problem, data, files, sandbox, slot));
    Made {
        case: case.clone(),
        key,
        files,
        cached: false,
    }
}

/// A case's files: from its generator, copy or inline text, then the
/// answer from the solution when nothing gave one.
fn produce(
    case: &GenCase,
    plan: &GenPlan,
    programs: &HashMap<PathBuf, Result<Ready, String>>,
    sandbox: &Arc<Sandbox>,
    slot: usize,
    check_deterministic: bool,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut files = BTreeMap::new();
    match &case.source {
        CaseSource::Generate {
            program,
            seed,
            command,
            template,
            ..
        } => {
            let ready = programs
                .get(program)
                .cloned()
                .unwrap_or_else(|| Err(format!("{}: not built", program.display())))?;
            // `retries`: a failed run is tried again with the seed plus
            // one, as BAPCtools does.
            let mut last = Err(String::new());
            for retry in 0..case.retries.max(1) {
                let seed = (seed.wrapping_add(retry)) & 0x7fff_ffff;
                let args = crate::config::generators::args_with_seed(template, seed);
                last = run_generator(&ready, &args, sandbox, slot);
                if let (Ok(made), true) = (&last, check_deterministic) {
                    let again = run_generator(&ready, &args, sandbox, slot)?;
                    if again.get("in") != made.get("in") {
                        return Err(format!(
                            "generator `{command}` is not deterministic: two runs with seed {seed} made different inputs"
                        ));
                    }
                }
                if last.is_ok() {
                    break;
                }
            }
            files = last.map_err(|e| format!("generator `{command}`: {e}"))?;
        }
        CaseSource::Copy(p) => {
            let base = plan.root.join(p);
            for ext in ["in", "ans", "hint", "desc", "out", "interaction"] {
                if let Ok(bytes) = std::fs::read(base.with_extension(ext)) {
                    files.insert(ext.to_string(), bytes);
                }
            }
            if !files.contains_key("in") {
                return Err(format!("copy: {}.in does not exist", base.display()));
            }
        }
        CaseSource::Inline => {}
    }
    for (ext, text) in &case.inline {
        files.insert(ext.clone(), text.clone().into_bytes());
    }
    if !files.contains_key("ans") {
        let Some(solution) = &case.solution else {
            return Ok(files);
        };
        let ready = programs
            .get(solution)
            .cloned()
            .unwrap_or_else(|| Err(format!("{}: not built", solution.display())))?;
        let answer = run_solution(
            &ready,
            files.get("in").map(Vec::as_slice).unwrap_or_default(),
            sandbox,
            slot,
        )
        .map_err(|e| format!("solution {}: {e}", solution.display()))?;
        files.insert("ans".to_string(), answer);
    }
    Ok(files)
}

fn tool_limits() -> Limits {
    Limits {
        time: GENERATOR_TIME,
        wall: GENERATOR_TIME * 2,
        memory: None,
        stack: None,
        output: 1 << 30,
        file_size: 1 << 30,
        processes: 64,
    }
}

/// Run a generator in a fresh directory: `testcase.in` (or its standard
/// output) is the input; any other `testcase.*` it wrote is kept.
fn run_generator(
    ready: &Ready,
    args: &[String],
    sandbox: &Sandbox,
    slot: usize,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let dir = tempfile::Builder::new()
        .prefix("judge-gen-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let mut argv = ready.args.clone();
    argv.extend(args.iter().map(OsString::from));
    let outcome = launch(
        sandbox,
        &Launch {
            program: &ready.program,
            args: &argv,
            stdin: None,
            limits: &tool_limits(),
            slot,
            trust: Trust::Trusted,
            address_space: true,
            workdir: Some(dir.path()),
        },
    )
    .map_err(|e| e.to_string())?;
    if outcome.limit_hit.is_some() || outcome.exit != Exit::Code(0) {
        return Err(format!(
            "ended with {}{}",
            outcome
                .limit_hit
                .map_or_else(|| outcome.exit.describe(), |h| format!("{h:?} limit hit")),
            crate::check::external::telling_line(&outcome.stderr_tail)
                .map(|l| format!(": {l}"))
                .unwrap_or_default()
        ));
    }
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir.path())
        .map_err(|e| e.to_string())?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(ext) = name.strip_prefix("testcase.") {
            files.insert(
                ext.to_string(),
                std::fs::read(entry.path()).map_err(|e| e.to_string())?,
            );
        }
    }
    if !files.contains_key("in") {
        files.insert("in".to_string(), outcome.stdout);
    }
    Ok(files)
}

/// Run the solution on an input: its standard output is the answer.
fn run_solution(
    ready: &Ready,
    input: &[u8],
    sandbox: &Arc<Sandbox>,
    slot: usize,
) -> Result<Vec<u8>, String> {
    let dir = tempfile::Builder::new()
        .prefix("judge-gen-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let input_path = dir.path().join("testcase.in");
    std::fs::write(&input_path, input).map_err(|e| e.to_string())?;
    let runner = ProcessRunner::from_argv(
        ready.program.clone(),
        ready.args.clone(),
        Arc::clone(sandbox),
    )
    .map_err(|e| e.to_string())?;
    let outcome = runner
        .run(&RunRequest {
            input: &input_path,
            limits: &tool_limits(),
            slot,
        })
        .map_err(|e| e.to_string())?;
    if outcome.limit_hit.is_some() || outcome.exit != Exit::Code(0) {
        return Err(format!("ended with {}", outcome.exit.describe()));
    }
    Ok(outcome.stdout)
}

/// Validate a made case: its input by the input validators (with its
/// group's arguments), its answer by the answer validators. Cases of the
/// `invalid_*` folders are made as they are (they are meant to fail).
fn validate(
    case: &GenCase,
    problem: &Problem,
    data: &Path,
    files: BTreeMap<String, Vec<u8>>,
    sandbox: &Sandbox,
    slot: usize,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let top = case
        .path
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    if top.as_deref().is_some_and(|t| t.starts_with("invalid_")) {
        return Ok(files);
    }
    let dir = tempfile::Builder::new()
        .prefix("judge-gen-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let input = dir.path().join("testcase.in");
    std::fs::write(
        &input,
        files.get("in").map(Vec::as_slice).unwrap_or_default(),
    )
    .map_err(|e| e.to_string())?;
    // The group's settings: where the case will be.
    let target = data.join(&case.path);
    let group_dir = target.parent().unwrap_or(data);
    let _ = std::fs::create_dir_all(group_dir);
    let settings = problem.settings_for(&target.with_extension("in"));
    let validators = settings
        .as_deref()
        .and_then(|s| s.validators.as_ref())
        .unwrap_or(&problem.validators);
    let context = ToolContext { sandbox, slot };
    for v in validators {
        match v.check(context, &input) {
            Ok(Validity::Valid) => {}
            Ok(Validity::Invalid(m) | Validity::Undefined { message: m, .. }) => {
                return Err(format!(
                    "rejected by input validator {}: {m}",
                    v.tool.display
                ));
            }
            Err(e) => return Err(e),
        }
    }
    if let Some(answer) = files.get("ans") {
        let answer_path = dir.path().join("testcase.ans");
        std::fs::write(&answer_path, answer).map_err(|e| e.to_string())?;
        for v in &problem.answer_validators {
            let mut v = v.clone();
            v.flags.insert(0, input.to_string_lossy().into_owned());
            match v.check(context, &answer_path) {
                Ok(Validity::Valid) => {}
                Ok(Validity::Invalid(m) | Validity::Undefined { message: m, .. }) => {
                    return Err(format!("answer rejected by {}: {m}", v.tool.display));
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok(files)
}

fn write_cases(made: &[Made], data: &Path, manifest: &mut Manifest, force: bool) -> Summary {
    let mut summary = Summary::default();
    for m in made {
        let Ok(files) = &m.files else { continue };
        for (ext, bytes) in files {
            let rel = format!("{}.{ext}", m.case.path.display());
            match write_owned(data, &rel, bytes, &m.key, manifest, force) {
                Ok(true) => summary.written += 1,
                Ok(false) => summary.unchanged += 1,
                Err(e) => summary.refused.push(e),
            }
        }
    }
    summary
}

/// `--clean`: remove the files the manifest owns that no entry makes now
/// (never a file it does not own, nor one changed by hand since).
fn clean(plan: &GenPlan, data: &Path, manifest: &mut Manifest) {
    let made: std::collections::HashSet<String> = plan
        .cases
        .iter()
        .map(|c| c.path.display().to_string())
        .chain(
            plan.group_files
                .iter()
                .map(|(p, _)| p.display().to_string()),
        )
        .collect();
    let stale: Vec<String> = manifest
        .files
        .keys()
        .filter(|rel| {
            let stem = rel.rsplit_once('.').map_or(rel.as_str(), |(s, _)| s);
            !made.contains(stem) && !made.contains(rel.as_str())
        })
        .cloned()
        .collect();
    for rel in stale {
        let path = data.join(&rel);
        let ours = std::fs::read(&path).is_ok_and(|b| {
            manifest
                .files
                .get(&rel)
                .is_some_and(|o| o.sha256 == sha256(&b))
        });
        if ours {
            let _ = std::fs::remove_file(&path);
            eprintln!("removed data/{rel} (no entry makes it any more)");
        }
        manifest.files.remove(&rel);
    }
}
