//! A text the judge compares without holding it: bytes in memory or a
//! regular file read piece by piece at an offset (`pread`), so comparing a
//! gigabyte of output with a gigabyte of answer costs two buffers, not two
//! gigabytes. Every comparison of outputs (`check::text`, `check::diff`,
//! the first layout difference) walks [`Stream`]s of a [`Text`].
//!
//! A read error ends the stream early and is kept: the caller asks
//! [`Stream::error`] when it is done and reports it (the comparison's
//! finding is not trusted then).

use std::fs::File;
use std::os::unix::fs::FileExt;

/// How much of a file a stream holds at a time (a few bytes in the unit
/// tests, so that short texts cross chunk boundaries everywhere).
#[cfg(not(test))]
const CHUNK: usize = 64 << 10;
#[cfg(test)]
const CHUNK: usize = 7;

/// A text: bytes, or `len` bytes of a file from offset `start`.
#[derive(Clone, Copy, Debug)]
pub enum Text<'a> {
    Bytes(&'a [u8]),
    File {
        file: &'a File,
        start: u64,
        len: u64,
    },
}

impl<'a> Text<'a> {
    /// The whole of a file as it is now.
    pub fn file(file: &'a File) -> std::io::Result<Text<'a>> {
        Ok(Text::File {
            file,
            start: 0,
            len: file.metadata()?.len(),
        })
    }

    pub fn len(&self) -> u64 {
        match self {
            Text::Bytes(b) => b.len() as u64,
            Text::File { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text from byte `offset` on.
    pub fn from(&self, offset: u64) -> Text<'a> {
        match *self {
            Text::Bytes(b) => Text::Bytes(b.get(offset as usize..).unwrap_or(&[])),
            Text::File { file, start, len } => {
                let offset = offset.min(len);
                Text::File {
                    file,
                    start: start + offset,
                    len: len - offset,
                }
            }
        }
    }

    /// At most `max` bytes from `offset` (fewer at the end, or on a read
    /// error).
    pub fn read_range(&self, offset: u64, max: usize) -> Vec<u8> {
        let mut stream = self.from(offset).stream();
        let mut out = Vec::with_capacity(max.min(CHUNK));
        while out.len() < max {
            let chunk = stream.chunk();
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(max - out.len());
            out.extend_from_slice(&chunk[..n]);
            stream.consume(n);
        }
        out
    }

    /// The first bytes, up to `n`.
    pub fn head(&self, n: usize) -> Vec<u8> {
        self.read_range(0, n)
    }

    /// The last byte, if any.
    pub fn last(&self) -> Option<u8> {
        let len = self.len();
        len.checked_sub(1)
            .and_then(|at| self.read_range(at, 1).first().copied())
    }

    /// A stream from the start.
    pub fn stream(&self) -> Stream<'a> {
        Stream {
            text: *self,
            read: 0,
            buf: Vec::new(),
            at: 0,
            error: None,
        }
    }

    /// Write the text to `out`, streamed.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut stream = self.stream();
        loop {
            let chunk = stream.chunk();
            if chunk.is_empty() {
                break;
            }
            out.write_all(chunk)?;
            let n = chunk.len();
            stream.consume(n);
        }
        match stream.error() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The whole text in memory (for readers that parse it whole).
    pub fn to_vec(&self) -> Vec<u8> {
        self.read_range(0, usize::try_from(self.len()).unwrap_or(usize::MAX))
    }

    /// Whether two texts hold the same bytes (streamed).
    pub fn same_bytes(&self, other: &Text<'_>) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let (mut a, mut b) = (self.stream(), other.stream());
        loop {
            let (ca, cb) = (a.chunk(), b.chunk());
            let n = ca.len().min(cb.len());
            if n == 0 {
                return ca.is_empty() && cb.is_empty();
            }
            if ca[..n] != cb[..n] {
                return false;
            }
            a.consume(n);
            b.consume(n);
        }
    }
}

/// A forward walk over a [`Text`].
pub struct Stream<'a> {
    text: Text<'a>,
    /// How many bytes of the text were taken into `buf` or passed.
    read: u64,
    buf: Vec<u8>,
    /// Where in `buf` the stream is.
    at: usize,
    error: Option<std::io::Error>,
}

impl<'a> Stream<'a> {
    /// The bytes ahead that are at hand: empty only at the end.
    pub fn chunk(&mut self) -> &[u8] {
        match self.text {
            Text::Bytes(b) => b.get(self.read as usize..).unwrap_or(&[]),
            Text::File { file, start, len } => {
                if self.at >= self.buf.len() {
                    self.refill(file, start, len);
                }
                self.buf.get(self.at..).unwrap_or(&[])
            }
        }
    }

    fn refill(&mut self, file: &File, start: u64, len: u64) {
        self.buf.clear();
        self.at = 0;
        let left = len.saturating_sub(self.read);
        if left == 0 || self.error.is_some() {
            return;
        }
        let want = (left.min(CHUNK as u64)) as usize;
        self.buf.resize(want, 0);
        loop {
            match file.read_at(&mut self.buf, start + self.read) {
                Ok(n) => {
                    self.buf.truncate(n);
                    self.read += n as u64;
                    return;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.clear();
                    self.error = Some(e);
                    return;
                }
            }
        }
    }

    /// Pass `n` bytes of the current chunk.
    pub fn consume(&mut self, n: usize) {
        match self.text {
            Text::Bytes(_) => self.read += n as u64,
            Text::File { .. } => self.at = (self.at + n).min(self.buf.len()),
        }
    }

    /// The next byte, not passed.
    pub fn peek(&mut self) -> Option<u8> {
        self.chunk().first().copied()
    }

    /// Where the stream is, in bytes from the text's start.
    pub fn offset(&self) -> u64 {
        match self.text {
            Text::Bytes(_) => self.read,
            Text::File { .. } => self.read - (self.buf.len() - self.at) as u64,
        }
    }

    /// Pass bytes while `keep` says so; how many, and how many of them
    /// were newlines.
    pub fn skip_while(&mut self, keep: impl Fn(u8) -> bool) -> (u64, usize) {
        let (mut passed, mut newlines) = (0u64, 0usize);
        loop {
            let chunk = self.chunk();
            if chunk.is_empty() {
                return (passed, newlines);
            }
            let n = chunk.iter().position(|&b| !keep(b)).unwrap_or(chunk.len());
            newlines += chunk[..n].iter().filter(|&&b| b == b'\n').count();
            let stop = n < chunk.len();
            self.consume(n);
            passed += n as u64;
            if stop {
                return (passed, newlines);
            }
        }
    }

    /// Append bytes while `keep` says so to `into`, up to `max` in it; how
    /// many were appended.
    pub fn take_while(
        &mut self,
        keep: impl Fn(u8) -> bool,
        into: &mut Vec<u8>,
        max: usize,
    ) -> usize {
        let mut taken = 0;
        while into.len() < max {
            let chunk = self.chunk();
            if chunk.is_empty() {
                break;
            }
            let room = max - into.len();
            let n = chunk
                .iter()
                .take(room)
                .position(|&b| !keep(b))
                .unwrap_or(chunk.len().min(room));
            into.extend_from_slice(&chunk[..n]);
            let stop = n < chunk.len().min(room);
            self.consume(n);
            taken += n;
            if stop {
                break;
            }
        }
        taken
    }

    /// The read error that ended the stream early, if one did.
    pub fn error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().expect("a temporary file");
        f.write_all(bytes).expect("written");
        f
    }

    #[test]
    fn a_file_streams_as_its_bytes_do_across_chunks() {
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let file = file_of(&bytes);
        for text in [Text::Bytes(&bytes), Text::file(&file).expect("a length")] {
            let mut s = text.stream();
            let mut got = Vec::new();
            s.take_while(|_| true, &mut got, usize::MAX);
            assert_eq!(got, bytes);
            assert_eq!(s.offset(), bytes.len() as u64);
            assert_eq!(text.read_range(199_990, 100), bytes[199_990..].to_vec());
            assert_eq!(text.last(), bytes.last().copied());
            assert_eq!(text.from(70_000).head(3), bytes[70_000..70_003].to_vec());
        }
        let file_text = Text::file(&file).expect("a length");
        assert!(file_text.same_bytes(&Text::Bytes(&bytes)));
        assert!(!file_text.same_bytes(&Text::Bytes(&bytes[1..])));
    }

    #[test]
    fn skipping_counts_newlines_and_stops_at_the_first_other_byte() {
        let bytes = b"\n \n\nabc";
        let file = file_of(bytes);
        for text in [Text::Bytes(bytes), Text::file(&file).expect("a length")] {
            let mut s = text.stream();
            assert_eq!(s.skip_while(|b| b == b' ' || b == b'\n'), (4, 3));
            assert_eq!(s.peek(), Some(b'a'));
            assert_eq!(s.offset(), 4);
        }
    }
}
