//! `judge gen` reads and writes only inside the package (issue 27, item
//! 15): a `data/` (or a group directory in it) that is a symbolic link to
//! elsewhere, a `copy:` with `..` out of the package or whose file is a
//! link out of it, a generator or solution outside it, a manifest naming a
//! file outside for `--clean`: each a named error (or ignored), nothing
//! read from or written to outside.

mod common;
use common::*;

/// A package `pkg` whose generators.yaml has the given secret cases, and
/// a directory `outside` beside it with a secret file in it.
fn package(s: &Scratch, secret: &str) {
    s.write("pkg/problem.yaml", "name: Sum\n");
    s.script(
        "pkg/submissions/accepted/add.sh",
        "read a b\necho $((a + b))",
    );
    s.script("pkg/generators/gen.sh", "echo 1 2");
    s.write("pkg/generators/hand.in", "3 4\n");
    s.write(
        "pkg/generators/generators.yaml",
        format!("solution: /submissions/accepted/add.sh\ndata:\n  secret:\n    data:\n{secret}"),
    );
    s.write("outside/secret.in", "the operator's secret\n");
}

fn outside_files(s: &Scratch) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(s.path().join("outside"))
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir())
        .map(|e| e.path().display().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn a_data_directory_linked_outside_is_refused_and_nothing_written_there() {
    let s = Scratch::new();
    package(&s, "      - one: gen.sh\n");
    let before = outside_files(&s);
    std::os::unix::fs::symlink(s.path().join("outside"), s.path().join("pkg/data"))
        .expect("a link");
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_eq!(ran.code, 2, "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr.contains("leads outside the package"),
        "{}",
        ran.stderr
    );
    assert_eq!(outside_files(&s), before, "written outside the package");
    // A group directory inside data/ linked outside: the same.
    std::fs::remove_file(s.path().join("pkg/data")).expect("unlink");
    std::fs::create_dir(s.path().join("pkg/data")).expect("data/");
    std::os::unix::fs::symlink(s.path().join("outside"), s.path().join("pkg/data/secret"))
        .expect("a link");
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_ne!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(
        format!("{}{}", ran.stdout, ran.stderr).contains("leads outside the package"),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
    assert_eq!(outside_files(&s), before, "written outside the package");
}

#[test]
fn paths_out_of_the_package_are_named_errors_and_not_read() {
    for (secret, key, why) in [
        (
            "      - leak:\n          copy: ../../outside/secret\n",
            "copy",
            "outside the package",
        ),
        (
            "      - leak:\n          copy: /etc/hostname\n",
            "copy",
            "a path relative to generators/ is expected",
        ),
        (
            "      - leak: ../../outside/gen.sh\n",
            "generate",
            "outside the package",
        ),
        (
            "      - leak:\n          generate: gen.sh\n          solution: /../outside/add.sh\n",
            "solution",
            "outside the package",
        ),
    ] {
        let s = Scratch::new();
        package(&s, secret);
        // That case is `judge gen`'s failure (exit 1), the rest made;
        // nothing outside is read.
        let ran = s.run_judge(&["gen", "pkg"]);
        assert_eq!(ran.code, 1, "{secret}: {}{}", ran.stdout, ran.stderr);
        assert!(
            ran.stderr.contains(why) && ran.stderr.contains(key),
            "{secret}: {}",
            ran.stderr
        );
        assert!(!s.path().join("pkg/data/secret/leak.in").exists());
    }
}

#[test]
fn a_copy_whose_file_links_outside_is_refused() {
    let s = Scratch::new();
    package(&s, "      - leak:\n          copy: linked\n");
    std::os::unix::fs::symlink(
        s.path().join("outside/secret.in"),
        s.path().join("pkg/generators/linked.in"),
    )
    .expect("a link");
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_ne!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    let leaked = std::fs::read_to_string(s.path().join("pkg/data/secret/leak.in"));
    assert!(
        leaked.is_err(),
        "the file outside was copied in: {leaked:?}"
    );
    assert!(
        format!("{}{}", ran.stdout, ran.stderr).contains("leads outside the package"),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
}

#[test]
fn a_manifest_naming_a_file_outside_never_removes_it() {
    let s = Scratch::new();
    package(&s, "      - one: gen.sh\n");
    let ran = s.run_judge(&["gen", "pkg"]);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    // The sha256 of the file outside, as a manifest of the package claims
    // to own it.
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(b"the operator's secret\n")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let manifest = format!(
        "{{\"files\":{{\"../../outside/secret.in\":{{\"key\":\"x\",\"sha256\":\"{hash}\"}}}}}}"
    );
    s.write("pkg/data/.judge-gen.json", manifest);
    let ran = s.run_judge(&["gen", "pkg", "--clean"]);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(
        s.path().join("outside/secret.in").exists(),
        "--clean removed a file outside the package: {}",
        ran.stderr
    );
}
