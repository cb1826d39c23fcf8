//! A judge.toml problem staged as a 2025-09 package in a temporary
//! directory, so that it exports like any package: its cases in
//! `data/sample` (cases under a `sample` folder) and `data/secret` (a
//! scoring problem's cases in a folder per group), its comparison as the
//! default validator's arguments or its checker as the output validator
//! (a testlib checker in C wrapped into the Kattis protocol), its
//! validators, its submissions and `[problem.X.expect]` as
//! submissions.yaml entries, its groups as test_group.yaml files.

use super::source::number;
use crate::check::Comparison;
use crate::check::external::Protocol;
use crate::check::tool::{Source as ToolSource, Tool};
use crate::formats::Notes;
use crate::formats::error::ExportError;
use crate::formats::model::Problem;
use crate::score::ScoringPlan;
use serde_norway::{Mapping, Value};
use std::path::{Path, PathBuf};

fn key(k: &str) -> Value {
    Value::String(k.to_string())
}

/// The package, in `<tempdir>/<problem name>/`.
pub fn stage(problem: &Problem, notes: &mut Notes) -> Result<tempfile::TempDir, ExportError> {
    if problem.puzzle.is_some() {
        return Err(ExportError::NoForm {
            of: problem.name.clone(),
            message: "a built-in puzzle: its checker is the judge's own and has no package form; not exported".to_string(),
        });
    }
    let dir = tempfile::Builder::new()
        .prefix("judge-export-")
        .tempdir()
        .map_err(ExportError::TempDir)?;
    let root = dir.path().join(&problem.name);
    problem_yaml(problem, &root, false)?;
    let mut data_args = Mapping::new();
    comparison(problem, &root, &mut data_args, notes)?;
    cases(problem, &root, notes)?;
    subtask_files(problem, &root)?;
    if !data_args.is_empty() {
        write(
            &root.join("data/test_group.yaml"),
            serde_norway::to_string(&data_args)?,
        )?;
    }
    for v in &problem.validators {
        if let Some(path) = tool_file(&v.tool) {
            let name = path.file_name().map(PathBuf::from).unwrap_or_default();
            copy(&path, &root.join("input_validators").join(name))?;
            if v.protocol == Protocol::Testlib {
                notes.push(format!("validator {}: a testlib validator; Kattis input validators exit 42 when valid, so it is copied but other tools may read its exit codes differently", v.tool.display));
            }
        } else {
            notes.push(format!(
                "validator {}: a command, not a file; left out",
                v.tool.display
            ));
        }
    }
    submissions(problem, &root, notes)?;
    Ok(dir)
}

/// problem.yaml of the staged 2025-09 package.
pub(crate) fn problem_yaml(
    problem: &Problem,
    root: &Path,
    interactive: bool,
) -> Result<(), ExportError> {
    let mut yaml = Mapping::new();
    yaml.insert(key("problem_format_version"), key("2025-09"));
    yaml.insert(key("name"), key(&problem.name));
    let scoring = matches!(problem.scoring, Some(ScoringPlan::Subtasks(_)));
    let kind = key(if scoring { "scoring" } else { "pass-fail" });
    yaml.insert(
        key("type"),
        if interactive {
            Value::Sequence(vec![kind, key("interactive")])
        } else {
            kind
        },
    );
    let mut limits = Mapping::new();
    limits.insert(key("time_limit"), number(problem.limits.time.as_secs_f64()));
    if let Some(m) = problem.limits.memory {
        limits.insert(key("memory"), number((m as f64 / 1048576.0).ceil()));
    }
    limits.insert(
        key("output"),
        number((problem.limits.output as f64 / 1048576.0).ceil()),
    );
    yaml.insert(key("limits"), Value::Mapping(limits));
    write(&root.join("problem.yaml"), serde_norway::to_string(&yaml)?)
}

/// A scoring problem's groups as test_group.yaml files of `data/secret`.
pub(crate) fn subtask_files(problem: &Problem, root: &Path) -> Result<(), ExportError> {
    if let Some(ScoringPlan::Subtasks(s)) = &problem.scoring {
        for g in &s.groups {
            let mut m = Mapping::new();
            m.insert(
                key("max_score"),
                g.max_score.map_or_else(|| key("unbounded"), number),
            );
            m.insert(key("score_aggregation"), key(g.aggregation.name()));
            if !g.require_pass.is_empty() {
                let names = g
                    .require_pass
                    .iter()
                    .map(|r| key(&format!("secret/{r}")))
                    .collect();
                m.insert(key("require_pass"), Value::Sequence(names));
            }
            write(
                &root
                    .join("data/secret")
                    .join(&g.name)
                    .join("test_group.yaml"),
                serde_norway::to_string(&m)?,
            )?;
        }
        let mut m = Mapping::new();
        m.insert(
            key("max_score"),
            s.total.max_score.map_or_else(|| key("unbounded"), number),
        );
        m.insert(key("score_aggregation"), key(s.total.aggregation.name()));
        write(
            &root.join("data/secret/test_group.yaml"),
            serde_norway::to_string(&m)?,
        )?;
    }
    Ok(())
}

pub(crate) fn write(path: &Path, text: impl AsRef<[u8]>) -> Result<(), ExportError> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(ExportError::io(p, ""))?;
    }
    std::fs::write(path, text).map_err(ExportError::io(path, ""))
}

pub(crate) fn copy(from: &Path, to: &Path) -> Result<(), ExportError> {
    if let Some(p) = to.parent() {
        std::fs::create_dir_all(p).map_err(ExportError::io(p, ""))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(ExportError::io(from, ""))
}

pub(crate) fn tool_file(tool: &Tool) -> Option<PathBuf> {
    match &tool.source {
        ToolSource::Path(p) if p.is_file() => Some(p.clone()),
        _ => None,
    }
}

pub(crate) fn comparison(
    problem: &Problem,
    root: &Path,
    data_args: &mut Mapping,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    let mut args: Vec<String> = Vec::new();
    match &problem.comparison {
        Comparison::Tokens {
            float,
            case_insensitive,
        } => {
            if !case_insensitive {
                args.push("case_sensitive".into());
            }
            if let Some(f) = float {
                args.extend([
                    "float_absolute_tolerance".into(),
                    f.absolute.to_string(),
                    "float_relative_tolerance".into(),
                    f.relative.to_string(),
                ]);
            }
        }
        Comparison::Exact | Comparison::Lines => {
            args.extend(["case_sensitive".into(), "space_change_sensitive".into()]);
            notes.push(format!(
                "check {}: the default validator compares tokens; written as case_sensitive space_change_sensitive (a white-space difference is WA, not PE)",
                if matches!(problem.comparison, Comparison::Exact) { "exact" } else { "lines" }
            ));
        }
        Comparison::Checker(checker) => {
            let Some(path) = tool_file(&checker.tool) else {
                return Err(ExportError::NoForm {
                    of: problem.name.clone(),
                    message: format!(
                        "checker {}: a command, not a file; a package needs its program",
                        checker.tool.display
                    ),
                });
            };
            let name = path.file_name().map(PathBuf::from).unwrap_or_default();
            match checker.protocol {
                Protocol::Kattis => copy(&path, &root.join("output_validator").join(&name))?,
                Protocol::Testlib => testlib_wrapper(problem, &path, root, notes)?,
            }
            args.extend(checker.flags.iter().cloned());
        }
        Comparison::Puzzle | Comparison::Interactive(_) => {
            return Err(ExportError::NoForm {
                of: problem.name.clone(),
                message: "this check has no package form in judge.toml export yet; not exported"
                    .to_string(),
            });
        }
    }
    if !args.is_empty() {
        data_args.insert(
            key("output_validator_args"),
            Value::Sequence(args.iter().map(|a| key(a)).collect()),
        );
    }
    Ok(())
}

/// A testlib checker in C as a Kattis output validator: the checker's
/// source included with its `main` and `exit` renamed, and a `main` that
/// saves the team's output and maps testlib's exit codes (0 AC, 1 WA, 2
/// PE as WA, else a judge error) to Kattis' (42, 43, 1).
fn testlib_wrapper(
    problem: &Problem,
    path: &Path,
    root: &Path,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    if crate::formats::testlib_wrap::is_cpp(path) {
        notes.push(format!(
            "checker {}: testlib protocol, wrapped as a Kattis output validator (output_validator/main.cpp runs it in a child process and maps its exit code); Kattis has no presentation error, so its PE is WA",
            path.display()
        ));
        return crate::formats::testlib_wrap::write(
            crate::formats::testlib_wrap::Role::Checker,
            path,
            &root.join("output_validator"),
        );
    }
    if path.extension().is_none_or(|x| x != "c") {
        return Err(ExportError::NoForm {
            of: problem.name.clone(),
            message: format!(
                "checker {}: a testlib checker that is neither a C nor a C++ source has no Kattis form the judge can write; not exported",
                path.display()
            ),
        });
    }
    notes.push(format!(
        "checker {}: testlib protocol, wrapped as a Kattis output validator; Kattis has no presentation error, so its PE is WA",
        path.display()
    ));
    let dir = root.join("output_validator");
    copy(path, &dir.join("testlib_checker.h"))?;
    write(&dir.join("validator.c"), WRAPPER)
}

const WRAPPER: &str = r#"/* A testlib checker as a Kattis output validator (written by judge export):
 *   validator INPUT ANSWER FEEDBACK_DIR < TEAM_OUTPUT
 * The checker is testlib_checker.h with its main and exit renamed. Its
 * exit codes become Kattis': 0 AC (42), 1 WA and 2 PE (43), testlib's
 * partial credit (7 with "points X" on stderr, or 50 + k) AC with
 * score_multiplier.txt; anything else a judge error (1). Its messages go
 * to judgemessage.txt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char judge_dir[4096];

static void judge_write_multiplier(double fraction) {
    char path[4200];
    snprintf(path, sizeof path, "%s/score_multiplier.txt", judge_dir);
    FILE *f = fopen(path, "w");
    if (!f) exit(1);
    fprintf(f, "%.9g\n", fraction);
    fclose(f);
}

static void judge_kattis_exit(int code) {
    double fraction = -1;
    if (code == 7) {
        char path[4200], line[4096];
        fflush(stderr);
        snprintf(path, sizeof path, "%s/judgemessage.txt", judge_dir);
        FILE *m = fopen(path, "r");
        while (m && fgets(line, sizeof line, m))
            if (strncmp(line, "points ", 7) == 0) fraction = atof(line + 7);
        if (m) fclose(m);
    } else if (code >= 50 && code <= 150) {
        fraction = (code - 50) / 100.0;
    }
    if (fraction >= 0 && fraction <= 1) {
        judge_write_multiplier(fraction);
        exit(42);
    }
    exit(code == 0 ? 42 : (code == 1 || code == 2) ? 43 : 1);
}

#define exit judge_kattis_exit
#define main judge_testlib_main
#include "testlib_checker.h"
#undef main
#undef exit

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: validator input answer feedback_dir < output\n"); return 1; }
    snprintf(judge_dir, sizeof judge_dir, "%s", argv[3]);
    char out[4200], message[4200];
    snprintf(out, sizeof out, "%s/team_output", judge_dir);
    snprintf(message, sizeof message, "%s/judgemessage.txt", judge_dir);
    FILE *f = fopen(out, "wb");
    if (!f) { perror(out); return 1; }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) fwrite(buf, 1, n, f);
    fclose(f);
    if (!freopen(message, "w", stderr)) return 1;
    char *args[] = { argv[0], argv[1], out, argv[2], NULL };
    judge_kattis_exit(judge_testlib_main(4, args));
    return 1;
}
"#;

/// Every case: `.in` with its `.ans` (or `.out`), placed by its group.
fn cases(problem: &Problem, root: &Path, notes: &mut Notes) -> Result<(), ExportError> {
    let base = &problem.cases;
    let mut inputs: Vec<PathBuf> = crate::exec::links::walk_once(base)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "in"))
        .map(|e| e.into_path())
        .collect();
    inputs.sort();
    for input in inputs {
        let rel = input.strip_prefix(base).unwrap_or(&input);
        let name = rel.to_string_lossy().replace('\\', "/");
        let mut parts: Vec<&str> = name.split('/').collect();
        let sample = parts.len() > 1 && parts.first() == Some(&"sample");
        if sample {
            parts.remove(0);
        }
        let flat = parts.join("-");
        let group = match &problem.scoring {
            Some(ScoringPlan::Subtasks(s)) => s.group_of(&name).map(|g| g.name.clone()),
            _ => None,
        };
        let to = match (&group, sample, &problem.scoring) {
            (Some(g), _, _) => root.join("data/secret").join(g).join(&flat),
            (None, true, _) => root.join("data/sample").join(&flat),
            (None, false, Some(_)) => {
                notes.push(format!(
                    "case {name}: in no group, so it scores nothing; written as a sample"
                ));
                root.join("data/sample").join(&flat)
            }
            (None, false, None) => root.join("data/secret").join(&flat),
        };
        copy(&input, &to)?;
        let answer = ["ans", "out"]
            .iter()
            .map(|x| input.with_extension(x))
            .find(|p| p.is_file());
        match answer {
            Some(a) => copy(&a, &to.with_extension("ans"))?,
            None => notes.push(format!(
                "case {name}: no answer file; the package has none either"
            )),
        }
    }
    Ok(())
}

/// `submissions/` as it is, and `[problem.X.expect."path"]` as
/// submissions.yaml entries.
pub(crate) fn submissions(
    problem: &Problem,
    root: &Path,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    let from = &problem.submissions;
    if !from.is_dir() {
        return Ok(());
    }
    for entry in crate::exec::links::walk_once(from) {
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(from).unwrap_or(entry.path());
            copy(entry.path(), &root.join("submissions").join(rel))?;
        }
    }
    for (folder, how) in [
        (
            "memory_limit_exceeded",
            "Kattis counts a memory limit as RTE",
        ),
        (
            "output_limit_exceeded",
            "Kattis counts an output limit as its own rejection, not OLE",
        ),
    ] {
        if root.join("submissions").join(folder).is_dir() {
            notes.push(format!("submissions/{folder}/: {how}; kept by name, so `judge verify` of the export finds these submissions disagree with their folder"));
        }
    }
    let mut rules = Mapping::new();
    for (path, e) in &problem.expectations {
        let mut m = Mapping::new();
        let list = |vs: &[crate::verdict::Verdict]| {
            Value::Sequence(vs.iter().map(|v| key(v.code())).collect())
        };
        if let Some(p) = &e.permitted {
            m.insert(key("permitted"), list(p));
        }
        if let Some(r) = &e.required {
            m.insert(key("required"), list(r));
        }
        if let Some(s) = e.score {
            m.insert(key("score"), score(s));
        }
        for (g, s) in &e.group_scores {
            let mut inner = Mapping::new();
            inner.insert(key("score"), score(*s));
            m.insert(key(&format!("secret/{g}")), Value::Mapping(inner));
        }
        if !e.nodes.is_empty() {
            notes.push(format!("expect {path}: verdicts by case are not carried"));
        }
        rules.insert(key(path), Value::Mapping(m));
    }
    if !rules.is_empty() {
        write(
            &root.join("submissions/submissions.yaml"),
            serde_norway::to_string(&rules)?,
        )?;
    }
    Ok(())
}

fn score(s: crate::score::ScoreRange) -> Value {
    if s.low == s.high {
        number(s.low)
    } else {
        Value::Sequence(vec![number(s.low), number(s.high)])
    }
}
