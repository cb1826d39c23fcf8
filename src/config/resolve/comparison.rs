//! How a problem's outputs are judged: the check kind and its settings
//! (tolerances, a checker, an interactor or a package's interactive
//! validator), and the keys that only fit another check.

use super::{Sources, SpannedMessage};
use crate::check::Comparison;
use crate::config::schema::ProblemTable;
use crate::config::{CheckKind, Overrides, tools};
use crate::formats::kattis;
use crate::puzzles::{self, Puzzle};
use std::path::Path;

/// How outputs are judged: the check kind (flag, table, a checker, the
/// package, a puzzle's own) and its settings.
pub(super) fn comparison(s: &Sources<'_>) -> Result<Comparison, SpannedMessage> {
    let Sources {
        table,
        root,
        overrides,
        puzzle,
        base,
        package,
        ..
    } = *s;
    let check_span = table.check.as_ref().map(|c| c.span());
    let package_kind = package.map(|p| {
        if p.output_validator.is_some() {
            CheckKind::Checker
        } else {
            CheckKind::Tokens
        }
    });
    let kind = overrides
        .comparison
        .or(table.check.as_ref().map(|c| *c.get_ref()))
        .or(table.checker.as_ref().map(|_| CheckKind::Checker))
        .or(package_kind)
        .unwrap_or(if puzzle.is_some() {
            CheckKind::Puzzle
        } else {
            CheckKind::Tokens
        });
    let package_check = package.map(|p| p.default_check).unwrap_or_default();
    // A tolerance from the flag or the top level is a default for every
    // problem compared as tokens, and leaves the others alone; one the
    // problem's own table sets must fit its check (below).
    let absolute = overrides
        .float_tolerance
        .or(table.float_absolute_tolerance)
        .or(table.float_tolerance)
        .or(root.float_absolute_tolerance)
        .or(root.float_tolerance);
    let relative = overrides
        .float_tolerance
        .or(table.float_relative_tolerance)
        .or(table.float_tolerance)
        .or(root.float_relative_tolerance)
        .or(root.float_tolerance);
    let configured_tolerance = absolute.is_some() || relative.is_some();
    let (absolute, relative) = if configured_tolerance {
        (absolute, relative)
    } else {
        (package_check.float_absolute, package_check.float_relative)
    };
    let base_dir = base.unwrap_or(Path::new("."));
    let tool_time = tools::time_limit(table, root, package)?;
    if let Some(interaction) = interaction(table, overrides, package, base_dir, tool_time)? {
        return Ok(Comparison::Interactive(interaction));
    }
    Ok(match kind {
        CheckKind::Exact => Comparison::Exact,
        CheckKind::Lines => Comparison::Lines,
        CheckKind::Tokens => Comparison::Tokens {
            float: crate::check::text::FloatTolerance::new(absolute, relative),
            case_insensitive: package.is_some() && !package_check.case_sensitive,
        },
        CheckKind::Checker => Comparison::Checker(tools::checker(
            table,
            package,
            base_dir,
            tool_time,
            check_span.clone(),
        )?),
        CheckKind::Puzzle => {
            if puzzle.is_none() {
                return Err((
                    format!(
                        "check = \"puzzle\" needs a built-in puzzle: add puzzle = \"…\" (one of {})",
                        puzzles::names().join(", ")
                    ),
                    check_span,
                ));
            }
            Comparison::Puzzle
        }
    })
}

/// An interactive or multi-pass problem: judge.toml's testlib
/// `interactor`, or a package of `type: interactive` / `multi-pass` (its
/// output validator, Kattis protocol) unless the command line or the
/// table chooses another check.
fn interaction(
    table: &ProblemTable,
    overrides: &Overrides,
    package: Option<&kattis::Package>,
    base: &Path,
    time_limit: std::time::Duration,
) -> Result<Option<crate::check::interactive::Interaction>, SpannedMessage> {
    use crate::check::external::Protocol;
    use crate::check::interactive::Interaction;
    if let Some(command) = &table.interactor {
        let tool = crate::check::tool::Tool::from_command(command.get_ref(), base)
            .map_err(|e| (format!("interactor: {e}"), Some(command.span())))?;
        // With a `checker` too, the Polygon model: the interactor talks
        // and writes tout, the checker judges tout.
        let checker = match &table.checker {
            Some(_) => Some(Box::new(tools::checker(
                table, package, base, time_limit, None,
            )?)),
            None => None,
        };
        return Ok(Some(Interaction {
            tool,
            protocol: Protocol::Testlib,
            time_limit,
            flags: Vec::new(),
            interactive: true,
            passes: 1,
            checker,
        }));
    }
    let Some(p) = package.filter(|p| p.interactive || p.passes > 1) else {
        return Ok(None);
    };
    if table.check.is_some() || overrides.comparison.is_some() {
        return Ok(None);
    }
    let Some(tool) = p.output_validator.clone() else {
        return Err((
            format!(
                "{}: an interactive or multi-pass package needs an output validator",
                p.root.display()
            ),
            None,
        ));
    };
    Ok(Some(Interaction {
        tool,
        protocol: Protocol::Kattis,
        time_limit,
        flags: p.validator_flags.clone(),
        interactive: p.interactive,
        passes: p.passes,
        checker: None,
    }))
}

/// Keys that only apply to other checks or to puzzles.
pub(super) fn check_keys_fit(
    table: &ProblemTable,
    overrides: &Overrides,
    puzzle: Option<&'static dyn Puzzle>,
    comparison: &Comparison,
) -> Result<(), SpannedMessage> {
    let check_span = table.check.as_ref().map(|c| c.span());
    let table_tolerance = table.float_tolerance.is_some()
        || table.float_absolute_tolerance.is_some()
        || table.float_relative_tolerance.is_some();
    if let Some(checker) = &table.checker
        && table.check.is_some()
        && !matches!(comparison, Comparison::Checker(_))
        && overrides.comparison.is_none()
    {
        return Err((
            "checker = \"…\" is only used with check = \"checker\"".to_string(),
            Some(checker.span()),
        ));
    }
    if let (Some(checker), Comparison::Interactive(interaction)) = (&table.checker, comparison)
        && interaction.checker.is_none()
    {
        return Err((
            "checker = \"…\" has no part here: the package's interactive or multi-pass validator judges its cases (a checker goes with a testlib interactor = \"…\")".to_string(),
            Some(checker.span()),
        ));
    }
    if let Some(lexmin) = &table.lexmin
        && puzzle.is_none()
    {
        return Err((
            "lexmin only applies to a puzzle problem (puzzle = \"…\"): other problems' answers are compared, not proven smallest".to_string(),
            Some(lexmin.span()),
        ));
    }
    if table_tolerance && !matches!(comparison, Comparison::Tokens { .. }) {
        return Err((
            "a float tolerance only applies to check = \"tokens\"".to_string(),
            check_span,
        ));
    }
    Ok(())
}
