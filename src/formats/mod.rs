//! The package formats: each a folder that knows its files' names and keys,
//! with its reader (a package → the judge's own model) and, in time, its
//! writer. Nothing above this layer should need to know a format's file
//! names; `config` resolves the models into `Problem`s.
//!
//! - [`kattis`]: Kattis/CLICS `problem.yaml` packages in each version
//!   (legacy, 2023-07, 2025-09), and DOMjudge's (`domjudge-problem.ini`).
//! - [`polygon`]: Codeforces Polygon packages (`problem.xml`), standard
//!   and full.
//! - [`generators`]: BAPCtools' `generators.yaml`.
//!
//! Adding a format means a folder here with its reader into the model, and
//! one arm in [`detect`] (ARCHITECTURE.md, "Adding a format").

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod domjudge;
pub mod error;
pub mod generators;
pub mod kattis;
pub mod model;
pub mod polygon;
pub mod testlib_wrap;
pub mod tree;
pub mod version;

pub use error::{ExportError, FormatError, MakeError, Place};

/// The files that make a directory a package of some format, as messages
/// name them.
pub const PACKAGE_FILES: &str = "problem.yaml, domjudge-problem.ini or problem.xml";

/// What a writer's target cannot say, one line each (shown to the user).
pub type Notes = Vec<String>;

use std::path::{Path, PathBuf};

/// The format of the package at a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `problem.yaml`, or a DOMjudge `domjudge-problem.ini` alone.
    Kattis,
    /// `problem.xml` (and no `problem.yaml`).
    Polygon,
}

/// Which format the directory `dir` is a package of, if any: the one
/// registry of formats (a Kattis package that also holds a problem.xml is
/// read as Kattis).
pub fn detect(dir: &Path) -> Option<Format> {
    if polygon::is_package(dir) {
        Some(Format::Polygon)
    } else if kattis::is_package(dir) {
        Some(Format::Kattis)
    } else {
        None
    }
}

/// The package a file belongs to, for the rule on text links and the
/// statement's `.out` files ([`crate::cases::PackageOf`]): the nearest
/// directory above it with a `problem.yaml` (or, a DOMjudge archive, a
/// `domjudge-problem.ini`).
pub fn package_of(path: &Path) -> Option<PathBuf> {
    let absolute = crate::cases::text_link::lexical(&std::path::absolute(path).ok()?);
    absolute
        .ancestors()
        .find(|dir| kattis::is_package(dir))
        .map(Path::to_path_buf)
}

/// Whether `dir` is a package of any format ([`detect`]).
pub fn is_package(dir: &Path) -> bool {
    detect(dir).is_some()
}

/// The package that `path` is, or whose `data/` holds it, if any: looked
/// for above the path as written (a `data/` that is a symlink into a
/// store of test data still belongs to its package), then above its
/// canonical form.
pub fn package_root(path: &Path) -> Option<PathBuf> {
    let holding = |absolute: &Path| -> Option<PathBuf> {
        absolute
            .ancestors()
            .find(|dir| {
                is_package(dir)
                    && (*dir == absolute
                        || absolute.starts_with(dir.join("data"))
                        || (polygon::is_package(dir) && absolute.starts_with(dir.join("tests"))))
            })
            .map(Path::to_path_buf)
    };
    let written = std::path::absolute(path).ok()?;
    // Lexically, without `.` and `..` (a `..` climbs by name here).
    let mut lexical = PathBuf::new();
    for part in written.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                lexical.pop();
            }
            other => lexical.push(other),
        }
    }
    holding(&lexical)
        .and_then(|root| std::fs::canonicalize(&root).ok())
        .or_else(|| holding(&std::fs::canonicalize(path).ok()?))
}
