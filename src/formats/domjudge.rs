//! A package as DOMjudge's problem import takes it: the legacy Kattis
//! layout (problem.yaml with `name`, `validation`, `validator_flags`,
//! `limits.memory`/`output`; `data/sample`, `data/secret`;
//! `output_validators/`; `submissions/<verdict>/`) with
//! `domjudge-problem.ini` for the time limit, the name and the colour.
//! DOMjudge judges pass-fail: a scoring problem's groups and scores are
//! named in the notes.

use crate::formats::Notes;
use crate::formats::error::ExportError;
use crate::formats::kattis::FormatVersion;
use crate::formats::kattis::write::{self as kattis, Source};
use crate::formats::tree::{Content, Tree};
use std::path::PathBuf;

/// The judge's folder names that DOMjudge spells its own way.
const RENAMED: [(&str, &str); 2] = [
    ("compile_error", "compiler_error"),
    ("output_limit_exceeded", "output_limit"),
];

pub fn write(src: &Source, notes: &mut Notes) -> Result<Tree, ExportError> {
    let mut source = Source {
        package: src.package.clone(),
        root: src.root.clone(),
        yaml: src.yaml.clone(),
    };
    // DOMjudge gives submissions no writable working directory.
    if std::mem::replace(&mut source.package.file_writing, true) {
        notes.push("submissions writing files: the source lets them write in their working directory; DOMjudge gives them none".to_string());
    }
    if source.package.scoring.take().is_some() {
        notes.push("type scoring: DOMjudge judges pass-fail; the groups' scores are left out (every case must pass)".to_string());
    }
    let mut tree = kattis::write(&source, FormatVersion::Legacy, notes)?;
    tree.files.remove(&PathBuf::from(".timelimit"));
    let renamed: Vec<(PathBuf, PathBuf)> = tree
        .files
        .keys()
        .filter_map(|p| {
            let mut parts = p.components();
            if parts.next()?.as_os_str() != "submissions" {
                return None;
            }
            let folder = parts.next()?.as_os_str().to_str()?;
            let (_, to) = RENAMED.iter().find(|(from, _)| *from == folder)?;
            Some((
                p.clone(),
                PathBuf::from("submissions").join(to).join(parts.as_path()),
            ))
        })
        .collect();
    for (from, to) in renamed {
        if let Some(content) = tree.files.remove(&from) {
            tree.files.insert(to, content);
        }
    }
    if tree.has_under(&PathBuf::from("submissions/memory_limit_exceeded")) {
        notes.push("submissions/memory_limit_exceeded/: DOMjudge may report a memory limit as RUN-ERROR; kept by name".to_string());
    }
    if tree.has_under(&PathBuf::from("submissions/presentation_error")) {
        notes.push("submissions/presentation_error/: DOMjudge has no presentation error verdict; kept by name".to_string());
    }
    if !source.package.input_validators.is_empty() {
        notes.push(
            "input_validators/: DOMjudge's import does not run them; kept for other tools"
                .to_string(),
        );
    }
    tree.files.insert(
        PathBuf::from("domjudge-problem.ini"),
        Content::Bytes(ini(&source).into_bytes()),
    );
    Ok(tree)
}

/// `domjudge-problem.ini`: the name, the time limit, and the source's own
/// ini keys (colour, external id) when it had one.
fn ini(src: &Source) -> String {
    let mut keys: Vec<(String, String)> = Vec::new();
    let name = match src.yaml.get("name") {
        Some(serde_norway::Value::String(s)) => s.clone(),
        Some(serde_norway::Value::Mapping(m)) => m
            .get("en")
            .or_else(|| m.values().next())
            .and_then(|v| v.as_str())
            .unwrap_or(&src.package.name)
            .to_string(),
        _ => src.package.name.clone(),
    };
    keys.push(("name".into(), name));
    if let Some(t) = src.package.limits.time_limit {
        keys.push((
            "timelimit".into(),
            format!("{}", (t.as_secs_f64() * 1e6).round() / 1e6),
        ));
    }
    if let Ok(text) = crate::exec::bounded_read::read_package_text(
        &src.root.join("domjudge-problem.ini"),
        crate::exec::bounded_read::DESCRIPTION_CAP,
    ) {
        for line in text.lines() {
            if let Some((k, v)) = line.split_once('=') {
                let k = k.trim();
                if !matches!(k, "name" | "timelimit") && !k.is_empty() {
                    keys.push((
                        k.to_string(),
                        v.trim().trim_matches(|c| c == '\'' || c == '"').to_string(),
                    ));
                }
            }
        }
    }
    keys.iter()
        .map(|(k, v)| format!("{k}='{}'\n", v.replace('\'', "’")))
        .collect()
}
