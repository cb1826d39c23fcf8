//! The score table of a scoring problem's run: per problem and program the
//! score against its maximum, then one row per group (points, maximum,
//! accepted cases, the group's verdict, how it aggregates, why it was not
//! judged). Rendered from `Report::scores`; nothing is decided here.

use super::Paint;
use crate::judge::Report;
use crate::score::ScoreReport;
use crate::text::format::out_of;
use crate::text::whitespace::{shown_name, terminal_safe};
use crate::verdict::Verdict;

/// `70/100`, or `12.5` when unbounded.
pub fn fraction(score: f64, max: Option<f64>) -> String {
    out_of(score, max, "/")
}

/// One line per score: `score 70/100` for the one-line (`-q`) report.
pub(super) fn short(report: &Report) -> String {
    report
        .scores
        .iter()
        .map(|s| format!(", score {}", fraction(s.score, s.max_score)))
        .collect()
}

pub(super) fn table(report: &Report, paint: &Paint) -> Vec<String> {
    let mut lines = Vec::new();
    if report.scores.is_empty() {
        return lines;
    }
    lines.push(String::new());
    lines.push(paint.bold("Scores:"));
    for s in &report.scores {
        lines.extend(one(s, paint));
    }
    lines
}

fn one(s: &ScoreReport, paint: &Paint) -> Vec<String> {
    let mut lines = Vec::new();
    let who = match &s.program {
        Some(p) => format!("{} · {}", shown_name(&s.problem), shown_name(p)),
        None => shown_name(&s.problem).into_owned(),
    };
    let verdict = s.verdict.unwrap_or(Verdict::Accepted);
    lines.push(format!(
        "  {who}: {} ({}{})",
        paint.bold(&fraction(s.score, s.max_score)),
        s.model,
        if s.incomplete {
            "; incomplete: some cases were not run and count nothing"
        } else {
            ""
        }
    ));
    let rows: Vec<[String; 5]> = s
        .groups
        .iter()
        .map(|g| {
            [
                shown_name(&g.name).into_owned(),
                fraction(g.score, g.max_score),
                format!("{}/{} AC", g.accepted, g.cases),
                g.verdict.code().to_string(),
                match &g.note {
                    Some(note) => format!("{} — {}", g.aggregation, terminal_safe(note)),
                    None => g.aggregation.clone(),
                },
            ]
        })
        .collect();
    if !rows.is_empty() {
        let header = ["group", "points", "cases", "verdict", "aggregation"];
        let widths: Vec<usize> = (0..5)
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([header[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let pad = |text: &str, i: usize| format!("{text:<width$}", width = widths[i]);
        lines.push(paint.dim(&format!(
            "    {}",
            (0..5)
                .map(|i| pad(header[i], i))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
        )));
        for (row, g) in rows.iter().zip(&s.groups) {
            let cells: Vec<String> = (0..5)
                .map(|i| {
                    let text = pad(&row[i], i);
                    if i == 3 {
                        paint.verdict(g.verdict, &text)
                    } else {
                        text
                    }
                })
                .collect();
            lines.push(format!("    {}", cells.join("  ").trim_end()));
        }
    }
    if s.verdict.is_some() && verdict != Verdict::Accepted && s.model == crate::score::KATTIS_GRADER
    {
        lines.push(format!(
            "    the grader's verdict: {}",
            paint.verdict(verdict, verdict.code())
        ));
    }
    for e in &s.errors {
        lines.push(format!("    {} {e}", paint.red("judge error:")));
    }
    lines
}
