//! `judge verify` on a Kattis package's own `submissions/` (inside it, by
//! its directory, and from a judge.toml `package =` table), and what its
//! reports show: the verify outcome instead of the run's verdict, each
//! submission's expectation and agreement with the case that disagreed,
//! two problems' same-named submissions kept apart, the real time limit,
//! and `-q`.

mod common;
use common::*;
use scraper::{Html, Selector};

/// An A+B package (Kattis' default validator) with an accepted and a
/// wrong-answer submission in its own submissions/.
fn package(s: &Scratch, pkg: &str) {
    s.write(&format!("{pkg}/problem.yaml"), "name: A plus B\n");
    ab_package_data(s, pkg);
    s.write(&format!("{pkg}/submissions/accepted/ab.c"), AB_C);
    s.write(
        &format!("{pkg}/submissions/wrong_answer/seven.c"),
        WRONG_ON_SEVEN_C,
    );
}

fn verify_in(s: &Scratch, dir: &str, args: &[&str]) -> Ran {
    let mut cmd = s.judge();
    cmd.current_dir(s.path().join(dir)).arg("verify").args(args);
    run(cmd)
}

#[test]
fn a_packages_submissions_are_verified_as_they_are() {
    let s = Scratch::new();
    package(&s, "pkg");
    let expect_ok = |ran: &Ran, how: &str| {
        assert_eq!(ran.code, 0, "{how}:\n{}\n{}", ran.stdout, ran.stderr);
        assert!(
            ran.stdout
                .contains("pkg: 2 submissions on 3 cases, time limit 1s"),
            "{how}: {}",
            ran.stdout
        );
        assert!(
            ran.stdout.contains("  ok    wrong_answer/seven.c  WA "),
            "{how}: {}",
            ran.stdout
        );
        assert!(
            ran.stdout.contains("OK: 2 of 2 submissions as expected"),
            "{how}: {}",
            ran.stdout
        );
    };
    // Inside the package, with no judge.toml.
    expect_ok(&verify_in(&s, "pkg", &[]), "inside the package");
    // The package named by its directory.
    expect_ok(&verify_in(&s, ".", &["pkg"]), "judge verify pkg");
    // A judge.toml table pointing at the package, with no submissions key.
    s.write("judge.toml", "[problem.pkg]\npackage = \"pkg\"\n");
    expect_ok(&verify_in(&s, ".", &[]), "a package = table");
    expect_ok(&verify_in(&s, ".", &["pkg"]), "a package = table, named");
    // And a disagreement is caught there too.
    std::fs::rename(
        s.path().join("pkg/submissions/wrong_answer/seven.c"),
        s.path().join("pkg/submissions/accepted/seven.c"),
    )
    .unwrap();
    let ran = verify_in(&s, "pkg", &[]);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("  FAIL pkg/accepted/seven.c: expected AC; got WA on secret/2.in"),
        "{}",
        ran.stdout
    );
    // A directory that is neither a problem nor a package says so.
    let ran = verify_in(&s, "pkg", &["nowhere"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("nowhere: not a problem package"),
        "{}",
        ran.stderr
    );
}

/// A quick copy of the examples whose rotation problem has an
/// `accepted/sum.c` too (an A+B program: WA on every rotation case).
fn clashing_copy(s: &Scratch) -> std::path::PathBuf {
    let copy = s.copy_tree(&examples(), "examples");
    std::fs::remove_dir_all(copy.join("sum/submissions/time_limit_exceeded")).unwrap();
    std::fs::write(copy.join("rotation/submissions/accepted/sum.c"), AB_C).unwrap();
    copy
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

fn text(e: scraper::ElementRef<'_>) -> String {
    e.text().collect::<String>()
}

#[test]
fn the_reports_show_expectations_and_the_verify_outcome() {
    let s = Scratch::new();
    let copy = clashing_copy(&s);
    let mut cmd = s.judge();
    cmd.arg("--config").arg(copy.join("judge.toml")).args([
        "verify",
        "--allow-missing",
        "--report",
        "v.html",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    let page = s.read("v.html");
    let doc = Html::parse_document(&page);

    // The header: the verify outcome, not the run's first non-AC verdict.
    let title = text(doc.select(&sel("title")).next().unwrap());
    assert!(title.starts_with("FAIL · "), "{title}");
    assert!(title.contains("submissions as expected"), "{title}");
    let big = text(
        doc.select(&sel("header .overall .badge.big"))
            .next()
            .unwrap(),
    );
    assert_eq!(big, "FAIL");
    let headline = text(doc.select(&sel("header .overall p")).next().unwrap());
    assert!(headline.contains("submissions as expected"), "{headline}");
    assert!(headline.contains("1 disagrees"), "{headline}");

    // The problem table: the real limit, the margin beside it.
    let sum_row = doc
        .select(&sel("table.problems tbody tr"))
        .find(|r| text(*r).starts_with("sum"))
        .unwrap();
    let row = text(sum_row);
    assert!(row.contains("0.500s"), "{row}");
    assert!(row.contains("run at 0.750s"), "{row}");

    // The submissions table: expected, ok/FAIL, the case that disagreed.
    let rows: Vec<String> = doc
        .select(&sel("table.submissions tbody tr"))
        .map(text)
        .collect();
    let failed: Vec<&String> = rows.iter().filter(|r| r.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 1, "{rows:#?}");
    assert!(
        failed[0].contains("rotation") && failed[0].contains("accepted/sum.c"),
        "{}",
        failed[0]
    );
    assert!(
        failed[0].contains("expected AC; got WA on len03.in"),
        "{}",
        failed[0]
    );
    let link = doc
        .select(&sel("table.submissions tr.v-wa a"))
        .next()
        .expect("a link to the case that disagreed");
    let href = link.value().attr("href").unwrap();
    assert!(
        doc.select(&sel(&format!("[id='{}']", &href[1..])))
            .next()
            .is_some(),
        "{href} lands nowhere"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("ok")
            && r.contains("run_time_error/crash.c")
            && r.contains("permitted RE")),
        "{rows:#?}"
    );

    // The matrix: a column per submission, the two accepted/sum.c apart,
    // each with its expectation and ok/FAIL.
    let heads: Vec<String> = doc
        .select(&sel("table.matrix th.program"))
        .map(text)
        .collect();
    assert!(
        heads.contains(&"sum/accepted/sum.c".to_string()),
        "{heads:?}"
    );
    assert!(
        heads.contains(&"rotation/accepted/sum.c".to_string()),
        "{heads:?}"
    );
    let expected: Vec<String> = doc
        .select(&sel("table.matrix tr.expected td"))
        .map(text)
        .collect();
    let verified: Vec<String> = doc
        .select(&sel("table.matrix tr.verified td .badge"))
        .map(text)
        .collect();
    assert_eq!(expected.len(), heads.len());
    assert_eq!(verified.len(), heads.len());
    let at = |name: &str| heads.iter().position(|h| h == name).unwrap();
    assert_eq!(expected[at("sum/wrong_answer/overflow.c")], "WA");
    assert_eq!(verified[at("sum/wrong_answer/overflow.c")], "ok");
    assert_eq!(verified[at("sum/accepted/sum.c")], "ok");
    assert_eq!(verified[at("rotation/accepted/sum.c")], "FAIL");

    // The JSON report says the same.
    let mut cmd = s.judge();
    cmd.arg("--config").arg(copy.join("judge.toml")).args([
        "verify",
        "--allow-missing",
        "--format",
        "json",
    ]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1);
    let report = ran.json();
    assert_eq!(report["verify"]["outcome"], "FAIL");
    assert_eq!(report["verify"]["disagreed"], 1);
    let subs = report["verify"]["submissions"].as_array().unwrap();
    let rot = subs
        .iter()
        .find(|s| s["program"] == "rotation/accepted/sum.c")
        .unwrap();
    assert_eq!(rot["status"], "fail");
    assert_eq!(rot["agrees"], false);
    assert_eq!(rot["case"], "len03.in");
    let index = rot["case_index"].as_u64().unwrap();
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["index"] == index)
        .unwrap();
    assert_eq!(case["program"], "rotation/accepted/sum.c");
    assert_eq!(case["verdict"], "WA");
    // The table went to stderr, the report to stdout.
    assert!(
        ran.stderr.contains("FAIL rotation/accepted/sum.c"),
        "{}",
        ran.stderr
    );
}

#[test]
fn quiet_is_one_line() {
    let s = Scratch::new();
    package(&s, "pkg");
    let ran = verify_in(&s, "pkg", &["-q"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.stdout, "OK: 2 of 2 submissions as expected\n");
    std::fs::rename(
        s.path().join("pkg/submissions/wrong_answer/seven.c"),
        s.path().join("pkg/submissions/accepted/seven.c"),
    )
    .unwrap();
    let ran = verify_in(&s, "pkg", &["--quiet"]);
    assert_eq!(ran.code, 1);
    assert_eq!(
        ran.stdout,
        "FAIL: 1 of 2 submissions as expected, 1 disagrees\n"
    );
    let ran = verify_in(&s, "pkg", &["-q", "-v"]);
    assert_eq!(ran.code, 2, "-q and -v conflict");
}

#[test]
fn the_help_says_where_the_table_goes() {
    let s = Scratch::new();
    let mut cmd = s.judge();
    cmd.args(["verify", "--help"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 0);
    let help = ran.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("With a report on stdout, the table of submissions goes to stderr"),
        "{help}"
    );
    assert!(help.contains("--allow-missing"), "{help}");
}
