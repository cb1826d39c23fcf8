//! The HTML report: one self-contained page to open in a browser, for
//! people who look at results more than they read them. A header with the
//! overall verdict and the counts; a grid of cases (or, when the report
//! holds several programs, of cases × programs) coloured by verdict, each
//! cell linking to its detail; the failures in full; a histogram of CPU
//! time against the time limit and the slowest cases; every case in a
//! collapsed table.
//!
//! The page loads nothing: CSS is inline, pictures are inline SVG or HTML
//! tables, there is no script, and a Content-Security-Policy forbids any
//! fetch. Everything that came from a run is escaped by `maud`, which
//! escapes every interpolated string by default; `text` only cuts it to
//! size and makes control characters visible.
//!
//! It stays small on big runs: accepted cases get a grid cell and a table
//! row but no detail block; at most [`DETAILED`] failures are shown in
//! full, within a byte budget; per-case text shrinks with the number of
//! cases. 20,000 cases make a few MiB, never 10. It renders a finished
//! [`Report`]; it decides nothing about verdicts.

mod cases;
mod detail;
mod scores;
mod text;
mod timing;
mod verified;

use crate::config::Size;
use crate::judge::digest::is_failure;
use crate::judge::{CaseResult, Event, Report, Reporter};
pub(crate) use crate::text::format::plural;
use crate::verdict::Verdict;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::collections::BTreeMap;
use std::io::Write;

/// How many failures get a detail block; the rest are counted and listed in
/// the table of all cases.
pub const DETAILED: usize = 200;

/// Bytes the detail blocks may take together; failures past it are
/// counted and listed in the table of all cases.
const DETAIL_BUDGET: usize = 3 << 19;

/// Bytes of per-case text the grid and the table may spend (escaped): a
/// case's name twice, its message, and its program when there are several;
/// each gets an equal share, between these bounds.
const TEXT_BUDGET: usize = 5 << 19;
const SHARE_MIN: usize = 24;
const SHARE_MAX: usize = 160;

/// Problems listed in the header's table.
const PROBLEM_ROWS: usize = 100;

const STYLE: &str = include_str!("style.css");

/// Cases a page shows one by one (the grid, the table of all cases). A
/// larger run's page is drawn from the run's bounded digest: counts, the
/// histogram, the slowest cases and the first failures in full; the JSON
/// or JUnit report has every case. (20,000 table rows are about 4 MB of
/// page; a browser still opens that, not fifty times more.)
pub const CASES_SHOWN: usize = 20_000;

/// Writes the page when the run finishes, keeping the settled cases until
/// then while there are at most [`CASES_SHOWN`].
pub struct HtmlReporter {
    sink: Box<dyn Write>,
    cases: Vec<CaseResult>,
    over: bool,
}

impl HtmlReporter {
    pub fn new(sink: Box<dyn Write>) -> Self {
        HtmlReporter {
            sink,
            cases: Vec::new(),
            over: false,
        }
    }
}

impl Reporter for HtmlReporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        match event {
            Event::CaseSettled(case) if !self.over => {
                if self.cases.len() < CASES_SHOWN {
                    self.cases.push((*case).clone());
                } else {
                    self.over = true;
                    self.cases = Vec::new();
                }
            }
            Event::Finished(report) => {
                let bytes = if report.cases.len() == report.total() || self.over {
                    render(report)
                } else {
                    render(&Report {
                        cases: std::mem::take(&mut self.cases),
                        ..(*report).clone()
                    })
                };
                self.sink.write_all(&bytes)?;
                self.sink.flush()?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The whole page for a finished report, as UTF-8 bytes.
pub fn render(report: &Report) -> Vec<u8> {
    let page = Page::new(report);
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                // Nothing may be fetched or run, whatever a submission printed.
                meta http-equiv="Content-Security-Policy"
                    content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                @if let Some(v) = &report.verify {
                    title { (verified::title(v)) }
                } @else {
                    title { (report.verdict.code()) " · " (page.accepted) "/" (report.total()) " accepted · judge" }
                }
                style { (PreEscaped(STYLE)) }
            }
            body {
                div.page {
                    (header(&page))
                    main {
                        @if let Some(v) = &report.verify { (verified::section(&page, v)) }
                        (scores::section(&page))
                        @if page.all {
                            (cases::grid(&page))
                        } @else {
                            (cases::omitted(&page))
                        }
                        (timing::section(&page))
                        (detail::failures(&page))
                        @if page.all { (cases::table(&page)) }
                    }
                    footer { "judge " (env!("CARGO_PKG_VERSION")) }
                }
            }
        }
    };
    markup.into_string().into_bytes()
}

/// A report with what every part of the page needs computed once.
pub(crate) struct Page<'a> {
    pub report: &'a Report,
    /// Whether `report.cases` holds every case; if not (a run larger than
    /// [`CASES_SHOWN`]), the page is drawn from the digest alone.
    pub all: bool,
    /// The positions of the cases that have a detail block.
    pub detailed: std::collections::HashSet<usize>,
    /// The detail blocks, in case order.
    pub details: Vec<Markup>,
    pub failures: usize,
    pub accepted: usize,
    /// The programs named by the cases, in order of first appearance
    /// (none when the report holds one program).
    pub programs: Vec<String>,
    /// Whether some case was judged with several programs (`judge
    /// verify`): the grid is then a matrix of cases × programs.
    pub matrix: bool,
    /// Bytes of a case's name (or message, or program) shown in the grid
    /// and the table.
    pub name_bytes: usize,
}

impl<'a> Page<'a> {
    fn new(report: &'a Report) -> Page<'a> {
        let programs: indexmap::IndexSet<&str> = report
            .cases
            .iter()
            .filter_map(|c| c.program.as_deref())
            .collect();
        let mut judged = std::collections::HashSet::new();
        let matrix = programs.len() > 1
            && !report
                .cases
                .iter()
                .all(|c| judged.insert((c.problem.as_str(), c.case.as_str())));
        let shares = report.cases.len() * if programs.is_empty() { 3 } else { 5 };
        let name_bytes = (TEXT_BUDGET / shares.max(1)).clamp(SHARE_MIN, SHARE_MAX);
        let all = report.cases.len() == report.total();
        let failing: Vec<(usize, &CaseResult)> = if all {
            report
                .cases
                .iter()
                .enumerate()
                .filter(|(_, c)| is_failure(c))
                .collect()
        } else {
            report
                .digest
                .failures
                .iter()
                .map(|(i, c)| (*i, c))
                .collect()
        };
        let mut page = Page {
            report,
            all,
            detailed: Default::default(),
            details: Vec::new(),
            failures: if all {
                failing.len()
            } else {
                report.digest.failure_count
            },
            accepted: report.summary.get(&Verdict::Accepted).copied().unwrap_or(0),
            programs: programs.into_iter().map(String::from).collect(),
            matrix,
            name_bytes,
        };
        // Details first: the grid links to those that fit.
        let mut spent = 0;
        let mut details = Vec::new();
        let mut detailed = std::collections::HashSet::new();
        for (i, case) in failing {
            if details.len() == DETAILED || spent >= DETAIL_BUDGET {
                break;
            }
            let block = detail::render(&page, i, case);
            spent += block.0.len();
            details.push(block);
            detailed.insert(i);
        }
        page.details = details;
        page.detailed = detailed;
        page
    }

    /// Whether the page has a place to link a case to: its detail block,
    /// or (when the page shows every case) its table row.
    pub fn links(&self, position: usize) -> bool {
        self.all || self.detailed.contains(&position)
    }

    /// Where a case's cell links: its detail block, or its table row.
    pub fn href(&self, position: usize) -> String {
        if self.detailed.contains(&position) {
            format!("#case-{position}")
        } else {
            format!("#row-{position}")
        }
    }

    /// `problem/case`, cut to this page's share.
    /// The program that ran a case (verify's reports hold several), made
    /// safe to show like a name.
    pub fn program(&self, case: &CaseResult) -> String {
        text::line(case.program.as_deref().unwrap_or(""), self.name_bytes)
    }

    pub fn name(&self, case: &CaseResult) -> String {
        text::line(&format!("{}/{}", case.problem, case.case), self.name_bytes)
    }

    /// The tooltip of a case's cell: name, verdict and the measures.
    pub fn tooltip(&self, case: &CaseResult) -> String {
        let mut tip = self.name(case);
        tip.push_str(&format!(" — {}", case.verdict.code()));
        if case.verdict != Verdict::Skipped {
            tip.push_str(&format!(" · {}", seconds(case.cpu_ms)));
            if let Some(kib) = case.peak_rss_kib {
                tip.push_str(&format!(" · {}", Size(kib * 1024)));
            }
        }
        tip
    }
}

/// The CSS class of a verdict (`v-ac`, `v-wa`, …): one colour each.
pub(crate) fn class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "v-ac",
        Verdict::WrongAnswer => "v-wa",
        Verdict::PresentationError => "v-pe",
        Verdict::TimeLimit => "v-tle",
        Verdict::MemoryLimit => "v-mle",
        Verdict::OutputLimit => "v-ole",
        Verdict::RuntimeError => "v-re",
        Verdict::CompileError => "v-ce",
        Verdict::InternalError => "v-ie",
        Verdict::Skipped => "v-skip",
    }
}

pub(crate) fn badge(verdict: Verdict) -> Markup {
    html! { span.badge.(class(verdict)) title=(verdict.name()) { (verdict.code()) } }
}

pub(crate) fn seconds(ms: f64) -> String {
    if ms >= 100_000.0 {
        format!("{:.0}s", ms / 1000.0)
    } else {
        format!("{:.3}s", ms / 1000.0)
    }
}

pub(crate) fn percent(ratio: f64) -> String {
    format!("{:.0}%", ratio * 100.0)
}

pub(crate) fn memory(kib: Option<u64>) -> String {
    kib.map_or_else(|| "—".to_string(), |k| Size(k * 1024).to_string())
}

/// Counts per verdict, as chips.
pub(crate) fn counts(summary: &BTreeMap<Verdict, usize>) -> Markup {
    html! {
        ul.counts {
            @for (verdict, n) in summary {
                li.(class(*verdict)) title=(verdict.name()) {
                    b { (n) } " " (verdict.code())
                }
            }
        }
    }
}

fn header(page: &Page<'_>) -> Markup {
    let report = page.report;
    let total = report.total();
    let first_failure = report.digest.first_not_accepted.as_ref();
    let info = &report.info;
    // A verification expects WA, TLE, … from some submissions: its header
    // says whether verify passed, not the run's first non-AC verdict.
    let top = match &report.verify {
        Some(v) if v.ok => "v-ac",
        Some(_) => "v-wa",
        None => class(report.verdict),
    };
    html! {
        header.top.(top) {
            @if let Some(v) = &report.verify {
                (verified::overall(page, v))
            } @else {
            div.overall {
                span.big.badge.(class(report.verdict)) { (report.verdict.code()) }
                div {
                    h1 { (capitalised(report.verdict.name())) }
                    p {
                        b { (page.accepted) } " of " b { (total) } " case" (plural(total)) " accepted"
                        @if let Some((i, case)) = first_failure {
                            " · first " (case.verdict.code()) ": "
                            @if page.links(*i) {
                                a href=(page.href(*i)) { (page.name(case)) }
                            } @else {
                                (page.name(case))
                            }
                        }
                    }
                }
                (counts(&report.summary))
            }
            }
            @if report.interrupted {
                p.alert { "Interrupted: the cases not run are marked SKIP." }
            }
            dl.facts {
                dt { "program" (plural(info.programs.len())) }
                dd {
                    @for (i, program) in info.programs.iter().enumerate() {
                        @if i > 0 { ", " }
                        code { (text::line(program, 200)) }
                    }
                }
                dt { "elapsed" }
                dd { (seconds(report.elapsed_ms)) " with " (info.jobs) " worker" (plural(info.jobs)) }
                @if let Some(partition) = &info.partition {
                    dt { "shard" } dd { (partition) }
                }
                @if let Some(cache) = &report.cache {
                    dt { "run cache" }
                    dd {
                        (cache.ran) " ran, " (cache.reused) " reused (with the time and memory measured then)"
                        @for d in &cache.disagreements { br; "recheck: " (text::line(d, 300)) }
                    }
                }
                @if !info.cores.is_empty() {
                    dt { "cores" } dd { (info.cores) }
                }
                @if !info.protections.off.is_empty() {
                    dt { "protections off" } dd { (info.protections.off.join("; ")) }
                }
            }
            @if !info.warnings.is_empty() {
                ul.warnings {
                    @for warning in &info.warnings { li { "warning: " (text::line(warning, 500)) } }
                }
            }
            (problems(page))
        }
    }
}

/// One row per problem: its check and limits, and its counts.
fn problems(page: &Page<'_>) -> Markup {
    let report = page.report;
    let mut per_problem: indexmap::IndexMap<&str, (BTreeMap<Verdict, usize>, f64)> =
        indexmap::IndexMap::new();
    for row in &report.digest.rows {
        let entry = per_problem.entry(row.problem.as_str()).or_default();
        for (verdict, n) in &row.counts {
            *entry.0.entry(*verdict).or_insert(0) += n;
        }
        entry.1 = entry.1.max(row.max_cpu);
    }
    let more = per_problem.len().saturating_sub(PROBLEM_ROWS);
    per_problem.truncate(PROBLEM_ROWS);
    html! {
        table.problems {
            thead { tr { th { "problem" } th { "check" } th.num { "time limit" } th.num { "memory limit" } th.num { "cases" } th.num { "max CPU" } th { "verdicts" } } }
            tbody {
                @for (name, (counted, max_cpu)) in &per_problem {
                    @let described = report.info.problems.iter().find(|p| p.name == *name);
                    tr {
                        th { (text::line(name, 200)) }
                        td { @if let Some(p) = described { (p.check) } }
                        td.num {
                            @if let Some(p) = described {
                                (seconds(p.time_limit_ms))
                                @if let Some(run) = p.run_time_limit_ms {
                                    br; small.muted title="judge verify runs at the limit × its margin, then grades at the limit" { "run at " (seconds(run)) }
                                }
                            }
                        }
                        td.num { @if let Some(p) = described { (memory(p.memory_limit_kib)) } }
                        td.num { (counted.values().sum::<usize>()) }
                        td.num { (seconds(*max_cpu)) }
                        td { (counts(counted)) }
                    }
                }
                @if more > 0 {
                    tr { td.muted colspan="7" { "… and " (more) " more problems" } }
                }
            }
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
