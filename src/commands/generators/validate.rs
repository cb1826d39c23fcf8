//! Validating a made case where it will be: its input by the built-in
//! puzzle's validator and the input validators (with its group's
//! arguments), its answer by the answer validators. Cases of the
//! `invalid_*` folders are made as they are (they are meant to fail).

use super::make::Ctx;
use crate::check::external::Validity;
use crate::check::tool::ToolContext;
use crate::formats::generators::INVALID_DIRECTORIES;
use std::collections::BTreeMap;
use std::path::Path;

type Files = BTreeMap<String, Vec<u8>>;

/// The validation's outcome (passed, failed or skipped) and the files, or
/// why they are refused.
pub(super) fn validate(
    ctx: &Ctx<'_>,
    path: &Path,
    files: Files,
    slot: usize,
) -> (&'static str, Result<Files, String>) {
    let top = path
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    if top
        .as_deref()
        .is_some_and(|t| INVALID_DIRECTORIES.contains(&t))
    {
        return ("skipped", Ok(files));
    }
    // A sample given only by its statement and download files: no input
    // to validate.
    if !files.contains_key("in") {
        return ("skipped", Ok(files));
    }
    match check(ctx, path, &files, slot) {
        Ok(()) => ("passed", Ok(files)),
        Err(e) => ("failed", Err(e)),
    }
}

fn check(ctx: &Ctx<'_>, path: &Path, files: &Files, slot: usize) -> Result<(), String> {
    let input_bytes = files.get("in").map(Vec::as_slice).unwrap_or_default();
    if let Some(puzzle) = ctx.problem.puzzle {
        puzzle
            .validate(input_bytes)
            .map_err(|e| format!("rejected by the built-in {} validator: {e}", puzzle.name()))?;
    }
    let answer_validators = !ctx.problem.answer_validators.is_empty() && files.contains_key("ans");
    if ctx.problem.validators.is_empty() && ctx.problem.groups.is_empty() && !answer_validators {
        return Ok(());
    }
    let dir = super::make::scratch(ctx.sandbox).map_err(|e| e.to_string())?;
    let input = dir.path().join("testcase.in");
    std::fs::write(&input, input_bytes).map_err(|e| e.to_string())?;
    // The group's settings: where the case will be.
    let target = ctx.data.join(path);
    let group_dir = target.parent().unwrap_or(ctx.data);
    ctx.confine.make_dirs(group_dir)?;
    let settings = ctx
        .problem
        .settings_for(Path::new(&format!("{}.in", target.display())));
    // The case's own yaml (written beside it) gives its arguments over the
    // group's, as `judge validate` reads them once it is written.
    let own = match files.get("yaml") {
        Some(yaml) => crate::config::with_case_input_args(
            &ctx.problem.validators,
            settings.as_deref(),
            yaml,
            ctx.problem.constants.as_deref(),
        )
        .map_err(|e| e.to_string())?,
        None => None,
    };
    let validators = crate::cases::CaseSettings::input_validators(
        own.as_ref().or(settings.as_deref()),
        &ctx.problem.validators,
    );
    let context = ToolContext {
        sandbox: ctx.sandbox,
        slot,
    };
    for v in validators.iter() {
        let validity = match v.check(context, &input) {
            Ok(validity) => validity,
            // A validator that cannot be built or run is a failure of that
            // validator (said once), not of every case it would check.
            Err(e) => {
                ctx.unrun(&v.tool.display, &e.to_string());
                continue;
            }
        };
        match validity {
            Validity::Valid => {}
            Validity::Invalid(m) | Validity::Undefined { message: m, .. } => {
                return Err(format!(
                    "rejected by input validator {}: {m}",
                    v.tool.display
                ));
            }
        }
    }
    let Some(answer) = files.get("ans") else {
        return Ok(());
    };
    check_answer(
        ctx,
        context,
        &input,
        &dir.path().join("testcase.ans"),
        answer,
    )
}

/// The case's answer through the package's answer validators (2025-09):
/// the answer on standard input, the input's path first among the flags.
fn check_answer(
    ctx: &Ctx<'_>,
    context: ToolContext<'_>,
    input: &Path,
    answer_path: &Path,
    answer: &[u8],
) -> Result<(), String> {
    std::fs::write(answer_path, answer).map_err(|e| e.to_string())?;
    for v in &ctx.problem.answer_validators {
        let mut v = v.clone();
        v.flags.insert(0, input.to_string_lossy().into_owned());
        let validity = match v.check(context, answer_path) {
            Ok(validity) => validity,
            Err(e) => {
                ctx.unrun(&v.tool.display, &e.to_string());
                continue;
            }
        };
        match validity {
            Validity::Valid => {}
            Validity::Invalid(m) | Validity::Undefined { message: m, .. } => {
                return Err(format!("answer rejected by {}: {m}", v.tool.display));
            }
        }
    }
    Ok(())
}
