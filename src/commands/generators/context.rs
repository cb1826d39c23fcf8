//! What making and validating a case share: the context every case is
//! made in ([`Ctx`]) and a fresh working directory for one run of a
//! package's program ([`scratch`]).

use super::build::Programs;
use super::confine::Confine;
use super::manifest::Manifest;
use crate::config::Problem;
use crate::exec::sandbox::Sandbox;
use crate::formats::generators::GenPlan;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Everything making a case needs.
pub(super) struct Ctx<'a> {
    pub(super) plan: &'a GenPlan,
    pub(super) problem: &'a Problem,
    pub(super) programs: &'a Programs,
    pub(super) manifest: &'a Manifest,
    pub(super) data: &'a Path,
    pub(super) sandbox: &'a Arc<Sandbox>,
    pub(super) check_deterministic: bool,
    /// The solution of cases under no `solution:` key.
    pub(super) default_solution: Option<&'a Path>,
    /// Programs' and validators' files hashed so far.
    pub(super) digests: &'a Digests,
    /// Reads and writes stay inside the package.
    pub(super) confine: &'a Confine,
    /// Validators that could not be built or run: name → why (said once
    /// after the cases are made; the cases are written unchecked by them).
    pub(super) unrun: &'a Unrun,
}

/// Validators that could not be built or run: name → why.
pub(super) type Unrun = std::sync::Mutex<BTreeMap<String, String>>;

/// A directory or file → the hash of its files.
pub(super) type Digests = std::sync::Mutex<std::collections::HashMap<PathBuf, Vec<u8>>>;

/// A fresh working directory for one run of a package's program: in the
/// judge's private directory, the one place the package's programs may
/// write (see `exec::sandbox::tools`).
pub(super) fn scratch(sandbox: &Sandbox) -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix("gen-")
        .tempdir_in(sandbox.private_dir())
}
