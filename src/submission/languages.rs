//! The languages, named as the CLICS languages table names them (`c`,
//! `cpp`, `csharp`, `go`, `haskell`, `java`, `python3`, … all of it: see
//! [`table`]), so that a package's `include/<language>/` and a
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

mod table;

pub use table::builtin_languages;

/// How to build and run sources of one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    /// `c`, `cpp`, `java`, `python3`, …, or a judge.toml name.
    pub name: String,
    /// What people call it (`C#`, `Common Lisp`), for messages.
    pub title: String,
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
    /// The program checked before a build when it is not the first word of
    /// the compile command (`go` of `env GOCACHE=… go build`).
    pub tool: Option<String>,
    /// The Debian package of the toolchain (`golang-go`), named when the
    /// tool is missing (scripts/install-toolchains.sh installs them).
    pub package: Option<String>,
}

impl Language {
    /// The programs a build needs, each with its role (`compiler`,
    /// `interpreter`), in the order they are checked: the interpreter
    /// command's, the named tool, the compile command's first word, and
    /// for a language that neither compiles nor names a tool, its run
    /// command's first word.
    pub fn required_tools(&self) -> Vec<(&'static str, String)> {
        let first = |command: &str| {
            shlex::split(command)
                .and_then(|w| w.into_iter().next())
                .filter(|w| !w.contains('{'))
        };
        let mut tools: Vec<(&'static str, String)> = Vec::new();
        let mut add = |role: &'static str, tool: Option<String>| {
            if let Some(tool) = tool
                && !tools.iter().any(|(_, t)| *t == tool)
            {
                tools.push((role, tool));
            }
        };
        add("interpreter", self.interpreter.as_deref().and_then(first));
        let role = if self.compile.is_some() {
            "compiler"
        } else {
            "interpreter"
        };
        add(role, self.tool.clone());
        if self.tool.is_none() {
            add("compiler", self.compile.as_deref().and_then(first));
            if self.compile.is_none() && self.interpreter.is_none() {
                add("interpreter", first(&self.run));
            }
        }
        tools
    }
}

/// What a missing tool's message says in parentheses: the Debian package
/// that provides it (none for a language judge.toml defines or changes).
pub fn package_hint(package: Option<&str>) -> Option<String> {
    package.map(|p| format!("Debian package {p}; scripts/install-toolchains.sh installs it"))
}

/// A missing tool's message: ``the Go compiler `go` is not installed
/// (Debian package golang-go; …)``.
pub fn missing_tool_message(title: &str, role: &str, tool: &str, detail: Option<&str>) -> String {
    match detail {
        Some(d) => format!("the {title} {role} `{tool}` is not installed ({d})"),
        None => format!("the {title} {role} `{tool}` is not installed"),
    }
}

/// The language a file's content picks among those sharing its
/// extension, when it is not the extension's first: a `.py` whose first
/// line is `#!…python2` is Python 2 (as problemtools reads it), and a
/// `.pl` file is Prolog (the CLICS table) unless it reads as Perl: a
/// `#!…perl` first line, or no `:-` anywhere (every Prolog program with
/// a `main` has a clause or a directive; DOMjudge's `.pl` files are Perl).
pub fn by_content(extension: &str, source: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
    let first = text.lines().next().unwrap_or("");
    let shebang = |word: &str| first.starts_with("#!") && first.contains(word);
    match extension {
        "py" if shebang("python2") => Some("python2"),
        "pl" if shebang("perl") || !text.contains(":-") => Some("perl"),
        _ => None,
    }
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
        "cs" | "c#" => "csharp",
        "golang" => "go",
        "hs" => "haskell",
        "ml" => "ocaml",
        "rb" => "ruby",
        "common lisp" | "sbcl" | "cl" => "lisp",
        "swipl" | "plg" => "prolog",
        "pypy" | "pypy 3" => "pypy3",
        "ts" => "typescript",
        "f#" => "fsharp",
        "objective-c" | "objc" => "objectivec",
        "sh" => "bash",
        "f90" | "f95" => "fortran",
        "adb" => "ada",
        "vb" => "visualbasic",
        "cob" => "cobol",
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
            let class = crate::text::source_words::kotlin_file_class(&stem);
            qualified(class)
        }
        // The object that declares `def main` (or extends `App`), else the
        // file's name.
        "scala" => qualified(scala_main_object(source).unwrap_or(stem)),
        _ => stem,
    }
}

/// The first top-level `object` of a Scala source whose body declares
/// `def main(` or that `extends App`.
fn scala_main_object(source: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(&source[..source.len().min(1 << 16)]);
    let words = java_words(&text);
    let mut depth = 0usize;
    let mut current: Option<&str> = None;
    for (k, word) in words.iter().enumerate() {
        match *word {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "object" if depth == 0 => {
                current = words.get(k + 1).copied();
                if words.get(k + 2) == Some(&"extends") && words.get(k + 3) == Some(&"App") {
                    return current.map(String::from);
                }
            }
            "main" if k > 0 && words[k - 1] == "def" && depth > 0 => {
                if let Some(c) = current {
                    return Some(c.to_string());
                }
            }
            _ => {}
        }
    }
    None
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
    crate::text::source_words::c_like_words(text, b"{}(")
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
        assert_eq!(
            main_name("kotlin", "test-hello.kt", b"fun main() {}"),
            "Test_helloKt"
        );
        assert_eq!(
            main_name(
                "scala",
                "sol.scala",
                b"package p\nobject Helper { def f = 1 }\nobject Sol {\n  def main(a: Array[String]): Unit = {}\n}\n"
            ),
            "p.Sol"
        );
        assert_eq!(by_content("pl", b"main :- write(1)."), None);
        assert_eq!(by_content("pl", b"print \"hi\";\n"), Some("perl"));
        assert_eq!(
            by_content("py", b"#!/usr/bin/env python2\n"),
            Some("python2")
        );
        let go = builtin_languages()
            .into_iter()
            .find(|l| l.name == "go")
            .unwrap();
        assert_eq!(go.required_tools(), vec![("compiler", "go".to_string())]);
        // Each extension belongs to one language.
        let mut seen = std::collections::HashSet::new();
        for l in builtin_languages() {
            for e in &l.extensions {
                assert!(seen.insert(e.clone()), "{} claims .{e} again", l.name);
            }
        }
        assert_eq!(main_name("python3", "sol.py", b""), "sol");
        assert_eq!(canonical_name("python"), "python3");
        assert!(
            builtin_languages()
                .iter()
                .any(|l| l.name == "java" && !l.address_space)
        );
        // A package's Java programs get the same JVM options
        // (`check::tool`, from `exec::runner::JVM_OPTIONS`).
        let java = builtin_languages()
            .into_iter()
            .find(|l| l.name == "java")
            .unwrap();
        let options = crate::exec::runner::JVM_OPTIONS.join(" ");
        assert!(
            java.run
                .starts_with(&format!("java {options} -Xmx{{heap_mib}}m ")),
            "{}",
            java.run
        );
    }
}
