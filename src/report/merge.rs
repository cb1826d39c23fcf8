//! `judge merge`: join the JSON reports of shards (`--partition`) into the
//! report one unsharded run would have written. Cases are ordered by their
//! `index` (their position in the whole run), so the merge does not depend
//! on the order the files are given in.

use crate::judge::{CaseResult, Report, RunInfo};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why reports cannot be merged. Each names the file or the shards at
/// fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    Parse { path: PathBuf, source: ParseError },
    #[error("nothing to merge: give one or more JSON reports")]
    Nothing,
    /// The reports are not the shards of one run, each once (the message
    /// names them and what does not fit).
    #[error("{0}")]
    Shards(String),
    #[error(
        "case {case} (index {index}) is in both {first} and {second}: were the shards made with the same --partition?"
    )]
    Duplicate {
        case: String,
        index: usize,
        first: String,
        second: String,
    },
}

/// Why a file is not a JSON report this judge can read.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("line {line}, column {column}: not a JSON report: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("report version {0} is not supported (this judge reads version {current})", current = super::json::SCHEMA_VERSION)]
    Version(u64),
    #[error("not a judge JSON report (no \"version\" field)")]
    NoVersion,
    #[error("not a judge JSON report: {0}")]
    Schema(String),
}

/// Read and merge shard reports. Every problem (malformed JSON, a case in
/// two shards, an unknown version, a shard missing unless `partial`) is an
/// error naming the file.
pub fn merge_files(paths: &[&Path], partial: bool) -> Result<Report, MergeError> {
    let mut parsed = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|source| MergeError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let report = parse(&bytes).map_err(|source| MergeError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        parsed.push((path.to_path_buf(), report));
    }
    merge(
        parsed
            .into_iter()
            .map(|(p, r)| (p.display().to_string(), r))
            .collect(),
        partial,
    )
}

/// Parse one JSON report.
pub fn parse(bytes: &[u8]) -> Result<Report, ParseError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| ParseError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(super::json::SCHEMA_VERSION) => {}
        Some(v) => return Err(ParseError::Version(v)),
        None => return Err(ParseError::NoVersion),
    }
    serde_json::from_value(value).map_err(|e| ParseError::Schema(e.to_string()))
}

/// Merge parsed reports (named for messages). Reports of shards
/// (`--partition`) must be the whole set, each once: `count:1/3`,
/// `count:2/3` and `count:3/3`. With `partial`, a missing shard is a
/// warning in the merged report instead of an error.
pub fn merge(reports: Vec<(String, Report)>, partial: bool) -> Result<Report, MergeError> {
    if reports.is_empty() {
        return Err(MergeError::Nothing);
    }
    let missing = check_shards(&reports, partial)?;
    let mut by_index: BTreeMap<(usize, Option<String>), (String, CaseResult)> = BTreeMap::new();
    let mut info = RunInfo::default();
    let mut interrupted = false;
    let mut elapsed: f64 = 0.0;
    for (name, report) in reports {
        interrupted |= report.interrupted;
        elapsed = elapsed.max(report.elapsed_ms);
        for problem in report.info.problems {
            if !info.problems.iter().any(|p| p.name == problem.name) {
                info.problems.push(problem);
            }
        }
        for program in report.info.programs {
            if !info.programs.contains(&program) {
                info.programs.push(program);
            }
        }
        for line in report.info.protections.off {
            if !info.protections.off.contains(&line) {
                info.protections.off.push(line);
            }
        }
        if info.protections.on.is_empty() {
            info.protections.on = report.info.protections.on;
        }
        if info.protections.isolation.is_empty() {
            info.protections.isolation = report.info.protections.isolation;
        }
        info.warnings.extend(report.info.warnings);
        info.jobs = info.jobs.max(report.info.jobs);
        for case in report.cases {
            let key = (case.index, case.program.clone());
            if let Some((other, _)) = by_index.get(&key) {
                return Err(MergeError::Duplicate {
                    case: format!("{}/{}", case.problem, case.case),
                    index: case.index,
                    first: other.clone(),
                    second: name,
                });
            }
            by_index.insert(key, (name.clone(), case));
        }
    }
    let cases: Vec<CaseResult> = by_index.into_values().map(|(_, c)| c).collect();
    info.total = cases.len();
    if let Some(missing) = missing {
        info.warnings.push(missing);
    }
    // Scores are computed again from the merged cases, so shards add up
    // exactly as one run: a group's break or prerequisite sees every shard.
    Ok(Report::scored(
        info,
        cases,
        interrupted,
        Duration::from_secs_f64(elapsed / 1000.0),
    ))
}

/// The shards the reports are of: every report of a partitioned run must
/// name the same partition kind and count, and together cover each shard
/// once. Reports of unpartitioned runs are merged as they are (a case in
/// two of them is still an error). Returns the warning for missing shards
/// when `partial` lets them pass.
fn check_shards(reports: &[(String, Report)], partial: bool) -> Result<Option<String>, MergeError> {
    let mut kind_total: Option<(String, u64, &str)> = None;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (name, report) in reports {
        let Some(text) = &report.info.partition else {
            if let Some((_, _, first)) = &kind_total {
                return Err(MergeError::Shards(format!(
                    "{name} is not a shard (no --partition), but {first} is: merge the shards of one run"
                )));
            }
            continue;
        };
        let shard: crate::cases::Partition = text
            .parse()
            .map_err(|e| MergeError::Shards(format!("{name}: its partition: {e}")))?;
        let (kind, k, n) = match shard {
            crate::cases::Partition::Count { shard, total } => ("count", shard, total),
            crate::cases::Partition::Hash { shard, total } => ("hash", shard, total),
        };
        match &kind_total {
            None => {
                if let Some((other, _)) = reports.iter().find(|(_, r)| r.info.partition.is_none()) {
                    return Err(MergeError::Shards(format!(
                        "{other} is not a shard (no --partition), but {name} is: merge the shards of one run"
                    )));
                }
                kind_total = Some((kind.to_string(), n, name));
            }
            Some((first_kind, first_n, first)) if (first_kind.as_str(), *first_n) != (kind, n) => {
                return Err(MergeError::Shards(format!(
                    "{name} is shard {text}, but {first} is of {first_kind}:K/{first_n}: the shards come from different --partition settings"
                )));
            }
            Some(_) => {}
        }
        if let Some(other) = seen.insert(k, name) {
            return Err(MergeError::Shards(format!(
                "{other} and {name} are both shard {text}"
            )));
        }
    }
    let Some((kind, n, _)) = kind_total else {
        return Ok(None);
    };
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{kind}:{k}/{n}"))
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let list = missing.join(", ");
    if partial {
        Ok(Some(format!(
            "incomplete: shard{} {list} missing; this report covers only part of the run",
            if missing.len() == 1 { "" } else { "s" }
        )))
    } else {
        Err(MergeError::Shards(format!(
            "shard{} {list} missing: a merge of part of a run would look like a whole run (merge every shard, or pass --partial)",
            if missing.len() == 1 { "" } else { "s" }
        )))
    }
}
