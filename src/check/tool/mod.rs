//! The problem setter's programs — checkers and input validators — as the
//! judge finds, builds and runs them. A [`Tool`] is what the configuration
//! names (a command, a file, a Kattis program directory); prepared once, it
//! is an argument vector to execute. Running one is a trusted
//! [`launch`]: the tool keeps the judge's environment and reads the case
//! files in place, but runs in a private working directory under its own
//! limits ([`tool_limits`]: a time limit, default 10 s, wall clock and CPU;
//! 4 GiB of memory; 8 MiB of output), and everything it started is killed
//! when it ends.
//!
//! How a configured program becomes something to execute is
//! [`checker_program`]: a program on PATH, an executable, a script, or a
//! source compiled once and cached (C/C++ with `cc`/`c++`, or a Kattis
//! program directory of them; Pascal with `fpc`; Java and Kotlin with
//! `javac`/`kotlinc`, run by the JVM, see `jvm.rs`). It is the one place
//! to re-route to a shared compile cache. What a tool's answers mean is the protocols'
//! business ([`super::external`]), not this module's.

use crate::exec::process::{Launch, Trust, launch};
use crate::exec::sandbox::Sandbox;
use crate::exec::{Limits, RunError, RunOutcome};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

mod build;
mod cache;
mod constants;
mod jvm;
pub use build::checker_program;

/// The default time limit of one checker or validator run.
pub const DEFAULT_TOOL_TIME_LIMIT: Duration = Duration::from_secs(10);
/// Address space of a checker or validator run.
pub const TOOL_MEMORY: u64 = 4 << 30;
/// Standard output a checker or validator may print.
pub const TOOL_OUTPUT: u64 = 8 << 20;
/// How long compiling a checker or validator may take.
pub const COMPILE_TIME_LIMIT: Duration = Duration::from_secs(120);

/// What a tool is made from, as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file (a program, a script or a source file) or a Kattis program
    /// directory.
    Path(PathBuf),
    /// A program looked up on PATH (`python3`, `diff`).
    Name(String),
}

/// Why a file of a tool's tree that is a link cannot be followed: the
/// package reader's error (a layer above knows its type), kept whole.
pub type LinkRefusal = Arc<dyn std::error::Error + Send + Sync>;

/// A program of the problem setter: what it is made from, the arguments
/// that come before the protocol's, and, once prepared, what to execute.
#[derive(Clone)]
pub struct Tool {
    pub source: Source,
    /// Arguments before the protocol's own (a script for an interpreter).
    pub args: Vec<String>,
    /// How to name it in messages (as configured).
    pub display: String,
    /// A package's 2025-09 constants, replaced in a copy of the tool's
    /// files before it is built or run.
    constants: Option<Arc<crate::text::constants::Constants>>,
    /// Files of the tool's tree that are links checked out as text, each
    /// with the file read in its place (the package reader's table), or
    /// why one cannot be followed: the tool then fails with that reason.
    links: Arc<Result<Vec<(PathBuf, PathBuf)>, LinkRefusal>>,
    ready: Arc<OnceLock<Result<Ready, ToolError>>>,
    /// What it executes, as content, once computed ([`Tool::identity`]).
    identity: Arc<OnceLock<Option<String>>>,
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
    /// Whether RLIMIT_AS may carry the tools' memory limit: false for a
    /// JVM, which reserves far more address space than it uses and has
    /// its heap from the limit instead (as a Java submission has).
    pub address_space: bool,
    _keep: Option<Arc<tempfile::TempDir>>,
}

/// Why a setter's program cannot be used.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{0:?} is not a command line (unbalanced quotes?)")]
    Unsplittable(String),
    #[error("the command is empty")]
    Empty,
    /// The program (or the interpreter or compiler it needs) is not there.
    #[error("{0}")]
    Program(String),
    #[error("{} not found", .0.display())]
    Missing(PathBuf),
    #[error("{}: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("{} is not executable (chmod +x it) and not a source the judge can build (C .c, C++ .cpp .cc .cxx, Java .java, Kotlin .kt, Pascal .pas .pp .dpr, Python .py, shell .sh)", .0.display())]
    NotRunnable(PathBuf),
    /// The compiler or runtime a source needs is not on PATH.
    #[error("cannot build {}: {program} not installed (needed for a {language} program)", .what.display())]
    NotInstalled {
        what: PathBuf,
        program: &'static str,
        language: &'static str,
    },
    #[error("{}: cannot tell how to run this program directory (expected C/C++ sources, Python sources, a `build` script, or an executable `run`)", .0.display())]
    UnknownLayout(PathBuf),
    /// Compiling it failed (the compiler's own words in `reason`).
    #[error("cannot build {}: {reason}", .what.display())]
    Build { what: PathBuf, reason: String },
    /// A file of it is a link checked out as text that cannot be followed.
    #[error("{0}")]
    Link(String),
    /// One of the above, of the tool named.
    #[error("{tool}: {error}")]
    Of { tool: String, error: Box<ToolError> },
}

impl From<crate::exec::ProgramError> for ToolError {
    fn from(e: crate::exec::ProgramError) -> Self {
        ToolError::Program(e.to_string())
    }
}

impl Tool {
    /// A tool from a command line in judge.toml (split like a shell, no
    /// shell). The first word is a file when it contains a `/` or names a
    /// file or directory beside judge.toml (`checker.cpp`), resolved against
    /// `base`; otherwise a program on PATH. Later words that name files
    /// beside judge.toml (`python3 check.py`) are made absolute too, since
    /// the tool runs in a private working directory.
    pub fn from_command(command: &str, base: &Path) -> Result<Tool, ToolError> {
        let words =
            shlex::split(command).ok_or_else(|| ToolError::Unsplittable(command.to_string()))?;
        let (first, rest) = words.split_first().ok_or(ToolError::Empty)?;
        let beside = base.join(first);
        let source = if first.contains('/') || beside.exists() {
            Source::Path(std::path::absolute(&beside).unwrap_or(beside))
        } else {
            Source::Name(first.clone())
        };
        let args = rest
            .iter()
            .map(|word| crate::exec::runner::absolute_if_file(word, base))
            .collect();
        Ok(Tool {
            source,
            args,
            display: command.to_string(),
            constants: None,
            links: Arc::new(Ok(Vec::new())),
            ready: Arc::default(),
            identity: Arc::default(),
        })
    }

    /// The same tool with a package's constants replaced in its files
    /// (2025-09); `None` leaves it as it is.
    pub fn with_constants(
        mut self,
        constants: Option<Arc<crate::text::constants::Constants>>,
    ) -> Tool {
        self.constants = constants;
        self
    }

    /// The same tool with files of its tree read from elsewhere (links
    /// checked out as text, resolved by the package reader), or failing
    /// with the reason one cannot be followed.
    pub fn with_links<E>(mut self, links: Result<Vec<(PathBuf, PathBuf)>, E>) -> Tool
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        self.links = Arc::new(links.map_err(|e| Arc::new(e) as LinkRefusal));
        self
    }

    /// A tool that is a file or a program directory (a Kattis package's
    /// validators); `display` names it in messages.
    pub fn from_path(path: &Path, display: String) -> Tool {
        Tool {
            source: Source::Path(std::path::absolute(path).unwrap_or(path.to_path_buf())),
            args: Vec::new(),
            display,
            constants: None,
            links: Arc::new(Ok(Vec::new())),
            ready: Arc::default(),
            identity: Arc::default(),
        }
    }

    /// Prepare the tool once (compile it, if it is a source): later calls
    /// return the same result. Call it before judging, so that a broken tool
    /// is one error instead of an IE on every case.
    pub fn prepare(&self, sandbox: &Sandbox) -> Result<&Ready, ToolError> {
        self.ready
            .get_or_init(|| {
                let links = match self.links.as_ref() {
                    Ok(links) => links,
                    Err(why) => return Err(ToolError::Link(why.to_string())),
                };
                match &self.source {
                    Source::Path(path) if self.constants.is_some() || !links.is_empty() => {
                        let (copy, keep) =
                            constants::materialize(path, self.constants.as_deref(), links)?;
                        let mut ready = checker_program(&Source::Path(copy), sandbox)?;
                        ready._keep = Some(keep);
                        Ok(ready)
                    }
                    _ => checker_program(&self.source, sandbox),
                }
            })
            .as_ref()
            .map_err(|e| ToolError::Of {
                tool: self.display.clone(),
                error: Box::new(e.clone()),
            })
    }

    /// What the prepared tool executes, as content (the run cache's key of
    /// its verdicts): its source (a file, or a program directory whole),
    /// the program run and every argument (a file or directory by its
    /// content, anything else as written). `None` when it cannot be
    /// prepared or a file cannot be read: its verdicts are not cached.
    pub fn identity(&self, sandbox: &Sandbox) -> Option<String> {
        self.identity
            .get_or_init(|| {
                use crate::exec::identity::{Fields, content};
                let ready = self.prepare(sandbox).ok()?;
                let mut fields = Fields::new();
                if let Source::Path(path) = &self.source {
                    fields.field("source", content(path)?.as_bytes());
                }
                if let Some(constants) = &self.constants {
                    fields.field("constants", format!("{constants:?}").as_bytes());
                }
                for (file, target) in self.links.as_ref().as_ref().ok()? {
                    fields.field("link", file.as_os_str().as_encoded_bytes());
                    fields.field("link-content", content(target)?.as_bytes());
                }
                for arg in ready.argv.iter().chain(
                    self.args
                        .iter()
                        .map(OsString::from)
                        .collect::<Vec<_>>()
                        .iter(),
                ) {
                    let path = Path::new(arg);
                    if path.is_absolute() && path.exists() {
                        fields.field("arg-content", content(path)?.as_bytes());
                    } else {
                        fields.field("arg", arg.as_encoded_bytes());
                    }
                }
                Some(fields.hex())
            })
            .clone()
    }

    /// The program and arguments of its prepared command line `argv`
    /// (`Ready::argv`) with its own arguments after them; `None` when the
    /// command is empty. The protocol's arguments go after these.
    pub(crate) fn command_line<'r>(
        &self,
        argv: &'r [OsString],
    ) -> Option<(&'r OsString, Vec<OsString>)> {
        let (program, before) = argv.split_first()?;
        let mut args = before.to_vec();
        args.extend(self.args.iter().map(OsString::from));
        Some((program, args))
    }

    /// Run the prepared tool once with the protocol's arguments.
    pub(crate) fn run(
        &self,
        context: ToolContext<'_>,
        protocol_args: &[OsString],
        stdin: Option<&Path>,
        limits: &Limits,
    ) -> Result<RunOutcome, RunError> {
        let ready = self
            .prepare(context.sandbox)
            .map_err(|e| RunError::Internal(e.to_string()))?;
        let (program, mut args) = self
            .command_line(&ready.argv)
            .ok_or_else(|| RunError::Internal(format!("{}: nothing to run", self.display)))?;
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
                address_space: ready.address_space,
                workdir: None,
                files: None,
                companions: &[],
                output_file: None,
            },
        )
    }
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
        // No stack limit: glibc gives a new thread a stack as large as
        // RLIMIT_STACK, which, as large as the address-space limit, would
        // leave no room for it (a Python validator's `threading` then
        // fails: "can't start new thread"). The main stack still grows
        // only within the memory limit.
        stack: None,
        output: TOOL_OUTPUT,
        past_output: crate::exec::PastOutput::Kill,
        file_size: 64 << 20,
        processes: 64,
        writable_workdir: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
