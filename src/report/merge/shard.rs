//! One shard report read as a stream: its cases are parsed one at a time
//! and spooled, one per line, into an unnamed temporary file; the rest of
//! the report (its run information, a few kilobytes) is kept. Reading back
//! the spool gives the cases in case order, so shards of a million cases
//! merge in flat memory.
//!
//! A report's cases in case order is what the judge writes; a report whose
//! cases are out of order (edited by hand, made elsewhere) is sorted in
//! memory instead, which is correct but not flat.

use super::ParseError;
use super::runs::{Key, Run, RunWriter, key};
use crate::judge::{CaseResult, Report};
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::io::{BufReader, Read};

/// A shard: its report without the cases, and its cases spooled.
pub struct Shard {
    pub name: String,
    /// The report with `cases` empty.
    pub header: Report,
    pub count: usize,
    /// Its cases as a sorted run, until taken to be merged (flushed: one
    /// descriptor and no buffer a shard).
    pub run: Option<Run>,
}

impl Shard {
    /// Read a report from `input`, spooling its cases as from `origin`
    /// (the report's position among those merged).
    pub fn read(name: String, origin: usize, input: impl Read) -> Result<Shard, ShardError> {
        let mut spool = RunWriter::new().map_err(ShardError::Spool)?;
        let mut count = 0;
        let mut sorted = true;
        let mut last: Option<Key> = None;
        let mut spool_error = None;
        let header = parse(input, |case| {
            let k = key(&case);
            if last.as_ref().is_some_and(|l| *l >= k) {
                sorted = false;
            }
            last = Some(k);
            count += 1;
            if let Err(e) = spool.push(origin, &case) {
                spool_error.get_or_insert(e);
            }
        })
        .map_err(ShardError::Parse)?;
        if let Some(e) = spool_error {
            return Err(ShardError::Spool(e));
        }
        let mut run = spool.finish().map_err(ShardError::Spool)?;
        if !sorted {
            run = sort(run).map_err(ShardError::Spool)?;
        }
        Ok(Shard {
            name,
            header,
            count,
            run: Some(run),
        })
    }
}

/// Sort an out-of-order shard's run (in memory).
fn sort(run: Run) -> std::io::Result<Run> {
    let mut cases: Vec<(usize, CaseResult)> = run.read().collect::<Result<_, _>>()?;
    cases.sort_by_key(|(_, case)| key(case));
    let mut out = RunWriter::new()?;
    for (origin, case) in &cases {
        out.push(*origin, case)?;
    }
    out.finish()
}

#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error("{0}")]
    Parse(ParseError),
    #[error("cannot spool its cases into a temporary file: {0}")]
    Spool(std::io::Error),
}

/// Parse a JSON report from `input`, handing each case to `each` as it is
/// read; returns the report with `cases` empty. A malformed case is
/// reported after the version is checked (a report of another version is
/// said to be one, whatever its cases look like).
pub fn parse(input: impl Read, mut each: impl FnMut(CaseResult)) -> Result<Report, ParseError> {
    let mut first_bad: Option<String> = None;
    let mut saw_cases = false;
    let mut sink = |value: Value| match serde_json::from_value::<CaseResult>(value) {
        Ok(case) => each(case),
        Err(e) => {
            first_bad.get_or_insert_with(|| e.to_string());
        }
    };
    let top = Top {
        each: &mut sink,
        saw_cases: &mut saw_cases,
    };
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, input));
    let rest = serde::Deserializer::deserialize_any(&mut de, top)
        .and_then(|rest| de.end().map(|()| rest))
        .map_err(|e| ParseError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
    match rest.get("version").and_then(Value::as_u64) {
        Some(v) if v == u64::from(crate::report::json::SCHEMA_VERSION) => {}
        Some(v) => return Err(ParseError::Version(v)),
        None => return Err(ParseError::NoVersion),
    }
    if !saw_cases {
        return Err(ParseError::Schema("missing field `cases`".to_string()));
    }
    if let Some(bad) = first_bad {
        return Err(ParseError::Schema(format!("a case: {bad}")));
    }
    let mut rest = rest;
    rest.insert("cases".to_string(), Value::Array(Vec::new()));
    serde_json::from_value(Value::Object(rest)).map_err(|e| ParseError::Schema(e.to_string()))
}

/// The report's top-level object: `cases` streamed, the rest kept.
struct Top<'a> {
    each: &'a mut dyn FnMut(Value),
    saw_cases: &'a mut bool,
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object (a judge report)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut rest = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "cases" {
                if *self.saw_cases {
                    return Err(A::Error::custom("duplicate field `cases`"));
                }
                *self.saw_cases = true;
                map.next_value_seed(CasesSeed(&mut *self.each))?;
            } else {
                let value: Value = map.next_value()?;
                rest.insert(key, value);
            }
        }
        Ok(rest)
    }
}

/// The `cases` array, each element handed on as it is read.
struct CasesSeed<'a>(&'a mut dyn FnMut(Value));

impl<'de> DeserializeSeed<'de> for CasesSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for CasesSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of cases")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(value) = seq.next_element::<Value>()? {
            (self.0)(value);
        }
        Ok(())
    }
}
