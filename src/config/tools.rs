//! The problem setter's tools of a judge.toml problem: `checker`,
//! `checker_protocol`, `checker_time_limit`, `validator` and
//! `validator_protocol`, from the problem's table, else from its package.
//! This resolves names and paths only; building and running the programs is
//! `check::tool`'s job.

use super::resolve::SpannedMessage;
use super::schema::{ProblemTable, RootTable};
use crate::check::external::{ExternalChecker, InputValidator, Protocol};
use crate::check::tool::{DEFAULT_TOOL_TIME_LIMIT, Tool};
use crate::formats::kattis::Package;
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

/// `validator = "CMD"` or `validator = ["CMD", "CMD"]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// The time limit of one checker or validator run: the table's, the
/// package's `validation_time`, the top level's, or 10 s.
pub(super) fn time_limit(
    table: &ProblemTable,
    root: &RootTable,
    package: Option<&Package>,
) -> Result<Duration, SpannedMessage> {
    let time = table
        .checker_time_limit
        .map(|s| s.0)
        .or(package.and_then(|p| p.limits.tool_time_limit))
        .or(root.checker_time_limit.map(|s| s.0))
        .unwrap_or(DEFAULT_TOOL_TIME_LIMIT);
    if time.is_zero() {
        return Err((
            "checker_time_limit must be greater than zero".to_string(),
            None,
        ));
    }
    Ok(time)
}

/// `check = "checker"`: the table's `checker` (testlib unless
/// `checker_protocol` says otherwise), else the package's output validator
/// (Kattis, with its `validator_flags`).
pub(super) fn checker(
    table: &ProblemTable,
    package: Option<&Package>,
    base: &Path,
    time_limit: Duration,
    check_span: Option<std::ops::Range<usize>>,
) -> Result<ExternalChecker, SpannedMessage> {
    if let Some(command) = &table.checker {
        return Ok(ExternalChecker {
            tool: Tool::from_command(command.get_ref(), base)
                .map_err(|e| (format!("checker: {e}"), Some(command.span())))?,
            protocol: table.checker_protocol.unwrap_or_default(),
            time_limit,
            flags: Vec::new(),
            points: Default::default(),
        });
    }
    if let Some(package) = package
        && let Some(tool) = &package.output_validator
    {
        return Ok(ExternalChecker {
            tool: tool.clone(),
            protocol: table.checker_protocol.unwrap_or(Protocol::Kattis),
            time_limit,
            flags: package.validator_flags.clone(),
            points: Default::default(),
        });
    }
    Err((
        "check = \"checker\" needs checker = \"CMD\" (a program, a script or a C/C++ source, with checker_protocol = \"testlib\" or \"kattis\")".to_string(),
        check_span,
    ))
}

/// The table's `validator` commands (testlib unless `validator_protocol`
/// says otherwise), else the package's `input_validators/` (Kattis).
pub(super) fn validators(
    table: &ProblemTable,
    package: Option<&Package>,
    base: &Path,
    time_limit: Duration,
) -> Result<Vec<InputValidator>, SpannedMessage> {
    let validator = |tool: Tool, protocol: Protocol| InputValidator {
        tool,
        protocol,
        time_limit,
        flags: Vec::new(),
    };
    match (&table.validator, package) {
        (Some(list), _) => list
            .get_ref()
            .items()
            .into_iter()
            .map(|command| {
                Tool::from_command(command, base)
                    .map(|tool| validator(tool, table.validator_protocol.unwrap_or_default()))
                    .map_err(|e| (format!("validator: {e}"), Some(list.span())))
            })
            .collect(),
        (None, Some(p)) => Ok(p
            .input_validators
            .iter()
            .map(|tool| {
                validator(
                    tool.clone(),
                    table.validator_protocol.unwrap_or(Protocol::Kattis),
                )
            })
            .collect()),
        (None, None) => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Overrides};
    use crate::check::external::Protocol;
    use std::path::Path;
    use std::time::Duration;

    fn parse(text: &str) -> Result<Config, crate::config::ConfigError> {
        Config::parse(text, Path::new("judge.toml"), &Overrides::default())
    }

    /// The message of the error `text` is refused with.
    fn refused(text: &str) -> String {
        match parse(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn checker_and_validator_keys() {
        let c = parse(
            "checker_time_limit = \"3s\"\n[problem.p]\nchecker = \"python3 chk.py\"\nchecker_protocol = \"kattis\"\nvalidator = [\"v1\", \"./v2 --strict\"]\nvalidator_protocol = \"kattis\"\n[problem.q]\ncheck = \"checker\"\nchecker = \"bin/chk\"\nchecker_time_limit = \"500ms\"\n",
        )
        .unwrap();
        let p = c.problem("p").unwrap();
        let checker = p.comparison.checker().expect("check = checker is implied");
        assert_eq!(checker.protocol, Protocol::Kattis);
        assert_eq!(checker.time_limit, Duration::from_secs(3));
        assert_eq!(
            checker.tool.source,
            crate::check::tool::Source::Name("python3".into())
        );
        assert_eq!(p.validators.len(), 2);
        assert_eq!(p.validators[1].tool.args, ["--strict"]);
        assert!(p.validators.iter().all(|v| v.protocol == Protocol::Kattis));
        let q = c.problem("q").unwrap().comparison.checker().unwrap();
        assert_eq!(q.protocol, Protocol::Testlib, "testlib is the default");
        assert_eq!(q.time_limit, Duration::from_millis(500));
        assert!(
            refused("[problem.p]\nchecker = \"x\"\nchecker_time_limit = \"0s\"\n").contains(
                "judge.toml:3:22: \"0s\" is too short (at least 1ms) (key `checker_time_limit`)"
            )
        );
    }
}
