//! Source submissions: compiled by extension (C, C++, Python), cached by
//! content, compile errors as CE with the compiler's message, a missing
//! compiler as a clear usage error, the compile time limit.

mod common;
use common::*;

const AB_CPP: &str = r#"
#include <iostream>
int main() {
    long long t, a, b;
    std::cin >> t;
    while (t-- > 0 && std::cin >> a >> b) std::cout << a + b << "\n";
}
"#;

const AB_PY: &str = "t = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(a + b)\n";

/// `judge run --submission ARG` in `s` with its own build cache.
fn run_source(s: &Scratch, cache: &std::path::Path, extra: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", cache).arg("run").args(extra);
    run(cmd)
}

#[test]
fn c_and_cpp_compile_run_and_come_from_the_cache_the_second_time() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("sol.c", AB_C);
    s.write("sol.cpp", AB_CPP);
    let cache = s.path().join("cache");
    for source in ["sol.c", "sol.cpp"] {
        let first = run_source(&s, &cache, &["--submission", source]);
        assert_eq!(first.code, 0, "{}\n{}", first.stdout, first.stderr);
        assert!(
            first.stderr.contains(&format!("compiled {source} (")),
            "{}",
            first.stderr
        );
        assert!(
            first.stdout.contains("AC: 3/3 accepted"),
            "{}",
            first.stdout
        );
    }
    let entries: Vec<std::path::PathBuf> = std::fs::read_dir(cache.join("compile"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(entries.len(), 2, "one entry per source: {entries:?}");
    let stamp = |p: &std::path::Path| {
        std::fs::metadata(p.join("judge-build.json"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before: Vec<_> = entries.iter().map(|e| stamp(e)).collect();
    for source in ["sol.c", "sol.cpp"] {
        let again = run_source(&s, &cache, &["--submission", source]);
        assert_eq!(again.code, 0, "{}", again.stderr);
        assert!(
            again.stderr.contains("cached build, not compiled again"),
            "{}",
            again.stderr
        );
        assert!(
            !again.stderr.contains("judge: compiled"),
            "{}",
            again.stderr
        );
    }
    let after: Vec<_> = entries.iter().map(|e| stamp(e)).collect();
    assert_eq!(before, after, "no entry was rebuilt");
    // A changed source is a new build.
    s.write("sol.c", format!("{AB_C}\n/* changed */\n"));
    let changed = run_source(&s, &cache, &["--submission", "sol.c"]);
    assert!(
        changed.stderr.contains("compiled sol.c"),
        "{}",
        changed.stderr
    );
    assert_eq!(std::fs::read_dir(cache.join("compile")).unwrap().count(), 3);
}

#[test]
fn a_directory_with_one_source_is_that_source() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("sub/main.cpp", AB_CPP);
    s.write("sub/README.md", "notes\n");
    let ran = run_source(&s, &shared_cache(), &["-q", "--submission", "sub"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    s.write("sub/other.c", AB_C);
    let ran = run_source(&s, &shared_cache(), &["--submission", "sub"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("sources of several languages (main.cpp (cpp), other.c (c))"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_compile_error_is_ce_on_every_case_with_the_compiler_message() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "bad.c",
        "#include <stdio.h>\nint main(void) {\n    printf(\"%d\\n\", 1)\n    return 0;\n}\n",
    );
    let ran = run_source(
        &s,
        &shared_cache(),
        &["--format", "json", "--submission", "bad.c"],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let report = ran.json();
    assert_eq!(report["verdict"], "CE");
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for case in cases {
        assert_eq!(case["verdict"], "CE");
        let message = case["message"].as_str().unwrap();
        assert!(
            message.starts_with("compile error: bad.c:") && message.contains("error"),
            "{message}"
        );
        let output = case["stderr"].as_str().unwrap();
        assert!(output.contains("error: expected"), "{output}");
        assert!(
            !output.contains(".build-"),
            "the staging directory is not shown: {output}"
        );
        assert_eq!(case["cpu_ms"], 0.0, "nothing ran");
    }
    // The human report shows the compiler's output once, not per case.
    let ran = run_source(&s, &shared_cache(), &["--submission", "bad.c"]);
    assert_eq!(ran.code, 1);
    assert_eq!(
        ran.stdout.matches("compiler output (end):").count(),
        1,
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("error: expected"), "{}", ran.stdout);
    assert!(
        ran.stderr.contains("bad.c (c) does not compile"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_missing_compiler_is_a_usage_error_naming_it() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("sol.c", AB_C);
    let toml = s.read("judge.toml");
    s.write(
        "judge.toml",
        format!("{toml}\n[language.c]\ncompile = \"no-such-cc -o {{bin}} {{src}}\"\n"),
    );
    let ran = run_source(&s, &shared_cache(), &["--submission", "sol.c"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("sol.c: the C compiler `no-such-cc` is not installed"),
        "{}",
        ran.stderr
    );
    // An unknown key in a language table names the file and line.
    s.write(
        "judge.toml",
        format!("{toml}\n[language.c]\ncompiler = \"gcc\"\n"),
    );
    let ran = run_source(&s, &shared_cache(), &["--submission", "sol.c"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("judge.toml:7:1: unknown field `compiler`"),
        "{}",
        ran.stderr
    );
    // A source that does not exist is named as such.
    s.write("judge.toml", &toml);
    let ran = run_source(&s, &shared_cache(), &["--submission", "nope.cpp"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("nope.cpp: no such source file"),
        "{}",
        ran.stderr
    );
}

#[test]
fn python_runs_under_the_scrubbed_environment_or_is_named_missing() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("sol.py", AB_PY);
    let ran = run_source(&s, &shared_cache(), &["--submission", "sol.py"]);
    if installed("python3") {
        assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
        s.write("broken.py", "print(1\n");
        let ran = run_source(
            &s,
            &shared_cache(),
            &["--format", "json", "--submission", "broken.py"],
        );
        assert_eq!(ran.code, 1);
        let report = ran.json();
        assert_eq!(report["verdict"], "CE");
        assert!(
            report["cases"][0]["message"]
                .as_str()
                .unwrap()
                .contains("SyntaxError"),
            "{report}"
        );
    } else {
        assert_eq!(ran.code, 2);
        assert!(
            ran.stderr.contains("`python3` is not installed"),
            "{}",
            ran.stderr
        );
    }
    // The missing branch, whatever this machine has.
    let toml = s.read("judge.toml");
    s.write(
        "judge.toml",
        format!(
            "{toml}\n[language.python]\ninterpreter = \"no-such-python3 -c 'import sys; print(sys.executable)'\"\n"
        ),
    );
    let ran = run_source(&s, &shared_cache(), &["--submission", "sol.py"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("the Python 3 interpreter `no-such-python3` is not installed"),
        "{}",
        ran.stderr
    );
}

#[test]
fn compilation_has_its_own_time_limit_and_language_can_be_forced() {
    let s = Scratch::new();
    sum_cases(&s);
    let toml = s.read("judge.toml");
    s.write(
        "judge.toml",
        format!(
            "compile_time_limit = \"500ms\"\n{toml}\n[language.slow]\nextensions = [\"slow\"]\ncompile = \"sleep 5\"\nrun = \"{{bin}}\"\n"
        ),
    );
    s.write("x.slow", "anything");
    let started = std::time::Instant::now();
    let ran = run_source(
        &s,
        &shared_cache(),
        &["--format", "json", "--submission", "x.slow"],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(
        ran.json()["cases"][0]["message"],
        "compile error: compilation passed the compile time limit of 500ms"
    );
    // --language: a C source whose name does not say so.
    s.write("solution.txt", AB_C);
    let ran = run_source(
        &s,
        &shared_cache(),
        &["-q", "--submission", "solution.txt", "--language", "c"],
    );
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
}

/// A program's messages name the user's file, not the judge's copy of its
/// build: a Python traceback says `File "sub/crash.py"`, with spaces as
/// spaces.
#[test]
fn a_traceback_names_the_users_file() {
    if !installed("python3") {
        println!("not run: python3 is not installed (the traceback test)");
        return;
    }
    let s = Scratch::new();
    s.write("cases/1.in", "1\n");
    s.write("cases/1.ans", "1\n");
    s.write(
        "sub/crash.py",
        "x = int(input())\nraise ValueError('boom')\n",
    );
    let mut cmd = s.judge();
    cmd.env("NO_COLOR", "1")
        .args(["run", "cases", "--submission", "sub/crash.py"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("File \"sub/crash.py\", line 2"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("Traceback (most recent call last):"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("judge-run-"), "{}", ran.stdout);
}
