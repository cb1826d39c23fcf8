//! Every generator and solution a plan uses, built once (in parallel), and
//! the default solution when the file names none.

use crate::config::generators::{CaseSource, GenPlan};
use crate::exec::sandbox::Sandbox;
use crate::submission::{Built, Toolchain};
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
    eprintln!(
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
        .map(|(slot, rel)| (rel.clone(), build_one(plan, rel, toolchain, sandbox, slot)))
        .collect()
}

fn build_one(
    plan: &GenPlan,
    rel: &Path,
    toolchain: &Toolchain,
    sandbox: &Arc<Sandbox>,
    slot: usize,
) -> Result<Ready, String> {
    let path = plan.root.join(rel);
    // A named multi-file generator is the directory of its files.
    let source_path = match plan.generators.get(rel) {
        Some(files) => files
            .first()
            .and_then(|f| plan.root.join(f).parent().map(Path::to_path_buf))
            .unwrap_or(path.clone()),
        None => path.clone(),
    };
    match toolchain.find_source(&source_path) {
        Ok(Some(source)) => match toolchain.build(&source, sandbox, slot) {
            Ok(Built::Ready(exe)) => Ok(Ready {
                program: exe.program,
                args: exe.args,
            }),
            Ok(Built::CompileError(e)) => Err(format!("{}: {}", rel.display(), e.message)),
            Err(e) => Err(e.to_string()),
        },
        Ok(None) if path.is_file() => Ok(Ready {
            program: std::path::absolute(&path).unwrap_or(path),
            args: Vec::new(),
        }),
        Ok(None) => Err(format!("{}: no such program", rel.display())),
        Err(e) => Err(e.to_string()),
    }
}
