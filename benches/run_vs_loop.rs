//! `judge run` on 1,000 one-line cases with a compiled A+B, side by side
//! with the physical floor (`benches/floor/floor.c`: a C program that
//! `posix_spawn`s the same A+B on each input, reads its output through a
//! pipe, waits and compares bytes; no limits, no sandbox) and a plain bash
//! loop that runs the program on each case and compares with `cmp`.
//!
//! cargo bench --bench run_vs_loop
//!
//! Results and ratios: BENCHMARKS.md.

mod common;
use common::{compile, run};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

const CASES: usize = 1000;

fn setup(dir: &Path) {
    let src = dir.join("ab.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)==2)printf(\"%lld\\n\",a+b);return 0;}\n",
    )
    .unwrap();
    compile(&src, &dir.join("ab"));
    let cases = dir.join("cases/ab");
    std::fs::create_dir_all(&cases).unwrap();
    for i in 1..=CASES {
        std::fs::write(cases.join(format!("{i}.in")), format!("{i} {}\n", 3 * i)).unwrap();
        std::fs::write(cases.join(format!("{i}.ans")), format!("{}\n", 4 * i)).unwrap();
    }
    let floor = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/floor/floor.c");
    compile(&floor, &dir.join("floor"));
    std::fs::write(
        dir.join("loop.sh"),
        "#!/bin/bash\nfor f in cases/ab/*.in; do ./ab < \"$f\" > out.txt; cmp -s out.txt \"${f%.in}.ans\" || echo \"WA $f\"; done\n",
    )
    .unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let judge = env!("CARGO_BIN_EXE_judge");
    let cores = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .to_string();
    let judge_args = |jobs: &'static str| {
        vec![
            "run",
            "cases/ab",
            "--problem",
            "ab",
            "--check",
            "tokens",
            "--submission",
            "./ab",
            "-q",
            "-j",
            jobs,
        ]
    };
    let mut group = c.benchmark_group("1000 one-line cases");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    let count = CASES.to_string();
    group.bench_function("floor (posix_spawn loop, C)", |b| {
        b.iter(|| run(dir.path(), "./floor", &["./ab", "cases/ab", &count]))
    });
    group.bench_function("bash loop (spawn + cmp)", |b| {
        b.iter(|| run(dir.path(), "bash", &["loop.sh"]))
    });
    group.bench_function("judge -j 1 --sandbox plain", |b| {
        let mut args = judge_args("1");
        args.extend(["--sandbox", "plain"]);
        b.iter(|| run(dir.path(), judge, &args))
    });
    group.bench_function("judge -j 1", |b| {
        b.iter(|| run(dir.path(), judge, &judge_args("1")))
    });
    let all: &'static str = Box::leak(cores.into_boxed_str());
    group.bench_function(format!("judge -j {all} (all cores)"), |b| {
        b.iter(|| run(dir.path(), judge, &judge_args(all)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
