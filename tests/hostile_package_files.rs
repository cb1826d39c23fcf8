//! A package as the attacker (issue 37, SECURITY.md "Hostile packages"):
//! problem.xml paths and patterns that leave the package, links in it that
//! lead out (dangling or not, at any depth), group names that are paths, a
//! width that would panic. Each attack is tried with `judge gen`, `run`
//! and `export` as they apply; each has a control, the honest package
//! beside it, which still works. Run as root in CI (the judge can read
//! everything), and, where that differs, as an unprivileged user.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

/// A small Polygon package in `s` at `name`: one manual test (its input
/// given, its answer made by the main solution), `std::wcmp` as checker,
/// shell solutions. `edit` changes problem.xml's text before it is
/// written.
fn polygon(s: &Scratch, name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<problem revision="1" short-name="p">
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>2000</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>1</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>
        <test method="manual" group="g1" points="100"/>
      </tests>
      <groups>
        <group name="g1" points="100" points-policy="complete-group"/>
      </groups>
    </testset>
  </judging>
  <files>
    <executables/>
  </files>
  <assets>
    <checker name="std::wcmp.cpp" type="testlib"/>
    <solutions>
      <solution tag="main"><source path="solutions/main.sh" type="shell"/></solution>
    </solutions>
  </assets>
</problem>
"#;
    s.write(&format!("{name}/problem.xml"), edit(xml.to_string()));
    s.write(&format!("{name}/tests/01"), "1 2\n");
    s.script(
        &format!("{name}/solutions/main.sh"),
        "#!/bin/sh\nread a b\necho $((a + b))\n",
    );
    s.path().join(name)
}

/// A file outside every package, with a secret in it, readable by its
/// owner only.
fn secret(s: &Scratch) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = s.write("elsewhere/secret.txt", "TOPSECRET-7731\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path
}

fn no_secret(ran: &Ran, what: &str) {
    assert!(
        !all(ran).contains("TOPSECRET"),
        "{what}: the secret was quoted\n{}",
        all(ran)
    );
    assert_ne!(ran.code, 101, "{what}: the judge panicked\n{}", all(ran));
}

fn submission(s: &Scratch) -> PathBuf {
    s.script("wrong.sh", "#!/bin/sh\necho 4\n")
}

#[test]
fn item1_path_patterns_that_leave_the_package_are_named_errors() {
    let s = Scratch::new();
    secret(&s);
    let honest = polygon(&s, "honest", |x| x);
    let ran = s.run_judge(&["gen", honest.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert_eq!(
        std::fs::read_to_string(honest.join("tests/01.a")).unwrap(),
        "3\n"
    );
    for (name, pattern) in [
        ("up", "../elsewhere/secret.txt"),
        ("up2", "tests/../../elsewhere/%02d"),
        ("abs", "/tmp/judge-hostile-%02d"),
    ] {
        let pkg = polygon(&s, name, |x| {
            x.replace("tests/%02d.a<", &format!("{pattern}<"))
        });
        for args in [
            vec!["gen", pkg.to_str().unwrap()],
            vec![
                "run",
                pkg.to_str().unwrap(),
                "--submission",
                submission(&s).to_str().unwrap(),
            ],
        ] {
            let ran = s.run_judge(&args);
            no_secret(&ran, name);
            assert_eq!(ran.code, 2, "{name} {args:?}: {}", all(&ran));
            assert!(
                all(&ran).contains("problem.xml:") && all(&ran).contains("pattern="),
                "{name}: the error names problem.xml, its line and the pattern\n{}",
                all(&ran)
            );
        }
        assert!(!Path::new("/tmp/judge-hostile-01").exists());
    }
    // Nothing was written beside the secret.
    let beside: Vec<_> = std::fs::read_dir(s.path().join("elsewhere"))
        .unwrap()
        .collect();
    assert_eq!(beside.len(), 1);
}

#[test]
fn item2_a_dangling_link_in_the_package_is_never_written_through() {
    let s = Scratch::new();
    let pkg = polygon(&s, "p", |x| x);
    let planted = s.path().join("elsewhere/planted");
    std::fs::create_dir_all(planted.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&planted, pkg.join("tests/01.a")).unwrap();
    let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
    assert_ne!(ran.code, 0, "{}", all(&ran));
    assert!(all(&ran).contains("symbolic link"), "{}", all(&ran));
    assert!(!planted.exists(), "gen wrote through the link");
    // A link to a directory outside, dangling below it.
    let pkg2 = polygon(&s, "q", |x| x.replace("tests/%02d.a", "out/%02d.a"));
    std::os::unix::fs::symlink(s.path().join("elsewhere"), pkg2.join("out")).unwrap();
    let ran = s.run_judge(&["gen", pkg2.to_str().unwrap()]);
    assert_ne!(ran.code, 0, "{}", all(&ran));
    assert!(
        !s.path().join("elsewhere/01.a").exists(),
        "gen wrote through out/"
    );
    // Control: without the link the answer is made.
    std::fs::remove_file(pkg.join("tests/01.a")).unwrap();
    let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert_eq!(
        std::fs::read_to_string(pkg.join("tests/01.a")).unwrap(),
        "3\n"
    );
}

/// Item 3: a Polygon test answer linked to a file only its owner may read.
fn polygon_link_to_a_secret(unprivileged: bool) {
    let s = Scratch::new();
    let secret = secret(&s);
    let pkg = polygon(&s, "p", |x| x);
    std::os::unix::fs::symlink(&secret, pkg.join("tests/01.a")).unwrap();
    let sub = submission(&s);
    let judge = |args: &[&str]| -> Ran {
        let mut c = if unprivileged {
            unprivileged_judge(&s)
        } else {
            s.judge()
        };
        // unprivileged_judge opens the scratch directory to all: the
        // secret is closed again, its owner's alone.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
        c.args(args);
        run(c)
    };
    let out = s.path().join("exported");
    for args in [
        vec![
            "run",
            pkg.to_str().unwrap(),
            "--submission",
            sub.to_str().unwrap(),
        ],
        vec![
            "export",
            pkg.to_str().unwrap(),
            "--to",
            "kattis",
            out.to_str().unwrap(),
        ],
    ] {
        let ran = judge(&args);
        no_secret(&ran, &format!("{args:?}"));
        assert_ne!(ran.code, 0, "{args:?}: {}", all(&ran));
        if !unprivileged {
            assert!(
                all(&ran).contains("leads outside the package"),
                "{args:?}: {}",
                all(&ran)
            );
        }
    }
    let copied = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter_map(Result::ok)
        .any(|e| std::fs::read(e.path()).is_ok_and(|b| b.starts_with(b"TOPSECRET")));
    assert!(!copied, "the secret was exported");
    // Control: a link that stays inside is judged (WA, as the submission
    // is wrong).
    std::fs::remove_file(pkg.join("tests/01.a")).unwrap();
    s.write("p/answers/one", "3\n");
    std::os::unix::fs::symlink("../answers/one", pkg.join("tests/01.a")).unwrap();
    let ran = judge(&[
        "run",
        pkg.to_str().unwrap(),
        "--submission",
        sub.to_str().unwrap(),
    ]);
    assert!(all(&ran).contains("WA"), "{}", all(&ran));
}

#[test]
fn item3_a_polygon_link_to_a_secret_is_refused_as_the_tester() {
    polygon_link_to_a_secret(false);
}

#[test]
fn item3_a_polygon_link_to_a_secret_is_refused_unprivileged() {
    polygon_link_to_a_secret(true);
}

#[test]
fn item4_a_leaking_link_deep_in_a_kattis_package_is_refused() {
    let s = Scratch::new();
    let secret = secret(&s);
    s.write("pkg/problem.yaml", "name: deep\n");
    let deep: String = (0..40).map(|_| "d/").collect();
    s.write(&format!("pkg/data/secret/{deep}1.in"), "1 2\n");
    s.write(&format!("pkg/data/secret/{deep}1.ans"), "3\n");
    let sub = submission(&s);
    // Control: judged at that depth (WA: the submission prints 4).
    let ran = s.run_judge(&["run", "pkg", "--submission", sub.to_str().unwrap()]);
    assert!(all(&ran).contains("WA"), "{}", all(&ran));
    let ans = s.path().join(format!("pkg/data/secret/{deep}1.ans"));
    std::fs::remove_file(&ans).unwrap();
    std::os::unix::fs::symlink(&secret, &ans).unwrap();
    let out = s.path().join("exported");
    for args in [
        vec!["run", "pkg", "--submission", sub.to_str().unwrap()],
        vec!["export", "pkg", "--to", "domjudge", out.to_str().unwrap()],
    ] {
        let ran = s.run_judge(&args);
        no_secret(&ran, &format!("{args:?}"));
        assert_ne!(ran.code, 0, "{args:?}: {}", all(&ran));
        assert!(
            all(&ran).contains("leads outside the package"),
            "{args:?}: {}",
            all(&ran)
        );
    }
    assert!(!out.exists());
}

#[test]
fn item5_solution_and_executable_paths_that_leave_are_refused() {
    let s = Scratch::new();
    s.write("elsewhere/steal.sh", "#!/bin/sh\necho 3\n");
    for (what, edit) in [
        (
            "absolute solution",
            format!(
                r#"<solution tag="accepted"><source path="{}" type="shell"/></solution>"#,
                s.path().join("elsewhere/steal.sh").display()
            ),
        ),
        (
            "solution with ..",
            r#"<solution tag="accepted"><source path="../elsewhere/steal.sh" type="shell"/></solution>"#.to_string(),
        ),
    ] {
        let pkg = polygon(&s, "p", |x| x.replace("</solutions>", &format!("{edit}</solutions>")));
        let out = s.path().join("out");
        for args in [
            vec!["gen", pkg.to_str().unwrap()],
            vec!["verify", pkg.to_str().unwrap()],
            vec!["export", pkg.to_str().unwrap(), "--to", "kattis", out.to_str().unwrap()],
        ] {
            let ran = s.run_judge(&args);
            assert_eq!(ran.code, 2, "{what} {args:?}: {}", all(&ran));
            assert!(all(&ran).contains("path="), "{what}: {}", all(&ran));
        }
        assert!(!out.exists(), "{what}: exported");
    }
    let pkg = polygon(&s, "e", |x| {
        x.replace(
            "<executables/>",
            r#"<executables><executable><source path="files/../../elsewhere/gen.c" type="c.gcc"/></executable></executables>"#,
        )
    });
    let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(all(&ran).contains("`..`"), "{}", all(&ran));
    // Control: the honest package exports.
    let pkg = polygon(&s, "ok", |x| x);
    let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    let out = s.path().join("ok-out");
    let ran = s.run_judge(&[
        "export",
        pkg.to_str().unwrap(),
        "--to",
        "kattis",
        out.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
}

#[test]
fn item6_group_names_that_are_paths_are_refused() {
    let s = Scratch::new();
    let victim = s.write("victim/test_group.yaml", "mine\n");
    for name in ["../../victim", "/tmp/judge-hostile-group", "a/b", ".."] {
        let pkg = polygon(&s, "p", |x| x.replace("\"g1\"", &format!("{name:?}")));
        let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
        assert_eq!(ran.code, 2, "{name}: {}", all(&ran));
        let out = s.path().join("out/x");
        let ran = s.run_judge(&[
            "export",
            pkg.to_str().unwrap(),
            "--to",
            "kattis",
            out.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{name}: {}", all(&ran));
        assert!(
            all(&ran).contains("problem.xml:") && all(&ran).contains("plain group name"),
            "{name}: {}",
            all(&ran)
        );
        assert!(!out.exists());
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
    assert!(!Path::new("/tmp/judge-hostile-group").exists());
}

#[test]
fn item10_a_huge_pattern_width_is_named_not_a_panic() {
    let s = Scratch::new();
    let sub = submission(&s);
    for width in ["%065536d", "%0999999999999999999999d", "%256d"] {
        let pkg = polygon(&s, "p", |x| {
            x.replace("tests/%02d.a", &format!("tests/{width}.a"))
        });
        for args in [
            vec!["gen", pkg.to_str().unwrap()],
            vec![
                "run",
                pkg.to_str().unwrap(),
                "--submission",
                sub.to_str().unwrap(),
            ],
            vec!["verify", pkg.to_str().unwrap()],
        ] {
            let ran = s.run_judge(&args);
            assert_eq!(ran.code, 2, "{width} {args:?}: {}", all(&ran));
            assert!(all(&ran).contains("a width of"), "{width}: {}", all(&ran));
        }
    }
    // Control: the widest allowed width is a pattern like any other.
    let pkg = polygon(&s, "w", |x| x.replace("tests/%02d.a", "tests/%03d.a"));
    let ran = s.run_judge(&["gen", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
    assert!(pkg.join("tests/001.a").is_file());
}
