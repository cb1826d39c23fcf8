//! A judge.toml problem's `[problem.NAME.expect]` tables: per submission,
//! the permitted and required verdicts, a score and the groups' scores.

use super::places::KeyErrors;
use crate::config::ConfigError;
use crate::config::schema::ProblemTable;
use crate::expect::Expectation;
use toml::Spanned;

/// Each `expect` entry of problem `name`'s table, in the table's order:
/// the submission (a file or glob) and what it is expected to get.
pub(super) fn declared(
    name: &str,
    table: &ProblemTable,
    errors: KeyErrors<'_>,
) -> Result<Vec<(String, Expectation)>, ConfigError> {
    let mut expectations = Vec::new();
    for (submission, expect) in &table.expect {
        let key = |key: &str| format!("problem.{name}.expect.{submission:?}.{key}");
        let verdicts = |list: &Option<Vec<Spanned<String>>>, field: &str| {
            list.as_ref()
                .map(|items| {
                    items
                        .iter()
                        .map(|v| {
                            crate::expect::parse_verdict(v.get_ref())
                                .map_err(|e| errors.key(Some(v.span()), key(field), e.to_string()))
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()
        };
        let e = expect.get_ref();
        let permitted = verdicts(&e.permitted, "permitted")?;
        let required = verdicts(&e.required, "required")?;
        let score = e
            .score
            .as_ref()
            .map(|v| {
                v.get_ref()
                    .range()
                    .map_err(|m| errors.key(Some(v.span()), key("score"), m.to_string()))
            })
            .transpose()?;
        let mut group_scores = Vec::new();
        for (group, v) in &e.groups {
            let range = v
                .get_ref()
                .range()
                .map_err(|m| errors.key(Some(v.span()), key("groups"), m.to_string()))?;
            if !table.group.contains_key(group) {
                return Err(errors.key(
                    Some(v.span()),
                    key("groups"),
                    format!(
                        "{group:?} is not a group of problem {name} ([problem.{name}.group.*])"
                    ),
                ));
            }
            group_scores.push((group.clone(), range));
        }
        if permitted.is_none() && required.is_none() && score.is_none() && group_scores.is_empty() {
            return Err(errors.key(
                Some(expect.span()),
                format!("problem.{name}.expect.{submission:?}"),
                "say permitted = [...], required = [...], score = N or groups = { ... }"
                    .to_string(),
            ));
        }
        let mut expectation = Expectation::declared(permitted, required);
        expectation.score = score;
        expectation.group_scores = group_scores;
        expectations.push((submission.clone(), expectation));
    }
    Ok(expectations)
}
