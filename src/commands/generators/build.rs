//! Every generator and solution a plan uses, built once (in parallel), and
//! the default solution when the file names none.

use crate::exec::sandbox::Sandbox;
use crate::formats::generators::{CaseSource, GenPlan};
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
    /// The directory named as generators.yaml names the program, which
    /// it runs from (see [`in_named_dir`]).
    pub(super) _dir: Option<Arc<tempfile::TempDir>>,
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
        "warning: {} names no solution: the answers come from /{} (the first accepted submission; say `solution: /…` to choose)",
        crate::formats::generators::FILE_NAME,
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
    // A program that is a link checked out as text (BAPCtools' `f -> y`)
    // is its target, named as the file names it.
    let written = plan.root.join(rel);
    let path = match crate::cases::text_link::resolve(&written, &plan.root) {
        Ok(Some(target)) => target,
        Ok(None) => written,
        Err(e) => return Err(e.to_string()),
    };
    refuse_outside(plan, rel, &path)?;
    // A program directory with `build` and/or `run` scripts is built and
    // run as the format says (BAPCtools' `dir_build`, `dir_run`).
    if !plan.generators.contains_key(rel)
        && path.is_dir()
        && (path.join("build").is_file() || path.join("run").is_file())
    {
        return script_directory(rel, &path, sandbox);
    }
    // A named multi-file generator is its listed files alone, the first
    // the entry point ("built by copying the list of files into a new
    // directory … The first dependency listed will be used to determine the
    // entry point"): not every source beside them in generators/.
    let found = match plan.generators.get(rel) {
        Some(files) => listed_source(plan, rel, files, toolchain).map(Some),
        None => toolchain.find_source(&path).map_err(|e| e.to_string()),
    };
    let found = found.and_then(|source| {
        source
            .map(|mut s| {
                s.constants = constants.cloned();
                // Its files that are links checked out as text (a header).
                s.links = crate::cases::text_link::links_in(&s.path, &plan.root)
                    .map_err(|e| e.to_string())?;
                Ok(s)
            })
            .transpose()
    });
    match found {
        Ok(Some(source)) => match toolchain.build_trusted(&source, sandbox, slot) {
            Ok(Built::Ready(exe)) => in_named_dir(
                Ready {
                    program: exe.program,
                    args: exe.args,
                    _keep: None,
                    _dir: None,
                },
                rel,
                toolchain,
                sandbox,
            ),
            Ok(Built::CompileError(e)) => Err(format!("{}: {}", rel.display(), e.message)),
            Err(e) => Err(e.to_string()),
        },
        Ok(None) if path.is_file() => Ok(Ready {
            program: std::path::absolute(&path).unwrap_or(path),
            args: Vec::new(),
            _keep: None,
            _dir: None,
        }),
        Ok(None) => Err(format!("{}: no such program", rel.display())),
        Err(e) => Err(e),
    }
}

/// A program (or a named generator's files) that resolves outside the
/// package is refused, not built: generation reads only inside it.
fn refuse_outside(plan: &GenPlan, rel: &Path, path: &Path) -> Result<(), String> {
    let confine = super::confine::Confine::new(&plan.root).map_err(|e| e.to_string())?;
    let listed: Vec<PathBuf> = match plan.generators.get(rel) {
        Some(files) => files.iter().map(|f| plan.root.join(f)).collect(),
        None => vec![path.to_path_buf()],
    };
    for file in &listed {
        if std::fs::symlink_metadata(file).is_ok() {
            confine.check(file).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A program directory with `build`/`run` scripts, built by them; run from
/// its absolute path (the generator runs in a fresh working directory).
fn script_directory(rel: &Path, path: &Path, sandbox: &Arc<Sandbox>) -> Result<Ready, String> {
    let dir = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let built =
        crate::check::tool::checker_program(&crate::check::tool::Source::Path(dir), sandbox)
            .map_err(|e| format!("{}: {e}", rel.display()))?;
    let mut argv = built.argv.clone().into_iter();
    let program = argv
        .next()
        .map(PathBuf::from)
        .ok_or_else(|| format!("{}: no program to run", rel.display()))?;
    Ok(Ready {
        program,
        args: argv.collect(),
        _keep: Some(Arc::new(built)),
        _dir: None,
    })
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
        links: Vec::new(),
    })
}

/// BAPCtools builds each program in a directory named as generators.yaml
/// names it (`generators/f/`, even when `f` is a link to `y`), and a
/// generator may read that name (its `identity` problem seeds from
/// `sys.argv[0]`'s directory): the built program's files are copied into
/// a fresh directory of that name in the judge's private directory, and
/// run from there. A program not built into the build cache runs as it is.
fn in_named_dir(
    mut ready: Ready,
    rel: &Path,
    toolchain: &Toolchain,
    sandbox: &Sandbox,
) -> Result<Ready, String> {
    let compiled = crate::exec::cache_dir::checked(&toolchain.cache).join("compile");
    let in_cache = |p: &Path| p.parent().and_then(Path::parent) == Some(compiled.as_path());
    let entry = std::iter::once(ready.program.clone())
        .chain(ready.args.iter().map(PathBuf::from))
        .find(|p| p.is_absolute() && p.is_file() && in_cache(p))
        .and_then(|p| p.parent().map(Path::to_path_buf));
    let (Some(entry), Some(name)) = (entry, rel.file_name()) else {
        return Ok(ready);
    };
    let failed = |e: std::io::Error| format!("{}: cannot stage its build: {e}", rel.display());
    let dir = tempfile::Builder::new()
        .prefix("program-")
        .tempdir_in(sandbox.private_dir())
        .map_err(failed)?;
    let named = dir.path().join(name);
    for found in walkdir::WalkDir::new(&entry).max_depth(8) {
        let found = found.map_err(|e| failed(e.into()))?;
        let below = found.path().strip_prefix(&entry).unwrap_or(found.path());
        let to = named.join(below);
        if found.file_type().is_dir() {
            std::fs::create_dir_all(&to).map_err(failed)?;
        } else if found.file_type().is_file() {
            std::fs::copy(found.path(), &to).map_err(failed)?;
        }
    }
    let moved = |p: &Path| match p.strip_prefix(&entry) {
        Ok(below) => named.join(below),
        Err(_) => p.to_path_buf(),
    };
    ready.program = moved(&ready.program);
    ready.args = ready
        .args
        .iter()
        .map(|a| moved(Path::new(a)).into_os_string())
        .collect();
    ready._dir = Some(Arc::new(dir));
    Ok(ready)
}
