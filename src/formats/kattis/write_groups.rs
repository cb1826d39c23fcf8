//! The group files of an exported package: each source group file with
//! its keys renamed for the target version (`input_validator_flags` ↔
//! `input_validator_args`, `output_validator_flags` ↔
//! `output_validator_args`), and the scoring keys written from the
//! package's scoring plan in the target's model: legacy/2023-07 grader
//! keys (`grader_flags`, `accept_score`, `on_reject`) or 2025-09
//! `max_score`/`score_aggregation`/`require_pass`.

use super::source::{Source, number};
use crate::formats::Notes;
use crate::formats::error::{FormatError, Place};
use crate::formats::kattis::FormatVersion;
use crate::formats::kattis::groups::SCORING_KEYS;
use crate::score::subtasks::{Aggregation, Subtasks};
use crate::score::{Graders, ScoreMode, ScoringPlan};
use serde_norway::{Mapping, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn key(k: &str) -> Value {
    Value::String(k.to_string())
}

/// Every group file of the export: its directory under `data/` and keys.
pub fn group_files(
    src: &Source,
    version: FormatVersion,
    notes: &mut Notes,
) -> Result<Vec<(PathBuf, Mapping)>, FormatError> {
    let data = src.root.join("data");
    let graders_target = version != FormatVersion::V2025_09;
    let keep_raw_scoring =
        graders_target && matches!(src.package.scoring, Some(ScoringPlan::Graders(_)));
    let mut files: BTreeMap<PathBuf, Mapping> = BTreeMap::new();
    for g in src.package.groups.iter().filter(|g| g.dir.is_dir()) {
        let Some(file) = g.files.last() else { continue };
        let rel = g
            .dir
            .strip_prefix(&data)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let raw = read_raw(src, version, file)?;
        let mut out = Mapping::new();
        for (k, v) in raw {
            let Some(name) = k.as_str() else { continue };
            match name {
                "input_validator_flags" | "input_validator_args" => {
                    let to = if version == FormatVersion::Legacy {
                        "input_validator_flags"
                    } else {
                        "input_validator_args"
                    };
                    out.insert(key(to), words_value(&v, version));
                }
                "output_validator_flags" | "output_validator_args" => {
                    let to = if version == FormatVersion::Legacy {
                        "output_validator_flags"
                    } else {
                        "output_validator_args"
                    };
                    let mut words = crate::formats::kattis::groups::words(&v).map_err(|e| {
                        FormatError::key(Place::file(file), name, None, format!("{name}: {e}"))
                    })?;
                    if version != FormatVersion::Legacy {
                        let mut all = src.package.validator_flags.clone();
                        all.append(&mut words);
                        words = all;
                    }
                    out.insert(key(to), joined(&words, version));
                }
                "args" if version != FormatVersion::V2025_09 => notes.push(format!(
                    "{}: args (the submission's arguments): 2025-09's; {} has none, left out",
                    file.display(),
                    version.name()
                )),
                k if SCORING_KEYS.contains(&k) => {
                    if keep_raw_scoring {
                        out.insert(key(k), v);
                    } else if src.package.scoring.is_none() {
                        notes.push(format!(
                            "{}: {k}: a scoring key on a pass-fail problem; left out",
                            file.display()
                        ));
                    }
                }
                _ => {
                    out.insert(key(name), v);
                }
            }
        }
        files.insert(rel, out);
    }
    if version != FormatVersion::Legacy && !src.package.validator_flags.is_empty() {
        let root = files.entry(PathBuf::new()).or_default();
        if !root.contains_key("output_validator_args") {
            root.insert(
                key("output_validator_args"),
                joined(&src.package.validator_flags, version),
            );
        }
    }
    match (&src.package.scoring, graders_target) {
        (Some(ScoringPlan::Subtasks(s)), false) => subtasks_keys(s, &mut files),
        (Some(ScoringPlan::Subtasks(s)), true) => subtasks_as_graders(src, s, &mut files, notes),
        (Some(ScoringPlan::Graders(g)), false) => graders_as_subtasks(src, g, &mut files, notes),
        _ => {}
    }
    Ok(files.into_iter().filter(|(_, m)| !m.is_empty()).collect())
}

fn read_raw(src: &Source, version: FormatVersion, file: &Path) -> Result<Mapping, FormatError> {
    let bytes = crate::exec::bounded_read::read_package_file(
        file,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|source| FormatError::Read {
        path: file.to_path_buf(),
        source,
    })?;
    let bytes = if version == FormatVersion::V2025_09 {
        bytes
    } else {
        src.package.constants.substitute(&bytes).into_owned()
    };
    let text = String::from_utf8_lossy(&bytes);
    if text.trim().is_empty() {
        return Ok(Mapping::new());
    }
    match serde_norway::from_str::<Value>(crate::text::without_bom(&text)) {
        Ok(Value::Mapping(m)) => Ok(m),
        Ok(_) => Err(FormatError::rule(
            Place::file(file),
            "expected a mapping of keys",
        )),
        Err(e) => Err(FormatError::yaml(file, &e)),
    }
}

/// Arguments as the version writes them: a string in legacy, a list after.
fn joined(words: &[String], version: FormatVersion) -> Value {
    if version == FormatVersion::Legacy {
        key(&shlex::try_join(words.iter().map(String::as_str)).unwrap_or_default())
    } else {
        Value::Sequence(words.iter().map(|w| key(w)).collect())
    }
}

/// Input validator arguments: for all (words) or by validator (a map).
fn words_value(v: &Value, version: FormatVersion) -> Value {
    match v {
        Value::Mapping(m) => Value::Mapping(
            m.iter()
                .map(|(k, v)| {
                    let words = crate::formats::kattis::groups::words(v).unwrap_or_default();
                    (k.clone(), joined(&words, version))
                })
                .collect(),
        ),
        other => joined(
            &crate::formats::kattis::groups::words(other).unwrap_or_default(),
            version,
        ),
    }
}

fn max_value(max: Option<f64>) -> Value {
    max.map_or_else(|| key("unbounded"), number)
}

fn rel_of(name: &str) -> PathBuf {
    PathBuf::from(name)
}

/// 2025-09 keys from subtasks: secret's and each group's own.
fn subtasks_keys(s: &Subtasks, files: &mut BTreeMap<PathBuf, Mapping>) {
    let mut put = |name: &str, max: Option<f64>, agg: Aggregation, require: &[String]| {
        let m = files.entry(rel_of(name)).or_default();
        m.insert(key("max_score"), max_value(max));
        m.insert(key("score_aggregation"), key(agg.name()));
        if !require.is_empty() {
            m.insert(
                key("require_pass"),
                Value::Sequence(require.iter().map(|r| key(r)).collect()),
            );
        }
    };
    put(
        &s.total.name,
        s.total.max_score,
        s.total.aggregation,
        &s.total.require_pass,
    );
    for g in &s.groups {
        put(&g.name, g.max_score, g.aggregation, &g.require_pass);
    }
}

/// The cases (`.in` files) under `data/name`.
fn cases_under(src: &Source, name: &str) -> usize {
    crate::exec::links::walk_once(&src.root.join("data").join(name))
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "in"))
        .count()
}

/// Legacy/2023-07 grader keys that score as the subtasks do: a pass-fail
/// or min group of M points is `grader_flags: min` with `accept_score: M`;
/// a sum group of M points over n cases is `grader_flags: sum` with
/// `accept_score: M/n`; every group judged to the end (`on_reject:
/// continue`); the root ignores the samples.
fn subtasks_as_graders(
    src: &Source,
    s: &Subtasks,
    files: &mut BTreeMap<PathBuf, Mapping>,
    notes: &mut Notes,
) {
    let root = files.entry(PathBuf::new()).or_default();
    root.insert(key("on_reject"), key("continue"));
    root.insert(key("grader_flags"), key("ignore_sample"));
    let sample = files.entry(PathBuf::from("sample")).or_default();
    sample.insert(key("grader_flags"), key("sum"));
    sample.insert(key("accept_score"), number(0.0));
    let mut put = |name: &str,
                   max: Option<f64>,
                   agg: Aggregation,
                   own_cases: bool,
                   notes: &mut Notes| {
        let m = files.entry(rel_of(name)).or_default();
        let n = cases_under(src, name).max(1) as f64;
        match (agg, max) {
            (_, None) => {
                m.insert(key("grader_flags"), key("sum"));
            }
            (Aggregation::PassFail | Aggregation::Min, Some(max)) => {
                m.insert(key("grader_flags"), key("min"));
                if own_cases {
                    m.insert(key("accept_score"), number(max));
                } else if agg == Aggregation::PassFail {
                    notes.push(format!("data/{name}: score_aggregation pass-fail over groups: the grader has no such mode; written as min"));
                }
            }
            (Aggregation::Sum, Some(max)) => {
                m.insert(key("grader_flags"), key("sum"));
                if own_cases {
                    m.insert(key("accept_score"), number(max / n));
                }
            }
        }
    };
    put(
        &s.total.name,
        s.total.max_score,
        s.total.aggregation,
        s.groups.is_empty(),
        notes,
    );

    for g in &s.groups {
        put(&g.name, g.max_score, g.aggregation, true, notes);
        for r in &g.require_pass {
            notes.push(format!(
                "data/{}: require_pass {r}: the grader has no prerequisites; left out (the group is judged whatever {r} got)",
                g.name
            ));
        }
    }
    for r in &s.total.require_pass {
        notes.push(format!(
            "data/secret: require_pass {r}: the grader has no prerequisites; left out"
        ));
    }
    // A submission with some points is accepted by the grader, as a
    // partial solution is in 2025-09 (its score says how far it got).
    if let Some(Value::String(flags)) = files
        .get_mut(&rel_of(&s.total.name))
        .and_then(|m| m.get_mut("grader_flags"))
    {
        flags.push_str(" accept_if_any_accepted");
    }
}

/// 2025-09 keys from grader keys, where a group's grading has a subtask's
/// meaning (see `subtasks_as_graders`, which this undoes).
fn graders_as_subtasks(
    src: &Source,
    g: &Graders,
    files: &mut BTreeMap<PathBuf, Mapping>,
    notes: &mut Notes,
) {
    let custom = src.package.output_validator.is_some();
    let Some(secret) = g.root.groups.iter().find(|x| x.name == "secret") else {
        return;
    };
    if let Some(sample) = g.root.groups.iter().find(|x| x.name == "sample")
        && !g.root.settings.ignore_sample
        && sample.settings.accept_score != 0.0
        && cases_under(src, "sample") > 0
    {
        notes.push("data/sample: the legacy grader counts the samples' scores; 2025-09 never scores sample".to_string());
    }
    let one = |grp: &crate::score::GraderGroup, notes: &mut Notes| -> (f64, Aggregation) {
        let s = &grp.settings;
        let n = cases_under(src, &grp.name) as f64;
        if s.reject_score != 0.0 {
            notes.push(format!(
                "data/{}: reject_score {}: 2025-09 scores a rejected case 0",
                grp.name, s.reject_score
            ));
        }
        if !grp.groups.is_empty() && grp.name != "secret" {
            notes.push(format!(
                "data/{}: groups inside a group: 2025-09 has none; graded as one group",
                grp.name
            ));
        }
        match s.score_mode {
            ScoreMode::Min | ScoreMode::Max => {
                if s.score_mode == ScoreMode::Max {
                    notes.push(format!(
                        "data/{}: grader_flags max: 2025-09 has no max aggregation; written as min",
                        grp.name
                    ));
                }
                let agg = if custom {
                    Aggregation::Min
                } else {
                    Aggregation::PassFail
                };
                (s.accept_score, agg)
            }
            ScoreMode::Sum | ScoreMode::Avg => {
                if s.on_reject_break {
                    notes.push(format!("data/{}: on_reject break in a sum: the grader stops at the first rejected case, 2025-09 counts every case", grp.name));
                }
                let max = if s.score_mode == ScoreMode::Avg {
                    s.accept_score
                } else {
                    s.accept_score * n
                };
                ((max * 1e6).round() / 1e6, Aggregation::Sum)
            }
        }
    };
    let mut total = 0.0;
    let mut smallest = f64::INFINITY;
    for grp in &secret.groups {
        let (max, agg) = one(grp, notes);
        total += max;
        smallest = smallest.min(max);
        let m = files.entry(rel_of(&grp.name)).or_default();
        m.insert(key("max_score"), number(max));
        m.insert(key("score_aggregation"), key(agg.name()));
    }
    let m = if secret.groups.is_empty() {
        let (max, agg) = one(secret, notes);
        (max, agg)
    } else {
        match secret.settings.score_mode {
            ScoreMode::Min => (smallest, Aggregation::Min),
            ScoreMode::Sum => ((total * 1e6).round() / 1e6, Aggregation::Sum),
            other => {
                notes.push(format!("data/secret: grader_flags {other:?} over groups: 2025-09 sums or takes the min; written as sum"));
                ((total * 1e6).round() / 1e6, Aggregation::Sum)
            }
        }
    };
    let top = files.entry(PathBuf::from("secret")).or_default();
    top.insert(key("max_score"), number(m.0));
    top.insert(key("score_aggregation"), key(m.1.name()));
}
