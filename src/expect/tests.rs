//! Expectations: folders, declarations, assessment.

use super::*;
use Verdict::*;

#[test]
fn folders_mean_what_kattis_means() {
    let wa = Expectation::of_folder("wrong_answer").unwrap();
    assert_eq!(wa.assess(&[Accepted, WrongAnswer]), Ok(()));
    assert_eq!(
        wa.assess(&[Accepted, Accepted]),
        Err(Disagreement::Missing {
            required: vec![WrongAnswer]
        })
    );
    assert_eq!(
        wa.assess(&[Accepted, TimeLimit, WrongAnswer]),
        Err(Disagreement::Forbidden {
            position: 1,
            verdict: TimeLimit
        })
    );
    let ac = Expectation::of_folder("accepted").unwrap();
    assert!(ac.is_accepted());
    assert_eq!(ac.assess(&[Accepted, Accepted]), Ok(()));
    assert!(ac.assess(&[Accepted, RuntimeError]).is_err());
    let ce = Expectation::of_folder("compile_error").unwrap();
    assert_eq!(ce.assess(&[CompileError]), Ok(()));
    assert!(ce.assess(&[Accepted]).is_err());
    assert!(
        Expectation::of_folder("time_limit_exceeded")
            .unwrap()
            .requires_time_limit()
    );
    assert!(Expectation::of_folder("rejected").is_none());
    assert_eq!(wa.to_string(), "WA");
}

#[test]
fn a_format_counts_mle_as_its_own_judge_does() {
    let re = Expectation::of_folder_in("run_time_error", Dialect::Kattis).unwrap();
    assert_eq!(re.assess(&[Accepted, MemoryLimit]), Ok(()));
    assert_eq!(re.assess(&[Accepted, OutputLimit]), Ok(()));
    let own = Expectation::of_folder("run_time_error").unwrap();
    assert!(own.assess(&[Accepted, MemoryLimit]).is_err());
    assert_eq!(
        Dialect::Kattis.show(MemoryLimit),
        "RE (MLE: Kattis counts it so)"
    );
    let ole = Expectation::of_folder_in("output_limit", Dialect::DomJudge).unwrap();
    assert_eq!(ole.assess(&[OutputLimit]), Ok(()));
    let ce = Expectation::of_folder_in("compiler_error", Dialect::DomJudge).unwrap();
    assert_eq!(ce.assess(&[CompileError]), Ok(()));
    let manual = Expectation::of_folder_in("check_manually", Dialect::DomJudge).unwrap();
    assert_eq!(manual.assess(&[TimeLimit, Accepted]), Ok(()));
    let rejected = Expectation::of_folder_in("rejected", Dialect::Kattis).unwrap();
    assert!(rejected.assess(&[Accepted]).is_err());
    assert_eq!(rejected.assess(&[Accepted, TimeLimit]), Ok(()));
    assert!(Expectation::of_folder_in("no_output", Dialect::Kattis).is_none());
    let partial = Expectation::of_folder_in("partially_accepted", Dialect::Kattis).unwrap();
    assert_eq!(partial.assess(&[Accepted, WrongAnswer]), Ok(()));
    assert!(partial.assess(&[Accepted, Accepted]).is_err());
    assert!(partial.assess(&[WrongAnswer, TimeLimit]).is_err());
}

#[test]
fn domjudge_expected_results() {
    let e = parse_expected_results(
        b"#include <x>\n// @EXPECTED_RESULTS@: TIMELIMIT, WRONG-ANSWER\nint main",
    )
    .unwrap()
    .unwrap();
    assert_eq!(e.permitted, Some(vec![Accepted, TimeLimit, WrongAnswer]));
    assert_eq!(e.required, Some(vec![TimeLimit, WrongAnswer]));
    assert!(e.assess(&[Accepted, MemoryLimit]).is_err());
    // DOMjudge's remapped Kattis names, in any case, spaced as they come.
    let kattis = parse_expected_results(b"// @EXPECTED_RESULTS@:   run_time_error , ACCEPTED  \n")
        .unwrap()
        .unwrap();
    assert_eq!(
        kattis.permitted,
        Some(vec![Verdict::RuntimeError, Verdict::Accepted])
    );
    let tle = parse_expected_results(b"// @EXPECTED_RESULTS@: TIME_LIMIT_EXCEEDED\n")
        .unwrap()
        .unwrap();
    assert_eq!(tle.required, Some(vec![Verdict::TimeLimit]));
    let ok = parse_expected_results(b"/* @EXPECTED_RESULTS@: CORRECT, TIMELIMIT */")
        .unwrap()
        .unwrap();
    assert_eq!(ok.required, None);
    assert_eq!(ok.assess(&[Accepted]), Ok(()));
    let ce = parse_expected_results(b"# @EXPECTED_RESULTS@: COMPILER-ERROR\n")
        .unwrap()
        .unwrap();
    assert_eq!(ce.permitted, Some(vec![CompileError]));
    assert_eq!(
        parse_expected_results(b"\n// @EXPECTED_RESULTS@: FAST\n")
            .unwrap_err()
            .to_string(),
        "2: @EXPECTED_RESULTS@: \"FAST\" is not a DOMjudge result (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, COMPILER-ERROR, NO-OUTPUT, OUTPUT-LIMIT)"
    );
    // Prose naming the tag with its colon, then the real line: refused as
    // DOMjudge refuses it, naming both lines.
    assert_eq!(
        parse_expected_results(
            b"'''\nhow to use the @EXPECTED_RESULTS@: tag.\n\n@EXPECTED_RESULTS@: CORRECT\n'''\n"
        )
        .unwrap_err()
        .to_string(),
        "4: @EXPECTED_RESULTS@: appears again on line 4 (first on line 2); a source may declare its expected results once"
    );
    assert_eq!(parse_expected_results(b"int main").unwrap(), None);
    let old_tag = parse_expected_results(b"\"\"\"\n@EXPECTED_SCORE@: CORRECT\n\"\"\"\n")
        .unwrap()
        .unwrap();
    assert_eq!(old_tag.permitted, Some(vec![Accepted]));
}

#[test]
fn declarations_in_every_comment_style() {
    for source in [
        "// judge: permitted AC TLE, required TLE\nint main",
        "# judge: permitted AC TLE; required TLE\n",
        "#!/usr/bin/env python3\n# judge: permitted AC TLE, required TLE\n",
        "{ judge: permitted AC TLE, required TLE }\nbegin end.",
        "(* judge: permitted AC time_limit_exceeded, required TLE *)",
        "/* judge: permitted ac tle, required tle */",
    ] {
        let e = parse_declaration(source.as_bytes()).unwrap().expect(source);
        assert_eq!(e.permitted, Some(vec![Accepted, TimeLimit]), "{source}");
        assert_eq!(e.required, Some(vec![TimeLimit]), "{source}");
        assert_eq!(e.to_string(), "permitted AC TLE, required TLE");
    }
    let only = parse_declaration(b"// judge: permitted AC TLE\n")
        .unwrap()
        .unwrap();
    assert_eq!(only.required, None);
    assert_eq!(only.assess(&[Accepted, Accepted]), Ok(()));
    assert_eq!(parse_declaration(b"#include <stdio.h>\n").unwrap(), None);
    assert_eq!(parse_declaration(b"// a judge: comment\n").unwrap(), None);
    assert!(parse_declaration(b"// judge: allowed AC\n").is_err());
    assert!(parse_declaration(b"// judge: permitted AC IE\n").is_err());
    assert!(parse_declaration(b"// judge: permitted XYZ\n").is_err());
    assert_eq!(
        parse_declaration(b"# judge: required RTE\n")
            .unwrap()
            .unwrap()
            .required,
        Some(vec![RuntimeError])
    );
}

#[test]
fn a_node_covers_its_cases_and_the_cases_below_it() {
    let node = |pattern: &str| NodeExpectation {
        pattern: pattern.to_string(),
        permitted: None,
        required: None,
    };
    let covers = |pattern: &str, case: &str| {
        NodeExpectation::covers(&node(pattern).matcher().unwrap(), case)
    };
    assert!(covers("sample", "sample/1.in"));
    assert!(covers("sample/1", "sample/1.in"));
    assert!(!covers("sample/1", "sample/10.in"));
    assert!(covers("secret/*/huge", "secret/g1/huge/3.in"));
    assert!(covers("secret/*/huge", "secret/g1/huge.in"));
    assert!(
        !covers("secret/*/huge", "secret/a/b/huge/3.in"),
        "* stays in one part"
    );
    assert!(covers("*/sample/foo", "x/sample/foo.in"));
    assert!(!covers("secret", "sample/1.in"));
    assert!(node("secret/[").matcher().is_err());
}

#[test]
fn two_entries_on_one_node_both_hold() {
    let rule = |permitted: Option<Vec<Verdict>>, required: Option<Vec<Verdict>>| SubmissionRule {
        nodes: vec![NodeExpectation {
            pattern: "sample".to_string(),
            permitted,
            required,
        }],
        ..SubmissionRule::new("wrong_answer/*")
    };
    let first = rule(Some(vec![Accepted]), None);
    let second = rule(None, Some(vec![Accepted]));
    let e =
        Expectation::with_rules(Some("wrong_answer"), &[&first, &second], Dialect::Kattis).unwrap();
    assert_eq!(e.nodes.len(), 2, "{e}");
    assert_eq!(e.nodes[0].permitted, Some(vec![Accepted]));
    assert_eq!(e.nodes[1].required, Some(vec![Accepted]));
}
