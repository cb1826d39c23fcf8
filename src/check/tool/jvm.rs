//! A package's Java and Kotlin programs (a Polygon package's testlib4j
//! checker `files/Check.java` with `files/testlib4j.jar` beside it):
//! compiled by `javac` or `kotlinc` in the tools' build sandbox with every
//! jar beside the source (and in a `files/` beside it) on the classpath,
//! kept in the tools cache with copies of those jars (keyed by the
//! compiler, the runner, the source, the other sources beside it and the
//! jars), and run by `java` (`kotlin`) with the JVM options a Java
//! submission gets (`exec::runner::JVM_OPTIONS`, a heap from the tools'
//! memory, no address-space limit).
//!
//! The class run is the file's own (its stem, `package x.y;` making it
//! `x.y.Stem`; a Kotlin file's `StemKt`). A Java class with no `main` of
//! its own that implements testlib4j's `Checker` is run the way testlib4j
//! says, through its `ru.ifmo.testlib.CheckerFramework` (when a jar on the
//! classpath holds it): `CheckerFramework Check input output answer`.
//! A Java program is started by a small class of the judge's
//! ([`START_SOURCE`]), compiled with it, so that an uncaught exception is
//! the program's crash (exit 3), not an exit 1 that reads as WA.

use super::cache::{cache_root, keep_built, no_build_dir, staging_dir, tool_key};
use super::{COMPILE_TIME_LIMIT, Ready, TOOL_MEMORY, ToolError};
use crate::exec::LimitHit;
use crate::exec::process::launch_build;
use crate::exec::runner::{JVM_OPTIONS, jvm_heap_mib, resolve_program};
use crate::exec::sandbox::Sandbox;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// testlib4j's entry point for checkers that have no `main`.
const CHECKER_FRAMEWORK: &str = "ru.ifmo.testlib.CheckerFramework";

/// The class every Java program is started by: it calls the program's
/// `main` and makes an exception that ends it a crash (exit 3, testlib's
/// FAIL, as a C++ program killed by a signal is the tool's failure)
/// rather than the JVM's exit 1, which the testlib protocol reads as WA.
const START_CLASS: &str = "judge_tool.Start";
const START_SOURCE: &str = r#"package judge_tool;

/** The judge's start of a package's Java program (see check/tool/jvm.rs). */
public final class Start {
    public static void main(String[] args) {
        try {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            java.lang.reflect.Method main = Class.forName(args[0]).getMethod("main", String[].class);
            main.setAccessible(true);
            main.invoke(null, (Object) rest);
        } catch (java.lang.reflect.InvocationTargetException e) {
            e.getCause().printStackTrace();
            System.exit(3);
        } catch (Throwable e) {
            System.err.println("cannot start " + (args.length > 0 ? args[0] : "nothing") + ": " + e);
            System.exit(3);
        }
    }
}
"#;

/// How large a jar or a source may be to be read (the same bound as a
/// submission's source).
const FILE_MAX: u64 = 64 << 20;

/// A JVM language of a package's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Jvm {
    Java,
    Kotlin,
}

impl Jvm {
    fn compiler(self) -> &'static str {
        match self {
            Jvm::Java => "javac",
            Jvm::Kotlin => "kotlinc",
        }
    }

    fn runner(self) -> &'static str {
        match self {
            Jvm::Java => "java",
            Jvm::Kotlin => "kotlin",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Jvm::Java => "Java",
            Jvm::Kotlin => "Kotlin",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Jvm::Java => "java",
            Jvm::Kotlin => "kt",
        }
    }
}

/// Build (or find built) the Java or Kotlin source `path` and say how to
/// run it.
pub(super) fn jvm_program(
    language: Jvm,
    path: &Path,
    sandbox: &Sandbox,
) -> Result<Ready, ToolError> {
    let build = |reason: String| ToolError::Build {
        what: path.to_path_buf(),
        reason,
    };
    let need = |program: &'static str| {
        resolve_program(program).map_err(|_| ToolError::NotInstalled {
            what: path.to_path_buf(),
            program,
            language: language.title(),
        })
    };
    let compiler = need(language.compiler())?;
    let runner = need(language.runner())?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let text = read_bounded(path).map_err(build)?;
    let text = String::from_utf8_lossy(&text).into_owned();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let package = package_of(&text);
    let class = match language {
        Jvm::Java => stem.clone(),
        Jvm::Kotlin => crate::text::source_words::kotlin_file_class(&stem),
    };
    let main = match &package {
        Some(p) => format!("{p}.{class}"),
        None => class.clone(),
    };
    let jars = jars_beside(&dir);
    // The other sources of the directory are found by javac through
    // `-sourcepath` (a helper class beside the checker), so they are part
    // of what was built.
    let mut sources = vec![path.to_path_buf()];
    if language == Jvm::Java && package.is_none() {
        sources.extend(
            sorted_files(&dir)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "java") && p != path),
        );
    }
    sources.extend(jars.iter().cloned());
    let runner_word = format!(
        "{} {} {START_SOURCE}",
        language.extension(),
        runner.display()
    );
    let key = tool_key(&compiler, &runner_word, &sources, &[]);
    let cache = cache_root();
    let entry = cache.join(&key);
    let ready = |entry: &Path| -> Result<Ready, ToolError> {
        let main = std::fs::read_to_string(entry.join("main"))
            .map_err(|e| build(format!("the build has no main class: {e}")))?;
        Ok(run_line(language, &runner, entry, &jars, main.trim()))
    };
    if entry.join("main").is_file() && crate::exec::cache_dir::entry_intact(&entry) {
        return ready(&entry);
    }
    let staged = staging_dir(&cache).map_err(|e| build(no_build_dir(e)))?;
    // Built in the judge's private directory, the one place a package's
    // program may write (see `exec::sandbox::tools`), with copies of the
    // jars it is compiled against, then copied into the cache.
    let out = sandbox.tool_build_dir().map_err(|e| build(e.to_string()))?;
    let mut classpath: Vec<OsString> = Vec::new();
    for jar in &jars {
        let name = jar_name(jar);
        let bytes = read_bounded(jar).map_err(build)?;
        out.write(&format!("lib/{name}"), &bytes)
            .map_err(|e| build(e.to_string()))?;
        classpath.push(out.path().join("lib").join(name).into_os_string());
    }
    let classes = out.path().join("classes");
    std::fs::create_dir_all(&classes).map_err(|e| build(format!("{}: {e}", classes.display())))?;
    let mut args: Vec<OsString> = match language {
        Jvm::Java => vec!["-encoding".into(), "UTF-8".into(), "-nowarn".into()],
        Jvm::Kotlin => vec!["-nowarn".into()],
    };
    args.extend(["-d".into(), classes.clone().into_os_string()]);
    if !classpath.is_empty() {
        args.push("-cp".into());
        args.push(std::env::join_paths(&classpath).map_err(|e| build(e.to_string()))?);
    }
    if language == Jvm::Java && package.is_none() {
        args.push("-sourcepath".into());
        args.push(dir.clone().into_os_string());
    }
    args.push(path.as_os_str().to_owned());
    if language == Jvm::Java {
        out.write("start/judge_tool/Start.java", START_SOURCE.as_bytes())
            .map_err(|e| build(e.to_string()))?;
        args.push(
            out.path()
                .join("start/judge_tool/Start.java")
                .into_os_string(),
        );
    }
    let outcome = launch_build(
        sandbox,
        0,
        &compiler,
        &args,
        Some(out.path()),
        COMPILE_TIME_LIMIT,
    )
    .map_err(|e| build(e.to_string()))?;
    let class_file = classes.join(main.replace('.', "/")).with_extension("class");
    if outcome.limit_hit.is_some() || !outcome.exit.success() {
        let why = if matches!(outcome.limit_hit, Some(LimitHit::Wall | LimitHit::Cpu)) {
            format!("timed out after {}s", COMPILE_TIME_LIMIT.as_secs())
        } else {
            outcome.exit.describe()
        };
        let errors = String::from_utf8_lossy(&outcome.stderr_tail);
        return Err(build(format!(
            "{} failed ({why}):\n{}",
            language.compiler(),
            errors.trim_end()
        )));
    }
    if !class_file.is_file() {
        return Err(build(format!(
            "{} made no class {main} (the class run is the file's own: its name{})",
            language.compiler(),
            if package.is_some() {
                ", in the package the source declares"
            } else {
                ""
            }
        )));
    }
    // The class to start: its own `main`, or testlib4j's framework for a
    // checker that has none (`implements Checker`).
    let framework = language == Jvm::Java
        && !declares_main(&text)
        && implements_checker(&text)
        && jars.iter().any(|j| holds_framework(j));
    let start = match language {
        Jvm::Java if framework => format!("{START_CLASS} {CHECKER_FRAMEWORK} {main}"),
        Jvm::Java => format!("{START_CLASS} {main}"),
        Jvm::Kotlin => main.clone(),
    };
    out.collect(staged.path(), &[])
        .map_err(|e| build(e.to_string()))?;
    drop(out);
    std::fs::write(staged.path().join("main"), format!("{start}\n"))
        .map_err(|e| build(format!("cannot write the build: {e}")))?;
    let (entry, keep) = keep_built(staged, &cache, &key, "main");
    let mut ready = ready(&entry)?;
    ready._keep = keep;
    Ok(ready)
}

/// The command line of a built JVM program: the runner with the JVM's
/// options and the classpath (its classes, then its copies of the jars),
/// then the class (or the framework and the class) to start.
fn run_line(language: Jvm, runner: &Path, entry: &Path, jars: &[PathBuf], start: &str) -> Ready {
    let heap = format!("-Xmx{}m", jvm_heap_mib(Some(TOOL_MEMORY)));
    let mut argv: Vec<OsString> = vec![runner.as_os_str().to_owned()];
    let options = JVM_OPTIONS.iter().map(|o| o.to_string()).chain([heap]);
    match language {
        Jvm::Java => argv.extend(options.map(OsString::from)),
        Jvm::Kotlin => argv.extend(options.map(|o| OsString::from(format!("-J{o}")))),
    }
    let mut classpath = vec![entry.join("classes")];
    classpath.extend(jars.iter().map(|j| entry.join("lib").join(jar_name(j))));
    argv.push("-cp".into());
    argv.push(std::env::join_paths(&classpath).unwrap_or_default());
    argv.extend(start.split_whitespace().map(OsString::from));
    Ready {
        argv,
        address_space: false,
        _keep: None,
    }
}

/// The name a jar has in the build (its own; a name that is not plain
/// text is replaced).
fn jar_name(jar: &Path) -> String {
    jar.file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.contains(':'))
        .map_or_else(|| "library.jar".to_string(), str::to_string)
}

/// The jars on a program's classpath: every `.jar` in the source's
/// directory, then in a `files/` beside it (a Polygon package keeps its
/// resources there), one of each name.
fn jars_beside(dir: &Path) -> Vec<PathBuf> {
    let mut jars: Vec<PathBuf> = Vec::new();
    for place in [dir.to_path_buf(), dir.join("files")] {
        for jar in sorted_files(&place) {
            if jar.extension().is_some_and(|e| e == "jar")
                && !jars.iter().any(|j| jar_name(j) == jar_name(&jar))
            {
                jars.push(jar);
            }
        }
    }
    jars
}

/// The regular files of a directory, by name (none when it cannot be
/// read).
fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > FILE_MAX {
        return Err(format!(
            "{}: {} bytes, more than a package's program may have ({FILE_MAX})",
            path.display(),
            meta.len()
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The package a Java or Kotlin source declares (`package x.y;`), when
/// it is a plain dotted name.
fn package_of(text: &str) -> Option<String> {
    let code = words(text);
    let at = code.iter().position(|w| *w == "package")?;
    let mut name = String::new();
    for word in &code[at + 1..] {
        match *word {
            "." => name.push('.'),
            ";" => break,
            w if w
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
            {
                if !name.is_empty() && !name.ends_with('.') {
                    break;
                }
                name.push_str(w);
            }
            _ => break,
        }
    }
    (!name.is_empty() && !name.ends_with('.')).then_some(name)
}

/// Whether Java source declares `void main(` (anywhere: the file's class
/// is the one run).
fn declares_main(text: &str) -> bool {
    words(text).windows(3).any(|w| w == ["void", "main", "("])
}

/// Whether Java source has a class that `implements` testlib4j's
/// `Checker` (by that name or `ru.ifmo.testlib.Checker`).
fn implements_checker(text: &str) -> bool {
    let code = words(text);
    code.iter().enumerate().any(|(k, w)| {
        *w == "implements"
            && code[k + 1..]
                .iter()
                .take_while(|w| **w != "{")
                .any(|w| *w == "Checker")
    })
}

/// Whether a jar holds testlib4j's checker framework (a zip keeps each
/// entry's name as it is, in its headers).
fn holds_framework(jar: &Path) -> bool {
    let name = format!("{}.class", CHECKER_FRAMEWORK.replace('.', "/"));
    read_bounded(jar).is_ok_and(|bytes| {
        bytes
            .windows(name.len())
            .any(|window| window == name.as_bytes())
    })
}

/// Java (and Kotlin) source as words and the punctuation `{ } ( ; .`,
/// without comments, strings and character literals.
fn words(text: &str) -> Vec<&str> {
    crate::text::source_words::c_like_words(text, b"{}(;.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_run_is_the_files_own_in_its_package() {
        assert_eq!(
            package_of("package ru.ifmo.check;\nclass X {}"),
            Some("ru.ifmo.check".into())
        );
        assert_eq!(package_of("// package fake;\nimport java.util.*;"), None);
        assert_eq!(package_of("/* x */ package a . b ;"), Some("a.b".into()));
        assert_eq!(
            package_of("package foo.bar\n\nfun main() {}"),
            Some("foo.bar".into())
        );
        assert_eq!(package_of("package ;"), None);
        assert_eq!(
            crate::text::source_words::kotlin_file_class("check"),
            "CheckKt"
        );
        assert_eq!(
            crate::text::source_words::kotlin_file_class("test-hello"),
            "Test_helloKt"
        );
    }

    #[test]
    fn a_checker_without_main_is_testlib4js() {
        let framework = "import ru.ifmo.testlib.*;\npublic class Check implements Checker {\n public Outcome test(InStream a, InStream b, InStream c) { return null; }\n}";
        assert!(implements_checker(framework) && !declares_main(framework));
        let own = "public class Check { public static void main(String[] a) { String s = \"implements Checker {\"; } }";
        assert!(declares_main(own) && !implements_checker(own));
        assert!(implements_checker(
            "class C extends B implements Runnable, ru.ifmo.testlib.Checker {}"
        ));
    }
}
