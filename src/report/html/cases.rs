//! The case grid and the table of every case.
//!
//! The grid shows each case as a cell coloured by its verdict, grouped by
//! problem; when cases were judged with several programs (`judge verify`)
//! it is a matrix, one row per case and one column per program. A cell links to the
//! case's detail block, or to its row in the table when it has none (an
//! accepted case, or a failure past the detailed ones). Small runs get
//! cells labelled with the case's name; big ones plain squares, with the
//! name and measures in the tooltip.

use super::{Page, badge, class, counts, memory, percent, seconds, text};
use crate::judge::CaseResult;
use crate::verdict::Verdict;
use indexmap::IndexMap;
use maud::{Markup, html};
use std::collections::BTreeMap;

/// Up to this many cases, grid cells carry the case's name.
const LABELLED: usize = 400;
/// Bytes of a label in a labelled cell.
const LABEL_BYTES: usize = 24;

pub(crate) fn grid(page: &Page<'_>) -> Markup {
    html! {
        section #grid {
            h2 { "Cases" }
            (legend(page))
            @if page.matrix { (matrix(page)) } @else { (single(page)) }
        }
    }
}

/// In place of the grid, for a run too large to show case by case.
pub(crate) fn omitted(page: &Page<'_>) -> Markup {
    let total = page.report.total();
    html! {
        section #grid {
            h2 { "Cases" }
            p.note {
                "This run has " (total) " cases: a page shows every case only up to "
                (super::CASES_SHOWN) ". Here are the counts, the time histogram, the slowest cases "
                "and the first failures in full; the JSON or JUnit report has every case."
            }
        }
    }
}

fn legend(page: &Page<'_>) -> Markup {
    html! {
        p.legend {
            @for verdict in Verdict::ALL {
                @if page.report.summary.contains_key(&verdict) {
                    span { span.swatch.(class(verdict)) {} " " (verdict.name()) }
                }
            }
        }
    }
}

/// Cases by problem, each case a cell.
fn single(page: &Page<'_>) -> Markup {
    let mut by_problem: IndexMap<&str, Vec<usize>> = IndexMap::new();
    for (i, case) in page.report.cases.iter().enumerate() {
        by_problem.entry(&case.problem).or_default().push(i);
    }
    // Several programs, one per problem (each problem's own reference).
    let program_of = |positions: &[usize]| -> Option<String> {
        let first = page.report.cases[*positions.first()?].program.as_deref()?;
        Some(text::line(first, 200)).filter(|_| !page.programs.is_empty())
    };
    let labelled = page.report.cases.len() <= LABELLED;
    html! {
        @for (problem, positions) in &by_problem {
            @let summary = summary_of(page, positions);
            div.problem-grid {
                h3 {
                    (text::line(problem, 200))
                    span.muted {
                        " " (positions.len()) " case" (super::plural(positions.len()))
                        @if let Some(program) = program_of(positions) { " · " code { (program) } }
                    }
                    (counts(&summary))
                }
                div.cells.labelled[labelled] {
                    @for &i in positions { (cell(page, i, labelled)) }
                }
            }
        }
    }
}

fn cell(page: &Page<'_>, i: usize, labelled: bool) -> Markup {
    let case = &page.report.cases[i];
    html! {
        a.cell.(class(case.verdict)) href=(page.href(i)) title=(page.tooltip(case)) {
            @if labelled { (text::line(short_name(&case.case), LABEL_BYTES)) }
        }
    }
}

/// A case's name without the input's extension.
fn short_name(case: &str) -> &str {
    case.strip_suffix(".in").unwrap_or(case)
}

fn summary_of(page: &Page<'_>, positions: &[usize]) -> BTreeMap<Verdict, usize> {
    let mut summary = BTreeMap::new();
    for &i in positions {
        *summary.entry(page.report.cases[i].verdict).or_insert(0) += 1;
    }
    summary
}

/// Cases × programs: a row per case (grouped by problem), a column per
/// program, the program's overall verdict and counts on top.
fn matrix(page: &Page<'_>) -> Markup {
    let columns = page.programs.len();
    // (problem, case) → the position of each program's result.
    let mut rows: IndexMap<(&str, &str), Vec<Option<usize>>> = IndexMap::new();
    let mut per_program: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (i, case) in page.report.cases.iter().enumerate() {
        let column = case
            .program
            .as_ref()
            .and_then(|p| page.programs.iter().position(|q| q == p))
            .unwrap_or(0);
        let row = rows
            .entry((case.problem.as_str(), case.case.as_str()))
            .or_insert_with(|| vec![None; columns]);
        row[column] = Some(i);
        per_program[column].push(i);
    }
    let mut last_problem = None;
    html! {
        div.matrix-wrap {
            table.matrix {
                thead {
                    tr {
                        th { "case" }
                        @for program in &page.programs {
                            th.program title=(text::line(program, 500)) { code { (text::line(program, 60)) } }
                        }
                    }
                    @if let Some(v) = &page.report.verify {
                        tr.expected {
                            th { "expected" }
                            @for program in &page.programs {
                                td { @if let Some(s) = super::verified::of_program(v, program) { (text::line(&s.expected, 60)) } }
                            }
                        }
                        tr.verified {
                            th { "verify" }
                            @for program in &page.programs {
                                td {
                                    @if let Some(s) = super::verified::of_program(v, program) {
                                        span.badge.(super::verified::class(s.status)) title=(s.reason.as_deref().map(|r| text::line(r, 300)).unwrap_or_default()) { (s.status.word()) }
                                        @if let (Some(case), Some(href)) = (&s.case, super::verified::case_href(page, s)) {
                                            " " a href=(href) title=(text::line(case, 300)) { small { (text::line(case, 24)) } }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    tr.totals {
                        th { "overall" }
                        @for positions in &per_program {
                            @let verdict = crate::verdict::overall(positions.iter().map(|&i| page.report.cases[i].verdict)).unwrap_or(Verdict::Accepted);
                            @let accepted = positions.iter().filter(|&&i| page.report.cases[i].verdict.is_accepted()).count();
                            td title=(tally(&summary_of(page, positions))) {
                                (badge(verdict))
                                small { (accepted) "/" (positions.len()) }
                            }
                        }
                    }
                }
                tbody {
                    @for ((problem, case), cells) in &rows {
                        @if last_problem.replace(*problem) != Some(*problem) {
                            tr.problem-row { th colspan=(columns + 1) { (text::line(problem, 200)) } }
                        }
                        tr {
                            th.case-name { (text::line(case, page.name_bytes)) }
                            @for slot in cells {
                                td {
                                    @if let Some(i) = slot {
                                        a.cell.(class(page.report.cases[*i].verdict)) href=(page.href(*i)) title=(page.tooltip(&page.report.cases[*i])) {}
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `AC 14, WA 4, TLE 2`.
fn tally(summary: &BTreeMap<Verdict, usize>) -> String {
    summary
        .iter()
        .map(|(v, n)| format!("{} {n}", v.code()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every case, one compact row each, in a collapsed block: accepted cases
/// live only here and in the grid.
pub(crate) fn table(page: &Page<'_>) -> Markup {
    let report = page.report;
    let several = !page.programs.is_empty();
    html! {
        section #all {
            h2 { "All cases" }
            details {
                summary {
                    "Show all " (report.cases.len()) " case" (super::plural(report.cases.len()))
                    " (" (page.accepted) " accepted)"
                }
                table.cases {
                    thead {
                        tr {
                            th { "case" }
                            @if several { th { "program" } }
                            th { "verdict" }
                            th { "CPU" }
                            th { "of limit" }
                            th { "wall" }
                            th { "memory" }
                            th { "message" }
                        }
                    }
                    tbody {
                        @for (i, case) in report.cases.iter().enumerate() {
                            (row(page, i, case, several))
                        }
                    }
                }
            }
        }
    }
}

/// A compact row: 20,000 of them must stay small, so no classes on the
/// cells (the CSS places the columns) and no badge.
fn row(page: &Page<'_>, i: usize, case: &CaseResult, several: bool) -> Markup {
    let ran = case.verdict != Verdict::Skipped;
    html! {
        tr id=(format!("row-{i}")) class=(class(case.verdict)) {
            td {
                @if page.detailed.contains(&i) { a href=(page.href(i)) { (page.name(case)) } }
                @else { (page.name(case)) }
            }
            @if several {
                td { @if let Some(p) = &case.program { (text::line(p, page.name_bytes)) } }
            }
            td { (case.verdict.code()) }
            @if ran {
                td { (seconds(case.cpu_ms)) }
                td { (percent(case.tl_ratio)) }
                td { (seconds(case.wall_ms)) }
                td { (memory(case.peak_rss_kib)) }
            } @else {
                td {} td {} td {} td {}
            }
            td { (text::line(&case.message, page.name_bytes)) }
        }
    }
}
