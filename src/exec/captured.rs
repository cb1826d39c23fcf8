//! A run's standard output as the judge keeps it: in memory up to
//! [`SPILL`] bytes, past that in an unlinked file of its own (in the
//! system's temporary directory, `$TMPDIR`), so what the judge holds per
//! case does not grow with what a program prints. Comparisons stream it
//! ([`Output::text`]); the few readers that parse a whole output (puzzle
//! checks, a generator's test) ask for its bytes.

use crate::text::stream::Text;
use std::borrow::Cow;
use std::fs::File;
use std::io::Write;
use std::sync::Arc;

/// The most of an output held in memory; a longer one is spooled.
pub const SPILL: usize = 4 << 20;

/// A run's standard output.
#[derive(Clone, Debug)]
pub enum Output {
    Held(Vec<u8>),
    Spooled(Arc<Spooled>),
}

/// An output in a file no other name reaches.
#[derive(Debug)]
pub struct Spooled {
    file: File,
    len: u64,
}

impl Default for Output {
    fn default() -> Self {
        Output::Held(Vec::new())
    }
}

impl From<Vec<u8>> for Output {
    fn from(bytes: Vec<u8>) -> Self {
        Output::Held(bytes)
    }
}

impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        self.text().same_bytes(&other.text())
    }
}

impl Output {
    /// A regular file taken as an output (its open handle kept: the name
    /// may go).
    pub fn of_file(file: File, len: u64) -> Output {
        Output::Spooled(Arc::new(Spooled { file, len }))
    }

    pub fn text(&self) -> Text<'_> {
        match self {
            Output::Held(bytes) => Text::Bytes(bytes),
            Output::Spooled(s) => Text::File {
                file: &s.file,
                start: 0,
                len: s.len,
            },
        }
    }

    pub fn len(&self) -> u64 {
        self.text().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole output in memory (for readers that parse it whole).
    pub fn bytes(&self) -> std::io::Result<Cow<'_, [u8]>> {
        match self {
            Output::Held(bytes) => Ok(Cow::Borrowed(bytes)),
            Output::Spooled(s) => {
                use std::os::unix::fs::FileExt;
                let len = usize::try_from(s.len).map_err(std::io::Error::other)?;
                let mut bytes = vec![0u8; len];
                s.file.read_exact_at(&mut bytes, 0)?;
                Ok(Cow::Owned(bytes))
            }
        }
    }

    /// [`Output::bytes`], owned.
    pub fn into_bytes(self) -> std::io::Result<Vec<u8>> {
        match self {
            Output::Held(bytes) => Ok(bytes),
            spooled => spooled.bytes().map(Cow::into_owned),
        }
    }

    /// The output's bytes, or what could be read of them: for messages and
    /// digests of tools' outputs, where a read error has nothing to blame.
    pub fn bytes_lossy(&self) -> Cow<'_, [u8]> {
        self.bytes().unwrap_or(Cow::Borrowed(&[]))
    }

    /// The last `n` bytes (or all of a shorter output).
    pub fn tail(&self, n: usize) -> Vec<u8> {
        let text = self.text();
        let from = text.len().saturating_sub(n as u64);
        text.read_range(from, n)
    }

    /// Write the output to `out` (streamed).
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        self.text().write_to(out)
    }
}

/// An output being captured: bytes go to memory until there are more
/// than [`SPILL`], then all of it to a spool file.
#[derive(Default)]
pub struct Capture {
    held: Vec<u8>,
    spool: Option<(File, u64)>,
    /// Why the spool could not be written, if it could not.
    pub error: Option<String>,
}

impl Capture {
    pub fn len(&self) -> u64 {
        match &self.spool {
            Some((_, len)) => *len,
            None => self.held.len() as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether bytes go to memory (the caller may read straight into
    /// [`Capture::held_mut`]).
    pub fn in_memory(&self) -> bool {
        self.spool.is_none()
    }

    /// The bytes held so far, to read more into (only while
    /// [`Capture::in_memory`]); then [`Capture::settle`].
    pub fn held_mut(&mut self) -> &mut Vec<u8> {
        &mut self.held
    }

    /// After bytes were added to [`Capture::held_mut`]: spool when past
    /// [`SPILL`].
    pub fn settle(&mut self) {
        if self.spool.is_none() && self.held.len() > SPILL {
            let held = std::mem::take(&mut self.held);
            match tempfile::tempfile() {
                Ok(file) => {
                    self.spool = Some((file, 0));
                    self.push(&held);
                }
                Err(e) => {
                    self.error = Some(format!(
                        "cannot make a file for an output past {} MiB in {}: {e}",
                        SPILL >> 20,
                        std::env::temp_dir().display()
                    ));
                    self.held = held;
                }
            }
        }
    }

    /// Add bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        match &mut self.spool {
            None => {
                self.held.extend_from_slice(bytes);
                self.settle();
            }
            Some((file, len)) => {
                if self.error.is_some() {
                    return;
                }
                match file.write_all(bytes) {
                    Ok(()) => *len += bytes.len() as u64,
                    Err(e) => self.error = Some(format!("cannot spool an output: {e}")),
                }
            }
        }
    }

    /// Keep only the first `len` bytes.
    pub fn truncate(&mut self, len: u64) {
        match &mut self.spool {
            None => self
                .held
                .truncate(usize::try_from(len).unwrap_or(usize::MAX)),
            Some((file, at)) => {
                if len < *at {
                    if let Err(e) = file.set_len(len) {
                        self.error = Some(format!("cannot cut a spooled output: {e}"));
                    }
                    *at = len;
                }
            }
        }
    }

    /// The output captured.
    pub fn finish(self) -> Output {
        match self.spool {
            None => Output::Held(self.held),
            Some((file, len)) => Output::of_file(file, len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_past_the_spill_goes_to_a_file_and_reads_back_the_same() {
        let mut capture = Capture::default();
        let piece: Vec<u8> = (0..100_000u32).map(|i| (i % 253) as u8).collect();
        let mut all = Vec::new();
        while all.len() <= SPILL {
            capture.push(&piece);
            all.extend_from_slice(&piece);
        }
        assert!(!capture.in_memory());
        capture.truncate(SPILL as u64 + 7);
        all.truncate(SPILL + 7);
        let output = capture.finish();
        assert!(matches!(output, Output::Spooled(_)));
        assert_eq!(output.len(), all.len() as u64);
        assert_eq!(output.bytes().expect("read back").as_ref(), &all[..]);
        assert_eq!(output, Output::Held(all.clone()));
        assert_eq!(output.tail(5), all[all.len() - 5..].to_vec());
        let mut written = Vec::new();
        output.write_to(&mut written).expect("written");
        assert_eq!(written, all);
    }
}
