//! Every parser the judge has, fed garbage: judge.toml, the case files of
//! each puzzle (validator and solver), contestant outputs and answer files
//! given to each checker, and JSON reports given to `judge merge`. Random
//! bytes, mutations of valid files, huge tokens, deep nesting, CRLF, BOM,
//! NUL and non-UTF-8 bytes. Each call must return (a value or an error with
//! a message), never panic, and finish in bounded time.

use judge::config::{Config, Overrides};
use judge::puzzles::{self, CheckRequest, GenSpec, Puzzle, SolveOptions};
use proptest::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// Generous: a linear parser takes microseconds; this only catches hangs
/// and quadratic blow-ups on the inputs below (at most ~1 MB).
const BOUND: Duration = Duration::from_secs(3);

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let value = f();
    let took = started.elapsed();
    assert!(took < BOUND, "{what} took {took:?}");
    value
}

/// Ways to damage a file.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    DuplicateLine(usize),
    Crlf,
    Bom,
    Nul(usize),
    HugeToken(usize, usize),
    LongNumber(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        Just(Mutation::Crlf),
        Just(Mutation::Bom),
        any::<usize>().prop_map(Mutation::Nul),
        (any::<usize>(), 1000usize..200_000).prop_map(|(p, n)| Mutation::HugeToken(p, n)),
        any::<usize>().prop_map(Mutation::LongNumber),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(mut data: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let at = |p: usize, data: &Vec<u8>| {
            if data.is_empty() {
                0
            } else {
                p % (data.len() + 1)
            }
        };
        match m {
            Mutation::Flip(p, b) if !data.is_empty() => {
                let i = p % data.len();
                data[i] = *b;
            }
            Mutation::Flip(..) => {}
            Mutation::Insert(p, bytes) => {
                let i = at(*p, &data);
                data.splice(i..i, bytes.iter().copied());
            }
            Mutation::Delete(p, n) => {
                let i = at(*p, &data);
                let end = (i + n).min(data.len());
                data.drain(i..end);
            }
            Mutation::DuplicateLine(p) => {
                let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
                if !lines.is_empty() {
                    let line = lines[p % lines.len()].to_vec();
                    data.extend_from_slice(&line);
                    data.push(b'\n');
                }
            }
            Mutation::Crlf => data = crlf(&data),
            Mutation::Bom => data.splice(0..0, [0xef, 0xbb, 0xbf]).for_each(drop),
            Mutation::Nul(p) => {
                let i = at(*p, &data);
                data.insert(i, 0);
            }
            Mutation::HugeToken(p, n) => {
                let i = at(*p, &data);
                data.splice(i..i, std::iter::repeat_n(b'7', *n));
            }
            Mutation::LongNumber(p) => {
                let i = at(*p, &data);
                data.splice(
                    i..i,
                    " 1".bytes()
                        .chain(std::iter::repeat_n(b'0', 400))
                        .chain(*b" "),
                );
            }
            Mutation::Truncate(p) => {
                let i = at(*p, &data);
                data.truncate(i);
            }
        }
    }
    data
}

/// A valid input and its reference output for each puzzle (two cases where
/// a file holds several).
fn seeds() -> Vec<(&'static dyn Puzzle, Vec<u8>, Vec<u8>)> {
    puzzles::registry()
        .iter()
        .map(|&p| {
            let count = if p.multi_case() { 2 } else { 1 };
            let cases = p
                .generate(&GenSpec {
                    count,
                    seed: 7,
                    ..GenSpec::default()
                })
                .unwrap_or_else(|e| panic!("{}: {e}", p.name()));
            let (input, answer) = p.assemble(&cases);
            (p, input, answer)
        })
        .collect()
}

fn exercise_puzzle(p: &dyn Puzzle, input: &[u8], output: &[u8], answer: Option<&[u8]>) {
    let name = p.name();
    let _ = timed(&format!("{name} validate"), || p.validate(input));
    let _ = timed(&format!("{name} solve"), || {
        p.solve(input, &SolveOptions::default())
    });
    for (lexmin, strict) in [(false, false), (true, true)] {
        let report = timed(&format!("{name} check"), || {
            p.check(&CheckRequest {
                input,
                output,
                answer,
                lexmin,
                strict,
            })
        });
        assert!(
            !report.message.is_empty(),
            "{name}: a verdict without a message"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn puzzle_inputs_mutated(which in 0usize..5, mutations in proptest::collection::vec(mutation(), 1..4)) {
        let seeds = seeds();
        let (p, input, answer) = &seeds[which % seeds.len()];
        let bad = apply(input.clone(), &mutations);
        exercise_puzzle(*p, &bad, answer, Some(answer));
    }

    #[test]
    fn contestant_outputs_and_answers_mutated(which in 0usize..5, mutations in proptest::collection::vec(mutation(), 1..4), in_answer in any::<bool>()) {
        let seeds = seeds();
        let (p, input, answer) = &seeds[which % seeds.len()];
        let bad = apply(answer.clone(), &mutations);
        if in_answer {
            exercise_puzzle(*p, input, answer, Some(&bad));
        } else {
            exercise_puzzle(*p, input, &bad, Some(answer));
        }
    }

    #[test]
    fn random_bytes_everywhere(which in 0usize..5, bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let seeds = seeds();
        let (p, input, answer) = &seeds[which % seeds.len()];
        exercise_puzzle(*p, &bytes, answer, None);
        exercise_puzzle(*p, input, &bytes, Some(&bytes));
    }

    #[test]
    fn judge_toml_mutated(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let valid = include_str!("../judge.toml").as_bytes().to_vec();
        let bad = apply(valid, &mutations);
        let text = String::from_utf8_lossy(&bad);
        let result = timed("judge.toml", || Config::parse(&text, Path::new("judge.toml"), &Overrides::default()));
        if let Err(e) = result {
            prop_assert!(e.to_string().starts_with("judge.toml"), "error without the file: {e}");
        }
    }

    #[test]
    fn judge_toml_random(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = timed("judge.toml", || Config::parse(&text, Path::new("judge.toml"), &Overrides::default()));
    }

    #[test]
    fn merge_reports_mutated(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let bad = apply(sample_report(), &mutations);
        let _ = timed("merge parse", || judge::report::merge::parse(&bad));
    }
}

fn sample_report() -> Vec<u8> {
    br#"{"verdict":"WA","summary":{"AC":1,"WA":1},"cases":[
{"index":0,"problem":"sum","case":"1.in","verdict":"AC","message":"ok","cpu_ms":1.0,"wall_ms":1.2,"peak_rss_kib":100,"memory_source":"rusage","tl_ratio":0.001,"time_limit_ms":1000.0},
{"index":1,"problem":"sum","case":"2.in","verdict":"WA","message":"bad","cpu_ms":1.0,"wall_ms":1.2,"peak_rss_kib":null,"memory_source":"none","tl_ratio":0.001,"time_limit_ms":1000.0,"diff":"-1\n+2\n"}],
"total":2,"jobs":1,"programs":["./a"],"problems":[{"name":"sum","check":"tokens","time_limit_ms":1000.0,"memory_limit_kib":262144}],
"protections":{"isolation":"plain","on":[],"off":[]},"interrupted":false,"elapsed_ms":3.0,"version":1}"#
        .to_vec()
}

#[test]
fn the_sample_report_parses_so_mutations_start_from_valid() {
    assert!(judge::report::merge::parse(&sample_report()).is_ok());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [100usize, 10_000, 100_000] {
        let toml = format!("a = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
        let _ = timed("deep toml", || {
            Config::parse(&toml, Path::new("judge.toml"), &Overrides::default())
        });
        let toml = format!(
            "{}\n",
            (0..depth.min(5000))
                .map(|i| format!("[t{i}]"))
                .collect::<String>()
        );
        let _ = timed("many tables", || {
            Config::parse(&toml, Path::new("judge.toml"), &Overrides::default())
        });
        let json = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let err = timed("deep json", || judge::report::merge::parse(json.as_bytes())).unwrap_err();
        assert!(!err.to_string().is_empty());
        let inline = format!("a = {}1{}\n", "{b = ".repeat(depth), "}".repeat(depth));
        let _ = timed("deep inline tables", || {
            Config::parse(&inline, Path::new("judge.toml"), &Overrides::default())
        });
    }
}

/// The bytes with every `\n` made `\r\n`.
fn crlf(data: &[u8]) -> Vec<u8> {
    data.iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect()
}

#[test]
fn huge_and_odd_outputs_for_every_checker() {
    for (p, input, answer) in seeds() {
        let huge_line = vec![b'A'; 10 << 20];
        let crlf = crlf(&answer);
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(&answer);
        for output in [
            huge_line,
            crlf,
            bom,
            vec![0u8; 1000],
            vec![0xff; 1000],
            Vec::new(),
            b"\n\n\n".to_vec(),
        ] {
            exercise_puzzle(p, &input, &output, Some(&answer));
        }
    }
}
