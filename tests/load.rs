//! The load test: 20,000 cases in 4 workers with a mix of accepted,
//! time-limit and memory-limit runs. Every verdict must be the one its case
//! name announces, no process or temporary file may be left, and the
//! judge's own memory stays small (it streams results, it does not hold
//! outputs). The judge's peak is printed for BENCHMARKS.md.

mod common;
use common::*;

const CASES: usize = 20_000;
const TLE_EVERY: usize = 400; // 50 TLE cases
const MLE_EVERY: usize = 400; // 50 MLE cases, offset

#[test]
fn twenty_thousand_cases_in_four_workers() {
    let s = Scratch::new();
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut expected = Vec::with_capacity(CASES);
    for i in 0..CASES {
        let (kind, input, answer) = if i % TLE_EVERY == 7 {
            ("tle", "tle\n".to_string(), "0\n".to_string())
        } else if i % MLE_EVERY == 13 {
            ("mle", "mle\n".to_string(), "0\n".to_string())
        } else {
            ("ac", format!("ac {i} {}\n", i * 3), format!("{}\n", i * 4))
        };
        let name = format!("{kind}-{i:05}");
        s.write(&format!("cases/load/{name}.in"), input);
        s.write(&format!("cases/load/{name}.ans"), answer);
        expected.push((format!("{name}.in"), kind.to_uppercase()));
    }
    expected.sort_by(|a, b| judge::cases::natural_cmp(&a.0, &b.0));
    s.write(
        "judge.toml",
        "[problem.load]\ncases = \"cases/load\"\ncheck = \"tokens\"\ntime_limit = \"100ms\"\nmemory_limit = \"64MiB\"\n",
    );
    let program = build(
        "c",
        "load_mix",
        r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void){ char kind[8]; long long a, b;
  if (scanf("%7s", kind) != 1) return 2;
  if (!strcmp(kind, "tle")) { volatile unsigned long x = 0; for(;;) x++; }
  if (!strcmp(kind, "mle")) { size_t n = (size_t)512 << 20; char *p = malloc(n);
    if (!p) { fputs("out of memory\n", stderr); return 3; }
    for (size_t i = 0; i < n; i += 4096) p[i] = 1; printf("%d\n", p[4096]); return 0; }
  if (scanf("%lld %lld", &a, &b) != 2) return 2;
  printf("%lld\n", a + b); return 0; }"#,
    );
    let mut cmd = s.judge();
    cmd.env("TMPDIR", &tmp)
        .args(["run", "-j", "4", "--format", "json", "--submission"])
        .arg(&program);
    let started = std::time::Instant::now();
    let (ran, peak_kib) = run_measured(cmd);
    let took = started.elapsed();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let report = ran.json();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), CASES);
    let mut wrong = Vec::new();
    for (case, (name, verdict)) in cases.iter().zip(&expected) {
        assert_eq!(case["case"], name.as_str());
        if case["verdict"] != verdict.as_str() {
            wrong.push(format!("{name}: {} {}", case["verdict"], case["message"]));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong verdicts, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    assert_eq!(report["summary"]["TLE"], CASES / TLE_EVERY);
    assert_eq!(report["summary"]["MLE"], CASES / MLE_EVERY);
    assert_eq!(
        alive_with(&program.file_name().unwrap().to_string_lossy()),
        Vec::<i32>::new()
    );
    assert_eq!(
        leftovers(&tmp),
        Vec::<String>::new(),
        "temporary files left behind"
    );
    assert!(peak_kib < 100 * 1024, "judge peak {peak_kib} KiB");
    eprintln!(
        "load: {CASES} cases, -j 4, {:.1}s, judge peak memory {} KiB",
        took.as_secs_f64(),
        peak_kib
    );
}
