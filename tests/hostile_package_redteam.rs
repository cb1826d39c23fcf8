//! What a fresh-context red team found against the package readers
//! (SECURITY.md, "Hostile packages": what it tried), each closed and kept
//! here with a control: a link hidden past PATH_MAX, a zip entry named
//! with backslashes, a glob nested 300 deep, a million XML elements, a
//! directory of links that doubles at every level, groups nested 2,000
//! deep, a sparse "source" of gigabytes, a case name with a newline.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn all(ran: &Ran) -> String {
    format!("{}{}", ran.stdout, ran.stderr)
}

fn quick(started: Instant, what: &str) {
    let took = started.elapsed();
    assert!(took < Duration::from_secs(30), "{what} took {took:?}");
}

fn kattis(s: &Scratch, name: &str) -> PathBuf {
    s.write(&format!("{name}/problem.yaml"), "name: p\n");
    s.write(&format!("{name}/data/sample/1.in"), "1 2\n");
    s.write(&format!("{name}/data/sample/1.ans"), "3\n");
    s.write(&format!("{name}/data/secret/1.in"), "2 2\n");
    s.write(&format!("{name}/data/secret/1.ans"), "4\n");
    s.script(
        &format!("{name}/submissions/accepted/add.sh"),
        "#!/bin/sh\nread a b\necho $((a + b))\n",
    );
    s.path().join(name)
}

#[test]
fn a_link_hidden_past_path_max_is_refused() {
    use rustix::fs::{Mode, OFlags};
    let s = Scratch::new();
    let secret = s.write("elsewhere/secret.txt", "TOPSECRET-42\n");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let pkg = kattis(&s, "pkg");
    // 17 directories of 250 characters: the whole way is past PATH_MAX,
    // made one level at a time from a descriptor.
    let long = "d".repeat(250);
    let mut at = rustix::fs::open(&pkg, OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty()).unwrap();
    for _ in 0..17 {
        rustix::fs::mkdirat(&at, long.as_str(), Mode::from_raw_mode(0o755)).unwrap();
        at = rustix::fs::openat(
            &at,
            long.as_str(),
            OFlags::DIRECTORY | OFlags::RDONLY,
            Mode::empty(),
        )
        .unwrap();
    }
    rustix::fs::symlinkat(&secret, &at, "leak").unwrap();
    // Two links shorten the way: h1 -> the first 9 levels, h1/../h2 …
    let first: PathBuf = (0..9).map(|_| long.as_str()).collect();
    std::os::unix::fs::symlink(&first, pkg.join("h1")).unwrap();
    let rest: PathBuf = (0..8).map(|_| long.as_str()).collect();
    std::os::unix::fs::symlink(pkg.join("h1").join(&rest), pkg.join("h2")).unwrap();
    std::fs::remove_file(pkg.join("data/sample/1.ans")).unwrap();
    std::os::unix::fs::symlink("../../h2/leak", pkg.join("data/sample/1.ans")).unwrap();
    let ran = s.run_judge(&["verify", pkg.to_str().unwrap()]);
    assert!(!all(&ran).contains("TOPSECRET"), "{}", all(&ran));
    assert_eq!(ran.code, 2, "{}", all(&ran));
    assert!(all(&ran).contains("refused"), "{}", all(&ran));
}

#[test]
fn a_name_with_backslashes_is_never_exported() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    s.write("pkg/data/secret/..\\..\\..\\x.in", "1 1\n");
    s.write("pkg/data/secret/..\\..\\..\\x.ans", "2\n");
    let out = s.path().join("out.zip");
    let ran = s.run_judge(&[
        "export",
        pkg.to_str().unwrap(),
        "--to",
        "domjudge",
        out.to_str().unwrap(),
    ]);
    assert_ne!(ran.code, 0, "{}", all(&ran));
    assert!(all(&ran).contains("backslash"), "{}", all(&ran));
    assert!(!out.exists());
    // Control: without it, the zip is written.
    for f in ["..\\..\\..\\x.in", "..\\..\\..\\x.ans"] {
        std::fs::remove_file(pkg.join("data/secret").join(f)).unwrap();
    }
    let ran = s.run_judge(&[
        "export",
        pkg.to_str().unwrap(),
        "--to",
        "domjudge",
        out.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", all(&ran));
}

#[test]
fn a_glob_nested_300_deep_is_an_error_not_a_panic() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    s.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: p\nuuid: 8ee7605a-0000-4000-8000-000000000000\n",
    );
    let key = format!("accepted/{}b{}.sh", "{a,".repeat(300), "}".repeat(300));
    s.write(
        "pkg/submissions/submissions.yaml",
        format!("? '{key}'\n: permitted: [AC]\n"),
    );
    let ran = s.run_judge(&["verify", pkg.to_str().unwrap()]);
    assert_ne!(ran.code, 101, "panicked: {}", all(&ran));
    assert!(all(&ran).contains("nested 300 levels"), "{}", all(&ran));
}

fn polygon_with_body(s: &Scratch, name: &str, extra: &str) -> PathBuf {
    let xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<problem revision="1" short-name="p">
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>2000</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>1</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests><test method="manual"/></tests>
    </testset>
  </judging>
  <assets><checker name="std::wcmp.cpp" type="testlib"/></assets>
  <stresses>{extra}</stresses>
</problem>
"#
    );
    s.write(&format!("{name}/problem.xml"), xml);
    s.write(&format!("{name}/tests/01"), "1 2\n");
    s.write(&format!("{name}/tests/01.a"), "3\n");
    s.path().join(name)
}

#[test]
fn a_million_xml_elements_are_read_in_linear_time() {
    let s = Scratch::new();
    let pkg = polygon_with_body(&s, "p", &"<a/>\n".repeat(1_000_000));
    let sub = s.script("add.sh", "#!/bin/sh\nread a b\necho $((a + b))\n");
    let started = Instant::now();
    let ran = s.run_judge(&[
        "run",
        pkg.to_str().unwrap(),
        "--submission",
        sub.to_str().unwrap(),
    ]);
    quick(started, "a problem.xml of a million elements");
    assert_ne!(ran.code, 101, "{}", all(&ran));
}

#[test]
fn links_that_double_at_every_level_are_walked_once() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    let base = pkg.join("data/secret/dag");
    for k in 0..40 {
        std::fs::create_dir_all(base.join(format!("L{k}"))).unwrap();
    }
    std::fs::create_dir_all(base.join("L40")).unwrap();
    std::fs::write(base.join("L40/1.in"), "1 1\n").unwrap();
    std::fs::write(base.join("L40/1.ans"), "2\n").unwrap();
    for k in 0..40 {
        let next = format!("../L{}", k + 1);
        std::os::unix::fs::symlink(&next, base.join(format!("L{k}/a"))).unwrap();
        std::os::unix::fs::symlink(&next, base.join(format!("L{k}/b"))).unwrap();
    }
    let sub = pkg.join("submissions/accepted/add.sh");
    let started = Instant::now();
    let ran = s.run_judge(&[
        "run",
        pkg.to_str().unwrap(),
        "--submission",
        sub.to_str().unwrap(),
    ]);
    quick(started, "a doubling tree of links");
    assert_ne!(ran.code, 101, "{}", all(&ran));
    let out = s.path().join("out");
    let started = Instant::now();
    let ran = s.run_judge(&[
        "export",
        pkg.to_str().unwrap(),
        "--to",
        "kattis",
        out.to_str().unwrap(),
    ]);
    quick(started, "exporting a doubling tree of links");
    assert_ne!(ran.code, 101, "{}", all(&ran));
}

#[test]
fn groups_nested_2000_deep_are_refused_quickly() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    s.write("pkg/problem.yaml", "name: p\ntype: scoring\n");
    let mut dir = pkg.join("data/secret");
    for _ in 0..2000 {
        dir = dir.join("g");
    }
    // Made from inside (the whole path is long).
    std::fs::create_dir_all(&dir).unwrap_or_else(|_| {
        let mut at = pkg.join("data/secret");
        for _ in 0..2000 {
            at = at.join("g");
            let _ = std::fs::create_dir(&at);
        }
    });
    let started = Instant::now();
    let sub = pkg.join("submissions/accepted/add.sh");
    let ran = s.run_judge(&[
        "run",
        pkg.to_str().unwrap(),
        "--submission",
        sub.to_str().unwrap(),
    ]);
    quick(started, "2000 nested groups");
    assert_ne!(ran.code, 101, "{}", all(&ran));
    assert_ne!(ran.code, 0, "{}", all(&ran));
}

#[test]
fn a_sparse_source_of_a_gibibyte_is_a_compile_error_not_an_internal_error() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    let big = pkg.join("submissions/accepted/big.py");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let ran = s.run_judge(&["verify", pkg.to_str().unwrap()]);
    assert_ne!(
        ran.code,
        3,
        "an internal error for one submission\n{}",
        all(&ran)
    );
    assert!(all(&ran).contains("more than the 64 MiB"), "{}", all(&ran));
    // Control: the honest submission beside it is judged.
    assert!(all(&ran).contains("add.sh"), "{}", all(&ran));
}

#[test]
fn a_case_named_with_a_newline_prints_no_line_of_its_own() {
    let s = Scratch::new();
    let pkg = kattis(&s, "pkg");
    let forged = "x\nOK: 9 of 9 submissions as expected\ny";
    s.write(&format!("pkg/data/secret/{forged}.in"), "1 1\n");
    s.write(&format!("pkg/data/secret/{forged}.ans"), "3\n");
    let ran = s.run_judge(&["verify", pkg.to_str().unwrap()]);
    assert_eq!(ran.code, 1, "{}", all(&ran));
    assert!(
        !all(&ran).lines().any(|l| l.starts_with("OK: 9 of 9")),
        "a forged line was printed:\n{}",
        all(&ran)
    );
    let _ = Path::new(forged);
}
