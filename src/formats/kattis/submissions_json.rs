//! DOMjudge's `submissions.json` at a package's root: each submission's
//! path (relative to the package, a directory's with a trailing `/`) to
//! its settings, of which the judge reads `entry_point`, the main file of
//! a multi-file submission (DOMjudge's own example `hello` names
//! `hello.js` of two JavaScript files so). It becomes a submission rule
//! with only an entrypoint, read before submissions.yaml's, whose
//! entrypoint wins where both give one.

use crate::expect::SubmissionRule;
use crate::formats::error::{FormatError, Place};
use std::path::Path;

/// The rules `submissions.json` gives (none when it is absent).
pub(super) fn entry_points(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<SubmissionRule>, FormatError> {
    let path = root.join("submissions.json");
    let Ok(text) = crate::exec::bounded_read::read_package_text(
        &path,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    ) else {
        return Ok(Vec::new());
    };
    let value: serde_json::Value =
        serde_json::from_str(crate::text::without_bom(&text)).map_err(|e| FormatError::Syntax {
            place: Place::at(&path, e.line(), e.column()),
            message: e.to_string(),
        })?;
    let serde_json::Value::Object(map) = value else {
        return Err(FormatError::rule(
            Place::file(&path),
            "expected an object from submission paths to their settings",
        ));
    };
    let mut rules = Vec::new();
    for (key, settings) in map {
        let Some(below) = key.strip_prefix("submissions/") else {
            warnings.push(format!(
                "{}: {key:?}: not a path under submissions/; not acted on",
                path.display()
            ));
            continue;
        };
        let serde_json::Value::Object(settings) = settings else {
            return Err(FormatError::key(
                Place::file(&path),
                key.clone(),
                Some(settings.to_string()),
                format!("{key:?}: expected an object of settings"),
            ));
        };
        let mut rule = SubmissionRule::new(below.trim_end_matches('/'));
        for (name, value) in settings {
            match (name.as_str(), value) {
                ("entry_point", serde_json::Value::String(entry)) => rule.entrypoint = Some(entry),
                ("entry_point", other) => {
                    return Err(FormatError::key(
                        Place::file(&path),
                        format!("{key}.entry_point"),
                        Some(other.to_string()),
                        format!("{key:?}: entry_point: expected a file name, found {other}"),
                    ));
                }
                (other, _) => warnings.push(format!(
                    "{}: {key:?}: {other}: not acted on (the judge reads entry_point)",
                    path.display()
                )),
            }
        }
        if rule.entrypoint.is_some() {
            rules.push(rule);
        }
    }
    Ok(rules)
}

/// Whether a package is DOMjudge's, judged by DOMjudge's rules: it has a
/// `domjudge-problem.ini`, or a `submissions.json` (DOMjudge's own file),
/// or a submission declaring DOMjudge's `@EXPECTED_RESULTS@:` (or the
/// older `@EXPECTED_SCORE@:`) — DOMjudge's example problems (`hello`,
/// `boolfind`, …) come with the tags and no ini file.
pub(super) fn is_domjudge(root: &Path) -> bool {
    if root.join("domjudge-problem.ini").is_file() || root.join("submissions.json").is_file() {
        return true;
    }
    walkdir::WalkDir::new(root.join("submissions"))
        .max_depth(4)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .any(|e| {
            let mut head = Vec::new();
            std::fs::File::open(e.path())
                .and_then(|f| {
                    std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head)
                })
                .is_ok()
                && [&b"@EXPECTED_RESULTS@:"[..], b"@EXPECTED_SCORE@:"]
                    .iter()
                    .any(|tag| head.windows(tag.len()).any(|w| w == *tag))
        })
}
