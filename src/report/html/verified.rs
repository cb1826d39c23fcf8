//! What `judge verify` adds to the page: the header says whether verify
//! passed (not the run's first non-AC verdict, which a verification
//! expects), and a table gives each submission's expected verdicts, what
//! it got, ok or FAIL, and for a FAIL the case that disagreed.

use super::{Page, counts, plural, text};
use crate::judge::{Status, SubmissionOutcome, Verification};
use maud::{Markup, html};

/// The CSS class of a submission's standing (a verdict colour).
pub(crate) fn class(status: Status) -> &'static str {
    match status {
        Status::Ok => "v-ac",
        Status::Fail | Status::NotRun => "v-wa",
        Status::InternalError => "v-ie",
        Status::Skipped => "v-skip",
    }
}

/// The page title.
pub(crate) fn title(v: &Verification) -> String {
    format!(
        "{} · {}/{} submissions as expected · judge verify",
        v.outcome, v.agreed, v.total
    )
}

/// The header's big line: OK or FAIL, N of M submissions as expected.
pub(crate) fn overall(page: &Page<'_>, v: &Verification) -> Markup {
    let report = page.report;
    let total = report.cases.len();
    let class = if v.ok { "v-ac" } else { "v-wa" };
    html! {
        div.overall {
            span.big.badge.(class) { (v.outcome) }
            div {
                h1 { @if v.ok { "Verify passed" } @else { "Verify failed" } }
                p {
                    b { (v.agreed) } " of " b { (v.total) } " submission" (plural(v.total)) " as expected"
                    @if v.disagreed > 0 { " · " b { (v.disagreed) } " disagree" @if v.disagreed == 1 { "s" } }
                    @if v.internal_errors > 0 { " · " b { (v.internal_errors) } " with internal errors" }
                    @if v.not_run > 0 {
                        " · " b { (v.not_run) } " not run"
                        @if v.allow_missing { " (allowed)" } @else { " (a compiler or interpreter is missing)" }
                    }
                    " · " (page.accepted) " of " (total) " case" (plural(total)) " accepted"
                }
            }
            (counts(&report.summary))
        }
    }
}

/// Where a submission's disagreeing case links, if it has one.
pub(crate) fn case_href(page: &Page<'_>, s: &SubmissionOutcome) -> Option<String> {
    let index = s.case_index?;
    let position = page.report.cases.iter().position(|c| c.index == index)?;
    Some(page.href(position))
}

/// The submission a matrix column shows.
pub(crate) fn of_program<'v>(v: &'v Verification, program: &str) -> Option<&'v SubmissionOutcome> {
    v.submissions.iter().find(|s| s.program == program)
}

/// Every submission: expected, got, ok or FAIL and why.
pub(crate) fn section(page: &Page<'_>, v: &Verification) -> Markup {
    html! {
        section #submissions {
            h2 { "Submissions" }
            table.submissions {
                thead {
                    tr {
                        th { "" }
                        th { "problem" }
                        th { "submission" }
                        th { "expected" }
                        th { "got" }
                        th { "why" }
                    }
                }
                tbody {
                    @for s in &v.submissions {
                        tr.(class(s.status)) {
                            td { span.badge.(class(s.status)) { (s.status.word()) } }
                            td { (text::line(&s.problem, 200)) }
                            td { code { (text::line(&s.path, 200)) } }
                            td title=(format!("from its {}", s.expected_from)) { (text::line(&s.expected, 200)) }
                            td { @if !s.got.is_empty() { (counts(&s.got)) } }
                            td {
                                @if let Some(reason) = &s.reason {
                                    @match (&s.case, case_href(page, s)) {
                                        (Some(case), Some(href)) => {
                                            a href=(href) { (text::line(case, 200)) } ": "
                                        }
                                        _ => {}
                                    }
                                    (text::line(reason, 500))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
