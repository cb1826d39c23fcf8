//! `judge solve` on one large generated file (issue 18): the same solve of
//! 200,000 cases on one core and on every core, side by side, so the ratio
//! is the parallel speed-up of the solver itself (reading, solving and
//! writing; the process-wide tables are built before timing starts).
//!
//! Run: `cargo bench --bench solve_many` (about a minute). The inputs are
//! exactly `judge gen rotation --count 200000 --seed 1` and
//! `judge gen booksort --count 200000 --seed 1`. Numbers in BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use judge::puzzles::{self, GenSpec, SolveOptions};
use std::hint::black_box;
use std::time::Duration;

const CASES: usize = 200_000;

fn file(puzzle: &str) -> Vec<u8> {
    let puzzle = puzzles::find(puzzle).expect("built-in puzzle");
    let cases = puzzle
        .generate(&GenSpec {
            count: CASES,
            seed: 1,
            ..GenSpec::default()
        })
        .expect("generator");
    puzzle.assemble(&cases).0
}

fn on_cores(c: &mut Criterion, name: &str, seconds: u64) {
    let puzzle = puzzles::find(name).expect("built-in puzzle");
    let input = file(name);
    let options = SolveOptions::default();
    // Build the shared tables once, outside the timing.
    let reference = puzzle.solve(&input, &options).expect("solves");
    let mut group = c.benchmark_group(format!("solve {CASES} {name} cases"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(seconds))
        .throughput(Throughput::Elements(CASES as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let output = pool.install(|| puzzle.solve(&input, &options).expect("solves"));
        assert_eq!(output, reference, "the same bytes on {threads} threads");
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| pool.install(|| puzzle.solve(black_box(&input), &options)))
        });
    }
    group.finish();
}

fn rotation(c: &mut Criterion) {
    on_cores(c, "rotation", 5);
}

fn booksort(c: &mut Criterion) {
    on_cores(c, "booksort", 20);
}

criterion_group!(benches, rotation, booksort);
criterion_main!(benches);
