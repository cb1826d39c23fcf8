//! What a `judge stress` round costs against its physical floor: 300
//! rounds of a tiny C generator (`gen SEED` prints two numbers), a compiled
//! A+B as the submission and the same A+B as the reference (`--against`),
//! compared by tokens, so no round differs and nothing is shrunk. The floor
//! (`benches/floor/stress_floor.c`) `posix_spawn`s the same three programs
//! per round (the generator's output written to a file, both programs run
//! on it, their outputs compared byte for byte); no limits, no sandbox.
//! One criterion group.
//!
//! cargo bench --bench stress
//!
//! Results and the ratio: BENCHMARKS.md.

mod common;
use common::{compile, run, write};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

const ROUNDS: usize = 300;

const GEN_C: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) { unsigned long s = strtoul(argv[1], 0, 10); printf(\"%lu %lu\\n\", s % 1000, s * 7 % 1000); return 0; }\n";
const AB_C: &str = "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)==2)printf(\"%lld\\n\",a+b);return 0;}\n";

fn setup(dir: &Path) {
    write(&dir.join("gen.c"), GEN_C);
    compile(&dir.join("gen.c"), &dir.join("gen"));
    write(&dir.join("ab.c"), AB_C);
    compile(&dir.join("ab.c"), &dir.join("ab"));
    let floor = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/floor/stress_floor.c");
    compile(&floor, &dir.join("stress_floor"));
    write(
        &dir.join("judge.toml"),
        "[problem.ab]\ncases = \"cases/ab\"\ncheck = \"tokens\"\n",
    );
    std::fs::create_dir_all(dir.join("cases/ab")).unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let rounds = ROUNDS.to_string();
    let mut group = c.benchmark_group(format!("{ROUNDS} stress rounds"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    group.bench_function("floor (posix_spawn gen + 2 programs, C)", |b| {
        b.iter(|| {
            run(
                dir.path(),
                "./stress_floor",
                &["./gen", "./ab", "./ab", &rounds],
            )
        })
    });
    group.bench_function("judge stress", |b| {
        b.iter(|| {
            run(
                dir.path(),
                env!("CARGO_BIN_EXE_judge"),
                &[
                    "stress",
                    "ab",
                    "--submission",
                    "./ab",
                    "--against",
                    "./ab",
                    "--generator",
                    "./gen",
                    "--count",
                    &rounds,
                ],
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
