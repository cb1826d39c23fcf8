//! A tool's files staged: a copy in a fresh temporary directory, kept as
//! long as the prepared tool, with a package's constants replaced and the
//! files that are links checked out as text read from their targets (the
//! package reader's table). A file tool brings the files beside it (a
//! header it includes); a program directory is copied whole. Files over
//! 4 MiB are copied as they are.

use super::ToolError;
use crate::text::constants::Constants;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How large a file may be and still have its constants replaced.
const SUBSTITUTED_MAX: u64 = 4 << 20;

/// The copy of `path` (a file or a directory) with `constants` replaced
/// and each file of `links` read from its target (a file, or a directory
/// copied in its place), and the directory that holds it.
pub(super) fn materialize(
    path: &Path,
    constants: Option<&Constants>,
    links: &[(PathBuf, PathBuf)],
) -> Result<(PathBuf, Arc<tempfile::TempDir>), ToolError> {
    let unreadable = |p: &Path, e: std::io::Error| ToolError::Unreadable {
        path: p.to_path_buf(),
        reason: e.to_string(),
    };
    let dir = tempfile::Builder::new()
        .prefix("judge-constants-")
        .tempdir()
        .map_err(|e| unreadable(path, e))?;
    let (tree, inside) = if path.is_dir() {
        (path.to_path_buf(), None)
    } else {
        let parent = path.parent().unwrap_or(Path::new("."));
        (parent.to_path_buf(), path.file_name())
    };
    let name = tree.file_name().unwrap_or(std::ffi::OsStr::new("tool"));
    let top = dir.path().join(name);
    let mut sources: Vec<(PathBuf, PathBuf)> = vec![(tree.clone(), top.clone())];
    // Bounded: a directory linked into itself is not copied forever.
    let mut copied = 0;
    while let Some((from, to)) = sources.pop()
        && copied < 64
    {
        copied += 1;
        copy_tree(&from, &to, constants, links, &mut sources)?;
    }
    let copy = match inside {
        Some(file) => top.join(file),
        None => top,
    };
    Ok((copy, Arc::new(dir)))
}

/// Copy `tree` into `top`; a file of `links` that leads to a directory is
/// queued in `more` (copied in its place), one to a file is read from it.
fn copy_tree(
    tree: &Path,
    top: &Path,
    constants: Option<&Constants>,
    links: &[(PathBuf, PathBuf)],
    more: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<(), ToolError> {
    let unreadable = |p: &Path, e: std::io::Error| ToolError::Unreadable {
        path: p.to_path_buf(),
        reason: e.to_string(),
    };
    for entry in walkdir::WalkDir::new(tree).follow_links(true).max_depth(6) {
        let entry = entry.map_err(|e| unreadable(tree, e.into()))?;
        let rel = entry.path().strip_prefix(tree).unwrap_or(entry.path());
        let target = top.join(rel);
        let linked = links
            .iter()
            .find(|(file, _)| file == entry.path())
            .map(|(_, to)| to.clone());
        let read_from = match linked {
            Some(to) if to.is_dir() => {
                more.push((to, target));
                continue;
            }
            Some(to) => to,
            None => entry.path().to_path_buf(),
        };
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| unreadable(&target, e))?;
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| unreadable(parent, e))?;
        }
        let meta = std::fs::metadata(&read_from).map_err(|e| unreadable(&read_from, e))?;
        if meta.len() > SUBSTITUTED_MAX {
            std::fs::copy(&read_from, &target).map_err(|e| unreadable(&read_from, e))?;
            continue;
        }
        // Read once, written replaced, with the file's mode.
        let bytes = std::fs::read(&read_from).map_err(|e| unreadable(&read_from, e))?;
        let bytes = match constants {
            Some(constants) => constants.substitute(&bytes).into_owned(),
            None => bytes,
        };
        std::fs::write(&target, bytes)
            .and_then(|()| std::fs::set_permissions(&target, meta.permissions()))
            .map_err(|e| unreadable(&target, e))?;
    }
    Ok(())
}
