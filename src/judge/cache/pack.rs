//! The run cache's packs: append-only files of sealed records, one pack a
//! judge process (created with `O_EXCL` under a unique name, written
//! through a buffered writer, never shared while written).
//!
//! A record is self-delimiting and sealed:
//!
//! ```text
//! "jrc1"  kind (1 byte)  key (32 bytes)  length (u32 LE)  body  SHA-256 (32 bytes)
//! ```
//!
//! where the SHA-256 covers everything before it. A reader checks it on
//! every read: a torn tail (a judge killed while it wrote) or a flipped
//! byte is a record that does not verify, ignored and done again.
//!
//! A pack's index (`NAME.idx`, written by rename when its judge finishes)
//! lists each record's kind, key, offset and length, sealed by its own
//! SHA-256; a pack without one (its judge still runs, or died) is read
//! through instead.

use sha2::{Digest as _, Sha256};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A key: the SHA-256 of an entry's fields.
pub type Key = [u8; 32];

const MAGIC: &[u8; 4] = b"jrc1";
const INDEX_MAGIC: &[u8; 4] = b"jri1";
/// Magic, kind, key, length.
const HEADER: usize = 4 + 1 + 32 + 4;
const SEAL: usize = 32;
/// No record is longer (inline outputs are at most 16 KiB each).
pub const MAX_BODY: usize = 16 << 20;
/// One index row: kind, key, offset, length.
const ROW: usize = 1 + 32 + 8 + 4;

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Run,
    Check,
    Interaction,
}

impl Kind {
    fn byte(self) -> u8 {
        match self {
            Kind::Run => b'r',
            Kind::Check => b'c',
            Kind::Interaction => b'i',
        }
    }

    fn of(byte: u8) -> Option<Kind> {
        match byte {
            b'r' => Some(Kind::Run),
            b'c' => Some(Kind::Check),
            b'i' => Some(Kind::Interaction),
            _ => None,
        }
    }
}

/// Where a record is in its pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    pub key: Key,
    pub offset: u64,
    /// The whole record's length, header and seal included.
    pub len: u32,
}

/// A key from its hex form.
pub fn key(hex: &str) -> Option<Key> {
    let mut key = [0u8; 32];
    if hex.len() != 64 {
        return None;
    }
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

/// A record's bytes.
pub fn record(kind: Kind, key: &Key, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER + body.len() + SEAL);
    bytes.extend_from_slice(MAGIC);
    bytes.push(kind.byte());
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(body);
    let seal = Sha256::digest(&bytes);
    bytes.extend_from_slice(&seal);
    bytes
}

/// The body of `bytes` if they are one whole record of `kind` and `key`.
pub fn open_record<'a>(bytes: &'a [u8], kind: Kind, key: &Key) -> Option<&'a [u8]> {
    let (found, body, _) = parse(bytes)?;
    (found.0 == kind && &found.1 == key && HEADER + body.len() + SEAL == bytes.len())
        .then_some(body)
}

/// The record at the start of `bytes`: (kind, key), body, whole length;
/// `None` unless it is whole and verifies.
fn parse(bytes: &[u8]) -> Option<((Kind, Key), &[u8], usize)> {
    if bytes.len() < HEADER + SEAL || &bytes[..4] != MAGIC {
        return None;
    }
    let kind = Kind::of(bytes[4])?;
    let key: Key = bytes[5..37].try_into().ok()?;
    let len = u32::from_le_bytes(bytes[37..41].try_into().ok()?) as usize;
    if len > MAX_BODY || bytes.len() < HEADER + len + SEAL {
        return None;
    }
    let end = HEADER + len;
    if Sha256::digest(&bytes[..end])[..] != bytes[end..end + SEAL] {
        return None;
    }
    Some(((kind, key), &bytes[HEADER..end], end + SEAL))
}

/// Every whole record of a pack's bytes, in order. A record that does
/// not verify but whose length is plausible is skipped; at anything else
/// (a torn tail) reading stops. The second value: whether anything was
/// skipped or left.
pub fn scan(bytes: &[u8]) -> (Vec<Row>, bool) {
    let mut rows = Vec::new();
    let mut at = 0;
    let mut bad = false;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if let Some(((kind, key), _, len)) = parse(rest) {
            rows.push(Row {
                kind,
                key,
                offset: at as u64,
                len: len as u32,
            });
            at += len;
            continue;
        }
        bad = true;
        let plausible = rest.len() >= HEADER
            && &rest[..4] == MAGIC
            && Kind::of(rest[4]).is_some()
            && (u32::from_le_bytes([rest[37], rest[38], rest[39], rest[40]]) as usize) <= MAX_BODY;
        if !plausible {
            break;
        }
        let len = u32::from_le_bytes([rest[37], rest[38], rest[39], rest[40]]) as usize;
        at += HEADER + len + SEAL;
    }
    (rows, bad)
}

/// Read the record `row` of the pack `file`: its body, if it verifies.
pub fn read(file: &File, row: &Row) -> Option<Vec<u8>> {
    let mut bytes = vec![0u8; row.len as usize];
    file.read_exact_at(&mut bytes, row.offset).ok()?;
    open_record(&bytes, row.kind, &row.key).map(<[u8]>::to_vec)
}

/// An index's bytes.
pub fn index_bytes(rows: &[Row]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + rows.len() * ROW + SEAL);
    bytes.extend_from_slice(INDEX_MAGIC);
    for row in rows {
        bytes.push(row.kind.byte());
        bytes.extend_from_slice(&row.key);
        bytes.extend_from_slice(&row.offset.to_le_bytes());
        bytes.extend_from_slice(&row.len.to_le_bytes());
    }
    let seal = Sha256::digest(&bytes);
    bytes.extend_from_slice(&seal);
    bytes
}

/// The rows of an index, if it is whole.
pub fn parse_index(bytes: &[u8]) -> Option<Vec<Row>> {
    if bytes.len() < 4 + SEAL || &bytes[..4] != INDEX_MAGIC {
        return None;
    }
    let end = bytes.len() - SEAL;
    if Sha256::digest(&bytes[..end])[..] != bytes[end..] || !(end - 4).is_multiple_of(ROW) {
        return None;
    }
    bytes[4..end]
        .chunks_exact(ROW)
        .map(|r| {
            Some(Row {
                kind: Kind::of(r[0])?,
                key: r[1..33].try_into().ok()?,
                offset: u64::from_le_bytes(r[33..41].try_into().ok()?),
                len: u32::from_le_bytes(r[41..45].try_into().ok()?),
            })
        })
        .collect()
}

/// The index beside a pack.
pub fn index_path(pack: &Path) -> PathBuf {
    pack.with_extension("idx")
}

/// A pack's rows: from its index when it has a whole one, else read
/// through. `None` when the pack cannot be read.
pub fn rows(pack: &Path) -> Option<Vec<Row>> {
    if let Ok(bytes) = std::fs::read(index_path(pack))
        && let Some(rows) = parse_index(&bytes)
    {
        return Some(rows);
    }
    let mut bytes = Vec::new();
    File::open(pack).ok()?.read_to_end(&mut bytes).ok()?;
    Some(scan(&bytes).0)
}

/// A new pack's name, unique on this machine and likely beyond it.
fn unique_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(now.as_nanos());
    h.write_u32(std::process::id());
    format!(
        "{}-{}-{:016x}.pack",
        now.as_secs(),
        std::process::id(),
        h.finish()
    )
}

/// Create a new pack in `dir` (0600, `O_EXCL`), making `dir` (0700).
pub fn create(dir: &Path) -> std::io::Result<(PathBuf, File)> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    loop {
        let path = dir.join(unique_name());
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The pack a judge appends to.
pub struct Writer {
    pub path: PathBuf,
    out: BufWriter<File>,
    /// Bytes appended, and bytes of them written through to the file.
    written: u64,
    flushed: u64,
    pub rows: Vec<Row>,
}

impl Writer {
    pub fn new(dir: &Path) -> std::io::Result<Writer> {
        let (path, file) = create(dir)?;
        Ok(Writer {
            path,
            out: BufWriter::with_capacity(256 << 10, file),
            written: 0,
            flushed: 0,
            rows: Vec::new(),
        })
    }

    /// Append a record; its row.
    pub fn append(&mut self, kind: Kind, key: &Key, body: &[u8]) -> std::io::Result<Row> {
        let bytes = record(kind, key, body);
        self.out.write_all(&bytes)?;
        let row = Row {
            kind,
            key: *key,
            offset: self.written,
            len: bytes.len() as u32,
        };
        self.written += bytes.len() as u64;
        self.rows.push(row);
        Ok(row)
    }

    /// Make `row` readable from the file.
    pub fn flush_to(&mut self, row: &Row) -> std::io::Result<()> {
        if row.offset + u64::from(row.len) > self.flushed {
            self.out.flush()?;
            self.flushed = self.written;
        }
        Ok(())
    }

    /// Flush, and write the index beside the pack (by rename).
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.out.flush()?;
        self.flushed = self.written;
        super::store::write_atomic(&index_path(&self.path), &index_bytes(&self.rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_or_flipped_record_is_not_read_and_the_rest_are() {
        let k = |b: u8| [b; 32];
        let mut pack = record(Kind::Run, &k(1), b"one");
        pack.extend(record(Kind::Check, &k(2), b"two"));
        let third = pack.len();
        pack.extend(record(Kind::Run, &k(3), b"three"));
        let (rows, bad) = scan(&pack);
        assert_eq!((rows.len(), bad), (3, false));
        // A flipped body byte: that record only.
        let mut flipped = pack.clone();
        flipped[HEADER + 1] ^= 1;
        let (rows, bad) = scan(&flipped);
        assert_eq!(rows.iter().map(|r| r.key[0]).collect::<Vec<_>>(), [2, 3]);
        assert!(bad);
        // A torn tail: the whole records before it.
        let (rows, bad) = scan(&pack[..third + 10]);
        assert_eq!((rows.len(), bad), (2, true));
        let row = rows[1];
        let bytes = &pack[row.offset as usize..(row.offset + u64::from(row.len)) as usize];
        assert_eq!(open_record(bytes, Kind::Check, &k(2)), Some(&b"two"[..]));
        assert_eq!(open_record(bytes, Kind::Run, &k(2)), None);
    }

    #[test]
    fn an_index_round_trips_and_refuses_a_flipped_byte() {
        let rows = vec![Row {
            kind: Kind::Interaction,
            key: [7; 32],
            offset: 99,
            len: 120,
        }];
        let mut bytes = index_bytes(&rows);
        assert_eq!(parse_index(&bytes), Some(rows));
        bytes[9] ^= 1;
        assert_eq!(parse_index(&bytes), None);
        assert_eq!(key(&"ab".repeat(32)), Some([0xab; 32]));
        assert_eq!(key("ab"), None);
    }
}
