//! What `judge gen PACKAGE` says: failures and a summary line on stderr,
//! `--dry-run`'s plan, and the JSON report (`--format json` on stdout,
//! `--report FILE` written atomically) listing every case with its
//! command, seed, cache hit, validation and time.

use super::make::Made;
use super::manifest::{Manifest, Summary};
use crate::commands::{Failure, Outcome};
use crate::formats::generators::{CaseSource, GenPlan};
use crate::report::write_atomically;
use crate::text::format::plural;
use crate::verdict::ExitCode;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where the JSON report goes.
#[derive(Default)]
pub(super) struct JsonTarget {
    pub(super) stdout: bool,
    pub(super) file: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    problem: String,
    data: String,
    cases: Vec<JsonCase<'a>>,
    made: usize,
    unchanged: usize,
    failed: usize,
    files_written: usize,
}

#[derive(Serialize)]
struct JsonCase<'a> {
    name: String,
    path: String,
    source: &'a str,
    command: Option<&'a str>,
    seed: Option<u32>,
    included_from: Option<String>,
    cache_hit: bool,
    validation: &'a str,
    error: Option<String>,
    files: Vec<String>,
    time_ms: f64,
}

/// Failures and the summary on stderr, the JSON report where asked; the
/// exit code.
pub(super) fn finish(
    root: &Path,
    data: &Path,
    made: &[Made],
    summary: &Summary,
    json: &JsonTarget,
) -> Outcome {
    let failed: Vec<&Made> = made.iter().filter(|m| m.files.is_err()).collect();
    for m in &failed {
        match &m.files {
            // Its message names the file, the line and the entry.
            Err(e) if m.kind == "skipped" => crate::commands::stdout::say!("{e}"),
            Err(e) => crate::commands::stdout::say!("data/{}: {e}", m.path.display()),
            Ok(_) => {}
        }
    }
    for r in &summary.refused {
        crate::commands::stdout::say!("{r}");
    }
    let cached = made.iter().filter(|m| m.cached).count();
    let kept = kept_from_data(made);
    let fresh = made.len() - cached - failed.len() - kept;
    crate::commands::stdout::say!(
        "{} case{}: {fresh} made, {cached} unchanged (nothing run), {}{} failed; {} file{} written, {} already as made",
        made.len(),
        plural(made.len()),
        if kept == 0 {
            String::new()
        } else {
            format!("{kept} hand-made in data/ (empty entries), ")
        },
        failed.len(),
        summary.written,
        plural(summary.written),
        summary.unchanged
    );
    if json.stdout || json.file.is_some() {
        let report = JsonReport {
            version: 1,
            problem: root.display().to_string(),
            data: data.display().to_string(),
            cases: made.iter().map(|m| json_case(m, data)).collect(),
            made: fresh,
            unchanged: cached,
            failed: failed.len(),
            files_written: summary.written,
        };
        let mut bytes =
            serde_json::to_vec_pretty(&report).map_err(|e| Failure::Internal(e.to_string()))?;
        bytes.push(b'\n');
        if let Some(file) = &json.file {
            write_atomically(file, &bytes).map_err(|e| {
                Failure::Internal(format!("--report {}: cannot write: {e}", file.display()))
            })?;
        }
        if json.stdout {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&bytes);
        }
    }
    if failed.is_empty() && summary.refused.is_empty() {
        Ok(ExitCode::Ok)
    } else {
        Ok(ExitCode::Failed)
    }
}

/// The hand-made cases of empty entries that were read (their files are
/// the author's; only a missing answer is made for them).
pub(super) fn kept_from_data(made: &[Made]) -> usize {
    made.iter()
        .filter(|m| m.kind == "manual" && m.files.is_ok())
        .count()
}

fn json_case<'a>(m: &'a Made, data: &Path) -> JsonCase<'a> {
    let mut files: Vec<String> = match &m.files {
        Ok(f) => f
            .keys()
            .map(|ext| format!("{}.{ext}", data.join(&m.path).display()))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    JsonCase {
        name: m
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: data.join(&m.path).display().to_string(),
        source: m.kind,
        command: m.command.as_deref(),
        seed: m.seed,
        included_from: m.from.as_ref().map(|f| data.join(f).display().to_string()),
        cache_hit: m.cached,
        validation: if m.cached { "unchanged" } else { m.validation },
        error: m.files.as_ref().err().map(ToString::to_string),
        files,
        time_ms: m.time.as_secs_f64() * 1000.0,
    }
}

/// `--dry-run`: each case, how it would be made, whether it was made before.
pub(super) fn dry_run(plan: &GenPlan, manifest: &Manifest) -> Outcome {
    for case in &plan.cases {
        let how = match &case.source {
            CaseSource::Generate { command, seed, .. } => {
                format!("generate: {command} (seed {seed})")
            }
            CaseSource::Builtin { command, seed, .. } => {
                format!("built in: {command} (seed {seed})")
            }
            CaseSource::Copy(p) => format!("copy: {}", p.display()),
            CaseSource::Inline => "inline".to_string(),
            CaseSource::Manual => format!(
                "kept: data/{}.in as it is (an empty entry)",
                case.path.display()
            ),
        };
        let before = manifest.key_of(&case.path).is_some();
        crate::commands::stdout::outln!(
            "data/{}: {how}{}",
            case.path.display(),
            if before { " (made before)" } else { "" }
        );
    }
    for inc in &plan.includes {
        crate::commands::stdout::outln!(
            "data/{}: include data/{}",
            inc.path.display(),
            inc.from.display()
        );
    }
    for (path, _) in &plan.group_files {
        crate::commands::stdout::outln!("data/{}: group settings", path.display());
    }
    for e in &plan.skipped {
        crate::commands::stdout::outln!("{e}: not made");
    }
    Ok(if plan.skipped.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Failed
    })
}
