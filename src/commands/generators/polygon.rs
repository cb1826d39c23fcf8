//! `judge gen PACKAGE` for a Polygon package: each generated test's input
//! made by running its `cmd` (the first word names an executable of
//! `<files><executables>`, built from its source; the rest are its
//! arguments, from which a testlib generator takes its random seed). The
//! commands are problem.xml's `cmd` attributes or its testset's script
//! (`crate::formats::polygon::script`).
//!
//! - A test with `from-file` is one of the files a generator writes in one
//!   run: each distinct such command runs once, in an empty working
//!   directory of its own, and each of its tests takes its file from
//!   there (a file it did not write is a failure naming that test). Other
//!   tests are the command's standard output.
//! - A full package (the test's input is in `tests/`): the generated input
//!   is compared with it, and a difference is reported (the command
//!   fails): the package's tests are not what its generators make.
//! - A standard package (the input is missing): the input is written where
//!   the input path pattern says, and its answer by the `main` solution
//!   (run as the setter's program, like the generators), as Polygon's
//!   `doall` scripts do. Manual tests must be in the package; any test
//!   without an answer (a standard package holds its manual tests' inputs
//!   only) gets the main solution's, run with problem.xml's
//!   `input-file`/`output-file` in its working directory when it names
//!   them. An interactive problem's missing answers are named, not made.
//! - A generator that fails on a test is that test's failure (named, exit
//!   1); the other tests are still made.
//!
//! A `doall.sh`/`doall.bat` script is a package program and is not run
//! (named): the commands in problem.xml make the same tests.

use super::super::{Failure, Outcome};
use crate::check::tool::{Tool, ToolContext, tool_limits};
use crate::exec::beneath::Beneath;
use crate::exec::process::{Launch, Trust, launch};
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::exec::{Exit, Limits, RunOutcome};
use crate::formats::polygon::read::{Description, Method, format_pattern};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one generator or the main solution may run.
const GEN_TIME: Duration = Duration::from_secs(60);
/// The largest test a generator may print.
const GEN_OUTPUT: u64 = 1 << 30;

fn limits() -> Limits {
    Limits {
        output: GEN_OUTPUT,
        file_size: GEN_OUTPUT,
        ..tool_limits(GEN_TIME)
    }
}

/// `judge gen POLYGON_PACKAGE`.
pub fn generate_polygon(root: &Path) -> Outcome {
    let (desc, warnings) = crate::formats::polygon::describe(root).map_err(Failure::Usage)?;
    for w in &warnings {
        crate::commands::stdout::note!("warning: {w}");
    }
    // What cannot be generated is `judge gen`'s error (judging warns).
    if let Some(e) = &desc.testset.script_error {
        return Err(Failure::Usage(e.clone()));
    }
    let all_known = desc
        .testset
        .tests
        .iter()
        .all(|t| t.method == Method::Manual || t.cmd.is_some());
    for script in ["doall.sh", "doall.bat"] {
        if root.join(script).is_file() {
            crate::commands::stdout::note!(
                "note: {}: not run (a package program); {}",
                root.join(script).display(),
                if all_known {
                    "the tests are made from the commands problem.xml gives them (cmd attributes, <script>)"
                } else {
                    "some generated tests have no command in problem.xml: only this script makes them"
                }
            );
        }
    }
    let sandbox =
        Sandbox::new(SandboxOptions::default()).map_err(|e| Failure::Internal(e.to_string()))?;
    let context = ToolContext {
        sandbox: &sandbox,
        slot: 0,
    };
    // Every test and answer is written beneath the package's root, never
    // through a link (a dangling `tests/01.a -> /etc/cron.d/x` is refused).
    let package = Beneath::new(root).map_err(|e| Failure::Usage(e.to_string()))?;
    let executables = executables(root, &desc)?;
    let main = main_solution(root, &desc);
    let set = &desc.testset;
    let (mut same, mut written, mut differ) = (0, 0, Vec::new());
    // Answers made for tests whose input was already in the package.
    let mut answered = 0;
    let mut failed = Vec::new();
    // Each multi-test command's one run: its working directory (or why it
    // failed), kept until every test has taken its file.
    let mut runs: HashMap<String, tempfile::TempDir> = HashMap::new();
    for test in &set.tests {
        let input =
            root.join(format_pattern(&set.input_pattern, test.index).map_err(Failure::Usage)?);
        let answer =
            root.join(format_pattern(&set.answer_pattern, test.index).map_err(Failure::Usage)?);
        let (Method::Generated, Some(cmd)) = (test.method, &test.cmd) else {
            if test.method == Method::Generated && !input.is_file() {
                failed.push(format!(
                    "test {}: generated, but problem.xml gives it no cmd and no <script> line makes it; {} is not in the package (doall.sh/doall.bat, a package program, is not run)",
                    test.index,
                    input.display()
                ));
                continue;
            }
            if !input.is_file() {
                return Err(Failure::Usage(format!(
                    "test {}: a manual test, and {} is not in the package",
                    test.index,
                    input.display()
                )));
            }
            // A standard package holds its manual tests' inputs only:
            // their answers are the main solution's, as doall makes them.
            answered += make_answer(
                context,
                &package,
                main.as_ref(),
                &input,
                &answer,
                test.index,
            )?;
            continue;
        };
        // A generator that fails on one test is that test's failure: the
        // others are still made (a usage error, Ctrl-C, stops them all).
        let per_test = |e: Failure, failed: &mut Vec<String>| match e {
            Failure::Usage(m) => {
                failed.push(m);
                Ok(())
            }
            other => Err(other),
        };
        let made = match &test.from_file {
            None => match run_cmd(context, &executables, cmd, test.index) {
                Ok(made) => made,
                Err(e) => {
                    per_test(e, &mut failed)?;
                    continue;
                }
            },
            Some(file) => {
                if !runs.contains_key(cmd) {
                    match run_in_dir(context, &executables, cmd, test.index) {
                        Ok(dir) => {
                            runs.insert(cmd.clone(), dir);
                        }
                        Err(e) => {
                            per_test(e, &mut failed)?;
                            continue;
                        }
                    }
                }
                let dir = runs.get(cmd).map(|d| d.path().join(file));
                match dir.map(|path| output_file(&path)) {
                    Some(Ok(bytes)) => bytes,
                    Some(Err(why)) => {
                        failed.push(format!(
                            "test {} (`{cmd}`, from-file {file}): {why}",
                            test.index
                        ));
                        continue;
                    }
                    None => continue,
                }
            }
        };
        if input.is_file() {
            let have = package
                .read(&input, super::confine::FILE_CAP)
                .map_err(|e| Failure::Usage(format!("cannot read: {e}")))?
                .bytes;
            if have == made {
                same += 1;
                answered += make_answer(
                    context,
                    &package,
                    main.as_ref(),
                    &input,
                    &answer,
                    test.index,
                )?;
            } else {
                differ.push(format!(
                    "test {} (`{cmd}`): the generated input differs from {} ({})",
                    test.index,
                    input.display(),
                    first_difference(&have, &made)
                ));
            }
            continue;
        }
        write(&package, &input, &made)?;
        written += 1;
        make_answer(
            context,
            &package,
            main.as_ref(),
            &input,
            &answer,
            test.index,
        )?;
    }
    for d in differ.iter().chain(&failed) {
        crate::commands::stdout::note!("{d}");
    }
    crate::commands::stdout::outln!(
        "{}: {} generated tests: {written} written, {same} the same as the package's, {} different, {} not made; {answered} answers made for the package's own inputs",
        root.display(),
        written + same + differ.len() + failed.len(),
        differ.len(),
        failed.len()
    );
    Ok(if differ.is_empty() && failed.is_empty() {
        crate::verdict::ExitCode::Ok
    } else {
        crate::verdict::ExitCode::Failed
    })
}

/// Write a test's answer by the main solution when the package has none
/// (1 when made, 0 when the answer was there). A problem with
/// `input-file`/`output-file` has its main solution read and write those
/// files in its working directory, as the contest system runs it.
fn make_answer(
    context: ToolContext<'_>,
    package: &Beneath,
    main: Option<&(Tool, IoNames)>,
    input: &Path,
    answer: &Path,
    index: usize,
) -> Result<usize, Failure> {
    if answer.is_file() {
        return Ok(0);
    }
    let Some((main, io)) = main else {
        return Err(Failure::Usage(format!(
            "test {index}: no answer ({}), and problem.xml tags no solution main to make one",
            answer.display()
        )));
    };
    if io.interactive {
        crate::commands::stdout::note!(
            "test {index}: no answer ({}); not made: an interactive problem's main solution talks to its interactor, and its output is no answer",
            answer.display()
        );
        return Ok(0);
    }
    let ready = main
        .prepare(context.sandbox)
        .map_err(|e| Failure::Usage(format!("the main solution {}: {e}", main.display)))?;
    let Some((program, argv)) = main.command_line(&ready.argv) else {
        return Err(Failure::Internal(format!(
            "{}: nothing to run",
            main.display
        )));
    };
    let companions: Vec<(PathBuf, PathBuf)> = io
        .input
        .iter()
        .map(|name| (input.to_path_buf(), PathBuf::from(name)))
        .collect();
    let ran = launch(
        context.sandbox,
        &Launch {
            program: Path::new(program),
            args: &argv,
            stdin: Some(input),
            limits: &limits(),
            slot: context.slot,
            trust: Trust::Trusted,
            address_space: true,
            workdir: None,
            files: None,
            companions: &companions,
            output_file: io.output.as_deref(),
        },
    )
    .map_err(|e| Failure::Internal(e.to_string()))?;
    let out = finished(&ran, &format!("the main solution on test {index}"))?;
    write(package, answer, &out)?;
    Ok(1)
}

/// problem.xml's `input-file`/`output-file` (none: the standard streams).
struct IoNames {
    input: Option<String>,
    output: Option<String>,
    /// An interactive problem's main solution talks to the interactor: its
    /// output is no answer, and the judge does not make one.
    interactive: bool,
}

/// The executables by name (`gen` for `files/gen.cpp`).
fn executables(root: &Path, desc: &Description) -> Result<HashMap<String, Tool>, Failure> {
    let mut out = HashMap::new();
    for exe in &desc.executables {
        let path = root.join(&exe.path);
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        out.insert(stem, Tool::from_path(&path, exe.path.clone()));
    }
    Ok(out)
}

fn main_solution(root: &Path, desc: &Description) -> Option<(Tool, IoNames)> {
    let main = desc.solutions.iter().find(|s| s.tag == "main")?;
    let tool = Tool::from_path(&root.join(&main.source.path), main.source.path.clone());
    let io = IoNames {
        input: desc.input_file.clone(),
        output: desc.output_file.clone(),
        interactive: desc.interactor.is_some(),
    };
    Some((tool, io))
}

/// The executable `cmd` names and its arguments.
fn command<'a>(
    executables: &'a HashMap<String, Tool>,
    cmd: &str,
    index: usize,
) -> Result<(&'a Tool, Vec<OsString>), Failure> {
    let words = shlex::split(cmd).filter(|w| !w.is_empty()).ok_or_else(|| {
        Failure::Usage(format!("test {index}: cmd {cmd:?} is not a command line"))
    })?;
    let tool = executables.get(&words[0]).ok_or_else(|| {
        Failure::Usage(format!(
            "test {index}: cmd `{cmd}`: no executable named {} among problem.xml's <executables>",
            words[0]
        ))
    })?;
    Ok((tool, words[1..].iter().map(OsString::from).collect()))
}

/// Run a multi-test generator once in an empty working directory of its
/// own (inside the sandbox's private directory, as a trusted tool, like
/// every generator), which is returned with the files it wrote.
fn run_in_dir(
    context: ToolContext<'_>,
    executables: &HashMap<String, Tool>,
    cmd: &str,
    index: usize,
) -> Result<tempfile::TempDir, Failure> {
    let (tool, args) = command(executables, cmd, index)?;
    let ready = tool
        .prepare(context.sandbox)
        .map_err(|e| Failure::Usage(format!("test {index}: `{cmd}`: {e}")))?;
    let Some((program, mut argv)) = tool.command_line(&ready.argv) else {
        return Err(Failure::Internal(format!(
            "{}: nothing to run",
            tool.display
        )));
    };
    argv.extend(args);
    let dir = super::make::scratch(context.sandbox)
        .map_err(|e| Failure::Internal(format!("cannot make a working directory: {e}")))?;
    let ran = launch(
        context.sandbox,
        &Launch {
            program: Path::new(program),
            args: &argv,
            stdin: None,
            limits: &limits(),
            slot: context.slot,
            trust: Trust::Trusted,
            address_space: true,
            workdir: Some(dir.path()),
            files: None,
            companions: &[],
            output_file: None,
        },
    )
    .map_err(|e| Failure::Internal(e.to_string()))?;
    finished(&ran, &format!("test {index}: `{cmd}`"))?;
    Ok(dir)
}

/// A file a generator wrote: a regular file, read without following a
/// link (a link to a secret would copy it into the package).
fn output_file(path: &Path) -> Result<Vec<u8>, String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => super::confine::read_no_follow(path)
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

fn run_cmd(
    context: ToolContext<'_>,
    executables: &HashMap<String, Tool>,
    cmd: &str,
    index: usize,
) -> Result<Vec<u8>, Failure> {
    let (tool, args) = command(executables, cmd, index)?;
    let ran = tool
        .run(context, &args, None, &limits())
        .map_err(|e| Failure::Internal(e.to_string()))?;
    finished(&ran, &format!("test {index}: `{cmd}`"))
}

fn finished(ran: &RunOutcome, what: &str) -> Result<Vec<u8>, Failure> {
    if ran.exit != Exit::Code(0) || ran.limit_hit.is_some() {
        return Err(Failure::Usage(format!(
            "{what}: did not finish well ({:?}{}): {}",
            ran.exit,
            ran.limit_hit
                .map(|l| format!(", {l:?}"))
                .unwrap_or_default(),
            String::from_utf8_lossy(&ran.stderr_tail).trim()
        )));
    }
    ran.stdout
        .bytes()
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| Failure::Internal(format!("{what}: cannot read its output back: {e}")))
}

/// Write a test or an answer into the package: beneath its root,
/// atomically, never through a link.
fn write(package: &Beneath, path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    package
        .write(path, bytes, 0o644, true)
        .map_err(|e| Failure::Usage(format!("cannot write: {e}")))
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let line = a[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    format!(
        "first at line {line}, byte {at}; {} against {} bytes",
        a.len(),
        b.len()
    )
}
