//! ARCHITECTURE.md's code map matches the tree: every source file under
//! `src/` is named there (by its path, or by its name under its directory's
//! entry), and every path the map names exists. A new module fails this
//! test until the map says what it is for.

use std::collections::BTreeSet;
use std::path::Path;

/// The `code` spans of the text.
fn spans(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn source_files(src: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(src)
        .into_iter()
        .map(|e| e.expect("read src/"))
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            e.path()
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    files
}

/// Whether the map names `file` (`exec/sandbox/slot.rs`): by its whole
/// path, or as `slot.rs` with its directory `exec/sandbox/` named too.
fn named(file: &str, spans: &BTreeSet<String>) -> bool {
    if spans.contains(file) {
        return true;
    }
    let path = Path::new(file);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let dir = path
        .parent()
        .map(|p| format!("{}/", p.to_string_lossy()))
        .unwrap_or_default();
    let with_dir = |n: &str| spans.contains(n) && (dir == "/" || spans.contains(&dir));
    // `reader/tests.rs` under `puzzles/reader.rs`'s entry: `(+ reader/tests.rs)`.
    let parent_and_name = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|p| format!("{}/{name}", p.to_string_lossy()))
        .unwrap_or_default();
    with_dir(&name) || spans.contains(&parent_and_name)
}

#[test]
fn the_code_map_names_every_module_and_nothing_else() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let spans = spans(&map);
    let src = root.join("src");
    let files = source_files(&src);
    let missing: Vec<&String> = files.iter().filter(|f| !named(f, &spans)).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's code map does not name: {missing:?} (add a line under its layer: what it is for, what it may use)"
    );
    let stale: Vec<&String> = spans
        .iter()
        .filter(|s| {
            let looks_like_path = (s.ends_with(".rs") || s.ends_with('/'))
                && !s.contains(' ')
                && s.contains(['/', '.'])
                && !s.starts_with("tests/")
                && !s.starts_with("docs/");
            looks_like_path
                && !src.join(s.as_str()).exists()
                // A short path (`reader/tests.rs`, `board.rs`) names the
                // end of some file's path.
                && !files.iter().any(|f| f.ends_with(s.as_str()))
        })
        .collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md names paths that are not in src/: {stale:?}"
    );
}

/// The files of the package formats, named only where the formats are.
const FORMAT_FILES: [&str; 5] = [
    "problem.xml",
    "problem.yaml",
    "generators.yaml",
    "testdata.yaml",
    "domjudge-problem.ini",
];

/// Nothing outside `src/formats/` knows a format's file names: code that
/// needs one takes the format's constant (`formats::kattis::PROBLEM_YAML`)
/// or asks the format (`formats::package_of`). Comments may name them:
/// they explain, they do not decide.
#[test]
fn format_file_names_appear_only_under_the_formats_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut found = Vec::new();
    for file in source_files(&src) {
        if file.starts_with("formats/") {
            continue;
        }
        let text = std::fs::read_to_string(src.join(&file)).expect("read a source file");
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let code = line.split(" // ").next().unwrap_or(line);
            for name in FORMAT_FILES {
                if code.contains(name) {
                    found.push(format!("src/{file}:{}: {name}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "format file names outside src/formats/ (use the format's constant or ask the format):\n{}",
        found.join("\n")
    );
}

/// The check above fails on a name in code and passes one in a comment.
#[test]
fn the_format_name_check_sees_code_and_passes_over_comments() {
    let code = "    let f = dir.join(\"problem.yaml\");";
    let comment = "    /// reads problem.yaml";
    let hit = |line: &str| {
        !line.trim_start().starts_with("//")
            && FORMAT_FILES
                .iter()
                .any(|n| line.split(" // ").next().unwrap_or(line).contains(n))
    };
    assert!(hit(code));
    assert!(!hit(comment));
}

/// Functions of `text` longer than `most` lines, as `NAME (N lines)`: a
/// `fn` line, up to the `}` at its own indentation. Test modules (after a
/// `#[cfg(test)]` line) are left out.
fn long_functions(text: &str, most: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]" {
            break;
        }
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let signature = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "]
            .iter()
            .find_map(|p| code.strip_prefix(p));
        let Some(rest) = signature else { continue };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        let Some(end) = lines[i + 1..].iter().position(|l| *l == close) else {
            continue;
        };
        let length = end + 2;
        if length > most {
            found.push(format!("{name} ({length} lines)"));
        }
    }
    found
}

/// Commands read as a list of named steps: no function in src/commands/
/// over 80 lines; no source file over 600 (issue 38).
#[test]
fn commands_are_short_steps_and_files_stay_small() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut long = Vec::new();
    for file in source_files(&src) {
        let text = std::fs::read_to_string(src.join(&file)).expect("read a source file");
        let count = text.lines().count();
        if count > 600 {
            long.push(format!("src/{file}: {count} lines (at most 600)"));
        }
        if file.starts_with("commands/") {
            for f in long_functions(&text, 80) {
                long.push(format!("src/{file}: fn {f} (at most 80)"));
            }
        }
    }
    assert!(long.is_empty(), "split these:\n{}", long.join("\n"));
}

/// The measure above finds a long function and passes a short one.
#[test]
fn the_function_length_measure_sees_a_long_function() {
    let long = format!(
        "fn big() {{\n{}}}\nfn small() {{\n    x();\n}}\n",
        "    x();\n".repeat(90)
    );
    assert_eq!(long_functions(&long, 80), ["big (92 lines)"]);
    assert!(long_functions("fn small() {\n}\n", 80).is_empty());
}
