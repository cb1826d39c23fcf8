//! The page's structure for a run with every verdict, hostile output,
//! several programs, and one program per problem.

use super::*;
use judge::judge::Report;
use judge::puzzles::{Figure, FigureCell};
use judge::report::html;
use std::time::Duration;

const HOSTILE_MESSAGE: &str = r#"output line 1: expected "7", found "<script>alert(1)</script>""#;
const HOSTILE_NAME: &str = r#""><img src=x onerror=alert(2)>.in"#;

/// One case of every verdict, then a wrong answer whose every field came
/// from a hostile program.
fn zoo() -> Report {
    let mut cases: Vec<CaseResult> = Verdict::ALL
        .iter()
        .enumerate()
        .map(|(i, v)| result(i, "sum", &format!("{}.in", v.code().to_lowercase()), *v))
        .collect();
    cases[Verdict::ALL.len() - 1].message = "not run: --fail-fast stopped".into();
    let mut hostile = result(cases.len(), "sum", HOSTILE_NAME, Verdict::WrongAnswer);
    hostile.message = HOSTILE_MESSAGE.to_string();
    hostile.diff = Some(
        "--- expected (answer)\n+++ found (output)\n@@ -1,1 +1,1 @@\n-7\n+</pre><script>alert(3)</script>\n"
            .into(),
    );
    hostile.stderr = Some(
        String::from_utf8_lossy(b"\xff\xfe<iframe src=//evil.example></iframe>\x1b[31mred\0")
            .into_owned(),
    );
    hostile.exit = Some("exit code 0".into());
    hostile.program = None;
    let cell = |text: &str, highlight| {
        Some(FigureCell {
            text: text.into(),
            highlight,
        })
    };
    hostile.figures = vec![Figure {
        title: "<b>the board</b>".into(),
        rows: vec![
            vec![cell("1", false), None, cell("<i>", true)],
            vec![None, cell("2", true), None],
        ],
    }];
    cases.push(hostile);
    Report::new(
        info(&["sum"], &["./a.out"]),
        cases,
        false,
        Duration::from_millis(1234),
    )
}

#[test]
fn every_case_is_present_with_its_verdict_and_links_to_its_detail() {
    let report = zoo();
    let doc = parse(&html::render(&report));
    assert_self_contained(&doc);
    let ids = assert_links_resolve(&doc);

    let header = doc.select(&sel("header.top")).next().unwrap();
    assert!(classes(header).contains(&verdict_class(report.verdict)));
    assert_eq!(report.verdict, Verdict::WrongAnswer);

    let cells: Vec<ElementRef> = doc.select(&sel("#grid a.cell")).collect();
    assert_eq!(cells.len(), report.cases.len());
    for (i, (cell, case)) in cells.iter().zip(&report.cases).enumerate() {
        assert!(
            classes(*cell).contains(&verdict_class(case.verdict)),
            "cell {i}: {:?}",
            classes(*cell)
        );
        let failed = !case.verdict.is_accepted() && case.verdict != Verdict::Skipped;
        let href = cell.value().attr("href").unwrap();
        if failed {
            assert_eq!(href, format!("#case-{i}"));
            let detail = doc.select(&sel(&format!("article#case-{i}"))).next();
            let detail = detail.unwrap_or_else(|| panic!("no detail for case {i}"));
            assert!(classes(detail).contains(&verdict_class(case.verdict)));
            let message: String = detail
                .select(&sel("p.message"))
                .next()
                .unwrap()
                .text()
                .collect();
            assert_eq!(message, case.message);
        } else {
            assert_eq!(
                href,
                format!("#row-{i}"),
                "{:?} has no detail",
                case.verdict
            );
        }
        assert!(
            ids.contains(&format!("row-{i}")),
            "case {i} has a table row"
        );
        let row = doc.select(&sel(&format!("tr#row-{i}"))).next().unwrap();
        assert!(classes(row).contains(&verdict_class(case.verdict)));
    }
    // Each verdict's class is in the legend and the counts.
    for v in Verdict::ALL {
        let chip = format!(".overall .counts li.{}", verdict_class(v));
        assert_eq!(doc.select(&sel(&chip)).count(), 1, "{chip}");
    }
    let failures = report
        .cases
        .iter()
        .filter(|c| !c.verdict.is_accepted() && c.verdict != Verdict::Skipped)
        .count();
    assert_eq!(doc.select(&sel("article.case")).count(), failures);
    // The histogram has a bar per verdict that ran, and the limit line.
    assert_eq!(doc.select(&sel("svg.histogram line.limit")).count(), 1);
    assert!(doc.select(&sel("svg.histogram rect.v-ac")).count() >= 1);
    assert!(doc.select(&sel("table.slowest tbody tr")).count() >= 5);
}

#[test]
fn hostile_output_is_text_never_markup() {
    let report = zoo();
    let bytes = html::render(&report);
    let doc = parse(&bytes);
    assert_self_contained(&doc);
    let page = String::from_utf8(bytes).unwrap();
    for raw in [
        "<script>alert(1)",
        "<img src=x",
        "</pre><script>",
        "<iframe",
        "<b>the board",
        "<i>",
    ] {
        assert!(!page.contains(raw), "{raw:?} reached the page unescaped");
    }
    let i = report.cases.len() - 1;
    let detail = doc
        .select(&sel(&format!("article#case-{i}")))
        .next()
        .unwrap();
    let text = |css: &str| -> String {
        detail
            .select(&sel(css))
            .next()
            .unwrap_or_else(|| panic!("no {css}"))
            .text()
            .collect()
    };
    assert_eq!(text("p.message"), HOSTILE_MESSAGE);
    assert_eq!(text("a.name"), format!("sum/{HOSTILE_NAME}"));
    assert!(text("pre.diff").contains("+</pre><script>alert(3)</script>"));
    // Non-UTF-8 bytes arrive as U+FFFD; terminal codes and NUL as pictures.
    let stderr = text("details.stderr pre");
    assert!(stderr.starts_with("\u{fffd}\u{fffd}<iframe src=//evil.example>"));
    assert!(stderr.ends_with("␛[31mred␀"), "{stderr:?}");
    assert_eq!(text("figure.board figcaption"), "<b>the board</b>");
    // The figure: a hole is an empty cell, highlighted cells are marked.
    let cells: Vec<ElementRef> = detail.select(&sel("figure.board td")).collect();
    assert_eq!(cells.len(), 6);
    let highlighted: Vec<String> = detail
        .select(&sel("figure.board td.hl"))
        .map(|c| c.text().collect())
        .collect();
    assert_eq!(highlighted, ["<i>", "2"]);
    assert_eq!(detail.select(&sel("figure.board td.hole")).count(), 3);
    // The cell's tooltip holds the name as text too.
    let cell = doc
        .select(&sel(&format!("#grid a[href='#case-{i}']")))
        .next()
        .unwrap();
    assert!(
        cell.value()
            .attr("title")
            .unwrap()
            .starts_with(&format!("sum/{HOSTILE_NAME} — WA"))
    );
}

#[test]
fn several_programs_make_a_matrix_of_cases_by_programs() {
    let programs = ["good.c", "wrong <answer>.c"];
    let mut cases = Vec::new();
    for (p, program) in programs.iter().enumerate() {
        for (c, name) in ["1.in", "2.in", "3.in"].iter().enumerate() {
            let verdict = if p == 1 && c == 1 {
                Verdict::WrongAnswer
            } else {
                Verdict::Accepted
            };
            let mut r = result(p * 3 + c, "sum", name, verdict);
            r.program = Some(program.to_string());
            cases.push(r);
        }
    }
    let report = Report::new(
        info(&["sum"], &programs),
        cases,
        false,
        Duration::from_millis(5),
    );
    let doc = parse(&html::render(&report));
    assert_self_contained(&doc);
    assert_links_resolve(&doc);
    let heads: Vec<String> = doc
        .select(&sel("table.matrix th.program"))
        .map(|h| h.text().collect())
        .collect();
    assert_eq!(heads, programs);
    let rows: Vec<ElementRef> = doc
        .select(&sel("table.matrix tbody tr:not(.problem-row)"))
        .collect();
    assert_eq!(rows.len(), 3, "one row per case");
    for (c, row) in rows.iter().enumerate() {
        let cells: Vec<ElementRef> = row.select(&sel("a.cell")).collect();
        assert_eq!(cells.len(), 2, "one cell per program");
        let wrong = classes(cells[1]).contains(&"v-wa".to_string());
        assert_eq!(wrong, c == 1, "row {c}");
        assert!(classes(cells[0]).contains(&"v-ac".to_string()));
    }
    let overall: Vec<String> = doc
        .select(&sel("table.matrix tr.totals .badge"))
        .map(|b| b.text().collect())
        .collect();
    assert_eq!(overall, ["AC", "WA"]);
}

#[test]
fn one_program_per_problem_is_a_grid_naming_each_program() {
    // `judge run` with no submission: each problem's own reference.
    let mut cases = Vec::new();
    for (p, (problem, program)) in [
        ("sum", "solutions/sum.sh"),
        ("rotation", "built-in rotation solver"),
    ]
    .iter()
    .enumerate()
    {
        for c in 0..3 {
            let mut r = result(p * 3 + c, problem, &format!("{c}.in"), Verdict::Accepted);
            r.program = Some(program.to_string());
            cases.push(r);
        }
    }
    let report = Report::new(
        info(
            &["sum", "rotation"],
            &["solutions/sum.sh", "built-in rotation solver"],
        ),
        cases,
        false,
        Duration::from_millis(5),
    );
    let doc = parse(&html::render(&report));
    assert_eq!(doc.select(&sel("table.matrix")).count(), 0, "no matrix");
    let headings: Vec<String> = doc
        .select(&sel("#grid .problem-grid h3"))
        .map(|h| h.text().collect())
        .collect();
    assert_eq!(headings.len(), 2);
    assert!(
        headings[0].starts_with("sum 3 cases · solutions/sum.sh"),
        "{headings:?}"
    );
    assert!(
        headings[1].contains("built-in rotation solver"),
        "{headings:?}"
    );
    assert_eq!(doc.select(&sel("#grid a.cell.v-ac")).count(), 6);
}
