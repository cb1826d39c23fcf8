//! Golden tests of the built-in puzzle checkers, one folder per behaviour
//! (as Kattis problemtools' default-validator tests):
//!
//! ```text
//! tests/checkers/<puzzle>/<behaviour>/input      the case file
//! tests/checkers/<puzzle>/<behaviour>/output     what a contestant printed
//! tests/checkers/<puzzle>/<behaviour>/answer     optional answer file
//! tests/checkers/<puzzle>/<behaviour>/expect.toml
//!     verdict = "WA"                 # the verdict code
//!     message = "13 moves, optimum is 12"   # a substring of the message
//!     lexmin = true                  # optional; default: the puzzle's
//!     strict = false                 # optional; default false
//! ```

use judge::Verdict;
use judge::puzzles::{self, CheckRequest};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    verdict: String,
    message: String,
    lexmin: Option<bool>,
    #[serde(default)]
    strict: bool,
}

#[test]
fn every_golden_folder_gets_its_verdict_and_message() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checkers");
    let mut checked = 0;
    let mut failures = Vec::new();
    for puzzle_dir in sorted_dirs(&root) {
        let name = puzzle_dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let puzzle = puzzles::find(&name).unwrap_or_else(|| panic!("no puzzle named {name}"));
        for case in sorted_dirs(&puzzle_dir) {
            let read = |file: &str| std::fs::read(case.join(file));
            let input = read("input").expect("input");
            let output = read("output").expect("output");
            let answer = read("answer").ok();
            let expect: Expect =
                toml::from_str(&std::fs::read_to_string(case.join("expect.toml")).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", case.display()));
            let report = puzzle.check(&CheckRequest {
                input: &input,
                output: &output,
                answer: answer.as_deref(),
                lexmin: expect.lexmin.unwrap_or(puzzle.default_lexmin()),
                strict: expect.strict,
            });
            let want = Verdict::parse(&expect.verdict).expect("verdict code");
            if report.verdict != want || !report.message.contains(&expect.message) {
                failures.push(format!(
                    "{}: expected {} with {:?}, got {} {:?}",
                    case.display(),
                    want,
                    expect.message,
                    report.verdict,
                    report.message
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{checked} golden checker cases");
}

fn sorted_dirs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}
