//! The built-in languages, named as the CLICS `languages.yaml` names them
//! (`c`, `cpp`, `java`, `kotlin`, `python3`, `python2`, `rust`,
//! `javascript`, `pascal`), so that a package's `include/<language>/` and a
//! `submissions.yaml` `language:` mean the same here.
//!
//! A command template may use:
//! - `{src}`: the main source file; `{files}` (a word of its own): every
//!   source file of the submission, for compilers that take them all;
//! - `{bin}`: the program the compile step writes (the main file's stem);
//!   `{dir}`: the build directory;
//! - `{main}`: the entry point's name: a Java class (with its package), a
//!   Kotlin file's class (`hello.kt` → `HelloKt`), else the main file's
//!   stem;
//! - `{interpreter}`: what the language's `interpreter` command printed;
//! - `{memory_mib}` (run command only): the memory limit in MiB, filled in
//!   per run; `{heap_mib}`: a JVM's heap (`-Xmx`), the limit less a quarter
//!   of it, at most 300 MiB, for what the JVM needs beside its heap.
//!
//! A JVM reserves much more address space than it uses: Java and Kotlin
//! get their heap from the memory limit (as Kattis does) and are never run
//! under RLIMIT_AS (`address_space = false`); a cgroup, where there is
//! one, still limits their memory.

/// How to build and run sources of one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    /// `c`, `cpp`, `java`, `python3`, …, or a judge.toml name.
    pub name: String,
    /// File extensions without the dot (`cpp`, `cc`).
    pub extensions: Vec<String>,
    /// The compile command template, if the language compiles.
    pub compile: Option<String>,
    /// The run command template.
    pub run: String,
    /// A command whose first output line is the interpreter's absolute path
    /// (`{interpreter}`), resolved at build time.
    pub interpreter: Option<String>,
    /// Whether RLIMIT_AS may carry the memory limit (false for a JVM).
    pub address_space: bool,
}

/// What Python's interpreter command prints: its real executable, so that
/// a run in the scrubbed environment of a submission does not depend on
/// pyenv shims and the judge's `HOME`.
fn python_interpreter(command: &str) -> String {
    format!("{command} -c 'import sys; print(sys.executable)'")
}

/// A syntax check that writes nothing beside the source.
const PYTHON_CHECK: &str = "{interpreter} -c 'import sys; compile(open(sys.argv[1], \"rb\").read(), sys.argv[1], \"exec\")' {src}";

/// The built-in languages (README "Source submissions").
pub fn builtin_languages() -> Vec<Language> {
    let language = |name: &str, extensions: &[&str], compile: &str, run: &str| Language {
        name: name.to_string(),
        extensions: extensions.iter().map(|e| e.to_string()).collect(),
        compile: (!compile.is_empty()).then(|| compile.to_string()),
        run: run.to_string(),
        interpreter: None,
        address_space: true,
    };
    vec![
        language(
            "c",
            &["c"],
            "gcc -O2 -std=gnu11 -o {bin} {files} -lm",
            "{bin}",
        ),
        language(
            "cpp",
            &["cpp", "cc", "cxx", "c++", "C"],
            "g++ -O2 -std=gnu++17 -o {bin} {files}",
            "{bin}",
        ),
        Language {
            address_space: false,
            ..language(
                "java",
                &["java"],
                "javac -encoding UTF-8 -d {dir} {files}",
                "java -XX:+UseSerialGC -Xss64m -Xmx{heap_mib}m -cp {dir} {main}",
            )
        },
        Language {
            address_space: false,
            ..language(
                "kotlin",
                &["kt"],
                "kotlinc -d {dir} {files}",
                "kotlin -J-XX:+UseSerialGC -J-Xss64m -J-Xmx{heap_mib}m -cp {dir} {main}",
            )
        },
        Language {
            interpreter: Some(python_interpreter("python3")),
            ..language(
                "python3",
                &["py", "py3"],
                PYTHON_CHECK,
                "{interpreter} {src}",
            )
        },
        // Python 2: chosen for a `.py` whose first line is `#!…python2`.
        Language {
            interpreter: Some(python_interpreter("python2")),
            ..language("python2", &[], PYTHON_CHECK, "{interpreter} {src}")
        },
        language(
            "rust",
            &["rs"],
            "rustc -O --edition 2021 -o {bin} {src}",
            "{bin}",
        ),
        // `.mjs`: an ES module (DOMjudge's multi-file example uses them).
        language(
            "javascript",
            &["js", "mjs"],
            // Every file's syntax, as DOMjudge checks them all (a file
            // never imported still makes a CE).
            "sh -c 'for f do node --check \"$f\" || exit 1; done' node-check {files}",
            "node {src}",
        ),
        language("pascal", &["pas", "pp"], "fpc -O2 -o{bin} {src}", "{bin}"),
    ]
}

/// Other names of the built-in languages (judge.toml's older `python`,
/// and the names DOMjudge and Kattis use in files and folders).
pub fn canonical_name(name: &str) -> &str {
    match name {
        "python" | "py3" | "python 3" => "python3",
        "py2" => "python2",
        "c++" | "cc" | "cxx" | "c++17" | "c++20" => "cpp",
        "js" | "node" | "nodejs" => "javascript",
        "kt" => "kotlin",
        "rs" => "rust",
        other => other,
    }
}

/// The entry point's name (`{main}`) of a main file `file_name` with
/// content `source`, in `language`.
pub fn main_name(language: &str, file_name: &str, source: &[u8]) -> String {
    let stem = std::path::Path::new(file_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "main".to_string());
    let package = || {
        let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
        text.lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix("package "))
            .map(|p| p.trim_end_matches(';').trim().to_string())
            .filter(|p| !p.is_empty())
    };
    let qualified = |class: String| match package() {
        Some(p) => format!("{p}.{class}"),
        None => class,
    };
    match language {
        // The class that declares `main` (a file may hold several classes,
        // and a class that is not public may be in a file of any name, as
        // DOMjudge's Java compile script finds it), else the file's name.
        "java" => {
            let with_main = java_main_classes(source);
            // The file's own class when it has a `main`, else the first
            // that has one, else the file's name.
            qualified(if with_main.contains(&stem) {
                stem
            } else {
                with_main.into_iter().next().unwrap_or(stem)
            })
        }
        "kotlin" => {
            let mut chars = stem.chars();
            let class = match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>() + "Kt",
                None => "MainKt".to_string(),
            };
            qualified(class)
        }
        _ => stem,
    }
}

/// The top-level classes, interfaces, enums or records whose bodies
/// declare `void main(` (a `main` of a nested class counts for the type
/// around it), in order. Comments, strings and character literals are
/// skipped.
fn java_main_classes(source: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
    let words = java_words(&text);
    let mut depth = 0usize;
    let mut top: Option<&str> = None;
    let mut pending: Option<&str> = None;
    let mut with_main: Vec<&str> = Vec::new();
    for (k, word) in words.iter().enumerate() {
        match *word {
            "{" => {
                if depth == 0 {
                    top = pending.take().or(top);
                }
                depth += 1;
            }
            "}" => depth = depth.saturating_sub(1),
            "class" | "interface" | "enum" | "record" if depth == 0 => {
                pending = words.get(k + 1).copied();
            }
            "main"
                if k > 0
                    && words[k - 1] == "void"
                    && words.get(k + 1) == Some(&"(")
                    && depth > 0 =>
            {
                if let Some(t) = top
                    && !with_main.contains(&t)
                {
                    with_main.push(t);
                }
            }
            _ => {}
        }
    }
    with_main.into_iter().map(String::from).collect()
}

/// Whether a Java or Kotlin source declares a `main` a program starts
/// from: Java, a top-level type whose body declares `void main(` (a JDK
/// 21 instance `main` too); Kotlin, a `fun main(` anywhere (top level or a
/// companion's `@JvmStatic`). Comments, strings and character literals
/// are skipped, and words may be apart by any white space.
pub fn declares_main(language: &str, source: &[u8]) -> bool {
    match language {
        "java" => !java_main_classes(source).is_empty(),
        "kotlin" => {
            let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
            java_words(&text)
                .windows(3)
                .any(|w| w == ["fun", "main", "("])
        }
        _ => false,
    }
}

/// Java source as words, braces and parentheses, without comments,
/// strings and character literals.
fn java_words(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == b'{' || c == b'}' || c == b'(' {
            words.push(&text[i..i + 1]);
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            words.push(&text[start..i]);
        } else {
            i += 1;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_point_names() {
        assert_eq!(
            main_name("java", "Main.java", b"public class Main {}"),
            "Main"
        );
        assert_eq!(
            main_name("java", "Hello.java", b"package se.kth;\nclass Hello {}"),
            "se.kth.Hello"
        );
        // A nested class before main, a mainLoop, a brace in a string or a
        // comment: the top-level class that declares main.
        assert_eq!(
            main_name(
                "java",
                "Sol.java",
                b"import java.io.*;\nclass Helper { static void mainLoop() { String s = \"{\"; } }\n/* class Fake { void main() {} } */\npublic class Main {\n  static class FastReader { int next() { return 0; } }\n  enum Dir { UP }\n  public static void main(String[] a) { char c = '}'; }\n}\n"
            ),
            "Main"
        );
        // The file's own class wins when it declares main too.
        assert_eq!(
            main_name(
                "java",
                "B.java",
                b"class A { public static void main(String[] a) {} }\npublic class B { public static void main(String[] a) {} }\n"
            ),
            "B"
        );
        // DOMjudge's example: a class that is not the file's name.
        assert_eq!(
            main_name(
                "java",
                "test-package.java",
                b"package bin;\nimport java.util.*;\nclass Helper {}\nclass Main {\n  public static void main(String[] a) {}\n}\n"
            ),
            "bin.Main"
        );
        assert_eq!(main_name("kotlin", "hello.kt", b"fun main() {}"), "HelloKt");
        assert_eq!(main_name("python3", "sol.py", b""), "sol");
        assert_eq!(canonical_name("python"), "python3");
        assert!(
            builtin_languages()
                .iter()
                .any(|l| l.name == "java" && !l.address_space)
        );
    }
}
