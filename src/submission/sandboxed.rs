//! The compile step of a submission's build, an untrusted run: the source
//! is the submission's, and a compiler does what it says — C's `.incbin`
//! and `#include`, Rust's `include_bytes!` read any file the compiler can
//! read, and print it into the program or into the error message. So the
//! compiler (or an interpreter's syntax check) runs as isolate and
//! DOMjudge run theirs: as the worker slot's user, in its mount namespace
//! (the cases, answers and judge files hidden), network and PID
//! namespaces, cgroup (memory, processes, CPU of every process), with a
//! scrubbed environment whose HOME and TMPDIR are its own directory, under
//! the compile limits ([`crate::exec::Limits::untrusted_build`]).
//!
//! The sources are written into a build directory of the slot's user in
//! the judge's scratch directory (`Sandbox::build_dir`); what the build
//! left there is copied into the cache's staging directory (regular files
//! and directories only, never through a symbolic link: see
//! `exec::sandbox::build_dir`), and only that is cached.

use super::{BuildError, CompileError, CompileStep, Toolchain, compile_error};
use crate::exec::RunError;
use crate::exec::process::launch_untrusted_build;
use crate::exec::runner::resolve_sandboxed_program;
use crate::exec::sandbox::Sandbox;
use std::ffi::OsString;
use std::path::Path;

impl Toolchain {
    /// The compile step of a submission's build, in the sandbox; what it
    /// made is copied into `staging`. A compile error (the compiler's, a
    /// limit it passed, or what it left that the judge refuses), or `None`
    /// when it built.
    pub(super) fn compile_sandboxed(
        &self,
        step: &CompileStep<'_>,
        sandbox: &Sandbox,
        slot: usize,
        staging: &Path,
    ) -> Result<Option<CompileError>, BuildError> {
        if step.language.compile.is_none() {
            return Ok(None);
        }
        let dir = sandbox
            .build_dir(slot)
            .map_err(|e| BuildError::Internal(e.to_string()))?;
        for (rel, bytes) in step.files {
            dir.write(rel, bytes)
                .map_err(|e| BuildError::Internal(e.to_string()))?;
        }
        let Some(words) = step.words(dir.path())? else {
            return Ok(None);
        };
        let program = self.sandboxed_compiler(step, sandbox, &words[0])?;
        let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
        let outcome =
            launch_untrusted_build(sandbox, &dir, &program, &args, self.compile_time_limit)
                .map_err(|e| match e {
                    RunError::Interrupted => BuildError::Interrupted,
                    RunError::Internal(m) => BuildError::Internal(m),
                })?;
        let limits = crate::exec::Limits::untrusted_build(self.compile_time_limit);
        if let Some(error) = compile_error(&outcome, &limits, &step.places(dir.path())) {
            return Ok(Some(error));
        }
        let sources: Vec<&str> = step.files.iter().map(|(rel, _)| rel.as_str()).collect();
        Ok(dir
            .collect(staging, &sources)
            .err()
            .map(|refused| CompileError {
                message: format!("compile error: {refused}"),
                output: String::new(),
            }))
    }

    /// The compiler (or interpreter) as a sandboxed build runs it: found
    /// first on the sandbox's PATH, as a submission's own command is. The
    /// language's interpreter is staged where the slot's users reach it,
    /// as for the submission's runs; any other compiler must be runnable
    /// by them where it is installed.
    fn sandboxed_compiler(
        &self,
        step: &CompileStep<'_>,
        sandbox: &Sandbox,
        word: &str,
    ) -> Result<std::path::PathBuf, BuildError> {
        let program = resolve_sandboxed_program(word).map_err(|_| step.missing(word))?;
        // A toolchain under a home the sandbox cannot reach is shown to it
        // read-only (rustup's `rustc`: `exec::sandbox::toolchains`).
        let name = program.file_name().and_then(|n| n.to_str()).unwrap_or(word);
        if let Some(exposed) = sandbox.exposed_tool(name) {
            return Ok(exposed);
        }
        if step.interpreter == Some(program.as_path()) {
            return sandbox
                .stage(&program)
                .map_err(|e| BuildError::Internal(e.to_string()));
        }
        if !sandbox.runnable_inside(&program) {
            return Err(BuildError::Unreachable {
                path: step.shown.to_string(),
                language: step.language.name.clone(),
                tool: program.display().to_string(),
            });
        }
        Ok(program)
    }
}
