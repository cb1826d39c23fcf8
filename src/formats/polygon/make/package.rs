//! `judge gen PACKAGE` for a Polygon package: each generated test's input
//! made by running its `cmd` (the first word names an executable of
//! `<files><executables>`, built from its source; the rest are its
//! arguments, from which a testlib generator takes its random seed). The
//! commands are problem.xml's `cmd` attributes or its testset's script
//! (`crate::formats::polygon::script`).
//!
//! - A test with `from-file` is one of the files a generator writes in one
//!   run: each distinct such command runs once, in an empty working
//!   directory of its own, and each of its tests takes its file from
//!   there (a file it did not write is a failure naming that test). Other
//!   tests are the command's standard output.
//! - A full package (the test's input is in `tests/`): the generated input
//!   is compared with it, and a difference is reported (the command
//!   fails): the package's tests are not what its generators make.
//! - A standard package (the input is missing): the input is written where
//!   the input path pattern says, and its answer by the `main` solution
//!   (run as the setter's program, like the generators), as Polygon's
//!   `doall` scripts do. Manual tests must be in the package; any test
//!   without an answer (a standard package holds its manual tests' inputs
//!   only) gets the main solution's, run with problem.xml's
//!   `input-file`/`output-file` in its working directory when it names
//!   them. An interactive problem's missing answers are named, not made.
//! - A generator that fails on a test is that test's failure (named, exit
//!   1); the other tests are still made.
//!
//! A `doall.sh`/`doall.bat` script is a package program and is not run
//! (named): the commands in problem.xml make the same tests.
//!
//! The programs are `programs`'; `cache` builds the same tests into the
//! judge's cache for `judge verify` and `judge run`.

use super::programs::{Makers, first_difference};
use super::{Event, MakeError, Say};
use crate::exec::beneath::Beneath;
use crate::exec::bounded_read::PACKAGE_FILE_CAP;
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::formats::polygon::read::{Description, Method, Test, format_pattern};
use crate::submission::Toolchain;
use std::path::Path;
use std::sync::Arc;

/// What `judge gen` did to the package's tests.
#[derive(Debug, Default)]
pub struct Generated {
    pub written: usize,
    pub same: usize,
    /// Answers made for tests whose input was already in the package.
    pub answered: usize,
    /// Each generated input that differs from the package's, named.
    pub differ: Vec<String>,
    /// Each test that could not be made, named with its command.
    pub failed: Vec<String>,
}

impl Generated {
    /// Whether every test was made as the package has it.
    pub fn ok(&self) -> bool {
        self.differ.is_empty() && self.failed.is_empty()
    }

    /// The one line that says what was done to the package at `root`.
    pub fn summary(&self, root: &Path) -> String {
        format!(
            "{}: {} generated tests: {} written, {} the same as the package's, {} different, {} not made; {} answers made for the package's own inputs",
            root.display(),
            self.written + self.same + self.differ.len() + self.failed.len(),
            self.written,
            self.same,
            self.differ.len(),
            self.failed.len(),
            self.answered
        )
    }
}

/// `judge gen POLYGON_PACKAGE`: the package's generated tests made, written
/// where it does not hold them and compared where it does; warnings and
/// notes go to `say` as they come.
pub fn generate_polygon(
    root: &Path,
    toolchain: &Toolchain,
    say: Say<'_>,
) -> Result<Generated, MakeError> {
    let (desc, warnings) = crate::formats::polygon::describe(root)?;
    for w in &warnings {
        say(Event::Note(&format!("warning: {w}")));
    }
    // What cannot be generated is `judge gen`'s error (judging warns).
    if let Some(e) = &desc.testset.script_error {
        return Err(MakeError::Package(e.to_string()));
    }
    name_doall(root, &desc, say);
    let sandbox = Arc::new(
        Sandbox::new(SandboxOptions::default()).map_err(|e| MakeError::Judge(e.to_string()))?,
    );
    // Every test and answer is written beneath the package's root, never
    // through a link (a dangling `tests/01.a -> /etc/cron.d/x` is refused).
    let package = Beneath::new(root).map_err(|e| MakeError::Package(e.to_string()))?;
    let mut makers = Makers::new(root, &desc, &sandbox, toolchain, say);
    let set = &desc.testset;
    let mut tally = Generated::default();
    for test in &set.tests {
        let place = |pattern: &str| {
            format_pattern(pattern, test.index)
                .map(|p| root.join(p))
                .map_err(|e| MakeError::Package(e.to_string()))
        };
        let (input, answer) = (place(&set.input_pattern)?, place(&set.answer_pattern)?);
        let at = At {
            package: &package,
            input: &input,
            answer: &answer,
        };
        gen_one(&mut makers, &at, test, &mut tally, say)?;
    }
    Ok(tally)
}

/// `doall.sh`/`doall.bat` are package programs: named, never run.
fn name_doall(root: &Path, desc: &Description, say: Say<'_>) {
    let all_known = desc
        .testset
        .tests
        .iter()
        .all(|t| t.method == Method::Manual || t.cmd.is_some());
    for script in ["doall.sh", "doall.bat"] {
        if root.join(script).is_file() {
            say(Event::Note(&format!(
                "note: {}: not run (a package program); {}",
                root.join(script).display(),
                super::script_not_run(all_known)
            )));
        }
    }
}

/// Where one test's files go.
struct At<'p> {
    package: &'p Beneath,
    input: &'p Path,
    answer: &'p Path,
}

/// One test of `judge gen`: a generated one made and compared with the
/// package's (or written where it is missing), a missing answer made by
/// the main solution. A generator that fails on one test is that test's
/// failure: the others are still made (a usage error, Ctrl-C, stops them
/// all).
fn gen_one(
    makers: &mut Makers<'_>,
    at: &At<'_>,
    test: &Test,
    tally: &mut Generated,
    say: Say<'_>,
) -> Result<(), MakeError> {
    let (package, input) = (at.package, at.input);
    let (Method::Generated, Some(cmd)) = (test.method, &test.cmd) else {
        if test.method == Method::Generated && !input.is_file() {
            tally
                .failed
                .push(super::no_command(test.index, Some(input)));
            return Ok(());
        }
        if !input.is_file() {
            return Err(MakeError::Package(format!(
                "test {}: a manual test, and {} is not in the package",
                test.index,
                input.display()
            )));
        }
        // A standard package holds its manual tests' inputs only: their
        // answers are the main solution's, as doall makes them.
        tally.answered += make_answer(makers, at, test.index, say)?;
        return Ok(());
    };
    let made = match makers.input(cmd, test.from_file.as_deref(), test.index) {
        Ok(made) => made,
        Err(MakeError::Package(m)) => {
            tally.failed.push(m);
            return Ok(());
        }
        Err(other) => return Err(other),
    };
    if input.is_file() {
        let have = package
            .read(input, PACKAGE_FILE_CAP)
            .map_err(|e| MakeError::Package(format!("cannot read: {e}")))?
            .bytes;
        // A test Polygon wrote on Windows is the same test as the
        // generator's `\n` output (`crlf`).
        let windows = super::super::crlf::read_as_windows(&have);
        if have == made || windows.as_deref() == Some(&made[..]) {
            tally.same += 1;
            tally.answered += make_answer(makers, at, test.index, say)?;
        } else {
            tally.differ.push(format!(
                "test {} (`{cmd}`): the generated input differs from {} ({})",
                test.index,
                input.display(),
                first_difference(&have, &made)
            ));
        }
        return Ok(());
    }
    write(package, input, &made)?;
    tally.written += 1;
    make_answer(makers, at, test.index, say)?;
    Ok(())
}

/// Write a test's answer by the main solution when the package has none
/// (1 when made, 0 when the answer was there). A problem with
/// `input-file`/`output-file` has its main solution read and write those
/// files in its working directory, as the contest system runs it.
fn make_answer(
    makers: &Makers<'_>,
    at: &At<'_>,
    index: usize,
    say: Say<'_>,
) -> Result<usize, MakeError> {
    let (package, input, answer) = (at.package, at.input, at.answer);
    if answer.is_file() {
        return Ok(0);
    }
    if makers.main().is_some_and(|m| m.interactive) {
        say(Event::Note(&format!(
            "test {index}: no answer ({}); not made: an interactive problem's main solution talks to its interactor, and its output is no answer",
            answer.display()
        )));
        return Ok(0);
    }
    let out = makers.answer(input, index)?;
    write(package, answer, &out)?;
    Ok(1)
}

/// Write a test or an answer into the package: beneath its root,
/// atomically, never through a link.
fn write(package: &Beneath, path: &Path, bytes: &[u8]) -> Result<(), MakeError> {
    package
        .write(path, bytes, 0o644, true)
        .map_err(|e| MakeError::Package(format!("cannot write: {e}")))
}
