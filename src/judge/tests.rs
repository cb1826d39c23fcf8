//! The orchestration and the reporters with a fake runner: no process
//! is spawned; each "program" answers by the input's file name.

use super::*;
use crate::check::Comparison;
use crate::exec::{Exit, LimitHit, Limits, RunError, RunOutcome, RunRequest};
use std::path::PathBuf;
use std::sync::Mutex;

/// Answers by input name: `slow-*` sleeps first, `tle-*` hits the wall
/// limit, `wa-*` prints the wrong answer; everything else is right.
struct FakeRunner;

impl Runner for FakeRunner {
    fn run(&self, request: &RunRequest<'_>) -> Result<RunOutcome, RunError> {
        let name = request
            .input
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name.starts_with("slow-") {
            std::thread::sleep(Duration::from_millis(60));
        }
        let stdout = if name.starts_with("wa-") {
            b"wrong\n".to_vec()
        } else {
            b"right\n".to_vec()
        };
        Ok(RunOutcome {
            exit: Exit::Code(0),
            cpu: Duration::from_millis(3),
            cpu_source: crate::exec::CpuSource::ProcessGroup,
            wall: Duration::from_millis(4),
            peak_rss_kib: Some(100),
            memory_source: MemorySource::Rusage,
            stdout: stdout.into(),
            stderr_tail: Vec::new(),
            limit_hit: name.starts_with("tle-").then_some(LimitHit::Wall),
            memory_evidence: None,
            process_cap_hit: false,
            stopped: false,
        })
    }
}

/// Records the events it sees.
#[derive(Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Reporter for Recorder {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        let line = match event {
            Event::Started(info) => format!("started {}", info.total),
            Event::CaseStarted { case, .. } => format!("start {case}"),
            Event::CaseFinished { result, done, .. } => {
                format!("finish {} {} #{done}", result.case, result.verdict)
            }
            Event::CaseSettled(result) => format!("settled {}", result.case),
            Event::Finished(report) => format!("finished {}", report.verdict),
        };
        self.0.lock().unwrap().push(line);
        Ok(())
    }
}

fn plan(names: &[&str], dir: &std::path::Path) -> Plan {
    std::fs::write(dir.join("right.ans"), "right\n").unwrap();
    let problem = Problem {
        name: "p".into(),
        puzzle: None,
        cases: dir.to_path_buf(),
        comparison: Comparison::Tokens {
            float: None,
            case_insensitive: false,
        },
        lexmin: false,
        strict: false,
        limits: Limits::default(),
        time_limit_from: String::new(),
        time_inference: None,
        solution: None,
        case_groups: Vec::new(),
        validators: Vec::new(),
        answer_validators: Vec::new(),
        package: None,
        package_format: None,
        dialect: Default::default(),
        constants: None,
        groups: Vec::new(),
        warnings: Vec::new(),
        submissions: PathBuf::new(),
        expectations: Vec::new(),
        submission_rules: Vec::new(),
        scoring: None,
        io_files: Default::default(),
        tool_tests: Vec::new(),
    };
    let jobs = names
        .iter()
        .enumerate()
        .map(|(index, name)| Job {
            index,
            problem: 0,
            program: 0,
            case: Case::new(
                format!("{name}.in"),
                PathBuf::from(format!("{name}.in")),
                Some(dir.join("right.ans")),
            ),
        })
        .collect::<Vec<Job>>();
    Plan {
        problems: vec![problem],
        programs: vec![Program::new(Arc::new(FakeRunner), "fake")],
        jobs: jobs.into(),
        tools: None,
        label_programs: false,
        cache: None,
    }
}

#[test]
fn report_is_in_case_order_whatever_the_finishing_order() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(&["slow-a", "b", "wa-c", "d"], dir.path());
    let events = Arc::new(Mutex::new(Vec::new()));
    let mut recorder = Recorder(Arc::clone(&events));
    let options = RunOptions {
        jobs: 2,
        keep_cases: true,
        ..RunOptions::default()
    };
    let report = run(&plan, RunInfo::default(), &options, &mut recorder).unwrap();
    let order: Vec<&str> = report.cases.iter().map(|c| c.case.as_str()).collect();
    assert_eq!(order, ["slow-a.in", "b.in", "wa-c.in", "d.in"]);
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert_eq!(report.summary[&Verdict::Accepted], 3);
    assert_eq!(report.exit_code(), crate::verdict::ExitCode::Failed);
    let events = events.lock().unwrap();
    assert_eq!(events.first().map(String::as_str), Some("started 4"));
    assert_eq!(events.last().map(String::as_str), Some("finished WA"));
    // The slow first case finished after the others: streamed as they came.
    let finish_a = events
        .iter()
        .position(|e| e.starts_with("finish slow-a"))
        .unwrap();
    let finish_b = events
        .iter()
        .position(|e| e.starts_with("finish b"))
        .unwrap();
    assert!(finish_b < finish_a, "{events:?}");
    assert!(
        events
            .iter()
            .any(|e| e == "finish wa-c.in WA #2" || e.starts_with("finish wa-c.in WA"))
    );
}

#[test]
fn without_keeping_cases_each_settles_once_in_case_order_and_the_digest_counts() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(&["slow-a", "b", "wa-c", "d", "tle-e"], dir.path());
    let events = Arc::new(Mutex::new(Vec::new()));
    let mut recorder = Recorder(Arc::clone(&events));
    let options = RunOptions {
        jobs: 3,
        ..RunOptions::default()
    };
    let report = run(&plan, RunInfo::default(), &options, &mut recorder).unwrap();
    assert!(report.cases.is_empty(), "nothing kept");
    assert_eq!(report.total(), 5);
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert_eq!(report.summary[&Verdict::Accepted], 3);
    let digest = &report.digest;
    assert_eq!(digest.failure_count, 2);
    let failed: Vec<&str> = digest
        .failures
        .iter()
        .map(|(_, c)| c.case.as_str())
        .collect();
    assert_eq!(failed, ["wa-c.in", "tle-e.in"]);
    assert_eq!(digest.failures[0].0, 2, "the position in the report");
    assert_eq!(digest.rows.len(), 1);
    assert_eq!(
        (digest.rows[0].label().as_str(), digest.rows[0].cases),
        ("p", 5)
    );
    let events = events.lock().unwrap();
    let settled: Vec<&str> = events
        .iter()
        .filter_map(|e| e.strip_prefix("settled "))
        .collect();
    assert_eq!(
        settled,
        ["slow-a.in", "b.in", "wa-c.in", "d.in", "tle-e.in"]
    );
    // The slow first case finished after others, yet settled first: the
    // others waited for it.
    let finish_a = events
        .iter()
        .position(|e| e.starts_with("finish slow-a"))
        .unwrap();
    let settle_b = events.iter().position(|e| e == "settled b.in").unwrap();
    assert!(finish_a < settle_b, "{events:?}");
}

#[test]
fn the_streamed_json_report_is_the_whole_report() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(&["slow-a", "b", "wa-c"], dir.path());
    let sink = crate::report::FileSink::memory();
    let mut json = crate::report::json::JsonReporter::new(Box::new(sink.clone()));
    let report = run(
        &plan,
        RunInfo::default(),
        &RunOptions {
            jobs: 2,
            ..RunOptions::default()
        },
        &mut json,
    )
    .unwrap();
    drop(json);
    let streamed: Report = serde_json::from_slice(&sink.bytes()).unwrap();
    let names: Vec<&str> = streamed.cases.iter().map(|c| c.case.as_str()).collect();
    assert_eq!(names, ["slow-a.in", "b.in", "wa-c.in"]);
    assert_eq!(streamed.verdict, report.verdict);
    assert_eq!(streamed.summary, report.summary);
    // Rendered whole from the same cases, the bytes are the same.
    let whole = crate::report::json::to_bytes(&Report {
        cases: streamed.cases.clone(),
        ..report.clone()
    })
    .unwrap();
    assert_eq!(
        String::from_utf8(whole).unwrap(),
        String::from_utf8(sink.bytes()).unwrap()
    );
}

#[test]
fn fail_fast_marks_unlaunched_cases_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(&["a", "tle-b", "c", "d"], dir.path());
    let options = RunOptions {
        jobs: 1,
        fail_fast: true,
        keep_cases: true,
        ..RunOptions::default()
    };
    let report = run(
        &plan,
        RunInfo::default(),
        &options,
        &mut Recorder::default(),
    )
    .unwrap();
    let verdicts: Vec<Verdict> = report.cases.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Accepted,
            Verdict::TimeLimit,
            Verdict::Skipped,
            Verdict::Skipped
        ]
    );
    assert!(report.cases[2].message.contains("--fail-fast"));
}

#[test]
fn interrupt_flag_stops_the_run_with_exit_130() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(&["a", "b"], dir.path());
    let flag = Arc::new(AtomicBool::new(true));
    let options = RunOptions {
        jobs: 1,
        interrupted: Some(flag),
        keep_cases: true,
        ..RunOptions::default()
    };
    let report = run(
        &plan,
        RunInfo::default(),
        &options,
        &mut Recorder::default(),
    )
    .unwrap();
    assert!(report.cases.iter().all(|c| c.verdict == Verdict::Skipped));
    assert_eq!(report.exit_code(), crate::verdict::ExitCode::Interrupted);
}

/// What the human reporter prints for a run of these cases.
fn human_text(names: &[&str], verbosity: crate::report::human::Verbosity, color: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(names, dir.path());
    let buffer = crate::report::FileSink::memory();
    let mut human =
        crate::report::human::HumanReporter::new(Box::new(buffer.clone()), verbosity, color, false);
    run(
        &plan,
        RunInfo::default(),
        // As `judge run` does: the human report from the digest alone.
        &RunOptions {
            jobs: 1,
            ..RunOptions::default()
        },
        &mut human,
    )
    .unwrap();
    drop(human);
    let path = dir.path().join("out.txt");
    buffer.commit(&path).unwrap();
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn human_reporter_shows_failures_first_then_summary() {
    use crate::report::human::Verbosity;
    let text = human_text(&["a", "wa-b", "tle-c"], Verbosity::Normal, false);
    let failures = text.find("Failures (2 of 3 cases):").expect(&text);
    let summary = text.find("Summary:").expect(&text);
    assert!(failures < summary, "{text}");
    assert!(
        text.contains("output line 1, token 1: expected \"right\", found \"wrong\""),
        "{text}"
    );
    assert!(text.contains("      -right\n"), "diff shown: {text}");
    // Failures as they happen, one line each, before the full blocks.
    let live = text.find("WA   [").expect(&text);
    assert!(live < failures, "{text}");
    assert!(
        !text.contains("AC   ["),
        "accepted cases are not listed: {text}"
    );
    // The summary table: a header, then the problem's row, aligned.
    let table: Vec<&str> = text[summary..].lines().skip(1).take(2).collect();
    assert_eq!(
        table[0].split_whitespace().collect::<Vec<_>>(),
        [
            "problem", "cases", "AC", "WA", "TLE", "max", "CPU", "max", "memory"
        ],
        "{text}"
    );
    assert_eq!(
        table[1].split_whitespace().collect::<Vec<_>>(),
        ["p", "3", "1", "1", "1", "0.003s", "100KiB"],
        "{text}"
    );
    assert_eq!(table[0].len(), table[1].len(), "aligned: {text}");
    assert!(text.contains("  slowest: "), "{text}");
    assert!(text.trim_end().ends_with("(first: p/wa-b.in)"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour asked, none given: {text:?}"
    );
}

#[test]
fn human_reporter_quiet_prints_one_line() {
    use crate::report::human::Verbosity;
    let text = human_text(&["a", "wa-b", "c"], Verbosity::Quiet, false);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("WA: 2/3 accepted (WA 1) in "), "{text}");
    let text = human_text(&["a"], Verbosity::Quiet, false);
    assert!(text.starts_with("AC: 1/1 accepted in "), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn human_reporter_verbose_lists_every_case() {
    use crate::report::human::Verbosity;
    let text = human_text(&["a", "wa-b", "c"], Verbosity::Verbose, false);
    let summary = text.find("Summary:").expect(&text);
    for (code, name) in [("AC", "p/a.in"), ("WA", "p/wa-b.in"), ("AC", "p/c.in")] {
        let line = text
            .lines()
            .find(|l| l.starts_with(code) && l.contains(&format!("] {name}")))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"));
        assert!(text.find(line).unwrap() < summary, "{text}");
    }
}

#[test]
fn human_reporter_colours_only_when_asked() {
    use crate::report::human::Verbosity;
    for verbosity in [Verbosity::Quiet, Verbosity::Normal, Verbosity::Verbose] {
        let plain = human_text(&["a", "wa-b"], verbosity, false);
        assert!(!plain.contains('\u{1b}'), "{plain:?}");
        let coloured = human_text(&["a", "wa-b"], verbosity, true);
        assert!(coloured.contains("\u{1b}["), "{coloured:?}");
        // The same text once the colour codes are taken out.
        let stripped = console::strip_ansi_codes(&coloured);
        let lines = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.contains(" accepted") && !l.contains("slowest"))
                .map(String::from)
                .collect()
        };
        assert_eq!(lines(&stripped), lines(&plain));
    }
}

#[test]
fn an_html_page_of_a_run_too_large_to_show_case_by_case_draws_from_the_digest() {
    let dir = tempfile::tempdir().unwrap();
    let total = crate::report::html::CASES_SHOWN + 5;
    let names: Vec<String> = (0..total)
        .map(|i| match i {
            7 => "wa-7".to_string(),
            i => format!("c{i}"),
        })
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let plan = plan(&names, dir.path());
    let sink = crate::report::FileSink::memory();
    let mut html = crate::report::html::HtmlReporter::new(Box::new(sink.clone()));
    run(
        &plan,
        RunInfo::default(),
        &RunOptions {
            jobs: 2,
            ..RunOptions::default()
        },
        &mut html,
    )
    .unwrap();
    drop(html);
    let page = String::from_utf8(sink.bytes()).unwrap();
    assert!(
        page.contains(&format!("This run has {total} cases")),
        "notice"
    );
    assert!(page.contains("wa-7.in"), "the failure in full");
    assert!(
        page.contains(r#"id="case-7""#),
        "its detail block, at its position"
    );
    assert!(!page.contains(r#"id="all""#), "no table of every case");
    assert!(page.len() < 200_000, "a bounded page: {} bytes", page.len());
}

/// The events of a run of these cases through a machine reporter of
/// `format`, as text.
fn machine_text(names: &[&str], format: crate::report::Format, jobs: usize) -> String {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(names, dir.path());
    let sink = crate::report::FileSink::memory();
    let mut reporter = crate::report::machine_reporter(format, Box::new(sink.clone())).unwrap();
    let options = RunOptions {
        jobs,
        ..RunOptions::default()
    };
    run(&plan, RunInfo::default(), &options, reporter.as_mut()).unwrap();
    drop(reporter);
    String::from_utf8(sink.bytes()).unwrap()
}

#[test]
fn ndjson_lists_finished_cases_in_case_order_whatever_the_finishing_order() {
    let text = machine_text(
        &["slow-a", "b", "wa-c", "d"],
        crate::report::Format::Ndjson,
        2,
    );
    let finished: Vec<(String, u64)> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "case-finished")
        .map(|v| {
            (
                v["case"].as_str().unwrap().to_string(),
                v["done"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = ["slow-a.in", "b.in", "wa-c.in", "d.in"]
        .iter()
        .zip(1..)
        .map(|(c, n)| (c.to_string(), n))
        .collect();
    assert_eq!(finished, expected, "{text}");
}

#[test]
fn junit_puts_every_spooled_case_under_its_suite_with_the_suites_counts() {
    // More cases than one spooled chunk, failures on both sides of its edge.
    let names: Vec<String> = (0..600)
        .map(|i| match i {
            3 | 300 => format!("wa-{i}"),
            i => format!("c{i:03}"),
        })
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let xml = machine_text(&names, crate::report::Format::Junit, 2);
    assert!(
        xml.contains(r#"<testsuite name="p" tests="600" skipped="0" errors="0" failures="2">"#),
        "{}",
        &xml[..400.min(xml.len())]
    );
    assert_eq!(xml.matches("<testcase ").count(), 600);
    assert!(
        !xml.contains("judge-spooled-cases"),
        "the stand-in is replaced"
    );
    // In case order, the failures where they were.
    let position = |name: &str| xml.find(&format!(r#"name="{name}""#)).unwrap();
    assert!(position("c000.in") < position("wa-3.in"));
    assert!(position("wa-3.in") < position("c299.in"));
    assert!(position("c299.in") < position("wa-300.in"));
    assert!(position("wa-300.in") < position("c599.in"));
    assert!(xml.trim_end().ends_with("</testsuites>"));
}
