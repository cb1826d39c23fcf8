//! Every built-in language (the CLICS languages table and a few more):
//! where its toolchain is installed, an A+B program in it (under
//! `tests/data/languages/<language>/`) is built and judged AC; where it is
//! not, one line says what was skipped. A missing toolchain is named with
//! its Debian package, and scripts/install-toolchains.sh installs every
//! package the table names. The core suite needs only Rust and cc.

mod common;
use common::*;
use judge::submission::{Language, builtin_languages};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/languages")
}

/// The A+B source of a language: its own directory's file, or for a
/// language chosen only by name (`--language`), the source of the
/// language it extends.
fn source_of(language: &Language) -> Option<PathBuf> {
    let dir = match language.name.as_str() {
        "cgmp" => "c",
        "cppgmp" | "cpp11" | "cpp14" | "cpp20" | "cpp23" => "cpp",
        "python3numpy" | "pypy3" => "python3",
        "javaalgs4" => "java",
        other => other,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(data().join(dir))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files.into_iter().next()
}

/// What is missing here to build and run a language, if anything.
fn missing(language: &Language) -> Option<String> {
    for (_, tool) in language.required_tools() {
        if !installed(&tool) {
            return Some(format!("{tool} not installed"));
        }
    }
    // Libraries the commands name by path (algs4.jar).
    let commands = format!(
        "{} {}",
        language.compile.as_deref().unwrap_or(""),
        language.run
    );
    for word in commands.split([' ', ':']) {
        if word.starts_with('/') && word.ends_with(".jar") && !Path::new(word).exists() {
            return Some(format!("{word} not installed"));
        }
    }
    let gmp = [
        "/usr/include/gmp.h",
        "/usr/include/x86_64-linux-gnu/gmp.h",
        "/usr/include/aarch64-linux-gnu/gmp.h",
    ];
    if language.name.ends_with("gmp") && !gmp.iter().any(|p| Path::new(p).exists()) {
        return Some("gmp.h not installed".to_string());
    }
    None
}

#[test]
fn every_installed_language_builds_and_judges_a_plus_b() {
    let s = Scratch::new();
    sum_cases(&s);
    // Generous limits: a JVM, Scala or Racket starts slowly on a busy machine.
    s.write(
        "judge.toml",
        "compile_time_limit = \"120s\"\n[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\ntime_limit = \"10s\"\n",
    );
    let mut skipped = Vec::new();
    let mut failed = Vec::new();
    let mut passed = Vec::new();
    for language in builtin_languages() {
        if let Some(why) = missing(&language) {
            skipped.push(format!("{} ({why})", language.name));
            continue;
        }
        let source = source_of(&language).unwrap_or_else(|| {
            panic!(
                "{} is installed here but tests/data/languages/{}/ has no A+B source",
                language.name, language.name
            )
        });
        let source = source.to_string_lossy().into_owned();
        let ran = s.run_judge(&[
            "run",
            "--problem",
            "sum",
            "--submission",
            &source,
            "--language",
            &language.name,
        ]);
        if ran.code == 0 && ran.stdout.contains("AC: 3/3 accepted") {
            passed.push(language.name.clone());
        } else if ran.code == 2 && ran.stderr.contains("is not installed") {
            // On PATH but not runnable (a pyenv shim of a version not
            // selected): the judge says so, as it should.
            skipped.push(format!("{} ({})", language.name, ran.stderr.trim()));
        } else {
            failed.push(format!(
                "{} (exit {}):\n{}\n{}",
                language.name, ran.code, ran.stdout, ran.stderr
            ));
        }
    }
    println!("languages: passed {}", passed.join(", "));
    if !skipped.is_empty() {
        println!("languages: skipped {}", skipped.join(", "));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n---\n"));
}

#[test]
fn a_file_is_judged_in_its_extensions_language_without_language() {
    // `.pl` is Prolog, unless it reads as Perl; `.py2` is Python 2.
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\ntime_limit = \"10s\"\n",
    );
    for (dir, tool) in [("prolog", "swipl"), ("perl", "perl"), ("go", "go")] {
        if !installed(tool) {
            println!("languages: skipped {dir} by extension ({tool} not installed)");
            continue;
        }
        let source = source_of(
            &builtin_languages()
                .into_iter()
                .find(|l| l.name == dir)
                .unwrap(),
        )
        .unwrap();
        let ran = s.run_judge(&[
            "run",
            "--problem",
            "sum",
            "--submission",
            &source.to_string_lossy(),
        ]);
        assert!(
            ran.code == 0 && ran.stdout.contains("AC: 3/3 accepted"),
            "{dir}: {}\n{}",
            ran.stdout,
            ran.stderr
        );
    }
}

#[test]
fn a_missing_toolchain_is_named_with_its_debian_package() {
    let s = Scratch::new();
    sum_cases(&s);
    let bin = s.path().join("empty-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let source = data().join("go/sum.go");
    let mut cmd = s.judge();
    // A fresh cache: a cached build needs no compiler.
    cmd.env("PATH", &bin)
        .env("JUDGE_CACHE_DIR", s.path().join("cache"))
        .args([
            "run",
            "--problem",
            "sum",
            "--submission",
            &source.to_string_lossy(),
        ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 2, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr.contains(
            "sum.go: the Go compiler `go` is not installed (Debian package golang-go; scripts/install-toolchains.sh installs it)"
        ),
        "{}",
        ran.stderr
    );
    assert!(!ran.stderr.contains("no language"), "{}", ran.stderr);
}

#[test]
fn the_install_script_installs_every_package_the_table_names() {
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install-toolchains.sh"),
    )
    .unwrap();
    let listed: Vec<&str> = script
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .nth(1)
                .filter(|_| l.split_whitespace().count() == 2)
        })
        .collect();
    for language in builtin_languages() {
        if let Some(package) = &language.package {
            assert!(
                listed.contains(&package.as_str()),
                "{}: Debian package {package} is not in scripts/install-toolchains.sh",
                language.name
            );
        }
    }
}

/// A toolchain is installed when a probe build of a tiny program in its
/// language works, not when its compiler's name resolves: a `gcc` that
/// cannot build Objective-C (no `cc1obj`) makes `sol.m` "not installed"
/// (MISS; `skip` with `--allow-missing`), never CE; Crystal's compile
/// command starts with `env`, which is everywhere, and its `crystal` is
/// what is checked.
#[test]
fn a_compiler_that_cannot_build_hello_is_not_installed_not_ce() {
    let s = Scratch::new();
    s.write("p/problem.yaml", "name: Plus one\n");
    s.write("p/data/secret/1.in", "1\n");
    s.write("p/data/secret/1.ans", "2\n");
    s.write(
        "p/submissions/accepted/sol.m",
        "#include <stdio.h>\nint main(void){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x+1);return 0;}\n",
    );
    // A gcc as one without cc1obj fails every Objective-C build, first
    // on PATH; a fresh cache, so no earlier build or probe answers.
    s.script(
        "fakebin/gcc",
        "echo \"gcc: fatal error: cannot execute 'cc1obj': execvp: No such file or directory\" >&2\nexit 1",
    );
    let path = format!(
        "{}:{}",
        s.path().join("fakebin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let verify = |extra: &[&str]| {
        let mut cmd = s.judge();
        cmd.env("PATH", &path)
            .env("JUDGE_CACHE_DIR", s.path().join("cache"))
            .args(["verify", "p"])
            .args(extra);
        run(cmd)
    };
    let ran = verify(&[]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert!(out.contains("MISS"), "{out}");
    assert!(
        out.contains("the Objective-C compiler `gcc` is not installed")
            && out.contains("a probe build of a tiny Objective-C program failed")
            && out.contains("cc1obj"),
        "{out}"
    );
    assert!(!out.contains(" CE"), "{out}");
    let forgiven = verify(&["--allow-missing"]);
    assert_eq!(forgiven.code, 0, "{}\n{}", forgiven.stdout, forgiven.stderr);

    // Crystal: without `crystal` on PATH, the tool is named (not `env`).
    std::fs::remove_file(s.path().join("p/submissions/accepted/sol.m")).unwrap();
    s.write(
        "p/submissions/accepted/sol.cr",
        "puts gets.not_nil!.to_i + 1\n",
    );
    if installed("crystal") {
        println!("languages: skipped the missing-crystal half (crystal is installed)");
        return;
    }
    let ran = verify(&[]);
    let out = format!("{}{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, 1, "{out}");
    assert!(
        out.contains("the Crystal compiler `crystal` is not installed"),
        "{out}"
    );
    assert_eq!(verify(&["--allow-missing"]).code, 0);
}
