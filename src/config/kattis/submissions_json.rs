//! DOMjudge's `submissions.json` at a package's root: each submission's
//! path (relative to the package, a directory's with a trailing `/`) to
//! its settings, of which the judge reads `entry_point`, the main file of
//! a multi-file submission (DOMjudge's own example `hello` names
//! `hello.js` of two JavaScript files so). It becomes a submission rule
//! with only an entrypoint, read before submissions.yaml's, whose
//! entrypoint wins where both give one.

use crate::expect::SubmissionRule;
use std::path::Path;

/// The rules `submissions.json` gives (none when it is absent).
pub(super) fn entry_points(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<SubmissionRule>, String> {
    let path = root.join("submissions.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let value: serde_json::Value = serde_json::from_str(crate::text::without_bom(&text))
        .map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))?;
    let serde_json::Value::Object(map) = value else {
        return Err(format!(
            "{}: expected an object from submission paths to their settings",
            path.display()
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
            return Err(format!(
                "{}: {key:?}: expected an object of settings",
                path.display()
            ));
        };
        let mut rule = SubmissionRule::new(below.trim_end_matches('/'));
        for (name, value) in settings {
            match (name.as_str(), value) {
                ("entry_point", serde_json::Value::String(entry)) => rule.entrypoint = Some(entry),
                ("entry_point", other) => {
                    return Err(format!(
                        "{}: {key:?}: entry_point: expected a file name, found {other}",
                        path.display()
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
