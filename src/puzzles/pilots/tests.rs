use super::*;
use crate::verdict::Verdict;
use proptest::prelude::*;
use std::path::Path;

/// POJ 2965's sample.
const SAMPLE: &[u8] = b"-+--\n----\n----\n-+--\n";

fn solve(input: &[u8]) -> String {
    String::from_utf8(Pilots.solve(input, &SolveOptions::default()).unwrap()).unwrap()
}

fn check_with(output: &[u8], answer: Option<&[u8]>, lexmin: bool) -> CheckReport {
    Pilots.check(&CheckRequest {
        input: SAMPLE,
        output,
        answer,
        lexmin,
        strict: false,
    })
}

fn check(output: &[u8]) -> CheckReport {
    check_with(output, None, false)
}

const BEST: &[u8] = b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n";

#[test]
fn published_data_is_reproduced_exactly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pilots");
    let mut files = 0;
    for i in 1..=64 {
        let input = std::fs::read(dir.join(format!("{i}.in"))).unwrap();
        let published = std::fs::read_to_string(dir.join(format!("{i}.out"))).unwrap();
        assert_eq!(solve(&input), published, "file {i}");
        files += 1;
    }
    assert_eq!(files, 64);
    assert_eq!(solve(SAMPLE).as_bytes(), BEST);
}

#[test]
fn validator_rejections() {
    let err = |input: &[u8]| {
        let e = Pilots.validate(input).unwrap_err();
        let pos = e.pos.unwrap_or_default();
        (pos.line, pos.column, e.message())
    };
    let (l, c, m) = err(b"-+--\n--0-\n");
    assert_eq!((l, c), (2, 3));
    assert!(
        m.contains("found \"0\", expected `-` or `+` (row 2 of the refrigerator)"),
        "{m}"
    );
    let (l, c, m) = err(b"-+--\n");
    assert_eq!((l, c), (2, 1));
    assert!(m.contains("expected row 2 of the refrigerator"), "{m}");
    let (l, c, m) = err(b"-+-\n");
    assert_eq!((l, c), (1, 4));
    assert!(
        m.contains("row 1 of the refrigerator has 3 characters, expected 4"),
        "{m}"
    );
    let (l, c, m) = err(b"-+---\n");
    assert_eq!((l, c), (1, 5));
    assert!(
        m.contains("found \"-\", expected the end of row 1 of the refrigerator after 4 characters"),
        "{m}"
    );
    let (l, _, m) = err(b"-+--\n----\n----\n-+--\n----\n");
    assert_eq!(l, 5);
    assert!(m.contains("expected nothing after the refrigerator"), "{m}");
    assert_eq!(Pilots.validate(SAMPLE), Ok(1));
}

#[test]
fn checker_findings() {
    assert_eq!(check(BEST).verdict, Verdict::Accepted);
    let shuffled = b"6\n4 4\n1 1\n1 3\n1 4\n4 1\n4 3\n";
    assert_eq!(check(shuffled).verdict, Verdict::Accepted);
    let wa = check_with(shuffled, None, true);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert!(
        wa.message.contains("turn 1 is (4, 4), expected (1, 1)"),
        "{}",
        wa.message
    );
    let cases: &[(&[u8], &str)] = &[
        (
            b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n5 0\n",
            "case 1, output line 7: turn 6: found \"5\", expected a row from 1 to 4",
        ),
        (
            b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n4 0\n",
            "turn 6: found \"0\", expected a column from 1 to 4",
        ),
        (
            b"6\n1 1\n1 3\n1 4\n4 1\n4 3\n",
            "expected the row of turn 6 of the 6 the count announced (5 listed)",
        ),
        (
            b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n",
            "case 1, output line 7: the count on line 1 announces 5 turns, but more turns follow: found \"4 4\" after turn 5",
        ),
        (
            b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n",
            "not all handles are open after the 5 turns: (1, 4), (2, 4), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4) still closed",
        ),
        (
            b"8\n1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n2 2\n2 2\n",
            "8 turns, optimum is 6: handle (2, 2) is turned twice (turns 7 and 8)",
        ),
        (
            b"2\n1 1\n1 1\n",
            "handle (1, 1) is turned twice (turns 1 and 2)",
        ),
        (b"x\n", "found \"x\", expected the number of turns"),
    ];
    for (output, message) in cases {
        let report = check(output);
        assert_eq!(report.verdict, Verdict::WrongAnswer, "{}", report.message);
        assert!(report.message.contains(message), "{}", report.message);
    }
    let open = check(b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n");
    assert_eq!(open.figures.len(), 1);
    assert_eq!(
        open.figures[0].rows[3][3]
            .as_ref()
            .map(|c| (c.text.as_str(), c.highlight)),
        Some(("+", true))
    );
    let mut huge = b"6\n1 ".to_vec();
    huge.extend(std::iter::repeat_n(b'1', 10 << 20));
    let wa = check(&huge);
    assert!(wa.message.contains("turn 1: found \"111"), "{}", wa.message);
    assert!(wa.message.contains("(10485760 bytes)"), "{}", wa.message);
    let ie = check_with(BEST, Some(b"5\n1 1\n1 3\n1 4\n4 1\n4 3\n"), false);
    assert_eq!(ie.verdict, Verdict::InternalError);
    assert!(
        ie.message.starts_with("answer file wrong for case 1"),
        "{}",
        ie.message
    );
}

#[test]
fn a_third_number_on_a_turn_line_is_blamed_where_it_is() {
    // The audit's case: the stray "1" shifts every turn after it.
    let report = check(b"6\n1 1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n");
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert_eq!(
        report.message,
        "case 1, output line 2: line 2 holds a third number, \"1\", after the row and column of turn 1 (a turn line holds two), so the turns after it are read out of step: extra output after the 6 turns the count announced: found \"4\" (output line 7)"
    );
    // When the count swallows it, what goes wrong later is told from it.
    let report = check(b"7\n1 1 1\n1 3\n1 4\n4 1\n4 3\n4 4\n");
    assert!(
        report
            .message
            .starts_with("case 1, output line 2: line 2 holds a third number"),
        "{}",
        report.message
    );
    // All turns on one line is a lenient layout, not a stray number.
    assert_eq!(
        check(b"6 1 1 1 3 1 4 4 1 4 3 4 4").verdict,
        Verdict::Accepted
    );
    let report = check(b"6 1 1 1 3 1 4 4 1 4 3 4 4 4");
    assert_eq!(
        report.message,
        "output line 1: extra output after the 6 turns the count announced: found \"4\""
    );
}

#[test]
fn a_count_beyond_any_answer_is_not_read_further() {
    let report = check(format!("{}\n{}", READ_LIMIT + 1, "1 1\n".repeat(100_000)).as_bytes());
    assert_eq!(
        report.message,
        "case 1, output line 1: the count announces 1001 turns, but the optimum is 6: a shortest answer turns each of the 16 handles at most once, so a count above 1000 is wrong whatever follows (the turns were not read)"
    );
    // Up to the limit every turn is read and replayed.
    let report = check(format!("1000\n{}", "1 1\n".repeat(1000)).as_bytes());
    assert!(
        report
            .message
            .contains("not all handles are open after the 1000 turns"),
        "{}",
        report.message
    );
}

#[test]
fn generator_and_stats() {
    for k in 0..=16 {
        let spec = GenSpec {
            count: 2,
            seed: 3,
            turns: Some(k..=k),
            ..GenSpec::default()
        };
        let cases = Pilots.generate(&spec).unwrap();
        assert_eq!(cases, Pilots.generate(&spec).unwrap());
        for case in cases {
            let (input, answer) = Pilots.assemble(&[case]);
            assert_eq!(Pilots.validate(&input), Ok(1));
            assert_eq!(solve(&input).as_bytes(), &answer[..]);
            assert!(answer.starts_with(format!("{k}\n").as_bytes()));
        }
    }
    assert!(
        Pilots
            .generate(&GenSpec {
                turns: Some(17..=17),
                ..GenSpec::default()
            })
            .is_err()
    );
    let stats = Pilots.stats(&StatsOptions::default()).unwrap();
    let binomial = |k: u64| (0..k).fold(1u64, |acc, i| acc * (16 - i) / (i + 1));
    for (k, row) in stats.rows.iter().enumerate() {
        assert_eq!(row.1, binomial(k as u64), "k = {k}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn solver_output_passes_the_checker(board in any::<u16>()) {
        let input = format!("{}\n", grid4::render(board, SYMBOLS));
        prop_assert_eq!(Pilots.validate(input.as_bytes()), Ok(1));
        let output = Pilots.solve(input.as_bytes(), &SolveOptions::default()).unwrap();
        let report = Pilots.check(&CheckRequest { input: input.as_bytes(), output: &output, answer: Some(&output), lexmin: true, strict: true });
        prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    }

    #[test]
    fn validator_and_checker_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = Pilots.validate(&bytes);
        let _ = Pilots.solve(&bytes, &SolveOptions::default());
        let _ = check_with(&bytes, Some(&bytes), true);
    }
}
