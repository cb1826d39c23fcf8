//! The one way the judge writes a whole file it owns (a report, a case, a
//! manifest, a cache object or index, a map of built tests): into a
//! temporary file beside the target (`.NAME.XXXXXX.tmp`), synced, then
//! renamed over it, so a reader sees the old file or the new one, never
//! part of one; a writer that fails or is interrupted leaves the target
//! untouched (the temporary is removed, or, after a SIGKILL, recognised
//! by [`is_temporary`] and swept). A package's files the judge does not
//! trust are written through `exec::beneath` instead.

use crate::text::stream::Text;
use std::io::Write;
use std::path::Path;

/// Who may read the published file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The mode a plainly created file gets (0666 less the umask):
    /// reports are published as CI artifacts, cases committed and shared.
    Plain,
    /// The temporary file's own 0600, and a missing directory made 0700
    /// (the run cache, the judge's own maps).
    Private,
}

/// Write `bytes` to `path` atomically, replacing what is there.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write(path, Text::Bytes(bytes), Mode::Plain, true)
}

/// [`write_atomically`], but never replacing anything: if `path` exists
/// (even made by someone else while this was writing; a dangling link
/// too), the error is `AlreadyExists` and nothing is written.
pub fn write_new_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write(path, Text::Bytes(bytes), Mode::Plain, false)
}

/// Write `text` (bytes, or a file streamed) to `path` atomically, with
/// its `mode`; replacing what is there only if `replace`.
pub fn write(path: &Path, text: Text<'_>, mode: Mode, replace: bool) -> std::io::Result<()> {
    let mut file = match temp_beside(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && mode == Mode::Private => {
            use std::os::unix::fs::DirBuilderExt;
            if let Some(dir) = path.parent() {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)?;
            }
            temp_beside(path)?
        }
        other => other?,
    };
    {
        let mut out = std::io::BufWriter::new(file.as_file_mut());
        text.write_to(&mut out)?;
        out.flush()?;
    }
    publish(file, path, mode, replace)
}

/// A temporary file in `path`'s directory, named after it
/// (`.out.json.XXXXXX.tmp`), removed if it is never published.
pub fn temp_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ))
        .suffix(".tmp")
        .tempfile_in(dir)
}

/// Whether a file name is one of [`temp_beside`]'s (left by a writer
/// that was killed before it could remove it).
pub fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Give a written temporary file its `mode`, sync it, and rename it to
/// `path` (over what is there only if `replace`).
pub fn publish(
    file: tempfile::NamedTempFile,
    path: &Path,
    mode: Mode,
    replace: bool,
) -> std::io::Result<()> {
    if mode == Mode::Plain {
        use std::os::unix::fs::PermissionsExt;
        let bits = 0o666 & !current_umask();
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(bits))?;
    }
    file.as_file().sync_all()?;
    if replace {
        file.persist(path).map_err(|e| e.error)?;
    } else {
        file.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// The process's umask, read from /proc (setting it to read it would race
/// with other threads creating files); 022 if /proc does not say.
fn current_umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_never_replaces_anything() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.in");
        write_new_atomically(&path, b"first\n").unwrap();
        let again = write_new_atomically(&path, b"second\n").unwrap_err();
        assert_eq!(again.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first\n");
        // A dangling symbolic link is an existing name too.
        let link = dir.path().join("2.in");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
        let e = write_new_atomically(&link, b"x\n").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        // Replacing is what write_atomically is for; no temporary is left.
        write_atomically(&path, b"second\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second\n");
        assert_eq!(names(dir.path()), ["1.in", "2.in"]);
    }

    #[test]
    fn private_files_keep_0600_in_a_directory_made_0700() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ab/abcdef");
        write(&path, Text::Bytes(b"object"), Mode::Private, true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"object");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&dir.path().join("ab")), 0o700);
        // A plain file's mode is a created file's, and a missing directory
        // is an error there (a report's directory is the user's to make).
        let plain = dir.path().join("r.json");
        write_atomically(&plain, b"{}").unwrap();
        assert_eq!(mode(&plain), 0o666 & !current_umask());
        assert!(write_atomically(&dir.path().join("no/r.json"), b"{}").is_err());
    }

    #[test]
    fn the_temporary_is_recognised_by_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let temp = temp_beside(&dir.path().join("index")).unwrap();
        let name = temp
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(is_temporary(&name), "{name}");
        assert!(!is_temporary("index") && !is_temporary(".hidden"));
    }
}
