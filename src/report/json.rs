//! The JSON report (one object at the end) and the NDJSON stream (one
//! object per event, as cases start and finish). The JSON report is a
//! stable interface, documented in README "The JSON report".

use crate::judge::{Event, Report, Reporter};
use serde_json::json;
use std::io::Write;

/// Version of the JSON report's shape; bumped only on incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

pub fn to_bytes(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut value = serde_json::to_value(report).map_err(std::io::Error::other)?;
    if let Some(object) = value.as_object_mut() {
        object.insert("version".into(), json!(SCHEMA_VERSION));
    }
    let mut bytes = serde_json::to_vec_pretty(&value).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes the whole report when the run finishes.
pub struct JsonReporter {
    sink: Box<dyn Write>,
}

impl JsonReporter {
    pub fn new(sink: Box<dyn Write>) -> Self {
        JsonReporter { sink }
    }
}

impl Reporter for JsonReporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::Finished(report) = event {
            self.sink.write_all(&to_bytes(report)?)?;
            self.sink.flush()?;
        }
        Ok(())
    }
}

/// One JSON object per line, per event: `started`, `case-started`,
/// `case-finished` (the case's full result), `finished` (the summary).
pub struct NdjsonReporter {
    sink: Box<dyn Write>,
}

impl NdjsonReporter {
    pub fn new(sink: Box<dyn Write>) -> Self {
        NdjsonReporter { sink }
    }
}

fn event_value(event: &Event<'_>) -> serde_json::Value {
    match event {
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
    }
}

impl Reporter for NdjsonReporter {
    fn event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        let line = serde_json::to_string(&event_value(event)).map_err(std::io::Error::other)?;
        writeln!(self.sink, "{line}")?;
        self.sink.flush()
    }
}

/// The NDJSON lines a finished report would have streamed (for `judge merge`).
pub fn ndjson_of_report(report: &Report) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut push = |event: &Event<'_>| -> std::io::Result<()> {
        let line = serde_json::to_string(&event_value(event)).map_err(std::io::Error::other)?;
        writeln!(out, "{line}")
    };
    push(&Event::Started(&report.info))?;
    let total = report.cases.len();
    for (i, result) in report.cases.iter().enumerate() {
        push(&Event::CaseFinished {
            result,
            done: i + 1,
            total,
        })?;
    }
    push(&Event::Finished(report))?;
    Ok(out)
}
