//! The JSON report (one object at the end) and the NDJSON stream (one
//! object per event, as cases start and finish). The JSON report is a
//! stable interface, documented in README "The JSON report".

use crate::judge::{CaseResult, Event, Report, Reporter, RunInfo};
use serde_json::json;
use std::io::Write;

/// Version of the JSON report's shape; bumped only on incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole JSON report of a finished report (`judge merge`, `verify`):
/// the same bytes the streaming reporter writes.
pub fn to_bytes(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut writer = JsonReporter::new(Box::new(&mut out));
    for case in &report.cases {
        writer.case(case)?;
    }
    writer.finish(report)?;
    drop(writer);
    Ok(out)
}

/// Writes the JSON report as the run goes: each case as it settles (in
/// case order, one line each inside `"cases"`), the rest when the run
/// finishes. Nothing is held: a run of a million cases writes a million
/// lines with flat memory. The fields after `cases` are the same object's
/// (JSON objects are unordered; `cases` simply comes first).
pub struct JsonReporter<'w> {
    sink: Box<dyn Write + 'w>,
    opened: bool,
}

impl<'w> JsonReporter<'w> {
    pub fn new(sink: Box<dyn Write + 'w>) -> Self {
        JsonReporter {
            sink,
            opened: false,
        }
    }

    fn case(&mut self, case: &CaseResult) -> std::io::Result<()> {
        self.sink.write_all(if self.opened {
            b",\n    "
        } else {
            b"{\n  \"cases\": [\n    "
        })?;
        self.opened = true;
        serde_json::to_writer(&mut self.sink, case).map_err(std::io::Error::other)
    }

    fn finish(&mut self, report: &Report) -> std::io::Result<()> {
        self.sink.write_all(if self.opened {
            b"\n  ]"
        } else {
            b"{\n  \"cases\": []"
        })?;
        let mut value = serde_json::to_value(report).map_err(std::io::Error::other)?;
        if let Some(object) = value.as_object_mut() {
            object.remove("cases");
            object.insert("version".into(), json!(SCHEMA_VERSION));
            for (key, value) in object.iter() {
                let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
                // JSON strings hold no raw line break: indenting every
                // line indents the value.
                write!(
                    self.sink,
                    ",\n  {}: {}",
                    json!(key),
                    text.replace('\n', "\n  ")
                )?;
            }
        }
        self.sink.write_all(b"\n}\n")?;
        self.sink.flush()
    }
}

impl Reporter for JsonReporter<'_> {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        match event {
            Event::CaseSettled(case) => self.case(case),
            Event::Finished(report) => self.finish(report),
            _ => Ok(()),
        }
    }
}

/// One JSON object per line, per event: `started`, `case-started` (as a
/// case is launched), `case-finished` (the case's full, final result, in
/// case order: sent when every earlier case has finished too), `finished`
/// (the summary).
pub struct NdjsonReporter<'w> {
    sink: Box<dyn Write + 'w>,
    total: usize,
    settled: usize,
}

impl<'w> NdjsonReporter<'w> {
    pub fn new(sink: Box<dyn Write + 'w>) -> Self {
        NdjsonReporter {
            sink,
            total: 0,
            settled: 0,
        }
    }
}

fn event_value(event: &Event<'_>) -> Option<serde_json::Value> {
    Some(match event {
        Event::Started(info) => {
            let mut v = serde_json::to_value(info).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("event".into(), json!("started"));
                o.insert("version".into(), json!(SCHEMA_VERSION));
            }
            v
        }
        Event::CaseStarted {
            index,
            problem,
            case,
        } => {
            json!({"event": "case-started", "index": index, "problem": problem, "case": case})
        }
        Event::CaseFinished {
            result,
            done,
            total,
        } => {
            let mut v = serde_json::to_value(result).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("event".into(), json!("case-finished"));
                o.insert("done".into(), json!(done));
                o.insert("total".into(), json!(total));
            }
            v
        }
        Event::Finished(report) => {
            let mut v = json!({
                "event": "finished",
                "verdict": report.verdict,
                "summary": report.summary,
                "interrupted": report.interrupted,
                "elapsed_ms": report.elapsed_ms,
            });
            // A scoring problem's scores: known only when every case is in.
            if !report.scores.is_empty()
                && let Some(o) = v.as_object_mut()
            {
                o.insert("scores".into(), json!(report.scores));
            }
            v
        }
        Event::CaseSettled(_) => return None,
    })
}

impl Reporter for NdjsonReporter<'_> {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        let line = match event {
            Event::Started(info) => {
                self.total = info.total;
                event_value(event)
            }
            // The finish in case order is `CaseSettled`'s.
            Event::CaseFinished { .. } => None,
            Event::CaseSettled(result) => {
                self.settled += 1;
                event_value(&Event::CaseFinished {
                    result,
                    done: self.settled,
                    total: self.total,
                })
            }
            _ => event_value(event),
        };
        let Some(line) = line else {
            return Ok(());
        };
        let line = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        writeln!(self.sink, "{line}")?;
        // Every line as it happens, for a live reader.
        self.sink.flush()
    }
}

/// The NDJSON lines a finished report would have streamed (for `judge
/// merge`): its events fed to the reporter.
pub fn ndjson_of_report(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut writer = NdjsonReporter::new(Box::new(&mut out));
    let info = RunInfo {
        total: report.cases.len(),
        ..report.info.clone()
    };
    writer.event(&Event::Started(&info))?;
    for case in &report.cases {
        writer.event(&Event::CaseSettled(case))?;
    }
    writer.event(&Event::Finished(report))?;
    drop(writer);
    Ok(out)
}
