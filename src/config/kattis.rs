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
//! it never reads case files.

use crate::check::tool::Tool;
use serde::Deserialize;

pub mod groups;
pub mod scoring;
mod submissions_yaml;
use crate::expect::SubmissionRule;
pub use groups::{GroupSettings, InputArgs};
use std::path::{Path, PathBuf};
use std::time::Duration;
use submissions_yaml::submission_rules;

/// The defaults of the package format.
pub const DEFAULT_MEMORY_MIB: u64 = 2048;
pub const DEFAULT_OUTPUT_MIB: u64 = 8;

/// A package as the judge uses it.
#[derive(Clone, Debug)]
pub struct Package {
    pub root: PathBuf,
    /// The package's short name: its directory's name.
    pub name: String,
    pub time_limit: Option<Duration>,
    /// Where `time_limit` comes from, for reports.
    pub time_limit_from: &'static str,
    /// Without a time limit: how `judge verify` derives one.
    pub time_inference: Option<TimeInference>,
    pub memory: u64,
    pub output: u64,
    /// `limits.validation_time`: for the checker and the validators.
    pub tool_time_limit: Option<Duration>,
    /// A custom output validator (Kattis protocol).
    pub output_validator: Option<Tool>,
    /// `validator_flags`, split into words (a custom validator's arguments).
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
    pub warnings: Vec<String>,
}

/// `problem_format_version`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FormatVersion {
    /// Absent or `legacy`: the original Kattis format.
    #[default]
    Legacy,
    /// `2023-07-draft`.
    V2023_07,
    /// `2025-09` (and `draft`, its working name).
    V2025_09,
}

impl FormatVersion {
    fn parse(text: &str) -> Option<FormatVersion> {
        Some(match text {
            "legacy" | "legacy-icpc" => FormatVersion::Legacy,
            "2023-07-draft" | "2023-07" => FormatVersion::V2023_07,
            "2025-09" | "2025-09-draft" | "draft" => FormatVersion::V2025_09,
            _ => return None,
        })
    }

    /// The name of a group's settings file in this version.
    pub fn group_file(self) -> &'static str {
        match self {
            FormatVersion::V2025_09 => "test_group.yaml",
            _ => "testdata.yaml",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::V2023_07 => "2023-07-draft",
            FormatVersion::V2025_09 => "2025-09",
        }
    }
}

/// Kattis' default output validator, as `validator_flags` set it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DefaultCheck {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub float_absolute: Option<f64>,
    pub float_relative: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
struct ProblemYaml {
    problem_format_version: Option<serde_norway::Value>,
    #[serde(rename = "type")]
    kind: Option<serde_norway::Value>,
    validation: Option<String>,
    validator_flags: Option<String>,
    limits: Option<YamlLimits>,
}

#[derive(Debug, Default, Deserialize)]
struct YamlLimits {
    time_limit: Option<f64>,
    /// Multi-pass: at most this many passes (default 2).
    validation_passes: Option<u32>,
    /// Legacy: the time limit as a multiple of the slowest accepted run.
    time_multiplier: Option<f64>,
    /// 2023-07 and later: `ac_to_time_limit` (and `time_limit_to_tle`).
    time_multipliers: Option<TimeMultipliers>,
    /// 2025-09: the time limit is rounded up to a multiple of this.
    time_resolution: Option<f64>,
    memory: Option<f64>,
    output: Option<f64>,
    validation_time: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
struct TimeMultipliers {
    ac_to_time_limit: Option<f64>,
}

/// How a package without a time limit gets one from its accepted
/// submissions: the slowest accepted run × `multiplier`, rounded up to a
/// multiple of `resolution` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeInference {
    pub multiplier: f64,
    pub resolution: f64,
}

/// The file that makes a directory a package.
pub const PROBLEM_YAML: &str = "problem.yaml";

/// Whether `dir` is a package.
pub fn is_package(dir: &Path) -> bool {
    dir.join(PROBLEM_YAML).is_file()
}

/// The package that `path` is, or whose `data/` holds it, if any.
pub fn package_root(path: &Path) -> Option<PathBuf> {
    let absolute = std::fs::canonicalize(path).ok()?;
    absolute
        .ancestors()
        .find(|dir| is_package(dir) && (*dir == absolute || absolute.starts_with(dir.join("data"))))
        .map(Path::to_path_buf)
}

/// A YAML file's parse error as every package file names it: the file,
/// and the line and column where known.
pub(crate) fn yaml_error(file: &Path, e: &serde_norway::Error) -> String {
    match e.location() {
        Some(at) => format!("{}:{}:{}: {e}", file.display(), at.line(), at.column()),
        None => format!("{}: {e}", file.display()),
    }
}

/// Read a package. Errors name problem.yaml (with line and column) or the
/// file at fault.
pub fn load(root: &Path) -> Result<Package, String> {
    let yaml_path = root.join(PROBLEM_YAML);
    let text = std::fs::read_to_string(&yaml_path)
        .map_err(|e| format!("{}: cannot read: {e}", yaml_path.display()))?;
    let yaml: ProblemYaml = if text.trim().is_empty() {
        ProblemYaml::default()
    } else {
        serde_norway::from_str(&text).map_err(|e| yaml_error(&yaml_path, &e))?
    };
    let at = |what: &str| format!("{}: {what}", yaml_path.display());
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
                at(&format!(
                    "problem_format_version {text:?} is not one the judge reads (legacy, 2023-07-draft, 2025-09)"
                ))
            })?
        }
    };
    let mut warnings = Vec::new();
    if !text.trim().is_empty()
        && let Ok(value) = serde_norway::from_str::<serde_norway::Value>(&text)
    {
        warnings.extend(unacted_keys(&value, &yaml_path));
    }
    let name = std::fs::canonicalize(root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_string());

    // The problem type.
    let types: Vec<String> = match &yaml.kind {
        None => Vec::new(),
        Some(serde_norway::Value::String(s)) => s.split_whitespace().map(String::from).collect(),
        Some(serde_norway::Value::Sequence(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect(),
        Some(other) => return Err(at(&format!("type: expected a string, found {other:?}"))),
    };
    let mut interactive = false;
    let mut multi_pass = false;
    let mut scoring_type = false;
    for t in &types {
        match t.as_str() {
            "pass-fail" => {}
            "scoring" => scoring_type = true,
            "interactive" => interactive = true,
            "multi-pass" => multi_pass = true,
            "submit-answer" => {
                return Err(at(
                    "type submit-answer: not supported (the judge runs programs, not answer files)",
                ));
            }
            other => {
                return Err(at(&format!(
                    "type {other:?}: not a problem type (pass-fail, scoring, interactive, multi-pass, submit-answer)"
                )));
            }
        }
    }
    let validation: Vec<String> = yaml
        .validation
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    // Legacy: `validation: custom interactive` (and `custom multi-pass`).
    interactive |= validation.iter().any(|w| w == "interactive");
    multi_pass |= validation.iter().any(|w| w == "multi-pass");
    if let Some(word) = validation.iter().find(|w| {
        !matches!(
            w.as_str(),
            "default" | "custom" | "score" | "interactive" | "multi-pass"
        )
    }) {
        return Err(at(&format!(
            "validation: unknown word {word:?} (expected default or custom, and interactive, multi-pass or score)"
        )));
    }

    // Limits.
    let limits = yaml.limits.unwrap_or_default();
    let seconds = |v: Option<f64>, key: &str| -> Result<Option<Duration>, String> {
        match v {
            None => Ok(None),
            Some(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
            Some(s) => Err(at(&format!(
                "limits.{key}: {s} is not a positive number of seconds"
            ))),
        }
    };
    let mib = |v: Option<f64>, key: &str, default: u64| -> Result<u64, String> {
        match v {
            None => Ok(default << 20),
            Some(m) if m.is_finite() && m > 0.0 => Ok((m * 1048576.0) as u64),
            Some(m) => Err(at(&format!(
                "limits.{key}: {m} is not a positive number of MiB"
            ))),
        }
    };
    let mut time_limit = seconds(limits.time_limit, "time_limit")?;
    let mut time_limit_from = "problem.yaml limits.time_limit";
    if time_limit.is_none() {
        time_limit = read_timelimit_file(root)?;
        time_limit_from = ".timelimit";
    }
    if time_limit.is_none() {
        time_limit = read_domjudge_ini(root)?;
        time_limit_from = "domjudge-problem.ini timelimit";
    }
    // problemtools' rule (legacy multiplier 5) and the 2023-07 default (2).
    let multiplier = match version {
        FormatVersion::Legacy => limits.time_multiplier.unwrap_or(5.0),
        _ => limits
            .time_multipliers
            .as_ref()
            .and_then(|m| m.ac_to_time_limit)
            .or(limits.time_multiplier)
            .unwrap_or(2.0),
    };
    let resolution = limits.time_resolution.unwrap_or(1.0);
    if !(multiplier.is_finite() && multiplier > 0.0 && resolution.is_finite() && resolution > 0.0) {
        return Err(at(
            "limits: the time multiplier and resolution must be positive numbers",
        ));
    }
    let time_inference = time_limit.is_none().then_some(TimeInference {
        multiplier,
        resolution,
    });
    let memory = mib(limits.memory, "memory", DEFAULT_MEMORY_MIB)?;
    let output = mib(limits.output, "output", DEFAULT_OUTPUT_MIB)?;
    let tool_time_limit = seconds(limits.validation_time, "validation_time")?;

    // Output validation.
    let output_validator = output_validator(root, &mut warnings)?;
    if (interactive || multi_pass) && output_validator.is_none() {
        return Err(at(&format!(
            "an {} problem needs its output validator (output_validator/ or output_validators/), and there is none",
            if interactive {
                "interactive"
            } else {
                "multi-pass"
            }
        )));
    }
    let passes = if multi_pass {
        match limits.validation_passes {
            Some(0) => return Err(at("limits.validation_passes: at least 1 pass")),
            Some(n) => n,
            None => 2,
        }
    } else {
        1
    };
    let custom = if interactive || multi_pass || validation.iter().any(|w| w == "custom") {
        if output_validator.is_none() {
            return Err(at(
                "validation: custom, but there is no program in output_validators/",
            ));
        }
        true
    } else if validation.iter().any(|w| w == "default") {
        false
    } else {
        output_validator.is_some()
    };
    let flags_text = yaml.validator_flags.unwrap_or_default();
    let validator_flags = shlex::split(&flags_text).ok_or_else(|| {
        at(&format!(
            "validator_flags {flags_text:?}: unbalanced quotes"
        ))
    })?;
    let default_check = if custom {
        DefaultCheck::default()
    } else {
        default_check(&validator_flags).map_err(|e| at(&format!("validator_flags: {e}")))?
    };

    if version != FormatVersion::Legacy && !validator_flags.is_empty() {
        warnings.push(at(&format!(
            "validator_flags belongs to the legacy format; in {} the output validator's arguments are output_validator_args in {} (used anyway)",
            version.name(),
            version.group_file()
        )));
    }
    let input_validators = input_validators(root, &mut warnings)?;
    let answer_validators = program_dir(root, "answer_validators", &mut warnings)?;
    warnings.extend(unacted_folders(root));
    let groups = read_groups(root, version, &mut warnings)?;
    let mut submission_rules = submission_rules(root, &mut warnings)?;
    if !scoring_type {
        // A score is only for scoring problems (the format says so):
        // named, not checked.
        for rule in &mut submission_rules {
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
    let scoring = if scoring_type {
        Some(scoring::plan(root, version, &groups, &mut warnings)?)
    } else {
        // Scoring keys on a pass-fail problem: named once, not used.
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
        None
    };
    Ok(Package {
        root: root.to_path_buf(),
        name,
        time_limit,
        time_limit_from,
        time_inference,
        memory,
        output,
        tool_time_limit,
        output_validator: output_validator.filter(|_| custom),
        validator_flags: if custom { validator_flags } else { Vec::new() },
        default_check,
        input_validators,
        interactive,
        passes,
        answer_validators,
        version,
        groups,
        submission_rules,
        scoring,
        warnings,
    })
}

/// The groups' settings files: the version's own name; the other name is
/// read too (with a warning), as packages move between versions.
fn read_groups(
    root: &Path,
    version: FormatVersion,
    warnings: &mut Vec<String>,
) -> Result<Vec<GroupSettings>, String> {
    let data = root.join("data");
    let own = version.group_file();
    let groups = groups::read(&data, own, warnings)?;
    if !groups.is_empty() {
        return Ok(groups);
    }
    let other = if own == "testdata.yaml" {
        "test_group.yaml"
    } else {
        "testdata.yaml"
    };
    let groups = groups::read(&data, other, warnings)?;
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

/// A package's top-level folders the judge does not act on, one warning
/// each. The statement, attachments and solution folders describe the
/// problem and are read past.
fn unacted_folders(root: &Path) -> Vec<String> {
    const ACTED: [&str; 10] = [
        "data",
        "submissions",
        "input_validators",
        "input_format_validators",
        "input_validator",
        "output_validators",
        "output_validator",
        "answer_validators",
        "include",
        "generators",
    ];
    const DESCRIPTIVE: [&str; 5] = [
        "problem_statement",
        "statement",
        "attachments",
        "solution",
        "solutions",
    ];
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .filter(|n| !ACTED.contains(&n.as_str()) && !DESCRIPTIVE.contains(&n.as_str()))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| format!("{}: {n}/: not acted on", root.join(&n).display()))
        .collect()
}

/// problem.yaml's keys the judge does not act on, one warning each.
/// Descriptive keys (name, author, source, license, …) are read past.
fn unacted_keys(value: &serde_norway::Value, path: &Path) -> Vec<String> {
    const READ: [&str; 5] = [
        "problem_format_version",
        "type",
        "validation",
        "validator_flags",
        "limits",
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
                for limit in limits.keys().filter_map(|k| k.as_str()) {
                    if !LIMITS_READ.contains(&limit) {
                        warnings.push(format!("{}: limits.{limit}: not acted on", path.display()));
                    }
                }
            }
            continue;
        }
        warnings.push(format!("{}: {key}: not acted on", path.display()));
    }
    warnings
}

/// DOMjudge's `domjudge-problem.ini`: its `timelimit` (seconds, quoted or
/// not). Its other keys (`name`, `color`, `externalid`, …) describe the
/// problem in DOMjudge and are not used.
fn read_domjudge_ini(root: &Path) -> Result<Option<Duration>, String> {
    let path = root.join("domjudge-problem.ini");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    for (n, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "timelimit" {
            continue;
        }
        let value = value.trim().trim_matches(|c| c == '\'' || c == '"');
        return match value.parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
            _ => Err(format!(
                "{}:{}: timelimit: expected a number of seconds, found {value:?}",
                path.display(),
                n + 1
            )),
        };
    }
    Ok(None)
}

/// A `.timelimit` file: one number of seconds.
fn read_timelimit_file(root: &Path) -> Result<Option<Duration>, String> {
    let path = root.join(".timelimit");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
        _ => Err(format!(
            "{}: expected a number of seconds, found {:?}",
            path.display(),
            text.trim()
        )),
    }
}

/// The default validator's flags.
pub(crate) fn default_check(flags: &[String]) -> Result<DefaultCheck, String> {
    let mut check = DefaultCheck::default();
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut number = || -> Result<f64, String> {
            let value = words
                .next()
                .ok_or_else(|| format!("{flag} needs a number after it"))?;
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("{flag} {value:?}: expected a non-negative number"))
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
                return Err(format!(
                    "unknown flag {other:?} for the default validator (case_sensitive, space_change_sensitive, float_tolerance E, float_absolute_tolerance E, float_relative_tolerance E)"
                ));
            }
        }
    }
    Ok(check)
}

/// Entries of a program directory that are programs: directories, sources
/// and scripts the judge can run, executables. Headers and notes are not.
fn program_entries(dir: &Path, warnings: &mut Vec<String>) -> Result<Vec<PathBuf>, String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    let mut programs = Vec::new();
    for path in entries {
        if path.is_dir() {
            programs.push(path);
            continue;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string();
        let executable = {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(&path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
        };
        match ext.as_str() {
            "c" | "cpp" | "cc" | "cxx" | "c++" | "py" | "sh" => programs.push(path),
            "h" | "hpp" | "hh" | "txt" | "md" => {}
            "ctd" | "viva" => warnings.push(format!(
                "{}: {} scripts are not supported; skipped",
                path.display(),
                if ext == "ctd" {
                    "checktestdata"
                } else {
                    "VIVA"
                }
            )),
            _ if executable => programs.push(path),
            _ => {}
        }
    }
    Ok(programs)
}

fn display(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `output_validator/` (the directory is the program) or
/// `output_validators/` (one program in it, or its files together).
fn output_validator(root: &Path, warnings: &mut Vec<String>) -> Result<Option<Tool>, String> {
    let single = root.join("output_validator");
    if single.is_dir() {
        // The directory is the program, unless all it holds is one program
        // directory (`output_validator/checker/…`, as some packages have it).
        let entries = program_entries(&single, warnings)?;
        if let [one] = entries.as_slice()
            && one.is_dir()
        {
            return Ok(Some(Tool::from_path(one, display(root, one))));
        }
        return Ok(Some(Tool::from_path(&single, display(root, &single))));
    }
    let dir = root.join("output_validators");
    if !dir.is_dir() {
        return Ok(None);
    }
    let programs = program_entries(&dir, warnings)?;
    match programs.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(Tool::from_path(one, display(root, one)))),
        many if many.iter().all(|p| p.is_file()) => {
            // Several source files: one program, compiled together.
            Ok(Some(Tool::from_path(&dir, display(root, &dir))))
        }
        many => Err(format!(
            "{}: {} programs; a package has one output validator",
            dir.display(),
            many.len()
        )),
    }
}

/// Every program in `input_validators/`, else in the old name
/// `input_format_validators/`; `input_validator/` (one program, as the
/// 2025-09 drafts name it) is read too.
fn input_validators(root: &Path, warnings: &mut Vec<String>) -> Result<Vec<Tool>, String> {
    let single = root.join("input_validator");
    let mut tools = Vec::new();
    if single.is_dir() {
        tools.push(Tool::from_path(&single, display(root, &single)));
    }
    let plural = program_dir(root, "input_validators", warnings)?;
    if plural.is_empty() && tools.is_empty() {
        return program_dir(root, "input_format_validators", warnings);
    }
    if root.join("input_format_validators").is_dir() && !plural.is_empty() {
        warnings.push(format!(
            "{}: input_format_validators/ is the old name of input_validators/; only input_validators/ is used",
            root.display()
        ));
    }
    tools.extend(plural);
    Ok(tools)
}

/// Every program in `root/name/`.
fn program_dir(root: &Path, name: &str, warnings: &mut Vec<String>) -> Result<Vec<Tool>, String> {
    let dir = root.join(name);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    Ok(program_entries(&dir, warnings)?
        .into_iter()
        .map(|p| Tool::from_path(&p, display(root, &p)))
        .collect())
}

/// Where a package's cases are: `data/`, in these groups, in this order.
pub const CASE_GROUPS: [&str; 2] = ["sample", "secret"];

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn limits_and_default_validator_flags() {
        let dir = package(&[(
            "problem.yaml",
            "name: Hello\nsource: NCPC\nvalidator_flags: float_tolerance 1e-6 case_sensitive\nlimits:\n  time_limit: 2.5\n  memory: 512\n  output: 16\n  time_multiplier: 5\n",
        )]);
        let p = load(dir.path()).unwrap();
        assert_eq!(p.time_limit, Some(Duration::from_millis(2500)));
        assert_eq!(p.memory, 512 << 20);
        assert_eq!(p.output, 16 << 20);
        assert!(p.output_validator.is_none());
        assert_eq!(
            p.default_check,
            DefaultCheck {
                case_sensitive: true,
                space_change_sensitive: false,
                float_absolute: Some(1e-6),
                float_relative: Some(1e-6),
            }
        );
    }

    #[test]
    fn a_domjudge_ini_gives_the_time_limit_when_nothing_else_does() {
        let dir = package(&[
            ("problem.yaml", "name: Hello\n"),
            (
                "domjudge-problem.ini",
                "name='Hello'\ntimelimit='2.5'\ncolor='#ff0000'\n",
            ),
        ]);
        let p = load(dir.path()).unwrap();
        assert_eq!(p.time_limit, Some(Duration::from_millis(2500)));
        assert_eq!(p.time_limit_from, "domjudge-problem.ini timelimit");
        let dir = package(&[
            ("problem.yaml", ""),
            ("domjudge-problem.ini", "timelimit = soon\n"),
        ]);
        assert!(
            load(dir.path())
                .unwrap_err()
                .contains("domjudge-problem.ini:1: timelimit")
        );
    }

    #[test]
    fn empty_yaml_timelimit_file_and_format_defaults() {
        let dir = package(&[("problem.yaml", ""), (".timelimit", "3\n")]);
        let p = load(dir.path()).unwrap();
        assert_eq!(p.time_limit, Some(Duration::from_secs(3)));
        assert_eq!(p.memory, DEFAULT_MEMORY_MIB << 20);
        assert_eq!(p.output, DEFAULT_OUTPUT_MIB << 20);
    }

    #[test]
    fn custom_validation_and_programs() {
        let dir = package(&[
            (
                "problem.yaml",
                "validation: custom\nvalidator_flags: -x 3\n",
            ),
            ("output_validators/check/check.cpp", ""),
            ("input_validators/a.py", ""),
            ("input_validators/b/validate.cpp", ""),
            ("input_validators/testlib.h", ""),
            ("input_validators/c.ctd", ""),
        ]);
        let p = load(dir.path()).unwrap();
        let v = p.output_validator.unwrap();
        assert_eq!(v.display, "output_validators/check");
        assert_eq!(p.validator_flags, ["-x", "3"]);
        let names: Vec<&str> = p
            .input_validators
            .iter()
            .map(|t| t.display.as_str())
            .collect();
        assert_eq!(names, ["input_validators/a.py", "input_validators/b"]);
        assert!(p.warnings[0].contains("checktestdata"), "{:?}", p.warnings);
    }

    #[test]
    fn package_root_is_the_package_or_holds_the_path_in_data() {
        let dir = package(&[
            ("problem.yaml", ""),
            ("data/secret/1.in", ""),
            ("input_validators/v.sh", ""),
        ]);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(package_root(dir.path()), Some(root.clone()));
        assert_eq!(
            package_root(&dir.path().join("data/secret/1.in")),
            Some(root)
        );
        assert_eq!(package_root(&dir.path().join("input_validators")), None);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let dir = package(&[("problem.yaml", "limits:\n  memory: lots\n")]);
        let e = load(dir.path()).unwrap_err();
        assert!(e.contains("problem.yaml:2:"), "{e}");
        let dir = package(&[("problem.yaml", "validation: custom interactive\n")]);
        assert!(
            load(dir.path())
                .unwrap_err()
                .contains("an interactive problem needs its output validator")
        );
        let dir = package(&[("problem.yaml", "validation: custom\n")]);
        assert!(load(dir.path()).unwrap_err().contains("no program"));
        let dir = package(&[("problem.yaml", "validator_flags: fuzzy\n")]);
        assert!(
            load(dir.path())
                .unwrap_err()
                .contains("unknown flag \"fuzzy\"")
        );
        let dir = package(&[("problem.yaml", "type: submit-answer\n")]);
        assert!(load(dir.path()).unwrap_err().contains("not supported"));
    }
}
