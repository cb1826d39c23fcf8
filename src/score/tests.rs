use super::*;
use Verdict::*;

fn case(name: &str, verdict: Verdict) -> CaseInput<'_> {
    CaseInput {
        name,
        verdict,
        partial: None,
    }
}

fn with(name: &str, verdict: Verdict, partial: Partial) -> CaseInput<'_> {
    CaseInput {
        name,
        verdict,
        partial: Some(partial),
    }
}

fn group(name: &str, flags: &str, f: impl FnOnce(&mut GraderSettings)) -> GraderGroup {
    let mut settings = GraderSettings::default();
    assert!(settings.apply_flags(flags).is_empty(), "{flags}");
    f(&mut settings);
    GraderGroup {
        name: name.to_string(),
        settings,
        groups: Vec::new(),
    }
}

/// data (ignore_sample, continue) / sample, secret (accept_if_any, first_error,
/// continue, range 0 100) / g1 (min, accept 30), g2 (min, accept 70).
fn oddecho_like() -> Graders {
    let mut root = group("", "ignore_sample", |s| {
        s.on_reject_break = false;
        s.range_low = Some(0.0);
        s.range_high = Some(100.0);
    });
    let mut secret = group("secret", "first_error accept_if_any_accepted", |s| {
        s.on_reject_break = false;
        s.range_low = Some(0.0);
        s.range_high = Some(100.0);
    });
    secret.groups.push(group("secret/g1", "min", |s| {
        s.accept_score = 30.0;
    }));
    secret.groups.push(group("secret/g2", "min", |s| {
        s.accept_score = 70.0;
    }));
    root.groups.push(group("sample", "", |_| {}));
    root.groups.push(secret);
    Graders { root }
}

#[test]
fn kattis_subtasks_add_up_and_break_stops_a_group() {
    let plan = ScoringPlan::Graders(oddecho_like());
    let all = [
        case("sample/1.in", Accepted),
        case("secret/g1/1.in", Accepted),
        case("secret/g1/2.in", Accepted),
        case("secret/g2/1.in", Accepted),
        case("secret/g2/2.in", WrongAnswer),
        case("secret/g2/3.in", Accepted),
    ];
    let scored = plan.evaluate(&all);
    assert_eq!(scored.report.score, 30.0);
    assert_eq!(scored.report.verdict, Some(Accepted));
    assert_eq!(scored.report.max_score, Some(100.0));
    // g2 breaks at 2.in: 3.in is not judged.
    assert_eq!(scored.not_judged.len(), 1);
    assert_eq!(scored.not_judged[0].0, 5);
    assert!(scored.not_judged[0].1.contains("on_reject: break"));
    let g2 = scored
        .report
        .groups
        .iter()
        .find(|g| g.name == "secret/g2")
        .unwrap();
    assert_eq!((g2.score, g2.verdict), (0.0, WrongAnswer));
    assert!(
        scored.report.errors.is_empty(),
        "{:?}",
        scored.report.errors
    );
    // Launching can skip exactly what grading will not judge.
    assert!(plan.stopped_by("secret/g2/3.in", "secret/g2/2.in"));
    assert!(!plan.stopped_by("secret/g2/1.in", "secret/g2/2.in"));
    assert!(!plan.stopped_by("secret/g1/3.in", "secret/g2/2.in"));
    // All accepted: 100.
    let full: Vec<_> = all.iter().map(|c| case(c.name, Accepted)).collect();
    let scored = plan.evaluate(&full);
    assert_eq!(scored.report.score, 100.0);
    assert!(scored.report.is_full());
}

#[test]
fn lexicographic_order_decides_what_break_stops() {
    // problemtools sorts entries as strings: 10 comes before 2.
    let plan = Graders {
        root: group("", "", |_| {}),
    };
    let cases = [case("2.in", WrongAnswer), case("10.in", Accepted)];
    let scored = plan.evaluate(&cases);
    assert!(scored.not_judged.is_empty(), "10 was judged before 2");
    assert_eq!(scored.report.score, 1.0);
    assert_eq!(scored.report.verdict, Some(WrongAnswer));
    assert!(plan.stopped_by("3.in", "2.in"));
    assert!(!plan.stopped_by("10.in", "2.in"));
}

#[test]
fn every_verdict_and_score_mode() {
    let run = |flags: &str, verdicts: &[Verdict], partials: &[Option<Partial>]| {
        let g = Graders {
            root: group("", flags, |s| {
                s.on_reject_break = false;
                s.accept_score = 10.0;
                s.reject_score = 1.0;
            }),
        };
        let names: Vec<String> = (0..verdicts.len()).map(|i| format!("{i}.in")).collect();
        let cases: Vec<CaseInput<'_>> = names
            .iter()
            .zip(verdicts)
            .zip(partials)
            .map(|((n, v), p)| CaseInput {
                name: n,
                verdict: *v,
                partial: *p,
            })
            .collect();
        let s = g.evaluate(&cases);
        (s.report.verdict.unwrap(), s.report.score)
    };
    let v = [Accepted, WrongAnswer, TimeLimit, RuntimeError];
    let p = [Some(Partial::Points(4.0)), None, None, None];
    // worst_error: RTE is worse than TLE and WA.
    assert_eq!(run("", &v, &p), (RuntimeError, 7.0));
    assert_eq!(run("first_error", &v, &p), (WrongAnswer, 7.0));
    assert_eq!(run("always_accept avg", &v, &p), (Accepted, 1.75));
    assert_eq!(run("min", &v, &p), (RuntimeError, 1.0));
    assert_eq!(run("max accept_if_any_accepted", &v, &p), (Accepted, 4.0));
    // Later flags win; a fraction scales accept_score.
    assert_eq!(
        run(
            "min sum",
            &[Accepted, Accepted],
            &[Some(Partial::Fraction(0.5)), None]
        ),
        (Accepted, 15.0)
    );
    // A judge error anywhere is the group's.
    assert_eq!(
        run("always_accept", &[Accepted, InternalError], &[None, None]).0,
        InternalError
    );
}

#[test]
fn range_and_ignore_sample_errors_are_named() {
    let mut root = group("", "ignore_sample", |_| {});
    root.groups.push(group("sample", "", |_| {}));
    root.groups
        .push(group("secret", "", |s| s.range_high = Some(1.0)));
    root.groups.push(group("extra", "", |_| {}));
    let plan = Graders { root };
    let cases = [
        case("sample/1.in", Accepted),
        case("secret/1.in", Accepted),
        case("secret/2.in", Accepted),
        case("extra/1.in", Accepted),
    ];
    let s = plan.evaluate(&cases);
    assert!(
        s.report
            .errors
            .iter()
            .any(|e| e.contains("secret: score 2")),
        "{:?}",
        s.report.errors
    );
    assert!(
        s.report
            .errors
            .iter()
            .any(|e| e.contains("ignore_sample needs one or two items")),
        "{:?}",
        s.report.errors
    );
}

#[test]
fn a_case_not_run_is_never_counted() {
    let plan = Graders {
        root: group("", "", |s| s.on_reject_break = false),
    };
    let s = plan.evaluate(&[case("1.in", Accepted), case("2.in", Skipped)]);
    assert_eq!(s.report.score, 1.0);
    assert!(s.report.incomplete);
    assert_eq!(s.case_scores, vec![Some(1.0), None]);
}

fn subtask(name: &str, max: Option<f64>, aggregation: Aggregation) -> Subtask {
    Subtask {
        name: name.to_string(),
        select: subtasks::Select::Under(format!("{name}/")),
        max_score: max,
        aggregation,
        require_pass: Vec::new(),
    }
}

#[test]
fn subtasks_min_sum_pass_fail_and_partial_credit() {
    let mut g3 = subtask("secret/g3", Some(50.0), Aggregation::Sum);
    g3.require_pass = vec!["secret/g1".to_string()];
    let plan = ScoringPlan::Subtasks(Subtasks {
        total: subtask("secret", Some(100.0), Aggregation::Sum),
        groups: vec![
            subtask("secret/g1", Some(20.0), Aggregation::PassFail),
            subtask("secret/g2", Some(30.0), Aggregation::Min),
            g3,
        ],
        prerequisites: vec![subtask("sample", None, Aggregation::PassFail)],
    });
    let cases = [
        case("sample/1.in", Accepted),
        case("secret/g1/1.in", Accepted),
        case("secret/g2/1.in", Accepted),
        with("secret/g2/2.in", Accepted, Partial::Fraction(0.5)),
        case("secret/g3/1.in", Accepted),
        with("secret/g3/2.in", Accepted, Partial::Points(10.0)),
    ];
    let s = plan.evaluate(&cases);
    // 20 + min(30, 15) + (25 + 10)
    assert_eq!(s.report.score, 70.0);
    assert_eq!(s.case_scores[3], Some(15.0));
    assert!(s.report.errors.is_empty(), "{:?}", s.report.errors);
    // g1 fails: g3 requires it, so g3 is not judged and scores 0.
    let mut failing = cases;
    failing[1] = case("secret/g1/1.in", WrongAnswer);
    let s = plan.evaluate(&failing);
    assert_eq!(s.report.score, 15.0);
    let skipped: Vec<usize> = s.not_judged.iter().map(|n| n.0).collect();
    assert_eq!(skipped, vec![4, 5]);
    let g3 = &s.report.groups[2];
    assert_eq!(g3.verdict, Skipped);
    assert!(g3.note.as_deref().unwrap().contains("requires secret/g1"));
    assert!(plan.stopped_by("secret/g3/1.in", "secret/g1/1.in"));
    assert!(!plan.stopped_by("secret/g2/1.in", "secret/g1/1.in"));
}

#[test]
fn subtask_judge_errors_are_listed() {
    let plan = Subtasks {
        total: subtask("secret", None, Aggregation::Sum),
        groups: vec![
            subtask("secret/a", None, Aggregation::Sum),
            subtask("secret/b", Some(10.0), Aggregation::Min),
            subtask("secret/c", Some(10.0), Aggregation::PassFail),
        ],
        prerequisites: Vec::new(),
    };
    let s = plan.evaluate(&[
        case("secret/a/1.in", Accepted),
        with("secret/b/1.in", Accepted, Partial::Points(11.0)),
        with("secret/c/1.in", Accepted, Partial::Points(1.0)),
    ]);
    let errors = s.report.errors.join("\n");
    assert!(errors.contains("without a score.txt"), "{errors}");
    assert!(errors.contains("over the case's maximum 10"), "{errors}");
    assert!(
        errors.contains("whose aggregation is pass-fail"),
        "{errors}"
    );
}

#[test]
fn judge_toml_groups_by_glob() {
    let group = |name: &str, glob: &str, points: f64| Subtask {
        name: name.to_string(),
        select: subtasks::Select::Globs(Globs::new(vec![glob.to_string()]).unwrap()),
        max_score: Some(points),
        aggregation: Aggregation::Min,
        require_pass: Vec::new(),
    };
    let plan = Subtasks {
        total: Subtask {
            name: "total".into(),
            select: subtasks::Select::Globs(Globs::new(Vec::new()).unwrap()),
            max_score: Some(100.0),
            aggregation: Aggregation::Sum,
            require_pass: Vec::new(),
        },
        groups: vec![group("small", "small-*", 30.0), group("big", "big/*", 70.0)],
        prerequisites: Vec::new(),
    };
    let s = plan.evaluate(&[
        case("small-1.in", Accepted),
        case("big/1.in", TimeLimit),
        case("other.in", WrongAnswer),
    ]);
    assert_eq!(s.report.score, 30.0);
    assert_eq!(s.case_scores[2], None, "a case in no group does not count");
}

#[test]
fn numbers_and_ranges_print_plainly() {
    assert_eq!(number(30.0), "30");
    assert_eq!(number(2.0 / 3.0), "0.666667");
    assert_eq!(
        ScoreRange {
            low: 0.0,
            high: 30.0
        }
        .to_string(),
        "0..30"
    );
    assert!(ScoreRange::exactly(70.0).contains(70.0000000001));
    assert!(!ScoreRange::exactly(70.0).contains(69.0));
}
