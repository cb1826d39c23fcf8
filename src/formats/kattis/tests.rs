//! Reading packages: limits, validator flags, programs, errors.

use super::*;
use std::time::Duration;

/// A package directory holding these files.
pub(super) fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn limits_and_default_validator_flags() {
    let dir = package(&[(
        "problem.yaml",
        "name: Hello\nsource: NCPC\nvalidator_flags: float_tolerance 1e-6 case_sensitive\nlimits:\n  time_limit: 2.5\n  memory: 512\n  output: 16\n  time_multiplier: 5\n",
    )]);
    let p = load(dir.path()).unwrap();
    assert_eq!(p.limits.time_limit, Some(Duration::from_millis(2500)));
    assert_eq!(p.limits.memory, 512 << 20);
    assert_eq!(p.limits.output, 16 << 20);
    assert!(p.output_validator.is_none());
    assert_eq!(
        p.default_check,
        DefaultCheck {
            case_sensitive: true,
            space_change_sensitive: false,
            float_absolute: Some(1e-6),
            float_relative: Some(1e-6),
        }
    );
}

#[test]
fn a_domjudge_ini_gives_the_time_limit_when_nothing_else_does() {
    let dir = package(&[
        ("problem.yaml", "name: Hello\n"),
        (
            "domjudge-problem.ini",
            "name='Hello'\ntimelimit='2.5'\ncolor='#ff0000'\n",
        ),
    ]);
    let p = load(dir.path()).unwrap();
    assert_eq!(p.limits.time_limit, Some(Duration::from_millis(2500)));
    assert_eq!(p.limits.time_limit_from, "domjudge-problem.ini timelimit");
    let dir = package(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = soon\n"),
    ]);
    // Warned and passed over (issue 43): the limit is then derived.
    let p = load(dir.path()).unwrap();
    assert_eq!(p.limits.time_limit, None);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("domjudge-problem.ini:1: timelimit") && w.contains("not used")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn empty_yaml_timelimit_file_and_format_defaults() {
    let dir = package(&[("problem.yaml", ""), (".timelimit", "3\n")]);
    let p = load(dir.path()).unwrap();
    assert_eq!(p.limits.time_limit, Some(Duration::from_secs(3)));
    assert_eq!(p.limits.memory, DEFAULT_MEMORY_MIB << 20);
    assert_eq!(p.limits.output, DEFAULT_OUTPUT_MIB << 20);
}

#[test]
fn custom_validation_and_programs() {
    let dir = package(&[
        (
            "problem.yaml",
            "validation: custom\nvalidator_flags: -x 3\n",
        ),
        ("output_validators/check/check.cpp", ""),
        ("input_validators/a.py", ""),
        ("input_validators/b/validate.cpp", ""),
        ("input_validators/testlib.h", ""),
        ("input_validators/c.ctd", ""),
    ]);
    let p = load(dir.path()).unwrap();
    let v = p.output_validator.unwrap();
    assert_eq!(v.display, "output_validators/check");
    assert_eq!(p.validator_flags, ["-x", "3"]);
    let names: Vec<&str> = p
        .input_validators
        .iter()
        .map(|t| t.display.as_str())
        .collect();
    assert_eq!(names, ["input_validators/a.py", "input_validators/b"]);
    assert!(p.warnings[0].contains("checktestdata"), "{:?}", p.warnings);
}

#[test]
fn package_root_is_the_package_or_holds_the_path_in_data() {
    let dir = package(&[
        ("problem.yaml", ""),
        ("data/secret/1.in", ""),
        ("input_validators/v.sh", ""),
    ]);
    let root = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(crate::formats::package_root(dir.path()), Some(root.clone()));
    assert_eq!(
        crate::formats::package_root(&dir.path().join("data/secret/1.in")),
        Some(root)
    );
    assert_eq!(
        crate::formats::package_root(&dir.path().join("input_validators")),
        None
    );
}

#[test]
fn errors_name_the_file_and_line() {
    let dir = package(&[("problem.yaml", "limits:\n  memory: lots\n")]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("problem.yaml:2:"), "{e}");
    let dir = package(&[("problem.yaml", "validation: custom interactive\n")]);
    assert!(
        load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("an interactive problem needs its output validator")
    );
    let dir = package(&[("problem.yaml", "validation: custom\n")]);
    assert!(
        load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("no program")
    );
    let dir = package(&[("problem.yaml", "validator_flags: fuzzy\n")]);
    assert!(
        load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("unknown flag \"fuzzy\"")
    );
    let dir = package(&[("problem.yaml", "type: submit-answer\n")]);
    assert!(
        load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("not supported")
    );
}
