//! The real binary on a scratch tree with a small shell submission.

use super::common::*;
use super::*;

/// A submission that earns a different verdict on each case, by the
/// case's content (it needs nothing of how its input is given).
const SUBMISSION: &str = r#"input=$(cat)
case "$input" in
    "1 1 1 1 3 2 3 2 "*) printf 'ACDF\n2\nDDHH\n2\n'; exit ;;
esac
set -- $(printf '%s\n' "$input" | sed -n 2p)
case "$1 $2" in
    "999 1") echo 1001 ;;
    "3 4") echo 'cannot read the pairs' >&2; exit 3 ;;
    "5 6") echo '<script>alert(1)</script> "><img src=x onerror=alert(2)>'; printf '\377\376\033[31m' >&2; exit 4 ;;
    *) echo $(($1 + $2)) ;;
esac"#;

fn demo_tree(s: &Scratch) {
    for (name, a, b) in [
        ("ac", 1, 2),
        ("wa", 999, 1),
        ("re", 3, 4),
        ("hostile", 5, 6),
    ] {
        s.write(&format!("cases/sum/{name}.in"), format!("1\n{a} {b}\n"));
        s.write(&format!("cases/sum/{name}.ans"), format!("{}\n", a + b));
    }
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/rotation");
    for file in ["sample.in", "sample.ans"] {
        let bytes = std::fs::read(shipped.join(file)).unwrap();
        s.write(&format!("cases/rotation/{file}"), bytes);
    }
    s.write(
        "judge.toml",
        "[problem.sum]\ncheck = \"tokens\"\n\n[problem.rotation]\npuzzle = \"rotation\"\n",
    );
    s.script("sub.sh", SUBMISSION);
}

#[test]
fn the_binary_writes_the_report_for_a_real_run() {
    let s = Scratch::new();
    demo_tree(&s);
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "-j",
        "2",
        "--submission",
        "./sub.sh",
        "--report",
        "out.html",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("Summary"), "human report on stdout");
    let page = std::fs::read(s.path().join("out.html")).unwrap();
    let doc = parse(&page);
    assert_self_contained(&doc);
    assert_links_resolve(&doc);
    let expected = [
        ("sum/ac.in", Verdict::Accepted),
        ("sum/wa.in", Verdict::WrongAnswer),
        ("sum/re.in", Verdict::RuntimeError),
        ("sum/hostile.in", Verdict::RuntimeError),
        ("rotation/sample.in", Verdict::WrongAnswer),
    ];
    let rows: Vec<ElementRef> = doc.select(&sel("table.cases tbody tr")).collect();
    assert_eq!(rows.len(), expected.len());
    for (name, verdict) in expected {
        let row = rows
            .iter()
            .find(|r| r.text().any(|t| t == name))
            .unwrap_or_else(|| panic!("no row for {name}"));
        assert!(
            classes(*row).contains(&verdict_class(verdict)),
            "{name}: {:?}",
            classes(*row)
        );
    }
    let page = String::from_utf8(page).unwrap();
    assert!(!page.contains("<script>alert(1)") && !page.contains("<img src=x"));
    // The header says where the slots and their programs ran.
    assert!(page.contains("<dt>cores</dt>"), "no cores in the header");
    // The Rotation Game's boards: before and after, centre highlighted.
    let rotation = doc
        .select(&sel("article.case"))
        .find(|a| a.text().any(|t| t == "rotation/sample.in"))
        .expect("a detail for the rotation case");
    assert_eq!(rotation.select(&sel("figure.board")).count(), 2);
    assert_eq!(rotation.select(&sel("figure.board td.hl")).count(), 16);
    assert_eq!(
        rotation.select(&sel("figure.board td:not(.hole)")).count(),
        48
    );
    // The stderr of the crash is shown, its bytes made safe.
    let hostile = doc
        .select(&sel("article.case"))
        .find(|a| a.text().any(|t| t == "sum/hostile.in"))
        .unwrap();
    let stderr: String = hostile
        .select(&sel("details.stderr pre"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert!(
        stderr.contains('\u{fffd}') && stderr.contains('␛'),
        "{stderr:?}"
    );

    // --format html on stdout, and the .htm extension.
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "--submission",
        "./sub.sh",
        "--format",
        "html",
        "--filter",
        "ac",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stdout.starts_with("<!DOCTYPE html>"), "{}", ran.stdout);
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "-q",
        "--submission",
        "./sub.sh",
        "--report",
        "r.htm",
        "--filter",
        "ac",
    ]);
    assert_eq!(run(cmd).code, 0);
    assert!(s.read("r.htm").contains("<table class=\"cases\">"));

    // judge merge renders a merged report as HTML too.
    let mut cmd = s.judge();
    cmd.args(["run", "--submission", "./sub.sh", "--report", "r.json"]);
    assert_eq!(run(cmd).code, 1);
    let mut cmd = s.judge();
    cmd.args(["merge", "r.json", "--report", "merged.html"]);
    assert_eq!(run(cmd).code, 1);
    let merged = Html::parse_document(&s.read("merged.html"));
    assert_eq!(merged.select(&sel("#grid a.cell")).count(), expected.len());
}
