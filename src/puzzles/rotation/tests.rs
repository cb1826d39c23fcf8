//! Tests across the modules: the published judge data, the solver against
//! the checker, and the two heuristics against each other on random boards.
//! Run them in release mode (`cargo test --release --lib puzzles::rotation`):
//! the classic `centre` search takes up to a second on the longest boards.

use super::board::{Board, Move, letters};
use super::pdb::pdb;
use super::search::{Heuristic, Solution, solve_board, table_solution};
use super::*;
use proptest::prelude::*;

const DATA: [(&str, &[u8], &[u8]); 4] = [
    (
        "hydro-tedukuri/1",
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/1.in"),
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/1.out"),
    ),
    (
        "hydro-tedukuri/2",
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/2.in"),
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/2.out"),
    ),
    (
        "hydro-tedukuri/3",
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/3.in"),
        include_bytes!("../../../tests/data/rotation/hydro-tedukuri/3.out"),
    ),
    (
        "p1343-comment/cases",
        include_bytes!("../../../tests/data/rotation/p1343-comment/cases.in"),
        include_bytes!("../../../tests/data/rotation/p1343-comment/cases.out"),
    ),
];

fn solve_with(input: &[u8], heuristic: &str) -> Vec<u8> {
    let options = SolveOptions {
        heuristic: Some(heuristic.to_string()),
    };
    Rotation.solve(input, &options).unwrap()
}

fn check(
    input: &[u8],
    output: &[u8],
    answer: Option<&[u8]>,
    lexmin: bool,
    strict: bool,
) -> CheckReport {
    Rotation.check(&CheckRequest {
        input,
        output,
        answer,
        lexmin,
        strict,
    })
}

fn file_of(boards: &[Board]) -> Vec<u8> {
    let mut text: String = boards.iter().map(|b| b.to_line() + "\n").collect();
    text.push_str("0\n");
    text.into_bytes()
}

#[test]
fn solver_reproduces_the_published_outputs_byte_for_byte() {
    for (name, input, output) in DATA {
        let mine = Rotation.solve(input, &SolveOptions::default()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&mine),
            String::from_utf8_lossy(output),
            "{name}"
        );
        assert_eq!(
            solve_with(input, "centre"),
            output,
            "{name} with the classic heuristic"
        );
    }
}

#[test]
fn checker_accepts_the_published_outputs_even_strictly() {
    for (name, input, output) in DATA {
        let report = check(input, output, Some(output), true, true);
        assert_eq!(
            report.verdict,
            Verdict::Accepted,
            "{name}: {}",
            report.message
        );
        assert!(
            report.message.ends_with("all shortest and smallest"),
            "{}",
            report.message
        );
    }
}

#[test]
fn validator_on_the_published_inputs() {
    // hydro's inputs lack the final newline after the terminator.
    for (name, input, _) in &DATA[..3] {
        let e = Rotation.validate(input).unwrap_err();
        assert!(e.reason.contains("no newline"), "{name}: {e}");
        let mut fixed = input.to_vec();
        fixed.push(b'\n');
        assert!(Rotation.validate(&fixed).is_ok(), "{name}");
    }
    assert_eq!(Rotation.validate(DATA[3].1), Ok(6));
}

#[test]
fn solver_refuses_unknown_heuristics_and_bad_input() {
    let options = SolveOptions {
        heuristic: Some("manhattan".into()),
    };
    match Rotation.solve(b"0\n", &options) {
        Err(SolveError::Option(message)) => assert!(message.contains("pdb, centre"), "{message}"),
        other => panic!("{other:?}"),
    }
    match Rotation.solve(b"1 2 3\n0\n", &SolveOptions::default()) {
        Err(SolveError::Input(e)) => assert!(e.to_string().contains("found \"0\""), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(Rotation.solve(b"0", &SolveOptions::default()).unwrap(), b"");
}

#[test]
fn stats_refuses_a_shelf_size() {
    let options = StatsOptions { n: Some(5) };
    assert!(Rotation.stats(&options).unwrap_err().contains("--n"));
}

#[test]
fn greedy_table_descent_equals_the_search() {
    for (_, input, _) in DATA {
        for board in input::read_boards(input).unwrap() {
            assert_eq!(
                table_solution(pdb(), &board),
                solve_board(&board, Heuristic::Pdb)
            );
        }
    }
}

#[test]
fn boards_of_every_length_solve_alike_and_pass_the_checker() {
    let spec = |len| GenSpec {
        count: 1,
        seed: 11,
        length: Some(len..=len),
        ..GenSpec::default()
    };
    let mut cases = Vec::new();
    for len in 0..=13 {
        cases.extend(Rotation.generate(&spec(len)).unwrap());
    }
    let (input, answer) = Rotation.assemble(&cases);
    let by_pdb = Rotation.solve(&input, &SolveOptions::default()).unwrap();
    assert_eq!(by_pdb, answer);
    assert_eq!(solve_with(&input, "centre"), answer);
    let lines: Vec<&str> = std::str::from_utf8(&answer).unwrap().lines().collect();
    for (len, line) in lines.iter().step_by(2).enumerate() {
        let moves = if *line == "No moves needed" {
            0
        } else {
            line.len()
        };
        assert_eq!(moves, len);
    }
    let report = check(&input, &by_pdb, Some(&answer), true, true);
    assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    assert_eq!(report.message, "14 cases, all shortest and smallest");
}

#[test]
fn a_mixed_centre_shows_the_board_before_and_after() {
    let input = file_of(&[Board::default()]);
    let report = check(&input, b"DD\n2\n", None, true, false);
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    let titles: Vec<&str> = report.figures.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "the board before the moves (case 1)",
            "the board after DD (case 1)"
        ]
    );
    let mut after = Board::default();
    after.apply(Move::from_letter(b'D').unwrap_or(Move::ALL[0]));
    after.apply(Move::from_letter(b'D').unwrap_or(Move::ALL[0]));
    assert_eq!(
        report.figures[1],
        after.figure("the board after DD (case 1)")
    );
    assert!(
        report.message.ends_with(&format!(
            "it holds {}",
            after.centre().map(|d| d.to_string()).join(" ")
        )),
        "{}",
        report.message
    );
}

/// Every WA whose moves were legal shows the board before and after them,
/// the centre highlighted (the golden folders hold one of each finding).
#[test]
fn every_wrong_answer_with_legal_moves_shows_both_boards() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checkers/rotation");
    for (folder, case) in [
        ("wrong-digit", 2),
        ("longer-than-optimal", 1),
        ("not-lexmin", 1),
        ("moves-when-none-are-needed", 1),
        ("centre-not-uniform", 1),
    ] {
        let read = |file: &str| std::fs::read(dir.join(folder).join(file)).unwrap_or_default();
        let report = check(&read("input"), &read("output"), None, true, false);
        assert_eq!(
            report.verdict,
            Verdict::WrongAnswer,
            "{folder}: {}",
            report.message
        );
        let titles: Vec<&str> = report.figures.iter().map(|f| f.title.as_str()).collect();
        assert_eq!(titles.len(), 2, "{folder}: {titles:?}");
        assert_eq!(
            titles[0],
            format!("the board before the moves (case {case})"),
            "{folder}"
        );
        assert!(
            titles[1].starts_with("the board after ")
                && titles[1].ends_with(&format!("(case {case})")),
            "{folder}: {titles:?}"
        );
        for figure in &report.figures {
            let centre = figure
                .rows
                .iter()
                .flatten()
                .flatten()
                .filter(|c| c.highlight);
            assert_eq!(centre.count(), 8, "{folder}");
        }
    }
}

#[test]
fn a_ten_megabyte_line_is_judged_quickly_and_without_panic() {
    let input = file_of(&[Board::default()]);
    let start = std::time::Instant::now();
    let mut output = vec![b'A'; 10 << 20];
    output.extend_from_slice(b"\n2\n");
    let report = check(&input, &output, None, true, false);
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert!(
        report.message.contains("(10485760 bytes)"),
        "{}",
        report.message
    );
    let mut output = vec![b'x'; 10 << 20];
    output.push(b'\n');
    let report = check(&input, &output, None, true, false);
    assert!(
        report.message.contains("expected moves A..H"),
        "{}",
        report.message
    );
    let output = format!("DDHH\n{}\n", "9".repeat(400));
    let report = check(&input, output.as_bytes(), None, true, false);
    assert!(
        report
            .message
            .contains("(400 bytes), expected the centre digit"),
        "{}",
        report.message
    );
    assert!(
        start.elapsed().as_secs() < 10,
        "linear work: {:?}",
        start.elapsed()
    );
}

/// A shortest solution other than the smallest, if the board has one: the
/// second move (in A..H order) that starts a shortest path, then greedy.
fn second_shortest(board: &Board) -> Option<Solution> {
    let table = pdb();
    let d = table.board_distance(&board.masks());
    let mut firsts = Move::ALL.iter().filter(|&&m| {
        let mut b = *board;
        b.apply(m);
        d > 0 && table.board_distance(&b.masks()) + 1 == d
    });
    firsts.next()?;
    let &m = firsts.next()?;
    let mut b = *board;
    b.apply(m);
    let rest = table_solution(table, &b);
    let mut moves = vec![m];
    moves.extend(rest.moves);
    Some(Solution {
        moves,
        digit: rest.digit,
    })
}

fn board_strategy() -> impl Strategy<Value = Board> {
    let sorted: Vec<u8> = (0..24).map(|i| i / 8 + 1).collect();
    Just(sorted)
        .prop_shuffle()
        .prop_map(|cells| Board::new(cells.try_into().unwrap_or([0; 24])).unwrap_or_default())
}

proptest! {
    // The classic search costs milliseconds on typical boards (lengths 8 to
    // 11) and up to a second on the rare longest: keep the count small.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn both_heuristics_print_the_same(board in board_strategy()) {
        let by_pdb = solve_board(&board, Heuristic::Pdb);
        prop_assert_eq!(by_pdb.moves.len(), usize::from(pdb().board_distance(&board.masks())));
        prop_assert_eq!(solve_board(&board, Heuristic::Centre), by_pdb);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn solver_output_always_passes_the_checker(boards in prop::collection::vec(board_strategy(), 1..8)) {
        let input = file_of(&boards);
        let output = Rotation.solve(&input, &SolveOptions::default()).unwrap();
        let report = check(&input, &output, Some(&output), true, true);
        prop_assert_eq!(report.verdict, Verdict::Accepted, "{}", report.message);
    }

    #[test]
    fn another_shortest_answer_passes_only_without_lexmin(board in board_strategy()) {
        let input = file_of(&[board]);
        if let Some(other) = second_shortest(&board) {
            let output = format!("{}\n", other.render());
            let relaxed = check(&input, output.as_bytes(), None, false, true);
            prop_assert_eq!(relaxed.verdict, Verdict::Accepted, "{}", relaxed.message);
            let strict = check(&input, output.as_bytes(), None, true, false);
            prop_assert_eq!(strict.verdict, Verdict::WrongAnswer);
            let best = letters(&table_solution(pdb(), &board).moves);
            prop_assert!(strict.message.contains(&format!("position 1: found {}", other.moves[0].letter())), "{}", strict.message);
            prop_assert!(strict.message.ends_with(&format!("expected {best}")), "{}", strict.message);
        }
    }

    #[test]
    fn one_move_more_is_never_accepted(board in board_strategy(), extra in 0usize..8) {
        // Appending a move and its inverse keeps the goal, but is longer.
        let best = table_solution(pdb(), &board);
        let m = Move::ALL[extra];
        let mut moves = best.moves.clone();
        moves.extend([m, m.inverse()]);
        let output = format!("{}\n{}\n", letters(&moves), best.digit);
        let report = check(&file_of(&[board]), output.as_bytes(), None, false, false);
        prop_assert_eq!(report.verdict, Verdict::WrongAnswer);
        let expected = if best.moves.is_empty() { "no moves are needed".to_string() } else { format!("{} moves, optimum is {}", moves.len(), best.moves.len()) };
        prop_assert!(report.message.contains(&expected), "{}", report.message);
    }
}
