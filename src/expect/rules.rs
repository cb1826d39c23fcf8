//! A 2025-09 package's `submissions.yaml` entries: what they say of the
//! submissions they match, of the test data nodes they name, and how they
//! change a folder's expectation.

use super::{Dialect, Expectation, Origin, ScoreRange, Verdict};

/// One entry of a 2025-09 `submissions/submissions.yaml`: the submissions
/// a glob matches (relative to `submissions/`, `*` within one directory,
/// `**` across, `{a,b}` alternatives) and what it says of them.
#[derive(Clone, Debug, PartialEq)]
pub struct SubmissionRule {
    pub pattern: String,
    pub permitted: Option<Vec<Verdict>>,
    pub required: Option<Vec<Verdict>>,
    /// The main file (or class) of a multi-file submission.
    pub entrypoint: Option<String>,
    /// The language, by its CLICS name.
    pub language: Option<String>,
    /// `score`: the submission's score, a number or an inclusive range.
    pub score: Option<ScoreRange>,
    /// `score` under a test data group's key (`secret/group1: {score: 0}`).
    pub group_scores: Vec<(String, ScoreRange)>,
    /// `permitted`/`required` under a test data node's key.
    pub nodes: Vec<NodeExpectation>,
}

impl SubmissionRule {
    /// An entry for `pattern` that says nothing yet.
    pub fn new(pattern: &str) -> SubmissionRule {
        SubmissionRule {
            pattern: pattern.to_string(),
            permitted: None,
            required: None,
            entrypoint: None,
            language: None,
            score: None,
            group_scores: Vec::new(),
            nodes: Vec::new(),
        }
    }
}

impl Expectation {
    /// A submission's expectation from its folder (`folder`, the first part
    /// of its path) and the package's submissions.yaml entries that match
    /// it (itself or a directory above it), as the 2025-09 format has it:
    /// - an entry named as the folder itself (`time_limit_exceeded:`)
    ///   overrides that folder's default requirement, key by key (the keys
    ///   it does not give are the default's);
    /// - every other matching entry imposes an additional requirement
    ///   ("the glob `time_limit_exceeded/*` would impose an additional
    ///   requirement, instead of replacing the original"): all `permitted`
    ///   lists hold (their intersection), and every `required` list must be
    ///   shown by some case (the first as the expectation's own, the others
    ///   as requirements on every case, node `*`);
    /// - `score`: the last entry's that gives one; node requirements: all.
    pub fn with_rules(
        folder: Option<&str>,
        rules: &[&SubmissionRule],
        dialect: Dialect,
    ) -> Option<Expectation> {
        let default = folder.and_then(|f| Expectation::of_folder_in(f, dialect));
        if rules.is_empty() {
            return default;
        }
        let is_folder_entry =
            |r: &SubmissionRule| folder.is_some_and(|f| r.pattern.trim_end_matches('/') == f);
        let speaks = rules
            .iter()
            .any(|r| r.permitted.is_some() || r.required.is_some());
        let (mut permitted, mut required, mut score, origin) = match default {
            Some(e) => (e.permitted, e.required, e.score, e.origin),
            None => (None, None, None, Origin::SubmissionsYaml),
        };
        for rule in rules.iter().filter(|r| is_folder_entry(r)) {
            permitted = rule.permitted.clone().or(permitted);
            required = rule.required.clone().or(required);
            score = rule.score.or(score);
        }
        let mut nodes: Vec<NodeExpectation> = Vec::new();
        for rule in rules.iter().filter(|r| !is_folder_entry(r)) {
            if let Some(p) = &rule.permitted {
                permitted = Some(match permitted {
                    Some(before) => before.into_iter().filter(|v| p.contains(v)).collect(),
                    None => p.clone(),
                });
            }
            match (&required, &rule.required) {
                (None, Some(r)) => required = Some(r.clone()),
                (Some(mine), Some(r)) if mine != r => nodes.push(NodeExpectation {
                    pattern: "*".to_string(),
                    permitted: None,
                    required: Some(r.clone()),
                }),
                _ => {}
            }
            score = rule.score.or(score);
        }
        let mut group_scores: Vec<(String, ScoreRange)> = Vec::new();
        for rule in rules {
            for (group, range) in &rule.group_scores {
                group_scores.retain(|(g, _)| g != group);
                group_scores.push((group.clone(), *range));
            }
        }
        // Every matching entry's node requirements hold (two entries on
        // one node: both are checked).
        nodes.extend(rules.iter().flat_map(|r| r.nodes.iter().cloned()));
        Some(Expectation {
            permitted,
            required,
            origin: if speaks {
                Origin::SubmissionsYaml
            } else {
                origin
            },
            dialect,
            score,
            group_scores,
            nodes,
        })
    }
}

/// What the cases of one test data node (a group, a directory or one case,
/// named by a glob relative to `data/`) may and must get: `permitted`, only
/// these appear among them; `required`, at least one of these does.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeExpectation {
    pub pattern: String,
    pub permitted: Option<Vec<Verdict>>,
    pub required: Option<Vec<Verdict>>,
}

impl NodeExpectation {
    /// The node's glob, compiled (`*` within one path part).
    pub fn matcher(&self) -> Result<globset::GlobMatcher, super::ExpectError> {
        crate::text::glob::compile(&glob_text(&self.pattern), true)
            .map(|g| g.compile_matcher())
            .map_err(|source| super::ExpectError::NotAGlob {
                pattern: self.pattern.clone(),
                source,
            })
    }

    /// Whether the case named `case` (`secret/group1/3.in`, relative to
    /// `data/`) is in the node `matcher` matches: the glob matches the
    /// case's path without `.in`, or a directory the case is in.
    pub fn covers(matcher: &globset::GlobMatcher, case: &str) -> bool {
        let node = case.strip_suffix(".in").unwrap_or(case);
        node.char_indices()
            .filter(|(_, c)| *c == '/')
            .map(|(i, _)| &node[..i])
            .chain(std::iter::once(node))
            .any(|path| matcher.is_match(path))
    }
}

/// A submissions.yaml glob as it is matched: white space around each
/// alternative of a `{…}` dropped (`secret/*{ 4 }{ 2 }` is
/// `secret/*{4}{2}`), as BAPCtools reads these globs (its own
/// `testexpectations` problem checks "if spaces are ok"), and a trailing
/// `/` dropped (`dir/` and `dir` name the same node).
pub fn glob_text(pattern: &str) -> String {
    let pattern = pattern.trim_end_matches('/');
    let mut out = String::with_capacity(pattern.len());
    let mut depth = 0usize;
    let mut alternative = String::new();
    for c in pattern.chars() {
        match c {
            '{' => {
                if depth > 0 {
                    out.push_str(alternative.trim());
                    alternative.clear();
                }
                depth += 1;
                out.push(c);
            }
            ',' | '}' if depth > 0 => {
                out.push_str(alternative.trim());
                alternative.clear();
                out.push(c);
                if c == '}' {
                    depth -= 1;
                }
            }
            _ if depth > 0 => alternative.push(c),
            _ => out.push(c),
        }
    }
    out.push_str(&alternative);
    out
}

#[cfg(test)]
mod glob_tests {
    use super::*;

    #[test]
    fn spaces_around_alternatives_are_dropped() {
        assert_eq!(glob_text("secret/*{ 4 }{ 2 }"), "secret/*{4}{2}");
        assert_eq!(glob_text("ac.{py, cpp }/"), "ac.{py,cpp}");
        assert_eq!(glob_text("a b/*"), "a b/*");
        let node = NodeExpectation {
            pattern: "secret/*{ 4 }{ 2 }".into(),
            permitted: None,
            required: None,
        };
        let m = node.matcher().unwrap();
        assert!(NodeExpectation::covers(&m, "secret/42.in"));
        assert!(NodeExpectation::covers(&m, "secret/142.in"));
        assert!(!NodeExpectation::covers(&m, "secret/41.in"));
    }
}
