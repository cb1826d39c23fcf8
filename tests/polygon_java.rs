//! A Polygon package's programs in Java (testlib4j style: `files/Check.java`
//! with a jar beside it), Kotlin and Pascal. The package and its jar are
//! made here: the jar (`files/mylib.jar`, compiled by the test with
//! `javac` and `jar`) holds a helper class and a minimal checker framework
//! under testlib4j's names, so the classpath-from-jars path and
//! testlib4j's way of starting a checker with no `main` are both run. A
//! Java checker judges AC and WA, a failing or crashing one is IE, one
//! that does not compile is an error naming it; a Java generator makes a
//! test and a Java validator checks the tests; a C++ checker still works.
//! Kotlin and Pascal programs without their compilers are "not installed".

mod common;
use common::*;
use std::path::PathBuf;
use std::sync::OnceLock;

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

/// The judge with a cache of this test's own.
fn judge(s: &Scratch, args: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.env("JUDGE_CACHE_DIR", s.path().join("cache"));
    cmd.args(args);
    run(cmd)
}

/// Whether the Java half can run here; the first test that cannot says
/// so, once.
fn java_here() -> bool {
    static SAID: std::sync::Once = std::sync::Once::new();
    let missing: Vec<&str> = ["javac", "jar", "java"]
        .into_iter()
        .filter(|p| !installed(p))
        .collect();
    if missing.is_empty() {
        return true;
    }
    SAID.call_once(|| {
        println!(
            "skipped: tests/polygon_java.rs (Java checker, validator and generator of a Polygon package): {} not installed",
            missing.join(", ")
        );
    });
    false
}

/// The helper library: `mylib.Tokens` (numbers of a file) and a small
/// checker framework under testlib4j's names (`ru.ifmo.testlib`): a
/// `Checker` returns an exit code, the framework runs the class named
/// first with the three files and makes an exception a FAIL (3).
const LIB: &[(&str, &str)] = &[
    (
        "mylib/Tokens.java",
        r#"package mylib;
import java.util.ArrayList;
import java.util.List;
public final class Tokens {
    private Tokens() {}
    public static long[] longs(String text) {
        List<Long> out = new ArrayList<>();
        for (String word : text.trim().split("\\s+")) {
            if (!word.isEmpty()) out.add(Long.parseLong(word));
        }
        long[] result = new long[out.size()];
        for (int i = 0; i < result.length; i++) result[i] = out.get(i);
        return result;
    }
}
"#,
    ),
    (
        "ru/ifmo/testlib/Checker.java",
        r#"package ru.ifmo.testlib;
public interface Checker {
    int check(String input, String output, String answer) throws Exception;
}
"#,
    ),
    (
        "ru/ifmo/testlib/CheckerFramework.java",
        r#"package ru.ifmo.testlib;
import java.nio.file.Files;
import java.nio.file.Paths;
public final class CheckerFramework {
    public static void main(String[] args) throws Exception {
        Checker checker = (Checker) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        String[] files = new String[3];
        for (int i = 0; i < 3; i++) files[i] = new String(Files.readAllBytes(Paths.get(args[i + 1])));
        int code;
        try {
            code = checker.check(files[0], files[1], files[2]);
        } catch (Exception e) {
            System.err.println("FAIL " + e);
            code = 3;
        }
        System.exit(code);
    }
}
"#,
    ),
];

/// `mylib.jar`, built once a process.
fn jar() -> &'static [u8] {
    static JAR: OnceLock<Vec<u8>> = OnceLock::new();
    JAR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut sources = Vec::new();
        for (rel, text) in LIB {
            let path = dir.path().join("src").join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            sources.push(path);
        }
        let classes = dir.path().join("classes");
        let status = std::process::Command::new("javac")
            .arg("-d")
            .arg(&classes)
            .args(&sources)
            .status()
            .unwrap();
        assert!(status.success(), "javac of the test's library");
        let jar = dir.path().join("mylib.jar");
        let status = std::process::Command::new("jar")
            .arg("cf")
            .arg(&jar)
            .arg("-C")
            .arg(&classes)
            .arg(".")
            .status()
            .unwrap();
        assert!(status.success(), "jar of the test's library");
        std::fs::read(jar).unwrap()
    })
}

/// testlib4j's style: a `Checker` with no `main`, started by the jar's
/// framework; 3 (FAIL) when the answer is 999.
const CHECK_JAVA: &str = r#"import mylib.Tokens;
import ru.ifmo.testlib.Checker;

public class Check implements Checker {
    public int check(String input, String output, String answer) {
        long[] want = Tokens.longs(answer);
        long[] got;
        try {
            got = Tokens.longs(output);
        } catch (NumberFormatException e) {
            System.err.println("wrong output format " + e.getMessage());
            return 2;
        }
        if (want.length != 1) {
            System.err.println("FAIL the answer is not one number");
            return 3;
        }
        if (want[0] == 999) {
            System.err.println("FAIL told to");
            return 3;
        }
        if (got.length != 1 || got[0] != want[0]) {
            System.err.println("wrong answer expected " + want[0]);
            return 1;
        }
        System.err.println("ok " + got[0]);
        return 0;
    }
}
"#;

/// A validator with a `main` of its own, using the jar's helper: two
/// numbers of at most 1000 in absolute value.
const VALIDATE_JAVA: &str = r#"import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import mylib.Tokens;

public class Validate {
    public static void main(String[] args) throws Exception {
        InputStream in = System.in;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        for (int n; (n = in.read(buffer)) > 0; ) all.write(buffer, 0, n);
        long[] numbers = Tokens.longs(all.toString("UTF-8"));
        if (numbers.length != 2) {
            System.err.println("expected two numbers, found " + numbers.length);
            System.exit(3);
        }
        for (long x : numbers) {
            if (Math.abs(x) > 1000) {
                System.err.println("out of range: " + x);
                System.exit(3);
            }
        }
    }
}
"#;

/// A generator in a package of its own (`package gen.plus;`): its two
/// arguments as a test.
const GEN_JAVA: &str = r#"package gen.plus;

public class Gen {
    public static void main(String[] args) {
        System.out.println(Long.parseLong(args[0]) + " " + Long.parseLong(args[1]));
    }
}
"#;

/// A C++ checker of the same rule, without testlib.
const CHECK_CPP: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 4) return 3;
    FILE *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    long long a, b;
    if (!out || !ans || fscanf(ans, "%lld", &b) != 1) return 3;
    if (fscanf(out, "%lld", &a) != 1) { fprintf(stderr, "wrong output format\n"); return 2; }
    if (a != b) { fprintf(stderr, "wrong answer expected %lld\n", b); return 1; }
    return 0;
}
"#;

/// problem.xml: test 1 manual (`tests/01`), test 2 generated by the Java
/// generator; no answers in the package (the main solution makes them).
fn problem_xml(checker: &str, checker_type: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="plus">
    <judging>
        <testset name="tests">
            <time-limit>5000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test cmd="Gen 10 20" method="generated"/>
            </tests>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/mylib.jar" type="jar"/>
        </resources>
        <executables>
            <executable>
                <source path="files/Gen.java" type="java11"/>
            </executable>
        </executables>
    </files>
    <assets>
        <checker type="testlib">
            <source path="{checker}" type="{checker_type}"/>
        </checker>
        <validators>
            <validator>
                <source path="files/Validate.java" type="java21"/>
            </validator>
        </validators>
        <solutions>
            <solution tag="main"><source path="solutions/sum.c" type="c.gcc"/></solution>
            <solution tag="wrong-answer"><source path="solutions/difference.c" type="c.gcc"/></solution>
        </solutions>
    </assets>
</problem>
"#
    )
}

/// The package in `s`, its checker `checker` (a path in the package) of
/// Polygon type `checker_type` with `source` as its text.
fn package(s: &Scratch, checker: &str, checker_type: &str, source: &str) -> PathBuf {
    s.write("plus/problem.xml", problem_xml(checker, checker_type));
    s.write(&format!("plus/{checker}"), source);
    s.write("plus/files/Validate.java", VALIDATE_JAVA);
    s.write("plus/files/Gen.java", GEN_JAVA);
    s.write("plus/solutions/sum.c", SUM_C);
    s.write("plus/solutions/difference.c", DIFFERENCE_C);
    s.write("plus/tests/01", "3 4\n");
    s.path().join("plus")
}

fn java_package(s: &Scratch, check: &str) -> PathBuf {
    let root = package(s, "files/Check.java", "java11", check);
    s.write("plus/files/mylib.jar", jar());
    root
}

fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines().find(|l| l.contains(name)).unwrap_or_default()
}

/// The tools cache's built Java programs (entries with a main class).
fn built_java(s: &Scratch) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(s.path().join("cache/tools"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("main").is_file())
        .map(|e| std::fs::read_to_string(e.path().join("main")).unwrap_or_default())
        .collect();
    names.sort();
    names
}

#[test]
fn a_java_checker_with_its_jar_judges_ac_and_wa_and_java_makes_and_validates_tests() {
    if !java_here() {
        return;
    }
    let s = Scratch::new();
    let root = java_package(&s, CHECK_JAVA);
    let pkg = root.to_str().unwrap();
    let ran = judge(&s, &["verify", pkg]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(line(&out, "sum.c").contains("AC 2"), "{out}");
    assert!(line(&out, "difference.c").contains("WA"), "{out}");
    // The generator, the checker (through the jar's framework) and, once
    // validated, the validator are built once, into the cache.
    let ran = judge(&s, &["validate", pkg]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    let built = built_java(&s);
    assert_eq!(
        built,
        [
            "judge_tool.Start Validate\n",
            "judge_tool.Start gen.plus.Gen\n",
            "judge_tool.Start ru.ifmo.testlib.CheckerFramework Check\n",
        ],
        "{built:?}"
    );
    // A second verify builds none of them again.
    let ran = judge(&s, &["verify", pkg]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert_eq!(built_java(&s), built);
    // The Java validator rejects a test out of its range, in its words.
    s.write("plus/tests/01", "3 4000\n");
    let ran = judge(&s, &["validate", pkg]);
    let out = all(&ran);
    assert_ne!(ran.code, 0, "{out}");
    assert!(out.contains("out of range: 4000"), "{out}");
}

#[test]
fn a_failing_or_crashing_java_checker_is_ie_and_one_that_does_not_compile_is_named() {
    if !java_here() {
        return;
    }
    // The checker's FAIL (exit 3): the answer 999 (test 1 is 999 + 0).
    let s = Scratch::new();
    let root = java_package(&s, CHECK_JAVA);
    s.write("plus/tests/01", "999 0\n");
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_ne!(ran.code, 0, "{out}");
    assert!(line(&out, "sum.c").contains("IE"), "{out}");
    // A checker with its own `main` that ends by an exception: a crash,
    // IE (not the JVM's exit 1, which testlib's protocol reads as WA).
    let s = Scratch::new();
    let crash = "public class Check {\n    public static void main(String[] args) {\n        throw new IllegalStateException(\"the checker broke\");\n    }\n}\n";
    let root = java_package(&s, crash);
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_ne!(ran.code, 0, "{out}");
    assert!(line(&out, "sum.c").contains("IE"), "{out}");
    assert!(!line(&out, "sum.c").contains("WA"), "{out}");
    // One that does not compile: an error naming the file, in javac's
    // words, and nothing judged.
    let s = Scratch::new();
    let broken = CHECK_JAVA.replace("return 0;\n    }\n}", "return 0\n    }\n}");
    let root = java_package(&s, &broken);
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 2, "{out}");
    assert!(out.contains("files/Check.java"), "{out}");
    assert!(out.contains("javac failed"), "{out}");
    assert!(out.contains("';' expected"), "javac's own words: {out}");
    assert!(!out.contains("difference.c"), "nothing judged: {out}");
}

#[test]
fn a_cpp_checker_beside_java_programs_still_judges() {
    if !java_here() {
        return;
    }
    let s = Scratch::new();
    let root = package(&s, "files/check.cpp", "cpp.g++17", CHECK_CPP);
    s.write("plus/files/mylib.jar", jar());
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(line(&out, "sum.c").contains("AC 2"), "{out}");
    assert!(line(&out, "difference.c").contains("WA"), "{out}");
}

/// PATH without `program`: the directories of the judge's PATH that do
/// not hold it.
fn path_without(program: &str) -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join(program).exists())
        .collect();
    std::env::join_paths(kept).unwrap()
}

#[test]
fn kotlin_and_pascal_programs_without_their_compilers_are_not_installed() {
    // Always runs: the compiler is taken off PATH when it is there.
    let a_cpp_checker_package = |s: &Scratch, checker: &str, kind: &str, text: &str| {
        let root = package(s, checker, kind, text);
        // No Java in this half: a C++ generator and validator.
        let xml = std::fs::read_to_string(root.join("problem.xml"))
            .unwrap()
            .replace(
                r#"<source path="files/Validate.java" type="java21"/>"#,
                r#"<source path="files/val.c" type="c.gcc"/>"#,
            )
            .replace(
                r#"<test cmd="Gen 10 20" method="generated"/>"#,
                r#"<test method="manual"/>"#,
            );
        std::fs::write(root.join("problem.xml"), xml).unwrap();
        s.write("plus/files/val.c", "int main(void) { return 0; }\n");
        s.write("plus/tests/02", "10 20\n");
        root
    };
    for (checker, kind, compiler, text) in [
        (
            "files/check.kt",
            "kotlin",
            "kotlinc",
            "fun main(args: Array<String>) {}\n",
        ),
        (
            "files/check.pas",
            "pas.fpc",
            "fpc",
            "program check;\nbegin\nend.\n",
        ),
        (
            "files/check.dpr",
            "delphi",
            "fpc",
            "program check;\nbegin\nend.\n",
        ),
    ] {
        let s = Scratch::new();
        let root = a_cpp_checker_package(&s, checker, kind, text);
        let mut cmd = s.judge();
        cmd.env("JUDGE_CACHE_DIR", s.path().join("cache"))
            .env("PATH", path_without(compiler))
            .args(["verify", root.to_str().unwrap()]);
        let ran = run(cmd);
        let out = all(&ran);
        assert_eq!(ran.code, 2, "{checker}: {out}");
        assert!(
            out.contains(&format!("{compiler} not installed")),
            "{checker}: {out}"
        );
        assert!(out.contains(checker), "{checker}: {out}");
        assert!(!out.contains("not executable"), "{checker}: {out}");
    }
}

/// The guess-the-number interactor of tests/polygon/guess in Java:
/// testlib's interactor protocol (`INPUT TOUT ANSWER`, the solution on its
/// standard streams), the number of queries into tout for the checker.
const INTERACTOR_JAVA: &str = r#"import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Paths;

public class Interactor {
    public static void main(String[] args) throws Exception {
        String[] input = new String(Files.readAllBytes(Paths.get(args[0]))).trim().split("\\s+");
        int n = Integer.parseInt(input[0]), secret = Integer.parseInt(input[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println(n);
        System.out.flush();
        for (int queries = 0; queries <= 20; queries++) {
            String line = in.readLine();
            if (line == null) { System.err.println("wrong output format no query"); System.exit(2); }
            String[] words = line.trim().split("\\s+");
            int x = Integer.parseInt(words[1]);
            if (words[0].equals("!")) {
                if (x != secret) { System.err.println("wrong answer guessed " + x); System.exit(1); }
                try (PrintWriter tout = new PrintWriter(args[1])) { tout.println(queries); }
                System.err.println("ok found in " + queries + " queries");
                System.exit(0);
            }
            System.out.println(x < secret ? "<" : x > secret ? ">" : "=");
            System.out.flush();
        }
        System.err.println("wrong answer more than 20 queries");
        System.exit(1);
    }
}
"#;

#[test]
fn a_java_interactor_talks_like_a_cpp_one() {
    if !java_here() {
        return;
    }
    let s = Scratch::new();
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polygon/guess");
    let root = s.copy_tree(&from, "guess");
    std::fs::remove_file(root.join("files/interactor.cpp")).unwrap();
    s.write("guess/files/Interactor.java", INTERACTOR_JAVA);
    let xml = std::fs::read_to_string(root.join("problem.xml"))
        .unwrap()
        .replace(
            r#"<source path="files/interactor.cpp" type="cpp.g++17"/>"#,
            r#"<source path="files/Interactor.java" type="java8"/>"#,
        );
    std::fs::write(root.join("problem.xml"), xml).unwrap();
    let ran = judge(&s, &["verify", root.to_str().unwrap()]);
    let out = all(&ran);
    assert_eq!(ran.code, 0, "{out}");
    assert!(line(&out, "bisect.py").contains("AC 3"), "{out}");
    assert!(
        line(&out, "linear.py").contains("AC 2 WA 1"),
        "linear search runs out of queries: {out}"
    );
}
