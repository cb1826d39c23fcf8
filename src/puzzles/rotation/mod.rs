//! Rotation Game (UVA 1343, POJ 2286, HDU 1667, AcWing 181).
//!
//! (Module documentation in progress.)

pub mod board;
pub mod input;
pub mod pdb;
pub mod search;

use super::*;

/// Rotation Game (UVA 1343, POJ 2286).
pub struct Rotation;

const MISSING: &str = "not built yet";

impl Puzzle for Rotation {
    fn name(&self) -> &'static str {
        "rotation"
    }
    fn title(&self) -> &'static str {
        "Rotation Game (UVA 1343, POJ 2286)"
    }
    fn default_lexmin(&self) -> bool {
        true
    }
    fn multi_case(&self) -> bool {
        true
    }
    fn validate(&self, input: &[u8]) -> Result<usize, FormatError> {
        input::validate(input)
    }
    fn solve(&self, _input: &[u8], _options: &SolveOptions) -> Result<Vec<u8>, SolveError> {
        Err(SolveError::Option(MISSING.into()))
    }
    fn check(&self, _request: &CheckRequest<'_>) -> CheckReport {
        CheckReport::general(Verdict::InternalError, MISSING)
    }
    fn generate(&self, _spec: &GenSpec) -> Result<Vec<GeneratedCase>, String> {
        Err(MISSING.into())
    }
    fn assemble(&self, _cases: &[GeneratedCase]) -> (Vec<u8>, Vec<u8>) {
        (Vec::new(), Vec::new())
    }
    fn stats(&self, _options: &StatsOptions) -> Result<Stats, String> {
        Err(MISSING.into())
    }
}
