//! Rotation Game benchmarks: building the pattern database, the two IDA*
//! heuristics on the hardest boards (optimal length 12 and 13), generating
//! length-13 cases, and counting all 9,465,511,770 boards by length.
//!
//! `cargo bench --bench rotation`. The classic `centre` heuristic takes
//! about a second per length-13 board, so its group runs ten single-iteration
//! samples on two boards only; `pdb` runs on the same two boards (for the
//! ratio) and on 64 hard boards (for a per-board figure).

use criterion::{BatchSize, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use judge::puzzles::GenSpec;
use judge::puzzles::rotation::board::Board;
use judge::puzzles::rotation::generate::{board_of_length, find_longest_boards, generate};
use judge::puzzles::rotation::pdb::{build_pdb, pdb};
use judge::puzzles::rotation::search::{Heuristic, solve_board};
use judge::puzzles::rotation::stats::count_boards;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// `count` boards of optimal length 12 and 13 alternately, fixed by the seed.
fn hard_boards(count: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    (0..count)
        .map(|i| board_of_length(pdb(), &mut rng, if i % 2 == 0 { 13 } else { 12 }))
        .collect()
}

fn solve_all(boards: &[Board], heuristic: Heuristic) -> usize {
    boards
        .iter()
        .map(|b| solve_board(b, heuristic).moves.len())
        .sum()
}

fn pattern_database(c: &mut Criterion) {
    let mut group = c.benchmark_group("rotation/pdb");
    group.sample_size(20);
    group.bench_function("build", |b| b.iter(|| black_box(build_pdb())));
    group.finish();
}

fn heuristics(c: &mut Criterion) {
    let pair = hard_boards(2);
    let many = hard_boards(64);
    let mut group = c.benchmark_group("rotation/solve");
    group.throughput(Throughput::Elements(many.len() as u64));
    group.bench_function("pdb/64 boards of length 12-13", |b| {
        b.iter(|| solve_all(black_box(&many), Heuristic::Pdb))
    });
    group.throughput(Throughput::Elements(pair.len() as u64));
    group.bench_function("pdb/2 boards of length 13, 12", |b| {
        b.iter(|| solve_all(black_box(&pair), Heuristic::Pdb))
    });
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("centre/2 boards of length 13, 12", |b| {
        b.iter(|| solve_all(black_box(&pair), Heuristic::Centre))
    });
    group.finish();
}

fn generation(c: &mut Criterion) {
    let spec = |len| GenSpec {
        count: 100,
        seed: 1,
        length: Some(len..=len),
        ..GenSpec::default()
    };
    // Build the shared tables (and the list of length-13 boards) first.
    let _ = generate(&spec(13));
    let mut group = c.benchmark_group("rotation/generate");
    group.sample_size(20);
    group.bench_function("list the 192 boards of length 13", |b| {
        b.iter(|| find_longest_boards(pdb()).len())
    });
    group.throughput(Throughput::Elements(100));
    for len in [12, 13] {
        group.bench_function(format!("100 cases of length {len}"), |b| {
            b.iter_batched(|| spec(len), |s| generate(&s), BatchSize::SmallInput)
        });
    }
    group.finish();
}

fn whole_space(c: &mut Criterion) {
    let _ = pdb();
    let mut group = c.benchmark_group("rotation/stats");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("count all boards by length", |b| b.iter(count_boards));
    group.finish();
}

criterion_group!(
    benches,
    pattern_database,
    heuristics,
    generation,
    whole_space
);
criterion_main!(benches);
