//! Throughput of the four puzzles' reference solvers, and booksort's pruned
//! IDA* against the seed's classic one on the hard kind of case.
//!
//! Run: `cargo bench --bench puzzles` (a few minutes on two cores; the
//! classic booksort search is the slow part). Numbers and ratios are kept in
//! BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use judge::puzzles::{self, GenSpec, GeneratedCase, SolveOptions, booksort};
use std::hint::black_box;
use std::time::Duration;

fn generated(puzzle: &str, spec: GenSpec) -> Vec<GeneratedCase> {
    let puzzle = puzzles::find(puzzle).expect("built-in puzzle");
    puzzle.generate(&spec).expect("generator")
}

/// Each solver on generated cases: booksort as one file of many cases, the
/// single-case puzzles one file per case.
fn solvers(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let options = SolveOptions::default();

    let booksort = puzzles::find("booksort").expect("booksort");
    let cases = generated(
        "booksort",
        GenSpec {
            count: 1000,
            seed: 1,
            ..GenSpec::default()
        },
    );
    let (file, _) = booksort.assemble(&cases);
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("booksort (1000 cases, n = 15, distances 0..5 mixed)", |b| {
        b.iter(|| booksort.solve(black_box(&file), &options).expect("solves"))
    });

    for (name, count) in [("swap", 200), ("flip", 2000), ("pilots", 2000)] {
        let puzzle = puzzles::find(name).expect("built-in puzzle");
        let files: Vec<Vec<u8>> = generated(
            name,
            GenSpec {
                count,
                seed: 1,
                ..GenSpec::default()
            },
        )
        .iter()
        .map(|case| puzzle.assemble(std::slice::from_ref(case)).0)
        .collect();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(format!("{name} ({count} files of one case)"), |b| {
            b.iter(|| {
                for file in &files {
                    black_box(puzzle.solve(black_box(file), &options).expect("solves"));
                }
            })
        });
    }
    group.finish();
}

/// 1,000 shelves of 15 books that need 5 or more moves while the lower bound
/// says 4 might do, so both searches must refute the whole depth-4 tree.
fn booksort_hard(c: &mut Criterion) {
    let cases = generated(
        "booksort",
        GenSpec {
            count: 1000,
            seed: 2,
            n: Some(15..=15),
            moves: Some(5..=5),
            ..GenSpec::default()
        },
    );
    let (file, _) = puzzles::find("booksort")
        .expect("booksort")
        .assemble(&cases);
    let shelves = booksort::read_cases(&file).expect("generated file reads");
    let mut group = c.benchmark_group("booksort hard (1000 cases, n = 15, 5 or more)");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(shelves.len() as u64));
    group.bench_function("pruned IDA* (reference)", |b| {
        b.iter(|| {
            shelves
                .iter()
                .map(|s| booksort::distance(black_box(s)))
                .sum::<u8>()
        })
    });
    // The classic search takes seconds per iteration: give it time for its 10 samples.
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("classic IDA* (seed)", |b| {
        b.iter(|| {
            shelves
                .iter()
                .map(|s| booksort::classic_distance(black_box(s)))
                .sum::<u8>()
        })
    });
    group.finish();
}

criterion_group!(benches, solvers, booksort_hard);
criterion_main!(benches);
