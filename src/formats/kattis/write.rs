//! A package written as a Kattis package of a format version: problem.yaml,
//! `.timelimit` (legacy), `data/` with each version's group files, the
//! validators in the version's folders, `submissions/`, the statement and
//! the other folders. What the version cannot say goes to the notes.

use super::write_groups as groups;
use crate::formats::Notes;
use crate::formats::error::ExportError;
use crate::formats::kattis::FormatVersion;
pub use crate::formats::kattis::source::{Source, number};
use crate::formats::tree::Tree;
use serde_norway::{Mapping, Value};
use std::path::{Path, PathBuf};

/// Descriptive keys of problem.yaml every version has as they are.
const SHARED_KEYS: [&str; 3] = ["uuid", "license", "rights_owner"];
/// Descriptive keys whose shape changed between versions.
const VERSIONED_KEYS: [&str; 7] = [
    "author",
    "source",
    "source_url",
    "credits",
    "keywords",
    "embargo_until",
    "version",
];

/// The whole package in `version`.
pub fn write(src: &Source, version: FormatVersion, notes: &mut Notes) -> Result<Tree, ExportError> {
    let mut tree = Tree::default();
    let yaml = problem_yaml(src, version, &mut tree, notes);
    let text = serde_norway::to_string(&Value::Mapping(yaml))?;
    tree.put("problem.yaml", text);
    data(src, version, &mut tree, notes)?;
    validators(src, version, &mut tree, notes);
    submissions(src, version, &mut tree, notes);
    other_folders(src, version, &mut tree, notes);
    Ok(tree)
}

fn key(k: &str) -> Value {
    Value::String(k.to_string())
}

fn mib(bytes: u64) -> Value {
    number((bytes as f64 / 1048576.0 * 1e6).round() / 1e6)
}

fn problem_yaml(
    src: &Source,
    version: FormatVersion,
    tree: &mut Tree,
    notes: &mut Notes,
) -> Mapping {
    let p = &src.package;
    let mut y = Mapping::new();
    if version != FormatVersion::Legacy {
        y.insert(key("problem_format_version"), key(version.name()));
    }
    let name =
        match src.yaml.get("name") {
            Some(Value::Mapping(langs)) if version != FormatVersion::V2025_09 => {
                let pick = langs.get("en").or_else(|| langs.values().next()).cloned();
                notes.push(format!(
                "problem.yaml name: names in several languages; {} has one, the {} one is written",
                version.name(),
                if langs.get("en").is_some() { "English" } else { "first" }
            ));
                pick
            }
            Some(v) => Some(v.clone()),
            None => None,
        };
    y.insert(key("name"), name.unwrap_or_else(|| key(&p.name)));
    for k in SHARED_KEYS {
        if let Some(v) = src.yaml.get(k) {
            y.insert(key(k), v.clone());
        }
    }
    for k in VERSIONED_KEYS {
        let Some(v) = src.yaml.get(k) else { continue };
        if version == p.version {
            y.insert(key(k), v.clone());
        } else {
            notes.push(format!(
                "problem.yaml {k}: its form differs between {} and {}; not carried",
                p.version.name(),
                version.name()
            ));
        }
    }
    kind(src, version, &mut y, notes);
    file_writing(src, version, &mut y, notes);
    y.insert(key("limits"), Value::Mapping(limits(src, version, tree)));
    if version == FormatVersion::Legacy && !p.validator_flags.is_empty() {
        y.insert(
            key("validator_flags"),
            key(&shlex::try_join(p.validator_flags.iter().map(String::as_str)).unwrap_or_default()),
        );
    }
    if version == FormatVersion::V2025_09
        && let Some(c) = src.yaml.get("constants")
    {
        y.insert(key("constants"), c.clone());
    } else if !p.constants.is_empty() {
        notes.push(format!(
            "problem.yaml constants: {} has none; replaced in the validators, group files and submissions",
            version.name()
        ));
    }
    y
}

/// Whether submissions may write in their working directory: always up
/// to 2023-07, only with `allow_file_writing: true` in 2025-09. A source
/// that allows it exports to 2025-09 with the key; one that does not
/// (a 2025-09 package without it) cannot say so in an older version.
fn file_writing(src: &Source, version: FormatVersion, y: &mut Mapping, notes: &mut Notes) {
    let writes = src.package.file_writing;
    if version == FormatVersion::V2025_09 {
        if writes {
            y.insert(key("allow_file_writing"), Value::Bool(true));
        }
    } else if !writes {
        notes.push(format!(
            "problem.yaml allow_file_writing: the source gives submissions no writable working directory; {} has no such setting (its submissions may write files)",
            version.name()
        ));
    }
}

/// `type` (2023-07, 2025-09) or `type` and `validation` (legacy).
fn kind(src: &Source, version: FormatVersion, y: &mut Mapping, notes: &mut Notes) {
    let p = &src.package;
    let multi_pass = p.passes > 1;
    if version == FormatVersion::Legacy {
        if p.scoring.is_some() {
            y.insert(key("type"), key("scoring"));
        }
        if p.output_validator.is_some() {
            let mut words = vec!["custom"];
            if p.interactive {
                words.push("interactive");
            }
            if multi_pass {
                words.push("multi-pass");
                notes.push("multi-pass: the legacy format has no multi-pass problems; written as validation: custom multi-pass, which the judge reads and older tools may not".to_string());
            }
            y.insert(key("validation"), key(&words.join(" ")));
        }
        return;
    }
    let mut types = vec![if p.scoring.is_some() {
        "scoring"
    } else {
        "pass-fail"
    }];
    if p.interactive {
        types.push("interactive");
    }
    if multi_pass {
        types.push("multi-pass");
    }
    let value = if let [one] = types.as_slice() {
        key(one)
    } else {
        Value::Sequence(types.iter().map(|t| key(t)).collect())
    };
    y.insert(key("type"), value);
}

fn limits(src: &Source, version: FormatVersion, tree: &mut Tree) -> Mapping {
    let l = &src.package.limits;
    let mut m = Mapping::new();
    if let Some(t) = l.time_limit {
        let secs = (t.as_secs_f64() * 1e6).round() / 1e6;
        if version == FormatVersion::Legacy {
            tree.put(".timelimit", format!("{secs}\n"));
        } else {
            m.insert(key("time_limit"), number(secs));
        }
    } else if let Some(inference) = l.time_inference {
        if version == FormatVersion::Legacy {
            m.insert(key("time_multiplier"), number(inference.multiplier));
        } else {
            let mut t = Mapping::new();
            t.insert(key("ac_to_time_limit"), number(inference.multiplier));
            m.insert(key("time_multipliers"), Value::Mapping(t));
        }
        if version == FormatVersion::V2025_09 && inference.resolution != 1.0 {
            m.insert(key("time_resolution"), number(inference.resolution));
        }
    }
    m.insert(key("memory"), mib(l.memory));
    m.insert(key("output"), mib(l.output));
    if let Some(v) = l.tool_time_limit {
        m.insert(key("validation_time"), number(v.as_secs_f64()));
    }
    if src.package.passes > 1 {
        m.insert(
            key("validation_passes"),
            number(f64::from(src.package.passes)),
        );
    }
    m
}

/// Substitute the package's constants when the target has none.
pub fn bytes_for(src: &Source, version: FormatVersion, path: &Path) -> Option<Vec<u8>> {
    if version == FormatVersion::V2025_09 || src.package.constants.is_empty() {
        return None;
    }
    crate::exec::bounded_read::read_package_file(path, crate::exec::bounded_read::PACKAGE_FILE_CAP)
        .ok()
        .map(|b| src.package.constants.substitute(&b).into_owned())
}

fn copy_program_dir(src: &Source, version: FormatVersion, tree: &mut Tree, to: &Path, from: &Path) {
    if from.is_file() {
        let name = from.file_name().map(PathBuf::from).unwrap_or_default();
        put_file(src, version, tree, &to.join(name), from);
        return;
    }
    let mut files = Tree::default();
    files.copy_dir(Path::new(""), from, |_| false);
    for (rel, content) in files.files {
        if let crate::formats::tree::Content::Copy(path) = content {
            put_file(src, version, tree, &to.join(rel), &path);
        }
    }
}

fn put_file(src: &Source, version: FormatVersion, tree: &mut Tree, rel: &Path, from: &Path) {
    match bytes_for(src, version, from) {
        Some(bytes) => tree.put(rel, bytes),
        None => tree.copy(rel, from),
    }
}

fn data(
    src: &Source,
    version: FormatVersion,
    tree: &mut Tree,
    notes: &mut Notes,
) -> Result<(), ExportError> {
    let data = src.root.join("data");
    if !data.is_dir() {
        return Ok(());
    }
    let case_yaml = |p: &Path| {
        p.extension().is_some_and(|x| x == "yaml") && data.join(p).with_extension("in").is_file()
    };
    let mut case_files = Vec::new();
    tree.copy_dir(Path::new("data"), &data, |p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == "testdata.yaml" || name == "test_group.yaml" || name.starts_with(".judge-gen") {
            return true;
        }
        if case_yaml(p) && version != FormatVersion::V2025_09 {
            case_files.push(p.to_path_buf());
        }
        false
    });
    for f in case_files {
        notes.push(format!(
            "data/{}: a test case's own settings (2025-09); {} has none, copied as is",
            f.display(),
            version.name()
        ));
    }
    for (dir, map) in groups::group_files(src, version, notes)? {
        let text = serde_norway::to_string(&Value::Mapping(map))?;
        tree.put(Path::new("data").join(dir).join(version.group_file()), text);
    }
    if version == FormatVersion::V2025_09 {
        nested_groups(&data, notes);
    }
    Ok(())
}

/// 2025-09 has no groups below a group of `secret`.
fn nested_groups(data: &Path, notes: &mut Notes) {
    for entry in walkdir::WalkDir::new(data.join("secret"))
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir())
    {
        let shown = entry.path().strip_prefix(data).unwrap_or(entry.path());
        notes.push(format!(
            "data/{}: a group inside a group; 2025-09 has none, copied as is (its cases count to the group above)",
            shown.display()
        ));
    }
}

fn validators(src: &Source, version: FormatVersion, tree: &mut Tree, notes: &mut Notes) {
    let p = &src.package;
    // The whole folder: headers beside the programs (testlib.h) too.
    if !p.input_validators.is_empty() {
        for (from, to) in [
            ("input_validators", "input_validators"),
            ("input_format_validators", "input_validators"),
            ("input_validator", "input_validators/input_validator"),
        ] {
            let dir = src.root.join(from);
            let used = p
                .input_validators
                .iter()
                .any(|t| src.root.join(&t.display).starts_with(&dir));
            if dir.is_dir() && used {
                copy_program_dir(src, version, tree, Path::new(to), &dir);
            }
        }
    }
    for tool in &p.answer_validators {
        let from = src.root.join(&tool.display);
        if version == FormatVersion::V2025_09 {
            let name = from.file_name().map(PathBuf::from).unwrap_or_default();
            let to = if from.is_dir() {
                Path::new("answer_validators").join(&name)
            } else {
                PathBuf::from("answer_validators")
            };
            copy_program_dir(src, version, tree, &to, &from);
        } else {
            notes.push(format!(
                "{}: answer validators are 2025-09's; {} has none, left out",
                tool.display,
                version.name()
            ));
        }
    }
    if let Some(tool) = &p.output_validator {
        let mut from = src.root.join(&tool.display);
        // One source among headers in output_validators/: all of them.
        if from.is_file() && from.parent() == Some(src.root.join("output_validators").as_path()) {
            from = src.root.join("output_validators");
        }
        let to = if version == FormatVersion::V2025_09 {
            PathBuf::from("output_validator")
        } else {
            let name = if from.is_dir() {
                from.file_name().map(PathBuf::from).unwrap_or_default()
            } else {
                PathBuf::from(from.file_stem().unwrap_or_default())
            };
            let name = if name.as_os_str() == "output_validator"
                || name.as_os_str() == "output_validators"
            {
                PathBuf::from("validator")
            } else {
                name
            };
            Path::new("output_validators").join(name)
        };
        copy_program_dir(src, version, tree, &to, &from);
    } else if src.root.join("output_validators").is_dir()
        || src.root.join("output_validator").is_dir()
    {
        notes.push("output validator: the source judges with the default validator (validation: default); its unused output validator folder is left out".to_string());
    }
}

/// The submissions' folders of a version: the names a reader knows.
fn known_folder(folder: &str, version: FormatVersion) -> bool {
    const LEGACY: [&str; 4] = [
        "accepted",
        "wrong_answer",
        "time_limit_exceeded",
        "run_time_error",
    ];
    const LATER: [&str; 6] = [
        "rejected",
        "brute_force",
        "partially_accepted",
        "output_limit_exceeded",
        "memory_limit_exceeded",
        "compile_error",
    ];
    LEGACY.contains(&folder) || version != FormatVersion::Legacy && LATER.contains(&folder)
}

fn submissions(src: &Source, version: FormatVersion, tree: &mut Tree, notes: &mut Notes) {
    let dir = src.root.join("submissions");
    if !dir.is_dir() {
        return;
    }
    let mut folders = std::collections::BTreeSet::new();
    let mut files = Tree::default();
    files.copy_dir(Path::new("submissions"), &dir, |rel| {
        let name = rel.to_string_lossy();
        name == "submissions.yaml" && version != FormatVersion::V2025_09
            || name == "submissions.json"
    });
    for (rel, content) in files.files {
        if let crate::formats::tree::Content::Copy(path) = content {
            if let Some(folder) = rel
                .components()
                .nth(1)
                .filter(|_| rel.components().count() > 2)
            {
                folders.insert(folder.as_os_str().to_string_lossy().into_owned());
            }
            put_file(src, version, tree, &rel, &path);
        }
    }
    for folder in folders {
        if !known_folder(&folder, version) {
            notes.push(format!(
                "submissions/{folder}/: not a folder {} names; copied as is (the judge reads it, other tools may not)",
                version.name()
            ));
        }
    }
    if dir.join("submissions.json").is_file() {
        notes
            .push("submissions/submissions.json: DOMjudge's entry points; not carried".to_string());
    }
    if version != FormatVersion::V2025_09 {
        for rule in &src.package.submission_rules {
            notes.push(format!(
                "submissions/submissions.yaml {}: {} has no submissions.yaml; the submission is judged by its folder alone",
                rule.pattern,
                version.name()
            ));
        }
    }
}

/// Legacy reads only LaTeX statements (`problem.LANG.tex`): a Markdown or
/// PDF statement with no LaTeX one of its language is copied, and named.
fn latex_only(dir: &Path, from: &str, notes: &mut Notes) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let Some(stem) = name
            .strip_suffix(".md")
            .or_else(|| name.strip_suffix(".pdf"))
        else {
            continue;
        };
        if stem.starts_with("problem") && !names.contains(&format!("{stem}.tex")) {
            notes.push(format!(
                "{from}/{name}: Kattis legacy reads only LaTeX statements ({stem}.tex); copied, but a legacy tool shows no statement from it"
            ));
        }
    }
}

/// The statement (`problem_statement/` up to 2023-07, `statement/` in
/// 2025-09) and the folders every version has.
fn other_folders(src: &Source, version: FormatVersion, tree: &mut Tree, notes: &mut Notes) {
    let statement = if version == FormatVersion::V2025_09 {
        "statement"
    } else {
        "problem_statement"
    };
    for from in ["problem_statement", "statement"] {
        let dir = src.root.join(from);
        if dir.is_dir() {
            tree.copy_dir(Path::new(statement), &dir, |_| false);
            if version == FormatVersion::Legacy {
                latex_only(&dir, from, notes);
            }
        }
    }
    for name in [
        "attachments",
        "solution",
        "solutions",
        "include",
        "generators",
    ] {
        let dir = src.root.join(name);
        if dir.is_dir() {
            tree.copy_dir(Path::new(name), &dir, |_| false);
        }
    }
    if src.package.domjudge {
        notes.push("domjudge-problem.ini: DOMjudge's file; its time limit is carried, its other keys (color, externalid, …) are not".to_string());
    }
}
