//! Builds of untrusted sources are untrusted runs (SECURITY.md): the
//! sources of `tests/hostile/build/` attack the judge through its compiler
//! — the hidden answer embedded or included at compile time, /etc/shadow
//! quoted in a compile error, the judge's environment embedded, a compile
//! that never ends, a build that leaves a symbolic link for the judge to
//! copy. The corpus of `tests/attacks.rs` compiles its programs itself;
//! here the judge builds the SOURCE (`--submission x.c`), each attack as
//! the tester (root in CI: the slot's user) and unprivileged (the user
//! namespace), where that mode applies.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// A distinctive answer: found in an output only if the attack read it.
const ANSWER: &str = "hidden_answer_5c1e7b\n";

/// The judge's secret environment variable, and its value.
const SECRET_NAME: &str = "JUDGE_BUILD_TEST_SECRET";
const SECRET: &str = "s3cret_value_9d4a2f";

fn attack_source(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile/build")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One case whose answer is `answer`, the attack's source (its
/// placeholders filled in) as `file`, and the judge command to build and
/// judge it, as the tester or unprivileged.
fn stage(s: &Scratch, file: &str, source: &str, answer: &str, unprivileged: bool) -> Command {
    s.write("cases/1.in", "1\n");
    let answer_path = s.write("cases/1.ans", answer);
    let source = source
        .replace("@ANSWER@", &answer_path.display().to_string())
        .replace("@NAME@", SECRET_NAME);
    s.write(file, source);
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut c = if unprivileged {
        let c = unprivileged_judge(s);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        c
    } else {
        s.judge()
    };
    c.env("TMPDIR", &tmp).env(SECRET_NAME, SECRET).args([
        "run",
        "cases",
        "--check",
        "tokens",
        "--format",
        "json",
        "--submission",
        file,
    ]);
    c
}

fn modes() -> Vec<bool> {
    vec![false, true]
}

fn who(unprivileged: bool) -> &'static str {
    if unprivileged {
        "unprivileged"
    } else {
        "as the tester"
    }
}

/// The one case's verdict and message; the report must be there.
fn verdict(ran: &Ran, what: &str) -> (String, String) {
    let report = ran.json();
    let case = &report["cases"][0];
    let verdict = case["verdict"].as_str().unwrap_or("").to_string();
    assert!(
        verdict != "AC" && verdict != "IE",
        "{what}: the attack got {verdict}: {case:#}\nstderr: {}",
        ran.stderr
    );
    (verdict, case["message"].as_str().unwrap_or("").to_string())
}

/// `file`'s build attack is CE, as the tester and unprivileged, and the
/// hidden answer is nowhere in what the judge prints.
fn answer_never_reaches_the_report(file: &str) {
    for unprivileged in modes() {
        let s = Scratch::new();
        let source = attack_source(file);
        let ran = run(stage(&s, "attack.c", &source, ANSWER, unprivileged));
        let what = format!("{file} ({})", who(unprivileged));
        let (verdict, message) = verdict(&ran, &what);
        assert_eq!(verdict, "CE", "{what}: {message}");
        assert!(
            !ran.stdout.contains(ANSWER.trim()) && !ran.stderr.contains(ANSWER.trim()),
            "{what}: the answer reached the report:\n{}\n{}",
            ran.stdout,
            ran.stderr
        );
    }
}

#[test]
fn the_hidden_answer_embedded_at_compile_time_is_not_ac() {
    answer_never_reaches_the_report("incbin_answer.c");
}

#[test]
fn a_compile_error_does_not_quote_the_hidden_answer() {
    answer_never_reaches_the_report("include_answer.c");
}

#[test]
fn a_compile_error_does_not_quote_etc_shadow() {
    // Only a judge that can read it could leak it.
    let Some(first) = std::fs::read_to_string("/etc/shadow")
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .filter(|l| !l.trim().is_empty())
    else {
        eprintln!("skipped: /etc/shadow is not readable here");
        return;
    };
    let s = Scratch::new();
    let source = attack_source("include_shadow.c");
    let ran = run(stage(&s, "attack.c", &source, ANSWER, false));
    let (verdict, message) = verdict(&ran, "include_shadow.c");
    assert_eq!(verdict, "CE", "{message}");
    assert!(
        !ran.stdout.contains(&first) && !ran.stderr.contains(&first),
        "/etc/shadow reached the report:\n{}\n{}",
        ran.stdout,
        ran.stderr
    );
}

/// The build's environment is scrubbed: rustc's `include_bytes!` of
/// `/proc/self/environ` does not hold the judge's secret variable. (C's
/// `.incbin` and `#include` read a /proc file as empty.) Where rustc is
/// installed where the sandbox's users cannot run it (a rustup under a
/// private /root), the build is refused with a named error, and nothing
/// is leaked either way.
#[test]
fn the_judges_environment_is_not_embedded_by_rustc() {
    if !installed("rustc") {
        eprintln!("skipped: no rustc");
        return;
    }
    let s = Scratch::new();
    let source = attack_source("environ.rs");
    let ran = run(stage(&s, "attack.rs", &source, SECRET, false));
    if ran.stderr.contains("cannot be run by the sandbox's users") {
        assert!(!ran.stderr.contains(SECRET), "{}", ran.stderr);
        eprintln!(
            "rustc is not runnable by the sandbox's users here: {}",
            ran.stderr
        );
        return;
    }
    let (verdict, message) = verdict(&ran, "environ.rs");
    assert_eq!(verdict, "WA", "{message}");
    assert!(
        message.starts_with("output ends after 0 tokens"),
        "{message}"
    );
}

/// A compile that never ends is stopped at the compile time limit, named.
#[test]
fn a_compile_that_never_ends_is_stopped_by_its_limit() {
    if !installed("g++") {
        eprintln!("skipped: no g++");
        return;
    }
    for unprivileged in modes() {
        let s = Scratch::new();
        s.write("judge.toml", "compile_time_limit = \"2s\"\n");
        let started = std::time::Instant::now();
        let ran = run(stage(
            &s,
            "attack.cpp",
            &attack_source("spin.cpp"),
            ANSWER,
            unprivileged,
        ));
        let what = format!("spin.cpp ({})", who(unprivileged));
        let (verdict, message) = verdict(&ran, &what);
        assert_eq!(verdict, "CE", "{what}: {message}");
        assert_eq!(
            message, "compile error: compilation passed the compile time limit of 2s",
            "{what}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "{what}"
        );
    }
}

/// A build that leaves a symbolic link where its program should be (to
/// the hidden answer, or to a file only the judge can read) is CE: the
/// judge copies regular files only, never through a link. The language is
/// one whose build is a script of the submission's (judge.toml's).
#[test]
fn a_build_that_leaves_a_symbolic_link_is_ce() {
    for unprivileged in modes() {
        let s = Scratch::new();
        s.write(
            "judge.toml",
            "[language.script]\nextensions = [\"script\"]\ncompile = \"sh {src}\"\nrun = \"{bin}\"\n",
        );
        let source = "ln -s @ANSWER@ attack\n";
        let ran = run(stage(&s, "attack.script", source, ANSWER, unprivileged));
        let what = format!("a linked build ({})", who(unprivileged));
        let (verdict, message) = verdict(&ran, &what);
        assert_eq!(verdict, "CE", "{what}: {message}");
        assert_eq!(
            message,
            "compile error: the build left `attack`, a symbolic link (the judge takes regular files only)",
            "{what}"
        );
    }
}

/// The languages still build in the sandbox, in both modes: C, C++,
/// Java, Python's syntax check (each where installed).
#[test]
fn honest_builds_still_work_in_the_sandbox() {
    const JAVA: &str = "import java.util.*;\npublic class Main { public static void main(String[] a) { Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + 1); } }\n";
    let sources = [
        (
            "gcc",
            "sol.c",
            "#include <stdio.h>\nint main(void){int n;scanf(\"%d\",&n);printf(\"%d\\n\",n+1);}\n",
        ),
        (
            "g++",
            "sol.cpp",
            "#include <iostream>\nint main(){int n;std::cin>>n;std::cout<<n+1<<\"\\n\";}\n",
        ),
        ("javac", "Main.java", JAVA),
        ("python3", "sol.py", "print(int(input()) + 1)\n"),
    ];
    for unprivileged in modes() {
        for (tool, file, source) in sources {
            if !installed(tool) {
                continue;
            }
            let s = Scratch::new();
            let ran = run(stage(&s, file, source, "2\n", unprivileged));
            let report = ran.json();
            assert_eq!(
                report["cases"][0]["verdict"],
                "AC",
                "{file} ({}): {:#}\n{}",
                who(unprivileged),
                report["cases"][0],
                ran.stderr
            );
        }
    }
}
