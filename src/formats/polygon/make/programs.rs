//! The programs that make a Polygon package's tests, whatever the tests
//! are made for (the package, by `judge gen`, or the judge's cache, by
//! `judge verify`/`run`): each generated test's `cmd` (its first word an
//! executable of `<files><executables>`, built from its source, the rest
//! its arguments; a multi-test command run once in an empty working
//! directory of its own, each test its `from-file`), and the `main`
//! solution's answer to a test's input. Every program runs contained and
//! limited: generators as the package's tools (a private working
//! directory, the tool limits), the main solution as a submission runs
//! (the sandbox, the package's memory limit, problem.xml's
//! `input-file`/`output-file`).

use super::{Event, MakeError, Say};
use crate::check::tool::{Tool, ToolContext, tool_limits};
use crate::exec::bounded_read::{Links, read_whole};
use crate::exec::process::{Launch, Trust, launch};
use crate::exec::runner::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use crate::exec::{Exit, Given, IoFiles, Limits, RunOutcome, RunRequest, Runner};
use crate::formats::polygon::read::Description;
use crate::submission::{BuildError, Built, Source, Toolchain};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How long one generator may run.
const GEN_TIME: Duration = Duration::from_secs(60);
/// The largest test a generator (or the main solution) may print.
pub(super) const GEN_OUTPUT: u64 = 1 << 30;
/// The main solution's time, as a multiple of the package's time limit:
/// its answer is made, not judged (verify judges it at the limit).
const MAIN_TIME_FACTOR: u32 = 10;

fn gen_limits() -> Limits {
    Limits {
        output: GEN_OUTPUT,
        file_size: GEN_OUTPUT,
        ..tool_limits(GEN_TIME)
    }
}

/// The package's generators and main solution, built when first needed.
pub(super) struct Makers<'a> {
    pub(super) context: ToolContext<'a>,
    sandbox: &'a Arc<Sandbox>,
    executables: HashMap<String, Tool>,
    /// Each multi-test command's one run: its working directory (or why it
    /// failed), kept until every test has taken its file.
    runs: HashMap<String, Result<tempfile::TempDir, String>>,
    main: Option<MainSolution>,
    toolchain: &'a Toolchain,
    built_main: OnceLock<Result<ProcessRunner, String>>,
}

/// The `main` solution as problem.xml names it.
pub(super) struct MainSolution {
    /// As problem.xml writes it (`solutions/main.cpp`).
    pub(super) shown: String,
    pub(super) source: Result<Source, String>,
    pub(super) io: IoFiles,
    pub(super) interactive: bool,
    pub(super) limits: Limits,
}

impl<'a> Makers<'a> {
    /// The makers of the package at `root`, building with `toolchain`;
    /// what a user should know of the main solution (its language) goes
    /// to `say`.
    pub(super) fn new(
        root: &Path,
        desc: &Description,
        sandbox: &'a Arc<Sandbox>,
        toolchain: &'a Toolchain,
        say: Say<'_>,
    ) -> Makers<'a> {
        Makers {
            context: ToolContext { sandbox, slot: 0 },
            sandbox,
            executables: executables(root, desc),
            runs: HashMap::new(),
            main: main_solution(root, desc, toolchain, say),
            toolchain,
            built_main: OnceLock::new(),
        }
    }

    pub(super) fn main(&self) -> Option<&MainSolution> {
        self.main.as_ref()
    }

    /// The input `cmd` makes for test `index` (its `from_file` of a
    /// multi-test run, or its standard output). `MakeError::Package` is that
    /// test's failure, named with the test and the command.
    pub(super) fn input(
        &mut self,
        cmd: &str,
        from_file: Option<&str>,
        index: usize,
    ) -> Result<Vec<u8>, MakeError> {
        let Some(file) = from_file else {
            return self.run_cmd(cmd, index);
        };
        if !self.runs.contains_key(cmd) {
            let dir = match self.run_in_dir(cmd, index) {
                Ok(dir) => Ok(dir),
                Err(MakeError::Package(m)) => Err(m),
                Err(other) => return Err(other),
            };
            self.runs.insert(cmd.to_string(), dir);
        }
        match self.runs.get(cmd) {
            Some(Ok(dir)) => output_file(&dir.path().join(file)).map_err(|why| {
                MakeError::Package(format!("test {index} (`{cmd}`, from-file {file}): {why}"))
            }),
            Some(Err(why)) => Err(MakeError::Package(format!(
                "test {index} (`{cmd}`, from-file {file}): its command failed: {why}"
            ))),
            None => Err(MakeError::Judge(format!("test {index}: `{cmd}` not run"))),
        }
    }

    /// The main solution's answer to the input at `input` (test `index`).
    pub(super) fn answer(&self, input: &Path, index: usize) -> Result<Vec<u8>, MakeError> {
        let Some(main) = &self.main else {
            return Err(MakeError::Package(super::no_main_solution(index, false)));
        };
        let runner = self
            .built_main
            .get_or_init(|| build_main(main, self.sandbox, self.toolchain))
            .as_ref()
            .map_err(|e| MakeError::Package(format!("the main solution {}: {e}", main.shown)))?;
        let ran = runner
            .run(&RunRequest {
                input,
                limits: &main.limits,
                slot: self.context.slot,
                given: Given {
                    files: None,
                    args: &[],
                    io: &main.io,
                },
            })
            .map_err(|e| MakeError::Judge(e.to_string()))?;
        finished(
            &ran,
            &format!("the main solution {} on test {index}", main.shown),
        )
    }

    fn run_cmd(&self, cmd: &str, index: usize) -> Result<Vec<u8>, MakeError> {
        let (tool, args) = command(&self.executables, cmd, index)?;
        tool.prepare(self.context.sandbox)
            .map_err(|e| MakeError::Package(format!("test {index}: `{cmd}`: {e}")))?;
        let ran = tool
            .run(self.context, &args, None, &gen_limits())
            .map_err(|e| MakeError::Judge(e.to_string()))?;
        finished(&ran, &format!("test {index}: `{cmd}`"))
    }

    /// Run a multi-test generator once in an empty working directory of
    /// its own (inside the sandbox's private directory, as a trusted tool,
    /// like every generator), which is returned with the files it wrote.
    fn run_in_dir(&self, cmd: &str, index: usize) -> Result<tempfile::TempDir, MakeError> {
        let (tool, args) = command(&self.executables, cmd, index)?;
        let context = self.context;
        let ready = tool
            .prepare(context.sandbox)
            .map_err(|e| MakeError::Package(format!("test {index}: `{cmd}`: {e}")))?;
        let Some((program, mut argv)) = tool.command_line(&ready.argv) else {
            return Err(MakeError::Judge(format!(
                "{}: nothing to run",
                tool.display
            )));
        };
        argv.extend(args);
        let dir = tempfile::Builder::new()
            .prefix("gen-")
            .tempdir_in(context.sandbox.private_dir())
            .map_err(|e| MakeError::Judge(format!("cannot make a working directory: {e}")))?;
        let ran = launch(
            context.sandbox,
            &Launch {
                program: Path::new(program),
                args: &argv,
                stdin: None,
                limits: &gen_limits(),
                slot: context.slot,
                trust: Trust::Trusted,
                address_space: ready.address_space,
                workdir: Some(dir.path()),
                files: None,
                companions: &[],
                output_file: None,
            },
        )
        .map_err(|e| MakeError::Judge(e.to_string()))?;
        finished(&ran, &format!("test {index}: `{cmd}`"))?;
        Ok(dir)
    }
}

/// The executables by name (`gen` for `files/gen.cpp`).
fn executables(root: &Path, desc: &Description) -> HashMap<String, Tool> {
    let mut out = HashMap::new();
    for exe in &desc.executables {
        let path = root.join(&exe.path);
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        out.insert(stem, Tool::from_path(&path, exe.path.clone()));
    }
    out
}

/// The source of the executable `cmd`'s first word names (for the key of
/// what it makes), or `None` when it names none.
pub(super) fn executable_source(root: &Path, desc: &Description, cmd: &str) -> Option<PathBuf> {
    let first = shlex::split(cmd)?.into_iter().find(|w| !w.is_empty())?;
    desc.executables.iter().find_map(|exe| {
        let path = root.join(&exe.path);
        (path.file_stem()?.to_string_lossy() == first.as_str()).then_some(path)
    })
}

fn main_solution(
    root: &Path,
    desc: &Description,
    toolchain: &Toolchain,
    say: Say<'_>,
) -> Option<MainSolution> {
    let main = desc.solutions.iter().find(|s| s.tag == "main")?;
    let path = root.join(&main.source.path);
    let (name, note) = crate::formats::polygon::solution_language(main.source.kind.as_deref());
    if let Some(note) = note {
        say(Event::Note(&format!(
            "note: the main solution {}: {note}",
            main.source.path
        )));
    }
    let language = match name {
        Some(name) => toolchain.language_named(name).ok(),
        None => toolchain.language_of(&path),
    };
    let source = language
        .map(|l| Source::file(&path, l.clone()))
        .ok_or_else(|| "no language of the judge's builds this file".to_string());
    let set = &desc.testset;
    let time = set.time_limit.saturating_mul(MAIN_TIME_FACTOR);
    Some(MainSolution {
        shown: main.source.path.clone(),
        source,
        io: IoFiles {
            input: desc.input_file.clone(),
            output: desc.output_file.clone(),
        },
        interactive: desc.interactor.is_some(),
        limits: Limits {
            time,
            wall: time.saturating_mul(2),
            memory: Some(set.memory),
            stack: Some(set.memory),
            output: GEN_OUTPUT,
            file_size: GEN_OUTPUT,
            ..tool_limits(time)
        },
    })
}

/// Build the main solution as a submission is built (in the sandbox,
/// cached), into a runner that runs it as a submission runs.
fn build_main(
    main: &MainSolution,
    sandbox: &Arc<Sandbox>,
    toolchain: &Toolchain,
) -> Result<ProcessRunner, String> {
    let source = main.source.as_ref().map_err(Clone::clone)?;
    let exe = match toolchain.build(source, sandbox, 0) {
        Ok(Built::Ready(exe)) => exe,
        Ok(Built::CompileError(e)) => return Err(format!("does not compile: {}", e.message)),
        Err(BuildError::Interrupted) => return Err("interrupted".to_string()),
        Err(e) => return Err(e.to_string()),
    };
    exe.runner(sandbox, &source.path).map_err(|e| e.to_string())
}

/// The executable `cmd` names and its arguments.
fn command<'a>(
    executables: &'a HashMap<String, Tool>,
    cmd: &str,
    index: usize,
) -> Result<(&'a Tool, Vec<OsString>), MakeError> {
    let words: Vec<String> = shlex::split(cmd)
        .unwrap_or_default()
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect();
    let Some((first, rest)) = words.split_first() else {
        return Err(MakeError::Package(format!(
            "test {index}: cmd {cmd:?} is not a command line"
        )));
    };
    let tool = executables
        .get(first)
        .ok_or_else(|| MakeError::Package(super::no_executable(index, cmd, first)))?;
    Ok((tool, rest.iter().map(OsString::from).collect()))
}

/// A file a generator wrote: a regular file, read without following a
/// link (a link to a secret would copy it into the package).
fn output_file(path: &Path) -> Result<Vec<u8>, String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => read_whole(path, GEN_OUTPUT, Links::Refuse)
            .map_err(|e| format!("{}: cannot read: {e}", path.display())),
        Ok(_) => Err(format!(
            "the generator's file {} is not a regular file (a link, a directory or a device): refused",
            file_name(path)
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "the generator wrote no file {} in its working directory",
            file_name(path)
        )),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn finished(ran: &RunOutcome, what: &str) -> Result<Vec<u8>, MakeError> {
    if ran.exit != Exit::Code(0) || ran.limit_hit.is_some() {
        return Err(MakeError::Package(format!(
            "{what}: did not finish well ({}{}){}",
            ran.exit.describe(),
            ran.limit_hit
                .map(|l| format!(", {l:?} limit hit"))
                .unwrap_or_default(),
            match String::from_utf8_lossy(&ran.stderr_tail).trim() {
                "" => String::new(),
                said => format!(": {said}"),
            }
        )));
    }
    ran.stdout
        .bytes()
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| MakeError::Judge(format!("{what}: cannot read its output back: {e}")))
}

pub(super) fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let line = a.iter().take(at).filter(|&&c| c == b'\n').count() + 1;
    format!(
        "first at line {line}, byte {at}; {} against {} bytes",
        a.len(),
        b.len()
    )
}
