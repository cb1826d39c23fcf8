//! What `judge gen` costs against a plain shell loop: 10,000 cases from a
//! tiny C generator (`gen SEED N` prints `N SEED%1000`), made by a
//! generators.yaml (100 list items of `count: 100`, `{seed}` as BAPCtools
//! computes it, every run sandboxed under its limits, in parallel, written
//! under the manifest) cold (no data/) and cached (nothing changed: nothing
//! run), beside a shell loop calling the same compiled generator 10,000
//! times into files. One criterion group.
//!
//! cargo bench --bench gen
//! GEN_BENCH_CASES=2000 cargo bench --bench gen   # a quicker look
//!
//! Results and the ratio: BENCHMARKS.md.

mod common;
use common::{compile, run, write};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

const GEN_C: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) { unsigned long s = strtoul(argv[1], 0, 10); printf(\"%s %lu\\n\", argv[2], s % 1000); return 0; }\n";

fn cases() -> usize {
    std::env::var("GEN_BENCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| *n >= 100 && n.is_multiple_of(100))
        .unwrap_or(10_000)
}

fn setup(dir: &Path, cases: usize) {
    write(&dir.join("p/problem.yaml"), "name: Gen bench\n");
    write(&dir.join("p/generators/gen.c"), GEN_C);
    let mut yaml = String::from("data:\n  secret:\n    data:\n");
    for item in 0..cases / 100 {
        yaml.push_str(&format!(
            "      - g{item}:\n          generate: gen.c {{seed}} {{count}}\n          count: 100\n"
        ));
    }
    write(&dir.join("p/generators/generators.yaml"), &yaml);
    // The same generator compiled for the loop.
    write(&dir.join("gen.c"), GEN_C);
    compile(&dir.join("gen.c"), &dir.join("gen"));
    let script = format!(
        "mkdir -p loop && i=1; while [ $i -le {cases} ]; do ./gen $i $((i % 100 + 1)) > loop/$i.in; i=$((i + 1)); done\n"
    );
    write(&dir.join("loop.sh"), &script);
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), cases);
    // Build the generator once, outside the measurement.
    run(dir.path(), env!("CARGO_BIN_EXE_judge"), &["gen", "p"]);
    let mut group = c.benchmark_group(format!("{cases} cases from a tiny C generator"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(1));
    group.bench_function("judge gen, cold (no data/)", |b| {
        b.iter_batched(
            || std::fs::remove_dir_all(dir.path().join("p/data")).unwrap(),
            |()| run(dir.path(), env!("CARGO_BIN_EXE_judge"), &["gen", "p"]),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("judge gen, cached (nothing changed)", |b| {
        b.iter(|| run(dir.path(), env!("CARGO_BIN_EXE_judge"), &["gen", "p"]))
    });
    group.bench_function("shell loop calling the generator", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(dir.path().join("loop"));
            },
            |()| run(dir.path(), "sh", &["loop.sh"]),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
