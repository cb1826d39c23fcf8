use super::*;
use crate::verdict::Verdict;
use proptest::prelude::*;
use std::path::Path;

const SAMPLE: &[u8] = b"3\n6\n1 3 4 6 2 5\n5\n5 4 3 2 1\n10\n6 8 5 3 4 7 2 9 1 10\n";

fn solve(input: &[u8]) -> String {
    String::from_utf8(Booksort.solve(input, &SolveOptions::default()).unwrap()).unwrap()
}

fn check(input: &[u8], output: &[u8], answer: Option<&[u8]>) -> CheckReport {
    Booksort.check(&CheckRequest {
        input,
        output,
        answer,
        lexmin: false,
        strict: false,
    })
}

#[test]
fn statement_sample() {
    assert_eq!(Booksort.validate(SAMPLE), Ok(3));
    assert_eq!(solve(SAMPLE), "2\n3\n5 or more\n");
    assert_eq!(
        check(SAMPLE, b"2\n3\n5 or more\n", None).verdict,
        Verdict::Accepted
    );
}

#[test]
fn published_data_agrees() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/booksort");
    let mut files = 0;
    for i in 1..=7 {
        let input = std::fs::read(dir.join(format!("{i}.in"))).unwrap();
        let published = std::fs::read_to_string(dir.join(format!("{i}.out"))).unwrap();
        let ours = solve(&input);
        // 5.out has no final newline: compare the lines.
        assert_eq!(
            ours.lines().collect::<Vec<_>>(),
            published.lines().collect::<Vec<_>>(),
            "file {i}"
        );
        assert_eq!(
            check(&input, published.as_bytes(), None).verdict,
            Verdict::Accepted
        );
        let classic: Vec<u8> = read_cases(&input)
            .unwrap()
            .iter()
            .map(|s| classic_distance(s))
            .collect();
        let fast: Vec<u8> = read_cases(&input)
            .unwrap()
            .iter()
            .map(|s| distance(s))
            .collect();
        assert_eq!(classic, fast, "file {i}");
        files += 1;
    }
    assert_eq!(files, 7);
}

fn err(input: &[u8]) -> (usize, usize, String) {
    let e = Booksort.validate(input).unwrap_err();
    let pos = e.pos.unwrap_or_default();
    (pos.line, pos.column, e.message())
}

#[test]
fn validator_rejections_name_line_column_and_reason() {
    let cases: &[(&[u8], (usize, usize), &str)] = &[
        (
            b"2\n1\n1\n",
            (4, 1),
            "expected case 2 of 2 (a line with n), found the end of the file",
        ),
        (
            b"1\n2\n",
            (3, 1),
            "expected the 2 books of case 1, found the end of the file",
        ),
        (
            b"1\n1\n1\n1\n1\n",
            (4, 1),
            "found \"1\", expected nothing after the 1 cases T announced",
        ),
        (
            b"1\n16\n",
            (2, 1),
            "found \"16\", expected the number of books n from 1 to 15",
        ),
        (
            b"1\n0\n",
            (2, 1),
            "found \"0\", expected the number of books n from 1 to 15",
        ),
        (b"1\n03\n", (2, 1), "leading zeros"),
        (b"+1\n", (1, 1), "expected the number of cases T"),
        (b"-1\n", (1, 1), "expected the number of cases T"),
        (
            b"1\n3\n1 2 2\n",
            (3, 5),
            "book 2 appears twice (first at line 3, column 3) and book 3 is missing",
        ),
        (
            b"1\n3\n1 2\n",
            (3, 4),
            "case 1: expected 3 books on this line, found 2",
        ),
        (
            b"1\n3\n1 2 3 4\n",
            (3, 7),
            "expected the end of the line after 3 books",
        ),
        (
            b"1\n3\n1 2 4\n",
            (3, 5),
            "found \"4\", expected a book number from 1 to 3",
        ),
        (b"1\n3\n1  2 3\n", (3, 3), "found two"),
        (b"1\n3\n1 2 3 \n", (3, 6), "ends with a space"),
        (
            b"1\n3\n\n",
            (3, 1),
            "expected 3 books on this line, found 0",
        ),
        (
            b"1 2\n",
            (1, 3),
            "expected only the number of cases T on this line",
        ),
        (
            b"\n",
            (1, 1),
            "expected the number of cases T, found an empty line",
        ),
        (
            b"",
            (1, 1),
            "expected the number of cases T, found the end of the file",
        ),
        (b"1\n1\n1", (3, 2), "no newline"),
        (b"1\r\n", (1, 2), "carriage return"),
    ];
    for (input, at, message) in cases {
        let (line, column, got) = err(input);
        assert_eq!(
            (line, column),
            *at,
            "{:?}: {got}",
            String::from_utf8_lossy(input)
        );
        assert!(
            got.contains(message),
            "{:?}: {got}",
            String::from_utf8_lossy(input)
        );
    }
    let huge = format!("{}\n", "9".repeat(400));
    assert!(err(huge.as_bytes()).2.contains("too large"));
    assert_eq!(Booksort.validate(b"0\n"), Ok(0));
    assert_eq!(Booksort.validate(b"1\n1\n1\n\n  \n"), Ok(1));
}

#[test]
fn solver_reads_leniently_but_by_the_rules() {
    assert_eq!(solve(b"2\r\n3 3 2 1\r\n\n1\t1"), "2\n0\n");
    let e = Booksort
        .solve(b"1 3 1 1 2", &SolveOptions::default())
        .unwrap_err();
    assert!(e.to_string().contains("book 1 appears twice"), "{e}");
    let e = Booksort
        .solve(b"1 1 1 1", &SolveOptions::default())
        .unwrap_err();
    assert!(
        e.to_string().contains("expected nothing after the 1 cases"),
        "{e}"
    );
    let options = SolveOptions {
        heuristic: Some("pdb".into()),
    };
    assert!(matches!(
        Booksort.solve(SAMPLE, &options),
        Err(SolveError::Option(_))
    ));
}

#[test]
fn checker_findings() {
    let wa = check(SAMPLE, b"3\n3\n5 or more\n", None);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert_eq!(
        wa.message,
        "case 1, output line 1: found 3, the optimum is 2"
    );
    let wa = check(SAMPLE, b"2\n3\n4\n", None);
    assert!(
        wa.message
            .contains("case 3, output line 3: found 4, but no 4 moves"),
        "{}",
        wa.message
    );
    let wa = check(SAMPLE, b"2\n5 or more\n5 or more\n", None);
    assert!(
        wa.message
            .contains("found `5 or more`, but 3 move(s) suffice"),
        "{}",
        wa.message
    );
    let wa = check(SAMPLE, b"2\n3\n", None);
    assert!(
        wa.message
            .contains("case 3, output line 3: expected the answer for case 3, found the end")
    );
    let wa = check(SAMPLE, b"2\n3\n5 or more\n1\n", None);
    assert_eq!(
        wa.message,
        "output line 4: extra output after the last case: found \"1\""
    );
    let wa = check(SAMPLE, b"2\n3\n5 or mor\n", None);
    assert!(wa.message.contains("expected `more`"), "{}", wa.message);
    let ie = check(SAMPLE, b"2\n3\n5 or more\n", Some(b"2\n2\n5 or more\n"));
    assert_eq!(ie.verdict, Verdict::InternalError);
    assert!(
        ie.message.starts_with("answer file wrong for case 2"),
        "{}",
        ie.message
    );
    let ie = check(b"1\n2\n1 1\n", b"0\n", None);
    assert_eq!(ie.verdict, Verdict::InternalError);
    assert!(
        ie.message.contains("not a valid booksort case file"),
        "{}",
        ie.message
    );
}

#[test]
fn checker_survives_hostile_output() {
    let mut huge = vec![b'7'; 10 << 20];
    huge.push(b'\n');
    let wa = check(SAMPLE, &huge, None);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert!(wa.message.contains("bytes)"), "{}", wa.message);
    let wa = check(SAMPLE, "9".repeat(400).as_bytes(), None);
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    let wa = check(SAMPLE, b"2\n\xff\xfe\n", None);
    assert!(wa.message.contains("\\xff"), "{}", wa.message);
}

#[test]
fn generator_hits_exact_distances() {
    for (n, k) in [
        (15, 0),
        (15, 1),
        (15, 3),
        (15, 4),
        (15, 5),
        (9, 5),
        (8, 5),
        (4, 3),
        (1, 0),
    ] {
        let spec = GenSpec {
            count: 3,
            seed: 7,
            n: Some(n..=n),
            moves: Some(k..=k),
            ..GenSpec::default()
        };
        let cases = Booksort.generate(&spec).unwrap();
        assert_eq!(cases.len(), 3);
        let (input, answer) = Booksort.assemble(&cases);
        assert_eq!(Booksort.validate(&input), Ok(3));
        assert_eq!(solve(&input).as_bytes(), &answer[..], "n {n} k {k}");
        assert_eq!(cases, Booksort.generate(&spec).unwrap(), "deterministic");
        if k == 5 && n == 15 {
            // The hard kind: the bound alone does not refute them.
            for shelf in read_cases(&input).unwrap() {
                assert!(lower_bound(&shelf) <= 4, "{shelf:?}");
                assert_eq!(classic_distance(&shelf), FIVE_OR_MORE, "{shelf:?}");
            }
        }
    }
    let impossible = GenSpec {
        count: 1,
        n: Some(2..=2),
        moves: Some(3..=3),
        ..GenSpec::default()
    };
    let e = Booksort.generate(&impossible).unwrap_err();
    assert_eq!(
        e,
        "booksort --moves 3 is impossible with --n 2: every shelf of 2 books sorts in at most 1 move".into()
    );
    let foreign = GenSpec {
        length: Some(3..=3),
        ..GenSpec::default()
    };
    assert!(
        Booksort
            .generate(&foreign)
            .unwrap_err()
            .contains("no --length")
    );
    let bad_n = GenSpec {
        n: Some(16..=16),
        ..GenSpec::default()
    };
    assert!(
        Booksort
            .generate(&bad_n)
            .unwrap_err()
            .contains("1 to 15 books")
    );
}

#[test]
fn max_distance_table_matches_the_whole_space() {
    for (n, &most) in MAX_DISTANCE.iter().enumerate().take(10).skip(1) {
        let table = search::distance_table(n);
        assert_eq!(table.iter().max().copied(), Some(most), "n = {n}");
    }
}

#[test]
fn stats_count_all_shelves() {
    let stats = Booksort.stats(&StatsOptions { n: Some(5) }).unwrap();
    assert_eq!(stats.total, 120);
    assert_eq!(stats.rows.iter().map(|r| r.1).sum::<u64>(), 120);
    assert_eq!(stats.rows[0], ("0".to_string(), 1));
    // C(6, 3) = 20 distinct block moves from the sorted shelf of 5.
    assert_eq!(stats.rows[1], ("1".to_string(), 20));
    assert_eq!(stats.rows[5], ("5 or more".to_string(), 0));
    assert!(
        Booksort
            .stats(&StatsOptions { n: Some(11) })
            .unwrap_err()
            .contains("from 1 to 10")
    );
}

fn shelf_strategy() -> impl Strategy<Value = Vec<u8>> {
    (1usize..=15).prop_flat_map(|n| Just((1..=n as u8).collect::<Vec<u8>>()).prop_shuffle())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn solver_output_passes_the_checker(shelves in prop::collection::vec(shelf_strategy(), 0..4), moves in 0usize..5) {
        // Half of the shelves near sorted, so that small distances occur too.
        let mut input = format!("{}\n", shelves.len());
        for (i, shelf) in shelves.iter().enumerate() {
            let mut shelf = shelf.clone();
            if i % 2 == 0 {
                shelf.sort_unstable();
                let n = shelf.len();
                for m in 0..moves.min(n.saturating_sub(1)) {
                    let i = m % (n - 1);
                    shelf[i..].rotate_left(1);
                }
            }
            input.push_str(&format!("{}\n{}\n", shelf.len(), shelf.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(" ")));
        }
        prop_assert_eq!(Booksort.validate(input.as_bytes()), Ok(shelves.len()));
        let output = Booksort.solve(input.as_bytes(), &SolveOptions::default()).unwrap();
        let report = Booksort.check(&CheckRequest { input: input.as_bytes(), output: &output, answer: Some(&output), lexmin: false, strict: true });
        prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    }

    #[test]
    fn pruned_and_classic_searches_agree(n in 2usize..=15, moves in prop::collection::vec((0usize..100, 0usize..100, 0usize..100), 0..6)) {
        // A few random block moves from sorted: distances 0 to 5 all occur.
        let mut shelf: Vec<u8> = (1..=n as u8).collect();
        for (a, b, c) in moves {
            let i = a % (n - 1);
            let j = i + 1 + b % (n - 1 - i);
            let k = j + 1 + c % (n - j);
            shelf[i..k].rotate_left(j - i);
        }
        prop_assert_eq!(distance(&shelf), classic_distance(&shelf), "{:?}", shelf);
    }

    #[test]
    fn validator_and_checker_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Booksort.validate(&bytes);
        let _ = Booksort.solve(&bytes, &SolveOptions::default());
        let _ = check(SAMPLE, &bytes, Some(&bytes));
        let _ = check(&bytes, b"1\n", None);
    }

    #[test]
    fn validator_never_panics_on_near_valid_files(cut in 0usize..60, byte in any::<u8>()) {
        let mut input = SAMPLE.to_vec();
        let at = cut % input.len();
        input[at] = byte;
        let _ = Booksort.validate(&input);
        let _ = Booksort.validate(&input[..at]);
    }
}
