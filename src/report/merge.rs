//! `judge merge`: join the JSON reports of shards (`--partition`) into the
//! report one unsharded run would have written. Cases are ordered by their
//! `index` (their position in the whole run), so the merge does not depend
//! on the order the files are given in.

use crate::judge::{CaseResult, Report, RunInfo};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Read and merge shard reports. Every problem (malformed JSON, a case in
/// two shards, an unknown version) is an error naming the file.
pub fn merge_files(paths: &[&Path]) -> Result<Report, String> {
    let mut parsed = Vec::new();
    for path in paths {
        let bytes =
            std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        parsed.push((
            path.to_path_buf(),
            parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?,
        ));
    }
    merge(
        parsed
            .into_iter()
            .map(|(p, r)| (p.display().to_string(), r))
            .collect(),
    )
}

/// Parse one JSON report.
pub fn parse(bytes: &[u8]) -> Result<Report, String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "line {}, column {}: not a JSON report: {e}",
            e.line(),
            e.column()
        )
    })?;
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(super::json::SCHEMA_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "report version {v} is not supported (this judge reads version {})",
                super::json::SCHEMA_VERSION
            ));
        }
        None => return Err("not a judge JSON report (no \"version\" field)".to_string()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a judge JSON report: {e}"))
}

/// Merge parsed reports (named for messages).
pub fn merge(reports: Vec<(String, Report)>) -> Result<Report, String> {
    if reports.is_empty() {
        return Err("nothing to merge: give one or more JSON reports".to_string());
    }
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
        info.warnings.extend(report.info.warnings);
        info.jobs = info.jobs.max(report.info.jobs);
        for case in report.cases {
            let key = (case.index, case.program.clone());
            if let Some((other, _)) = by_index.get(&key) {
                return Err(format!(
                    "case {}/{} (index {}) is in both {other} and {name}: were the shards made with the same --partition?",
                    case.problem, case.case, case.index
                ));
            }
            by_index.insert(key, (name.clone(), case));
        }
    }
    let cases: Vec<CaseResult> = by_index.into_values().map(|(_, c)| c).collect();
    info.total = cases.len();
    Ok(Report::new(
        info,
        cases,
        interrupted,
        Duration::from_secs_f64(elapsed / 1000.0),
    ))
}
