//! `judge new PROBLEM`: a new problem package (a Kattis 2025-09 layout,
//! `formats::kattis::skeleton`) that `judge verify` passes as written.
//! The steps: the short name from the directory, refuse a directory that
//! holds anything, make the files, write them beside PROBLEM and rename
//! them into place, say what to do next.
//!
//! Decisions: an existing *empty* directory is used (a setter may make
//! it first); anything else there is never replaced (there is no
//! `--force`: `judge new` writes only a new problem). The short name
//! must be letters, digits, `-` and `_`; the Kattis format asks for
//! lowercase letters and digits only, which is a warning, not a refusal.

use crate::cli::NewArgs;
use crate::commands::stdout::{note, say};
use crate::commands::{Failure, Outcome};
use crate::formats::kattis::skeleton::{self, Kind};
use crate::formats::tree;
use crate::verdict::ExitCode;
use std::path::Path;

pub fn new(args: NewArgs) -> Outcome {
    let short = short_name(&args.dir)?;
    let replace_empty = refuse_occupied(&args.dir)?;
    let kind = kind(&args);
    let title = args.name.clone().unwrap_or_else(|| short.clone());
    let files = skeleton::skeleton(&title, &fresh_uuid(), kind);
    tree::place(&files, &args.dir, replace_empty, false).map_err(Failure::usage)?;
    next_steps(&args.dir, files.files.len(), kind);
    Ok(ExitCode::Ok)
}

fn kind(args: &NewArgs) -> Kind {
    if args.interactive {
        Kind::Interactive
    } else if args.checker {
        Kind::Checker
    } else {
        Kind::Standard
    }
}

/// The problem's short name: the directory's last component.
fn short_name(dir: &Path) -> Result<String, Failure> {
    let shown = crate::text::whitespace::shown_path(dir);
    let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
        return Err(Failure::Usage(format!(
            "{shown}: not a directory name a problem can have (judge new hello)"
        )));
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || !name.chars().all(allowed) || name.starts_with('-') {
        return Err(Failure::Usage(format!(
            "{shown}: the short name `{}` may hold only letters, digits, `-` and `_` (judge new hello)",
            crate::text::whitespace::shown_name(name)
        )));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        say!(
            "warning: {shown}: the Kattis format asks for a short name of lowercase letters and digits only; some systems refuse `{name}`"
        );
    }
    Ok(name.to_string())
}

/// Refuse a PROBLEM that exists and is not an empty directory; say
/// whether an empty one is there to be replaced.
fn refuse_occupied(dir: &Path) -> Result<bool, Failure> {
    let shown = crate::text::whitespace::shown_path(dir);
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return Ok(false);
    };
    let empty = meta.is_dir()
        && std::fs::read_dir(dir)
            .map(|mut entries| entries.next().is_none())
            .unwrap_or(false);
    if empty {
        return Ok(true);
    }
    Err(Failure::Usage(format!(
        "{shown}: exists and is not an empty directory; judge new writes only a new problem"
    )))
}

/// A random (version 4) UUID for problem.yaml.
fn fresh_uuid() -> String {
    uuid::Builder::from_random_bytes(rand::random())
        .into_uuid()
        .to_string()
}

fn next_steps(dir: &Path, files: usize, kind: Kind) {
    let shown = crate::text::whitespace::shown_path(dir);
    let what = match kind {
        Kind::Standard => "problem",
        Kind::Checker => "problem with a custom checker",
        Kind::Interactive => "interactive problem",
    };
    let problem_yaml = crate::formats::kattis::PROBLEM_YAML;
    note!("wrote a new {what} in {shown} ({files} files); next:");
    note!("  judge verify {shown}      makes data/ from the generators, judges every submission");
    note!("  judge validate {shown}    the inputs against the input validator");
    note!("  judge export {shown} --to domjudge {shown}.zip");
    note!(
        "edit {problem_yaml}, statement/, generators/, input_validators/ and submissions/ into your problem (docs/new-problem.md)"
    );
}
