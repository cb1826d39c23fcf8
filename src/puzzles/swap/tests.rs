use super::*;
use crate::verdict::Verdict;
use proptest::prelude::*;
use std::path::Path;

const SAMPLE: &[u8] = b"1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n";

fn solve(input: &[u8]) -> String {
    String::from_utf8(Swap.solve(input, &SolveOptions::default()).unwrap()).unwrap()
}

fn check_with(input: &[u8], output: &[u8], answer: Option<&[u8]>, lexmin: bool) -> CheckReport {
    Swap.check(&CheckRequest {
        input,
        output,
        answer,
        lexmin,
        strict: false,
    })
}

fn check(output: &[u8]) -> CheckReport {
    check_with(SAMPLE, output, None, false)
}

fn data(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/swap")
            .join(path),
    )
    .unwrap()
}

#[test]
fn statement_sample() {
    assert_eq!(Swap.validate(SAMPLE), Ok(1));
    let ours = solve(SAMPLE);
    assert_eq!(ours, "4\n1222\n1424\n3242\n4344\n");
    let published = data("codevs-statement-sample/sample.out");
    assert_eq!(check(&published).verdict, Verdict::Accepted);
    assert_eq!(published.split(|&b| b == b'\n').next(), Some(&b"4"[..]));
    // The two first moves commute: shortest, but not the smallest.
    let swapped = b"4\n1424\n1222\n3242\n4344\n";
    assert_eq!(check(swapped).verdict, Verdict::Accepted);
    let wa = check_with(SAMPLE, swapped, None, true);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert!(
        wa.message
            .contains("move 1 is 1424, expected 1222 (the smallest is 1222 1424 3242 4344)"),
        "{}",
        wa.message
    );
    // Cells in reverse order: the same swaps, accepted as shortest, but as
    // written strings not the smallest.
    let reversed = b"4\n2212\n2414\n4232\n4443\n";
    assert_eq!(check(reversed).verdict, Verdict::Accepted);
    let wa = check_with(SAMPLE, reversed, None, true);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert!(
        wa.message
            .contains("move 1 is written 2212: the same swap, but the smallest writes it 1222"),
        "{}",
        wa.message
    );
}

#[test]
fn published_counts_agree() {
    for i in 1..=4 {
        let input = data(&format!("count-only-comments/{i}.in"));
        let count = String::from_utf8(data(&format!("count-only-comments/{i}.out"))).unwrap();
        let ours = solve(&input);
        assert_eq!(ours.lines().next(), Some(count.trim()), "file {i}");
        let report = check_with(&input, ours.as_bytes(), None, true);
        assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    }
}

fn err(input: &[u8]) -> (usize, usize, String) {
    let e = Swap.validate(input).unwrap_err();
    let pos = e.pos.unwrap_or_default();
    (pos.line, pos.column, e.message())
}

#[test]
fn validator_rejections() {
    let nine = b"1111\n1000\n1110\n0010\n1010\n0101\n1010\n0101\n";
    let (line, column, message) = err(nine);
    assert_eq!((line, column), (1, 1));
    assert!(
        message.contains("the start board holds 9 white pieces (1) and 7 black (0)"),
        "{message}"
    );
    assert!(
        message.contains("the target board holds 8 white: swaps never change the count"),
        "{message}"
    );
    let both_nine = b"1111\n1000\n1110\n0010\n1110\n0101\n1010\n0101\n";
    let (_, _, message) = err(both_nine);
    assert!(!message.contains("swaps never change"), "{message}");
    let target_seven = b"1111\n0000\n1110\n0010\n1010\n0100\n1010\n0101\n";
    let (line, _, message) = err(target_seven);
    assert_eq!(line, 5);
    assert!(
        message.starts_with("the target board holds 7 white"),
        "{message}"
    );
    let (line, column, message) = err(b"1111\n0000\n1110\n0010\n1010\n0101\n1010\n");
    assert_eq!((line, column), (8, 1));
    assert!(
        message.contains("expected row 4 of the target board"),
        "{message}"
    );
    let (line, column, message) = err(b"1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n0\n");
    assert_eq!((line, column), (9, 1));
    assert!(
        message.contains("expected nothing after the target board"),
        "{message}"
    );
    let (line, column, message) = err(b"1111\n0000\n11100\n");
    assert_eq!((line, column), (3, 5));
    assert!(message.contains("after 4 characters"), "{message}");
    let (line, column, message) = err(b"1111\n0000\n111\n");
    assert_eq!((line, column), (3, 4));
    assert!(
        message.contains("has 3 characters, expected 4"),
        "{message}"
    );
    let (line, column, message) = err(b"1111\n0200\n");
    assert_eq!((line, column), (2, 2));
    assert!(
        message.contains("found \"2\", expected `0` or `1`"),
        "{message}"
    );
    assert_eq!(
        Swap.validate(b"1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n\n\n"),
        Ok(1)
    );
}

#[test]
fn solver_is_lenient_about_white_space_only() {
    let crlf = b"1111 0000\r\n1110 0010\r\n10100101 10100101";
    assert_eq!(solve(crlf), solve(SAMPLE));
    assert!(
        Swap.solve(b"1111\n0000\n", &SolveOptions::default())
            .is_err()
    );
    let options = SolveOptions {
        heuristic: Some("x".into()),
    };
    assert!(matches!(
        Swap.solve(SAMPLE, &options),
        Err(SolveError::Option(_))
    ));
}

#[test]
fn checker_findings() {
    let cases: &[(&[u8], Verdict, &str)] = &[
        (
            b"4\n1222\n1424\n3242\n4344\n",
            Verdict::Accepted,
            "4 moves, optimal",
        ),
        (
            b"4\n2212\n2414\n4232\n4443\n",
            Verdict::Accepted,
            "4 moves, optimal",
        ),
        (
            b"4\n1a22\n1424\n3242\n4344\n",
            Verdict::WrongAnswer,
            "case 1, output line 2: move 1: found \"1a22\"",
        ),
        (
            b"4\n1222\n5112\n3242\n4344\n",
            Verdict::WrongAnswer,
            "move 2 \"5112\": cell (5, 1) is off the 4×4 board",
        ),
        (
            b"4\n12222\n",
            Verdict::WrongAnswer,
            "move 1: found \"12222\", expected a move",
        ),
        (
            b"4\n1222\n1133\n",
            Verdict::WrongAnswer,
            "move 2 \"1133\": cells (1, 1) and (3, 3) are not adjacent (a move swaps two cells that share an edge); it was played on the board after 1 move, 1011/0100/1110/0010",
        ),
        (
            b"4\n1222\n1424\n",
            Verdict::WrongAnswer,
            "expected move 3 of the 4 the count announced (2 listed)",
        ),
        (
            b"3\n1222\n1424\n3242\n4344\n",
            Verdict::WrongAnswer,
            "case 1, output line 5: the count on line 1 announces 3 moves, but more moves follow: found \"4344\" after move 3",
        ),
        (
            b"3\n1222\n1424\n3242\nxyz\n",
            Verdict::WrongAnswer,
            "output line 5: extra output after the 3 moves the count announced: found \"xyz\"",
        ),
        (
            b"0\n1222\n",
            Verdict::WrongAnswer,
            "the count on line 1 announces 0 moves, but more moves follow: found \"1222\" right after it",
        ),
        (
            b"2\n1222\n1424\n",
            Verdict::WrongAnswer,
            "the moves do not reach the target: reached 1010/0101/1110/0010, expected 1010/0101/1010/0101",
        ),
        (
            b"6\n1222\n1424\n3242\n4344\n1112\n1112\n",
            Verdict::WrongAnswer,
            "case 1, output line 1: 6 moves, optimum is 4",
        ),
        (
            b"",
            Verdict::WrongAnswer,
            "expected the number of moves, found the end of the output",
        ),
        (b"\xff\n", Verdict::WrongAnswer, "\\xff"),
        (
            b"-1\n",
            Verdict::WrongAnswer,
            "expected the number of moves",
        ),
    ];
    for (output, verdict, message) in cases {
        let report = check(output);
        assert_eq!(
            report.verdict,
            *verdict,
            "{:?}: {}",
            String::from_utf8_lossy(output),
            report.message
        );
        assert!(
            report.message.contains(message),
            "{:?}: {}",
            String::from_utf8_lossy(output),
            report.message
        );
    }
    let missed = check(b"2\n1222\n1424\n");
    assert_eq!(missed.figures.len(), 2);
    assert_eq!(
        missed.figures[0].to_text(),
        "board reached after 2 moves (wrong cells marked):\n 1  0  1  0\n 0  1  0  1\n 1 [1] 1  0\n 0 [0][1][0]\n"
    );
    let huge = format!("4\n{}\n", "1".repeat(10 << 20));
    let report = check(huge.as_bytes());
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert!(
        report.message.contains("(10485760 bytes)"),
        "{}",
        report.message
    );
    let bad = check(b"4\n1222\n1133\n");
    assert_eq!(bad.figures.len(), 1);
    assert_eq!(
        bad.figures[0].to_text(),
        "the board after 1 move (the cells the move names marked):\n[1] 0  1  1\n 0  1  0  0\n 1  1 [1] 0\n 0  0  1  0\n"
    );
    let off = check(b"4\n5112\n");
    assert!(
        off.message
            .contains("it was played on the start board, 1111/0000/1110/0010"),
        "{}",
        off.message
    );
    assert!(check(b"4\n1a22\n").figures.is_empty());
    let long_count = format!("{}\n", "9".repeat(400));
    assert!(check(long_count.as_bytes()).message.contains("too large"));
}

#[test]
fn answer_file_is_cross_checked() {
    let output = b"4\n1222\n1424\n3242\n4344\n";
    let ok = check_with(SAMPLE, output, Some(b"4\n1424\n1222\n3242\n4344\n"), true);
    assert_eq!(ok.verdict, Verdict::Accepted, "{}", ok.message);
    let ie = check_with(
        SAMPLE,
        output,
        Some(b"5\n1222\n1424\n3242\n4344\n1112\n"),
        false,
    );
    assert_eq!(ie.verdict, Verdict::InternalError);
    assert!(
        ie.message.starts_with("answer file wrong"),
        "{}",
        ie.message
    );
    let ie = check_with(b"1111\n", output, None, false);
    assert_eq!(ie.verdict, Verdict::InternalError);
    assert!(
        ie.message.contains("not a valid swap case file"),
        "{}",
        ie.message
    );
}

#[test]
fn whole_space_stats() {
    let stats = Swap.stats(&StatsOptions::default()).unwrap();
    assert_eq!(stats.total, 12_870 * 12_870);
    assert_eq!(stats.rows[0], ("0".to_string(), 12_870));
    assert_eq!(stats.rows.len() as u32, MAX_LENGTH + 1);
    assert!(stats.rows.iter().all(|r| r.1 > 0));
    // One move from a board: one per adjacent pair of different colours.
    let ones: u64 = space::all_boards()
        .map(|b| {
            space::MOVES
                .iter()
                .filter(|&&m| space::apply(b, m) != b)
                .count() as u64
        })
        .sum();
    assert_eq!(stats.rows[1].1, ones);
    assert!(
        stats.notes[2].starts_with("from the statement's start board"),
        "{:?}",
        stats.notes
    );
}

#[test]
fn generator_makes_exact_lengths() {
    for length in [0, 1, 4, 9, MAX_LENGTH] {
        let spec = GenSpec {
            count: 2,
            seed: 11,
            length: Some(length..=length),
            ..GenSpec::default()
        };
        let cases = Swap.generate(&spec).unwrap();
        assert_eq!(cases, Swap.generate(&spec).unwrap());
        for case in &cases {
            let (input, answer) = Swap.assemble(std::slice::from_ref(case));
            assert_eq!(Swap.validate(&input), Ok(1));
            assert_eq!(solve(&input).as_bytes(), &answer[..]);
            assert!(answer.starts_with(format!("{length}\n").as_bytes()));
            assert_eq!(case.label, format!("len{length}"));
        }
    }
    let beyond = GenSpec {
        count: 1,
        length: Some(MAX_LENGTH + 1..=MAX_LENGTH + 1),
        ..GenSpec::default()
    };
    assert!(
        Swap.generate(&beyond)
            .unwrap_err()
            .contains("the longest optimum")
    );
    let foreign = GenSpec {
        turns: Some(1..=1),
        ..GenSpec::default()
    };
    assert!(Swap.generate(&foreign).unwrap_err().contains("no --turns"));
    let any = Swap
        .generate(&GenSpec {
            count: 3,
            ..GenSpec::default()
        })
        .unwrap();
    assert_eq!(any.len(), 3);
}

fn board_strategy() -> impl Strategy<Value = Grid> {
    Just(vec![0u8, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1])
        .prop_shuffle()
        .prop_map(|cells| {
            cells
                .iter()
                .enumerate()
                .fold(0, |acc, (i, &c)| acc | Grid::from(c) << i)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn solver_output_passes_the_checker(start in board_strategy(), target in board_strategy()) {
        let input = format!("{}\n{}\n", grid4::render(start, SYMBOLS), grid4::render(target, SYMBOLS));
        prop_assert_eq!(Swap.validate(input.as_bytes()), Ok(1));
        let output = Swap.solve(input.as_bytes(), &SolveOptions::default()).unwrap();
        let report = Swap.check(&CheckRequest { input: input.as_bytes(), output: &output, answer: Some(&output), lexmin: true, strict: true });
        prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    }

    #[test]
    fn validator_and_checker_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        let _ = Swap.validate(&bytes);
        let _ = Swap.solve(&bytes, &SolveOptions::default());
        let _ = check_with(SAMPLE, &bytes, Some(&bytes), true);
    }

    #[test]
    fn validator_never_panics_on_near_valid_files(at in 0usize..40, byte in any::<u8>()) {
        let mut input = SAMPLE.to_vec();
        input[at] = byte;
        let _ = Swap.validate(&input);
        let _ = Swap.validate(&input[..at]);
        let _ = check_with(&input, b"0\n", None, false);
    }
}

/// Memory and time do not grow with the output: a count above the read
/// limit is answered from the count line, a small count reads one token
/// past its moves, and only the optimum's number of moves is kept.
#[test]
fn long_outputs_are_not_read_whole() {
    let many = "1222\n".repeat(200_000);
    let report = check(format!("{}\n{many}", READ_LIMIT + 1).as_bytes());
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert_eq!(
        report.message,
        format!(
            "case 1, output line 1: the count announces {} moves, but the optimum is 4: no two boards are more than 20 moves apart, so a count above {READ_LIMIT} is wrong whatever follows (the moves were not read)",
            READ_LIMIT + 1
        )
    );
    // The garbage after the count is never looked at.
    let report = check(format!("{}\n\u{ff}", finding::MAX_COUNT).as_bytes());
    assert!(
        report.message.contains("the moves were not read"),
        "{}",
        report.message
    );
    // At the limit every move is read and replayed: a 1000-move sequence
    // that reaches the target is too long, one that does not misses it.
    let back_and_forth = format!("1000\n{}", "1112\n".repeat(1000));
    let report = check_with(
        b"1111\n0000\n1110\n0010\n1111\n0000\n1110\n0010\n",
        back_and_forth.as_bytes(),
        None,
        false,
    );
    assert_eq!(
        report.message,
        "case 1, output line 1: 1000 moves, optimum is 0"
    );
    let report = check(back_and_forth.as_bytes());
    assert!(
        report.message.contains("do not reach the target"),
        "{}",
        report.message
    );
    // A short count followed by many moves stops at the first extra one.
    let report = check(format!("2\n{many}").as_bytes());
    assert!(
        report
            .message
            .contains("announces 2 moves, but more moves follow"),
        "{}",
        report.message
    );
}
