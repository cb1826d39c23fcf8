//! A built-in puzzle's generator as a generators.yaml command: a command
//! whose program is `judge` runs `judge gen PUZZLE [--count N] [--seed S]
//! [--length L|A..B] [--n …] [--moves …] [--turns …] [--impossible]` in
//! process. The case's input is the puzzle's input of those cases and its
//! answer the built-in solver's; without `--seed` the seed is the case's
//! `{seed}` (BAPCtools' hash of the command), so `--seed {seed}` and no
//! `--seed` are the same.

use crate::puzzles::{self, GenSpec};
use std::ops::RangeInclusive;

/// `judge gen PUZZLE …` read from a command's words.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinGen {
    pub puzzle: &'static str,
    pub count: usize,
    /// `--seed S` when given.
    pub seed: Option<u64>,
    pub length: Option<RangeInclusive<u32>>,
    pub n: Option<RangeInclusive<u32>>,
    pub moves: Option<RangeInclusive<u32>>,
    pub turns: Option<RangeInclusive<u32>>,
    pub impossible: bool,
}

impl BuiltinGen {
    /// Whether a command's words name the judge (its program is `judge`).
    pub(super) fn is_builtin(words: &[String]) -> bool {
        words.first().is_some_and(|w| w == "judge")
    }

    /// Read `judge gen PUZZLE [flags]` (the words after `{seed}` is filled
    /// in).
    pub(super) fn parse(words: &[String]) -> Result<BuiltinGen, BuiltinError> {
        let (Some("gen"), Some(name)) = (
            words.get(1).map(String::as_str),
            words.get(2).map(String::as_str),
        ) else {
            return Err(BuiltinError::Usage);
        };
        let puzzle = puzzles::find(name).ok_or_else(|| BuiltinError::UnknownPuzzle {
            name: name.to_string(),
        })?;
        let mut builtin = BuiltinGen {
            puzzle: puzzle.name(),
            count: 1,
            seed: None,
            length: None,
            n: None,
            moves: None,
            turns: None,
            impossible: false,
        };
        let mut rest = words.get(3..).unwrap_or_default().iter();
        while let Some(word) = rest.next() {
            let (flag, inline) = match word.split_once('=') {
                Some((f, v)) => (f, Some(v.to_string())),
                None => (word.as_str(), None),
            };
            if flag == "--impossible" {
                builtin.impossible = true;
                continue;
            }
            let value = match inline {
                Some(v) => v,
                None => rest.next().cloned().ok_or_else(|| BuiltinError::NoValue {
                    flag: flag.to_string(),
                })?,
            };
            match flag {
                "--count" => {
                    builtin.count = value
                        .parse()
                        .ok()
                        .filter(|c| (1..=100_000).contains(c))
                        .ok_or_else(|| BuiltinError::Count {
                            value: value.clone(),
                        })?;
                }
                "--seed" => {
                    builtin.seed = Some(value.parse().map_err(|_| BuiltinError::Seed {
                        value: value.clone(),
                    })?)
                }
                "--length" => builtin.length = Some(crate::units::parse_range(&value)?),
                "--n" => builtin.n = Some(crate::units::parse_range(&value)?),
                "--moves" => builtin.moves = Some(crate::units::parse_range(&value)?),
                "--turns" => builtin.turns = Some(crate::units::parse_range(&value)?),
                other => {
                    return Err(BuiltinError::UnknownOption {
                        option: other.to_string(),
                    });
                }
            }
        }
        Ok(builtin)
    }

    /// What to ask the puzzle's generator for, with the case's seed when
    /// the command gives none.
    pub fn spec(&self, case_seed: u32) -> GenSpec {
        GenSpec {
            count: self.count,
            seed: self.seed.unwrap_or(u64::from(case_seed)),
            length: self.length.clone(),
            n: self.n.clone(),
            moves: self.moves.clone(),
            turns: self.turns.clone(),
            impossible: self.impossible,
        }
    }
}

/// The usage of a built-in generator's command.
const USAGE: &str = "expected `judge gen PUZZLE [--count N] [--seed S] [--length …] [--n …] [--moves …] [--turns …] [--impossible]`";

/// A `judge gen PUZZLE …` command that the judge's generator does not take.
#[derive(Debug, thiserror::Error)]
pub enum BuiltinError {
    #[error("{}", USAGE)]
    Usage,
    #[error("judge gen {name}: unknown puzzle; the built-in puzzles are {}", puzzles::names().join(", "))]
    UnknownPuzzle { name: String },
    #[error("{flag}: a value is needed")]
    NoValue { flag: String },
    #[error("--count {value}: expected 1 to 100000")]
    Count { value: String },
    #[error("--seed {value}: expected a number")]
    Seed { value: String },
    /// `N` or `A..B` (or `A..=B`), as the command line reads it.
    #[error(transparent)]
    Range(#[from] crate::units::UnitError),
    #[error("unknown option {option:?}; {}", USAGE)]
    UnknownOption { option: String },
}
