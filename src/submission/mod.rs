//! What program a submission means: a command line as it is, or a source
//! file (or a directory holding one) built by its language's rules into a
//! command line. Between `commands` and `exec`: it compiles, it never judges.
//!
//! Languages come from [`builtin_languages`] (the CLICS languages table) as
//! judge.toml's `[language.NAME]` tables change them. A command
//! template may use `{src}` (the source), `{bin}` (the program the compile
//! step writes), `{dir}` (their directory) and `{interpreter}` (what the
//! language's `interpreter` command printed: Python's real executable, so
//! that a run in the scrubbed environment of a submission does not depend
//! on pyenv shims and the judge's `HOME`).
//!
//! Builds are cached by content ([`cache`]): the key is a SHA-256 of the
//! language's commands, the file name and the source bytes, so a second run
//! does not compile again and a change of compiler flags does. An entry is
//! built in a temporary directory beside the cache and renamed into place
//! when complete, so concurrent judges never see half an entry. Compile
//! errors are not cached (a compile killed by a busy machine's time limit
//! must not stick).

// A build error is the cold path (once per submission, then a message):
// its size does not matter, and boxing every variant would only cost reading.
#![allow(clippy::result_large_err)]

pub mod cache;
mod compile_error;
pub mod languages;
mod probe;
mod runner;
mod sandboxed;
mod source;
mod source_error;
mod staging;

use crate::exec::RunError;
use crate::exec::process::{Trust, launch_build};
use crate::exec::runner::{resolve_program, resolve_sandboxed_program};
use crate::exec::sandbox::Sandbox;
use compile_error::compile_error;
use staging::{CompileStep, Places, StagedFile, needs_dir, read_files, split, working_files};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use languages::{Language, builtin_languages, canonical_name};
pub use source::Source;
pub use source_error::SourceError;

/// Everything builds need: the languages, the compile limit, the cache.
#[derive(Clone, Debug)]
pub struct Toolchain {
    pub languages: Vec<Language>,
    pub compile_time_limit: Duration,
    pub cache: PathBuf,
}

/// A built submission, ready to run.
#[derive(Clone, Debug)]
pub struct Executable {
    /// An absolute path.
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The command line, for messages.
    pub display: String,
    /// Taken from the cache: nothing was compiled.
    pub from_cache: bool,
    /// How long the compilation took, when there was one now.
    pub compile_time: Option<Duration>,
    /// Whether RLIMIT_AS may carry the memory limit (false for a JVM).
    pub address_space: bool,
    /// The build directory, when the program needs all of it (a
    /// multi-file interpreted submission imports its other files): the
    /// sandbox stages it whole.
    pub build_dir: Option<PathBuf>,
    /// The package's included data files (not code: see
    /// [`Toolchain::included_data`]) as staged for the build, each with
    /// its name in the working directory, where every run finds them.
    pub included_data: Vec<(PathBuf, PathBuf)>,
}

/// What building a source gave.
#[derive(Clone, Debug)]
pub enum Built {
    Ready(Executable),
    /// The source does not compile: every case of it is CE.
    CompileError(CompileError),
}

/// Why a source could not be built at all (not the submission's fault).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The compiler or interpreter is not installed: `the Go compiler
    /// `go` is not installed (Debian package golang-go; …)`.
    #[error(
        "{path}: {}; install it, or set [language.{language}] in judge.toml",
        languages::missing_tool_message(.title, .role, .tool, Some(languages::package_hint(.package.as_deref()).as_deref().unwrap_or("not found on PATH")))
    )]
    MissingTool {
        path: String,
        language: String,
        /// The language's own name (`Go`).
        title: String,
        role: &'static str,
        tool: String,
        /// The Debian package that provides it (`golang-go`).
        package: Option<String>,
    },
    /// The interpreter's command exists but does not run (a pyenv shim
    /// for a version that is not selected, a broken install): as good as
    /// missing on this machine.
    #[error(
        "{path}: {}; install it, or set [language.{language}] in judge.toml",
        languages::missing_tool_message(.title, .role, .tool, Some(&format!("its command fails: {}", .reason)))
    )]
    BrokenTool {
        path: String,
        language: String,
        title: String,
        role: &'static str,
        tool: String,
        reason: String,
    },
    /// The compiler is installed where the sandbox's users cannot run it
    /// (a submission's build runs as them).
    #[error(
        "{path}: the {language} compiler {tool} cannot be run by the sandbox's users, who build submissions (it is under a directory closed to them); install it where every user can run it, or set [language.{language}] in judge.toml"
    )]
    Unreachable {
        path: String,
        language: String,
        tool: String,
    },
    /// A source file past [`staging::SOURCE_CAP`]: the submission's own
    /// doing, judged as a compile error.
    #[error("{0}")]
    SourceTooLarge(String),
    #[error("interrupted")]
    Interrupted,
    #[error("{0}")]
    Internal(String),
}

/// Why a language's interpreter command did not name its interpreter.
#[derive(Debug, thiserror::Error)]
pub enum InterpreterError {
    /// It failed: how it ended, and its standard error.
    #[error("{exit}: {stderr}")]
    Failed { exit: String, stderr: String },
    #[error(
        "it printed {:?}, not the absolute path of an interpreter",
        .0.display().to_string()
    )]
    NotAPath(PathBuf),
}

/// How long one compilation may take (CPU and wall clock) unless judge.toml
/// says otherwise.
pub const DEFAULT_COMPILE_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Why a source submission has no program: the compiler's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// One line: `compile error: sol.cpp:3:5: error: …`.
    pub message: String,
    /// The end of the compiler's output (its last lines).
    pub output: String,
}

impl Toolchain {
    /// A toolchain with these languages and compile limit, and the cache
    /// directory (see [`cache::default_dir`]). `config::toolchain` makes
    /// the one judge.toml describes.
    pub fn new(languages: Vec<Language>, compile_time_limit: Duration) -> Toolchain {
        Toolchain {
            languages,
            compile_time_limit,
            cache: cache::default_dir(),
        }
    }

    /// The language called `name` (`--language`).
    pub fn language_named(&self, name: &str) -> Result<&Language, SourceError> {
        self.languages
            .iter()
            .find(|l| l.name == name || l.name == canonical_name(name))
            .ok_or_else(|| SourceError::UnknownLanguage {
                name: name.to_string(),
                known: self.languages.iter().map(|l| l.name.clone()).collect(),
            })
    }

    /// Build a submission's source (or take it from the cache): an
    /// untrusted build, run in the sandbox on worker slot `slot` (see
    /// [`sandboxed`]); only what it left in its own directory is cached.
    pub fn build(
        &self,
        source: &Source,
        sandbox: &Sandbox,
        slot: usize,
    ) -> Result<Built, BuildError> {
        self.build_as(source, sandbox, slot, Trust::Untrusted)
    }

    /// Build a source of the problem setter's (a package's generator): the
    /// compiler runs as the judge, with its environment and view of the
    /// files, under the compile limits.
    pub fn build_trusted(
        &self,
        source: &Source,
        sandbox: &Sandbox,
        slot: usize,
    ) -> Result<Built, BuildError> {
        self.build_as(source, sandbox, slot, Trust::Trusted)
    }

    fn build_as(
        &self,
        source: &Source,
        sandbox: &Sandbox,
        slot: usize,
        trust: Trust,
    ) -> Result<Built, BuildError> {
        let language = &source.language;
        let (main, files, own) = read_files(source)?;
        // A sandboxed build's entry is never a trusted build's, nor one
        // cached before builds were sandboxed: a name with a NUL byte in
        // the key, which no file can have.
        let key = match trust {
            Trust::Untrusted => cache::key(language, &format!("{main}\0sandboxed"), &files),
            Trust::Trusted => cache::key(language, &main, &files),
        };
        let shown = source.path.display().to_string();
        // The cache as checked (the judge's own, closed to others), else a
        // private one for this run.
        let cache_root = crate::exec::cache_dir::checked(&self.cache);
        let cache = cache::Cache::new(&cache_root);
        if let Some(entry) = cache.lookup(&key) {
            let mut executable = self.executable(language, &entry, true, None, &shown)?;
            executable.build_dir = needs_dir(language, &files).then(|| entry.dir.clone());
            executable.included_data = working_files(&files[..own], &entry.dir);
            executable
                .included_data
                .extend(self.included_data(&files[own..], &entry.dir));
            return Ok(Built::Ready(executable));
        }
        // The tools must exist before anything is staged.
        let missing = |role: &'static str, tool: String| BuildError::MissingTool {
            path: shown.clone(),
            language: language.name.clone(),
            title: language.title.clone(),
            role,
            tool,
            package: language.package.clone(),
        };
        let interpreter_words = match &language.interpreter {
            Some(command) => Some(split(command)?),
            None => None,
        };
        for (role, tool) in language.required_tools() {
            resolve_program(&tool).map_err(|_| missing(role, tool.clone()))?;
        }
        // A resolved name is not a working toolchain (`env`, a `gcc`
        // without `cc1obj`): a probe build decides (see [`probe`]).
        self.probe(language, sandbox, slot, &cache_root, &shown)?;
        // The cache's copy of the sources is the judge's own, written here.
        let staging = cache
            .stage()
            .map_err(|e| BuildError::Internal(e.to_string()))?;
        for (rel, bytes) in &files {
            let path = staging.path().join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    BuildError::Internal(format!("cannot write {}: {e}", parent.display()))
                })?;
            }
            std::fs::write(&path, bytes).map_err(|e| {
                BuildError::Internal(format!("cannot write {}: {e}", path.display()))
            })?;
        }
        let started = Instant::now();
        let interpreter = match &interpreter_words {
            Some(words) => match self.resolve_interpreter(words, sandbox, slot)? {
                Ok(path) => Some(path),
                Err(message) => {
                    return Err(BuildError::BrokenTool {
                        path: shown.clone(),
                        language: language.name.clone(),
                        title: language.title.clone(),
                        role: "interpreter",
                        tool: words[0].clone(),
                        reason: message
                            .to_string()
                            .lines()
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                    });
                }
            },
            None => None,
        };
        let step = CompileStep {
            language,
            main: &main,
            files: &files,
            interpreter: interpreter.as_deref(),
            shown: &shown,
        };
        let failed = match trust {
            Trust::Untrusted => self.compile_sandboxed(&step, sandbox, slot, staging.path())?,
            Trust::Trusted => self.compile_trusted(&step, sandbox, slot, staging.path())?,
        };
        if let Some(error) = failed {
            return Ok(Built::CompileError(error));
        }
        let compile_time = started.elapsed();
        let entry = cache
            .commit(staging, &key, &main, interpreter.as_deref(), language)
            .map_err(|e| BuildError::Internal(e.to_string()))?;
        let mut executable =
            self.executable(language, &entry, false, Some(compile_time), &shown)?;
        executable.build_dir = needs_dir(language, &files).then(|| entry.dir.clone());
        executable.included_data = working_files(&files[..own], &entry.dir);
        executable
            .included_data
            .extend(self.included_data(&files[own..], &entry.dir));
        Ok(Built::Ready(executable))
    }

    /// The compile step of a trusted build: the compiler in the staging
    /// directory, as the judge. A compile error, or `None` when it built.
    fn compile_trusted(
        &self,
        step: &CompileStep<'_>,
        sandbox: &Sandbox,
        slot: usize,
        dir: &Path,
    ) -> Result<Option<CompileError>, BuildError> {
        if step.language.compile.is_none() {
            return Ok(None);
        }
        // In a directory of the judge's private one, the only place a
        // package's program may write; what it made is copied out.
        let build = sandbox
            .tool_build_dir()
            .map_err(|e| BuildError::Internal(e.to_string()))?;
        for (rel, bytes) in step.files {
            build
                .write(rel, bytes)
                .map_err(|e| BuildError::Internal(e.to_string()))?;
        }
        let Some(words) = step.words(build.path())? else {
            return Ok(None);
        };
        let program = resolve_program(&words[0]).map_err(|_| step.missing(&words[0]))?;
        let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
        let outcome = launch_build(
            sandbox,
            slot,
            &program,
            &args,
            Some(build.path()),
            self.compile_time_limit,
        )
        .map_err(|e| match e {
            RunError::Interrupted => BuildError::Interrupted,
            RunError::Internal(m) => BuildError::Internal(m),
        })?;
        let limits = crate::exec::Limits::build(self.compile_time_limit);
        if let Some(error) = compile_error(&outcome, &limits, &step.places(build.path())) {
            return Ok(Some(error));
        }
        let sources: Vec<&str> = step.files.iter().map(|(rel, _)| rel.as_str()).collect();
        build
            .collect(dir, &sources)
            .map_err(|e| BuildError::Internal(format!("{}: {e}", step.shown)))?;
        Ok(None)
    }

    /// Of a package's included files (`included`, as staged in `dir`),
    /// those that are data, not code: no language's source, no header.
    /// The 2025-09 format has a test case's `NAME.files/` copied into the
    /// submission's working directory "possibly overwriting the compiled
    /// submission file or included data": the working directory holds the
    /// included data, so a submission reads `include/default/data.txt` as
    /// `./data.txt`. Code needs no copy (it is built in, or imported from
    /// the build directory), and copying nothing keeps a run's directory
    /// empty, to be reused (see `sandbox::workdir`).
    fn included_data(&self, included: &[StagedFile], dir: &Path) -> Vec<(PathBuf, PathBuf)> {
        const HEADERS: [&str; 6] = ["h", "hh", "hpp", "hxx", "inc", "tcc"];
        included
            .iter()
            .filter(|(rel, _)| {
                let ext = Path::new(rel).extension().and_then(|e| e.to_str());
                !ext.is_some_and(|e| {
                    HEADERS.contains(&e)
                        || self
                            .languages
                            .iter()
                            .any(|l| l.extensions.iter().any(|x| x == e))
                })
            })
            .map(|(rel, _)| (dir.join(rel), PathBuf::from(rel)))
            .collect()
    }

    /// Run a compiler or interpreter of the toolchain (trusted, under the
    /// compile limits) with no input.
    fn run_tool(
        &self,
        sandbox: &Sandbox,
        slot: usize,
        program: &std::path::Path,
        args: &[OsString],
    ) -> Result<crate::exec::RunOutcome, BuildError> {
        launch_build(sandbox, slot, program, args, None, self.compile_time_limit).map_err(|e| {
            match e {
                RunError::Interrupted => BuildError::Interrupted,
                RunError::Internal(m) => BuildError::Internal(m),
            }
        })
    }

    /// The probe build of `language` (see [`probe`]): `BrokenTool` when
    /// the toolchain cannot build our tiny program, so that the
    /// submission `shown` is not run here rather than CE.
    fn probe(
        &self,
        language: &Language,
        sandbox: &Sandbox,
        slot: usize,
        cache_dir: &Path,
        shown: &str,
    ) -> Result<(), BuildError> {
        if language.compile.is_none() || language.interpreter.is_some() {
            return Ok(());
        }
        let (Some((file, text)), Some(identity)) =
            (probe::program(&language.name), probe::identity(language))
        else {
            return Ok(());
        };
        let mut stopped = None;
        let probed = probe::remembered(&identity, cache_dir, || {
            let files = vec![(file.to_string(), text.as_bytes().to_vec())];
            let step = CompileStep {
                language,
                main: file,
                files: &files,
                interpreter: None,
                shown,
            };
            let out = tempfile::tempdir()
                .map_err(|e| probe::ProbeFailure::NoDirectory(std::sync::Arc::new(e)))?;
            match self.compile_trusted(&step, sandbox, slot, out.path()) {
                Ok(None) => Ok(()),
                Ok(Some(error)) => {
                    let said = error
                        .message
                        .strip_prefix("compile error: ")
                        .unwrap_or(&error.message)
                        .to_string();
                    Err(probe::ProbeFailure::Refused {
                        title: language.title.clone(),
                        said,
                    })
                }
                Err(e) => {
                    let said = e.to_string();
                    stopped = Some(e);
                    Err(probe::ProbeFailure::Build(said))
                }
            }
        });
        if let Some(e) = stopped {
            return Err(e);
        }
        probed.map_err(|failure| BuildError::BrokenTool {
            path: shown.to_string(),
            language: language.name.clone(),
            title: language.title.clone(),
            role: "compiler",
            tool: language
                .required_tools()
                .into_iter()
                .map(|(_, t)| t)
                .next()
                .unwrap_or_default(),
            reason: failure.to_string(),
        })
    }

    /// Run the interpreter command; its first output line is the path.
    fn resolve_interpreter(
        &self,
        words: &[String],
        sandbox: &Sandbox,
        slot: usize,
    ) -> Result<Result<PathBuf, InterpreterError>, BuildError> {
        let program =
            resolve_program(&words[0]).map_err(|e| BuildError::Internal(e.to_string()))?;
        let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
        let outcome = self.run_tool(sandbox, slot, &program, &args)?;
        if !outcome.exit.success() || outcome.limit_hit.is_some() {
            return Ok(Err(InterpreterError::Failed {
                exit: outcome.exit.describe(),
                stderr: String::from_utf8_lossy(&outcome.stderr_tail)
                    .trim()
                    .to_string(),
            }));
        }
        let stdout = outcome.stdout.text().head(4096);
        let stdout = String::from_utf8_lossy(&stdout);
        let path = PathBuf::from(stdout.lines().next().unwrap_or("").trim());
        if !path.is_absolute() || !path.exists() {
            return Ok(Err(InterpreterError::NotAPath(path)));
        }
        Ok(Ok(path))
    }

    /// The run command of a cache entry.
    fn executable(
        &self,
        language: &Language,
        entry: &cache::Entry,
        from_cache: bool,
        compile_time: Option<Duration>,
        shown: &str,
    ) -> Result<Executable, BuildError> {
        let main_bytes = crate::exec::bounded_read::read_package_file(
            &entry.dir.join(&entry.source_name),
            staging::SOURCE_CAP,
        )
        .unwrap_or_default();
        let mut places = Places::new(&entry.dir, &entry.source_name, language, &main_bytes);
        places.interpreter = entry.interpreter.clone();
        let words: Vec<String> = split(&language.run)?
            .iter()
            .flat_map(|w| places.expand(w))
            .collect();
        let program = resolve_sandboxed_program(&words[0]).map_err(|e| {
            BuildError::Internal(format!(
                "{shown}: the {} run command {:?}: {e}",
                language.name, language.run
            ))
        })?;
        Ok(Executable {
            program,
            args: words[1..].iter().map(OsString::from).collect(),
            display: shlex::try_join(words.iter().map(String::as_str))
                .unwrap_or_else(|_| words.join(" ")),
            from_cache,
            compile_time,
            address_space: language.address_space,
            build_dir: None,
            included_data: Vec::new(),
        })
    }
}

/// The runner of a program that was not built: a compile error's cases are
/// judged CE without running (see `judge::Program::compile_error`), so this
/// never runs anything.
pub struct NotBuilt;

impl crate::exec::Runner for NotBuilt {
    fn run(
        &self,
        _request: &crate::exec::RunRequest<'_>,
    ) -> Result<crate::exec::RunOutcome, RunError> {
        Err(RunError::Internal(
            "a submission that did not compile cannot run".to_string(),
        ))
    }
}
