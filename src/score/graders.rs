//! Kattis legacy and 2023-07 grading, as problemtools computes it: every
//! directory of `data/` is a group whose result is its default grader's
//! verdict and score over its items (subgroups and cases, in lexicographic
//! order of their file names).
//!
//! - A case's score: `score.txt` if its validator wrote one (a
//!   `score_multiplier.txt` or testlib fraction scales `accept_score`),
//!   else `accept_score` when accepted and `reject_score` when not.
//! - `on_reject: break`: after the first rejected item nothing more of the
//!   group is judged; `continue` judges everything.
//! - The verdict: `worst_error` (the first of JE, RTE, MLE, TLE, OLE, WA in
//!   that order), `first_error`, or `always_accept`; `accept_if_any_accepted`
//!   makes it AC when any item is; a judge error anywhere is the group's.
//! - The score: `sum` (default), `avg`, `min` or `max` of the items' scores,
//!   rejected ones included (as the grader receives them).
//! - `ignore_sample` (the root only): the result is the last item's (secret).
//! - `range`: a group whose score falls outside it is a judge error, named.
//!
//! A group with no item (an empty directory, or every case filtered out)
//! is not an item of its parent.

use super::{CaseInput, GroupScore, Partial, Scored, exceeds};
use crate::text::format::number;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// A legacy/2023-07 package's grading: the group tree of `data/`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Graders {
    pub root: GraderGroup,
}

/// One directory of `data/` and its settings (inherited already).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GraderGroup {
    /// Its path relative to `data/` (`""` for `data/` itself, `secret/g1`).
    pub name: String,
    pub settings: GraderSettings,
    pub groups: Vec<GraderGroup>,
}

/// A group's grading keys with the format's defaults.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GraderSettings {
    /// `on_reject: break` (the default) or `continue`.
    pub on_reject_break: bool,
    pub verdict_mode: VerdictMode,
    pub score_mode: ScoreMode,
    pub ignore_sample: bool,
    pub accept_if_any: bool,
    pub accept_score: f64,
    pub reject_score: f64,
    /// `range`: `None` for an infinite bound.
    pub range_low: Option<f64>,
    pub range_high: Option<f64>,
    /// `grader_flags` as written, for reports.
    pub flags: String,
}

impl Default for GraderSettings {
    fn default() -> Self {
        GraderSettings {
            on_reject_break: true,
            verdict_mode: VerdictMode::WorstError,
            score_mode: ScoreMode::Sum,
            ignore_sample: false,
            accept_if_any: false,
            accept_score: 1.0,
            reject_score: 0.0,
            range_low: None,
            range_high: None,
            flags: String::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VerdictMode {
    WorstError,
    FirstError,
    AlwaysAccept,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScoreMode {
    Sum,
    Avg,
    Min,
    Max,
}

impl GraderSettings {
    /// Apply `grader_flags` (later flags win, as the default grader reads
    /// them). Unknown words are returned for a warning.
    pub fn apply_flags(&mut self, flags: &str) -> Vec<String> {
        let mut unknown = Vec::new();
        self.flags = flags.split_whitespace().collect::<Vec<_>>().join(" ");
        for word in flags.split_whitespace() {
            match word {
                "worst_error" | "no_errors" => self.verdict_mode = VerdictMode::WorstError,
                "first_error" => self.verdict_mode = VerdictMode::FirstError,
                "always_accept" => self.verdict_mode = VerdictMode::AlwaysAccept,
                "sum" => self.score_mode = ScoreMode::Sum,
                "avg" => self.score_mode = ScoreMode::Avg,
                "min" => self.score_mode = ScoreMode::Min,
                "max" => self.score_mode = ScoreMode::Max,
                "ignore_sample" => self.ignore_sample = true,
                "accept_if_any_accepted" => self.accept_if_any = true,
                other => unknown.push(other.to_string()),
            }
        }
        unknown
    }
}

/// Kattis' verdicts in the grader's order of badness (worst first).
const ORDER: [&str; 9] = ["JE", "IF", "RTE", "MLE", "TLE", "OLE", "WA", "PE", "AC"];

fn kattis(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "AC",
        Verdict::WrongAnswer | Verdict::PresentationError => "WA",
        Verdict::TimeLimit => "TLE",
        Verdict::MemoryLimit => "MLE",
        Verdict::OutputLimit => "OLE",
        Verdict::RuntimeError => "RTE",
        Verdict::InternalError | Verdict::CompileError | Verdict::Skipped => "JE",
    }
}

fn ours(code: &str) -> Verdict {
    match code {
        "AC" => Verdict::Accepted,
        "WA" | "PE" => Verdict::WrongAnswer,
        "TLE" => Verdict::TimeLimit,
        "MLE" => Verdict::MemoryLimit,
        "OLE" => Verdict::OutputLimit,
        "RTE" => Verdict::RuntimeError,
        _ => Verdict::InternalError,
    }
}

/// An item's result as the grader receives it.
#[derive(Clone, Copy)]
struct Res {
    verdict: &'static str,
    score: f64,
}

enum Item<'g> {
    Group(&'g GraderGroup),
    Case(usize),
}

/// The last component of a path-like name.
fn leaf(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// The directory part of a case's name (`secret/g1` of `secret/g1/1.in`).
fn parent(name: &str) -> &str {
    name.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The key problemtools sorts a directory's entries by: a group's
/// directory name, a case's answer file name.
fn case_key(name: &str) -> String {
    let file = leaf(name);
    let stem = file.strip_suffix(".in").unwrap_or(file);
    format!("{stem}.ans")
}

struct Walk<'a> {
    cases: &'a [CaseInput<'a>],
    /// The positions of the cases directly in each directory, found once.
    by_dir: std::collections::HashMap<&'a str, Vec<usize>>,
    scored: Scored,
}

impl Graders {
    /// The largest score: the root's range, else `secret`'s.
    pub fn max_score(&self) -> Option<f64> {
        self.root.settings.range_high.or_else(|| {
            self.root
                .groups
                .iter()
                .find(|g| g.name == "secret")
                .and_then(|g| g.settings.range_high)
        })
    }

    /// The group whose `on_reject: break` a rejection of case `name` would
    /// trigger (its own directory's), if that group breaks.
    pub fn breaking_group_of(&self, name: &str) -> Option<String> {
        let dir = parent(name);
        self.find(&self.root, dir)
            .filter(|g| g.settings.on_reject_break)
            .map(|g| g.name.clone())
    }

    fn find<'g>(&self, group: &'g GraderGroup, name: &str) -> Option<&'g GraderGroup> {
        if group.name == name {
            return Some(group);
        }
        group.groups.iter().find_map(|g| self.find(g, name))
    }

    /// Whether a case may be left unlaunched because `failed` (a case
    /// already rejected) stops its group first: `name` comes after it in
    /// a group that breaks on it. Exact, so skipping changes no result.
    pub fn stopped_by(&self, name: &str, failed: &str) -> bool {
        let Some(group) = self.breaking_group_of(failed) else {
            return false;
        };
        let prefix = if group.is_empty() {
            String::new()
        } else {
            format!("{group}/")
        };
        let Some(rest) = name.strip_prefix(&prefix) else {
            return false;
        };
        // The item of `group` holding `name`: a case directly in it, or a subgroup.
        let key = match rest.split_once('/') {
            Some((dir, _)) => dir.to_string(),
            None => case_key(rest),
        };
        key > case_key(failed)
    }

    /// What a failure of `failed` can stop (its directory) and how much of
    /// it (its sort key: a smaller key stops more). See
    /// `ScoringPlan::failure_scope`.
    pub fn failure_scope(&self, failed: &str) -> (String, String) {
        (parent(failed).to_string(), case_key(failed))
    }

    /// `--fail-fast`: the directory of `name` when `failed` is in it.
    pub fn fail_fast_group(&self, name: &str, failed: &str) -> Option<String> {
        let dir = parent(name);
        (dir == parent(failed)).then(|| dir.to_string())
    }

    pub fn evaluate(&self, cases: &[CaseInput<'_>]) -> Scored {
        let mut by_dir: std::collections::HashMap<&str, Vec<usize>> = Default::default();
        for (i, case) in cases.iter().enumerate() {
            by_dir.entry(parent(case.name)).or_default().push(i);
        }
        let mut walk = Walk {
            cases,
            by_dir,
            scored: Scored::new(cases.len(), super::KATTIS_GRADER, self.max_score()),
        };
        if let Some(v) = cases
            .iter()
            .map(|c| c.verdict)
            .find(|v| *v == Verdict::CompileError)
        {
            walk.scored.report.verdict = Some(v);
            return walk.scored;
        }
        let result = walk.group(&self.root);
        let mut scored = walk.scored;
        if let Some(r) = result {
            scored.report.score = r.score;
            scored.report.verdict = Some(ours(r.verdict));
        }
        scored
    }
}

impl Walk<'_> {
    fn items<'g>(&self, group: &'g GraderGroup) -> Vec<(String, Item<'g>)> {
        let mut items: Vec<(String, Item<'g>)> = group
            .groups
            .iter()
            .map(|g| (leaf(&g.name).to_string(), Item::Group(g)))
            .collect();
        for &i in self.by_dir.get(group.name.as_str()).into_iter().flatten() {
            items.push((case_key(self.cases[i].name), Item::Case(i)));
        }
        items.sort_by(|a, b| a.0.cmp(&b.0));
        items
    }

    /// Every case at or below `group` (positions).
    fn cases_in(&self, group: &GraderGroup) -> Vec<usize> {
        let mut positions: Vec<usize> = self
            .by_dir
            .get(group.name.as_str())
            .cloned()
            .unwrap_or_default();
        for sub in &group.groups {
            positions.extend(self.cases_in(sub));
        }
        positions
    }

    fn group(&mut self, group: &GraderGroup) -> Option<Res> {
        let settings = &group.settings;
        let mut results: Vec<Res> = Vec::new();
        let mut stopped: Option<String> = None;
        for (_, item) in self.items(group) {
            if let Some(why) = &stopped {
                let positions = match item {
                    Item::Group(g) => self.cases_in(g),
                    Item::Case(i) => vec![i],
                };
                for i in positions {
                    self.scored.not_judged.push((i, why.clone()));
                }
                continue;
            }
            let (res, what) = match item {
                Item::Group(g) => match self.group(g) {
                    Some(r) => (r, format!("group {}", g.name)),
                    None => continue,
                },
                Item::Case(i) => match self.case(i, settings) {
                    Some(r) => (r, self.cases[i].name.to_string()),
                    None => continue,
                },
            };
            results.push(res);
            if res.verdict != "AC" && settings.on_reject_break {
                let shown = if group.name.is_empty() {
                    "data"
                } else {
                    &group.name
                };
                stopped = Some(format!(
                    "not judged: {shown} stops at its first rejection ({what}: {}; on_reject: break)",
                    res.verdict
                ));
            }
        }
        if results.is_empty() {
            return None;
        }
        let res = self.grade(group, &results);
        if !group.name.is_empty() {
            let positions = self.cases_in(group);
            let accepted = positions
                .iter()
                .filter(|&&i| self.cases[i].verdict == Verdict::Accepted)
                .count();
            self.scored.report.groups.push(GroupScore {
                name: group.name.clone(),
                score: res.score,
                max_score: settings.range_high,
                aggregation: if settings.flags.is_empty() {
                    "worst_error sum".to_string()
                } else {
                    settings.flags.clone()
                },
                verdict: ours(res.verdict),
                cases: positions.len(),
                accepted,
                note: None,
            });
        }
        Some(res)
    }

    fn case(&mut self, i: usize, settings: &GraderSettings) -> Option<Res> {
        let case = self.cases[i];
        if case.verdict == Verdict::Skipped {
            // Not run (interrupted, --fail-fast): never counted.
            self.scored.report.incomplete = true;
            return None;
        }
        let verdict = kattis(case.verdict);
        let score = if verdict == "AC" {
            match case.partial {
                Some(Partial::Points(p)) => p,
                Some(Partial::Fraction(f)) => f * settings.accept_score,
                None => settings.accept_score,
            }
        } else {
            settings.reject_score
        };
        self.scored.case_scores[i] = Some(score);
        Some(Res { verdict, score })
    }

    fn grade(&mut self, group: &GraderGroup, results: &[Res]) -> Res {
        let settings = &group.settings;
        let shown = if group.name.is_empty() {
            "data"
        } else {
            &group.name
        };
        if results.iter().any(|r| r.verdict == "JE") {
            return Res {
                verdict: "JE",
                score: 0.0,
            };
        }
        let mut results = results;
        if settings.ignore_sample {
            if !(1..=2).contains(&results.len()) {
                self.scored.report.errors.push(format!(
                    "{shown}: ignore_sample needs one or two items (sample and secret), found {}",
                    results.len()
                ));
                return Res {
                    verdict: "JE",
                    score: 0.0,
                };
            }
            results = &results[results.len() - 1..];
        }
        let verdict = if settings.accept_if_any && results.iter().any(|r| r.verdict == "AC") {
            "AC"
        } else {
            match settings.verdict_mode {
                VerdictMode::WorstError => results
                    .iter()
                    .map(|r| r.verdict)
                    .min_by_key(|v| ORDER.iter().position(|o| o == v).unwrap_or(0))
                    .unwrap_or("AC"),
                VerdictMode::FirstError => results
                    .iter()
                    .map(|r| r.verdict)
                    .find(|v| *v != "AC")
                    .unwrap_or("AC"),
                VerdictMode::AlwaysAccept => "AC",
            }
        };
        let scores = results.iter().map(|r| r.score);
        let score = match settings.score_mode {
            ScoreMode::Sum => scores.sum(),
            ScoreMode::Avg => scores.sum::<f64>() / results.len() as f64,
            ScoreMode::Min => scores.fold(f64::INFINITY, f64::min),
            ScoreMode::Max => scores.fold(f64::NEG_INFINITY, f64::max),
        };
        let low = settings.range_low.unwrap_or(f64::NEG_INFINITY);
        let high = settings.range_high.unwrap_or(f64::INFINITY);
        if exceeds(score, high) || exceeds(low, score) {
            self.scored.report.errors.push(format!(
                "{shown}: score {} is outside its range {} {} (the group's `range` key)",
                number(score),
                number(low),
                number(high)
            ));
        }
        Res { verdict, score }
    }
}
