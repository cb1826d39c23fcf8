//! A package's folders: the validator programs in `output_validator(s)/`,
//! `input_validators/` (and their other names) and `answer_validators/`,
//! and the top-level folders the judge does not act on (warnings).

use crate::check::tool::Tool;
use crate::formats::error::{FormatError, Place};
use std::path::{Path, PathBuf};

/// A package's top-level folders the judge does not act on, one warning
/// each. The statement, attachments and solution folders describe the
/// problem and are read past.
pub(super) fn unacted_folders(root: &Path) -> Vec<String> {
    const ACTED: [&str; 10] = [
        "data",
        "submissions",
        "input_validators",
        "input_format_validators",
        "input_validator",
        "output_validators",
        "output_validator",
        "answer_validators",
        "include",
        "generators",
    ];
    const DESCRIPTIVE: [&str; 5] = [
        "problem_statement",
        "statement",
        "attachments",
        "solution",
        "solutions",
    ];
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .filter(|n| !ACTED.contains(&n.as_str()) && !DESCRIPTIVE.contains(&n.as_str()))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| format!("{}: {n}/: not acted on", root.join(&n).display()))
        .collect()
}

/// Entries of a program directory that are programs: directories, sources
/// and scripts the judge can run, executables. Headers and notes are not.
fn program_entries(dir: &Path, warnings: &mut Vec<String>) -> Result<Vec<PathBuf>, FormatError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(FormatError::io(dir, ""))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    let mut programs = Vec::new();
    for path in entries {
        if path.is_dir() {
            programs.push(path);
            continue;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string();
        let executable = {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(&path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
        };
        match ext.as_str() {
            "c" | "cpp" | "cc" | "cxx" | "c++" | "py" | "sh" => programs.push(path),
            "h" | "hpp" | "hh" | "txt" | "md" => {}
            "ctd" | "viva" => warnings.push(format!(
                "{}: {} scripts are not supported; skipped",
                path.display(),
                if ext == "ctd" {
                    "checktestdata"
                } else {
                    "VIVA"
                }
            )),
            _ if executable => programs.push(path),
            // A validator in a language the judge builds no tools in
            // (problemtools builds them in any of its languages): named,
            // never passed over in silence.
            "java" | "kt" | "scala" | "rs" | "go" | "hs" | "cs" | "fs" | "ml" | "rb" | "js"
            | "pl" | "php" | "pas" | "lua" | "swift" | "d" | "f90" | "adb" => {
                warnings.push(format!(
                    "{}: a .{ext} program; the judge builds a package's validators from C, C++ or Python sources, a `build`/`run` pair, or an executable; skipped",
                    path.display()
                ))
            }
            _ => {}
        }
    }
    Ok(programs)
}

fn display(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `output_validator/` (the directory is the program) or
/// `output_validators/` (one program in it, or its files together).
pub(super) fn output_validator(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Option<Tool>, FormatError> {
    let single = root.join("output_validator");
    if single.is_dir() {
        // The directory is the program, unless all it holds is one program
        // directory (`output_validator/checker/…`, as some packages have it).
        let entries = program_entries(&single, warnings)?;
        if let [one] = entries.as_slice()
            && one.is_dir()
        {
            return Ok(Some(Tool::from_path(one, display(root, one))));
        }
        return Ok(Some(Tool::from_path(&single, display(root, &single))));
    }
    let dir = root.join("output_validators");
    if !dir.is_dir() {
        return Ok(None);
    }
    let programs = program_entries(&dir, warnings)?;
    match programs.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(Tool::from_path(one, display(root, one)))),
        many if many.iter().all(|p| p.is_file()) => {
            // Several source files: one program, compiled together.
            Ok(Some(Tool::from_path(&dir, display(root, &dir))))
        }
        many => Err(FormatError::rule(
            Place::file(&dir),
            format!(
                "{} programs; a package has one output validator",
                many.len()
            ),
        )),
    }
}

/// Every program in `input_validators/`, else in the old name
/// `input_format_validators/`; `input_validator/` (one program, as the
/// 2025-09 drafts name it) is read too.
pub(super) fn input_validators(
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<Tool>, FormatError> {
    let single = root.join("input_validator");
    let mut tools = Vec::new();
    if single.is_dir() {
        tools.push(Tool::from_path(&single, display(root, &single)));
    }
    let plural = program_dir(root, "input_validators", warnings)?;
    if plural.is_empty() && tools.is_empty() {
        return program_dir(root, "input_format_validators", warnings);
    }
    if root.join("input_format_validators").is_dir() && !plural.is_empty() {
        warnings.push(format!(
            "{}: input_format_validators/ is the old name of input_validators/; only input_validators/ is used",
            root.display()
        ));
    }
    tools.extend(plural);
    Ok(tools)
}

/// Every program in `root/name/`.
pub(super) fn program_dir(
    root: &Path,
    name: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<Tool>, FormatError> {
    let dir = root.join(name);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    Ok(program_entries(&dir, warnings)?
        .into_iter()
        .map(|p| Tool::from_path(&p, display(root, &p)))
        .collect())
}
