//! The HTML report, read back with an HTML parser (`scraper`, the html5ever
//! parser browsers' rules are written for): every case present with its
//! verdict's class, every link landing on an anchor, nothing loaded from
//! anywhere, a hostile submission's output shown as text and never as
//! markup, the grid turning into a matrix for several programs
//! (`structure`); a 20,000-case run staying under 10 MiB (`size`); the real
//! binary on a scratch tree writing it with `--report FILE.html`, `--format
//! html` and `merge` (`real_run`). This file holds what they share.

#[path = "../common/mod.rs"]
mod common;
mod real_run;
mod size;
mod structure;

use judge::exec::MemorySource;
use judge::judge::{CaseResult, ProblemInfo, RunInfo};
use judge::verdict::Verdict;
use scraper::{ElementRef, Html, Selector};
use std::collections::HashSet;

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
        transcript: None,
        passes: None,
        partial: None,
        score: None,
        cached: false,
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
                run_time_limit_ms: None,
                time_limit_from: String::new(),
                scoring: None,
            })
            .collect(),
        ..RunInfo::default()
    }
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
