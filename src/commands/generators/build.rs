//! Every generator and solution a plan uses, built once (in parallel), and
//! the default solution when the file names none.

use crate::config::generators::{CaseSource, GenPlan};
use crate::exec::sandbox::Sandbox;
use crate::submission::{Built, Toolchain};
use crate::text::constants::Constants;
use rayon::prelude::*;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A program ready to run: its command line.
#[derive(Clone)]
pub(super) struct Ready {
    pub(super) program: PathBuf,
    pub(super) args: Vec<OsString>,
    /// What keeps a program built by its own `build` script alive.
    pub(super) _keep: Option<Arc<crate::check::tool::Ready>>,
}

/// A path from the problem root → its command line, or why it cannot run.
pub(super) type Programs = HashMap<PathBuf, Result<Ready, String>>;

/// The solution for cases under no `solution:` key, as BAPCtools picks it:
/// an accepted submission (BAPCtools takes one at random and writes it into
/// generators.yaml; the judge takes the first by name and says so).
pub(super) fn default_solution(plan: &GenPlan, accepted: &Path) -> Option<PathBuf> {
    if !plan.needs_default_solution {
        return None;
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(accepted)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    found.sort();
    let first = found.into_iter().next()?;
    let rel = first
        .strip_prefix(&plan.root)
        .map(Path::to_path_buf)
        .unwrap_or(first);
    crate::commands::stdout::say!(
        "warning: generators.yaml names no solution: the answers come from /{} (the first accepted submission; say `solution: /…` to choose)",
        rel.display()
    );
    Some(rel)
}

pub(super) fn build_programs(
    plan: &GenPlan,
    default: Option<&Path>,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    constants: Option<&Arc<Constants>>,
) -> Programs {
    let mut wanted: Vec<PathBuf> = Vec::new();
    for case in &plan.cases {
        if let CaseSource::Generate { program, .. } = &case.source {
            wanted.push(program.clone());
        }
        if let Some(s) = &case.solution {
            wanted.push(s.clone());
        }
    }
    if let Some(d) = default {
        wanted.push(d.to_path_buf());
    }
    wanted.sort();
    wanted.dedup();
    wanted
        .par_iter()
        .enumerate()
        .map(|(slot, rel)| {
            // A solution is one of the package's submissions, whose
            // constants are replaced (2025-09); a generator's are too, as
            // BAPCtools replaces them (its `constants` test problem's
            // generator prints `{{INT_FIVE}}` for a 5).
            let built = build_one(plan, rel, toolchain, sandbox, slot, constants);
            (rel.clone(), built)
        })
        .collect()
}

fn build_one(
    plan: &GenPlan,
    rel: &Path,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    slot: usize,
    constants: Option<&Arc<Constants>>,
) -> Result<Ready, String> {
    let path = plan.root.join(rel);
    // A program (or a named generator's files) that resolves outside the
    // package is refused, not built: generation reads only inside it.
    let confine = super::confine::Confine::new(&plan.root)?;
    let listed: Vec<PathBuf> = match plan.generators.get(rel) {
        Some(files) => files.iter().map(|f| plan.root.join(f)).collect(),
        None => vec![path.clone()],
    };
    for file in &listed {
        if std::fs::symlink_metadata(file).is_ok() {
            confine.check(file)?;
        }
    }
    // A program directory with `build` and/or `run` scripts is built and
    // run as the format says (BAPCtools' `dir_build`, `dir_run`).
    if !plan.generators.contains_key(rel)
        && path.is_dir()
        && (path.join("build").is_file() || path.join("run").is_file())
    {
        // Absolute: the generator runs in a fresh working directory.
        let dir = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
        let built =
            crate::check::tool::checker_program(&crate::check::tool::Source::Path(dir), sandbox)
                .map_err(|e| format!("{}: {e}", rel.display()))?;
        let mut argv = built.argv.clone().into_iter();
        let program = argv
            .next()
            .map(PathBuf::from)
            .ok_or_else(|| format!("{}: no program to run", rel.display()))?;
        return Ok(Ready {
            program,
            args: argv.collect(),
            _keep: Some(Arc::new(built)),
        });
    }
    // A named multi-file generator is its listed files alone, the first
    // the entry point ("built by copying the list of files into a new
    // directory … The first dependency listed will be used to determine the
    // entry point"): not every source beside them in generators/.
    let found = match plan.generators.get(rel) {
        Some(files) => listed_source(plan, rel, files, toolchain).map(Some),
        None => toolchain.find_source(&path).map_err(|e| e.to_string()),
    };
    let found = found.map(|source| {
        source.map(|mut s| {
            s.constants = constants.cloned();
            s
        })
    });
    match found {
        Ok(Some(source)) => match toolchain.build_trusted(&source, sandbox, slot) {
            Ok(Built::Ready(exe)) => Ok(Ready {
                program: exe.program,
                args: exe.args,
                _keep: None,
            }),
            Ok(Built::CompileError(e)) => Err(format!("{}: {}", rel.display(), e.message)),
            Err(e) => Err(e.to_string()),
        },
        Ok(None) if path.is_file() => Ok(Ready {
            program: std::path::absolute(&path).unwrap_or(path),
            args: Vec::new(),
            _keep: None,
        }),
        Ok(None) => Err(format!("{}: no such program", rel.display())),
        Err(e) => Err(e),
    }
}

/// The source of a named generator: its files (relative to the generators
/// directory), the first one the main file and its language the build's.
fn listed_source(
    plan: &GenPlan,
    rel: &Path,
    files: &[std::path::PathBuf],
    toolchain: &Toolchain,
) -> Result<crate::submission::Source, String> {
    let dir = plan.root.join(&plan.generators_dir);
    let named = |what: &str| format!("generators.{}: {what}", rel.display());
    let relative: Vec<std::path::PathBuf> = files
        .iter()
        .map(|f| {
            f.strip_prefix(&plan.generators_dir)
                .ok()
                .filter(|r| {
                    r.components()
                        .all(|c| matches!(c, std::path::Component::Normal(_)))
                })
                .map(Path::to_path_buf)
                .ok_or_else(|| {
                    named(&format!(
                        "{} is not in the generators directory",
                        f.display()
                    ))
                })
        })
        .collect::<Result<_, _>>()?;
    for f in &relative {
        if !dir.join(f).is_file() {
            return Err(named(&format!("{}: no such file", dir.join(f).display())));
        }
    }
    let main = relative.first().ok_or_else(|| named("no files"))?.clone();
    let language = toolchain
        .language_of(&dir.join(&main))
        .ok_or_else(|| {
            named(&format!(
                "{}: not a source of a known language",
                main.display()
            ))
        })?
        .clone();
    let mut sorted = relative;
    sorted.sort();
    Ok(crate::submission::Source {
        path: dir,
        language,
        files: sorted,
        main,
        includes: Vec::new(),
        constants: None,
    })
}
