//! A package's limits: `limits.time_limit` (else a `.timelimit` file, else
//! DOMjudge's `domjudge-problem.ini`), how a missing time limit is derived
//! from the accepted submissions, memory, output and the validators' time.

use super::problem_yaml::YamlLimits;
use crate::formats::error::{FormatError, Place};
pub use crate::formats::model::TimeInference;
use crate::formats::version::FormatVersion;
use std::path::Path;
use std::time::Duration;

/// The defaults of the package format.
pub const DEFAULT_MEMORY_MIB: u64 = 2048;
pub const DEFAULT_OUTPUT_MIB: u64 = 8;
/// The largest memory or output limit a package may give: 1 PiB, as a
/// size on the command line.
const MAX_MIB: f64 = (1u64 << 30) as f64;

/// A package's limits as the judge uses them.
#[derive(Clone, Debug)]
pub struct PackageLimits {
    pub time_limit: Option<Duration>,
    /// Where `time_limit` comes from, for reports.
    pub time_limit_from: &'static str,
    /// Without a time limit: how `judge verify` derives one.
    pub time_inference: Option<TimeInference>,
    /// Bytes.
    pub memory: u64,
    /// Bytes.
    pub output: u64,
    /// `limits.validation_time`.
    pub tool_time_limit: Option<Duration>,
}

/// problem.yaml's `limits` (of the file at `path`) and the package's time
/// limit files.
pub(super) fn read(
    root: &Path,
    path: &Path,
    limits: &YamlLimits,
    version: FormatVersion,
    warnings: &mut Vec<String>,
) -> Result<PackageLimits, FormatError> {
    let at = |key: &str, value: f64, message: String| {
        FormatError::key(
            Place::file(path),
            format!("limits.{key}"),
            Some(format!("{value:?}")),
            message,
        )
    };
    let seconds = |v: Option<f64>, key: &str| -> Result<Option<Duration>, FormatError> {
        match v {
            None => Ok(None),
            Some(s) => crate::units::seconds(s).map(Some).ok_or_else(|| {
                at(key, s, format!(
                    "limits.{key}: {s:?} is out of range (expected a number of seconds from {} to {})",
                    crate::units::MIN_SECONDS,
                    crate::units::MAX_SECONDS
                ))
            }),
        }
    };
    let mib = |v: Option<f64>, key: &str, min: f64, default: u64| -> Result<u64, FormatError> {
        match v {
            None => Ok(default << 20),
            Some(m) if m.is_finite() && m > 0.0 && (min..=MAX_MIB).contains(&m) => {
                Ok(((m * 1048576.0) as u64).max(1))
            }
            Some(m) => Err(at(
                key,
                m,
                format!(
                    "limits.{key}: {m:?} is out of range (expected a number of MiB {} up to {MAX_MIB})",
                    if min > 0.0 {
                        format!("from {min}")
                    } else {
                        "above 0".to_string()
                    }
                ),
            )),
        }
    };
    let mut time_limit = seconds(limits.time_limit, "time_limit")?;
    let mut time_limit_from = "problem.yaml limits.time_limit";
    if time_limit.is_none() {
        time_limit = read_timelimit_file(root, warnings);
        time_limit_from = ".timelimit";
    }
    if time_limit.is_none() {
        time_limit = read_domjudge_ini(root, warnings);
        time_limit_from = "domjudge-problem.ini timelimit";
    }
    let inference = time_inference(limits, version, path)?;
    Ok(PackageLimits {
        time_limit,
        time_limit_from,
        time_inference: time_limit.is_none().then_some(inference),
        memory: mib(limits.memory, "memory", 1.0, DEFAULT_MEMORY_MIB)?,
        output: mib(limits.output, "output", 0.0, DEFAULT_OUTPUT_MIB)?,
        tool_time_limit: seconds(limits.validation_time, "validation_time")?,
    })
}

/// How a missing time limit would be derived: problemtools' rule (legacy
/// multiplier 5) and the 2023-07 default (2), the resolution (1 s).
fn time_inference(
    limits: &YamlLimits,
    version: FormatVersion,
    path: &Path,
) -> Result<TimeInference, FormatError> {
    let at = |key: &str, value: f64, message: String| {
        FormatError::key(Place::file(path), key, Some(format!("{value:?}")), message)
    };
    let multiplier = match version {
        FormatVersion::Legacy => limits.time_multiplier.unwrap_or(5.0),
        _ => limits
            .time_multipliers
            .as_ref()
            .and_then(|m| m.ac_to_time_limit)
            .or(limits.time_multiplier)
            .unwrap_or(2.0),
    };
    if let Some(m) = limits
        .time_multipliers
        .as_ref()
        .and_then(|m| m.ac_to_time_limit)
        && m < 1.0
        && version != FormatVersion::Legacy
    {
        return Err(at(
            "limits.time_multipliers.ac_to_time_limit",
            m,
            format!(
                "limits.time_multipliers.ac_to_time_limit: {m} is below 1 (the spec: a float >= 1; a limit under the slowest accepted run would fail it)"
            ),
        ));
    }
    let key = match version {
        FormatVersion::Legacy => "limits.time_multiplier",
        _ if limits
            .time_multipliers
            .as_ref()
            .is_some_and(|m| m.ac_to_time_limit.is_some()) =>
        {
            "limits.time_multipliers.ac_to_time_limit"
        }
        _ => "limits.time_multiplier",
    };
    let multiplier = crate::units::factor(multiplier, 0.0)
        .filter(|m| *m > 0.0)
        .ok_or_else(|| {
            at(
                key,
                multiplier,
                format!(
                    "{key}: {multiplier:?} is out of range (expected a number above 0 up to {})",
                    crate::units::MAX_FACTOR
                ),
            )
        })?;
    let resolution = limits.time_resolution.unwrap_or(1.0);
    if crate::units::seconds(resolution).is_none() {
        return Err(at(
            "limits.time_resolution",
            resolution,
            format!(
                "limits.time_resolution: {resolution:?} is out of range (expected a number of seconds from {} to {})",
                crate::units::MIN_SECONDS,
                crate::units::MAX_SECONDS
            ),
        ));
    }
    Ok(TimeInference {
        multiplier,
        resolution,
    })
}

/// DOMjudge's `domjudge-problem.ini`: its `timelimit` (seconds, quoted or
/// not). Its other keys (`name`, `color`, `externalid`, …) describe the
/// problem in DOMjudge and are not used. A `timelimit` that is no number
/// of seconds is warned and passed over, as a `.timelimit` is (BAPCtools
/// calls the file deprecated, problemtools does not read it).
fn read_domjudge_ini(root: &Path, warnings: &mut Vec<String>) -> Option<Duration> {
    let path = root.join("domjudge-problem.ini");
    let text = crate::exec::bounded_read::read_package_text(
        &path,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .ok()?;
    for (n, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "timelimit" {
            continue;
        }
        let value = value.trim().trim_matches(|c| c == '\'' || c == '"');
        let limit = value.parse::<f64>().ok().and_then(crate::units::seconds);
        if limit.is_none() {
            warnings.push(format!(
                "{}:{}: timelimit: expected a number of seconds from {} to {}, found {:?}: not used",
                path.display(),
                n + 1,
                crate::units::MIN_SECONDS,
                crate::units::MAX_SECONDS,
                crate::text::whitespace::shown_name(value)
            ));
        }
        return limit;
    }
    None
}

/// A `.timelimit` file: one number of seconds. One that is not is warned
/// and passed over (problemtools does not read the file, BAPCtools calls
/// it deprecated): the limit then comes from where it would without it.
fn read_timelimit_file(root: &Path, warnings: &mut Vec<String>) -> Option<Duration> {
    let path = root.join(".timelimit");
    let text = crate::exec::bounded_read::read_package_text(
        &path,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .ok()?;
    let limit = text
        .trim()
        .parse::<f64>()
        .ok()
        .and_then(crate::units::seconds);
    if limit.is_none() {
        warnings.push(format!(
            "{}: expected a number of seconds from {} to {}, found {:?}: not used",
            path.display(),
            crate::units::MIN_SECONDS,
            crate::units::MAX_SECONDS,
            crate::text::whitespace::shown_name(text.trim())
        ));
    }
    limit
}
