//! The one way the judge touches the files of a directory that is not its
//! own to trust: a package (read, and written by `judge gen`), an export's
//! OUT. Every path is relative to the directory's root and resolved
//! *beneath* it by the kernel: `openat2` with `RESOLVE_BENEATH |
//! RESOLVE_NO_MAGICLINKS` from a descriptor of the root, so `..`, an
//! absolute path, or a symbolic link that leads out (at any depth, dangling
//! or not) fails there, with nothing read or written. Where the kernel has
//! no `openat2` (Linux before 5.6, or a seccomp filter that refuses it),
//! each component is opened in turn with `O_NOFOLLOW`: a link anywhere on
//! the way is refused (stricter than the kernel's rule, never looser).
//!
//! Writing is always atomic and never through a link: the bytes go to a
//! new temporary file made beside the target (`O_CREAT | O_EXCL |
//! O_NOFOLLOW`), which is renamed over it; what is at the target now is
//! replaced only when it is a regular file (a link, a directory or a FIFO
//! there is an error naming it). Whether the caller may replace a file it
//! did not write (`--force`, a manifest of what it wrote) is the caller's
//! rule, checked before.
//!
//! Reading is bounded ([`super::bounded_read`]): only a regular file,
//! opened without blocking, at most the cap.

use super::bounded_read::{BoundedReadError, Capped, read_capped};
use rustix::fs::{Mode, OFlags, ResolveFlags};
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

/// Why a path was not read or written.
#[derive(Debug, thiserror::Error)]
pub enum BeneathError {
    /// The path, as written, leaves the root (absolute, `..`, empty, NUL).
    #[error("{path}: {why}")]
    Lexical { path: String, why: &'static str },
    /// The file system leads it out of the root (a symbolic link on the way
    /// that points outside, or any link where the kernel has no `openat2`).
    #[error("{path}: leads outside {root} (through a symbolic link): refused")]
    Outside { path: String, root: String },
    /// What is at the target is not a regular file the judge may replace.
    #[error("{path}: is {what}: the judge writes only regular files, never through a link")]
    NotRegular { path: String, what: &'static str },
    /// A read refused or failed ([`BoundedReadError`]).
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: BoundedReadError,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// Refuse a relative path that, as written, leaves where it is: absolute,
/// empty, with a `..` anywhere, or with a NUL byte. `.` components are
/// allowed (they stay). The reason is in words for the caller's message.
pub fn lexically_beneath(rel: &Path) -> Result<(), &'static str> {
    let bytes = rel.as_os_str().as_encoded_bytes();
    if bytes.is_empty() {
        return Err("an empty path");
    }
    if bytes.contains(&0) {
        return Err("a path with a NUL byte");
    }
    for part in rel.components() {
        match part {
            Component::RootDir | Component::Prefix(_) => {
                return Err("an absolute path: expected a path inside the package");
            }
            Component::ParentDir => {
                return Err("a path with `..`: expected a path inside the package");
            }
            Component::CurDir | Component::Normal(_) => {}
        }
    }
    Ok(())
}

/// A directory whose files are reached only beneath it.
#[derive(Debug)]
pub struct Beneath {
    /// The root as the caller named it (how messages show paths).
    shown: PathBuf,
    /// Its canonical form (to take a caller's absolute paths apart).
    real: PathBuf,
    fd: OwnedFd,
}

impl Beneath {
    /// `root`, which must be a directory (a link to one is followed: the
    /// user named it).
    pub fn new(root: &Path) -> Result<Beneath, BeneathError> {
        let io = |source| BeneathError::Io {
            path: root.display().to_string(),
            source,
        };
        let real = std::fs::canonicalize(root).map_err(io)?;
        let fd = rustix::fs::open(
            &real,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| io(e.into()))?;
        Ok(Beneath {
            shown: root.to_path_buf(),
            real,
            fd,
        })
    }

    /// The root as the caller named it.
    pub fn root(&self) -> &Path {
        &self.shown
    }

    fn shown(&self, rel: &Path) -> String {
        crate::text::whitespace::shown_path(&self.shown.join(rel))
    }

    /// `path` relative to the root: a relative path as it is, or a path
    /// under the root as named or canonical with that prefix taken off.
    /// Lexically checked either way.
    pub fn relative(&self, path: &Path) -> Result<PathBuf, BeneathError> {
        let rel = if path.is_absolute() || path.starts_with(&self.shown) {
            path.strip_prefix(&self.shown)
                .or_else(|_| path.strip_prefix(&self.real))
                .map_err(|_| BeneathError::Outside {
                    path: crate::text::whitespace::shown_path(path),
                    root: crate::text::whitespace::shown_path(&self.shown),
                })?
                .to_path_buf()
        } else {
            path.to_path_buf()
        };
        let rel = if rel.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            rel
        };
        lexically_beneath(&rel).map_err(|why| BeneathError::Lexical {
            path: crate::text::whitespace::shown_path(path),
            why,
        })?;
        Ok(rel)
    }

    /// Open `rel` beneath the root with `flags`.
    fn open(&self, rel: &Path, flags: OFlags, mode: Mode) -> Result<OwnedFd, BeneathError> {
        let flags = flags | OFlags::CLOEXEC;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        let mut tries = 0;
        let opened = loop {
            match rustix::fs::openat2(&self.fd, rel, flags, mode, resolve) {
                // A rename elsewhere on the file system while resolving.
                Err(rustix::io::Errno::AGAIN) if tries < 8 => tries += 1,
                Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => {
                    break self.open_walking(rel, flags, mode);
                }
                other => break other,
            }
        };
        opened.map_err(|e| match e {
            rustix::io::Errno::XDEV | rustix::io::Errno::LOOP => BeneathError::Outside {
                path: self.shown(rel),
                root: crate::text::whitespace::shown_path(&self.shown),
            },
            e => BeneathError::Io {
                path: self.shown(rel),
                source: e.into(),
            },
        })
    }

    /// Without `openat2`: each directory on the way opened with
    /// `O_NOFOLLOW | O_DIRECTORY`, the last with `O_NOFOLLOW`. `ELOOP`
    /// (a link) is reported as leading outside.
    fn open_walking(&self, rel: &Path, flags: OFlags, mode: Mode) -> rustix::io::Result<OwnedFd> {
        let parts: Vec<_> = rel
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        let Some((last, dirs)) = parts.split_last() else {
            return rustix::fs::openat(&self.fd, ".", flags, mode);
        };
        let mut at: Option<OwnedFd> = None;
        for dir in dirs {
            let base = at.as_ref().map_or(self.fd.as_fd(), |fd| fd.as_fd());
            let next = rustix::fs::openat(
                base,
                dir.as_os_str(),
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| {
                // A link opened with O_NOFOLLOW | O_DIRECTORY is ENOTDIR.
                let link = rustix::fs::statat(
                    base,
                    dir.as_os_str(),
                    rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
                )
                .is_ok_and(|st| {
                    rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::Symlink
                });
                if link { rustix::io::Errno::LOOP } else { e }
            })?;
            at = Some(next);
        }
        let base = at.as_ref().map_or(self.fd.as_fd(), |fd| fd.as_fd());
        rustix::fs::openat(base, last.as_os_str(), flags | OFlags::NOFOLLOW, mode)
    }

    /// Make the directory `rel` and those on the way, each beneath the
    /// root (a link on the way that leads out is refused before anything
    /// is made through it).
    pub fn make_dirs(&self, rel: &Path) -> Result<(), BeneathError> {
        let rel = self.relative(rel)?;
        let mut at = PathBuf::new();
        for part in rel.components() {
            let Component::Normal(name) = part else {
                continue;
            };
            let parent = self.open(
                if at.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    &at
                },
                OFlags::RDONLY | OFlags::DIRECTORY,
                Mode::empty(),
            )?;
            at.push(name);
            match rustix::fs::mkdirat(&parent, name, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => {
                    return Err(BeneathError::Io {
                        path: self.shown(&at),
                        source: e.into(),
                    });
                }
            }
        }
        // The whole way opens as a directory beneath the root.
        self.open(&rel, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty())
            .map(drop)
    }

    /// Write `bytes` at `rel` atomically, never through a link; the file
    /// gets `mode`. With `sync`, the data is flushed before the rename
    /// (a caller writing thousands of files syncs once at the end).
    pub fn write(
        &self,
        rel: &Path,
        bytes: &[u8],
        mode: u32,
        sync: bool,
    ) -> Result<(), BeneathError> {
        let rel = self.relative(rel)?;
        let (dir_rel, name) = match (rel.parent(), rel.file_name()) {
            (Some(p), Some(n)) => (p.to_path_buf(), n.to_os_string()),
            _ => {
                return Err(BeneathError::Lexical {
                    path: self.shown(&rel),
                    why: "not a file name",
                });
            }
        };
        let dir_rel = if dir_rel.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir_rel
        };
        if dir_rel != Path::new(".") {
            self.make_dirs(&dir_rel)?;
        }
        let dir = self.open(&dir_rel, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty())?;
        let io = |source: std::io::Error| BeneathError::Io {
            path: self.shown(&rel),
            source,
        };
        match rustix::fs::statat(&dir, &name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => {
                let kind = rustix::fs::FileType::from_raw_mode(st.st_mode);
                if kind != rustix::fs::FileType::RegularFile {
                    return Err(BeneathError::NotRegular {
                        path: self.shown(&rel),
                        what: file_type_words(kind),
                    });
                }
            }
            Err(rustix::io::Errno::NOENT) => {}
            Err(e) => return Err(io(e.into())),
        }
        let temp = temp_name(&name);
        let fd = rustix::fs::openat(
            &dir,
            &temp,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )
        .map_err(|e| io(e.into()))?;
        let written = (|| -> std::io::Result<()> {
            let mut file = File::from(fd);
            file.write_all(bytes)?;
            rustix::fs::fchmod(&file, Mode::from_raw_mode(mode))?;
            if sync {
                file.sync_all()?;
            }
            rustix::fs::renameat(&dir, &temp, &dir, &name)?;
            Ok(())
        })();
        if let Err(e) = written {
            let _ = rustix::fs::unlinkat(&dir, &temp, rustix::fs::AtFlags::empty());
            return Err(io(e));
        }
        Ok(())
    }

    /// `Ok` when `rel` exists beneath the root (whatever it is).
    pub fn exists(&self, rel: &Path) -> Result<(), BeneathError> {
        let rel = self.relative(rel)?;
        self.open(&rel, OFlags::PATH, Mode::empty()).map(drop)
    }

    /// At most `cap` bytes of the regular file `rel` (never blocking).
    pub fn read(&self, rel: &Path, cap: u64) -> Result<Capped, BeneathError> {
        let file = self.open_regular(rel)?;
        let rel = self.relative(rel)?;
        read_capped(file, cap).map_err(|source| BeneathError::Read {
            path: self.shown(&rel),
            source,
        })
    }

    /// The regular file `rel`, open for reading (never blocking).
    pub fn open_regular(&self, rel: &Path) -> Result<File, BeneathError> {
        let rel = self.relative(rel)?;
        let fd = self
            .open(&rel, OFlags::RDONLY | OFlags::NONBLOCK, Mode::empty())
            .map_err(|e| match e {
                BeneathError::Io { path, source }
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    BeneathError::Read {
                        path,
                        source: BoundedReadError::Missing,
                    }
                }
                other => other,
            })?;
        let st = rustix::fs::fstat(&fd).map_err(|e| BeneathError::Io {
            path: self.shown(&rel),
            source: e.into(),
        })?;
        let kind = rustix::fs::FileType::from_raw_mode(st.st_mode);
        if kind != rustix::fs::FileType::RegularFile {
            return Err(BeneathError::Read {
                path: self.shown(&rel),
                source: BoundedReadError::NotRegular(file_type_words(kind)),
            });
        }
        Ok(File::from(fd))
    }
}

fn file_type_words(kind: rustix::fs::FileType) -> &'static str {
    use rustix::fs::FileType as T;
    match kind {
        T::RegularFile => "a regular file",
        T::Directory => "a directory",
        T::Symlink => "a symbolic link",
        T::Fifo => "a FIFO",
        T::Socket => "a socket",
        T::CharacterDevice => "a character device",
        T::BlockDevice => "a block device",
        T::Unknown => "not a regular file",
    }
}

/// A name for a temporary file beside `name` that no one else picks:
/// `.NAME.PID.N.tmp`, with `O_EXCL` making a clash an error, not a share.
fn temp_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".{}.{n}.{nanos:x}.tmp", std::process::id()));
    temp
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn package() -> (tempfile::TempDir, tempfile::TempDir, Beneath) {
        let root = tempfile::tempdir().expect("a directory");
        let outside = tempfile::tempdir().expect("a directory");
        let b = Beneath::new(root.path()).expect("a root");
        (root, outside, b)
    }

    #[test]
    fn writes_and_reads_inside() {
        let (root, _o, b) = package();
        b.write(Path::new("tests/01.a"), b"3\n", 0o644, true)
            .expect("written");
        assert_eq!(
            std::fs::read(root.path().join("tests/01.a")).unwrap(),
            b"3\n"
        );
        let read = b.read(Path::new("tests/01.a"), 10).expect("read");
        assert_eq!(read.bytes, b"3\n");
        // Replacing a regular file the same way.
        b.write(&root.path().join("tests/01.a"), b"4\n", 0o644, false)
            .expect("replaced");
        assert_eq!(
            std::fs::read(root.path().join("tests/01.a")).unwrap(),
            b"4\n"
        );
    }

    #[test]
    fn lexical_escapes_are_refused() {
        let (_r, _o, b) = package();
        for bad in ["../x", "/etc/passwd", "a/../../x", ""] {
            let e = b.write(Path::new(bad), b"x", 0o644, false).unwrap_err();
            assert!(
                matches!(
                    e,
                    BeneathError::Lexical { .. } | BeneathError::Outside { .. }
                ),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn a_dangling_link_is_never_written_through() {
        let (root, outside, b) = package();
        std::fs::create_dir(root.path().join("tests")).unwrap();
        let target = outside.path().join("planted");
        symlink(&target, root.path().join("tests/01.a")).unwrap();
        let e = b
            .write(Path::new("tests/01.a"), b"x", 0o644, false)
            .unwrap_err();
        assert!(e.to_string().contains("a symbolic link"), "{e}");
        assert!(!target.exists());
        // Control: the file beside it is written.
        b.write(Path::new("tests/02.a"), b"x", 0o644, false)
            .expect("written");
    }

    #[test]
    fn a_directory_link_out_is_refused_for_reads_and_writes() {
        let (root, outside, b) = package();
        std::fs::write(outside.path().join("secret"), b"s").unwrap();
        symlink(outside.path(), root.path().join("tests")).unwrap();
        let e = b.read(Path::new("tests/secret"), 10).unwrap_err();
        assert!(matches!(e, BeneathError::Outside { .. }), "{e}");
        let e = b
            .write(Path::new("tests/new"), b"x", 0o644, false)
            .unwrap_err();
        assert!(matches!(e, BeneathError::Outside { .. }), "{e}");
        assert!(!outside.path().join("new").exists());
        // A link that stays inside is followed.
        std::fs::create_dir(root.path().join("real")).unwrap();
        std::fs::write(root.path().join("real/f"), b"ok").unwrap();
        symlink("real", root.path().join("inner")).unwrap();
        assert_eq!(b.read(Path::new("inner/f"), 10).unwrap().bytes, b"ok");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let (root, _o, b) = package();
        let fifo = root.path().join("f");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o644)).unwrap();
        let e = b.read(Path::new("f"), 10).unwrap_err();
        assert!(e.to_string().contains("a FIFO"), "{e}");
        let e = b.write(Path::new("f"), b"x", 0o644, false).unwrap_err();
        assert!(e.to_string().contains("a FIFO"), "{e}");
    }

    #[test]
    fn the_walk_without_openat2_refuses_every_link() {
        let (root, _o, b) = package();
        std::fs::create_dir(root.path().join("real")).unwrap();
        std::fs::write(root.path().join("real/f"), b"ok").unwrap();
        symlink("real", root.path().join("inner")).unwrap();
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        assert!(
            b.open_walking(Path::new("real/f"), flags, Mode::empty())
                .is_ok()
        );
        assert_eq!(
            b.open_walking(Path::new("inner/f"), flags, Mode::empty())
                .err(),
            Some(rustix::io::Errno::LOOP)
        );
    }
}
