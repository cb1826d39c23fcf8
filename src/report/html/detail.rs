//! A failure in full: the verdict, the message, the measures, the diff
//! with its lines coloured, a puzzle checker's figures drawn as tables
//! (highlighted cells marked), and the end of standard error. Each part is
//! cut to a size: a page of many failures stays small.
//!
//! Figures are drawn generically, from rows of cells: nothing here knows
//! what a board means.

use super::{Page, badge, class, memory, percent, seconds, text};
use crate::exec::MemorySource;
use crate::exec::interactive::{Line, Speaker};
use crate::judge::CaseResult;
use crate::puzzles::Figure;
use maud::{Markup, html};

const MESSAGE_BYTES: usize = 2048;
const DIFF_BYTES: usize = 16 << 10;
const DIFF_LINES: usize = 120;
const STDERR_BYTES: usize = 4 << 10;
/// Figures per case, and rows and columns per figure.
const FIGURES: usize = 4;
const FIGURE_SIDE: usize = 24;
const CELL_BYTES: usize = 12;

pub(crate) fn failures(page: &Page<'_>) -> Markup {
    if page.failures == 0 {
        return html! {
            section #failures {
                h2 { "Failures" }
                @if page.report.total() == 0 {
                    p.none { "No cases were run." }
                } @else {
                    p.none { "None: every case that ran was accepted." }
                }
            }
        };
    }
    html! {
        section #failures {
            h2 { "Failures " span.muted { (page.failures) } }
            @if page.details.len() < page.failures {
                p.note {
                    "The first " (page.details.len()) " of " (page.failures)
                    " failures are shown in full; "
                    @if page.all { "the others are in the table of all cases." } @else { "the JSON or JUnit report has the others." }
                }
            }
            @for block in &page.details { (block) }
        }
    }
}

/// A failure's detail block.
pub(crate) fn render(page: &Page<'_>, i: usize, case: &CaseResult) -> Markup {
    let anchor = format!("case-{i}");
    html! {
        article.case.(class(case.verdict)) id=(anchor) {
            header {
                (badge(case.verdict))
                a.name href={ "#" (anchor) } { (page.name(case)) }
                @if let Some(program) = &case.program {
                    code.program { (text::line(program, 200)) }
                }
                span.muted { (case.verdict.name()) }
            }
            p.message { (text::line(&case.message, MESSAGE_BYTES)) }
            (measures(case))
            @if let Some(diff) = &case.diff { (diff_block(diff)) }
            @if let Some(transcript) = &case.transcript { (dialogue(transcript)) }
            @if !case.figures.is_empty() {
                div.figures {
                    @for figure in case.figures.iter().take(FIGURES) { (board(figure)) }
                }
            }
            @if let Some(stderr) = &case.stderr {
                details.stderr open {
                    summary { "standard error (its end)" }
                    pre { (text::block(stderr, STDERR_BYTES)) }
                }
            }
        }
    }
}

fn measures(case: &CaseResult) -> Markup {
    let source = match case.memory_source {
        MemorySource::Rusage => " (rusage)",
        MemorySource::Cgroup => " (cgroup)",
        MemorySource::None => "",
    };
    html! {
        ul.measures {
            li { "CPU " b { (seconds(case.cpu_ms)) } " · " (percent(case.tl_ratio)) " of " (seconds(case.time_limit_ms)) }
            li { "wall " b { (seconds(case.wall_ms)) } }
            li { "memory " b { (memory(case.peak_rss_kib)) } (source) }
            @if let Some(exit) = &case.exit { li { (text::line(exit, 200)) } }
        }
    }
}

/// The diff, a line a block, coloured by its first character.
fn diff_block(diff: &str) -> Markup {
    let diff = text::block(diff, DIFF_BYTES);
    html! {
        pre.diff {
            @for line in diff.lines().take(DIFF_LINES) {
                @let kind = if line.starts_with("---") || line.starts_with("+++") {
                    "file"
                } else if line.starts_with("@@") {
                    "hunk"
                } else if line.starts_with('-') {
                    "del"
                } else if line.starts_with('+') {
                    "ins"
                } else if line.starts_with(' ') {
                    "same"
                } else {
                    "note"
                };
                span.(kind) { (line) }
            }
            @if diff.lines().nth(DIFF_LINES).is_some() {
                span.note { "… (cut)" }
            }
        }
    }
}

/// A figure as a table: a blank cell for a hole, highlighted cells marked.
fn board(figure: &Figure) -> Markup {
    html! {
        figure.board {
            table {
                @for row in figure.rows.iter().take(FIGURE_SIDE) {
                    tr {
                        @for cell in row.iter().take(FIGURE_SIDE) {
                            @match cell {
                                None => td.hole {},
                                Some(cell) => td.hl[cell.highlight] { (text::line(&cell.text, CELL_BYTES)) },
                            }
                        }
                    }
                }
            }
            figcaption { (text::line(&figure.title, 300)) }
        }
    }
}

/// An interactive case's dialogue as a two-column conversation: the
/// validator's lines on the left, the submission's on the right, each with
/// its time.
fn dialogue(transcript: &[Line]) -> Markup {
    html! {
        table.dialogue {
            thead { tr { th { "time" } th { "validator →" } th { "← submission" } } }
            tbody {
                @for line in transcript.iter().take(400) {
                    @let time = format!("{:.3}s", line.at);
                    @let said = crate::text::whitespace::escaped(&line.text);
                    @match line.from {
                        Speaker::Submission => {
                            tr { td.muted { (time) } td {} td { code { (text::line(&said, 300)) } } }
                        }
                        Speaker::Validator | Speaker::Judge => {
                            tr { td.muted { (time) } td { code { (text::line(&said, 300)) } } td {} }
                        }
                    }
                }
            }
        }
    }
}
