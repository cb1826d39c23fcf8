//! Time against the limit: a histogram of CPU time as a fraction of each
//! case's time limit (bins of 5% up to 125%, one bin beyond, bars stacked
//! by verdict, the limit drawn as a line), as inline SVG; and the slowest
//! cases. Cases that did not run (skipped, or an internal error before the
//! launch) are left out.

use super::{Page, badge, class, memory, percent, seconds};
use crate::verdict::Verdict;
use maud::{Markup, html};
use std::collections::BTreeMap;

// The bins are the digest's: each `RATIO_BIN` of the limit wide,
// `RATIO_BINS` below 125% of the limit and one more beyond; the digest
// keeps the 10 slowest cases.
use crate::judge::digest::{RATIO_BIN as BIN, RATIO_BINS as BINS};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 230.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 24.0;

pub(crate) fn section(page: &Page<'_>) -> Markup {
    let digest = &page.report.digest;
    html! {
        section #timing {
            h2 { "Time" }
            @if digest.ran() == 0 {
                p.none { "No case ran." }
            } @else {
                div.timing {
                    figure.histogram {
                        (histogram(&digest.ratio_bins))
                        figcaption { "CPU time of " (digest.ran()) " run" (super::plural(digest.ran())) ", as a share of the time limit" }
                    }
                    (slowest(page))
                }
            }
        }
    }
}

fn histogram(bins: &[BTreeMap<Verdict, usize>]) -> Markup {
    let totals: Vec<usize> = bins.iter().map(|b| b.values().sum()).collect();
    let peak = totals.iter().copied().max().unwrap_or(1).max(1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let slot = plot_w / (BINS + 1) as f64;
    let base = TOP + plot_h;
    let x_of = |bin: usize| LEFT + slot * bin as f64;
    let limit_x = x_of((1.0 / BIN).round() as usize);
    let ticks = [0usize, 5, 10, 15, 20];
    html! {
        svg.histogram viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-label="histogram of CPU time as a share of the time limit" {
            // Horizontal grid: zero, half and the peak count.
            @for (fraction, label) in [(0.0, 0), (0.5, peak / 2), (1.0, peak)] {
                @let y = base - plot_h * fraction;
                @if fraction == 0.0 || label > 0 {
                    line.grid x1=(LEFT) x2=(WIDTH - RIGHT) y1=(fmt(y)) y2=(fmt(y)) {}
                    text.axis x=(LEFT - 6.0) y=(fmt(y + 3.5)) text-anchor="end" { (if fraction == 0.0 { 0 } else { label }) }
                }
            }
            rect.over x=(fmt(limit_x)) y=(TOP) width=(fmt(WIDTH - RIGHT - limit_x)) height=(fmt(plot_h)) {}
            @for (bin, counts) in bins.iter().enumerate() {
                @if totals[bin] > 0 {
                    g.bin {
                        title { (bin_label(bin)) ": " (totals[bin]) " case" (super::plural(totals[bin])) " (" (breakdown(counts)) ")" }
                        @let (segments, top) = stack(counts, peak, base, plot_h);
                        @for (verdict, y, h) in segments {
                            rect.(class(verdict)) x=(fmt(x_of(bin) + 1.5)) y=(fmt(y)) width=(fmt(slot - 3.0)) height=(fmt(h)) {}
                        }
                        text.count x=(fmt(x_of(bin) + slot / 2.0)) y=(fmt((top - 4.0).max(10.0))) text-anchor="middle" { (totals[bin]) }
                    }
                }
            }
            line.limit x1=(fmt(limit_x)) x2=(fmt(limit_x)) y1=(TOP - 8.0) y2=(fmt(base)) {}
            text.limit x=(fmt(limit_x + 4.0)) y=(TOP - 2.0) { "time limit" }
            line.axis x1=(LEFT) x2=(WIDTH - RIGHT) y1=(fmt(base)) y2=(fmt(base)) {}
            @for tick in ticks {
                text.axis x=(fmt(x_of(tick))) y=(fmt(base + 15.0)) text-anchor="middle" { (tick * 5) "%" }
            }
            text.axis x=(fmt(x_of(BINS) + slot / 2.0)) y=(fmt(base + 15.0)) text-anchor="middle" { "more" }
        }
    }
}

/// A bar's segments, bottom up: (verdict, top, height), each at least 2
/// units tall so a lone failure beside thousands of passes still shows;
/// and the bar's top.
fn stack(
    counts: &BTreeMap<Verdict, usize>,
    peak: usize,
    base: f64,
    plot_h: f64,
) -> (Vec<(Verdict, f64, f64)>, f64) {
    let mut y = base;
    let mut segments = Vec::with_capacity(counts.len());
    for (verdict, n) in counts {
        let h = (plot_h * *n as f64 / peak as f64).max(2.0);
        let top = (y - h).max(TOP);
        segments.push((*verdict, top, y - top));
        y = top;
    }
    (segments, y)
}

fn fmt(value: f64) -> String {
    format!("{value:.1}")
}

fn bin_label(bin: usize) -> String {
    if bin >= BINS {
        format!("{}% of the limit or more", BINS * 5)
    } else {
        format!("{}–{}% of the limit", bin * 5, bin * 5 + 5)
    }
}

fn breakdown(counts: &BTreeMap<Verdict, usize>) -> String {
    counts
        .iter()
        .map(|(v, n)| format!("{} {n}", v.code()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn slowest(page: &Page<'_>) -> Markup {
    let by_time = page.report.digest.slowest.as_slice();
    // Which program ran a case, when a report holds several (verify).
    let programs = by_time.iter().any(|(_, c)| c.program.is_some());
    html! {
        div.slowest {
            h3 { "Slowest cases" }
            table.slowest {
                thead { tr { @if programs { th { "program" } } th { "case" } th { "verdict" } th.num { "CPU" } th { "of limit" } th.num { "wall" } th.num { "memory" } } }
                tbody {
                    @for (i, case) in by_time {
                        tr {
                            @if programs {
                                td { (page.program(case)) }
                            }
                            td {
                                @if page.links(*i) {
                                    a href=(page.href(*i)) { (page.name(case)) }
                                } @else {
                                    (page.name(case))
                                }
                            }
                            td { (badge(case.verdict)) }
                            td.num { (seconds(case.cpu_ms)) }
                            td.share {
                                span.meter { span.fill.over[case.tl_ratio > 1.0] style={ "width:" (format!("{:.0}", (case.tl_ratio * 100.0).clamp(0.0, 100.0))) "%" } {} }
                                " " (percent(case.tl_ratio))
                            }
                            td.num { (seconds(case.wall_ms)) }
                            td.num { (memory(case.peak_rss_kib)) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::digest::ratio_bin;

    #[test]
    fn bins_reach_past_the_limit() {
        assert_eq!(ratio_bin(0.0), 0);
        assert_eq!(ratio_bin(0.049), 0);
        assert_eq!(ratio_bin(0.05), 1);
        assert_eq!(ratio_bin(0.999), 19);
        assert_eq!(ratio_bin(1.0), 20);
        assert_eq!(ratio_bin(1.24), 24);
        assert_eq!(ratio_bin(1.25), 25);
        assert_eq!(ratio_bin(40.0), 25);
        assert_eq!(ratio_bin(f64::NAN), 0);
        assert_eq!(ratio_bin(f64::INFINITY), 25);
    }
}
