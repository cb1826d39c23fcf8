//! External checkers and input validators: programs of the problem setter,
//! run by the judge under limits of their own.
//!
//! A checker speaks one of two protocols, chosen in the configuration:
//!
//! - **testlib**: `checker INPUT OUTPUT ANSWER`, standard input /dev/null;
//!   exit 0 AC, 1 WA, 2 PE, 3 the checker failed (IE); testlib's older
//!   "dirt" code 4 and its optional "unexpected end of file" code 8 are PE,
//!   as testlib itself reports them. The message is the first non-empty
//!   line of standard error (where testlib writes "wrong answer …"), or of
//!   standard output when standard error is empty. No result file is
//!   passed: testlib writes the same text to standard error.
//! - **kattis**: `validator INPUT ANSWER FEEDBACK_DIR/ [FLAGS…] < OUTPUT`;
//!   exit 42 AC, 43 WA. The message is the first non-empty line of
//!   `judgemessage.txt` in the feedback directory, else of
//!   `teammessage.txt`, else of standard error.
//!
//! Anything else — a crash, a signal, a time-out, a memory or output limit,
//! an exit code the protocol does not define, testlib's "fail" — is IE,
//! never WA: the submission is not blamed for the judge's tools.
//!
//! Input validators get the input on standard input. testlib: exit 0 means
//! valid, any other exit code invalid (testlib validators fail with 3).
//! Kattis: 42 valid, 43 invalid, anything else a broken validator.
//!
//! Tools are trusted ([`Trust::Trusted`]): they keep the judge's
//! environment and read the case files in place, but run in a private
//! working directory under a time limit (default 10 s, wall clock and CPU),
//! 4 GiB of memory and 8 MiB of output, and are killed with everything
//! they started when they end.
//!
//! How a configured program becomes something to execute is
//! [`checker_program`]: a program on PATH, an executable, a script, or a
//! C/C++ source (or a Kattis program directory of them) compiled once per
//! judge process with `cc`/`c++`. It is the one place to re-route to a
//! shared compile cache.

use super::Judgement;
use crate::exec::process::{Launch, Trust, launch, resolve_program};
use crate::exec::sandbox::Sandbox;
use crate::exec::{Exit, LimitHit, Limits, RunError, RunOutcome};
use crate::verdict::Verdict;
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The default time limit of one checker or validator run.
pub const DEFAULT_TOOL_TIME_LIMIT: Duration = Duration::from_secs(10);
/// Address space of a checker or validator run.
pub const TOOL_MEMORY: u64 = 4 << 30;
/// Standard output a checker or validator may print.
pub const TOOL_OUTPUT: u64 = 8 << 20;
/// How long compiling a checker or validator may take.
pub const COMPILE_TIME_LIMIT: Duration = Duration::from_secs(120);

/// How a checker or validator talks to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// testlib: `checker IN OUT ANS`, exit 0/1/2/3; validators exit 0 when valid.
    #[default]
    Testlib,
    /// Kattis: `validator IN ANS FEEDBACK_DIR < OUT`, exit 42/43.
    Kattis,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Testlib => "testlib",
            Protocol::Kattis => "kattis",
        }
    }
}

/// What a tool is made from, as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file (a program, a script or a source file) or a Kattis program
    /// directory.
    Path(PathBuf),
    /// A program looked up on PATH (`python3`, `diff`).
    Name(String),
}

/// A program of the problem setter: what it is made from, the arguments
/// that come before the protocol's, and, once prepared, what to execute.
#[derive(Clone)]
pub struct Tool {
    pub source: Source,
    /// Arguments before the protocol's own (a script for an interpreter).
    pub args: Vec<String>,
    /// How to name it in messages (as configured).
    pub display: String,
    ready: Arc<OnceLock<Result<Ready, String>>>,
}

impl PartialEq for Tool {
    fn eq(&self, other: &Tool) -> bool {
        self.source == other.source && self.args == other.args
    }
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("source", &self.source)
            .field("args", &self.args)
            .finish()
    }
}

/// A prepared tool: the argument vector to execute (the program first, as
/// an absolute path), and what must live as long as it (a compiled binary's
/// directory).
#[derive(Debug)]
pub struct Ready {
    pub argv: Vec<OsString>,
    _keep: Option<Arc<tempfile::TempDir>>,
}

impl Tool {
    /// A tool from a command line in judge.toml (split like a shell, no
    /// shell). The first word is a file when it contains a `/` or names a
    /// file or directory beside judge.toml (`checker.cpp`), resolved against
    /// `base`; otherwise a program on PATH. Later words that name files
    /// beside judge.toml (`python3 check.py`) are made absolute too, since
    /// the tool runs in a private working directory.
    pub fn from_command(command: &str, base: &Path) -> Result<Tool, String> {
        let words = shlex::split(command)
            .ok_or_else(|| format!("{command:?} is not a command line (unbalanced quotes?)"))?;
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| "the command is empty".to_string())?;
        let beside = base.join(first);
        let source = if first.contains('/') || beside.exists() {
            Source::Path(std::path::absolute(&beside).unwrap_or(beside))
        } else {
            Source::Name(first.clone())
        };
        let args = rest
            .iter()
            .map(|word| {
                let path = base.join(word);
                if !word.starts_with('-') && !word.is_empty() && path.exists() {
                    std::path::absolute(&path)
                        .unwrap_or(path)
                        .to_string_lossy()
                        .into_owned()
                } else {
                    word.clone()
                }
            })
            .collect();
        Ok(Tool {
            source,
            args,
            display: command.to_string(),
            ready: Arc::default(),
        })
    }

    /// A tool that is a file or a program directory (a Kattis package's
    /// validators); `display` names it in messages.
    pub fn from_path(path: &Path, display: String) -> Tool {
        Tool {
            source: Source::Path(std::path::absolute(path).unwrap_or(path.to_path_buf())),
            args: Vec::new(),
            display,
            ready: Arc::default(),
        }
    }

    /// Prepare the tool once (compile it, if it is a source): later calls
    /// return the same result. Call it before judging, so that a broken tool
    /// is one error instead of an IE on every case.
    pub fn prepare(&self, sandbox: &Sandbox) -> Result<&Ready, String> {
        self.ready
            .get_or_init(|| checker_program(&self.source, sandbox))
            .as_ref()
            .map_err(|e| format!("{}: {e}", self.display))
    }

    /// Run the prepared tool once with the protocol's arguments.
    fn run(
        &self,
        context: ToolContext<'_>,
        protocol_args: &[OsString],
        stdin: Option<&Path>,
        limits: &Limits,
    ) -> Result<RunOutcome, RunError> {
        let ready = self.prepare(context.sandbox).map_err(RunError::Internal)?;
        let (program, before) = ready
            .argv
            .split_first()
            .ok_or_else(|| RunError::Internal(format!("{}: nothing to run", self.display)))?;
        let mut args: Vec<OsString> = before.to_vec();
        args.extend(self.args.iter().map(OsString::from));
        args.extend(protocol_args.iter().cloned());
        launch(
            context.sandbox,
            &Launch {
                program: Path::new(program),
                args: &args,
                stdin,
                limits,
                slot: context.slot,
                trust: Trust::Trusted,
            },
        )
    }
}

/// **The compile seam.** Turn a configured program into an argument vector
/// to execute:
///
/// - a name: looked up on PATH;
/// - a `.c` file: `cc -O2 -std=gnu11 -I DIR -o BIN FILE -lm`; a `.cpp`,
///   `.cc`, `.cxx` or `.c++` file: `c++ -O2 -std=gnu++17 -I DIR -o BIN
///   FILE` (DIR is the source's directory, where `testlib.h` usually is);
/// - a `.py` file: `python3 FILE`; a `.sh` file that is not executable:
///   `sh FILE`; any other executable file: itself;
/// - a directory (a Kattis program): all its C++ sources compiled together,
///   else all its C sources, else its one `.py` file, else an executable
///   `run` in it.
///
/// Binaries live in a temporary directory for as long as the tool (one
/// judge process); nothing is cached across runs yet. A shared compile
/// cache can take over by changing this one function.
pub fn checker_program(source: &Source, sandbox: &Sandbox) -> Result<Ready, String> {
    let path = match source {
        Source::Name(name) => {
            return Ok(Ready {
                argv: vec![resolve_program(name)?.into_os_string()],
                _keep: None,
            });
        }
        Source::Path(path) => path,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{} not found", path.display()),
        _ => format!("{}: {e}", path.display()),
    })?;
    if meta.is_dir() {
        return directory_program(path, sandbox);
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match Language::of_extension(ext) {
        Some(language) => compile(language, std::slice::from_ref(path), path, sandbox),
        None if ext == "py" => Ok(Ready {
            argv: vec![
                resolve_program("python3")?.into_os_string(),
                path.clone().into_os_string(),
            ],
            _keep: None,
        }),
        None if is_executable(&meta) => Ok(Ready {
            argv: vec![path.clone().into_os_string()],
            _keep: None,
        }),
        None if ext == "sh" => Ok(Ready {
            argv: vec!["/bin/sh".into(), path.clone().into_os_string()],
            _keep: None,
        }),
        None => Err(format!(
            "{} is not executable (chmod +x it) and not a source the judge can build (.c, .cpp, .py, .sh)",
            path.display()
        )),
    }
}

fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Language {
    C,
    Cpp,
}

impl Language {
    fn of_extension(ext: &str) -> Option<Language> {
        match ext {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" | "C" => Some(Language::Cpp),
            _ => None,
        }
    }
}

/// A Kattis program directory: its sources compiled together, or its one
/// script.
fn directory_program(dir: &Path, sandbox: &Sandbox) -> Result<Ready, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let with = |language: Language| -> Vec<PathBuf> {
        files
            .iter()
            .filter(|p| {
                p.extension()
                    .and_then(|e| e.to_str())
                    .and_then(Language::of_extension)
                    == Some(language)
            })
            .cloned()
            .collect()
    };
    for language in [Language::Cpp, Language::C] {
        let sources = with(language);
        if !sources.is_empty() {
            return compile(language, &sources, dir, sandbox);
        }
    }
    let scripts: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    if let [script] = scripts.as_slice() {
        return checker_program(&Source::Path((*script).clone()), sandbox);
    }
    let run = dir.join("run");
    if run.is_file() {
        return checker_program(&Source::Path(run), sandbox);
    }
    Err(format!(
        "{}: cannot tell how to run this program directory (expected C/C++ sources, one .py file, or an executable `run`)",
        dir.display()
    ))
}

/// Compile sources into a binary in a fresh temporary directory.
fn compile(
    language: Language,
    sources: &[PathBuf],
    what: &Path,
    sandbox: &Sandbox,
) -> Result<Ready, String> {
    let (compiler, std) = match language {
        Language::C => ("cc", "-std=gnu11"),
        Language::Cpp => ("c++", "-std=gnu++17"),
    };
    let compiler_path =
        resolve_program(compiler).map_err(|e| format!("cannot build {}: {e}", what.display()))?;
    let dir = tempfile::Builder::new()
        .prefix("judge-tool-")
        .tempdir()
        .map_err(|e| format!("cannot create a build directory: {e}"))?;
    let binary = dir.path().join("program");
    let include = if what.is_dir() {
        what.to_path_buf()
    } else {
        what.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    let mut args: Vec<OsString> = vec!["-O2".into(), std.into(), "-I".into(), include.into()];
    args.push("-o".into());
    args.push(binary.clone().into());
    args.extend(sources.iter().map(|s| s.clone().into_os_string()));
    if language == Language::C {
        args.push("-lm".into());
    }
    let limits = Limits {
        time: COMPILE_TIME_LIMIT,
        wall: COMPILE_TIME_LIMIT,
        memory: None,
        stack: None,
        output: 1 << 20,
        file_size: 1 << 30,
        processes: 64,
    };
    let outcome = launch(
        sandbox,
        &Launch {
            program: &compiler_path,
            args: &args,
            stdin: None,
            limits: &limits,
            slot: 0,
            trust: Trust::Trusted,
        },
    )
    .map_err(|e| format!("cannot build {}: {e}", what.display()))?;
    if outcome.limit_hit.is_some() || !outcome.exit.success() || !binary.is_file() {
        let why = if matches!(outcome.limit_hit, Some(LimitHit::Wall | LimitHit::Cpu)) {
            format!("timed out after {}s", COMPILE_TIME_LIMIT.as_secs())
        } else {
            outcome.exit.describe()
        };
        let errors = String::from_utf8_lossy(&outcome.stderr_tail);
        return Err(format!(
            "cannot build {}: {compiler} failed ({why}):\n{}",
            what.display(),
            errors.trim_end()
        ));
    }
    Ok(Ready {
        argv: vec![binary.into_os_string()],
        _keep: Some(Arc::new(dir)),
    })
}

/// Where a tool runs: the sandbox of the judge process and the worker slot.
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    pub sandbox: &'a Sandbox,
    pub slot: usize,
}

/// The limits of one checker or validator run.
pub fn tool_limits(time: Duration) -> Limits {
    Limits {
        time,
        wall: time,
        memory: Some(TOOL_MEMORY),
        stack: Some(TOOL_MEMORY),
        output: TOOL_OUTPUT,
        file_size: 64 << 20,
        processes: 64,
    }
}

/// An external checker (`check = "checker"`, or a Kattis package's output
/// validator).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalChecker {
    pub tool: Tool,
    pub protocol: Protocol,
    /// Wall-clock and CPU time for one run.
    pub time_limit: Duration,
    /// Kattis: arguments after the feedback directory (`validator_flags`).
    pub flags: Vec<String>,
}

/// Why a tool run did not give an answer the protocol defines, or `None`
/// when it exited with a code.
fn tool_failure(what: &str, outcome: &RunOutcome, limits: &Limits) -> Option<String> {
    let said = said(&outcome.stderr_tail)
        .map(|s| format!(": {s}"))
        .unwrap_or_default();
    match outcome.limit_hit {
        Some(LimitHit::Wall) | Some(LimitHit::Cpu) => {
            return Some(format!(
                "{what} timed out (limit {:.1}s): killed",
                limits.time.as_secs_f64()
            ));
        }
        Some(LimitHit::Output) => {
            return Some(format!(
                "{what} printed more than {} on standard output: killed",
                crate::config::Size(limits.output)
            ));
        }
        Some(LimitHit::Memory) => {
            return Some(format!("{what} ran out of memory{said}"));
        }
        Some(LimitHit::FileSize) => {
            return Some(format!("{what} wrote a file past the file-size limit"));
        }
        Some(LimitHit::Processes) | None => {}
    }
    match outcome.exit {
        Exit::Signal(_) => Some(format!(
            "{what} crashed: killed by {}{said}",
            outcome.exit.describe()
        )),
        Exit::Code(_) => None,
    }
}

/// The first non-empty line of a tool's text, trimmed and cut to 300
/// characters, with "…" when more lines follow.
pub fn said(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let mut line: String = first.chars().take(300).collect();
    if line.len() < first.len() || lines.next().is_some() {
        line.push_str(" …");
    }
    Some(line)
}

impl ExternalChecker {
    /// Judge `output` of a case. The run itself must have finished normally.
    pub fn check(
        &self,
        context: ToolContext<'_>,
        input: &Path,
        answer: Option<&Path>,
        output: &[u8],
    ) -> Judgement {
        let ie = |message: String| Judgement::new(Verdict::InternalError, message);
        let what = format!("checker {}", self.tool.display);
        let dir = match tempfile::Builder::new().prefix("judge-check-").tempdir() {
            Ok(d) => d,
            Err(e) => return ie(format!("cannot create a directory for the checker: {e}")),
        };
        let output_path = dir.path().join("output");
        let feedback = dir.path().join("feedback");
        if let Err(e) =
            std::fs::write(&output_path, output).and_then(|()| std::fs::create_dir(&feedback))
        {
            return ie(format!("cannot write the output for the checker: {e}"));
        }
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let input = absolute(input);
        let answer = answer.map_or_else(|| PathBuf::from("/dev/null"), absolute);
        let (args, stdin): (Vec<OsString>, Option<&Path>) = match self.protocol {
            Protocol::Testlib => (
                vec![
                    input.into_os_string(),
                    output_path.clone().into_os_string(),
                    answer.into_os_string(),
                ],
                None,
            ),
            Protocol::Kattis => {
                let mut feedback_arg = feedback.clone().into_os_string();
                feedback_arg.push("/");
                let mut args = vec![
                    input.into_os_string(),
                    answer.into_os_string(),
                    feedback_arg,
                ];
                args.extend(self.flags.iter().map(OsString::from));
                (args, Some(output_path.as_path()))
            }
        };
        let limits = tool_limits(self.time_limit);
        let outcome = match self.tool.run(context, &args, stdin, &limits) {
            Ok(o) => o,
            Err(RunError::Interrupted) => {
                return Judgement::new(Verdict::Skipped, "not run: the judge was interrupted");
            }
            Err(RunError::Internal(m)) => return ie(format!("{what}: {m}")),
        };
        if let Some(failure) = tool_failure(&what, &outcome, &limits) {
            return ie(failure);
        }
        let Exit::Code(code) = outcome.exit else {
            return ie(format!("{what}: {}", outcome.exit.describe()));
        };
        match self.protocol {
            Protocol::Testlib => {
                let message = said(&outcome.stderr_tail).or_else(|| said(&outcome.stdout));
                let (verdict, default) = match code {
                    0 => (Verdict::Accepted, "the checker accepted the output"),
                    1 => (Verdict::WrongAnswer, "the checker rejected the output"),
                    2 | 4 | 8 => (
                        Verdict::PresentationError,
                        "the checker found the output badly formatted",
                    ),
                    3 => {
                        return ie(format!(
                            "{what} failed (exit code 3){}",
                            message.map(|m| format!(": {m}")).unwrap_or_default()
                        ));
                    }
                    other => {
                        return ie(format!(
                            "{what} answered exit code {other}, which the testlib protocol does not define (0 AC, 1 WA, 2 PE, 3 fail){}",
                            message.map(|m| format!(": {m}")).unwrap_or_default()
                        ));
                    }
                };
                Judgement::new(verdict, message.unwrap_or_else(|| default.to_string()))
            }
            Protocol::Kattis => {
                let read = |name: &str| {
                    std::fs::read(feedback.join(name))
                        .ok()
                        .and_then(|t| said(&t))
                };
                let message = read("judgemessage.txt")
                    .or_else(|| read("teammessage.txt"))
                    .or_else(|| said(&outcome.stderr_tail));
                match code {
                    42 => Judgement::new(
                        Verdict::Accepted,
                        message.unwrap_or_else(|| "the output validator accepted".to_string()),
                    ),
                    43 => Judgement::new(
                        Verdict::WrongAnswer,
                        message.unwrap_or_else(|| "the output validator rejected".to_string()),
                    ),
                    other => ie(format!(
                        "{what} answered exit code {other}, which the Kattis protocol does not define (42 AC, 43 WA){}",
                        message.map(|m| format!(": {m}")).unwrap_or_default()
                    )),
                }
            }
        }
    }
}

/// An external input validator (`validator = "…"`, or a Kattis package's
/// `input_validators/`).
#[derive(Clone, Debug, PartialEq)]
pub struct InputValidator {
    pub tool: Tool,
    pub protocol: Protocol,
    pub time_limit: Duration,
    /// Arguments after the tool's own (Kattis input validator flags).
    pub flags: Vec<String>,
}

/// What an input validator said about an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validity {
    Valid,
    /// Rejected, with the validator's message.
    Invalid(String),
}

impl InputValidator {
    /// Run the validator on one input file. `Err`: the validator itself
    /// failed (crashed, timed out, answered an undefined exit code).
    pub fn check(&self, context: ToolContext<'_>, input: &Path) -> Result<Validity, String> {
        let what = format!("input validator {}", self.tool.display);
        let limits = tool_limits(self.time_limit);
        let args: Vec<OsString> = self.flags.iter().map(OsString::from).collect();
        let outcome = self
            .tool
            .run(context, &args, Some(input), &limits)
            .map_err(|e| format!("{what}: {e}"))?;
        if let Some(failure) = tool_failure(&what, &outcome, &limits) {
            return Err(failure);
        }
        let Exit::Code(code) = outcome.exit else {
            return Err(format!("{what}: {}", outcome.exit.describe()));
        };
        let message = || {
            said(&outcome.stderr_tail)
                .or_else(|| said(&outcome.stdout))
                .unwrap_or_else(|| format!("rejected (exit code {code})"))
        };
        match (self.protocol, code) {
            (Protocol::Testlib, 0) | (Protocol::Kattis, 42) => Ok(Validity::Valid),
            (Protocol::Testlib, _) | (Protocol::Kattis, 43) => Ok(Validity::Invalid(message())),
            (Protocol::Kattis, other) => Err(format!(
                "{what} answered exit code {other}, which the Kattis protocol does not define (42 valid, 43 invalid){}",
                said(&outcome.stderr_tail)
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn said_takes_the_first_meaningful_line() {
        assert_eq!(
            said(b"\n  \nwrong answer 1st numbers differ\n"),
            Some("wrong answer 1st numbers differ".into())
        );
        assert_eq!(said(b"a\nb\n"), Some("a …".into()));
        assert_eq!(said(b" \n\t\n"), None);
        let long = "x".repeat(400);
        assert_eq!(said(long.as_bytes()).unwrap().chars().count(), 302);
    }

    #[test]
    fn commands_resolve_files_beside_the_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("check.py"), "").unwrap();
        std::fs::write(dir.path().join("checker.cpp"), "").unwrap();
        let t = Tool::from_command("checker.cpp", dir.path()).unwrap();
        assert_eq!(t.source, Source::Path(dir.path().join("checker.cpp")));
        let t = Tool::from_command("python3 check.py -x", dir.path()).unwrap();
        assert_eq!(t.source, Source::Name("python3".into()));
        assert_eq!(
            t.args,
            [
                dir.path().join("check.py").to_string_lossy().into_owned(),
                "-x".into()
            ]
        );
        let t = Tool::from_command("bin/missing", dir.path()).unwrap();
        assert_eq!(t.source, Source::Path(dir.path().join("bin/missing")));
        assert!(Tool::from_command("'open", dir.path()).is_err());
        assert!(Tool::from_command("", dir.path()).is_err());
    }
}
