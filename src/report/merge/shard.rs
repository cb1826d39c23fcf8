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
use crate::judge::{CaseResult, Report};
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, Write};

/// Where a case sorts in the merged report: its index in the whole run,
/// then its program.
pub type Key = (usize, Option<String>);

pub fn key(case: &CaseResult) -> Key {
    (case.index, case.program.clone())
}

/// A shard: its report without the cases, and its cases spooled.
pub struct Shard {
    pub name: String,
    /// The report with `cases` empty.
    pub header: Report,
    pub count: usize,
    /// Until read back (one descriptor a shard: a merge of many shards
    /// must not run out of them).
    spool: Option<BufWriter<std::fs::File>>,
}

impl Shard {
    /// Read a report from `input`, spooling its cases.
    pub fn read(name: String, input: impl Read) -> Result<Shard, ShardError> {
        let file = tempfile::tempfile().map_err(ShardError::Spool)?;
        let mut spool = BufWriter::with_capacity(1 << 16, file);
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
            let written = serde_json::to_writer(&mut spool, &case)
                .map_err(std::io::Error::other)
                .and_then(|()| spool.write_all(b"\n"));
            if let Err(e) = written {
                spool_error.get_or_insert(e);
            }
        })
        .map_err(ShardError::Parse)?;
        if let Some(e) = spool_error {
            return Err(ShardError::Spool(e));
        }
        let mut shard = Shard {
            name,
            header,
            count,
            spool: Some(spool),
        };
        if !sorted {
            shard.sort().map_err(ShardError::Spool)?;
        }
        Ok(shard)
    }

    /// Sort an out-of-order shard's spool (in memory).
    fn sort(&mut self) -> std::io::Result<()> {
        let mut cases: Vec<CaseResult> = self.cases()?.collect::<Result<_, _>>()?;
        cases.sort_by_key(key);
        let mut spool = BufWriter::new(tempfile::tempfile()?);
        for case in &cases {
            serde_json::to_writer(&mut spool, case)?;
            spool.write_all(b"\n")?;
        }
        self.spool = Some(spool);
        Ok(())
    }

    /// The cases, in case order (read once).
    pub fn cases(&mut self) -> std::io::Result<Cases> {
        let spool = self
            .spool
            .take()
            .ok_or_else(|| std::io::Error::other("the shard's cases were read already"))?;
        let mut file = spool.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        Ok(Cases {
            lines: BufReader::with_capacity(1 << 16, file),
            line: String::new(),
        })
    }
}

/// A shard's spooled cases read back.
pub struct Cases {
    lines: BufReader<std::fs::File>,
    line: String,
}

impl Iterator for Cases {
    type Item = std::io::Result<CaseResult>;

    fn next(&mut self) -> Option<Self::Item> {
        self.line.clear();
        match self.lines.read_line(&mut self.line) {
            Ok(0) => None,
            Ok(_) => Some(serde_json::from_str(&self.line).map_err(std::io::Error::from)),
            Err(e) => Some(Err(e)),
        }
    }
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
