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
    /// A folder's expectation (or none) as a package's submissions.yaml
    /// entries that match the submission change it: the entries' `permitted`
    /// lists (intersected, when several match) replace the folder's, and
    /// the last matching `required` replaces the folder's. The judge's
    /// reading of the 2025-09 format: an entry says what it means of the
    /// files it names, the folder what it means of the rest.
    pub fn with_rules(
        folder: Option<Expectation>,
        rules: &[&SubmissionRule],
        dialect: Dialect,
    ) -> Option<Expectation> {
        if rules.is_empty() {
            return folder;
        }
        let mut permitted: Option<Vec<Verdict>> = None;
        for rule in rules {
            if let Some(p) = &rule.permitted {
                permitted = Some(match permitted {
                    Some(before) => before.into_iter().filter(|v| p.contains(v)).collect(),
                    None => p.clone(),
                });
            }
        }
        let required = rules.iter().rev().find_map(|r| r.required.clone());
        let score = rules.iter().rev().find_map(|r| r.score);
        let mut group_scores: Vec<(String, ScoreRange)> = Vec::new();
        for rule in rules {
            for (group, range) in &rule.group_scores {
                group_scores.retain(|(g, _)| g != group);
                group_scores.push((group.clone(), *range));
            }
        }
        // Every matching entry's node requirements hold (two entries on
        // one node: both are checked).
        let nodes: Vec<NodeExpectation> =
            rules.iter().flat_map(|r| r.nodes.iter().cloned()).collect();
        let (base_permitted, base_required, base_score) = match folder {
            Some(e) => (e.permitted, e.required, e.score),
            None => (None, None, None),
        };
        Some(Expectation {
            permitted: permitted.or(base_permitted),
            required: required.or(base_required),
            origin: Origin::SubmissionsYaml,
            dialect,
            score: score.or(base_score),
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
    pub fn matcher(&self) -> Result<globset::GlobMatcher, String> {
        globset::GlobBuilder::new(&self.pattern)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher())
            .map_err(|e| format!("{:?}: not a glob: {e}", self.pattern))
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
