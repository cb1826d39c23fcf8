//! `judge stress` (being written).
use super::{Failure, Outcome};
use crate::cli::StressArgs;
use std::path::Path;

pub fn stress(_config_path: Option<&Path>, _args: StressArgs) -> Outcome {
    Err(Failure::Usage("not yet".into()))
}
