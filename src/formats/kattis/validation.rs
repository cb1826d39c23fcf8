//! How a package's outputs are judged: its output validator (custom,
//! interactive, multi-pass and its passes) or Kattis' default validator
//! with `validator_flags`.

use super::folders;
use super::problem_yaml::{ProblemKind, at};
use crate::check::tool::Tool;
use crate::formats::error::{FormatError, Place};
use crate::formats::version::FormatVersion;
use std::path::Path;

/// Kattis' default output validator, as `validator_flags` set it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DefaultCheck {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub float_absolute: Option<f64>,
    pub float_relative: Option<f64>,
}

/// How a package's outputs are judged.
pub(super) struct Validation {
    /// The custom output validator, if the outputs go to one.
    pub output_validator: Option<Tool>,
    /// Its arguments (`validator_flags`, split into words).
    pub validator_flags: Vec<String>,
    /// The default validator's settings (when there is no custom one).
    pub default_check: DefaultCheck,
    /// Passes a case may take.
    pub passes: u32,
}

/// The output validator in `root` and what problem.yaml (at `path`) says
/// of validation: `kind`, `limits.validation_passes`, `validator_flags`.
pub(super) fn read(
    root: &Path,
    path: &Path,
    kind: &ProblemKind,
    validation_passes: Option<u32>,
    flags_text: &str,
    version: FormatVersion,
    warnings: &mut Vec<String>,
) -> Result<Validation, FormatError> {
    let at = |what: &str| at(path, what);
    let flags_error = |message: String| {
        FormatError::key(
            Place::file(path),
            "validator_flags",
            Some(flags_text.to_string()),
            message,
        )
    };
    let output_validator = folders::output_validator(root, warnings)?;
    let (interactive, multi_pass) = (kind.interactive, kind.multi_pass);
    if (interactive || multi_pass) && output_validator.is_none() {
        return Err(FormatError::rule(
            Place::file(path),
            format!(
                "an {} problem needs its output validator (output_validator/ or output_validators/), and there is none",
                if interactive {
                    "interactive"
                } else {
                    "multi-pass"
                }
            ),
        ));
    }
    let passes = if multi_pass {
        match validation_passes {
            // BAPCtools: "should be >= 2 … SKIPPED", the default used.
            Some(0) => {
                warnings.push(at(
                    "limits.validation_passes: 0: at least 1 pass; the default 2 is used",
                ));
                2
            }
            Some(n) => n,
            None => 2,
        }
    } else {
        1
    };
    let custom = if interactive || multi_pass || kind.says("custom") {
        if output_validator.is_none() {
            return Err(FormatError::key(
                Place::file(path),
                "validation",
                Some("custom".to_string()),
                "validation: custom, but there is no program in output_validators/".to_string(),
            ));
        }
        true
    } else if kind.says("default") {
        false
    } else {
        output_validator.is_some()
    };
    let validator_flags = shlex::split(flags_text)
        .ok_or_else(|| flags_error(format!("validator_flags {flags_text:?}: unbalanced quotes")))?;
    let default_check = if custom {
        DefaultCheck::default()
    } else {
        default_check(&validator_flags).map_err(|e| flags_error(format!("validator_flags: {e}")))?
    };
    if version != FormatVersion::Legacy && !validator_flags.is_empty() {
        warnings.push(at(&format!(
            "validator_flags belongs to the legacy format; in {} the output validator's arguments are output_validator_args in {} (used anyway)",
            version.name(),
            version.group_file()
        )));
    }
    Ok(Validation {
        output_validator: output_validator.filter(|_| custom),
        // Kept for the default validator too: a group's output validator
        // arguments come after them, as problemtools joins them.
        validator_flags,
        default_check,
        passes,
    })
}

/// A flag of the default validator that it does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("{flag} needs a number after it")]
    NoNumber { flag: String },
    #[error("{flag} {value:?}: expected a non-negative number")]
    NotANumber { flag: String, value: String },
    #[error(
        "unknown flag {flag:?} for the default validator (case_sensitive, space_change_sensitive, float_tolerance E, float_absolute_tolerance E, float_relative_tolerance E)"
    )]
    Unknown { flag: String },
}

/// The default validator's flags.
pub(crate) fn default_check(flags: &[String]) -> Result<DefaultCheck, FlagError> {
    let mut check = DefaultCheck::default();
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut number = || -> Result<f64, FlagError> {
            let value = words
                .next()
                .ok_or_else(|| FlagError::NoNumber { flag: flag.clone() })?;
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| FlagError::NotANumber {
                    flag: flag.clone(),
                    value: value.clone(),
                })
        };
        match flag.as_str() {
            "case_sensitive" => check.case_sensitive = true,
            "space_change_sensitive" => check.space_change_sensitive = true,
            "float_tolerance" => {
                let e = number()?;
                check.float_absolute = Some(e);
                check.float_relative = Some(e);
            }
            "float_absolute_tolerance" => check.float_absolute = Some(number()?),
            "float_relative_tolerance" => check.float_relative = Some(number()?),
            other => {
                return Err(FlagError::Unknown {
                    flag: other.to_string(),
                });
            }
        }
    }
    Ok(check)
}
