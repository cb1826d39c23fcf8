//! `judge merge`: join the JSON reports of shards (`--partition`) into the
//! report one unsharded run would have written. Cases are ordered by their
//! `index` (their position in the whole run), so the merge does not depend
//! on the order the files are given in. Each report is read as a stream and
//! its cases spooled (`shard.rs`) as a sorted run (`runs.rs`); the merge
//! then reads the runs side by side, so a million cases merge in flat
//! memory. Runs are merged [`FAN_IN`] at a time as the reports are read, so
//! however many shards there are, at most a few hundred descriptors and
//! read buffers are in use at once.

use crate::judge::{CaseResult, Digest, Event, Report, Reporter, RunInfo};
use runs::{MergeFault, Run};
use shard::{Shard, ShardError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The longest run a merged report may claim: a year, in milliseconds.
const MAX_ELAPSED_MS: f64 = 365.0 * 86_400_000.0;

mod runs;
mod shard;

/// How many runs are merged at once: with a level of merged runs per
/// [`FAN_IN`]-fold more shards, 10,000 shards keep under 200 runs open.
const FAN_IN: usize = 64;

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
    #[error("cannot write the merged report: {0}")]
    Write(std::io::Error),
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

/// Shard reports read (their cases spooled), checked to be the shards of
/// one run, ready to be merged into a reporter.
pub struct Merger {
    /// The reports' headers (their runs taken into `levels`).
    shards: Vec<Shard>,
    /// The sorted runs not merged yet: `levels[k]` holds runs of up to
    /// FAN_IN^k reports, fewer than [`FAN_IN`] of each.
    levels: Vec<Vec<Run>>,
    /// The warning for missing shards, with `--partial`.
    missing: Option<String>,
}

impl Merger {
    /// Read every report (one case at a time, spooled) and check they are
    /// the shards of one run. Every problem (malformed JSON, an unknown
    /// version, a shard twice or missing unless `partial`) is an error
    /// naming the file.
    pub fn open(paths: &[&Path], partial: bool) -> Result<Merger, MergeError> {
        Merger::open_with(paths, partial, FAN_IN)
    }

    fn open_with(paths: &[&Path], partial: bool, fan_in: usize) -> Result<Merger, MergeError> {
        if paths.is_empty() {
            return Err(MergeError::Nothing);
        }
        // Best effort: a run of each level at once, beyond the default
        // soft limit only with tens of thousands of shards.
        raise_open_files_limit();
        let mut merger = Merger {
            shards: Vec::with_capacity(paths.len()),
            levels: Vec::new(),
            missing: None,
        };
        for (origin, path) in paths.iter().enumerate() {
            let file = std::fs::File::open(path).map_err(|source| MergeError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            let mut shard =
                Shard::read(path.display().to_string(), origin, file).map_err(|e| match e {
                    ShardError::Parse(source) => MergeError::Parse {
                        path: path.to_path_buf(),
                        source,
                    },
                    ShardError::Spool(source) => MergeError::Read {
                        path: path.to_path_buf(),
                        source,
                    },
                })?;
            // Its name known before its run merges (a duplicate found then
            // names both files).
            let run = shard.run.take();
            merger.shards.push(shard);
            if let Some(run) = run {
                merger.add(run, fan_in)?;
            }
        }
        let headers: Vec<(String, &Report, usize)> = merger
            .shards
            .iter()
            .map(|s| (s.name.clone(), &s.header, s.count))
            .collect();
        merger.missing = check_shards(&headers, partial)?;
        Ok(merger)
    }

    /// Add a report's run; a level full merges into one run of the next.
    fn add(&mut self, run: Run, fan_in: usize) -> Result<(), MergeError> {
        let mut run = run;
        let mut level = 0;
        loop {
            if self.levels.len() == level {
                self.levels.push(Vec::new());
            }
            self.levels[level].push(run);
            if self.levels[level].len() < fan_in {
                return Ok(());
            }
            let full = std::mem::take(&mut self.levels[level]);
            run = runs::combine(full).map_err(|f| self.fault(f))?;
            level += 1;
        }
    }

    /// A merge fault as the error naming its reports.
    fn fault(&self, fault: MergeFault) -> MergeError {
        let name = |origin: usize| {
            self.shards
                .get(origin)
                .map_or_else(|| format!("report {}", origin + 1), |s| s.name.clone())
        };
        match fault {
            MergeFault::Io(source) => MergeError::Read {
                path: PathBuf::from("a temporary file of the merge"),
                source,
            },
            MergeFault::Duplicate {
                case,
                first,
                second,
            } => MergeError::Duplicate {
                case: format!("{}/{}", case.problem, case.case),
                index: case.index,
                first: name(first),
                second: name(second),
            },
        }
    }

    /// Feed the merged run to `reporter`: its start, every case once in
    /// case order (by index in the whole run, whatever order the files
    /// were given in), its end. Memory stays flat unless a problem is
    /// scored: its graders see every case of a program, as in a run, so
    /// such a merge holds them. Returns the merged report (without its
    /// cases unless scored).
    pub fn run(mut self, reporter: &mut dyn Reporter) -> Result<Report, MergeError> {
        let (info, interrupted, elapsed) = self.info();
        let scored = info.problems.iter().any(|p| p.scoring.is_some());
        let write = MergeError::Write;
        if scored {
            let mut cases = Vec::with_capacity(info.total);
            self.each_case(|case| {
                cases.push(case);
                Ok(())
            })?;
            // Scores are computed again from the merged cases, so shards
            // add up exactly as one run: a group's break or prerequisite
            // sees every shard.
            let report = Report::scored(info, cases, interrupted, elapsed);
            reporter
                .event(&Event::Started(&report.info))
                .map_err(write)?;
            for case in &report.cases {
                reporter.event(&Event::CaseSettled(case)).map_err(write)?;
            }
            reporter.event(&Event::Finished(&report)).map_err(write)?;
            return Ok(report);
        }
        reporter.event(&Event::Started(&info)).map_err(write)?;
        let mut digest = Digest::default();
        self.each_case(|case| {
            digest.add(&case);
            reporter.event(&Event::CaseSettled(&case)).map_err(write)
        })?;
        let report = Report::from_digest(info, digest, Vec::new(), interrupted, elapsed);
        reporter.event(&Event::Finished(&report)).map_err(write)?;
        Ok(report)
    }

    /// The merged run's information (problems, programs, protections,
    /// warnings, workers, total), whether any shard was interrupted, and
    /// the longest shard's time.
    fn info(&self) -> (RunInfo, bool, Duration) {
        let mut info = RunInfo::default();
        // Each shard's distinct `cores` (a summary may itself hold "; ").
        let mut cores: Vec<String> = Vec::new();
        let mut interrupted = false;
        let mut elapsed: f64 = 0.0;
        for shard in &self.shards {
            let report = &shard.header;
            interrupted |= report.interrupted;
            // A report is a file anyone may have written: a time that is no
            // time (NaN, negative, 1e300) counts for nothing, and none is
            // taken past a year, so that it fits a `Duration`.
            if report.elapsed_ms.is_finite() && report.elapsed_ms >= 0.0 {
                elapsed = elapsed.max(report.elapsed_ms.min(MAX_ELAPSED_MS));
            }
            let theirs = &report.info;
            for problem in &theirs.problems {
                if !info.problems.iter().any(|p| p.name == problem.name) {
                    info.problems.push(problem.clone());
                }
            }
            for program in &theirs.programs {
                if !info.programs.contains(program) {
                    info.programs.push(program.clone());
                }
            }
            for line in &theirs.protections.off {
                if !info.protections.off.contains(line) {
                    info.protections.off.push(line.clone());
                }
            }
            if info.protections.on.is_empty() {
                info.protections.on = theirs.protections.on.clone();
            }
            if info.protections.isolation.is_empty() {
                info.protections.isolation = theirs.protections.isolation.clone();
            }
            if !theirs.cores.is_empty() && !cores.contains(&theirs.cores) {
                cores.push(theirs.cores.clone());
            }
            info.warnings.extend(theirs.warnings.iter().cloned());
            info.jobs = info.jobs.max(theirs.jobs);
        }
        info.cores = cores.join(" | ");
        info.total = self.shards.iter().map(|s| s.count).sum();
        if let Some(missing) = &self.missing {
            info.warnings.push(missing.clone());
        }
        (info, interrupted, Duration::from_secs_f64(elapsed / 1000.0))
    }

    /// Every case of every shard once, in case order: a k-way merge of the
    /// runs left. A case in two shards is an error naming both.
    fn each_case(
        &mut self,
        mut f: impl FnMut(CaseResult) -> Result<(), MergeError>,
    ) -> Result<(), MergeError> {
        let left: Vec<Run> = std::mem::take(&mut self.levels)
            .into_iter()
            .flatten()
            .collect();
        let mut failed = None;
        let merged = runs::merge(left, |_, case| {
            f(case).map_err(|e| {
                failed = Some(e);
                MergeFault::Io(std::io::Error::other("stopped"))
            })
        });
        match (failed, merged) {
            (Some(e), _) => Err(e),
            (None, Err(fault)) => Err(self.fault(fault)),
            (None, Ok(())) => Ok(()),
        }
    }
}

/// Raise the soft limit on open descriptors to the hard limit (best effort:
/// if it cannot be raised, a merge of very many shards says "Too many open
/// files" naming the shard).
fn raise_open_files_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        let _ = setrlimit(Resource::Nofile, raised);
    }
}

/// Parse one JSON report whole (its cases kept).
pub fn parse(bytes: &[u8]) -> Result<Report, ParseError> {
    let mut cases = Vec::new();
    let mut report = shard::parse(bytes, |case| cases.push(case))?;
    report.cases = cases;
    Ok(report)
}

/// The shards the reports are of: every report of a partitioned run must
/// name the same partition kind and count, and together cover each shard
/// once. Reports of unpartitioned runs are merged as they are (a case in
/// two of them is still an error). Returns the warning for missing shards
/// when `partial` lets them pass.
fn check_shards(
    reports: &[(String, &Report, usize)],
    partial: bool,
) -> Result<Option<String>, MergeError> {
    let mut kind_total: Option<(String, u64, &str)> = None;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (name, report, _) in reports {
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
                if let Some((other, _, _)) =
                    reports.iter().find(|(_, r, _)| r.info.partition.is_none())
                {
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
        return whole_run(reports);
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

/// Every shard there: each says how many cases the whole run has, and
/// their cases must add up to it (a shard with a case cut out of its report
/// would otherwise merge as a run without that case). Shards of a judge
/// that did not say are taken as they are.
fn whole_run(reports: &[(String, &Report, usize)]) -> Result<Option<String>, MergeError> {
    let mut said: Option<(usize, &str)> = None;
    for (name, report, _) in reports {
        let Some(cases) = report.info.run_cases else {
            return Ok(None);
        };
        match said {
            Some((first, first_name)) if first != cases => {
                return Err(MergeError::Shards(format!(
                    "{name} is of a run of {cases} cases, {first_name} of one of {first}: the shards come from different runs"
                )));
            }
            _ => said = Some((cases, name)),
        }
    }
    let Some((run, _)) = said else {
        return Ok(None);
    };
    let merged: usize = reports.iter().map(|(_, _, count)| count).sum();
    if merged != run {
        return Err(MergeError::Shards(format!(
            "the shards hold {merged} cases, but their run has {run}: a report is cut short or altered (judge the missing shard again)"
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::FileSink;
    use crate::report::json::JsonReporter;

    fn report(indices: &[usize]) -> String {
        let cases: Vec<String> = indices
            .iter()
            .map(|i| {
                format!(
                    r#"{{"index":{i},"problem":"p","case":"{i}.in","verdict":"AC","message":"ok","cpu_ms":1.0,"wall_ms":1.0,"peak_rss_kib":null,"memory_source":"none","tl_ratio":0.001,"time_limit_ms":1000.0}}"#
                )
            })
            .collect();
        format!(
            r#"{{"cases":[{}],"verdict":"AC","summary":{{"AC":{}}},"total":{},"jobs":1,"programs":[],"problems":[{{"name":"p","check":"tokens","time_limit_ms":1000.0,"memory_limit_kib":null}}],"protections":{{"isolation":"plain","on":[],"off":[]}},"interrupted":false,"elapsed_ms":1.0,"version":1}}"#,
            cases.join(","),
            indices.len(),
            indices.len()
        )
    }

    fn merged(files: &[(&str, String)]) -> Result<Vec<usize>, MergeError> {
        merged_with(files, FAN_IN)
    }

    fn merged_with(files: &[(&str, String)], fan_in: usize) -> Result<Vec<usize>, MergeError> {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|(name, text)| {
                let path = dir.path().join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let sink = FileSink::memory();
        let mut reporter = JsonReporter::new(Box::new(sink.clone()));
        let merged = Merger::open_with(&refs, false, fan_in)?.run(&mut reporter)?;
        drop(reporter);
        assert!(merged.cases.is_empty(), "an unscored merge keeps no cases");
        let whole = parse(&sink.bytes()).unwrap();
        assert_eq!(whole.info.total, whole.cases.len());
        Ok(whole.cases.iter().map(|c| c.index).collect())
    }

    #[test]
    fn shards_cores_are_listed_once_each() {
        let with_cores = |indices: &[usize], cores: &str| {
            report(indices).replacen(
                r#""jobs":1,"#,
                &format!(r#""jobs":1,"cores":"{cores}","#),
                1,
            )
        };
        let one = "each slot on a core of its own; programs on the judge's 2 CPUs";
        let other = "left to the scheduler (--no-pin)";
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (name, text) in [
            ("a.json", with_cores(&[0], one)),
            ("b.json", with_cores(&[1], one)),
            ("c.json", with_cores(&[2], other)),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            paths.push(path);
        }
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let sink = FileSink::memory();
        let mut reporter = JsonReporter::new(Box::new(sink.clone()));
        Merger::open_with(&refs, false, FAN_IN)
            .unwrap()
            .run(&mut reporter)
            .unwrap();
        drop(reporter);
        let whole = parse(&sink.bytes()).unwrap();
        assert_eq!(whole.info.cores, format!("{one} | {other}"));
    }

    #[test]
    fn cases_of_unpartitioned_reports_interleave_by_index() {
        let got = merged(&[
            ("a.json", report(&[0, 2, 5])),
            ("b.json", report(&[1, 3, 4])),
        ]);
        assert_eq!(got.unwrap(), [0, 1, 2, 3, 4, 5]);
    }

    /// Thirteen reports merged three runs at a time: runs of nine, three
    /// and one report meet in the last merge, in case order; a case in two
    /// reports names both files, whether found in a merge while reading
    /// (s2 with s0) or in the last one (s12 with s0).
    #[test]
    fn many_reports_merge_level_by_level() {
        let names: Vec<String> = (0..13).map(|k| format!("s{k}.json")).collect();
        let files: Vec<(&str, String)> = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let mine: Vec<usize> = (0..60).filter(|i| i % 13 == k).collect();
                (name.as_str(), report(&mine))
            })
            .collect();
        assert_eq!(merged_with(&files, 3).unwrap(), (0..60).collect::<Vec<_>>());
        for (k, extra) in [(2, vec![0, 2, 15]), (12, vec![0, 12, 25])] {
            let mut twice = files.clone();
            twice[k].1 = report(&extra);
            let err = merged_with(&twice, 3).unwrap_err().to_string();
            assert!(
                err.contains("case p/0.in (index 0) is in both")
                    && err.contains("s0.json")
                    && err.contains(&format!("s{k}.json")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_report_out_of_case_order_is_sorted() {
        let got = merged(&[("a.json", report(&[4, 0, 2])), ("b.json", report(&[3, 1]))]);
        assert_eq!(got.unwrap(), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_case_in_two_reports_names_both() {
        let err = merged(&[("a.json", report(&[0, 1])), ("b.json", report(&[1, 2]))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("case p/1.in (index 1) is in both"), "{err}");
        assert!(err.contains("a.json") && err.contains("b.json"), "{err}");
    }

    #[test]
    fn a_report_of_another_version_says_so_whatever_its_cases() {
        let text = report(&[0]).replace(r#""version":1"#, r#""version":2"#);
        let text = text.replace(r#""verdict":"AC","message""#, r#""verdict":7,"message""#);
        let err = parse(text.as_bytes()).unwrap_err();
        assert!(matches!(err, ParseError::Version(2)), "{err}");
        let bad_case =
            report(&[0]).replace(r#""verdict":"AC","message""#, r#""verdict":7,"message""#);
        let err = parse(bad_case.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("a case:"), "{err}");
    }
}
