use super::read::format_pattern;
use super::tag_expectation;
use crate::verdict::Verdict;

#[test]
fn path_patterns_as_printf_writes_them() {
    assert_eq!(format_pattern("tests/%02d", 7).unwrap(), "tests/07");
    assert_eq!(format_pattern("tests/%02d.a", 12).unwrap(), "tests/12.a");
    assert_eq!(format_pattern("t/%d%%", 3).unwrap(), "t/3%");
    assert_eq!(format_pattern("t/%03d", 5).unwrap(), "t/005");
    assert!(
        format_pattern("t/%s", 1)
            .unwrap_err()
            .to_string()
            .contains("only %d")
    );
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
    let err = super::describe(dir.path()).unwrap_err().to_string();
    assert!(err.contains("problem.xml:4: <time-limit>"), "{err}");
}

#[test]
fn groups_become_subtasks_with_their_policies_and_dependencies() {
    use super::read::{Group, Method, PointsPolicy, Test, Testset};
    use crate::score::ScoringPlan;
    use crate::score::subtasks::Aggregation;
    let test = |index, group: &str, points| Test {
        index,
        method: Method::Manual,
        cmd: None,
        from_file: None,
        sample: false,
        group: Some(group.to_string()),
        points: Some(points),
    };
    let group = |name: &str, policy, points, deps: &[&str]| Group {
        name: name.to_string(),
        points,
        policy,
        feedback: None,
        dependencies: deps.iter().map(|d| d.to_string()).collect(),
    };
    let set = Testset {
        script_error: None,
        time_limit: std::time::Duration::from_secs(1),
        memory: 256 << 20,
        input_pattern: "tests/%02d".into(),
        answer_pattern: "tests/%02d.a".into(),
        tests: vec![test(1, "a", 10.0), test(2, "a", 30.0), test(3, "b", 0.0)],
        groups: vec![
            group("a", PointsPolicy::EachTest, None, &[]),
            group("b", PointsPolicy::CompleteGroup, Some(60.0), &["a"]),
        ],
    };
    let Some(ScoringPlan::Subtasks(plan)) =
        super::scoring::plan(&set, std::path::Path::new("problem.xml")).unwrap()
    else {
        panic!("a scoring plan");
    };
    let names: Vec<&str> = plan.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        names,
        ["a/01", "a/02", "b"],
        "unequal each-test points: a subtask each"
    );
    assert_eq!(plan.groups[2].require_pass, ["a/01", "a/02"]);
    assert_eq!(plan.groups[2].aggregation, Aggregation::PassFail);
    assert_eq!(plan.groups[2].max_score, Some(60.0));
    assert_eq!(plan.total.max_score, Some(100.0));
}

#[test]
fn what_polygon_writes_passes_quietly_and_the_rest_is_named_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let xml = r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="x" url="https://polygon.example/x">
    <names><name language="english" value="X"/></names>
    <statements><statement charset="UTF-8" language="english" path="s.tex" type="application/x-tex"/></statements>
    <judging cpu-name="cpu" cpu-speed="3600" input-file="" output-file="" run-count="2">
        <testset name="tests">
            <time-limit>1000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>1</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests><test method="manual" sample="true" colour="red"/></tests>
        </testset>
    </judging>
    <files><executables><executable><source path="files/g.cpp" type="cpp.g++17"/><binary path="files/g.exe" type="exe.win32"/></executable></executables></files>
    <assets>
        <checker name="std::wcmp.cpp" type="testlib"><copy path="check.cpp"/><testset><test-count>0</test-count><tests/></testset></checker>
        <solutions><solution note="n" tag="main"><source path="solutions/a.cpp" type="cpp.g++17"/></solution></solutions>
    </assets>
    <properties><property name="tests-wellformed" value="true"/><property name="odd" value="1"/></properties>
    <stresses><stress-count>0</stress-count><stress-path-pattern>stresses/%03d</stress-path-pattern><list/></stresses>
    <tags><tag value="math"/></tags>
    <novelty/>
</problem>
"#;
    std::fs::write(dir.path().join("problem.xml"), xml).unwrap();
    let (_, warnings) = super::describe(dir.path()).unwrap();
    let all = warnings.join("\n");
    assert!(all.contains("problem.xml:12: <test colour=…>"), "{all}");
    assert!(all.contains("problem.xml:23: <novelty>"), "{all}");
    assert!(
        all.contains("problem.xml:5: <judging run-count=\"2\">"),
        "{all}"
    );
    assert!(
        all.contains("problem.xml:20: <property name=\"odd\">"),
        "{all}"
    );
    assert_eq!(warnings.len(), 4, "{all}");
}
