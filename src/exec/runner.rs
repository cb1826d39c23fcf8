//! The runner of a program on disk (`ProcessRunner`): a command line
//! resolved to an executable once, then one contained run per case through
//! [`super::process`]; and how program names are found (on PATH, or on the
//! sandbox's own PATH for a submission).

use super::process::{Launch, Trust, launch};
use super::{Limits, ProgramError, RunError, RunOutcome, RunRequest, Runner};
use crate::exec::sandbox::{SANDBOX_PATH, Sandbox};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Runs an external command on each input.
pub struct ProcessRunner {
    program: PathBuf,
    args: Vec<OsString>,
    sandbox: Arc<Sandbox>,
    /// Whether RLIMIT_AS may carry the memory limit (false for a JVM).
    address_space: bool,
    /// Arguments holding `{memory_mib}`, filled in per run from the memory
    /// limit (a JVM's `-Xmx{memory_mib}m`).
    memory_args: bool,
    /// Files copied into every run's working directory: (where it is,
    /// its name there) — a package's included data.
    companions: Vec<(PathBuf, PathBuf)>,
    /// The directories the program's build was staged as, each with the
    /// directory its user calls it by: a program's messages (a Python
    /// traceback's `File "…/sol.py"`) name the user's file, not the
    /// judge's copy.
    shown_as: Vec<(String, String)>,
    /// Where the build's files were staged (see `shown_as`).
    staged_dirs: Vec<PathBuf>,
    /// What it executes, as content, once computed (see `Runner::identity`).
    identity: std::sync::OnceLock<Option<String>>,
}

/// The placeholder of the memory limit in MiB in a run command.
pub const MEMORY_MIB: &str = "{memory_mib}";
/// The placeholder of a JVM's heap in MiB: the memory limit less what the
/// JVM needs beside its heap (a quarter of the limit, at most 300 MiB, as
/// DOMjudge reserves), so that a heap overrun is the JVM's own
/// `OutOfMemoryError` rather than a kill by the memory limit or a
/// collector thrashing into the time limit.
pub const HEAP_MIB: &str = "{heap_mib}";

/// The options every JVM program gets besides its heap (a Java
/// submission's run command, a package's Java checker): the serial
/// collector (one thread, no pause-time tuning that costs CPU time a
/// limit counts) and a deep stack for recursion.
pub const JVM_OPTIONS: [&str; 2] = ["-XX:+UseSerialGC", "-Xss64m"];

/// A JVM's heap in MiB (`-Xmx`) under a memory limit (`None`: 1 GiB):
/// the limit less what the JVM needs beside its heap (see [`HEAP_MIB`]).
pub fn jvm_heap_mib(memory: Option<u64>) -> u64 {
    let mib = (memory.unwrap_or(1 << 30) >> 20).max(16);
    (mib - (mib / 4).min(300)).max(16)
}

impl ProcessRunner {
    /// A runner for a command line, split like a shell would (quotes and
    /// backslashes), with no shell involved. The program is resolved now:
    /// a path with a `/` against the current directory, a bare name on PATH.
    pub fn new(command_line: &str, sandbox: Arc<Sandbox>) -> Result<ProcessRunner, ProgramError> {
        let words = shlex::split(command_line)
            .ok_or_else(|| ProgramError::Unsplittable(command_line.to_string()))?;
        let (first, rest) = words.split_first().ok_or(ProgramError::Empty)?;
        let program = resolve_sandboxed_program(first)?;
        let args = rest.iter().map(OsString::from).collect();
        ProcessRunner::from_argv(program, args, sandbox)
    }

    /// A runner for a program already resolved to an absolute path (a
    /// built source submission). It and the arguments that name files
    /// are staged (copied) where the sandbox's programs can see and reach
    /// them when they cannot already (see `Sandbox::stage`).
    pub fn from_argv(
        program: PathBuf,
        args: Vec<OsString>,
        sandbox: Arc<Sandbox>,
    ) -> Result<ProcessRunner, ProgramError> {
        ProcessRunner::from_build(program, args, None, sandbox)
    }

    /// [`ProcessRunner::from_argv`] for a program built in `build_dir`
    /// (the judge's own build cache) that needs the whole directory: the
    /// directory is staged as one, and the program and arguments inside it
    /// point into the staged copy.
    pub fn from_build(
        program: PathBuf,
        args: Vec<OsString>,
        build_dir: Option<&Path>,
        sandbox: Arc<Sandbox>,
    ) -> Result<ProcessRunner, ProgramError> {
        // The build directory staged whole, if the program needs it.
        let staged_dir = match build_dir {
            Some(dir) => Some((dir, sandbox.stage(dir)?)),
            None => None,
        };
        let inside = |p: &Path| {
            let (dir, staged) = staged_dir.as_ref()?;
            p.strip_prefix(dir).ok().map(|rel| staged.join(rel))
        };
        let program = match inside(&program) {
            Some(path) => path,
            None => sandbox.stage(&program)?,
        };
        let mut staged_args = Vec::with_capacity(args.len());
        // Where the program's own files were staged (see `shown_as`).
        let mut staged_dirs: Vec<PathBuf> = staged_dir
            .iter()
            .map(|(_, staged)| staged.clone())
            .collect();
        for arg in args {
            let path = Path::new(&arg);
            if let Some(staged) = inside(path) {
                staged_args.push(staged.into_os_string());
            } else if path.is_file() && !sandbox.is_secret(path) {
                // A file the command names (a script, its data) is the
                // program's own: copied in when the sandbox hides it (a
                // submission inside its package). A secret (a case, an
                // answer, judge.toml, a checker) stays hidden: never
                // copied. A directory is never copied: only a build
                // directory.
                let staged = sandbox.stage(&std::path::absolute(path).map_err(|e| {
                    ProgramError::Stage {
                        path: path.to_path_buf(),
                        reason: crate::exec::sandbox::CopyError::File(e),
                    }
                })?)?;
                if staged.as_path() != path
                    && let Some(parent) = staged.parent()
                {
                    staged_dirs.push(parent.to_path_buf());
                }
                staged_args.push(staged.into_os_string());
            } else {
                staged_args.push(arg);
            }
        }
        let memory_args = has_memory_placeholder(&staged_args);
        Ok(ProcessRunner {
            program,
            args: staged_args,
            sandbox,
            address_space: true,
            memory_args,
            companions: Vec::new(),
            shown_as: Vec::new(),
            staged_dirs,
            identity: std::sync::OnceLock::new(),
        })
    }

    /// Name the build's files in the program's messages by `user_dir`, the
    /// directory that holds the user's source (see `shown_as`).
    pub fn shown_from(mut self, user_dir: &Path) -> ProcessRunner {
        // As the user named it: `sol.py` in the current directory stays
        // `sol.py`, `a/sol.py` stays `a/sol.py`.
        let user = match user_dir.display().to_string() {
            dir if dir.is_empty() => String::new(),
            dir => format!("{dir}/"),
        };
        self.shown_as = self
            .staged_dirs
            .iter()
            .map(|staged| (format!("{}/", staged.display()), user.clone()))
            .collect();
        self
    }

    /// `outcome` with the staged build's directory named as the user's.
    fn shown(&self, mut outcome: RunOutcome) -> RunOutcome {
        for (staged, user) in &self.shown_as {
            if outcome.stderr_tail.is_empty() {
                break;
            }
            let text = String::from_utf8_lossy(&outcome.stderr_tail);
            if text.contains(staged.as_str()) {
                outcome.stderr_tail = text.replace(staged.as_str(), user).into_bytes();
            }
        }
        outcome
    }

    /// Leave the memory limit to a cgroup or to the program itself (a JVM
    /// sized by `{memory_mib}`), never to RLIMIT_AS.
    pub fn without_address_space_limit(mut self) -> ProcessRunner {
        self.address_space = false;
        self
    }

    /// Copy these files, (where it is, its name there), into every run's
    /// working directory before the program starts.
    pub fn with_companions(mut self, companions: Vec<(PathBuf, PathBuf)>) -> ProcessRunner {
        self.companions = companions;
        self
    }
}

/// The protections in force as a stable text: each one's kind (its words
/// before a `:` or `(`, without numbers), not the uids, paths or counts
/// that vary from one judge process to the next.
fn stable_protections(on: &[String]) -> String {
    on.iter()
        .map(|line| {
            let kind = line.split([':', '(']).next().unwrap_or_default();
            kind.chars()
                .filter(|c| !c.is_ascii_digit())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn has_memory_placeholder(args: &[OsString]) -> bool {
    args.iter().any(|a| {
        let a = a.to_string_lossy();
        a.contains(MEMORY_MIB) || a.contains(HEAP_MIB)
    })
}

/// Find an untrusted program (a submission, a `solution =` command) as
/// it will run: a bare name first on the PATH the sandbox gives it
/// ([`SANDBOX_PATH`]), then on the judge's own PATH. The judge's PATH may
/// hold shims (pyenv, asdf, nvm: `~/.pyenv/shims/python3`) that only work
/// for the judge's user, and would fail inside the sandbox as the
/// submission's run-time error.
pub fn resolve_sandboxed_program(name: &str) -> Result<PathBuf, ProgramError> {
    let in_sandbox = (!name.contains('/'))
        .then(|| find_on(std::ffi::OsStr::new(SANDBOX_PATH), name))
        .flatten();
    in_sandbox.map_or_else(|| resolve_program(name), Ok)
}

/// A later word of a command line (`python3 gen.py`: `gen.py`) as the
/// program will see it: made absolute when it names a file or directory
/// from `base` (the user's working directory, or judge.toml's), since
/// every program runs in a private working directory where the relative
/// name would mean nothing; any other word (a flag, a number, a name
/// that is no file) as it is. The one rule for every command that takes
/// a command line: checkers, validators, interactors, `stress`'s
/// generator and reference.
pub fn absolute_if_file(word: &str, base: &Path) -> String {
    let path = base.join(word);
    if !word.starts_with('-') && !word.is_empty() && path.exists() {
        std::path::absolute(&path)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    } else {
        word.to_string()
    }
}

/// Find the program as execvp would, but now and from the judge's own
/// directory (the child starts in its private directory, where `./sol`
/// would mean something else).
pub fn resolve_program(name: &str) -> Result<PathBuf, ProgramError> {
    if name.contains('/') {
        let path =
            std::path::absolute(name).map_err(|_| ProgramError::NotFound(name.to_string()))?;
        if !path.exists() {
            return Err(ProgramError::NotFound(name.to_string()));
        }
        if !is_executable_file(&path) {
            return Err(ProgramError::NotExecutable(name.to_string()));
        }
        return Ok(path);
    }
    let path_var = std::env::var_os("PATH").unwrap_or_else(|| OsString::from(SANDBOX_PATH));
    find_on(&path_var, name).ok_or_else(|| ProgramError::NotOnPath(name.to_string()))
}

/// The first executable file `name` in the directories of a PATH value.
fn find_on(path_var: &std::ffi::OsStr, name: &str) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable_file(candidate))
        .map(|found| std::path::absolute(&found).unwrap_or(found))
}

fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

impl Runner for ProcessRunner {
    fn identity(&self, limits: &Limits) -> Option<String> {
        let base = self.identity.get_or_init(|| self.content()).as_ref()?;
        match self.sized_args(limits) {
            // A JVM's heap is sized from the memory limit: part of what runs.
            Some(sized) => {
                let mut fields = super::identity::Fields::new();
                fields.field("base", base.as_bytes());
                for arg in &sized {
                    fields.field("sized", arg.as_encoded_bytes());
                }
                Some(fields.hex())
            }
            None => Some(base.clone()),
        }
    }

    fn run(&self, request: &RunRequest<'_>) -> Result<RunOutcome, RunError> {
        let args = self.args_for(request);
        let io = request.given.io;
        // A problem that reads a file: the input copied there under its
        // name (after the program's own companions), standard input empty.
        let companions: Vec<(PathBuf, PathBuf)> = match &io.input {
            Some(name) => self
                .companions
                .iter()
                .cloned()
                .chain([(request.input.to_path_buf(), PathBuf::from(name))])
                .collect(),
            None => Vec::new(),
        };
        let launch_of = Launch {
            stdin: io.input.is_none().then_some(request.input),
            companions: if io.input.is_some() {
                &companions
            } else {
                &self.companions
            },
            output_file: io.output.as_deref(),
            ..self.launch(request, args.as_deref())
        };
        launch(&self.sandbox, &launch_of).map(|outcome| self.shown(outcome))
    }

    fn run_interactive(
        &self,
        request: &RunRequest<'_>,
        partner: &Launch<'_>,
        decides: crate::exec::interactive::Decides<'_>,
    ) -> Result<crate::exec::interactive::PairOutcome, RunError> {
        let args = self.args_for(request);
        crate::exec::interactive::launch_pair(
            &self.sandbox,
            &self.launch(request, args.as_deref()),
            partner,
            decides,
        )
    }
}

impl ProcessRunner {
    /// The digest of everything this runner executes: the program's bytes,
    /// each argument (a file or directory by its content, anything else as
    /// written, the staged directories' temporary names left out), every
    /// file of its build's directory, the files copied beside it, how its
    /// memory is limited, and the sandbox's isolation. `None` when a file cannot be read.
    fn content(&self) -> Option<String> {
        use super::identity::{Fields, content};
        let mut fields = Fields::new();
        fields.field("program", content(&self.program)?.as_bytes());
        for arg in &self.args {
            let path = Path::new(arg);
            if path.is_absolute() && path.exists() {
                fields.field("arg-content", content(path)?.as_bytes());
                continue;
            }
            let mut text = arg.to_string_lossy().into_owned();
            for dir in &self.staged_dirs {
                text = text.replace(&dir.display().to_string(), "{staged}");
            }
            fields.field("arg", text.as_bytes());
        }
        // The whole build (a multi-file submission's other modules, a
        // JVM's classes), not only the files the command names.
        for dir in &self.staged_dirs {
            fields.field("staged", content(dir)?.as_bytes());
        }
        for (from, name) in &self.companions {
            fields
                .field("companion", name.as_os_str().as_encoded_bytes())
                .field("companion-content", content(from)?.as_bytes());
        }
        let protections = self.sandbox.protections();
        fields
            .field("address-space", &[u8::from(self.address_space)])
            .field("isolation", protections.isolation.as_bytes())
            .field(
                "protections",
                stable_protections(&protections.on).as_bytes(),
            );
        Some(fields.hex())
    }

    /// The submission's launch for `request` (no standard input: a plain
    /// run gives its input file, an interactive one its pipe), with the
    /// arguments of [`Self::args_for`] when they differ from its own.
    fn launch<'a>(&'a self, request: &RunRequest<'a>, args: Option<&'a [OsString]>) -> Launch<'a> {
        Launch {
            program: &self.program,
            args: args.unwrap_or(&self.args),
            stdin: None,
            limits: request.limits,
            slot: request.slot,
            trust: Trust::Untrusted,
            address_space: self.address_space,
            workdir: None,
            files: request.given.files,
            companions: &self.companions,
            output_file: None,
        }
    }

    /// Its arguments for `request`, when they are not its own as they
    /// stand: sized to the limits, then the case's own arguments.
    fn args_for(&self, request: &RunRequest<'_>) -> Option<Vec<OsString>> {
        let sized = self.sized_args(request.limits);
        if request.given.args.is_empty() {
            return sized;
        }
        let mut args = sized.unwrap_or_else(|| self.args.clone());
        args.extend(request.given.args.iter().map(OsString::from));
        Some(args)
    }

    /// The arguments with `{memory_mib}` (the memory limit in MiB, or 1 GiB
    /// when there is none) filled in, when they hold it.
    fn sized_args(&self, limits: &Limits) -> Option<Vec<OsString>> {
        if !self.memory_args {
            return None;
        }
        let mib = (limits.memory.unwrap_or(1 << 30) >> 20).max(16).to_string();
        let heap = jvm_heap_mib(limits.memory).to_string();
        Some(
            self.args
                .iter()
                .map(|a| {
                    OsString::from(
                        a.to_string_lossy()
                            .replace(MEMORY_MIB, &mib)
                            .replace(HEAP_MIB, &heap),
                    )
                })
                .collect(),
        )
    }
}
