use super::read::format_pattern;
use super::tag_expectation;
use crate::verdict::Verdict;

#[test]
fn path_patterns_as_printf_writes_them() {
    assert_eq!(format_pattern("tests/%02d", 7).unwrap(), "tests/07");
    assert_eq!(format_pattern("tests/%02d.a", 12).unwrap(), "tests/12.a");
    assert_eq!(format_pattern("t/%d%%", 3).unwrap(), "t/3%");
    assert_eq!(format_pattern("t/%03d", 5).unwrap(), "t/005");
    assert!(format_pattern("t/%s", 1).unwrap_err().contains("only %d"));
}

#[test]
fn tags_mean_what_polygon_means() {
    let assess = |tag: &str, v: &[Verdict]| tag_expectation(tag).unwrap().assess(v).is_ok();
    use Verdict::*;
    assert!(assess("main", &[Accepted, Accepted]));
    assert!(!assess("accepted", &[Accepted, TimeLimit]));
    assert!(assess("rejected", &[Accepted, MemoryLimit]));
    assert!(!assess("rejected", &[Accepted]));
    assert!(assess("wrong-answer", &[Accepted, WrongAnswer]));
    assert!(!assess("wrong-answer", &[TimeLimit]));
    assert!(assess("presentation-error", &[PresentationError]));
    assert!(assess("time-limit-exceeded-or-accepted", &[Accepted]));
    assert!(assess("time-limit-exceeded-or-accepted", &[TimeLimit]));
    assert!(assess(
        "time-limit-exceeded-or-memory-limit-exceeded",
        &[MemoryLimit]
    ));
    assert!(!assess("memory-limit-exceeded", &[TimeLimit]));
    assert!(assess("failed", &[Accepted, RuntimeError]));
    assert!(tag_expectation("maybe").is_none());
}

#[test]
fn problem_xml_errors_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("problem.xml"),
        "<problem>\n<judging>\n<testset name=\"tests\">\n<time-limit>fast</time-limit>\n</testset></judging></problem>\n",
    )
    .unwrap();
    let err = super::describe(dir.path()).unwrap_err();
    assert!(err.contains("problem.xml:4: <time-limit>"), "{err}");
}
