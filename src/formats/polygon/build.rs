//! What building a standard package's tests says in Polygon's words: the
//! judge's `gen`, `verify` and `run` build tests and answers from what
//! problem.xml declares (`commands::generators::polygon` runs them); the
//! reasons a test cannot be built name problem.xml's parts here, so that
//! only this layer knows them.

use super::PROBLEM_XML;
use std::path::Path;

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
