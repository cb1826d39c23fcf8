//! The judge.toml file as serde reads it: the tables and their keys,
//! before any defaults or resolution. `deny_unknown_fields` everywhere, so
//! a misspelt key is an error naming it; [`super::resolve`] turns these
//! tables into [`super::Problem`]s.

use super::CheckKind;
use super::tools::OneOrMany;
use crate::check::external::Protocol;
use crate::units::{self, Size, Span};
use serde::Deserialize;
use toml::Spanned;

/// The keys allowed both at the top level (defaults for every problem) and
/// in a `[problem.NAME]` table (for that problem).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RootTable {
    pub(super) time_limit: Option<Span>,
    pub(super) wall_limit: Option<Span>,
    #[serde(default, deserialize_with = "units::memory_limit")]
    pub(super) memory_limit: Option<Size>,
    pub(super) stack_limit: Option<Size>,
    pub(super) output_limit: Option<Size>,
    pub(super) file_size_limit: Option<Size>,
    #[serde(default, deserialize_with = "units::processes")]
    pub(super) processes: Option<u32>,
    pub(super) strict: Option<bool>,
    pub(super) lexmin: Option<bool>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_tolerance: Option<f64>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_absolute_tolerance: Option<f64>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_relative_tolerance: Option<f64>,
    pub(super) checker_time_limit: Option<Span>,
    pub(super) compile_time_limit: Option<Span>,
    #[serde(default)]
    pub(super) problem: indexmap::IndexMap<String, ProblemTable>,
    #[serde(default)]
    pub(super) language: indexmap::IndexMap<String, Spanned<LanguageTable>>,
}

/// `[language.NAME]`: how to build and run a source submission. A table
/// named like a built-in language (c, cpp, rust, python, pascal) changes
/// only the keys it sets; a new language needs `extensions` and `run`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LanguageTable {
    pub(super) extensions: Option<Vec<String>>,
    pub(super) compile: Option<String>,
    pub(super) run: Option<String>,
    pub(super) interpreter: Option<String>,
    /// Whether RLIMIT_AS may carry the memory limit (false for a JVM).
    pub(super) address_space: Option<bool>,
}

/// `[problem.NAME.expect."FOLDER/FILE"]`: the verdicts a submission may
/// get (`permitted`) and must get on some case (`required`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExpectTable {
    pub(super) permitted: Option<Vec<Spanned<String>>>,
    pub(super) required: Option<Vec<Spanned<String>>>,
    /// A scoring problem: the score, `70` or `[60, 80]`.
    pub(super) score: Option<Spanned<super::scoring::ScoreValue>>,
    /// A scoring problem: each named group's score (`{ small = 30, large = 0 }`).
    #[serde(default)]
    pub(super) groups: indexmap::IndexMap<String, Spanned<super::scoring::ScoreValue>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ProblemTable {
    pub(super) puzzle: Option<Spanned<String>>,
    /// A Kattis-style problem package: its limits, cases, validators and
    /// output validator, under this table's keys.
    pub(super) package: Option<Spanned<String>>,
    pub(super) cases: Option<Spanned<String>>,
    pub(super) check: Option<Spanned<CheckKind>>,
    pub(super) checker: Option<Spanned<String>>,
    pub(super) checker_protocol: Option<Protocol>,
    /// A testlib interactor (`INTERACTOR input tout answer`) connected to
    /// the submission: the problem is interactive.
    pub(super) interactor: Option<Spanned<String>>,
    pub(super) checker_time_limit: Option<Span>,
    pub(super) validator: Option<Spanned<OneOrMany>>,
    pub(super) validator_protocol: Option<Protocol>,
    pub(super) solution: Option<Spanned<String>>,
    pub(super) time_limit: Option<Span>,
    pub(super) wall_limit: Option<Span>,
    #[serde(default, deserialize_with = "units::memory_limit")]
    pub(super) memory_limit: Option<Size>,
    pub(super) stack_limit: Option<Size>,
    pub(super) output_limit: Option<Size>,
    pub(super) file_size_limit: Option<Size>,
    #[serde(default, deserialize_with = "units::processes")]
    pub(super) processes: Option<u32>,
    pub(super) strict: Option<bool>,
    pub(super) lexmin: Option<Spanned<bool>>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_tolerance: Option<f64>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_absolute_tolerance: Option<f64>,
    #[serde(default, deserialize_with = "units::tolerance")]
    pub(super) float_relative_tolerance: Option<f64>,
    pub(super) submissions: Option<Spanned<String>>,
    /// A BAPCtools generators.yaml that makes the cases (`judge gen NAME`).
    pub(super) generators: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) expect: indexmap::IndexMap<String, Spanned<ExpectTable>>,
    /// `[problem.NAME.group.GROUP]`: subtasks (a scoring problem).
    #[serde(default)]
    pub(super) group: indexmap::IndexMap<String, Spanned<super::scoring::GroupTable>>,
}
