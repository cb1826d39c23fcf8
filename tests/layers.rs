//! The one-way layering of `src/` (ARCHITECTURE.md "Layers"): a top-level
//! module may import only modules listed *before* it in [`LAYERS`]. This
//! test reads the source as text (every `crate::NAME` path and every name
//! in a `use crate::{…}` group), so it runs in CI with the rest of the suite
//! and the rule outlives any one change. A new top-level module must be
//! given its place here, or the test fails naming it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lowest first. A module may use any module above it in this list, never
/// one below it; modules are never on the same rung, so no cycle can form.
const LAYERS: &[&str] = &[
    // Leaves: plain data and text, no processes, no files.
    "verdict",
    "units",
    "text",
    // how verdicts and partial credit become scores; expected verdicts
    "score",
    "expect",
    // rules of the five puzzles
    "puzzles",
    // processes under limits, the sandbox
    "exec",
    // comparing outputs, checker and validator programs
    "check",
    // what a submission is and how it is built
    "submission",
    // the case tree
    "cases",
    // package formats: their files read into the judge's model
    "formats",
    // judge.toml and packages, resolved into problems
    "config",
    // per-case judging, the parallel runner
    "judge",
    // rendering results
    "report",
    // the command line: argument types, then the commands
    "cli",
    "commands",
];

/// Modules that are not layers: the crate root and the binary.
const ROOTS: &[&str] = &["lib", "main"];

#[derive(Debug, PartialEq)]
struct BackImport {
    file: PathBuf,
    line: usize,
    from: String,
    to: String,
}

#[derive(Debug, Default)]
struct Findings {
    back: Vec<BackImport>,
    unplaced: BTreeMap<String, PathBuf>,
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|m| *m == module)
}

/// The top-level module a file under `src/` belongs to.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    Some(name.to_string())
}

/// The source without its `#[cfg(test)]` modules: tests may reach anywhere.
fn without_tests(text: &str) -> &str {
    let mut search = 0;
    while let Some(at) = text[search..].find("#[cfg(test)]") {
        let start = search + at;
        let rest = text[start + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod ") {
            return &text[..start];
        }
        search = start + 1;
    }
    text
}

/// Every top-level module a source text names through `crate::`, with the
/// line it is named on. Comments are skipped line by line.
fn imports(text: &str) -> Vec<(usize, String)> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("crate::") {
        let start = from + at + "crate::".len();
        from = start;
        let rest = &code[start..];
        if !rest.starts_with('{') {
            let name = ident(rest);
            if !name.is_empty() {
                found.push((line_of(start), name));
            }
            continue;
        }
        // `crate::{a::b, c::{d, e}, f}`: the first name of each item at
        // depth one.
        let mut depth = 0usize;
        let mut item_start = true;
        for (i, c) in rest.char_indices() {
            match c {
                '{' => {
                    depth += 1;
                    item_start = depth == 1;
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ',' if depth == 1 => item_start = true,
                c if item_start && depth == 1 && (c.is_alphanumeric() || c == '_') => {
                    found.push((line_of(start + i), ident(&rest[i..])));
                    item_start = false;
                }
                _ => {}
            }
        }
    }
    found
}

fn check_tree(src: &Path) -> Findings {
    let mut findings = Findings::default();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry.expect("read src/");
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs")
            || path.file_name().and_then(|n| n.to_str()) == Some("tests.rs")
            || path.components().any(|c| c.as_os_str() == "tests")
        {
            continue;
        }
        let Some(from) = top_module(src, path) else {
            continue;
        };
        if ROOTS.contains(&from.as_str()) {
            continue;
        }
        let Some(from_rank) = rank(&from) else {
            findings
                .unplaced
                .entry(from.clone())
                .or_insert_with(|| path.to_path_buf());
            continue;
        };
        let text = std::fs::read_to_string(path).expect("read a source file");
        for (line, to) in imports(without_tests(&text)) {
            if to == from || to == "self" || to == "super" {
                continue;
            }
            match rank(&to) {
                Some(to_rank) if to_rank > from_rank => findings.back.push(BackImport {
                    file: path.to_path_buf(),
                    line,
                    from: from.clone(),
                    to,
                }),
                Some(_) => {}
                None if LAYERS.contains(&to.as_str()) || ROOTS.contains(&to.as_str()) => {}
                // An item of the crate root (`crate::Verdict`): allowed.
                None => {}
            }
        }
    }
    findings
}

fn explain(findings: &Findings) -> String {
    let mut out = String::new();
    for b in &findings.back {
        out.push_str(&format!(
            "{}:{}: `{}` imports `{}`, a layer above it (ARCHITECTURE.md \"Layers\")\n",
            b.file.display(),
            b.line,
            b.from,
            b.to
        ));
    }
    for (module, file) in &findings.unplaced {
        out.push_str(&format!(
            "{}: top-level module `{module}` has no place in tests/layers.rs LAYERS\n",
            file.display()
        ));
    }
    out
}

#[test]
fn src_imports_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let findings = check_tree(&src);
    assert!(
        findings.back.is_empty() && findings.unplaced.is_empty(),
        "layering broken:\n{}",
        explain(&findings)
    );
}

#[test]
fn every_layer_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for module in LAYERS {
        assert!(
            src.join(format!("{module}.rs")).is_file() || src.join(module).join("mod.rs").is_file(),
            "LAYERS names `{module}`, which is not a module of src/"
        );
    }
}

/// The check itself fails on a deliberate back-import, and passes once it
/// is gone: a tree of the same shape, written for the test.
#[test]
fn a_deliberate_back_import_is_caught() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let path = src.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod exec;\npub mod config;\n");
    write(
        "config/mod.rs",
        "use crate::exec::Limits;\nuse crate::{verdict::Verdict, units::Size};\n",
    );
    // exec is below config: this import goes up.
    write(
        "exec/mod.rs",
        "//! exec\nuse std::time::Duration;\n\npub fn f() -> u64 {\n    crate::config::DEFAULT\n}\n#[cfg(test)]\nmod tests {\n    use crate::commands::x;\n}\n",
    );
    write(
        "exec/sub/inner.rs",
        "use crate::{\n    units::Size,\n    report::{Human, Json},\n};\n",
    );
    let findings = check_tree(src);
    let found: Vec<(String, usize, &str, &str)> = findings
        .back
        .iter()
        .map(|b| {
            (
                b.file.strip_prefix(src).unwrap().display().to_string(),
                b.line,
                b.from.as_str(),
                b.to.as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("exec/mod.rs".to_string(), 5, "exec", "config"),
            ("exec/sub/inner.rs".to_string(), 3, "exec", "report"),
        ],
        "{}",
        explain(&findings)
    );
    assert!(explain(&findings).contains("`exec` imports `config`"));

    // Mended: the same tree without the back-imports passes.
    write(
        "exec/mod.rs",
        "pub fn f() -> u64 {\n    crate::units::DEFAULT\n}\n",
    );
    write("exec/sub/inner.rs", "use crate::{units::Size, text};\n");
    let findings = check_tree(src);
    assert!(findings.back.is_empty(), "{}", explain(&findings));

    // A module with no place in the list is named.
    write("newthing.rs", "use crate::exec;\n");
    let findings = check_tree(src);
    assert!(findings.unplaced.contains_key("newthing"));
}
