//! What program a submission means: a command line as it is, or a source
//! file (or a directory holding one) built by its language's rules into a
//! command line. Between `commands` and `exec`: it compiles, it never judges.
//!
//! Languages come from [`builtin_languages`] (C, C++, Rust, Python 3, Free
//! Pascal) as judge.toml's `[language.NAME]` tables change them. A command
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

pub mod cache;

use crate::exec::process::{Launch, Trust, launch, resolve_program, resolve_sandboxed_program};
use crate::exec::sandbox::Sandbox;
use crate::exec::{Limits, RunError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to build and run sources of one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    /// `c`, `cpp`, `rust`, `python`, `pascal`, or a judge.toml name.
    pub name: String,
    /// File extensions without the dot (`cpp`, `cc`).
    pub extensions: Vec<String>,
    /// The compile command template, if the language compiles.
    pub compile: Option<String>,
    /// The run command template.
    pub run: String,
    /// A command whose first output line is the interpreter's absolute path
    /// (`{interpreter}`), resolved at build time.
    pub interpreter: Option<String>,
}

/// The built-in languages (README "Source submissions").
pub fn builtin_languages() -> Vec<Language> {
    let language = |name: &str, extensions: &[&str], compile: &str, run: &str| Language {
        name: name.to_string(),
        extensions: extensions.iter().map(|e| e.to_string()).collect(),
        compile: Some(compile.to_string()),
        run: run.to_string(),
        interpreter: None,
    };
    vec![
        language(
            "c",
            &["c"],
            "gcc -O2 -std=gnu11 -o {bin} {src} -lm",
            "{bin}",
        ),
        language(
            "cpp",
            &["cpp", "cc", "cxx", "c++"],
            "g++ -O2 -std=gnu++17 -o {bin} {src}",
            "{bin}",
        ),
        language(
            "rust",
            &["rs"],
            "rustc -O --edition 2021 -o {bin} {src}",
            "{bin}",
        ),
        Language {
            interpreter: Some("python3 -c 'import sys; print(sys.executable)'".to_string()),
            ..language(
                "python",
                &["py"],
                // A syntax check that writes nothing beside the source.
                "{interpreter} -c 'import sys; compile(open(sys.argv[1], \"rb\").read(), sys.argv[1], \"exec\")' {src}",
                "{interpreter} {src}",
            )
        },
        language("pascal", &["pas", "pp"], "fpc -O2 -o{bin} {src}", "{bin}"),
    ]
}

/// A source submission: the file and its language.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub language: Language,
}

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
    /// The compiler or interpreter is not installed.
    #[error(
        "{path}: the {language} {role} `{tool}` is not installed (not found on PATH); install it, or set [language.{language}] in judge.toml"
    )]
    MissingTool {
        path: String,
        language: String,
        role: &'static str,
        tool: String,
    },
    #[error("interrupted")]
    Interrupted,
    #[error("{0}")]
    Internal(String),
}

/// How long one compilation may take (CPU and wall clock) unless judge.toml
/// says otherwise.
pub const DEFAULT_COMPILE_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Why a path is not a submission the judge can build.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("--language {name:?}: unknown language (known: {})", .known.join(", "))]
    UnknownLanguage { name: String, known: Vec<String> },
    #[error("{}: cannot read the directory: {reason}", .dir.display())]
    Unreadable { dir: PathBuf, reason: String },
    #[error("{}: a directory with no source file in it (known extensions: {})", .dir.display(), .extensions.join(" "))]
    NoSource {
        dir: PathBuf,
        extensions: Vec<String>,
    },
    #[error("{}: a directory with {} source files ({}); a submission is one source", .dir.display(), .files.len(), .files.join(", "))]
    SeveralSources { dir: PathBuf, files: Vec<String> },
}

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

    /// The language of a file, by its extension.
    pub fn language_of(&self, path: &Path) -> Option<&Language> {
        let ext = path.extension()?.to_str()?;
        self.languages
            .iter()
            .find(|l| l.extensions.iter().any(|e| e == ext))
    }

    /// The language called `name` (`--language`).
    pub fn language_named(&self, name: &str) -> Result<&Language, SourceError> {
        self.languages
            .iter()
            .find(|l| l.name == name)
            .ok_or_else(|| SourceError::UnknownLanguage {
                name: name.to_string(),
                known: self.languages.iter().map(|l| l.name.clone()).collect(),
            })
    }

    /// The source a path means: a file with a known extension, or a
    /// directory holding exactly one such file (hidden files aside).
    /// `Ok(None)`: not a source (a command line, or a file to run as it is).
    pub fn find_source(&self, path: &Path) -> Result<Option<Source>, SourceError> {
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(None);
        };
        if meta.is_file() {
            return Ok(self.language_of(path).map(|language| Source {
                path: path.to_path_buf(),
                language: language.clone(),
            }));
        }
        if !meta.is_dir() {
            return Ok(None);
        }
        let entries = std::fs::read_dir(path).map_err(|e| SourceError::Unreadable {
            dir: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        let mut sources: Vec<Source> = Vec::new();
        for entry in entries.flatten() {
            let file = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if hidden || !file.is_file() {
                continue;
            }
            if let Some(language) = self.language_of(&file) {
                sources.push(Source {
                    path: file,
                    language: language.clone(),
                });
            }
        }
        sources.sort_by(|a, b| a.path.cmp(&b.path));
        match sources.len() {
            1 => Ok(sources.pop()),
            0 => Err(SourceError::NoSource {
                dir: path.to_path_buf(),
                extensions: self
                    .languages
                    .iter()
                    .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
                    .collect(),
            }),
            _ => Err(SourceError::SeveralSources {
                dir: path.to_path_buf(),
                files: sources
                    .iter()
                    .filter_map(|s| s.path.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .collect(),
            }),
        }
    }

    /// Build a source (or take it from the cache). `slot` is the sandbox
    /// worker slot the compiler runs in.
    pub fn build(
        &self,
        source: &Source,
        sandbox: &Sandbox,
        slot: usize,
    ) -> Result<Built, BuildError> {
        let bytes = std::fs::read(&source.path).map_err(|e| {
            BuildError::Internal(format!("cannot read {}: {e}", source.path.display()))
        })?;
        let language = &source.language;
        let mut file_name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "source".to_string());
        // A source of a forced language (`--language`) gets the language's
        // extension, which compilers go by.
        let ext = source.path.extension().and_then(|e| e.to_str());
        if let Some(first) = language.extensions.first()
            && !ext.is_some_and(|e| language.extensions.iter().any(|l| l == e))
        {
            let stem = source
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "source".to_string());
            file_name = format!("{stem}.{first}");
        }
        let key = cache::key(language, &file_name, &bytes);
        let shown = source.path.display().to_string();
        let cache = cache::Cache::new(&self.cache);
        if let Some(entry) = cache.lookup(&key) {
            let executable = self.executable(language, &entry, true, None, &shown)?;
            return Ok(Built::Ready(executable));
        }
        // The tools must exist before anything is staged.
        let missing = |role: &'static str, tool: String| BuildError::MissingTool {
            path: shown.clone(),
            language: language.name.clone(),
            role,
            tool,
        };
        let interpreter_words = match &language.interpreter {
            Some(command) => Some(split(command)?),
            None => None,
        };
        if let Some(words) = &interpreter_words {
            resolve_program(&words[0]).map_err(|_| missing("interpreter", words[0].clone()))?;
        }
        if let Some(compile) = &language.compile {
            let first = &split(compile)?[0];
            if !first.contains('{') {
                resolve_program(first).map_err(|_| missing("compiler", first.clone()))?;
            }
        }
        let staging = cache.stage().map_err(BuildError::Internal)?;
        let src = staging.path().join(&file_name);
        std::fs::write(&src, &bytes)
            .map_err(|e| BuildError::Internal(format!("cannot write {}: {e}", src.display())))?;
        let mut places = Places::new(staging.path(), &file_name);
        let started = Instant::now();
        if let Some(words) = &interpreter_words {
            match self.resolve_interpreter(words, sandbox, slot)? {
                Ok(path) => places.interpreter = Some(path),
                Err(message) => {
                    return Err(BuildError::Internal(format!(
                        "{shown}: the {} interpreter command {:?} failed: {message}",
                        language.name,
                        language.interpreter.as_deref().unwrap_or_default()
                    )));
                }
            }
        }
        if let Some(compile) = &language.compile {
            let words: Vec<String> = split(compile)?
                .iter()
                .map(|w| places.substitute(w))
                .collect();
            let program =
                resolve_program(&words[0]).map_err(|_| missing("compiler", words[0].clone()))?;
            let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
            let outcome = self.run_tool(sandbox, slot, &program, &args)?;
            if let Some(error) = compile_error(&outcome, self.compile_time_limit, &places) {
                return Ok(Built::CompileError(error));
            }
        }
        let compile_time = started.elapsed();
        let entry = cache
            .commit(
                staging,
                &key,
                &file_name,
                places.interpreter.as_deref(),
                language,
            )
            .map_err(BuildError::Internal)?;
        let executable = self.executable(language, &entry, false, Some(compile_time), &shown)?;
        Ok(Built::Ready(executable))
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
        launch(
            sandbox,
            &Launch {
                program,
                args,
                stdin: None,
                limits: &self.compile_limits(),
                slot,
                trust: Trust::Trusted,
            },
        )
        .map_err(|e| match e {
            RunError::Interrupted => BuildError::Interrupted,
            RunError::Internal(m) => BuildError::Internal(m),
        })
    }

    fn compile_limits(&self) -> Limits {
        Limits {
            time: self.compile_time_limit,
            wall: self.compile_time_limit,
            // Compilers reserve much address space (rustc, LLVM): no RLIMIT_AS.
            memory: None,
            stack: None,
            output: 1 << 20,
            file_size: 1 << 30,
            processes: 512,
        }
    }

    /// Run the interpreter command; its first output line is the path.
    fn resolve_interpreter(
        &self,
        words: &[String],
        sandbox: &Sandbox,
        slot: usize,
    ) -> Result<Result<PathBuf, String>, BuildError> {
        let program =
            resolve_program(&words[0]).map_err(|e| BuildError::Internal(e.to_string()))?;
        let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
        let outcome = self.run_tool(sandbox, slot, &program, &args)?;
        if !outcome.exit.success() || outcome.limit_hit.is_some() {
            return Ok(Err(format!(
                "{}: {}",
                outcome.exit.describe(),
                String::from_utf8_lossy(&outcome.stderr_tail).trim()
            )));
        }
        let stdout = String::from_utf8_lossy(&outcome.stdout);
        let path = PathBuf::from(stdout.lines().next().unwrap_or("").trim());
        if !path.is_absolute() || !path.exists() {
            return Ok(Err(format!(
                "it printed {:?}, not the absolute path of an interpreter",
                path.display().to_string()
            )));
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
        let mut places = Places::new(&entry.dir, &entry.source_name);
        places.interpreter = entry.interpreter.clone();
        let words: Vec<String> = split(&language.run)?
            .iter()
            .map(|w| places.substitute(w))
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
        })
    }
}

fn split(command: &str) -> Result<Vec<String>, BuildError> {
    shlex::split(command)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| BuildError::Internal(format!("{command:?} is not a command line")))
}

/// The values of a template's placeholders.
struct Places {
    src: String,
    bin: String,
    dir: String,
    interpreter: Option<PathBuf>,
}

impl Places {
    fn new(dir: &Path, file_name: &str) -> Places {
        let stem = Path::new(file_name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program".to_string());
        Places {
            src: dir.join(file_name).to_string_lossy().into_owned(),
            bin: dir.join(stem).to_string_lossy().into_owned(),
            dir: dir.to_string_lossy().into_owned(),
            interpreter: None,
        }
    }

    fn substitute(&self, word: &str) -> String {
        let mut out = word
            .replace("{src}", &self.src)
            .replace("{bin}", &self.bin)
            .replace("{dir}", &self.dir);
        if let Some(i) = &self.interpreter {
            out = out.replace("{interpreter}", &i.to_string_lossy());
        }
        out
    }
}

/// How many lines of the compiler's output a compile error keeps.
const COMPILE_OUTPUT_LINES: usize = 30;

/// A compile error from a finished compiler run, or `None` if it built.
fn compile_error(
    outcome: &crate::exec::RunOutcome,
    limit: Duration,
    places: &Places,
) -> Option<CompileError> {
    let timed_out = matches!(
        outcome.limit_hit,
        Some(crate::exec::LimitHit::Cpu | crate::exec::LimitHit::Wall)
    );
    if outcome.exit.success() && outcome.limit_hit.is_none() {
        return None;
    }
    // The staging directory's path means nothing to the user: show names.
    let mut text = String::from_utf8_lossy(&outcome.stderr_tail).into_owned();
    if text.trim().is_empty() {
        let stdout = &outcome.stdout[outcome.stdout.len().saturating_sub(4096)..];
        text = String::from_utf8_lossy(stdout).into_owned();
    }
    let text = text.replace(&format!("{}/", places.dir), "");
    let lines: Vec<&str> = text.lines().collect();
    let output = lines[lines.len().saturating_sub(COMPILE_OUTPUT_LINES)..].join("\n");
    let message = if timed_out {
        format!(
            "compile error: compilation passed the compile time limit of {}",
            crate::units::Span(limit)
        )
    } else {
        let first = lines
            .iter()
            .find(|l| l.to_ascii_lowercase().contains("error"))
            .or_else(|| lines.iter().find(|l| !l.trim().is_empty()))
            .map(|l| l.trim().to_string());
        match first {
            Some(line) if line.chars().count() > 200 => format!(
                "compile error: {}…",
                line.chars().take(200).collect::<String>()
            ),
            Some(line) => format!("compile error: {line}"),
            None => format!(
                "compile error: the compiler ended with {}",
                outcome.exit.describe()
            ),
        }
    };
    Some(CompileError { message, output })
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
