//! Polygon's source types (`cpp.g++17`, `python.3`, `java11`, …) against
//! the judge's languages: the judge picks a language by the file's
//! extension; a type it has no language for is a named error for that
//! program only.

use super::read::Program;
use std::path::Path;

/// The families of Polygon source types the judge builds, with the file
/// extensions each may have.
const FAMILIES: [(&str, &[&str]); 8] = [
    ("cpp.", &["cpp", "cc", "cxx", "c++"]),
    ("c.", &["c"]),
    ("java", &["java"]),
    ("kotlin", &["kt"]),
    ("python.3", &["py"]),
    ("python.pypy3", &["py"]),
    ("rust", &["rs"]),
    ("go", &["go"]),
];

/// Whether the judge can build `program` by its type: `Err` names the
/// file, line and type.
pub fn check_type(program: &Program, file: &Path) -> Result<(), String> {
    let Some(kind) = &program.kind else {
        return Ok(());
    };
    let known = FAMILIES
        .iter()
        .any(|(prefix, _)| kind.starts_with(prefix) || kind == prefix.trim_end_matches('.'));
    if known {
        return Ok(());
    }
    Err(format!(
        "{}:{}: {}: source type {kind:?} is not one the judge builds (C, C++, Java, Kotlin, Python 3, Rust, Go)",
        file.display(),
        program.line,
        program.path
    ))
}

/// The judge's language for a Polygon source type: the language the type
/// names (`python.2` is Python 2, never Python 3; `python.pypy3` PyPy 3;
/// `java8` Java), `None` for a type the judge has no language for (the
/// file's extension then decides, as for any source).
pub fn language_of_type(kind: &str) -> Option<&'static str> {
    let kind = kind.to_ascii_lowercase();
    let starts = |p: &str| kind.starts_with(p);
    Some(match () {
        _ if starts("cpp.") || kind == "cpp" => "cpp",
        _ if starts("c.") || kind == "c" => "c",
        _ if starts("python.pypy3")
            || starts("pypy.3")
            || starts("python.pypy") && kind.ends_with('3') =>
        {
            "pypy3"
        }
        // PyPy 2 has no language of its own here: Python 2's.
        _ if starts("python.pypy2")
            || starts("pypy.2")
            || kind == "python.2"
            || starts("pythonx.2")
            || starts("python.2") =>
        {
            "python2"
        }
        _ if starts("python.3") || starts("pythonx.3") || kind == "python" => "python3",
        _ if starts("java") => "java",
        _ if starts("kotlin") => "kotlin",
        _ if starts("scala") => "scala",
        _ if starts("pas.") || starts("delphi") || kind == "pas" => "pascal",
        _ if starts("csharp") || starts("cs.") => "csharp",
        _ if starts("rust") => "rust",
        _ if starts("go") => "go",
        _ if starts("ruby") => "ruby",
        _ if starts("js") || starts("nodejs") || starts("javascript") => "javascript",
        _ if starts("php") => "php",
        _ if starts("perl") => "perl",
        _ if starts("haskell") => "haskell",
        _ if starts("ocaml") => "ocaml",
        _ if starts("d.") || kind == "d" => "d",
        _ if starts("fpascal") => "pascal",
        _ => return None,
    })
}

/// The language a solution of Polygon type `kind` is built in: the one
/// the type names (`python.2` → Python 2, whether or not it is installed:
/// a missing interpreter is then the machine's, said as "not installed"),
/// else the file's by its extension. `python.pypy3` is PyPy 3 when
/// `pypy3` runs here, else CPython 3, with the note saying so.
pub fn solution_language(
    toolchain: &crate::submission::Toolchain,
    path: &Path,
    kind: Option<&str>,
) -> Result<(crate::submission::Language, Option<String>), String> {
    let by_extension = || {
        toolchain.language_of(path).cloned().ok_or_else(|| {
            format!(
                "{}: no language of the judge's builds this file{}",
                path.display(),
                kind.map(|k| format!(" (Polygon type {k:?})"))
                    .unwrap_or_default()
            )
        })
    };
    let Some(name) = kind.and_then(language_of_type) else {
        return by_extension().map(|l| (l, None));
    };
    let named = |name: &str| toolchain.language_named(name).ok().cloned();
    if name == "pypy3" && !runs("pypy3") {
        if let Some(cpython) = named("python3") {
            return Ok((
                cpython,
                Some(format!(
                    "Polygon type {:?} is PyPy 3, and pypy3 is not installed here: run with CPython 3 (its times are not PyPy's)",
                    kind.unwrap_or_default()
                )),
            ));
        }
    }
    match named(name) {
        Some(language) => Ok((language, None)),
        None => by_extension().map(|l| (l, None)),
    }
}

/// Whether `program -c pass` runs here (a pyenv shim of a version that is
/// not selected does not). Asked once a process.
fn runs(program: &'static str) -> bool {
    static SEEN: std::sync::Mutex<Vec<(&'static str, bool)>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, ok)) = seen.iter().find(|(p, _)| *p == program) {
        return *ok;
    }
    let ok = std::process::Command::new(program)
        .args(["-c", "pass"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    seen.push((program, ok));
    ok
}
