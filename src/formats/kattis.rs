//! Kattis-style problem packages: a directory with `problem.yaml`,
//! `data/sample/` and `data/secret/` (`.in`/`.ans` pairs),
//! `input_validators/` and `output_validators/` (or the newer format's
//! `output_validator/`). The judge reads a package as it is, with no
//! conversion.
//!
//! What is read (README "Kattis packages"):
//!
//! - `limits.time_limit` (seconds; the 2023-07 format), else a `.timelimit`
//!   file in the package (seconds; what DOMjudge and BAPCtools write), else
//!   the judge's default. `time_multiplier`/`time_safety_margin` need timed
//!   accepted submissions and are not used.
//! - `limits.memory` and `limits.output` (MiB; defaults 2048 and 8, as the
//!   format says), `limits.validation_time` (seconds) for the checker and
//!   validators.
//! - `validation`: `default` or `custom` (a `score` word is ignored;
//!   `interactive` is refused); without it, a package with an output
//!   validator is custom. `type`: `pass-fail` or `scoring` (judged pass or
//!   fail per case); other types are refused.
//! - `validator_flags`: for a custom validator, its extra arguments; for
//!   the default one, `case_sensitive`, `space_change_sensitive`
//!   (white-space differences become PE), `float_tolerance E`,
//!   `float_absolute_tolerance E`, `float_relative_tolerance E`.
//!
//! Everything else in problem.yaml (name, source, license, …) is ignored.
//! This module reads the package's configuration and lists its programs;
//! it never reads case files. [`load`] is a list of steps over its parts:
//! `problem_yaml` (the file, its version, type and validation words, keys
//! not acted on), `limits` (the time limit and where it comes from, memory,
//! output), `validation` (the output validator or the default one),
//! `folders` (the validator programs, folders not acted on), [`groups`],
//! `submissions_yaml` and [`scoring`].

mod folders;
pub mod groups;
mod layout;
mod limits;
mod problem_yaml;
pub mod scoring;
pub mod skeleton;
mod source;
pub mod stage;
mod submissions_json;
mod submissions_yaml;
#[cfg(test)]
mod tests;
mod validation;
pub mod write;
mod write_groups;

use crate::check::tool::Tool;
use crate::expect::SubmissionRule;
use crate::formats::error::FormatError;
pub use crate::formats::version::FormatVersion;
pub use groups::{GroupSettings, InputArgs};
pub use limits::{DEFAULT_MEMORY_MIB, DEFAULT_OUTPUT_MIB, PackageLimits, TimeInference};
use problem_yaml::ProblemKind;
use std::path::{Path, PathBuf};
pub(crate) use validation::default_check;
pub use validation::{DefaultCheck, FlagError};

/// A package as the judge uses it.
#[derive(Clone, Debug)]
pub struct Package {
    pub root: PathBuf,
    /// A DOMjudge problem (it has a `domjudge-problem.ini`): its
    /// submissions' verdicts are DOMjudge's, and so is what output past
    /// the limit does.
    pub domjudge: bool,
    /// Whether its submissions may create files in their working
    /// directory: not in a DOMjudge package (its judgehost's rule), nor
    /// in a 2025-09 one unless `allow_file_writing: true` (the spec's
    /// default is `false`); yes in legacy and 2023-07 packages, which
    /// have no such rule (problemtools and BAPCtools let them write).
    pub file_writing: bool,
    /// The package's short name: its directory's name.
    pub name: String,
    /// Time, memory, output and validation limits.
    pub limits: PackageLimits,
    /// A custom output validator (Kattis protocol).
    pub output_validator: Option<Tool>,
    /// `validator_flags`, split into words: a custom validator's arguments,
    /// or the default validator's (a group's arguments come after them).
    pub validator_flags: Vec<String>,
    /// The default validator's settings (when there is no custom one).
    pub default_check: DefaultCheck,
    /// `input_validators/`, in name order.
    pub input_validators: Vec<Tool>,
    /// `type: interactive` (legacy `validation: custom interactive`): the
    /// output validator talks to the submission.
    pub interactive: bool,
    /// Passes a case may take (`limits.validation_passes`, default 2, for
    /// `multi-pass`; 1 otherwise).
    pub passes: u32,
    /// `answer_validators/` (2025-09), in name order: run on every answer.
    pub answer_validators: Vec<Tool>,
    /// The format version problem.yaml declares.
    pub version: FormatVersion,
    /// Each group's settings (testdata.yaml / test_group.yaml), inherited.
    pub groups: Vec<GroupSettings>,
    /// `submissions/submissions.yaml` (2025-09), in file order.
    pub submission_rules: Vec<SubmissionRule>,
    /// `type: scoring`: how the cases add up to a score.
    pub scoring: Option<crate::score::ScoringPlan>,
    /// Things a user should know (a validator kind the judge cannot run,
    /// a key it does not act on).
    /// 2025-09 `constants` (empty when none).
    pub constants: crate::text::constants::Constants,
    pub warnings: Vec<String>,
}

/// The file that makes a directory a package.
pub const PROBLEM_YAML: &str = "problem.yaml";

/// DOMjudge's problem settings: a package on its own, as DOMjudge's
/// problem archive needs no `problem.yaml` (its import reads one when
/// there is one).
pub const DOMJUDGE_INI: &str = "domjudge-problem.ini";

/// Whether `dir` is a Kattis or DOMjudge package (a `problem.yaml`, or
/// a `domjudge-problem.ini` alone). [`crate::formats::is_package`] asks
/// every format.
pub fn is_package(dir: &Path) -> bool {
    dir.join(PROBLEM_YAML).is_file() || dir.join(DOMJUDGE_INI).is_file()
}

/// A YAML value as the file writes it (a string without its quotes).
pub(crate) fn shown_value(value: &serde_norway::Value) -> String {
    match value {
        serde_norway::Value::String(s) => s.clone(),
        other => serde_norway::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

/// Read a package. Errors name problem.yaml (with line and column) or the
/// file at fault.
pub fn load(root: &Path) -> Result<Package, FormatError> {
    crate::exec::links::links_stay_inside(root)?;
    let yaml_path = root.join(PROBLEM_YAML);
    let (yaml, version, mut warnings) = problem_yaml::read(&yaml_path)?;
    let name = std::fs::canonicalize(root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_string());
    let kind = ProblemKind::read(&yaml, &yaml_path)?;
    warnings.extend(kind.warnings.iter().cloned());
    let domjudge = submissions_json::is_domjudge(root);
    let file_writing = !domjudge
        && match version {
            FormatVersion::V2025_09 => yaml.allow_file_writing.unwrap_or(false),
            _ => true,
        };
    let constants = problem_yaml::constants(yaml.constants.as_ref(), &yaml_path, &mut warnings);
    let yaml_limits = yaml.limits.unwrap_or_default();
    let limits = limits::read(root, &yaml_path, &yaml_limits, version, &mut warnings)?;
    let validation = validation::read(
        root,
        &yaml_path,
        &kind,
        yaml_limits.validation_passes,
        &yaml.validator_flags.unwrap_or_default(),
        version,
        &mut warnings,
    )?;
    let input_validators = folders::input_validators(root, &mut warnings)?;
    let answer_validators = folders::program_dir(root, "answer_validators", &mut warnings)?;
    // The package's programs see its constants replaced (2025-09).
    let shared = (!constants.is_empty()).then(|| std::sync::Arc::new(constants.clone()));
    let with = |tools: Vec<Tool>| -> Vec<Tool> {
        tools
            .into_iter()
            .map(|t| linked(t.with_constants(shared.clone()), root))
            .collect()
    };
    let input_validators = with(input_validators);
    let answer_validators = with(answer_validators);
    let output_validator = validation
        .output_validator
        .map(|t| linked(t.with_constants(shared.clone()), root));
    warnings.extend(folders::unacted_folders(root));
    if version == FormatVersion::V2025_09 {
        warnings.extend(layout::warnings(&root.join("data")));
    }
    let groups = read_groups(root, version, &constants, &mut warnings)?;
    let mut submission_rules = submissions_json::entry_points(root, &mut warnings)?;
    submission_rules.extend(submissions_yaml::submission_rules(root, &mut warnings)?);
    let scoring = if kind.scoring {
        Some(scoring::plan(root, version, &groups, &mut warnings)?)
    } else {
        pass_fail_scores(root, &mut submission_rules, &mut warnings);
        pass_fail_grading(&groups, &mut warnings);
        None
    };
    Ok(Package {
        root: root.to_path_buf(),
        domjudge,
        file_writing,
        name,
        limits,
        output_validator,
        validator_flags: validation.validator_flags,
        default_check: validation.default_check,
        input_validators,
        interactive: kind.interactive,
        passes: validation.passes,
        answer_validators,
        version,
        groups,
        submission_rules,
        scoring,
        constants,
        warnings,
    })
}

/// A package program with the files of its tree that are links checked
/// out as text (a validator's `validation.h`) read from their targets, or
/// failing with the reason one cannot be followed ([`crate::cases::text_link`]).
fn linked(tool: Tool, root: &Path) -> Tool {
    let crate::check::tool::Source::Path(path) = &tool.source else {
        return tool;
    };
    let tree = if path.is_dir() {
        path.clone()
    } else {
        path.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    tool.with_links(crate::cases::text_link::links_in(&tree, root))
}

/// A score is only for scoring problems (the format says so): on a
/// pass-fail problem, the rules' scores are named, dropped, not checked.
fn pass_fail_scores(root: &Path, rules: &mut [SubmissionRule], warnings: &mut Vec<String>) {
    for rule in rules {
        if rule.score.take().is_some() {
            warnings.push(format!(
                "{}: {}: score: not acted on: the problem is pass-fail (problem.yaml has no type: scoring)",
                root.join("submissions/submissions.yaml").display(),
                rule.pattern
            ));
        }
        for (group, _) in std::mem::take(&mut rule.group_scores) {
            warnings.push(format!(
                "{}: {}: {group}: score: not acted on: the problem is pass-fail",
                root.join("submissions/submissions.yaml").display(),
                rule.pattern
            ));
        }
    }
}

/// Scoring keys on a pass-fail problem: named once, not used.
fn pass_fail_grading(groups: &[GroupSettings], warnings: &mut Vec<String>) {
    if let Some(g) = groups.iter().find(|g| !g.grading.is_empty())
        && let Some(file) = g.files.last()
    {
        let keys: Vec<&str> = g.grading.keys().map(String::as_str).collect();
        warnings.push(format!(
            "{}: {}: scoring keys on a pass-fail problem (problem.yaml has no type: scoring); not used",
            file.display(),
            keys.join(", ")
        ));
    }
}

/// The groups' settings files: the version's own name; the other name is
/// read too (with a warning), as packages move between versions.
fn read_groups(
    root: &Path,
    version: FormatVersion,
    constants: &crate::text::constants::Constants,
    warnings: &mut Vec<String>,
) -> Result<Vec<GroupSettings>, FormatError> {
    let data = root.join("data");
    let own = version.group_file();
    let mut own_warnings = Vec::new();
    let groups = groups::read(&data, own, constants, &mut own_warnings)?;
    // A group's file, not only test cases' own files.
    let has_group_file = |groups: &[GroupSettings]| groups.iter().any(|g| g.dir.is_dir());
    if has_group_file(&groups) {
        warnings.extend(own_warnings);
        return Ok(groups);
    }
    let other = if own == "testdata.yaml" {
        "test_group.yaml"
    } else {
        "testdata.yaml"
    };
    let mut other_warnings = Vec::new();
    let groups_other = groups::read(&data, other, constants, &mut other_warnings)?;
    if !has_group_file(&groups_other) {
        warnings.extend(own_warnings);
        return Ok(groups);
    }
    let groups = groups_other;
    warnings.extend(other_warnings);
    if let Some(first) = groups.first() {
        warnings.push(format!(
            "{}: the {} format names this file {own}; read anyway",
            first
                .files
                .last()
                .map_or(data.clone(), |f| f.clone())
                .display(),
            version.name()
        ));
    }
    Ok(groups)
}

/// Where a package's cases are: `data/`, in these groups, in this order.
pub const CASE_GROUPS: [&str; 2] = ["sample", "secret"];
