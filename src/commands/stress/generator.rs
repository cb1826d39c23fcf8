//! `--generator CMD`: a source built by the toolchain or a command line,
//! run trusted as `CMD SEED` for each round's input.

use crate::commands::Failure;
use crate::exec::RunError;
use crate::exec::process::{Launch, Trust, launch};
use crate::exec::runner::{absolute_if_file, resolve_program};
use crate::exec::sandbox::Sandbox;
use crate::submission::{Built, Toolchain};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A `--generator`: a source (built) or a command line, run trusted as
/// `CMD SEED`.
pub(super) struct Generator {
    program: PathBuf,
    args: Vec<OsString>,
    display: String,
}

impl Generator {
    pub(super) fn new(
        text: &str,
        toolchain: &Toolchain,
        sandbox: &Sandbox,
    ) -> Result<Generator, Failure> {
        if let Some(source) = toolchain
            .find_source(Path::new(text))
            .map_err(Failure::usage)?
        {
            let source = with_sibling_headers(source);
            return match toolchain.build_trusted(&source, sandbox, 0) {
                Ok(Built::Ready(exe)) => Ok(Generator {
                    program: exe.program,
                    args: exe.args,
                    display: text.to_string(),
                }),
                Ok(Built::CompileError(e)) => Err(Failure::Usage(format!(
                    "the generator {text} does not compile: {}",
                    e.message
                ))),
                Err(e) => Err(Failure::Usage(e.to_string())),
            };
        }
        let words = shlex::split(text)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| Failure::Usage(format!("--generator {text:?} is not a command line")))?;
        let program = resolve_program(&words[0]).map_err(Failure::usage)?;
        Ok(Generator {
            program,
            // `python3 sgen.py`: the script named from the user's directory
            // (the generator runs in a private one).
            args: words[1..]
                .iter()
                .map(|w| OsString::from(absolute_if_file(w, Path::new("."))))
                .collect(),
            display: text.to_string(),
        })
    }

    /// The input for a seed.
    pub(super) fn input(&self, seed: u64, sandbox: &Sandbox) -> Result<Vec<u8>, Failure> {
        let mut args = self.args.clone();
        args.push(OsString::from(seed.to_string()));
        let limits = crate::exec::Limits {
            time: std::time::Duration::from_secs(30),
            wall: std::time::Duration::from_secs(60),
            memory: None,
            stack: None,
            output: 256 << 20,
            past_output: crate::exec::PastOutput::Kill,
            file_size: 1 << 30,
            processes: 64,
            writable_workdir: true,
        };
        let outcome = launch(
            sandbox,
            &Launch {
                program: &self.program,
                args: &args,
                stdin: None,
                limits: &limits,
                slot: 0,
                trust: Trust::Trusted,
                address_space: true,
                workdir: None,
                files: None,
                companions: &[],
                output_file: None,
            },
        )
        .map_err(|e| match e {
            RunError::Interrupted => Failure::Interrupted,
            RunError::Internal(m) => Failure::Internal(m),
        })?;
        if !outcome.exit.success() || outcome.limit_hit.is_some() {
            return Err(Failure::Usage(format!(
                "the generator `{} {seed}` failed: {}: {}",
                self.display,
                outcome.exit.describe(),
                String::from_utf8_lossy(&outcome.stderr_tail).trim()
            )));
        }
        outcome.stdout.into_bytes().map_err(|e| {
            Failure::Internal(format!(
                "the generator `{} {seed}`: cannot read its output back: {e}",
                self.display
            ))
        })
    }
}

/// A one-file generator builds with the headers beside it (`testlib.h` in
/// a Polygon package's `files/`, as Polygon compiles a source with its
/// resources): they are staged with the source, not compiled.
fn with_sibling_headers(mut source: crate::submission::Source) -> crate::submission::Source {
    if !source.path.is_file() {
        return source;
    }
    let Some(dir) = source.path.parent() else {
        return source;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return source;
    };
    let mut headers: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| PathBuf::from(e.file_name()))
        .filter(|name| {
            name.extension()
                .is_some_and(|x| x == "h" || x == "hpp" || x == "hh" || x == "hxx")
                && !name.to_string_lossy().starts_with('.')
                && !source.files.contains(name)
        })
        .collect();
    headers.sort();
    source.files.extend(headers);
    source
}
