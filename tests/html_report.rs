//! The HTML report, read back with an HTML parser (`scraper`, the html5ever
//! parser browsers' rules are written for): every case present with its
//! verdict's class, every link landing on an anchor, nothing loaded from
//! anywhere, a hostile submission's output shown as text and never as
//! markup, the grid turning into a matrix for several programs, and a
//! 20,000-case run staying under 10 MiB. Then the real binary on a scratch
//! tree writes it with `--report FILE.html`, `--format html` and `merge`.

mod common;
use common::*;
use judge::exec::MemorySource;
use judge::judge::{CaseResult, ProblemInfo, Report, RunInfo};
use judge::puzzles::{Figure, FigureCell};
use judge::report::html;
use judge::verdict::Verdict;
use scraper::{ElementRef, Html, Selector};
use std::collections::HashSet;
use std::time::{Duration, Instant};

const HOSTILE_MESSAGE: &str = r#"output line 1: expected "7", found "<script>alert(1)</script>""#;
const HOSTILE_NAME: &str = r#""><img src=x onerror=alert(2)>.in"#;

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"))
}

fn result(index: usize, problem: &str, case: &str, verdict: Verdict) -> CaseResult {
    let ran = verdict != Verdict::Skipped;
    CaseResult {
        index,
        problem: problem.to_string(),
        case: case.to_string(),
        verdict,
        message: match verdict {
            Verdict::Accepted => "output matches the answer".to_string(),
            v => format!("{} on this case", v.name()),
        },
        cpu_ms: if ran { 3.0 + index as f64 * 7.0 } else { 0.0 },
        wall_ms: if ran { 4.0 + index as f64 * 7.0 } else { 0.0 },
        peak_rss_kib: ran.then_some(1500 + index as u64),
        memory_source: MemorySource::Rusage,
        tl_ratio: if ran {
            (3.0 + index as f64 * 7.0) / 1000.0
        } else {
            0.0
        },
        time_limit_ms: 1000.0,
        exit: ran.then(|| "exit code 0".to_string()),
        program: None,
        diff: None,
        stderr: None,
        figures: Vec::new(),
    }
}

fn info(problems: &[&str], programs: &[&str]) -> RunInfo {
    RunInfo {
        jobs: 2,
        programs: programs.iter().map(|p| p.to_string()).collect(),
        problems: problems
            .iter()
            .map(|name| ProblemInfo {
                name: name.to_string(),
                check: "tokens".into(),
                time_limit_ms: 1000.0,
                memory_limit_kib: Some(262_144),
            })
            .collect(),
        ..RunInfo::default()
    }
}

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

fn parse(bytes: &[u8]) -> Html {
    let text = std::str::from_utf8(bytes).expect("the page is UTF-8");
    assert!(text.starts_with("<!DOCTYPE html>"), "{}", &text[..80]);
    Html::parse_document(text)
}

/// Nothing on the page is fetched, run or navigated to elsewhere.
fn assert_self_contained(doc: &Html) {
    for element in doc
        .root_element()
        .descendants()
        .filter_map(ElementRef::wrap)
    {
        let name = element.value().name();
        assert!(
            ![
                "script", "link", "iframe", "img", "object", "embed", "base", "form", "video",
                "audio", "source", "frame"
            ]
            .contains(&name),
            "a <{name}> element: {}",
            element.html()
        );
        for (attr, value) in element.value().attrs() {
            let attr = attr.to_ascii_lowercase();
            assert!(
                !attr.starts_with("on"),
                "event handler {attr}={value:?} on <{name}>"
            );
            assert!(
                ![
                    "src",
                    "srcset",
                    "action",
                    "formaction",
                    "poster",
                    "data",
                    "background"
                ]
                .contains(&attr.as_str()),
                "<{name} {attr}={value:?}>"
            );
            if attr == "href" || attr.ends_with(":href") {
                assert!(
                    value.starts_with('#') && !value.contains("//"),
                    "<{name} href={value:?}> leaves the page"
                );
            }
            let lower = value.to_ascii_lowercase();
            if attr == "style" {
                assert!(!lower.contains("url("), "style={value:?}");
            }
        }
    }
    for style in doc.select(&sel("style")) {
        let css: String = style.text().collect::<String>().to_ascii_lowercase();
        assert!(!css.contains("url("), "the CSS loads something");
        assert!(!css.contains("@import"), "the CSS imports something");
        assert!(!css.contains("http"), "the CSS names a URL");
    }
    let csp = doc
        .select(&sel(r#"meta[http-equiv="Content-Security-Policy"]"#))
        .next()
        .expect("a Content-Security-Policy");
    assert!(
        csp.value()
            .attr("content")
            .unwrap()
            .contains("default-src 'none'")
    );
}

/// Every in-page link lands on an element with that id.
fn assert_links_resolve(doc: &Html) -> HashSet<String> {
    let ids: HashSet<String> = doc
        .select(&sel("[id]"))
        .map(|e| e.value().id().unwrap().to_string())
        .collect();
    for link in doc.select(&sel("a[href]")) {
        let href = link.value().attr("href").unwrap();
        let target = href.strip_prefix('#').expect("in-page link");
        assert!(ids.contains(target), "link {href} lands nowhere");
    }
    ids
}

fn classes(element: ElementRef<'_>) -> Vec<String> {
    element.value().classes().map(str::to_string).collect()
}

fn verdict_class(v: Verdict) -> String {
    format!("v-{}", v.code().to_lowercase())
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

#[test]
fn twenty_thousand_cases_stay_under_ten_mebibytes() {
    let n = 20_000;
    let failing = [
        Verdict::WrongAnswer,
        Verdict::TimeLimit,
        Verdict::RuntimeError,
        Verdict::MemoryLimit,
    ];
    let cases: Vec<CaseResult> = (0..n)
        .map(|i| {
            let verdict = if i % 20 == 7 {
                failing[i % failing.len()]
            } else {
                Verdict::Accepted
            };
            let problem = ["rotation", "booksort", "sum"][i % 3];
            let mut r = result(
                i,
                problem,
                &format!("generated/len{:02}/case-{i:05}.in", i % 14),
                verdict,
            );
            r.cpu_ms = (i % 997) as f64;
            r.tl_ratio = r.cpu_ms / 800.0;
            if verdict != Verdict::Accepted {
                r.message = format!("output line {i}, token 3: expected \"{i}\", found \"x{i}\"");
                r.diff = Some(format!(
                    "--- expected (answer)\n+++ found (output)\n@@ -{i},4 +{i},4 @@\n 1\n 2\n-{i}\n+x{i}\n 4\n"
                ));
                r.stderr = Some("a line of the program's standard error\n".repeat(100));
            }
            r
        })
        .collect();
    let failures = cases.iter().filter(|c| !c.verdict.is_accepted()).count();
    assert_eq!(failures, 1000);
    let report = Report::new(
        info(&["rotation", "booksort", "sum"], &["./sol"]),
        cases,
        false,
        Duration::from_secs(60),
    );
    let started = Instant::now();
    let bytes = html::render(&report);
    let took = started.elapsed();
    println!(
        "rendered {n} cases ({failures} failing) in {:.0} ms: {:.2} MiB",
        took.as_secs_f64() * 1000.0,
        bytes.len() as f64 / (1 << 20) as f64
    );
    assert!(
        bytes.len() < 10 << 20,
        "{} bytes for {n} cases",
        bytes.len()
    );
    assert!(took < Duration::from_secs(10), "rendering took {took:?}");
    let doc = parse(&bytes);
    assert_eq!(doc.select(&sel("#grid a.cell")).count(), n);
    assert_eq!(doc.select(&sel("table.cases tbody tr")).count(), n);
    assert_eq!(
        doc.select(&sel("article.case")).count(),
        html::DETAILED,
        "details only for the first failures"
    );
    let note: String = doc
        .select(&sel("#failures p.note"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert!(note.contains("first 200 of 1000"), "{note}");
}

/// The bound holds whatever the cases hold: every case failing, with long
/// names, long messages, huge diffs, full stderr and many big figures.
#[test]
fn the_size_bound_holds_on_the_worst_report() {
    let n = 20_000;
    let cell = Some(FigureCell {
        text: "<>".repeat(20),
        highlight: true,
    });
    let figure = Figure {
        title: "t".repeat(1000),
        rows: vec![vec![cell; 60]; 60],
    };
    let (message, diff, stderr) = ("&".repeat(5000), "-\"\n".repeat(50_000), "<".repeat(4096));
    let cases: Vec<CaseResult> = (0..n)
        .map(|i| {
            let mut r = result(
                i,
                &"p".repeat(300),
                &format!("{}{i}.in", "<deep>/".repeat(40)),
                Verdict::ALL[1 + i % 8],
            );
            r.message = message.clone();
            r.exit = Some("e".repeat(1000));
            r.program = Some(format!("{}{}", "q".repeat(300), i % 2));
            // Only the first failures can be detailed: the payload that
            // only a detail shows goes to them (the rest would only cost
            // the test memory).
            if i < 2 * html::DETAILED {
                r.diff = Some(diff.clone());
                r.stderr = Some(stderr.clone());
                r.figures = vec![figure.clone(); 10];
            }
            r
        })
        .collect();
    let report = Report::new(
        info(&["p"], &["a", "b"]),
        cases,
        false,
        Duration::from_secs(1),
    );
    let started = Instant::now();
    let bytes = html::render(&report);
    println!(
        "worst report: {:.2} MiB in {:.0} ms",
        bytes.len() as f64 / (1 << 20) as f64,
        started.elapsed().as_secs_f64() * 1000.0
    );
    assert!(bytes.len() < 10 << 20, "{} bytes", bytes.len());
    let doc = parse(&bytes);
    assert_self_contained(&doc);
    assert_links_resolve(&doc);
    assert_eq!(doc.select(&sel("table.cases tbody tr")).count(), n);
    let details = doc.select(&sel("article.case")).count();
    assert!((1..=200).contains(&details), "{details} details");
}

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
