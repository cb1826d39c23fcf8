//! Making a Polygon package's tests as Polygon's "build package" (and
//! `doall`) makes them: each generated test's input from its `cmd` (or its
//! testset `<script>` line), each missing answer from the `main` solution.
//!
//! - `programs`: the generators and the main solution, built and run
//!   contained and limited.
//! - `package`: `judge gen`, the tests written into the package.
//! - `cache`: `judge verify`/`run`, the tests the package does not hold
//!   built into the judge's cache, content-addressed.
//!
//! This layer says nothing on the terminal: what a user is told goes to
//! the caller as [`Event`]s (the command prints them), and errors are
//! [`MakeError`]s. The reasons a test cannot be built name problem.xml's
//! parts here, so that only this layer knows them.

mod cache;
mod package;
mod programs;

pub use cache::prepare_polygon;
pub use package::{Generated, generate_polygon};

use super::PROBLEM_XML;
pub use crate::formats::MakeError;
use std::path::Path;

/// What making the tests tells its user, as it happens.
pub enum Event<'a> {
    /// A line for the terminal (a warning, a note, what was done).
    Note(&'a str),
    /// How far a build is: `done` of `of` tests, under `announce`.
    Progress {
        announce: &'a str,
        done: usize,
        of: usize,
    },
}

/// Where [`Event`]s go.
pub type Say<'s> = &'s mut dyn FnMut(Event<'_>);

/// A test with no answer and no main solution to make one. `in_package`:
/// the package holds no answer (verify/run) rather than none at all (gen).
pub fn no_main_solution(index: impl std::fmt::Display, in_package: bool) -> String {
    let answer = if in_package {
        "no answer in the package"
    } else {
        "no answer"
    };
    format!("test {index}: {answer}, and {PROBLEM_XML} tags no solution main to make one")
}

/// A generated test that nothing in problem.xml makes; `missing`: its
/// input's path, when saying it is not in the package.
pub fn no_command(index: impl std::fmt::Display, missing: Option<&Path>) -> String {
    match missing {
        None => format!(
            "test {index}: generated, but {PROBLEM_XML} gives it no cmd and no <script> line makes it (doall.sh/doall.bat, a package program, is not run)"
        ),
        Some(input) => format!(
            "test {index}: generated, but {PROBLEM_XML} gives it no cmd and no <script> line makes it; {} is not in the package (doall.sh/doall.bat, a package program, is not run)",
            input.display()
        ),
    }
}

/// A test's `cmd` whose first word is no executable of the package.
pub fn no_executable(index: impl std::fmt::Display, cmd: &str, name: &str) -> String {
    format!(
        "test {index}: cmd `{cmd}`: no executable named {name} among {PROBLEM_XML}'s <executables>"
    )
}

/// Why a package's own generation script (doall.sh) is not run: whether
/// every generated test has a command of its own.
pub fn script_not_run(all_known: bool) -> String {
    if all_known {
        format!(
            "the tests are made from the commands {PROBLEM_XML} gives them (cmd attributes, <script>)"
        )
    } else {
        format!(
            "some generated tests have no command in {PROBLEM_XML}: only this script makes them"
        )
    }
}
