//! `problem.yaml` as serde reads it: the format version, the problem's
//! type and validation words, the limits; the keys the judge does not act
//! on (warnings).

use crate::formats::error::{FormatError, Place};
pub use crate::formats::version::FormatVersion;
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Default, Deserialize)]
pub(super) struct ProblemYaml {
    pub(super) problem_format_version: Option<serde_norway::Value>,
    #[serde(rename = "type")]
    pub(super) kind: Option<serde_norway::Value>,
    pub(super) validation: Option<String>,
    pub(super) validator_flags: Option<String>,
    pub(super) limits: Option<YamlLimits>,
    /// 2025-09: names to values, replaced as `{{name}}` in the package's
    /// programs and test_group.yaml files.
    pub(super) constants: Option<serde_norway::Value>,
    /// 2025-09: whether submissions may create files in their working
    /// directory (default `false`).
    pub(super) allow_file_writing: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct YamlLimits {
    pub(super) time_limit: Option<f64>,
    /// Multi-pass: at most this many passes (default 2).
    pub(super) validation_passes: Option<u32>,
    /// Legacy: the time limit as a multiple of the slowest accepted run.
    pub(super) time_multiplier: Option<f64>,
    /// 2023-07 and later: `ac_to_time_limit` (and `time_limit_to_tle`).
    pub(super) time_multipliers: Option<TimeMultipliers>,
    /// 2025-09: the time limit is rounded up to a multiple of this.
    pub(super) time_resolution: Option<f64>,
    pub(super) memory: Option<f64>,
    pub(super) output: Option<f64>,
    pub(super) validation_time: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct TimeMultipliers {
    pub(super) ac_to_time_limit: Option<f64>,
}

/// problem.yaml's `constants` (2025-09): a map of names
/// (`[a-zA-Z_][a-zA-Z0-9_]*`) to a number or a string, or to a map with
/// `value` (that) and other spellings of it (`{value: 10.0, tex: "10,0"}`,
/// strings): `{{NAME}}` is the value, `{{NAME.value}}` too, `{{NAME.tex}}`
/// the spelling. What cannot be read is said in `warnings` and left out
/// (as BAPCtools does), never a refusal of the package.
pub(super) fn constants(
    value: Option<&serde_norway::Value>,
    path: &Path,
    warnings: &mut Vec<String>,
) -> crate::text::constants::Constants {
    use serde_norway::Value;
    let file = path.display();
    let Some(value) = value else {
        return Default::default();
    };
    let map = match value {
        Value::Null => return Default::default(),
        Value::Mapping(map) => map,
        _ => {
            warnings.push(format!(
                "{file}: constants: expected a map of names to values, ignored"
            ));
            return Default::default();
        }
    };
    let is_name = |name: &str| {
        name.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut pairs = Vec::new();
    for (name, value) in map {
        let name = match name {
            Value::String(s) if is_name(s) => s.as_str(),
            other => {
                warnings.push(format!(
                    "{file}: constants: {}: not a name ([a-zA-Z_][a-zA-Z0-9_]*), ignored",
                    other.as_str().unwrap_or("(not text)")
                ));
                continue;
            }
        };
        let spellings: Vec<(Option<&str>, &Value)> = match value {
            Value::Mapping(m) => {
                if !m.contains_key("value") {
                    warnings.push(format!(
                        "{file}: constants: {name}: a map needs `value`, ignored"
                    ));
                    continue;
                }
                m.iter().map(|(k, v)| (k.as_str(), v)).collect()
            }
            // The plain form is the value.
            _ => vec![(Some("value"), value)],
        };
        for (key, spelling) in spellings {
            let key = match key {
                Some(k) if is_name(k) => k,
                other => {
                    warnings.push(format!(
                        "{file}: constants: {name}.{}: not a name, ignored",
                        other.unwrap_or("(not text)")
                    ));
                    continue;
                }
            };
            let text = match spelling {
                Value::String(s) => s.clone(),
                // A number is text only as the value: other spellings are
                // strings (BAPCtools: "use string").
                Value::Number(n) if key == "value" => number_text(n),
                Value::Bool(b) if key == "value" => b.to_string(),
                Value::Number(_) => {
                    warnings.push(format!(
                        "{file}: constants: {name}.{key}: a number; a spelling is a string, ignored"
                    ));
                    continue;
                }
                _ => {
                    warnings.push(format!(
                        "{file}: constants: {name}.{key}: expected a {}, ignored",
                        if key == "value" {
                            "number or a string"
                        } else {
                            "string"
                        }
                    ));
                    continue;
                }
            };
            if key == "value" {
                pairs.push((name.to_string(), text.clone()));
            }
            pairs.push((format!("{name}.{key}"), text));
        }
    }
    crate::text::constants::Constants::new(pairs)
}

/// A number as its text: a float with a fractional part `.0` when whole
/// (`10.0`, as the file has it and BAPCtools writes it).
fn number_text(n: &serde_norway::Number) -> String {
    match (n.as_i64(), n.as_u64(), n.as_f64()) {
        (Some(i), _, _) => i.to_string(),
        (_, Some(u), _) => u.to_string(),
        (_, _, Some(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
        _ => n.to_string(),
    }
}

/// Read problem.yaml at `path` (empty: all defaults): its keys, its format
/// version, and a warning for each key the judge does not act on.
pub(super) fn read(path: &Path) -> Result<(ProblemYaml, FormatVersion, Vec<String>), FormatError> {
    // A DOMjudge problem archive may have no problem.yaml: its settings
    // are then the defaults (DOMjudge's import reads one only if present).
    if !path.exists()
        && path
            .parent()
            .is_some_and(|dir| dir.join(super::DOMJUDGE_INI).is_file())
    {
        return Ok((ProblemYaml::default(), FormatVersion::Legacy, Vec::new()));
    }
    let text = crate::exec::bounded_read::read_package_text(
        path,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|source| FormatError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    FormatError::shallow_yaml(path, &text)?;
    let yaml: ProblemYaml = if text.trim().is_empty() {
        ProblemYaml::default()
    } else {
        serde_norway::from_str(crate::text::without_bom(&text))
            .map_err(|e| FormatError::yaml(path, &e))?
    };
    let version = match &yaml.problem_format_version {
        None => FormatVersion::Legacy,
        Some(value) => {
            let text = match value {
                serde_norway::Value::String(s) => s.clone(),
                other => serde_norway::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            FormatVersion::parse(&text).ok_or_else(|| {
                FormatError::key(
                    Place::file(path),
                    "problem_format_version",
                    Some(text.clone()),
                    format!(
                        "problem_format_version {text:?} is not one the judge reads (legacy, 2023-07-draft, 2025-09)"
                    ),
                )
            })?
        }
    };
    let mut warnings = Vec::new();
    if !text.trim().is_empty()
        && let Ok(value) =
            serde_norway::from_str::<serde_norway::Value>(crate::text::without_bom(&text))
    {
        warnings.extend(unacted_keys(&value, path));
    }
    Ok((yaml, version, warnings))
}

/// A message about problem.yaml at `path`.
pub(super) fn at(path: &Path, what: &str) -> String {
    format!("{}: {what}", path.display())
}

/// What kind of problem `type` and `validation` make it.
#[derive(Clone, Debug, Default)]
pub(super) struct ProblemKind {
    pub interactive: bool,
    pub multi_pass: bool,
    /// `type: scoring`.
    pub scoring: bool,
    /// `validation`'s words.
    pub validation: Vec<String>,
    /// What of `type` and `validation` is passed over.
    pub warnings: Vec<String>,
}

impl ProblemKind {
    /// `type` (words or a list) and `validation` (legacy words) of the
    /// problem.yaml at `path`.
    pub(super) fn read(yaml: &ProblemYaml, path: &Path) -> Result<ProblemKind, FormatError> {
        let at = |what: &str| at(path, what);
        let wrong_type = |value: Option<String>, message: String| {
            FormatError::key(Place::file(path), "type", value, message)
        };
        let types: Vec<String> = match &yaml.kind {
            None => Vec::new(),
            Some(serde_norway::Value::String(s)) => {
                s.split_whitespace().map(String::from).collect()
            }
            Some(serde_norway::Value::Sequence(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            Some(other) => {
                return Err(wrong_type(
                    None,
                    format!("type: expected a string, found {other:?}"),
                ));
            }
        };
        let mut kind = ProblemKind::default();
        for t in &types {
            match t.as_str() {
                "pass-fail" => {}
                "scoring" => kind.scoring = true,
                "interactive" => kind.interactive = true,
                "multi-pass" => kind.multi_pass = true,
                "submit-answer" => {
                    return Err(wrong_type(
                        Some(t.clone()),
                        "type submit-answer: not supported (the judge runs programs, not answer files)"
                            .to_string(),
                    ));
                }
                other => {
                    return Err(wrong_type(
                        Some(other.to_string()),
                        format!(
                            "type {other:?}: not a problem type (pass-fail, scoring, interactive, multi-pass, submit-answer)"
                        ),
                    ));
                }
            }
        }
        kind.validation = yaml
            .validation
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(String::from)
            .collect();
        // Legacy: `validation: custom interactive` (and `custom multi-pass`).
        kind.interactive |= kind.says("interactive");
        kind.multi_pass |= kind.says("multi-pass");
        // problemtools reports an unknown word as an error and judges the
        // submissions all the same (BAPCtools: `validation` is deprecated,
        // SKIPPED): warned and passed over.
        let known = |w: &String| {
            matches!(
                w.as_str(),
                "default" | "custom" | "score" | "interactive" | "multi-pass"
            )
        };
        for word in kind.validation.iter().filter(|w| !known(w)) {
            kind.warnings.push(at(&format!(
                "validation: unknown word {word:?} (expected default or custom, and interactive, multi-pass or score): passed over"
            )));
        }
        kind.validation.retain(known);
        Ok(kind)
    }

    /// Whether `validation` holds `word`.
    pub(super) fn says(&self, word: &str) -> bool {
        self.validation.iter().any(|w| w == word)
    }
}

/// problem.yaml's keys the judge does not act on, one warning each.
/// Descriptive keys (name, author, source, license, …) are read past.
fn unacted_keys(value: &serde_norway::Value, path: &Path) -> Vec<String> {
    const READ: [&str; 7] = [
        "problem_format_version",
        "type",
        "validation",
        "validator_flags",
        "limits",
        "constants",
        "allow_file_writing",
    ];
    const DESCRIPTIVE: [&str; 11] = [
        "name",
        "uuid",
        "author",
        "source",
        "source_url",
        "license",
        "rights_owner",
        "credits",
        "keywords",
        "version",
        "embargo_until",
    ];
    const LIMITS_READ: [&str; 8] = [
        "time_limit",
        "memory",
        "output",
        "validation_time",
        "time_multiplier",
        "time_multipliers",
        "time_resolution",
        "validation_passes",
    ];
    // Keys of some version of the format the judge reads past or does
    // not do: "not acted on"; any other key is unknown (a typo, most
    // likely), said with the nearest known key.
    const UNACTED: [&str; 2] = ["languages", "grading"];
    const LIMITS_UNACTED: [&str; 7] = [
        "code",
        "compilation_time",
        "compilation_memory",
        "validation_memory",
        "validation_output",
        "time_safety_margin",
        "validation_passes",
    ];
    let top: Vec<&str> = READ
        .iter()
        .chain(&DESCRIPTIVE)
        .chain(&UNACTED)
        .copied()
        .collect();
    // A top-level typo is answered with the top-level keys and with the
    // limits, shown where they live (`limits.time_limit`).
    let top_or_limits: Vec<(&str, String)> = top
        .iter()
        .map(|k| (*k, k.to_string()))
        .chain(LIMITS_READ.iter().map(|k| (*k, format!("limits.{k}"))))
        .collect();
    let in_limits: Vec<&str> = LIMITS_READ.iter().chain(&LIMITS_UNACTED).copied().collect();
    let unknown = |prefix: &str, key: &str, known: &[&str]| {
        format!(
            "{}: {prefix}{}; ignored",
            path.display(),
            crate::text::format::unknown_key(key, known)
        )
    };
    let mut warnings = Vec::new();
    let serde_norway::Value::Mapping(map) = value else {
        return warnings;
    };
    for (key, value) in map {
        let Some(key) = key.as_str() else { continue };
        if READ.contains(&key) && key != "limits" || DESCRIPTIVE.contains(&key) {
            continue;
        }
        if key == "limits" {
            if let serde_norway::Value::Mapping(limits) = value {
                for (limit, inner) in limits.iter().filter_map(|(k, v)| Some((k.as_str()?, v))) {
                    if !in_limits.contains(&limit) {
                        warnings.push(unknown("limits: ", limit, &in_limits));
                    } else if !LIMITS_READ.contains(&limit) {
                        warnings.push(format!("{}: limits.{limit}: not acted on", path.display()));
                    }
                    // Of the multipliers only ac_to_time_limit is used:
                    // time_limit_to_tle (a check of the TLE submissions'
                    // margin) and any other key are named.
                    if limit == "time_multipliers"
                        && let serde_norway::Value::Mapping(multipliers) = inner
                    {
                        for name in multipliers.keys().filter_map(|k| k.as_str()) {
                            if name != "ac_to_time_limit" {
                                warnings.push(format!(
                                    "{}: limits.time_multipliers.{name}: not acted on",
                                    path.display()
                                ));
                            }
                        }
                    }
                }
            }
            continue;
        }
        // Legacy `grading:` (Kattis): `show_test_data_groups` only says
        // what a scoreboard shows; `objective` (min or max) is named.
        if key == "grading"
            && let serde_norway::Value::Mapping(grading) = value
        {
            for name in grading.keys().filter_map(|k| k.as_str()) {
                if name != "show_test_data_groups" {
                    warnings.push(format!("{}: grading.{name}: not acted on", path.display()));
                }
            }
            continue;
        }
        if top.contains(&key) {
            warnings.push(format!("{}: {key}: not acted on", path.display()));
        } else {
            warnings.push(format!(
                "{}: {}; ignored",
                path.display(),
                crate::text::format::unknown_key_among(key, &top_or_limits)
            ));
        }
    }
    warnings
}
