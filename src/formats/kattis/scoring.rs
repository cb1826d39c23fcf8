//! A scoring package's grading, read into a `score::ScoringPlan`.
//!
//! - legacy and 2023-07 (`testdata.yaml`): every directory of `data/`
//!   under `sample` and `secret` is a group; its `on_reject`, `grading`,
//!   `grader_flags`, `accept_score`, `reject_score` and `range` are
//!   inherited key by key from the nearest file above (as problemtools
//!   merges them), with the format's defaults (`on_reject: break`, the
//!   default grader's `worst_error sum`, accept 1, reject 0, any range).
//!   `grading: custom` (a grader program) is refused for scoring, named.
//! - 2025-09 (`test_group.yaml`): `secret` and each directory directly in it
//!   is a test data group with its own `max_score` (100 for `secret`, else
//!   unbounded), `score_aggregation` (`sum` for `secret`, else
//!   `pass-fail`) and `require_pass` — not inherited, as the format says.
//!   The 2023-07 draft's `scoring: {score, aggregation, require_pass}` map
//!   is read as the same keys.
//!
//! On a pass-fail problem these keys are warned about and not used.

use crate::score::subtasks::Select;
use crate::score::{
    Aggregation, GraderGroup, GraderSettings, Graders, ScoringPlan, Subtask, Subtasks,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{FormatVersion, GroupSettings, groups};
use crate::formats::error::{FormatError, Place};

/// The plan of a scoring package.
pub fn plan(
    root: &Path,
    version: FormatVersion,
    groups: &[GroupSettings],
    warnings: &mut Vec<String>,
) -> Result<ScoringPlan, FormatError> {
    let data = root.join("data");
    // The model follows the files: test_group.yaml (2025-09), or the
    // 2023-07 draft's `scoring:` maps (in testdata.yaml or test_group.yaml,
    // as the draft's own example problem writes them), grade by subtasks;
    // other testdata.yaml files by the default grader.
    let group_files = groups
        .iter()
        .flat_map(|g| g.files.iter())
        .any(|f| f.file_name().is_some_and(|n| n == "test_group.yaml"));
    let scoring_maps = groups.iter().any(|g| g.own_scoring.contains_key("scoring"));
    if version == FormatVersion::V2025_09 || group_files || scoring_maps {
        subtasks(&data, groups).map(ScoringPlan::Subtasks)
    } else {
        graders(&data, groups, warnings).map(ScoringPlan::Graders)
    }
}

fn relative(data: &Path, dir: &Path) -> String {
    dir.strip_prefix(data)
        .map(|p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default()
}

/// The directories directly in `dir`, in name order.
fn subdirectories(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// `data/` as groups: `data` itself holding `sample` and `secret`, each
/// holding every directory below it.
fn graders(
    data: &Path,
    groups: &[GroupSettings],
    warnings: &mut Vec<String>,
) -> Result<Graders, FormatError> {
    let mut root = grader_group(data, data, groups, warnings, &mut Vec::new(), false)?;
    for top in ["sample", "secret"] {
        let dir = data.join(top);
        if dir.is_dir() {
            root.groups.push(grader_group(
                data,
                &dir,
                groups,
                warnings,
                &mut Vec::new(),
                true,
            )?);
        }
    }
    Ok(Graders { root })
}

/// The deepest nesting of graded groups under `data/`: far past any
/// contest's, and a bound on the grading walk (a package of 2,000 nested
/// groups took minutes).
pub const MAX_GROUP_DEPTH: usize = 64;

/// The group of `dir` with its settings, and (with `below`) every
/// directory under it; `seen` holds the directories above, so a link back
/// up is an error, not an endless walk.
fn grader_group(
    data: &Path,
    dir: &Path,
    groups: &[GroupSettings],
    warnings: &mut Vec<String>,
    seen: &mut Vec<PathBuf>,
    below: bool,
) -> Result<GraderGroup, FormatError> {
    if seen.len() >= MAX_GROUP_DEPTH {
        return Err(FormatError::rule(
            Place::file(dir),
            format!(
                "test groups nested more than {MAX_GROUP_DEPTH} deep: refused (each level is a group to grade)"
            ),
        ));
    }
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if seen.contains(&real) {
        return Err(FormatError::rule(
            Place::file(dir),
            "a directory that links back to one above it",
        ));
    }
    let nearest = groups::nearest(groups, dir);
    let empty = BTreeMap::new();
    let keys = nearest.map_or(&empty, |g| &g.grading);
    let file = nearest
        .and_then(|g| g.files.last().cloned())
        .unwrap_or_else(|| data.join("testdata.yaml"));
    let mut group = GraderGroup {
        name: relative(data, dir),
        settings: grader_settings(keys, &file, warnings)?,
        groups: Vec::new(),
    };
    if below {
        seen.push(real);
        for sub in subdirectories(dir) {
            group
                .groups
                .push(grader_group(data, &sub, groups, warnings, seen, true)?);
        }
        seen.pop();
    }
    Ok(group)
}

fn grader_settings(
    keys: &BTreeMap<String, String>,
    file: &Path,
    warnings: &mut Vec<String>,
) -> Result<GraderSettings, FormatError> {
    let at = |key: &str, what: String| {
        FormatError::key(Place::file(file), key, None, format!("{key}: {what}"))
    };
    let number = |key: &str, text: &str| -> Result<f64, FormatError> {
        let value = match text.trim() {
            "inf" | "+inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            t => t
                .parse::<f64>()
                .map_err(|_| at(key, format!("{text:?} is not a number")))?,
        };
        if value.is_nan() {
            return Err(at(key, format!("{text:?} is not a number")));
        }
        Ok(value)
    };
    let finite = |key: &str, value: f64| -> Result<f64, FormatError> {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(at(
                key,
                format!("{value:?}: out of range (expected a finite number)"),
            ))
        }
    };
    let mut s = GraderSettings::default();
    if let Some(v) = keys.get("on_reject") {
        s.on_reject_break = match v.trim() {
            "break" => true,
            "continue" => false,
            other => {
                return Err(at(
                    "on_reject",
                    format!("{other:?}: expected break or continue"),
                ));
            }
        };
    }
    if let Some(v) = keys.get("grading") {
        match v.trim() {
            "default" => {}
            "custom" => {
                return Err(at(
                    "grading",
                    "custom: grader programs (graders/) are not supported; the judge grades with the default grader's flags only".to_string(),
                ));
            }
            other => {
                return Err(at(
                    "grading",
                    format!("{other:?}: expected default or custom"),
                ));
            }
        }
    }
    if let Some(v) = keys.get("grader_flags") {
        for word in s.apply_flags(v) {
            warnings.push(
                at(
                    "grader_flags",
                    format!("{word:?} is not a flag of the default grader; ignored"),
                )
                .to_string(),
            );
        }
    }
    if let Some(v) = keys.get("accept_score") {
        s.accept_score = finite("accept_score", number("accept_score", v)?)?;
    }
    if let Some(v) = keys.get("reject_score") {
        s.reject_score = finite("reject_score", number("reject_score", v)?)?;
    }
    if let Some(v) = keys.get("range") {
        let words: Vec<&str> = v.split_whitespace().collect();
        let [low, high] = words[..] else {
            return Err(at(
                "range",
                format!("{v:?}: expected two numbers, A B (inf and -inf allowed)"),
            ));
        };
        let (low, high) = (number("range", low)?, number("range", high)?);
        s.range_low = low.is_finite().then_some(low);
        s.range_high = high.is_finite().then_some(high);
    }
    Ok(s)
}

/// One 2025-09 `test_group.yaml`'s scoring keys, read raw (not inherited).
#[derive(Default)]
struct GroupKeys {
    max_score: Option<Option<f64>>,
    aggregation: Option<Aggregation>,
    require_pass: Vec<String>,
}

/// A directory's own scoring keys, from its settings file as the group
/// files were read (none without a file of its own).
fn group_keys(dir: &Path, groups: &[GroupSettings]) -> Result<GroupKeys, FormatError> {
    let Some(own) = groups.iter().find(|g| g.dir == dir) else {
        return Ok(GroupKeys::default());
    };
    let file = own
        .files
        .last()
        .cloned()
        .unwrap_or_else(|| dir.join("test_group.yaml"));
    let mut keys = GroupKeys::default();
    let at = |key: &str, what: String| {
        FormatError::key(Place::file(&file), key, None, format!("{key}: {what}"))
    };
    let mut read = |key: &str, value: &serde_norway::Value| -> Result<(), FormatError> {
        match key {
            "max_score" | "score" => {
                keys.max_score = Some(match value {
                    serde_norway::Value::Number(n) => match n.as_f64() {
                        // Past 1e9 a total is no longer exact (or finite).
                        Some(x) if (0.0..=1e9).contains(&x) => Some(x),
                        _ => {
                            return Err(at(
                                key,
                                format!("{n}: out of range (expected a number from 0 to 1e9)"),
                            ));
                        }
                    },
                    serde_norway::Value::String(s) if s == "unbounded" => None,
                    other => {
                        return Err(at(
                            key,
                            format!("{other:?}: expected a non-negative integer or unbounded"),
                        ));
                    }
                });
            }
            "score_aggregation" | "aggregation" => {
                let word = value.as_str().unwrap_or_default();
                keys.aggregation = Some(Aggregation::parse(word).ok_or_else(|| {
                    at(key, format!("{value:?}: expected pass-fail, sum or min"))
                })?);
            }
            "require_pass" => {
                keys.require_pass = groups::words(value).map_err(|e| at(key, e.to_string()))?;
            }
            _ => {}
        }
        Ok(())
    };
    for (key, value) in &own.own_scoring {
        let key = key.as_str();
        if key == "scoring" {
            // The 2023-07 draft's map of the same keys.
            if let Some(inner) = value.as_mapping() {
                for (k, v) in inner {
                    if let Some(k) = k.as_str() {
                        read(k, v)?;
                    }
                }
            }
        } else {
            read(key, value)?;
        }
    }
    Ok(keys)
}

fn subtasks(data: &Path, settings: &[GroupSettings]) -> Result<Subtasks, FormatError> {
    let secret = data.join("secret");
    let top = group_keys(&secret, settings)?;
    let dirs = subdirectories(&secret);
    let names: Vec<String> = dirs.iter().map(|d| relative(data, d)).collect();
    let mut groups = Vec::new();
    for (dir, name) in dirs.iter().zip(&names) {
        let keys = group_keys(dir, settings)?;
        for r in &keys.require_pass {
            if r != "sample" && !names.contains(r) {
                return Err(FormatError::key(
                    Place::file(&dir.join("test_group.yaml")),
                    "require_pass",
                    Some(r.clone()),
                    format!(
                        "require_pass: {r:?} is not a test data group (sample, {})",
                        names.join(", ")
                    ),
                ));
            }
            if r != "sample" && r >= name {
                return Err(FormatError::key(
                    Place::file(&dir.join("test_group.yaml")),
                    "require_pass",
                    Some(r.clone()),
                    format!("require_pass: {r:?} must come before {name:?}"),
                ));
            }
        }
        let max_score = keys.max_score.unwrap_or(None);
        let secret_max = top.max_score.unwrap_or(Some(100.0));
        if max_score.is_none() && secret_max.is_some() {
            return Err(FormatError::key(
                Place::file(&dir.join("test_group.yaml")),
                "max_score",
                Some("unbounded".to_string()),
                format!(
                    "max_score: group {name} is unbounded while secret's max_score is {} (the format allows an unbounded group only under an unbounded secret; give the group its max_score)",
                    crate::text::format::number(secret_max.unwrap_or_default())
                ),
            ));
        }
        groups.push(Subtask {
            name: name.clone(),
            select: Select::Under(format!("{name}/")),
            max_score,
            aggregation: keys.aggregation.unwrap_or(Aggregation::PassFail),
            require_pass: keys.require_pass,
        });
    }
    let total = Subtask {
        name: "secret".to_string(),
        select: Select::Under("secret/".to_string()),
        max_score: top.max_score.unwrap_or(Some(100.0)),
        aggregation: top.aggregation.unwrap_or(Aggregation::Sum),
        require_pass: top.require_pass,
    };
    if let Some(r) = total.require_pass.iter().find(|r| *r != "sample") {
        return Err(FormatError::key(
            Place::file(&secret.join("test_group.yaml")),
            "require_pass",
            Some(r.clone()),
            format!("require_pass: secret may only require sample, not {r:?}"),
        ));
    }
    Ok(Subtasks {
        total,
        groups,
        prerequisites: vec![Subtask {
            name: "sample".to_string(),
            select: Select::Under("sample/".to_string()),
            max_score: None,
            aggregation: Aggregation::PassFail,
            require_pass: Vec::new(),
        }],
    })
}
