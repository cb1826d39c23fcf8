//! A scoring problem's score on the page: per problem and program the
//! score against its maximum, then each group as a row of the grid — its
//! points beside its cases' cells (each linking to the case), the verdict
//! and the aggregation. Rendered from `Report::scores`.

use super::{Page, badge, class, text};
use crate::score::ScoreReport;
use crate::text::format::out_of;
use maud::{Markup, html};

fn fraction(score: f64, max: Option<f64>) -> String {
    out_of(score, max, " / ")
}

pub(crate) fn section(page: &Page<'_>) -> Markup {
    let report = page.report;
    html! {
        @if !report.scores.is_empty() {
            section #scores {
                h2 { "Scores" }
                @for s in &report.scores { (one(page, s)) }
            }
        }
    }
}

fn one(page: &Page<'_>, s: &ScoreReport) -> Markup {
    // The positions of this problem's and program's cases, by name.
    let positions: Vec<usize> = (0..page.report.cases.len())
        .filter(|&i| {
            let c = &page.report.cases[i];
            c.problem == s.problem && c.program == s.program
        })
        .collect();
    let plan = page
        .report
        .info
        .problems
        .iter()
        .find(|p| p.name == s.problem)
        .and_then(|p| p.scoring.as_ref());
    let in_group = |name: &str| -> Vec<usize> {
        positions
            .iter()
            .copied()
            .filter(|&i| plan.is_some_and(|p| p.in_group(name, &page.report.cases[i].case)))
            .collect()
    };
    html! {
        div.problem-grid {
            h3 {
                (text::line(&s.problem, 200))
                @if let Some(p) = &s.program { span.muted { " · " code { (text::line(p, 200)) } } }
                " " strong { (fraction(s.score, s.max_score)) }
                span.muted { " (" (s.model) @if s.incomplete { "; incomplete: cases not run count nothing" } ")" }
            }
            table.scores {
                thead { tr { th { "group" } th { "points" } th { "verdict" } th { "cases" } th { "aggregation" } } }
                tbody {
                    @for g in &s.groups {
                        tr class=(class(g.verdict)) {
                            td { code { (text::line(&g.name, 120)) } }
                            td.num { (fraction(g.score, g.max_score)) }
                            td { (badge(g.verdict)) }
                            td {
                                div.cells {
                                    @for i in in_group(&g.name) {
                                        a.cell.(class(page.report.cases[i].verdict)) href=(page.href(i)) title=(page.tooltip(&page.report.cases[i])) {}
                                    }
                                }
                                span.muted { (g.accepted) "/" (g.cases) " AC" }
                            }
                            td {
                                (g.aggregation)
                                @if let Some(note) = &g.note { br; small.muted { (note) } }
                            }
                        }
                    }
                }
            }
            @for e in &s.errors { p.error { "judge error: " (text::line(e, 500)) } }
        }
    }
}
