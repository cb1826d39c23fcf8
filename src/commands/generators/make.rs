//! Making one case: its key, then (unless unchanged) its files from the
//! generator, the built-in puzzle generator, a copy or inline text, the
//! answer from the solution when nothing gave one, then validation.

use super::build::Ready;
use super::context::{Ctx, scratch};
use super::error::CaseError;
use super::validate::validate;
use crate::exec::process::{Launch, Trust, launch};
use crate::exec::runner::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use crate::exec::{Exit, Given, Limits, RunRequest, Runner};
use crate::formats::generators::{CaseSource, DATA_EXTENSIONS, GenCase, INVALID_DIRECTORIES};
use crate::puzzles::{Puzzle, SolveOptions};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one generator or solution run may take.
const GENERATOR_TIME: Duration = Duration::from_secs(30);

/// One case made: its files, or why not; how, and how long it took.
pub(super) struct Made {
    pub(super) path: PathBuf,
    /// generate, judge (a built-in puzzle), copy, inline, manual (an empty
    /// entry's files in `data/`), include, or skipped (an entry that
    /// cannot be made).
    pub(super) kind: &'static str,
    pub(super) command: Option<String>,
    pub(super) seed: Option<u32>,
    /// The case an included case is.
    pub(super) from: Option<PathBuf>,
    pub(super) key: String,
    pub(super) files: Result<BTreeMap<String, Vec<u8>>, CaseError>,
    pub(super) cached: bool,
    /// passed, failed, skipped (an invalid_* case) or not run (a failure
    /// before validation, or an unchanged case validated when made).
    pub(super) validation: &'static str,
    pub(super) time: Duration,
}

impl Made {
    /// An entry generators.yaml gives that cannot be made: a failure
    /// naming the file, the line and the entry.
    pub(super) fn skipped(error: &crate::formats::generators::GenError) -> Made {
        Made {
            path: error.entry().map(PathBuf::from).unwrap_or_default(),
            kind: "skipped",
            command: None,
            seed: None,
            from: None,
            key: String::new(),
            files: Err(CaseError::Skipped(error.clone())),
            cached: false,
            validation: "not run",
            time: Duration::ZERO,
        }
    }
}

/// Where a case's answer comes from when nothing else gives one.
enum Answerer<'a> {
    Program(&'a Path),
    Solver(&'static dyn Puzzle),
    /// An interactive or multi-pass problem: its answers are for the
    /// validator, never a solution's output; an empty `.ans` where none
    /// is given (as BAPCtools writes).
    Empty,
}

impl Ctx<'_> {
    fn answerer<'c>(&'c self, case: &'c GenCase) -> Option<Answerer<'c>> {
        if matches!(
            self.problem.comparison,
            crate::check::Comparison::Interactive(_)
        ) {
            return Some(Answerer::Empty);
        }
        if let Some(s) = &case.solution {
            return Some(Answerer::Program(s));
        }
        if !case.default_solution {
            return None;
        }
        match self.problem.puzzle {
            Some(p) => Some(Answerer::Solver(p)),
            None => self.default_solution.map(Answerer::Program),
        }
    }

    /// A validator that could not be built or run.
    pub(super) fn unrun(&self, validator: &str, why: &str) {
        self.unrun
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(validator.to_string())
            .or_insert_with(|| why.to_string());
    }

    /// The key of a case: everything that makes it.
    pub(super) fn case_key(&self, case: &GenCase) -> String {
        let mut hash = Sha256::new();
        let mut part = |bytes: &[u8]| {
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        };
        match &case.source {
            CaseSource::Generate { program, args, .. } => {
                let source = match self.plan.generators.get(program) {
                    Some(files) => files.clone(),
                    None => vec![program.clone()],
                };
                for f in source {
                    self.files_of(&self.plan.root.join(f), &mut part);
                }
                for a in args {
                    part(a.as_bytes());
                }
            }
            CaseSource::Builtin { builtin, seed, .. } => {
                part(b"judge");
                part(crate::exec::identity::JUDGE_BUILD.as_bytes());
                part(format!("{:?}", builtin.spec(*seed)).as_bytes());
                part(builtin.puzzle.as_bytes());
            }
            CaseSource::Copy(p) => {
                for ext in DATA_EXTENSIONS {
                    part(ext.as_bytes());
                    part(
                        &self
                            .confine
                            .read(&with_ext(&self.plan.root.join(p), ext))
                            .unwrap_or_default(),
                    );
                }
            }
            CaseSource::Inline => part(b"inline"),
            CaseSource::Manual => self.manual_key(case, &mut part),
        }
        for (ext, text) in &case.inline {
            part(ext.as_bytes());
            part(text.as_bytes());
        }
        for (ext, target) in &case.links {
            part(b"link");
            part(ext.as_bytes());
            part(target.as_bytes());
        }
        match self.answerer(case) {
            Some(Answerer::Program(s)) => self.files_of(&self.plan.root.join(s), &mut part),
            Some(Answerer::Solver(p)) => part(p.name().as_bytes()),
            Some(Answerer::Empty) => part(b"empty"),
            None => {}
        }
        self.validators_key(&mut part);
        crate::exec::identity::hex(&hash.finalize())
    }

    /// The validators' files, in a key.
    pub(super) fn validators_key(&self, part: &mut dyn FnMut(&[u8])) {
        for v in self
            .problem
            .validators
            .iter()
            .chain(&self.problem.answer_validators)
        {
            self.files_of(&self.plan.root.join(&v.tool.display), part);
        }
        if let Some(p) = self.problem.puzzle {
            part(p.name().as_bytes());
        }
    }

    /// The files under `path` (names relative to the package and bytes),
    /// hashed once per run however many cases use them.
    fn files_of(&self, path: &Path, part: &mut dyn FnMut(&[u8])) {
        let known = self
            .digests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .cloned();
        let digest = known.unwrap_or_else(|| {
            let mut hash = Sha256::new();
            // Files out of the package are not read (a program there is
            // refused when it is built).
            let inside = self.confine.check(path).is_ok();
            for entry in walkdir::WalkDir::new(path)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|_| inside)
                .flatten()
            {
                if entry.file_type().is_file() {
                    // Names relative to the package: a copied package
                    // keeps its keys.
                    let rel = entry
                        .path()
                        .strip_prefix(&self.plan.root)
                        .unwrap_or(entry.path());
                    for bytes in [
                        rel.as_os_str().as_encoded_bytes(),
                        &crate::exec::bounded_read::read_package_file(
                            entry.path(),
                            crate::exec::bounded_read::PACKAGE_FILE_CAP,
                        )
                        .unwrap_or_default(),
                    ] {
                        hash.update((bytes.len() as u64).to_le_bytes());
                        hash.update(bytes);
                    }
                }
            }
            let digest = hash.finalize().to_vec();
            self.digests
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path.to_path_buf(), digest.clone());
            digest
        });
        part(&digest);
    }

    /// Make one case (or find it unchanged).
    pub(super) fn make(&self, case: &GenCase) -> Made {
        let start = Instant::now();
        let key = self.case_key(case);
        let kind = match &case.source {
            CaseSource::Generate { .. } => "generate",
            CaseSource::Builtin { .. } => "judge",
            CaseSource::Copy(_) => "copy",
            CaseSource::Inline => "inline",
            CaseSource::Manual => "manual",
        };
        let mut made = Made {
            path: case.path.clone(),
            kind,
            command: case.source.command().map(str::to_string),
            seed: case.source.seed(),
            from: None,
            key,
            files: Ok(BTreeMap::new()),
            cached: false,
            validation: "not run",
            time: Duration::ZERO,
        };
        if self.manifest.unchanged(self.data, &case.path, &made.key) && !self.check_deterministic {
            made.cached = true;
            made.time = start.elapsed();
            return made;
        }
        let slot = rayon::current_thread_index().unwrap_or(0);
        made.files = match self.produce(case, slot) {
            Ok(files) => {
                let (validation, files) = validate(self, &case.path, files, slot);
                made.validation = validation;
                files
            }
            Err(e) => Err(e),
        };
        made.time = start.elapsed();
        made
    }

    /// A case's files: from its generator, copy or inline text, then the
    /// answer when nothing gave one.
    fn produce(&self, case: &GenCase, slot: usize) -> Result<BTreeMap<String, Vec<u8>>, CaseError> {
        let mut files = match &case.source {
            CaseSource::Generate { .. } => self.generated(case, slot)?,
            CaseSource::Builtin {
                builtin,
                seed,
                command,
            } => {
                let puzzle = crate::puzzles::find(builtin.puzzle)
                    .ok_or_else(|| format!("{command}: no puzzle {}", builtin.puzzle))?;
                let cases = puzzle
                    .generate(&builtin.spec(*seed))
                    .map_err(|e| format!("`{command}`: {e}"))?;
                let (input, answer) = puzzle.assemble(&cases);
                BTreeMap::from([("in".to_string(), input), ("ans".to_string(), answer)])
            }
            CaseSource::Copy(p) => {
                let base = self.plan.root.join(p);
                // Each file of the copy must be a regular file inside the
                // package: `copy: x` where `x.in` links to /etc/shadow is
                // refused, not read.
                let mut files = BTreeMap::new();
                for ext in DATA_EXTENSIONS {
                    let file = with_ext(&base, ext);
                    if std::fs::symlink_metadata(&file).is_err() {
                        continue;
                    }
                    let bytes = self.confine.read(&file).map_err(|e| format!("copy: {e}"))?;
                    files.insert(ext.to_string(), bytes);
                }
                if !files.contains_key("in") {
                    return Err(CaseError::Making(format!(
                        "copy: {}.in does not exist",
                        crate::text::whitespace::shown_path(&base)
                    )));
                }
                files
            }
            CaseSource::Inline => BTreeMap::new(),
            CaseSource::Manual => self.manual_files(case)?,
        };
        for (ext, text) in &case.inline {
            files.insert(ext.clone(), text.clone().into_bytes());
        }
        let top = case.path.components().next();
        let no_answer = top.is_some_and(|t| {
            let t = t.as_os_str().to_string_lossy();
            INVALID_DIRECTORIES.contains(&t.as_ref()) || t == "valid_output"
        });
        // A sample given only by its statement and download files has no
        // input to answer (BAPCtools runs no solution then).
        if !files.contains_key("ans")
            && !no_answer
            && files.contains_key("in")
            && let Some(answer) = self.answer(case, &files, slot)?
        {
            files.insert("ans".to_string(), answer);
        }
        linked(case, &mut files)?;
        Ok(files)
    }

    /// The answer to a case's input when nothing gave one: its solution's
    /// (none when no solution applies).
    fn answer(
        &self,
        case: &GenCase,
        files: &BTreeMap<String, Vec<u8>>,
        slot: usize,
    ) -> Result<Option<Vec<u8>>, String> {
        let input = files.get("in").map(Vec::as_slice).unwrap_or_default();
        let answer = match self.answerer(case) {
            None => return Ok(None),
            Some(Answerer::Empty) => Vec::new(),
            Some(Answerer::Solver(p)) => p
                .solve(input, &SolveOptions::default())
                .map_err(|e| format!("the built-in {} solver: {e}", p.name()))?,
            Some(Answerer::Program(solution)) => {
                let ready = self.ready(solution)?;
                run_solution(&ready, input, self.sandbox, slot)
                    .map_err(|e| format!("solution /{}: {e}", solution.display()))?
            }
        };
        Ok(Some(answer))
    }

    fn ready(&self, program: &Path) -> Result<Ready, String> {
        self.programs
            .get(program)
            .cloned()
            .unwrap_or_else(|| Err(format!("{}: not built", program.display())))
    }

    /// A generator's files. `retries`: a failed run is tried again with
    /// the seed plus one, as BAPCtools does (not after a timeout).
    fn generated(&self, case: &GenCase, slot: usize) -> Result<BTreeMap<String, Vec<u8>>, String> {
        let CaseSource::Generate {
            program,
            seed,
            command,
            template,
            ..
        } = &case.source
        else {
            return Err("not a generator".to_string());
        };
        let ready = self.ready(program)?;
        let mut last = Err((String::new(), false));
        for retry in 0..case.retries.max(1) {
            let seed = (seed.wrapping_add(retry)) & 0x7fff_ffff;
            let mut args = crate::formats::generators::args_with_seed(template, seed);
            // A command's `{{name}}` is the package's constant, as
            // BAPCtools reads generators.yaml.
            if let Some(constants) = &self.problem.constants {
                for a in &mut args {
                    *a = String::from_utf8_lossy(&constants.substitute(a.as_bytes())).into_owned();
                }
            }
            last = run_generator(&ready, &args, self.sandbox, slot);
            if let (Ok(made), true) = (&last, self.check_deterministic) {
                let again = run_generator(&ready, &args, self.sandbox, slot)
                    .map_err(|(e, _)| format!("generator `{command}` (second run): {e}"))?;
                if again.get("in") != made.get("in") {
                    return Err(format!(
                        "generator `{command}` is not deterministic: two runs with seed {seed} made different inputs"
                    ));
                }
            }
            match &last {
                Ok(_) | Err((_, true)) => break,
                Err(_) => {}
            }
        }
        last.map_err(|(e, _)| format!("generator `{command}`: {e}"))
    }
}

/// The files a case gives as another of its files (`in.download: {link:
/// in.statement}`): that file's bytes. BAPCtools makes each a relative
/// symbolic link; the judge writes the same bytes as a file of its own (a
/// package's data stays plain files).
fn linked(case: &GenCase, files: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    for (ext, target) in &case.links {
        let bytes = files
            .get(target)
            .cloned()
            .ok_or_else(|| format!("{ext}: link to {target}: the case has no .{target} file"))?;
        files.insert(ext.clone(), bytes);
    }
    Ok(())
}

/// `base.EXT` (the extension may have dots: `in.statement`).
pub(super) fn with_ext(base: &Path, ext: &str) -> PathBuf {
    let mut name = base.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

fn tool_limits() -> Limits {
    Limits {
        time: GENERATOR_TIME,
        wall: GENERATOR_TIME * 2,
        memory: None,
        stack: None,
        output: 1 << 30,
        past_output: crate::exec::PastOutput::Kill,
        file_size: 1 << 30,
        processes: 64,
        writable_workdir: true,
    }
}

/// Run a generator in a fresh working directory: `testcase.in` (or, when
/// it wrote none, its standard output) is the input; the other
/// `testcase.EXT` of the known data extensions it wrote are kept. An error
/// says whether a limit ended it (no retry then).
fn run_generator(
    ready: &Ready,
    args: &[String],
    sandbox: &Sandbox,
    slot: usize,
) -> Result<BTreeMap<String, Vec<u8>>, (String, bool)> {
    let dir = scratch(sandbox).map_err(|e| (e.to_string(), false))?;
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
            files: None,
            companions: &[],
            output_file: None,
        },
    )
    .map_err(|e| (e.to_string(), false))?;
    if outcome.limit_hit.is_some() || outcome.exit != Exit::Code(0) {
        return Err((
            format!(
                "ended with {}{}",
                outcome
                    .limit_hit
                    .map_or_else(|| outcome.exit.describe(), |h| format!("{h:?} limit hit")),
                crate::check::external::telling_line(&outcome.stderr_tail)
                    .map(|l| format!(": {l}"))
                    .unwrap_or_default()
            ),
            outcome.limit_hit.is_some(),
        ));
    }
    let mut files = BTreeMap::new();
    for ext in DATA_EXTENSIONS {
        let path = with_ext(&dir.path().join("testcase"), ext);
        // What the generator left is read as it is: never through a
        // symbolic link (a `testcase.ans` linked to a secret would copy it
        // into the package), and only a regular file.
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => {
                files.insert(
                    ext.to_string(),
                    super::confine::read_no_follow(&path).map_err(|e| (e.to_string(), false))?,
                );
            }
            Ok(_) => {
                return Err((
                    format!(
                        "testcase.{ext} is not a regular file (a link, a directory or a device): refused"
                    ),
                    false,
                ));
            }
            Err(_) => {}
        }
    }
    if !files.contains_key("in") {
        if outcome.stdout.is_empty() {
            return Err((
                "wrote no testcase.in and nothing on standard output".to_string(),
                false,
            ));
        }
        let bytes = outcome
            .stdout
            .into_bytes()
            .map_err(|e| (format!("cannot read its standard output back: {e}"), false))?;
        files.insert("in".to_string(), bytes);
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
    let dir = scratch(sandbox).map_err(|e| e.to_string())?;
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
            given: Given::default(),
        })
        .map_err(|e| e.to_string())?;
    if outcome.limit_hit.is_some() || outcome.exit != Exit::Code(0) {
        return Err(format!("ended with {}", outcome.exit.describe()));
    }
    outcome
        .stdout
        .into_bytes()
        .map_err(|e| format!("cannot read its standard output back: {e}"))
}
