//! What an interactive case costs over an ordinary one: 1,000 tiny A+B
//! cases judged as an interactive package (the validator sends `a b`,
//! reads the sum, exit 42/43; the judge relays both ways and keeps a
//! transcript) beside the same 1,000 cases as an ordinary package (token
//! comparison), one `judge run -j 1` each, in one criterion group.
//!
//! cargo bench --bench interactive
//!
//! Results and the ratio: BENCHMARKS.md.

mod common;
use common::{compile, run, write};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

const CASES: usize = 1000;

const VALIDATOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    long long a, b, s;
    if (!in || fscanf(in, "%lld %lld", &a, &b) != 2) return 1;
    printf("%lld %lld\n", a, b);
    fflush(stdout);
    if (scanf("%lld", &s) != 1) return 43;
    return s == a + b ? 42 : 43;
}
"#;

const AB_C: &str = "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)==2)printf(\"%lld\\n\",a+b);fflush(stdout);return 0;}\n";

fn setup(dir: &Path) {
    write(&dir.join("ab.c"), AB_C);
    compile(&dir.join("ab.c"), &dir.join("ab"));
    write(
        &dir.join("interactive/problem.yaml"),
        "name: A+B interactive\ntype: interactive\nlimits:\n  time_limit: 1\n",
    );
    write(
        &dir.join("interactive/output_validator/validate.c"),
        VALIDATOR_C,
    );
    write(
        &dir.join("ordinary/problem.yaml"),
        "name: A+B\nlimits:\n  time_limit: 1\n",
    );
    for i in 1..=CASES {
        let input = format!("{i} {}\n", 3 * i);
        let answer = format!("{}\n", 4 * i);
        for pkg in ["interactive", "ordinary"] {
            write(&dir.join(format!("{pkg}/data/secret/{i}.in")), &input);
            write(&dir.join(format!("{pkg}/data/secret/{i}.ans")), &answer);
        }
    }
}

fn judge(dir: &Path, package: &str) {
    let args = ["run", package, "--submission", "./ab", "-q", "-j", "1"];
    run(dir, env!("CARGO_BIN_EXE_judge"), &args);
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    // Build the validator once, outside the measurement.
    judge(dir.path(), "interactive");
    let mut group = c.benchmark_group("1000 tiny cases, judge run -j 1");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    group.bench_function("ordinary (token comparison)", |b| {
        b.iter(|| judge(dir.path(), "ordinary"))
    });
    group.bench_function("interactive (validator + relays)", |b| {
        b.iter(|| judge(dir.path(), "interactive"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
