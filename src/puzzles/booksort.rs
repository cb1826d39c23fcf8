//! Booksort (POJ 3460) — placeholder until its module lands (see the issue tracker).

use super::*;

/// Booksort (POJ 3460).
pub struct Booksort;

const MISSING: &str = "the booksort puzzle is not built yet";

impl Puzzle for Booksort {
    fn name(&self) -> &'static str {
        "booksort"
    }
    fn title(&self) -> &'static str {
        "Booksort (POJ 3460)"
    }
    fn default_lexmin(&self) -> bool {
        false
    }
    fn multi_case(&self) -> bool {
        true
    }
    fn validate(&self, _input: &[u8]) -> Result<usize, FormatError> {
        Err(FormatError::whole(MISSING))
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
