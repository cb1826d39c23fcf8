//! The checker of a Polygon package: its source built (a full package
//! holds `files/check.cpp`, or `check.cpp` at the root), or, for a
//! `std::` testlib checker given by name alone, the judge's own comparison
//! with that checker's meaning.

use super::read::{Checker, Program};
use crate::check::Comparison;
use crate::check::external::{ExternalChecker, Protocol};
use crate::check::text::FloatTolerance;
use crate::check::tool::Tool;
use crate::formats::error::{FormatError, Place};
use std::path::Path;
use std::time::Duration;

/// The testlib standard checkers the judge compares by itself, and how.
/// `wcmp`/`ncmp`/`hcmp`/`icmp`, `casewcmp`/`casencmp` (their `Case #i:`
/// lines are tokens too): token by token (the numbers' text is compared:
/// `01` is not `1`); `lcmp`/`fcmp`: line by line;
/// `rcmp4`/`rcmp6`/`rcmp9`, `dcmp`: doubles within 1e-4, 1e-6, 1e-9, 1e-6
/// absolute or relative; `rcmp`/`acmp`: 1.5e-6 absolute;
/// `yesno`/`nyesno`/`caseicmp`: tokens in any case.
pub fn standard(name: &str) -> Option<Comparison> {
    let stem = name.strip_prefix("std::")?.trim_end_matches(".cpp");
    let tokens = |abs: Option<f64>, rel: Option<f64>, case_insensitive| Comparison::Tokens {
        float: FloatTolerance::new(abs, rel),
        case_insensitive,
    };
    Some(match stem {
        "wcmp" | "ncmp" | "hcmp" | "icmp" | "casewcmp" | "casencmp" => tokens(None, None, false),
        "lcmp" | "fcmp" => Comparison::Lines,
        "rcmp4" => tokens(Some(1e-4), Some(1e-4), false),
        "rcmp6" | "dcmp" => tokens(Some(1e-6), Some(1e-6), false),
        "rcmp9" => tokens(Some(1e-9), Some(1e-9), false),
        "rcmp" | "acmp" => tokens(Some(1.5e-6), None, false),
        "yesno" | "nyesno" | "caseicmp" => tokens(None, None, true),
        _ => return None,
    })
}

/// A program's source as a tool, checked to exist.
pub fn tool(root: &Path, program: &Program, file: &Path, what: &str) -> Result<Tool, FormatError> {
    let path = super::read::inside(root, &program.path, file, program.line)?;
    if !path.is_file() {
        return Err(FormatError::rule(
            Place::line(file, program.line),
            format!("the {what}'s source {} is not in the package", program.path),
        ));
    }
    super::languages::check_type(program, file)?;
    Ok(Tool::from_path(&path, program.path.clone()))
}

/// How the package's outputs are judged (without an interactor): its
/// checker's source built (testlib protocol), or a standard checker's
/// meaning. No checker at all: tokens, as `std::wcmp` (with a warning).
pub fn comparison(
    root: &Path,
    checker: Option<&Checker>,
    file: &Path,
    time_limit: Duration,
    points: crate::check::external::TestlibPoints,
    warnings: &mut Vec<String>,
) -> Result<Comparison, FormatError> {
    let external = |tool: Tool| {
        Comparison::Checker(ExternalChecker {
            tool,
            protocol: Protocol::Testlib,
            time_limit,
            flags: Vec::new(),
            points,
        })
    };
    let Some(checker) = checker else {
        warnings.push(format!(
            "{}: no <checker>: outputs compared as tokens (as std::wcmp)",
            file.display()
        ));
        return Ok(standard("std::wcmp").unwrap_or(Comparison::Lines));
    };
    if let Some(source) = &checker.source
        && root.join(&source.path).is_file()
    {
        return tool(root, source, file, "checker").map(external);
    }
    if root.join("check.cpp").is_file() {
        return Ok(external(Tool::from_path(
            &root.join("check.cpp"),
            "check.cpp".to_string(),
        )));
    }
    if let Some(name) = &checker.name
        && let Some(comparison) = standard(name)
    {
        warnings.push(format!(
            "{}: checker {name}: its source is not in the package; judged by the judge's own comparison with its meaning ({})",
            file.display(),
            comparison.name()
        ));
        return Ok(comparison);
    }
    Err(FormatError::rule(
        Place::file(file),
        format!(
            "the checker {} has no source in the package{}",
            checker
                .source
                .as_ref()
                .map_or("(unnamed)".to_string(), |s| s.path.clone()),
            match &checker.name {
                Some(n) => format!(" and {n} is not a standard checker the judge knows"),
                None => String::new(),
            }
        ),
    ))
}
