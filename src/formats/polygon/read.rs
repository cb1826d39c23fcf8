//! problem.xml into [`Description`]: the `tests` testset (limits, path
//! patterns, tests, groups), `input-file`/`output-file`, the files and
//! assets (resources, executables, checker, interactor, validators,
//! solutions). Every error names problem.xml, the line and the element or
//! attribute; what the judge does not act on is a warning naming it.

pub use super::pattern::{MAX_WIDTH, PatternError, format_pattern};
pub use super::testset::{Method, Test};
use super::tool_tests::Declared;
use super::xml::Element;
use crate::formats::error::{FormatError, Place, ScriptError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A program of the package: its source and Polygon's `type` for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Relative to the package root, as problem.xml writes it.
    pub path: String,
    /// Polygon's source type (`cpp.g++17`, `python.3`, …), if given.
    pub kind: Option<String>,
    pub line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsPolicy {
    /// The group's points only when every test passes.
    CompleteGroup,
    /// The sum of the passed tests' points.
    EachTest,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub name: String,
    pub points: Option<f64>,
    pub policy: PointsPolicy,
    /// `feedback-policy` as written (`complete`, `icpc`, `points`, `none`).
    pub feedback: Option<String>,
    pub dependencies: Vec<String>,
}

/// The testset the judge runs (`tests`).
#[derive(Clone, Debug, PartialEq)]
pub struct Testset {
    pub time_limit: Duration,
    /// Bytes.
    pub memory: u64,
    pub input_pattern: String,
    pub answer_pattern: String,
    pub tests: Vec<Test>,
    pub groups: Vec<Group>,
    /// The generation script could not be read (named with its lines):
    /// `judge gen` refuses it; `verify` and `run` warn and judge the tests
    /// that are in the package, as if there were no script.
    pub script_error: Option<ScriptError>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Checker {
    /// `name` (`std::wcmp.cpp`), if given.
    pub name: Option<String>,
    pub source: Option<Program>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub tag: String,
    pub source: Program,
}

/// What problem.xml says.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    pub short_name: Option<String>,
    /// `input-file` when not the standard input.
    pub input_file: Option<String>,
    /// `treat-points-from-checker-as-percent="true"`: a checker's
    /// `quitp(x)` is x percent of the test's points, not x points.
    pub checker_points_percent: bool,
    pub output_file: Option<String>,
    pub testset: Testset,
    pub resources: Vec<String>,
    pub executables: Vec<Program>,
    pub checker: Option<Checker>,
    pub interactor: Option<Program>,
    pub validators: Vec<Program>,
    /// The checker's own tests (`<checker><testset>`).
    pub checker_tests: Vec<Declared>,
    /// Each validator's own tests, one list per entry of `validators`.
    pub validator_tests: Vec<Vec<Declared>>,
    pub solutions: Vec<Solution>,
}

struct Ctx<'a> {
    file: &'a Path,
}

impl Ctx<'_> {
    fn err(&self, e: &Element, what: &str) -> FormatError {
        self.attr_err(e, None, what.to_string())
    }

    /// An attribute `key="value"` of `e` that is wrong.
    fn attr_err(
        &self,
        e: &Element,
        attribute: Option<(&str, &str)>,
        message: String,
    ) -> FormatError {
        FormatError::Element {
            place: Place::line(self.file, e.line),
            element: e.name.clone(),
            attribute: attribute.map(|(k, v)| Box::new((k.to_string(), v.to_string()))),
            message,
        }
    }

    fn number<T: std::str::FromStr>(
        &self,
        e: &Element,
        text: &str,
        what: &str,
    ) -> Result<T, FormatError> {
        text.trim()
            .parse()
            .map_err(|_| self.err(e, &format!("{what}: {text:?} is not a number")))
    }

    /// Refuse a path attribute that leaves the package (absolute, `..`):
    /// every path problem.xml names is read, built, run or copied by the
    /// judge, so one that leaves would reach the judge's own files.
    fn beneath(&self, e: &Element, key: &str, value: &str) -> Result<(), FormatError> {
        crate::exec::beneath::lexically_beneath(Path::new(value))
            .map_err(|why| self.attr_err(e, Some((key, value)), why.to_string()))
    }

    /// Refuse a group name that is not a plain name: groups become
    /// directories of an export (`data/secret/NAME`).
    fn group_name(&self, e: &Element, key: &str, value: &str) -> Result<(), FormatError> {
        if plain_name(value) {
            Ok(())
        } else {
            Err(self.attr_err(
                e,
                Some((key, value)),
                "expected a plain group name (no `/`, not `.` or `..`)".to_string(),
            ))
        }
    }

    fn program(&self, holder: &Element) -> Result<Option<Program>, FormatError> {
        let Some(source) = holder.child("source") else {
            return Ok(None);
        };
        let path = source
            .attr("path")
            .ok_or_else(|| self.err(source, "no path attribute"))?;
        self.beneath(source, "path", path)?;
        Ok(Some(Program {
            path: path.to_string(),
            kind: source.attr("type").map(str::to_string),
            line: source.line,
        }))
    }
}

/// Read the description from problem.xml's root element.
pub(super) fn read(
    file: &Path,
    root: &Element,
    warnings: &mut Vec<String>,
) -> Result<Description, FormatError> {
    let cx = Ctx { file };
    if root.name != "problem" {
        return Err(cx.err(root, "expected <problem> as the root element"));
    }
    super::known::check(file, root, warnings);
    let judging = root
        .child("judging")
        .ok_or_else(|| cx.err(root, "no <judging> element"))?;
    let file_name = |key: &str| {
        judging
            .attr(key)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "stdin" && *v != "stdout")
            .map(str::to_string)
    };
    let testsets: Vec<&Element> = judging.all("testset").collect();
    let chosen = testsets
        .iter()
        .find(|t| t.attr("name") == Some("tests"))
        .or(testsets.first())
        .ok_or_else(|| cx.err(judging, "no <testset>"))?;
    for other in testsets.iter().filter(|t| !std::ptr::eq(**t, *chosen)) {
        warnings.push(format!(
            "{}:{}: testset {:?}: not judged (the judge runs the testset {:?})",
            file.display(),
            other.line,
            other.attr("name").unwrap_or(""),
            chosen.attr("name").unwrap_or("")
        ));
    }
    let testset = testset(&cx, chosen, warnings)?;
    let files = root.child("files");
    let mut resources = Vec::new();
    if let Some(list) = files.and_then(|f| f.child("resources")) {
        for f in list.all("file") {
            if let Some(path) = f.attr("path") {
                cx.beneath(f, "path", path)?;
                resources.push(path.to_string());
            }
        }
    }
    let mut executables = Vec::new();
    if let Some(list) = files.and_then(|f| f.child("executables")) {
        for exe in list.all("executable") {
            executables.extend(cx.program(exe)?);
        }
    }
    let assets = root.child("assets");
    let checker_tests = match assets.and_then(|a| a.child("checker")) {
        Some(c) => super::tool_tests::declared(file, c, true)?,
        None => Vec::new(),
    };
    let checker = match assets.and_then(|a| a.child("checker")) {
        Some(c) => Some(Checker {
            name: c.attr("name").map(str::to_string),
            source: cx.program(c)?,
        }),
        None => None,
    };
    let interactor = match assets.and_then(|a| a.child("interactor")) {
        Some(i) => Some(
            cx.program(i)?
                .ok_or_else(|| cx.err(i, "no <source> for the interactor"))?,
        ),
        None => None,
    };
    let mut validators = Vec::new();
    let mut validator_tests = Vec::new();
    if let Some(list) = assets.and_then(|a| a.child("validators")) {
        for v in list.all("validator") {
            if let Some(program) = cx.program(v)? {
                validators.push(program);
                validator_tests.push(super::tool_tests::declared(file, v, false)?);
            }
        }
    }
    let mut solutions = Vec::new();
    if let Some(list) = assets.and_then(|a| a.child("solutions")) {
        for s in list.all("solution") {
            let tag = s
                .attr("tag")
                .ok_or_else(|| cx.err(s, "no tag attribute"))?
                .to_string();
            if let Some(source) = cx.program(s)? {
                solutions.push(Solution { tag, source });
            }
        }
    }
    Ok(Description {
        short_name: root.attr("short-name").map(str::to_string),
        input_file: file_name("input-file"),
        checker_points_percent: judging.attr("treat-points-from-checker-as-percent")
            == Some("true"),
        output_file: file_name("output-file"),
        testset,
        resources,
        executables,
        checker,
        interactor,
        validators,
        checker_tests,
        validator_tests,
        solutions,
    })
}

fn testset(
    cx: &Ctx<'_>,
    set: &Element,
    warnings: &mut Vec<String>,
) -> Result<Testset, FormatError> {
    let need = |name: &str| {
        set.child(name)
            .ok_or_else(|| cx.err(set, &format!("no <{name}>")))
    };
    let time = need("time-limit")?;
    let millis: f64 = cx.number(time, &time.text, "time-limit (milliseconds)")?;
    if !(1.0..=86_400_000.0).contains(&millis) {
        return Err(cx.err(time, "time-limit: expected milliseconds from 1 to 86400000"));
    }
    let memory = need("memory-limit")?;
    let bytes: u64 = cx.number(memory, &memory.text, "memory-limit (bytes)")?;
    if bytes < 1 << 20 {
        return Err(cx.err(memory, "memory-limit: at least 1048576 bytes (1 MiB)"));
    }
    let input_pattern = path_pattern(cx, need("input-path-pattern")?)?;
    let answer_pattern = path_pattern(cx, need("answer-path-pattern")?)?;
    let mut tests = Vec::new();
    if let Some(list) = set.child("tests") {
        for (i, t) in list.all("test").enumerate() {
            let method = match t.attr("method").unwrap_or("manual") {
                "manual" => Method::Manual,
                "generated" => Method::Generated,
                other => {
                    return Err(cx.err(
                        t,
                        &format!("method {other:?}: expected manual or generated"),
                    ));
                }
            };
            let points = match t.attr("points") {
                Some(p) => Some(cx.number::<f64>(t, p, "points")?),
                None => None,
            };
            let cmd = t.attr("cmd").map(str::to_string);
            let from_file = match t.attr("from-file") {
                Some(f) if !plain_name(f) => {
                    return Err(cx.attr_err(
                        t,
                        Some(("from-file", f)),
                        "expected a plain file name (a file the generator writes in its working directory)".to_string(),
                    ));
                }
                other => other.map(str::to_string),
            };
            if let Some(g) = t.attr("group") {
                cx.group_name(t, "group", g)?;
            }
            tests.push(Test {
                index: i + 1,
                method,
                cmd,
                from_file,
                sample: t.attr("sample") == Some("true"),
                group: t.attr("group").map(str::to_string),
                points,
            });
        }
    }
    let count_el = need("test-count")?;
    let count: usize = cx.number(count_el, &count_el.text, "test-count")?;
    let script_error = super::script::apply(cx.file, set, count, &mut tests, warnings)?;
    if count != tests.len() {
        return Err(cx.err(
            count_el,
            &format!("test-count says {count}, <tests> lists {}", tests.len()),
        ));
    }
    let mut groups = Vec::new();
    if let Some(list) = set.child("groups") {
        for g in list.all("group") {
            groups.push(group(cx, g, warnings)?);
        }
    }
    for t in &tests {
        if let Some(name) = &t.group
            && !groups.iter().any(|g| &g.name == name)
        {
            // Polygon lists a group only when it has settings: an unlisted
            // one sums its tests' points.
            groups.push(Group {
                name: name.clone(),
                points: None,
                policy: PointsPolicy::EachTest,
                feedback: None,
                dependencies: Vec::new(),
            });
        }
    }
    Ok(Testset {
        time_limit: Duration::from_secs_f64(millis / 1000.0),
        memory: bytes,
        input_pattern,
        answer_pattern,
        tests,
        groups,
        script_error,
    })
}

/// A testset's path pattern, checked once for every test it will name:
/// understood (`%d`, `%0Nd`, `%%`, a width of at most [`MAX_WIDTH`]) and
/// inside the package (no absolute path, no `..`: `judge gen` writes
/// there and `judge run` quotes what it reads there).
fn path_pattern(cx: &Ctx<'_>, e: &Element) -> Result<String, FormatError> {
    let pattern = e.text.trim().to_string();
    let example = format_pattern(&pattern, 1).map_err(|why| cx.err(e, &why.to_string()))?;
    cx.beneath(e, "pattern", &example)?;
    Ok(pattern)
}

/// Whether `name` is a file name in a directory (no path, not `.`/`..`).
fn plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

fn group(cx: &Ctx<'_>, g: &Element, warnings: &mut Vec<String>) -> Result<Group, FormatError> {
    let name = g
        .attr("name")
        .ok_or_else(|| cx.err(g, "no name attribute"))?
        .to_string();
    cx.group_name(g, "name", &name)?;
    let points = match g.attr("points") {
        Some(p) => Some(cx.number::<f64>(g, p, "points")?),
        None => None,
    };
    let policy = match g.attr("points-policy").unwrap_or("complete-group") {
        "complete-group" => PointsPolicy::CompleteGroup,
        "each-test" => PointsPolicy::EachTest,
        other => {
            return Err(cx.err(
                g,
                &format!("points-policy {other:?}: expected complete-group or each-test"),
            ));
        }
    };
    let feedback = g.attr("feedback-policy").map(str::to_string);
    if let Some(f) = &feedback
        && !matches!(f.as_str(), "complete" | "icpc" | "points" | "none")
    {
        warnings.push(
            cx.err(
                g,
                &format!(
                    "feedback-policy {f:?}: not one of complete, icpc, points, none; read as complete"
                ),
            )
            .to_string(),
        );
    }
    let dependencies = g
        .child("dependencies")
        .map(|d| {
            d.all("dependency")
                .filter_map(|x| x.attr("group").map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Ok(Group {
        name,
        points,
        policy,
        feedback,
        dependencies,
    })
}

/// A package-relative path as written in problem.xml, kept inside the
/// package: an absolute path or one with `..` is refused.
pub fn inside(root: &Path, rel: &str, file: &Path, line: usize) -> Result<PathBuf, FormatError> {
    let p = Path::new(rel);
    if crate::exec::beneath::lexically_beneath(p).is_err() {
        return Err(FormatError::key(
            Place::line(file, line),
            "path",
            Some(rel.to_string()),
            format!("path {rel:?} leads outside the package"),
        ));
    }
    Ok(root.join(p))
}
