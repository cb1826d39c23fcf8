//! The files of an exported package, gathered in memory (names, and bytes
//! or the source file to copy), then written in one go: into a temporary
//! directory (or zip file) beside OUT, renamed into place at the end.

use crate::formats::error::ExportError;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What one file of the export holds.
pub enum Content {
    Bytes(Vec<u8>),
    /// A file of the source package, copied with its mode.
    Copy(PathBuf),
}

/// The export's files by their path inside the package.
#[derive(Default)]
pub struct Tree {
    pub files: BTreeMap<PathBuf, Content>,
}

impl Tree {
    pub fn put(&mut self, rel: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(rel.into(), Content::Bytes(bytes.into()));
    }

    pub fn copy(&mut self, rel: impl Into<PathBuf>, from: &Path) {
        self.files
            .insert(rel.into(), Content::Copy(from.to_path_buf()));
    }

    /// Every file under `from` as `rel/…`, but those `skip` names (by their
    /// path relative to `from`).
    pub fn copy_dir(&mut self, rel: &Path, from: &Path, mut skip: impl FnMut(&Path) -> bool) {
        // Each directory once (`walk_once`): the tree's order is the map's.
        for entry in crate::exec::links::walk_once(from) {
            if !entry.file_type().is_file() {
                continue;
            }
            let Ok(inside) = entry.path().strip_prefix(from) else {
                continue;
            };
            if !skip(inside) {
                self.copy(rel.join(inside), entry.path());
            }
        }
    }

    /// Whether a file is at `rel` or below it.
    pub fn has_under(&self, rel: &Path) -> bool {
        self.files.keys().any(|p| p.starts_with(rel))
    }
}

/// Refuse an existing OUT without `force`, naming it.
pub fn refuse_existing(out: &Path, force: bool) -> Result<(), ExportError> {
    if !force && std::fs::symlink_metadata(out).is_ok() {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    Ok(())
}

/// Write `tree` at `out`: a zip file when `zip`, else a directory.
pub fn place(tree: &Tree, out: &Path, force: bool, zip: bool) -> Result<(), ExportError> {
    refuse_existing(out, force)?;
    paths_stay_inside(tree)?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(ExportError::io(&parent, "cannot create"))?;
    if zip {
        let file = tempfile::Builder::new()
            .prefix(".judge-export-")
            .tempfile_in(&parent)
            .map_err(ExportError::io(&parent, "cannot write"))?;
        write_zip(tree, file.as_file()).map_err(|e| ExportError::Archive {
            path: out.to_path_buf(),
            source: Box::new(e),
        })?;
        if force && out.is_dir() {
            std::fs::remove_dir_all(out).map_err(ExportError::io(out, ""))?;
        }
        file.persist(out).map_err(|source| ExportError::Persist {
            path: out.to_path_buf(),
            source,
        })?;
        return Ok(());
    }
    let staged = tempfile::Builder::new()
        .prefix(".judge-export-")
        .tempdir_in(&parent)
        .map_err(ExportError::io(&parent, "cannot write"))?;
    write_dir(tree, staged.path())?;
    let old = parent.join(format!(
        ".judge-export-old-{}",
        staged
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let replaced = std::fs::symlink_metadata(out).is_ok();
    if replaced {
        std::fs::rename(out, &old).map_err(ExportError::io(out, "cannot move aside"))?;
    }
    let staged = staged.keep();
    if let Err(e) = std::fs::rename(&staged, out) {
        if replaced {
            let _ = std::fs::rename(&old, out);
        }
        let _ = std::fs::remove_dir_all(&staged);
        return Err(ExportError::io(out, "cannot write")(e));
    }
    if replaced {
        let gone = if old.is_dir() {
            std::fs::remove_dir_all(&old)
        } else {
            std::fs::remove_file(&old)
        };
        gone.map_err(ExportError::io(&old, "cannot remove the old package"))?;
    }
    Ok(())
}

fn mode_of(content: &Content) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    match content {
        Content::Bytes(_) => 0o644,
        Content::Copy(from) => std::fs::metadata(from)
            .map(|m| {
                if m.permissions().mode() & 0o111 != 0 {
                    0o755
                } else {
                    0o644
                }
            })
            .unwrap_or(0o644),
    }
}

fn bytes_of(content: &Content) -> Result<std::borrow::Cow<'_, [u8]>, ExportError> {
    match content {
        Content::Bytes(b) => Ok(std::borrow::Cow::Borrowed(b)),
        Content::Copy(from) => crate::exec::bounded_read::read_package_file(
            from,
            crate::exec::bounded_read::PACKAGE_FILE_CAP,
        )
        .map(std::borrow::Cow::Owned)
        .map_err(ExportError::io(from, "cannot read")),
    }
}

/// Every file of the tree written beneath `dir` (the new, staged OUT):
/// a path that would leave it (a group named `../../x` upstream) is an
/// error naming it, and nothing is written through a link.
fn write_dir(tree: &Tree, dir: &Path) -> Result<(), ExportError> {
    let out = crate::exec::beneath::Beneath::new(dir)?;
    for (rel, content) in &tree.files {
        out.write(rel, &bytes_of(content)?, mode_of(content), false)?;
    }
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = rustix::fs::syncfs(&d);
    }
    Ok(())
}

/// Refuse a tree with a path that leaves the package (checked before
/// anything is written, for a directory and a zip file alike: a zip entry
/// named `../x` is written outside by whoever unpacks it).
fn paths_stay_inside(tree: &Tree) -> Result<(), ExportError> {
    let refused = |rel: &Path, message: String| ExportError::Name {
        name: rel.to_path_buf(),
        message,
    };
    for rel in tree.files.keys() {
        if rel.as_os_str().as_encoded_bytes().contains(&b'\\') {
            return Err(refused(
                rel,
                "a name with a backslash; not exported (a zip reader or Windows takes it for a directory separator: `..\\x` would climb out)".to_string(),
            ));
        }
        crate::exec::beneath::lexically_beneath(rel)
            .map_err(|why| refused(rel, format!("{why}; not exported")))?;
    }
    Ok(())
}

fn write_zip(tree: &Tree, file: &std::fs::File) -> Result<(), ExportError> {
    let mut zip = zip::ZipWriter::new(file);
    for (rel, content) in &tree.files {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(mode_of(content));
        let name = rel.to_string_lossy().replace('\\', "/");
        zip.start_file(name.as_str(), options)
            .map_err(|source| ExportError::Zip {
                name: Some(name.clone()),
                source,
            })?;
        zip.write_all(&bytes_of(content)?)
            .map_err(ExportError::io(Path::new(&name), ""))?;
    }
    zip.finish()
        .map_err(|source| ExportError::Zip { name: None, source })?;
    Ok(())
}
