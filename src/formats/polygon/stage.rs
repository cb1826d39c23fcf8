//! A Polygon package staged as a 2025-09 package in a temporary directory,
//! so that it exports like any package. From problem.xml (the Polygon
//! reader's problem and description): the limits; the tests (`tests/NN`
//! and their answers) in `data/sample` (`sample="true"`) and
//! `data/secret` (a scoring problem's tests in a folder per group, a
//! grouped sample in both); the groups as test_group.yaml (points,
//! `complete-group` → pass-fail `min`, `each-test` → `sum`, dependencies
//! → `require_pass`); the checker (a testlib checker wrapped into the
//! Kattis protocol, a `std::` checker as the default validator's flags);
//! the testlib validators and interactor wrapped likewise; the solutions
//! in the folder of their tag with Polygon's meaning of the tag as a
//! submissions.yaml entry. What Kattis cannot say goes to the notes.

use crate::check::Comparison;
use crate::formats::Notes;
use crate::formats::error::{ExportError, FormatError, Place};
use crate::formats::kattis::stage::{self as toml_source, copy, tool_file, write};
use crate::formats::model::Problem;
use crate::formats::polygon::read::{Description, Method};
use crate::formats::polygon::{self, tag_expectation};
use crate::formats::testlib_wrap::{self, Role};
use crate::score::ScoringPlan;
use serde_norway::{Mapping, Value};
use std::path::Path;

fn key(k: &str) -> Value {
    Value::String(k.to_string())
}

/// The package at `root`, resolved into `problem` (by `config`, over the
/// defaults), in `<tempdir>/<problem name>/`.
pub fn stage(
    root: &Path,
    problem: &Problem,
    notes: &mut Notes,
) -> Result<tempfile::TempDir, ExportError> {
    let (desc, _) = polygon::describe(root)?;
    let dir = tempfile::Builder::new()
        .prefix("judge-export-")
        .tempdir()
        .map_err(ExportError::TempDir)?;
    let out = dir.path().join(&problem.name);
    let file = root.join(polygon::PROBLEM_XML);
    let shown = file.display();
    let interactive = matches!(problem.comparison, Comparison::Interactive(_));
    toml_source::problem_yaml(problem, &out, interactive)?;
    let mut data_args = Mapping::new();
    if let Comparison::Interactive(i) = &problem.comparison {
        let Some(source) = tool_file(&i.tool).filter(|p| testlib_wrap::is_cpp(p)) else {
            return Err(ExportError::NoForm {
                of: shown.to_string(),
                message: format!(
                    "interactor {}: not a C++ source; the judge writes a Kattis interactor only from a testlib one in C++; not exported",
                    i.tool.display
                ),
            });
        };
        testlib_wrap::write(Role::Interactor, &source, &out.join("output_validator"))?;
        notes.push(format!(
            "{shown}: interactor {}: a testlib interactor, wrapped as a Kattis interactive output validator (output_validator/main.cpp); its output (tout) goes to the feedback directory",
            i.tool.display
        ));
        if let Some(c) = &i.checker {
            notes.push(format!(
                "{shown}: checker {}: run on the interactor's output in Polygon; Kattis has one validator for an interactive problem, so the interactor's verdict alone is the export's",
                c.tool.display
            ));
        }
    } else {
        toml_source::comparison(problem, &out, &mut data_args, notes)?;
    }
    if let Some(c) = desc.checker.as_ref().and_then(|c| c.name.as_deref())
        && c.starts_with("std::")
        && !matches!(problem.comparison, Comparison::Checker(_))
    {
        notes.push(format!(
            "{shown}: checker {c}: written as the default validator with the flags of its meaning ({})",
            problem.comparison.name()
        ));
    }
    tests(problem, &desc, root, &out, notes)?;
    toml_source::subtask_files(problem, &out)?;
    if !data_args.is_empty() {
        write(
            &out.join("data/test_group.yaml"),
            serde_norway::to_string(&data_args)?,
        )?;
    }
    validators(problem, &desc, &out, notes)?;
    solutions(&desc, root, &out, notes)?;
    not_carried(&desc, &shown.to_string(), notes);
    Ok(dir)
}

/// Every test of the testset, by its file in the reader's view.
fn tests(
    problem: &Problem,
    desc: &Description,
    root: &Path,
    out: &Path,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    let set = &desc.testset;
    let count = set.tests.len();
    let scoring = match &problem.scoring {
        Some(ScoringPlan::Subtasks(s)) => Some(s),
        _ => None,
    };
    let mut missing = Vec::new();
    for test in &set.tests {
        let name = polygon::case_name(test.index, count);
        let input = problem.cases.join(format!("{name}.in"));
        if !input.is_file() {
            missing.push(match (&test.method, &test.cmd) {
                (Method::Generated, Some(cmd)) => format!("{} (`{cmd}`)", test.index),
                _ => test.index.to_string(),
            });
            continue;
        }
        let answer = problem.cases.join(format!("{name}.ans"));
        let mut places = Vec::new();
        if test.sample {
            places.push(out.join("data/sample").join(&name));
        }
        let group = scoring.and_then(|s| s.group_of(&name).map(|g| g.name.clone()));
        match (group, scoring) {
            (Some(g), _) => places.push(out.join("data/secret").join(g).join(&name)),
            (None, None) if !test.sample => places.push(out.join("data/secret").join(&name)),
            (None, Some(_)) if !test.sample => {
                notes.push(format!(
                    "test {}: in no group and with no points, so it scores nothing; written as a sample",
                    test.index
                ));
                places.push(out.join("data/sample").join(&name));
            }
            _ => {}
        }
        for place in places {
            copy(&input, &place.with_extension("in"))?;
            if answer.is_file() {
                copy(&answer, &place.with_extension("ans"))?;
            } else {
                notes.push(format!(
                    "test {}: no answer file ({}); the export has none either",
                    test.index, set.answer_pattern
                ));
            }
        }
    }
    if !missing.is_empty() {
        return Err(ExportError::NoForm {
            of: root.display().to_string(),
            message: format!(
                "tests {} have no input file ({}): a standard package; run `judge gen {}` first (or export the full package)",
                missing.join(", "),
                set.input_pattern,
                root.display()
            ),
        });
    }
    Ok(())
}

/// The testlib validators, each wrapped into `input_validators/<name>/`.
fn validators(
    problem: &Problem,
    desc: &Description,
    out: &Path,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    for v in &problem.validators {
        let Some(source) = tool_file(&v.tool).filter(|p| testlib_wrap::is_cpp(p)) else {
            notes.push(format!(
                "validator {}: not a C++ source; the judge wraps only testlib validators in C++ into Kattis input validators; left out",
                v.tool.display
            ));
            continue;
        };
        let stem = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "validator".to_string());
        testlib_wrap::write(
            Role::Validator,
            &source,
            &out.join("input_validators").join(stem),
        )?;
        notes.push(format!(
            "validator {}: a testlib validator (exit 0 when valid), wrapped as a Kattis input validator (42/43)",
            v.tool.display
        ));
    }
    if !problem.validators.is_empty() {
        group_arguments(desc, out, notes)?;
    }
    Ok(())
}

/// Polygon runs a validator as `--testset tests --group G`: each group's
/// folder under data/secret says so in its test_group.yaml
/// (`input_validator_args`, `input_validator_flags` in legacy), so testlib's
/// `validator.group()` is the same in the export. Samples are validated
/// without a group (data/sample is no group's folder).
fn group_arguments(desc: &Description, out: &Path, notes: &mut Notes) -> Result<(), ExportError> {
    let mut sample_groups = Vec::new();
    let mut unplaced = Vec::new();
    let mut named: Vec<&str> = desc
        .testset
        .tests
        .iter()
        .filter_map(|t| t.group.as_deref())
        .collect();
    named.sort();
    named.dedup();
    for name in named {
        let file = out.join("data/secret").join(name).join("test_group.yaml");
        if !file.is_file() {
            unplaced.push(name.to_string());
            continue;
        }
        let text = crate::exec::bounded_read::read_package_text(
            &file,
            crate::exec::bounded_read::DESCRIPTION_CAP,
        )
        .map_err(ExportError::io(&file, "cannot read"))?;
        let mut m: Mapping = serde_norway::from_str(&text).map_err(|e| FormatError::Syntax {
            place: Place::file(&file),
            message: format!("not a mapping: {e}"),
        })?;
        let args = ["--testset", "tests", "--group", name]
            .iter()
            .map(|a| key(a))
            .collect();
        m.insert(key("input_validator_args"), Value::Sequence(args));
        write(&file, serde_norway::to_string(&m)?)?;
        if desc
            .testset
            .tests
            .iter()
            .any(|t| t.sample && t.group.as_deref() == Some(name))
        {
            sample_groups.push(name.to_string());
        }
    }
    if let Some(first) = unplaced.first() {
        notes.push(format!(
            "validators: group {} has no folder of its own in the export (not a scoring problem), so its tests are validated without `--group {first}`",
            unplaced.join(", "),
        ));
    }
    if !sample_groups.is_empty() {
        notes.push(format!(
            "validators: the samples of group {} are validated in data/sample without `--group` (in their group's folder under data/secret with it)",
            sample_groups.join(", ")
        ));
    }
    Ok(())
}

/// The folder a Polygon tag's solutions go into, and why when it is not
/// the tag's own.
fn folder(tag: &str) -> (&'static str, Option<&'static str>) {
    match tag {
        "main" | "accepted" => ("accepted", None),
        "wrong-answer" => ("wrong_answer", None),
        "presentation-error" => (
            "wrong_answer",
            Some(
                "Kattis has no presentation error; in wrong_answer, with Polygon's PE as its submissions.yaml entry",
            ),
        ),
        "time-limit-exceeded" => ("time_limit_exceeded", None),
        "memory-limit-exceeded" => ("memory_limit_exceeded", None),
        "failed" => ("run_time_error", None),
        "rejected" => ("rejected", None),
        "time-limit-exceeded-or-accepted" => (
            "time_limit_exceeded",
            Some(
                "no Kattis folder permits AC and TLE; in time_limit_exceeded, with AC-or-TLE as its submissions.yaml entry (a version without submissions.yaml judges it by the folder)",
            ),
        ),
        "time-limit-exceeded-or-memory-limit-exceeded" => (
            "time_limit_exceeded",
            Some(
                "no Kattis folder for TLE or MLE; in time_limit_exceeded, with TLE-or-MLE as its submissions.yaml entry",
            ),
        ),
        _ => ("rejected", Some("not a Polygon tag; in rejected")),
    }
}

/// The solutions in their tags' folders, and each tag's meaning as a
/// submissions.yaml entry.
fn solutions(
    desc: &Description,
    root: &Path,
    out: &Path,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    let mut rules = Mapping::new();
    for s in &desc.solutions {
        let from = root.join(&s.source.path);
        let Some(name) = from.file_name().filter(|_| from.is_file()) else {
            notes.push(format!(
                "solution {} ({}): not in the package; left out",
                s.source.path, s.tag
            ));
            continue;
        };
        let (folder, why) = folder(&s.tag);
        if let Some(why) = why {
            notes.push(format!("solution {} ({}): {why}", s.source.path, s.tag));
        }
        let rel = format!("{folder}/{}", name.to_string_lossy());
        copy(&from, &out.join("submissions").join(&rel))?;
        let Some(e) = tag_expectation(&s.tag) else {
            continue;
        };
        let list = |vs: &[crate::verdict::Verdict]| {
            Value::Sequence(vs.iter().map(|v| key(v.code())).collect())
        };
        let mut m = Mapping::new();
        if let Some(p) = &e.permitted {
            m.insert(key("permitted"), list(p));
        }
        if let Some(r) = &e.required {
            m.insert(key("required"), list(r));
        }
        rules.insert(key(&rel), Value::Mapping(m));
    }
    if !rules.is_empty() {
        write(
            &out.join("submissions/submissions.yaml"),
            serde_norway::to_string(&rules)?,
        )?;
    }
    Ok(())
}

/// What problem.xml says that no Kattis package can.
fn not_carried(desc: &Description, shown: &str, notes: &mut Notes) {
    for (k, v) in [
        ("input-file", &desc.input_file),
        ("output-file", &desc.output_file),
    ] {
        if let Some(v) = v {
            notes.push(format!(
                "{shown}: {k}=\"{v}\": Kattis programs read the standard input and write the standard output; a solution that uses {v} fails in the export"
            ));
        }
    }
    for g in &desc.testset.groups {
        if let Some(f) = &g.feedback {
            notes.push(format!(
                "{shown}: group {}: feedback-policy=\"{f}\": Kattis has no feedback policy",
                g.name
            ));
        }
    }
    let generated: Vec<String> = desc
        .testset
        .tests
        .iter()
        .filter_map(|t| t.cmd.as_ref().map(|c| format!("{} (`{c}`)", t.index)))
        .collect();
    if !generated.is_empty() {
        notes.push(format!(
            "{shown}: tests {}: generated in Polygon; the export holds the generated files, not the generators' commands",
            generated.join(", ")
        ));
    }
    for e in &desc.executables {
        notes.push(format!(
            "{shown}: executable {}: a Polygon generator or helper; not carried",
            e.path
        ));
    }
}
