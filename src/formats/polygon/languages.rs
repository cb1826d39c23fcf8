//! Polygon's source types (`cpp.g++17`, `python.3`, `java11`, …) against
//! the judge's languages: the judge picks a language by the file's
//! extension; a type it has no language for is a named error for that
//! program only.

use super::read::Program;
use crate::formats::error::{FormatError, Place};
use std::path::Path;

/// The families of Polygon source types the judge builds, with the file
/// extensions each may have.
const FAMILIES: [(&str, &[&str]); 11] = [
    ("cpp.", &["cpp", "cc", "cxx", "c++"]),
    ("c.", &["c"]),
    ("java", &["java"]),
    ("kotlin", &["kt"]),
    ("pas.", &["pas", "pp", "dpr"]),
    ("delphi", &["dpr", "pas"]),
    ("fpascal", &["pas", "pp"]),
    ("python.3", &["py"]),
    ("python.pypy3", &["py"]),
    ("rust", &["rs"]),
    ("go", &["go"]),
];

/// Whether the judge can build `program` by its type: `Err` names the
/// file, line and type.
pub fn check_type(program: &Program, file: &Path) -> Result<(), FormatError> {
    let Some(kind) = &program.kind else {
        return Ok(());
    };
    let known = FAMILIES
        .iter()
        .any(|(prefix, _)| kind.starts_with(prefix) || kind == prefix.trim_end_matches('.'));
    if known {
        return Ok(());
    }
    Err(FormatError::key(
        Place::line(file, program.line),
        "type",
        Some(kind.clone()),
        format!(
            "{}: source type {kind:?} is not one the judge builds (C, C++, Java, Kotlin, Pascal, Python 3, Rust, Go)",
            program.path
        ),
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
        _ if starts("cpp.") || kind == "cpp" => cpp_dialect(&kind),
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

/// The C++ of a Polygon type: the dialect its compiler's name ends with
/// (`g++11`, `msys2-g++23`, `clang++20`); Polygon's old `cpp.g++` (GNU
/// C++ 4, gnu++98 by default) is gnu++11, which still has what such
/// sources use (`gets`) and compiles their C++11; a type that names no
/// dialect (`cpp.ms2017`) the judge's C++ (gnu++17).
fn cpp_dialect(kind: &str) -> &'static str {
    let Some(at) = kind.rfind("++") else {
        return "cpp";
    };
    let digits: String = kind[at + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.as_str() {
        "" | "98" | "03" | "0x" | "11" => "cpp11",
        "14" | "1y" => "cpp14",
        "17" | "1z" => "cpp",
        "20" | "2a" => "cpp20",
        _ => "cpp23",
    }
}

/// The judge's language name for a solution of Polygon type `kind`, with
/// a note when the type's own language is not what runs: the one the
/// type names (`python.2` → Python 2 whether or not it is installed: a
/// missing interpreter is then the machine's, said as "not installed",
/// never a compile error), `python.pypy3` PyPy 3 when `pypy3` runs here,
/// else CPython 3 with the note. `None`: the type names no language of
/// the judge's (the file's extension decides).
pub fn solution_language(kind: Option<&str>) -> (Option<&'static str>, Option<String>) {
    let Some(kind) = kind else {
        return (None, None);
    };
    match language_of_type(kind) {
        Some("pypy3") if !runs("pypy3") => (
            Some("python3"),
            Some(format!(
                "Polygon type {kind:?} is PyPy 3, and pypy3 is not installed here: run with CPython 3 (its times are not PyPy's)"
            )),
        ),
        other => (other, None),
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
