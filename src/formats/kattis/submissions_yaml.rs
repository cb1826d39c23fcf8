//! A 2025-09 package's `submissions/submissions.yaml`: what each glob of
//! submissions is expected to get (verdicts, score, a group's score) and how
//! it is built (`entrypoint`, `language`).

use super::groups;
use crate::expect::{NodeExpectation, SubmissionRule};
use crate::formats::error::{FormatError, Place};
use std::path::Path;

/// `submissions/submissions.yaml`: a map from a glob (relative to
/// `submissions/`) to `permitted`, `required`, `entrypoint`, `language`.
/// `score` (a number or a range) for the submission, and for a test data
/// group under its key; descriptive keys (`message`, `author(s)`,
/// `model_solution`) are read past.
pub(super) fn submission_rules(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<SubmissionRule>, FormatError> {
    let path = root.join("submissions").join("submissions.yaml");
    let Ok(text) = crate::exec::bounded_read::read_package_text(
        &path,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    ) else {
        return Ok(Vec::new());
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    FormatError::shallow_yaml(&path, &text)?;
    let value: serde_norway::Value = serde_norway::from_str(crate::text::without_bom(&text))
        .map_err(|e| FormatError::yaml(&path, &e))?;
    let serde_norway::Value::Mapping(map) = value else {
        return Err(FormatError::rule(
            Place::file(&path),
            "expected a map from submission globs to their expectations",
        ));
    };
    let mut rules = Vec::new();
    for (pattern, entry) in &map {
        let Some(pattern) = pattern.as_str() else {
            return Err(FormatError::rule(
                Place::file(&path),
                format!("a key that is not a string: {pattern:?}"),
            ));
        };
        let at = |key: &str, what: String| {
            FormatError::key(
                Place::file(&path),
                format!("{pattern}.{key}"),
                None,
                format!("{pattern}: {key}: {what}"),
            )
        };
        let serde_norway::Value::Mapping(fields) = entry else {
            return Err(at(
                "",
                "expected a map (permitted, required, …)".to_string(),
            ));
        };
        let mut rule = SubmissionRule::new(pattern);
        for (key, value) in fields {
            let key = key.as_str().unwrap_or("");
            let verdicts =
                |value: &serde_norway::Value| -> Result<Vec<crate::verdict::Verdict>, FormatError> {
                    let words = groups::words(value).map_err(|e| at(key, e.to_string()))?;
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
                "message" => warnings.push(format!(
                    "{}: {pattern}: message: not checked (the judge keeps a line of each case's judgemessage.txt, not the whole text the spec's substring test reads)",
                    path.display()
                )),
                "author" | "authors" | "model_solution" => {}
                node if is_test_node(node) => {
                    // Requirements for one test data node (a group, a
                    // directory, a case; a glob): its verdicts and score.
                    let serde_norway::Value::Mapping(inner) = value else {
                        return Err(at(
                            node,
                            "expected a map (score, permitted, required)".to_string(),
                        ));
                    };
                    let mut expected = NodeExpectation {
                        pattern: node.to_string(),
                        permitted: None,
                        required: None,
                    };
                    expected.matcher().map_err(|e| at(node, e.to_string()))?;
                    for (k, v) in inner {
                        match k.as_str().unwrap_or("") {
                            "score" if node.contains(['*', '?', '[', '{']) => {
                                warnings.push(format!(
                                    "{}: {pattern}: {node}: score: not acted on: a score is a group's, and a glob names no one group",
                                    path.display()
                                ));
                            }
                            "score" => rule
                                .group_scores
                                .push((node.to_string(), score_range(v).map_err(|e| at(node, e))?)),
                            "permitted" => expected.permitted = Some(verdicts(v)?),
                            "required" => expected.required = Some(verdicts(v)?),
                            other => warnings.push(format!(
                                "{}: {pattern}: {node}: {}; ignored",
                                path.display(),
                                crate::text::format::unknown_key(
                                    other,
                                    &["score", "permitted", "required"]
                                )
                            )),
                        }
                    }
                    if expected.permitted.is_some() || expected.required.is_some() {
                        rule.nodes.push(expected);
                    }
                }
                other => warnings.push(format!(
                    "{}: {pattern}: {}; ignored",
                    path.display(),
                    crate::text::format::unknown_key(
                        other,
                        &[
                            "permitted",
                            "required",
                            "entrypoint",
                            "language",
                            "score",
                            "message",
                            "author",
                            "authors",
                            "model_solution",
                        ]
                    )
                )),
            }
        }
        rules.push(rule);
    }
    Ok(rules)
}

/// A key that names test data (`sample`, `secret/group1`, `secret/*/huge`,
/// `*/sample/foo`), as the format's schema has them: `sample`, `secret` or
/// `*` first.
fn is_test_node(key: &str) -> bool {
    let first = key.split('/').next().unwrap_or("");
    matches!(first, "sample" | "secret" | "*")
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
