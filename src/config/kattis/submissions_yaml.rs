//! A 2025-09 package's `submissions/submissions.yaml`: what each glob of
//! submissions is expected to get (verdicts, score, a group's score) and how
//! it is built (`entrypoint`, `language`).

use super::groups;
use crate::expect::SubmissionRule;
use std::path::Path;

/// `submissions/submissions.yaml`: a map from a glob (relative to
/// `submissions/`) to `permitted`, `required`, `entrypoint`, `language`.
/// `score` (a number or a range) for the submission, and for a test data
/// group under its key; descriptive keys (`message`, `author(s)`,
/// `model_solution`) are read past.
pub(super) fn submission_rules(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<SubmissionRule>, String> {
    let path = root.join("submissions").join("submissions.yaml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value: serde_norway::Value =
        serde_norway::from_str(&text).map_err(|e| super::yaml_error(&path, &e))?;
    let serde_norway::Value::Mapping(map) = value else {
        return Err(format!(
            "{}: expected a map from submission globs to their expectations",
            path.display()
        ));
    };
    let mut rules = Vec::new();
    for (pattern, entry) in &map {
        let Some(pattern) = pattern.as_str() else {
            return Err(format!(
                "{}: a key that is not a string: {pattern:?}",
                path.display()
            ));
        };
        let at = |key: &str, what: String| format!("{}: {pattern}: {key}: {what}", path.display());
        let serde_norway::Value::Mapping(fields) = entry else {
            return Err(at(
                "",
                "expected a map (permitted, required, …)".to_string(),
            ));
        };
        let mut rule = SubmissionRule {
            pattern: pattern.to_string(),
            permitted: None,
            required: None,
            entrypoint: None,
            language: None,
            score: None,
            group_scores: Vec::new(),
        };
        for (key, value) in fields {
            let key = key.as_str().unwrap_or("");
            let verdicts =
                |value: &serde_norway::Value| -> Result<Vec<crate::verdict::Verdict>, String> {
                    let words = groups::words(value).map_err(|e| at(key, e))?;
                    words
                        .iter()
                        .map(|w| {
                            crate::expect::parse_verdict(w).map_err(|e| at(key, e.to_string()))
                        })
                        .collect()
                };
            match key {
                "permitted" => rule.permitted = Some(verdicts(value)?),
                "required" => rule.required = Some(verdicts(value)?),
                "entrypoint" => rule.entrypoint = value.as_str().map(String::from),
                "language" => rule.language = value.as_str().map(String::from),
                "score" => rule.score = Some(score_range(value).map_err(|e| at(key, e))?),
                "message" | "author" | "authors" | "model_solution" => {}
                group if group == "sample" || group.starts_with("secret") => {
                    // Requirements for one test data group: its score is
                    // checked; its verdict lists are not acted on (named).
                    let serde_norway::Value::Mapping(inner) = value else {
                        return Err(at(
                            group,
                            "expected a map (score, permitted, …)".to_string(),
                        ));
                    };
                    for (k, v) in inner {
                        match k.as_str().unwrap_or("") {
                            "score" => rule
                                .group_scores
                                .push((group.to_string(), score_range(v).map_err(|e| at(group, e))?)),
                            other => warnings.push(format!(
                                "{}: {pattern}: {group}: {other}: per-group requirements other than score are not acted on",
                                path.display()
                            )),
                        }
                    }
                }
                other => warnings.push(format!(
                    "{}: {pattern}: {other}: not acted on",
                    path.display()
                )),
            }
        }
        rules.push(rule);
    }
    Ok(rules)
}

/// `score: 70` or `score: [60, 80]` (inclusive).
fn score_range(value: &serde_norway::Value) -> Result<crate::score::ScoreRange, String> {
    let number = |v: &serde_norway::Value| v.as_f64().filter(|x| x.is_finite());
    match value {
        serde_norway::Value::Sequence(items) => match items.as_slice() {
            [a, b] => match (number(a), number(b)) {
                (Some(low), Some(high)) if low <= high => {
                    Ok(crate::score::ScoreRange { low, high })
                }
                _ => Err(format!("{value:?}: expected [low, high] with low <= high")),
            },
            _ => Err(format!("{value:?}: expected a number or [low, high]")),
        },
        other => number(other)
            .map(crate::score::ScoreRange::exactly)
            .ok_or_else(|| format!("{other:?}: expected a number or [low, high]")),
    }
}
