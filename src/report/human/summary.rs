//! The end of the report for people: each failure with the few lines that
//! matter (message, exit, diff, the puzzle's figures side by side, the end
//! of stderr), then the summary: an aligned table of counts per verdict
//! with the maximum CPU time and memory of each problem, the slowest cases,
//! and one closing line.

use super::Paint;
use crate::config::Size;
use crate::judge::digest::Tally;
use crate::judge::{CaseResult, Report};
use crate::puzzles::Figure;
use crate::text::whitespace::{readable_cut, shown_name, terminal_safe};
use crate::verdict::Verdict;

/// How many lines of a diff or of stderr a failure shows.
/// How many lines of an interactive case's dialogue a failure shows.
const TRANSCRIPT_LINES: usize = 12;
const DIFF_LINES: usize = 14;
const STDERR_LINES: usize = 5;
/// Figures are put side by side while they fit this many columns.
const FIGURE_COLUMNS: usize = 96;
const INDENT: &str = "      ";

/// A failure in a few lines.
pub(super) fn failure(r: &CaseResult, paint: &Paint) -> Vec<String> {
    let mut lines = Vec::new();
    let mut measures = format!(
        "{} CPU ({} of limit), {} wall",
        seconds(r.cpu_ms),
        percent(r.tl_ratio),
        seconds(r.wall_ms)
    );
    if let Some(kib) = r.peak_rss_kib {
        measures.push_str(&format!(", {}", Size(kib * 1024)));
    }
    lines.push(format!(
        "  {} {}  {}",
        paint.code(r.verdict),
        paint.bold(&super::case_name(r)),
        paint.dim(&measures)
    ));
    lines.push(format!("{INDENT}{}", terminal_safe(&r.message)));
    if let Some(exit) = &r.exit
        && !r.message.contains(exit.as_str())
        && !exit.ends_with("code 0")
    {
        lines.push(format!("{INDENT}{}", paint.dim(exit)));
    }
    if let Some(diff) = &r.diff {
        let all: Vec<&str> = diff.lines().collect();
        for line in all.iter().take(DIFF_LINES) {
            let styled = match line.chars().next() {
                Some('-') if !line.starts_with("---") => paint.red(line),
                Some('+') if !line.starts_with("+++") => paint.green(line),
                Some('@') => paint.dim(line),
                _ => line.to_string(),
            };
            lines.push(format!("{INDENT}{styled}"));
        }
        if all.len() > DIFF_LINES {
            lines.push(format!(
                "{INDENT}{}",
                paint.dim(&format!("… {} more diff lines", all.len() - DIFF_LINES))
            ));
        }
    }
    if let Some(transcript) = &r.transcript {
        // The end of the dialogue: where it went wrong.
        let all: Vec<String> = transcript.iter().map(|l| l.render()).collect();
        let shown = &all[all.len().saturating_sub(TRANSCRIPT_LINES)..];
        lines.push(format!(
            "{INDENT}{}",
            paint.dim(&format!(
                "dialogue (→ validator to submission, ← submission to validator){}:",
                if shown.len() < all.len() {
                    format!(", last {} of {} lines", shown.len(), all.len())
                } else {
                    String::new()
                }
            ))
        ));
        for line in shown {
            lines.push(format!("{INDENT}| {}", terminal_safe(line)));
        }
    }
    lines.extend(
        figures(&r.figures, paint)
            .into_iter()
            .map(|l| format!("{INDENT}{l}")),
    );
    if r.verdict == Verdict::CompileError {
        if let Some(output) = &r.stderr {
            lines.push(format!("{INDENT}{}", paint.dim("compiler output (end):")));
            for line in output.lines() {
                lines.push(format!(
                    "{INDENT}{} {}",
                    paint.dim("|"),
                    readable_cut(line.as_bytes(), 120)
                ));
            }
        }
        lines.push(format!(
            "{INDENT}{}",
            paint.dim("(a compile error makes every case of the submission CE; nothing ran)")
        ));
        return lines;
    }
    if let Some(stderr) = &r.stderr {
        let tail: Vec<&str> = stderr.lines().collect();
        let start = tail.len().saturating_sub(STDERR_LINES);
        lines.push(format!("{INDENT}{}", paint.dim("stderr (end):")));
        for line in &tail[start..] {
            lines.push(format!(
                "{INDENT}{} {}",
                paint.dim("|"),
                readable_cut(line.as_bytes(), 120)
            ));
        }
    }
    lines
}

/// A figure as text: a title, then its rows, cells two characters wide and
/// a highlighted cell in brackets (and in colour, when there is colour).
/// Returns (width in columns, line) pairs.
fn figure_lines(figure: &Figure, paint: &Paint) -> Vec<(usize, String)> {
    let mut lines = vec![(
        figure.title.chars().count() + 1,
        format!("{}:", figure.title),
    )];
    for row in &figure.rows {
        let mut plain = String::new();
        let mut styled = String::new();
        for cell in row {
            match cell {
                None => {
                    plain.push_str("   ");
                    styled.push_str("   ");
                }
                Some(c) if c.highlight => {
                    let text = format!("[{}]", c.text);
                    plain.push_str(&text);
                    styled.push_str(&paint.highlight(&text));
                }
                Some(c) => {
                    let text = format!(" {} ", c.text);
                    plain.push_str(&text);
                    styled.push_str(&text);
                }
            }
        }
        let trimmed = plain.trim_end().chars().count();
        // Trailing blanks are plain spaces in both: cut them from the styled line too.
        let cut = styled.len() - (plain.len() - plain.trim_end().len());
        lines.push((trimmed, styled[..cut].to_string()));
    }
    lines
}

/// Figures side by side while they fit [`FIGURE_COLUMNS`], else below.
fn figures(figures: &[Figure], paint: &Paint) -> Vec<String> {
    const GAP: usize = 4;
    let blocks: Vec<Vec<(usize, String)>> =
        figures.iter().map(|f| figure_lines(f, paint)).collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < blocks.len() {
        // Take as many blocks as fit on one band.
        let mut end = start;
        let mut width = 0;
        while end < blocks.len() {
            let w = blocks[end].iter().map(|(w, _)| *w).max().unwrap_or(0);
            let needed = if end == start { w } else { width + GAP + w };
            if end > start && needed > FIGURE_COLUMNS {
                break;
            }
            width = needed;
            end += 1;
        }
        let band = &blocks[start..end];
        let height = band.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for (b, block) in band.iter().enumerate() {
                let block_width = block.iter().map(|(w, _)| *w).max().unwrap_or(0);
                let (w, text) = block.get(row).map_or((0, ""), |(w, t)| (*w, t.as_str()));
                line.push_str(text);
                if b + 1 < band.len() {
                    line.push_str(&" ".repeat(block_width - w + GAP));
                }
            }
            out.push(line.trim_end().to_string());
        }
        start = end;
    }
    out
}

/// The summary table: a row per problem (per program and problem when the
/// report holds several), a column per verdict that occurs, the maximum CPU
/// time and memory; a total row under several rows.
pub(super) fn table(report: &Report, paint: &Paint) -> Vec<String> {
    let (rows, total) = (&report.digest.rows, &report.digest.all);
    let verdicts: Vec<Verdict> = report.summary.keys().copied().collect();
    let mut table: Vec<Vec<Cell>> = Vec::new();
    let mut head = vec![Cell::plain("problem"), Cell::plain("cases")];
    head.extend(verdicts.iter().map(|v| Cell::verdict(v.code(), *v)));
    head.extend([Cell::plain("max CPU"), Cell::plain("max memory")]);
    table.push(head);
    let several = rows.len() > 1;
    let mut body: Vec<(String, &Tally)> = rows
        .iter()
        .map(|t| (shown_name(&t.label()).into_owned(), t))
        .collect();
    if several {
        body.push(("total".to_string(), total));
    }
    for (label, tally) in body {
        let mut row = vec![Cell::plain(&label), Cell::plain(&tally.cases.to_string())];
        for v in &verdicts {
            row.push(match tally.counts.get(v) {
                Some(n) => Cell::verdict(&n.to_string(), *v),
                None => Cell::dim("·"),
            });
        }
        row.push(Cell::plain(&seconds(tally.max_cpu)));
        row.push(match tally.max_kib {
            Some(kib) => Cell::plain(&Size(kib * 1024).to_string()),
            None => Cell::dim("—"),
        });
        table.push(row);
    }
    let columns = table[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|row| row[c].text.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    table
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    let pad = widths[c] - cell.text.chars().count();
                    let padded = if c == 0 {
                        format!("{}{}", cell.text, " ".repeat(pad))
                    } else {
                        format!("{}{}", " ".repeat(pad), cell.text)
                    };
                    let padded = if r == 0 && cell.verdict.is_none() {
                        paint.dim(&padded)
                    } else {
                        padded
                    };
                    match (cell.verdict, cell.dim) {
                        (Some(v), _) => paint.verdict(v, &padded),
                        (None, true) => paint.dim(&padded),
                        _ => padded,
                    }
                })
                .collect();
            format!("  {}", cells.join("  ").trim_end())
        })
        .collect()
}

struct Cell {
    text: String,
    verdict: Option<Verdict>,
    dim: bool,
}

impl Cell {
    fn plain(text: &str) -> Cell {
        Cell {
            text: text.to_string(),
            verdict: None,
            dim: false,
        }
    }

    fn verdict(text: &str, verdict: Verdict) -> Cell {
        Cell {
            verdict: Some(verdict),
            ..Cell::plain(text)
        }
    }

    fn dim(text: &str) -> Cell {
        Cell {
            dim: true,
            ..Cell::plain(text)
        }
    }
}

/// The three slowest cases that ran: `sum/big.in 0.812s (81% of limit)`.
pub(super) fn slowest(report: &Report) -> Option<String> {
    let ran = &report.digest.slowest;
    if ran.is_empty() {
        return None;
    }
    let list: Vec<String> = ran
        .iter()
        .take(3)
        .map(|(_, c)| {
            format!(
                "{} {} ({} of limit)",
                super::case_name(c),
                seconds(c.cpu_ms),
                percent(c.tl_ratio)
            )
        })
        .collect();
    Some(format!("  slowest: {}", list.join(", ")))
}

/// `  cache: 3 ran, 197 reused (--no-cache runs everything)`, when the
/// run cache was used.
pub(super) fn cache_line(report: &Report) -> Option<String> {
    let cache = report.cache.as_ref()?;
    let rechecked = match cache.rechecked {
        0 => String::new(),
        n => format!(", {n} re-checked"),
    };
    Some(format!(
        "  cache: {} ran, {} reused{rechecked} (reused runs are marked cached, with the time and memory they measured; --no-cache runs everything)",
        cache.ran, cache.reused
    ))
}

/// `, 197 reused from the cache` for `-q`'s line, when any was.
pub(super) fn cache_short(report: &Report) -> String {
    match &report.cache {
        Some(cache) if cache.reused > 0 => {
            format!(
                " ({} ran, {} reused from the cache)",
                cache.ran, cache.reused
            )
        }
        _ => String::new(),
    }
}

/// Each `--recheck` disagreement, named (always shown, even with `-q`).
pub(super) fn disagreements(report: &Report) -> Vec<String> {
    report
        .cache
        .iter()
        .flat_map(|c| &c.disagreements)
        .map(|d| format!("  recheck: {}", crate::text::whitespace::terminal_safe(d)))
        .collect()
}

pub(super) fn seconds(ms: f64) -> String {
    format!("{:.3}s", ms / 1000.0)
}

fn percent(ratio: f64) -> String {
    format!("{:.0}%", ratio * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::FigureCell;

    fn board(title: &str) -> Figure {
        let cell = |t: &str, highlight| {
            Some(FigureCell {
                text: t.into(),
                highlight,
            })
        };
        Figure {
            title: title.into(),
            rows: vec![
                vec![None, cell("1", false), None],
                vec![cell("2", false), cell("3", true), cell("4", false)],
            ],
        }
    }

    #[test]
    fn figures_sit_side_by_side_when_they_fit() {
        let paint = Paint { color: false };
        let lines = figures(&[board("before"), board("after moves")], &paint);
        assert_eq!(
            lines,
            [
                format!("before:{}after moves:", " ".repeat(5)),
                format!("    1{}1", " ".repeat(11)),
                format!(" 2 [3] 4{} 2 [3] 4", " ".repeat(4)),
            ]
        );
        let wide = "w".repeat(60);
        let lines = figures(&[board(&wide), board(&wide)], &paint);
        assert_eq!(lines.len(), 6, "stacked: {lines:#?}");
    }

    #[test]
    fn highlighted_cells_are_coloured_when_there_is_colour() {
        let lines = figures(&[board("b")], &Paint { color: true });
        assert!(lines[2].contains("\u{1b}["), "{lines:?}");
        assert!(lines[2].contains("[3]"));
    }
}
