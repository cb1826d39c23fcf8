//! Sorted runs of cases on disk and their k-way merge. A run is an
//! unnamed temporary file of lines `ORIGIN<TAB>CASE-JSON`, in case order,
//! where ORIGIN is the position of the shard report the case came from
//! (so a case found twice names both files, however many merges it went
//! through). Merging runs holds one case and one read buffer a run.

use crate::judge::CaseResult;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};

/// Where a case sorts in the merged report: its index in the whole run,
/// then its program.
pub type Key = (usize, Option<String>);

pub fn key(case: &CaseResult) -> Key {
    (case.index, case.program.clone())
}

/// A sorted run, written and flushed: one descriptor, no buffer.
pub struct Run {
    file: File,
}

/// Writes a run.
pub struct RunWriter {
    out: BufWriter<File>,
}

impl RunWriter {
    pub fn new() -> std::io::Result<RunWriter> {
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 16, tempfile::tempfile()?),
        })
    }

    pub fn push(&mut self, origin: usize, case: &CaseResult) -> std::io::Result<()> {
        write!(self.out, "{origin}\t")?;
        serde_json::to_writer(&mut self.out, case)?;
        self.out.write_all(b"\n")
    }

    pub fn finish(self) -> std::io::Result<Run> {
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        Ok(Run { file })
    }
}

impl Run {
    /// Its cases, in order, with their origins.
    pub fn read(self) -> RunReader {
        RunReader {
            lines: BufReader::with_capacity(1 << 16, self.file),
            line: String::new(),
        }
    }
}

/// A run read back.
pub struct RunReader {
    lines: BufReader<File>,
    line: String,
}

impl Iterator for RunReader {
    type Item = std::io::Result<(usize, CaseResult)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.line.clear();
        match self.lines.read_line(&mut self.line) {
            Ok(0) => None,
            Ok(_) => Some(parse_line(&self.line)),
            Err(e) => Some(Err(e)),
        }
    }
}

fn parse_line(line: &str) -> std::io::Result<(usize, CaseResult)> {
    let bad = || std::io::Error::other("a spooled case is malformed");
    let (origin, json) = line.split_once('\t').ok_or_else(bad)?;
    let origin = origin.parse().map_err(|_| bad())?;
    Ok((origin, serde_json::from_str(json)?))
}

/// What can go wrong while merging runs.
#[derive(Debug)]
pub enum MergeFault {
    /// Reading or writing a run.
    Io(std::io::Error),
    /// The same case from two origins.
    Duplicate {
        case: Box<CaseResult>,
        first: usize,
        second: usize,
    },
}

/// Every case of `runs` once, in case order, to `each` with its origin.
pub fn merge(
    runs: Vec<Run>,
    mut each: impl FnMut(usize, CaseResult) -> Result<(), MergeFault>,
) -> Result<(), MergeFault> {
    let mut merge = KWay {
        current: runs.iter().map(|_| None).collect(),
        streams: runs.into_iter().map(Run::read).collect(),
        heads: BinaryHeap::new(),
    };
    for i in 0..merge.streams.len() {
        merge.advance(i)?;
    }
    let mut last: Option<(Key, usize)> = None;
    while let Some(Reverse((k, i))) = merge.heads.pop() {
        let Some((origin, case)) = merge.current[i].take() else {
            continue;
        };
        if let Some((last_key, last_origin)) = &last
            && *last_key == k
        {
            return Err(MergeFault::Duplicate {
                case: Box::new(case),
                first: *last_origin,
                second: origin,
            });
        }
        merge.advance(i)?;
        last = Some((k, origin));
        each(origin, case)?;
    }
    Ok(())
}

/// The runs side by side: each one's next case, and their keys smallest
/// first.
struct KWay {
    streams: Vec<RunReader>,
    current: Vec<Option<(usize, CaseResult)>>,
    heads: BinaryHeap<Reverse<(Key, usize)>>,
}

impl KWay {
    /// Read run `i`'s next case, if it has one.
    fn advance(&mut self, i: usize) -> Result<(), MergeFault> {
        let next = self.streams[i].next().transpose().map_err(MergeFault::Io)?;
        if let Some((_, case)) = &next {
            self.heads.push(Reverse((key(case), i)));
        }
        self.current[i] = next;
        Ok(())
    }
}

/// Merge `runs` into one run.
pub fn combine(runs: Vec<Run>) -> Result<Run, MergeFault> {
    let mut out = RunWriter::new().map_err(MergeFault::Io)?;
    merge(runs, |origin, case| {
        out.push(origin, &case).map_err(MergeFault::Io)
    })?;
    out.finish().map_err(MergeFault::Io)
}
