//! `judge verify` and `judge run` on a standard Polygon package: every
//! test the package declares and does not hold is built first, as
//! Polygon's "build package" (and `doall`) makes it, into the judge's
//! cache, never into the package (`judge gen` writes them there).
//!
//! - A missing input is made by its `cmd` (or its testset `<script>`
//!   line); a missing answer by the `main` solution on the input.
//! - Content-addressed: each built file is named by the key of what makes
//!   it, an input by its generator's source, the package's resources, the
//!   command and its `from-file`; an answer by the main solution's source
//!   and language, `input-file`/`output-file`, its limits and the input's
//!   bytes. A second build of an unchanged package makes nothing (and says
//!   so); a changed generator or main solution remakes what it touches.
//! - The package's view (`formats::polygon::view`) links each such test to
//!   its built files through the built map written here.
//! - A generator or the main solution that fails is the package's error,
//!   naming the test and the command: nothing is judged on a guessed
//!   answer. An interactive problem's missing answer is named too (its
//!   answer is what the interactor writes for the main solution, which the
//!   judge does not make).

use super::programs::{GEN_OUTPUT, Makers, executable_source};
use super::{Event, MakeError, Say};
use crate::exec::beneath::Beneath;
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use crate::formats::polygon::read::{Description, Method, Test, format_pattern};
use crate::submission::Toolchain;
use crate::text::format::plural;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What one test of the package lacks.
struct Wanted<'t> {
    test: &'t Test,
    /// The package's input, or `None` when it must be built.
    input: Option<PathBuf>,
    /// Whether its answer must be built.
    answer: bool,
}

/// Build what the Polygon package at `root` declares and does not hold,
/// with `toolchain`, telling `say` how far it is; the line that says what
/// was done (`None`: the package holds every test and answer).
pub fn prepare_polygon(
    root: &Path,
    toolchain: &Toolchain,
    say: Say<'_>,
) -> Result<Option<String>, MakeError> {
    let (desc, _) = crate::formats::polygon::describe(root)?;
    let map = crate::formats::polygon::built_map(root)?;
    let wanted = wanted(root, &desc)?;
    if wanted.is_empty() {
        // Nothing built stands for a file the package now holds.
        let _ = std::fs::remove_file(&map);
        return Ok(None);
    }
    let store_dir = crate::formats::polygon::built_store();
    create_private(&store_dir)?;
    let store = Beneath::new(&store_dir).map_err(|e| MakeError::Judge(e.to_string()))?;
    let sandbox = Arc::new(
        Sandbox::new(SandboxOptions::default()).map_err(|e| MakeError::Judge(e.to_string()))?,
    );
    let mut build = Build {
        root,
        desc: &desc,
        store: &store,
        makers: Makers::new(root, &desc, &sandbox, toolchain, &mut *say),
        lines: Vec::new(),
        failed: Vec::new(),
        made: (0, 0),
        reused: 0,
    };
    let started = Instant::now();
    let announce = build.announce(&wanted);
    for (done, w) in wanted.iter().enumerate() {
        build.one(w)?;
        say(Event::Progress {
            announce: &announce,
            done: done + 1,
            of: wanted.len(),
        });
    }
    write_map(&map, &build.lines)?;
    let line = build.finish(&announce, started.elapsed().as_secs_f64())?;
    say(Event::Note(&line));
    Ok(Some(line))
}

/// Every test whose input or answer the package does not hold.
fn wanted<'d>(root: &Path, desc: &'d Description) -> Result<Vec<Wanted<'d>>, MakeError> {
    let set = &desc.testset;
    let mut out = Vec::new();
    for test in &set.tests {
        let path = |pattern: &str| {
            format_pattern(pattern, test.index)
                .map(|p| root.join(p))
                .map_err(|e| {
                    MakeError::Package(format!(
                        "{}: {e}",
                        root.join(crate::formats::polygon::PROBLEM_XML).display()
                    ))
                })
        };
        let input = path(&set.input_pattern)?;
        let answer = path(&set.answer_pattern)?;
        let (has_input, has_answer) = (input.is_file(), answer.is_file());
        if !has_input || !has_answer {
            out.push(Wanted {
                test,
                input: has_input.then_some(input),
                answer: !has_answer,
            });
        }
    }
    Ok(out)
}

struct Build<'a> {
    root: &'a Path,
    desc: &'a Description,
    store: &'a Beneath,
    makers: Makers<'a>,
    /// The built map's lines.
    lines: Vec<String>,
    /// Each test that could not be built, named with its command.
    failed: Vec<String>,
    /// Inputs and answers made now.
    made: (usize, usize),
    /// Files found built before.
    reused: usize,
}

impl Build<'_> {
    /// The line said before building: what will be built, from what.
    fn announce(&self, wanted: &[Wanted<'_>]) -> String {
        let generated = wanted.iter().filter(|w| w.input.is_none()).count();
        let answers = wanted.iter().filter(|w| w.answer).count();
        let from = match (answers, self.makers.main()) {
            (0, _) => String::new(),
            (_, Some(main)) => format!(", {answers} answer{} from {}", plural(answers), main.shown),
            (_, None) => format!(", {answers} answer{} missing", plural(answers)),
        };
        format!(
            "{}: building {} test{} the package does not hold ({generated} generated{from})",
            self.root.display(),
            wanted.len(),
            plural(wanted.len())
        )
    }

    /// Build what one test lacks (a failure is kept, named, and the other
    /// tests are still built).
    fn one(&mut self, w: &Wanted<'_>) -> Result<(), MakeError> {
        let index = w.test.index;
        let input = match &w.input {
            Some(path) => path.clone(),
            None => match self.input(w.test)? {
                Some(path) => path,
                None => return Ok(()),
            },
        };
        if !w.answer {
            return Ok(());
        }
        if self.desc.interactor.is_some() {
            self.failed.push(format!(
                "test {index}: no answer in the package; an interactive problem's answer is what its interactor writes for the main solution, which the judge does not make (add it, or use Polygon's full package)"
            ));
            return Ok(());
        }
        let bytes = crate::exec::bounded_read::read_package_file(&input, GEN_OUTPUT)
            .map_err(|e| MakeError::Package(format!("{}: cannot read: {e}", input.display())))?;
        let Some(key) = self.answer_key(&bytes) else {
            self.failed.push(super::no_main_solution(index, true));
            return Ok(());
        };
        if self.store.exists(Path::new(&key)).is_ok() {
            self.reused += 1;
        } else {
            match self.makers.answer(&input, index) {
                Ok(answer) => {
                    self.keep(&key, &answer)?;
                    self.made.1 += 1;
                }
                Err(MakeError::Package(why)) => {
                    self.failed.push(why);
                    return Ok(());
                }
                Err(other) => return Err(other),
            }
        }
        self.lines.push(format!("ans {index} {key}"));
        Ok(())
    }

    /// A missing input, built (or found built): its file in the store, or
    /// `None` when it could not be (the failure kept).
    fn input(&mut self, test: &Test) -> Result<Option<PathBuf>, MakeError> {
        let index = test.index;
        let (Method::Generated, Some(cmd)) = (test.method, &test.cmd) else {
            self.failed.push(match test.method {
                Method::Generated => super::no_command(index, None),
                Method::Manual => format!(
                    "test {index}: a manual test, and its input ({}) is not in the package",
                    self.desc.testset.input_pattern
                ),
            });
            return Ok(None);
        };
        let key = self.input_key(cmd, test.from_file.as_deref());
        if self.store.exists(Path::new(&key)).is_ok() {
            self.reused += 1;
        } else {
            match self.makers.input(cmd, test.from_file.as_deref(), index) {
                Ok(bytes) => {
                    self.keep(&key, &bytes)?;
                    self.made.0 += 1;
                }
                Err(MakeError::Package(why)) => {
                    self.failed.push(why);
                    return Ok(None);
                }
                Err(other) => return Err(other),
            }
        }
        self.lines.push(format!("in {index} {key}"));
        Ok(Some(self.store.root().join(&key)))
    }

    /// The key of a generated input: the generator's source, every
    /// resource of the package (testlib.h and the headers it includes),
    /// the command and the file taken from its run.
    fn input_key(&self, cmd: &str, from_file: Option<&str>) -> String {
        let mut key = Key::new("polygon input 1");
        match executable_source(self.root, self.desc, cmd) {
            Some(source) => key.file(&source),
            None => key.part(b"no such executable"),
        }
        for resource in &self.desc.resources {
            key.part(resource.as_bytes());
            key.file(&self.root.join(resource));
        }
        key.part(cmd.as_bytes());
        key.part(from_file.unwrap_or("\0stdout").as_bytes());
        key.hex()
    }

    /// The key of an answer: the main solution's source and language, how
    /// it reads and writes, its limits, and the input.
    fn answer_key(&self, input: &[u8]) -> Option<String> {
        let main = self.makers.main()?;
        let mut key = Key::new("polygon answer 1");
        match &main.source {
            Ok(source) => {
                key.file(&source.path);
                key.part(format!("{:?}", source.language).as_bytes());
            }
            Err(why) => key.part(why.as_bytes()),
        }
        key.part(format!("{:?} {:?}", main.io, main.limits).as_bytes());
        key.part(input);
        Some(key.hex())
    }

    fn keep(&self, key: &str, bytes: &[u8]) -> Result<(), MakeError> {
        self.store
            .write(Path::new(key), bytes, 0o644, false)
            .map_err(|e| MakeError::Judge(format!("cannot keep a built test: {e}")))
    }

    fn finish(self, announce: &str, seconds: f64) -> Result<String, MakeError> {
        let (inputs, answers) = self.made;
        let line = if inputs + answers == 0 && self.failed.is_empty() {
            format!(
                "{}: the tests the package does not hold were built before ({} file{} in the cache): nothing built",
                self.root.display(),
                self.reused,
                plural(self.reused)
            )
        } else {
            format!(
                "{announce}: {inputs} input{} and {answers} answer{} made, {} built before ... {seconds:.1}s",
                plural(inputs),
                plural(answers),
                self.reused
            )
        };
        if !self.failed.is_empty() {
            return Err(MakeError::Package(format!(
                "{line}\n{}: the package's tests cannot be built, so nothing is judged:\n  {}",
                self.root.display(),
                self.failed.join("\n  ")
            )));
        }
        Ok(line)
    }
}

/// A SHA-256 of parts, each with its length (no two lists of parts hash
/// alike).
struct Key(Sha256);

impl Key {
    fn new(what: &str) -> Key {
        let mut key = Key(Sha256::new());
        key.part(what.as_bytes());
        key
    }

    fn part(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    /// A file's bytes (a file that cannot be read keys as such).
    fn file(&mut self, path: &Path) {
        match crate::exec::bounded_read::read_package_file(
            path,
            crate::exec::bounded_read::PACKAGE_FILE_CAP,
        ) {
            Ok(bytes) => self.part(&bytes),
            Err(e) => self.part(format!("\0unreadable {e}").as_bytes()),
        }
    }

    fn hex(self) -> String {
        crate::exec::identity::hex(&self.0.finalize())
    }
}

fn write_map(map: &Path, lines: &[String]) -> Result<(), MakeError> {
    let mut text = lines.join("\n");
    text.push('\n');
    let private = crate::exec::atomic::Mode::Private;
    crate::exec::atomic::write(
        map,
        crate::text::stream::Text::Bytes(text.as_bytes()),
        private,
        true,
    )
    .map_err(|e| MakeError::Judge(format!("{}: {e}", map.display())))
}

fn create_private(dir: &Path) -> Result<(), MakeError> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| MakeError::Judge(format!("{}: cannot create: {e}", dir.display())))
}
