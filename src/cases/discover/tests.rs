//! Finding cases: warnings, links, groups, packages.

use super::*;

/// The tests' own rule for what is a package: a directory with a
/// `package-marker` file (the judge's is `formats::package_of`).
fn marked(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    absolute
        .ancestors()
        .find(|dir| dir.join("package-marker").is_file())
        .map(Path::to_path_buf)
}

fn discover(root: &Path) -> Result<Discovery, DiscoveryError> {
    super::discover(root, marked)
}

fn discover_groups(root: &Path, groups: &[String]) -> Result<Discovery, DiscoveryError> {
    super::discover_groups(root, groups, marked)
}

#[test]
fn a_walk_shows_the_first_warnings_by_name_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..WARNINGS_KEPT + 5 {
        std::fs::write(dir.path().join(format!("{i}.in")), "1\n").unwrap();
    }
    let found = discover(dir.path()).unwrap();
    assert_eq!(found.cases.len(), WARNINGS_KEPT + 5);
    assert_eq!(
        found.warnings.len(),
        WARNINGS_KEPT + 1,
        "{:?}",
        found.warnings
    );
    assert!(found.warnings[0].ends_with(": 0.in has no answer file (.ans or .out)"));
    assert!(found.warnings[99].contains(": 99.in has no answer"));
    assert!(
        found.warnings[100]
            .ends_with(": 5 more warnings like these (the first 100 by name are shown)"),
        "{}",
        found.warnings[100]
    );
}

#[test]
fn an_ans_and_an_out_are_one_warning_outside_a_package_and_none_in_one() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["loose/1.in", "loose/1.ans", "loose/1.out"] {
        let path = dir.path().join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "1\n").unwrap();
    }
    let found = discover(&dir.path().join("loose")).unwrap();
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.contains("both 1.ans and 1.out")),
        "{:?}",
        found.warnings
    );
    // In a package, the .out is the statement's output (2023-07+).
    std::fs::create_dir_all(dir.path().join("pkg/data/sample")).unwrap();
    std::fs::write(dir.path().join("pkg/package-marker"), "").unwrap();
    for f in ["1.in", "1.ans", "1.out"] {
        std::fs::write(dir.path().join("pkg/data/sample").join(f), "1\n").unwrap();
    }
    let found = discover(&dir.path().join("pkg/data/sample")).unwrap();
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
}

#[test]
fn a_dangling_link_is_an_error_only_as_a_case_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("1.in"), "1\n").unwrap();
    std::fs::write(dir.path().join("1.ans"), "1\n").unwrap();
    // Not read by the judge: passed over.
    std::os::unix::fs::symlink("2.in", dir.path().join("2.in.download")).unwrap();
    std::os::unix::fs::symlink("gone.png", dir.path().join("1.png")).unwrap();
    let found = discover(dir.path()).unwrap();
    assert_eq!(found.cases.len(), 1);
    // A case's settings or a group's directory: errors.
    for settings in ["1.yaml", "group"] {
        let link = dir.path().join(settings);
        std::os::unix::fs::symlink("gone", &link).unwrap();
        assert!(discover(dir.path()).is_err(), "{settings}");
        std::fs::remove_file(&link).unwrap();
    }
    // A case's input: an error naming the link and its target.
    std::os::unix::fs::symlink("gone.in", dir.path().join("3.in")).unwrap();
    let Err(DiscoveryError::Unreadable(errors)) = discover(dir.path()) else {
        panic!("a dangling case file is an error");
    };
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].ends_with("3.in: a symbolic link to gone.in, which does not exist"),
        "{errors:?}"
    );
}

#[test]
fn groups_keep_their_order_and_sort_within() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["secret/10.in", "secret/9.in", "sample/2.in", "sample/1.in"] {
        let path = dir.path().join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "1\n").unwrap();
        std::fs::write(path.with_extension("ans"), "1\n").unwrap();
    }
    let groups = [
        "sample".to_string(),
        "secret".to_string(),
        "missing".to_string(),
    ];
    let found = discover_groups(dir.path(), &groups).unwrap();
    let cases = found.cases.to_vec();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["sample/1.in", "sample/2.in", "secret/9.in", "secret/10.in"]
    );
    assert_eq!(cases[3].input, dir.path().join("secret/10.in"));
    assert_eq!(cases[3].answer, Some(dir.path().join("secret/10.ans")));
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
}

#[test]
fn a_single_file_root_is_one_case_named_by_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.in");
    std::fs::write(&input, "1\n").unwrap();
    std::fs::write(dir.path().join("x.out"), "1\n").unwrap();
    let found = discover(&input).unwrap();
    let cases = found.cases.to_vec();
    assert_eq!(cases[0].name, "x.in");
    assert_eq!(cases[0].input, input);
    assert_eq!(cases[0].answer, Some(dir.path().join("x.out")));
}

#[test]
fn a_case_costs_twelve_bytes_and_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3000;
    for i in 0..n {
        std::fs::write(dir.path().join(format!("case-{i}.in")), "1\n").unwrap();
        std::fs::write(dir.path().join(format!("case-{i}.ans")), "1\n").unwrap();
    }
    let found = discover(dir.path()).unwrap();
    let names: usize = (0..n).map(|i| format!("case-{i}.in").len()).sum();
    assert_eq!(found.cases.len(), n);
    assert!(
        found.cases.heap_bytes() <= 12 * n + names + 64,
        "{} bytes for {n} cases whose names take {names}",
        found.cases.heap_bytes()
    );
}
