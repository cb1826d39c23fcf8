//! From a package's group settings (testdata.yaml / test_group.yaml) to
//! what the judge does differently for that group's cases: the output
//! validator's arguments (the problem's `validator_flags`, then the
//! group's `output_validator_args`, as problemtools joins them), the
//! default validator's settings those arguments make, and each input
//! validator's arguments.
//!
//! judge.toml wins: a problem whose table or command line sets its own
//! check or validators keeps them, and a group's arguments that cannot
//! apply are named in a warning.

use super::Overrides;
use super::error::GroupError;
use super::schema::ProblemTable;
use crate::cases::CaseSettings;
use crate::check::Comparison;
use crate::check::external::{InputValidator, Protocol};
use crate::check::text::FloatTolerance;
use crate::formats::kattis::{self, GroupSettings, Package};
use std::path::PathBuf;
use std::sync::Arc;

/// The folders of data no output is judged in.
const INVALID_DATA: [&str; 2] = ["invalid_input", "invalid_answer"];

/// The problem as resolved, which a group's settings change.
pub(super) struct Base<'a> {
    pub package: &'a Package,
    pub table: &'a ProblemTable,
    pub overrides: &'a Overrides,
    pub comparison: &'a Comparison,
    pub validators: &'a [InputValidator],
}

/// Each group directory (canonical) with the settings of its cases.
pub(super) fn resolve(
    base: &Base<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<(PathBuf, Arc<CaseSettings>)>, GroupError> {
    let mut resolved = Vec::new();
    for group in &base.package.groups {
        let origin = group
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        // Under invalid_input/ and invalid_answer/ no output is judged:
        // the output validator arguments there are the answer validators'
        // (as BAPCtools passes them), not a default validator's settings.
        let judged = !INVALID_DATA.iter().any(|d| {
            group
                .dir
                .starts_with(base.package.root.join("data").join(d))
        });
        let (comparison, strict) = if judged {
            output_side(base, group, &origin, warnings)?
        } else {
            (None, None)
        };
        let (validators, validator_args) = input_side(base, group, &origin, warnings);
        let output_args = group.output_args.clone();
        // `args: []` (or a bare `args:`) is kept: it replaces a group's.
        let args = group.args.clone();
        if comparison.is_none()
            && strict.is_none()
            && validators.is_none()
            && validator_args.is_none()
            && output_args.is_none()
            && args.is_none()
        {
            continue;
        }
        // A group's directory canonical; a case's own file as its directory
        // canonical and its own name (a symlinked input keeps its name, as
        // `Problem::settings_for` looks it up).
        let dir = if group.dir.is_dir() {
            std::fs::canonicalize(&group.dir).unwrap_or_else(|_| group.dir.clone())
        } else {
            match (group.dir.parent(), group.dir.file_name()) {
                (Some(parent), Some(name)) => std::fs::canonicalize(parent)
                    .map(|p| p.join(name))
                    .unwrap_or_else(|_| group.dir.clone()),
                _ => group.dir.clone(),
            }
        };
        resolved.push((
            dir,
            Arc::new(CaseSettings {
                comparison,
                strict,
                validators,
                output_args,
                args,
                validator_args,
                origin,
            }),
        ));
    }
    // Nearest first: a lookup takes the first directory holding the case.
    resolved.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.components().count()));
    Ok(resolved)
}

/// The comparison and strictness a group's output validator arguments make.
fn output_side(
    base: &Base<'_>,
    group: &GroupSettings,
    origin: &str,
    warnings: &mut Vec<String>,
) -> Result<(Option<Comparison>, Option<bool>), GroupError> {
    let Some(args) = &group.output_args else {
        return Ok((None, None));
    };
    let own_check = base.table.check.is_some()
        || base.table.checker.is_some()
        || base.overrides.comparison.is_some();
    let mut flags = base.package.validator_flags.clone();
    flags.extend(args.iter().cloned());
    match base.comparison {
        Comparison::Checker(checker) if !own_check && checker.protocol == Protocol::Kattis => {
            let mut checker = checker.clone();
            checker.flags = flags;
            Ok((Some(Comparison::Checker(checker)), None))
        }
        Comparison::Interactive(interaction)
            if !own_check && interaction.protocol == Protocol::Kattis =>
        {
            let mut interaction = interaction.clone();
            interaction.flags = flags;
            Ok((Some(Comparison::Interactive(interaction)), None))
        }
        Comparison::Tokens { float, .. } if !own_check => {
            let check = kattis::default_check(&flags).map_err(|source| GroupError::OutputArgs {
                origin: origin.to_string(),
                source,
            })?;
            let configured = base.table.float_tolerance.is_some()
                || base.table.float_absolute_tolerance.is_some()
                || base.table.float_relative_tolerance.is_some()
                || base.overrides.float_tolerance.is_some();
            let float = if configured {
                *float
            } else {
                FloatTolerance::new(check.float_absolute, check.float_relative)
            };
            let strict =
                (check.space_change_sensitive && base.overrides.strict.is_none()).then_some(true);
            Ok((
                Some(Comparison::Tokens {
                    float,
                    case_insensitive: !check.case_sensitive,
                }),
                strict,
            ))
        }
        _ if args.is_empty() => Ok((None, None)),
        other => {
            warnings.push(format!(
                "{origin}: output validator arguments {args:?} not used: the problem is checked by {} as judge.toml or the command line says",
                match other {
                    Comparison::Checker(c) => format!("checker {}", c.tool.display),
                    other => format!("check = {:?}", other.name()),
                }
            ));
            Ok((None, None))
        }
    }
}

/// When the validators are the package's own: the input validators with
/// a group's `input_validator_args`, and the cases' `args` that follow
/// them (see `CaseSettings::input_validators`).
type InputSide = (Option<Vec<InputValidator>>, Option<Vec<String>>);

fn input_side(
    base: &Base<'_>,
    group: &GroupSettings,
    origin: &str,
    warnings: &mut Vec<String>,
) -> InputSide {
    if base.table.validator.is_some() {
        if group.input_args.is_some() {
            warnings.push(format!(
                "{origin}: input validator arguments not used: judge.toml names its own validators"
            ));
        }
        return (None, None);
    }
    let validators = group
        .input_args
        .as_ref()
        .map(|args| with_input_args(base.validators, args));
    (validators, group.args.clone())
}

/// `validators`, each with its arguments of `args`.
fn with_input_args(validators: &[InputValidator], args: &kattis::InputArgs) -> Vec<InputValidator> {
    validators
        .iter()
        .map(|v| {
            let mut v = v.clone();
            v.flags = args.for_validator(&validator_name(&v));
            v
        })
        .collect()
}

/// The settings of a case with its own configuration `yaml` (a
/// generators.yaml case's `yaml:`) in a group with `group`'s settings, as
/// `judge validate` will read them once it is written: its
/// `input_validator_args` (on the package's `validators`) over the
/// group's, its `args` over the group's. Read as a case's NAME.yaml is
/// (constants replaced, a byte order mark skipped). `None` when the yaml
/// changes neither.
pub fn with_case_input_args(
    validators: &[InputValidator],
    group: Option<&CaseSettings>,
    yaml: &[u8],
    constants: Option<&crate::text::constants::Constants>,
) -> Result<Option<CaseSettings>, GroupError> {
    let yaml = match constants {
        Some(c) => c.substitute(yaml),
        None => std::borrow::Cow::Borrowed(yaml),
    };
    let text = String::from_utf8_lossy(&yaml);
    if let Some((line, depth)) = crate::text::yaml_too_deep(&text) {
        return Err(GroupError::TooDeep { line, depth });
    }
    let value: serde_norway::Value =
        serde_norway::from_str(crate::text::without_bom(&text)).map_err(GroupError::Yaml)?;
    let input_args = value
        .get("input_validator_args")
        .or_else(|| value.get("input_validator_flags"));
    let case_args = value.get("args");
    if input_args.is_none() && case_args.is_none() {
        return Ok(None);
    }
    let mut own = group.cloned().unwrap_or(CaseSettings {
        comparison: None,
        strict: None,
        validators: None,
        output_args: None,
        args: None,
        validator_args: None,
        origin: String::new(),
    });
    if let Some(args) = input_args {
        own.validators = Some(with_input_args(
            validators,
            &kattis::groups::input_args(args).map_err(GroupError::InputArgs)?,
        ));
    }
    if let Some(args) = case_args {
        own.validator_args = Some(kattis::groups::words(args).map_err(GroupError::Args)?);
    }
    Ok(Some(own))
}

/// A validator's name in a by-name map: its file name without extension,
/// or its directory's name.
fn validator_name(v: &InputValidator) -> String {
    let display = std::path::Path::new(&v.tool.display);
    display
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
