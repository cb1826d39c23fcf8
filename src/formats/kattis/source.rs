//! What every writer of the Kattis format shares: the package an export
//! is written from ([`Source`]) and how a number is written in YAML. A
//! module of its own so that the package writer (`write`) and the group
//! files' writer (`write_groups`) both take it without leaning on each
//! other.

use crate::formats::kattis::Package;
use serde_norway::Value;
use std::path::PathBuf;

/// The package being exported: as the judge reads it, and its problem.yaml
/// as written (for the keys the judge does not act on).
pub struct Source {
    pub package: Package,
    pub root: PathBuf,
    pub yaml: serde_norway::Mapping,
}

/// A number as YAML writes it: an integer when whole.
pub fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        Value::Number((x as i64).into())
    } else {
        Value::Number(x.into())
    }
}
