//! Walking a cases root: each `NAME.in` is a case, its answer `NAME.ans`
//! (or `NAME.out`) found beside it by a look-up, not by holding every file
//! of the tree to pair them: the walk streams, and what it keeps is the
//! compact [`CaseList`] (a walk of a million pairs holds about 20 MiB).
//!
//! Orphans are warnings: an answer with no input is ignored, an input with
//! no answer is still a case. Warnings are sorted by name, so they do not
//! depend on the order the file system lists a directory in.

use super::list::{Answer, CaseList};
use super::{Discovery, DiscoveryError, natural_cmp_bytes};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

const INPUT_EXT: &str = "in";
/// The answer extensions, preferred first.
const ANSWER_EXTS: [(&str, Answer); 2] = [("ans", Answer::Ans), ("out", Answer::Out)];

/// Walk `root` (a directory, or one `.in` file) and find its cases.
pub fn discover(root: &Path) -> Result<Discovery, DiscoveryError> {
    discover_groups(root, &[])
}

/// Walk the `groups` subdirectories of `root` in that order (a package's
/// `sample` then `secret`), naming each case `GROUP/NAME`; a missing group
/// is skipped, but at least one must exist. No groups: walk `root`.
pub fn discover_groups(root: &Path, groups: &[String]) -> Result<Discovery, DiscoveryError> {
    let meta = std::fs::metadata(root).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => DiscoveryError::RootMissing(root.to_path_buf()),
        _ => DiscoveryError::Unreadable(vec![format!("{}: {}", root.display(), describe_io(&e))]),
    })?;
    if meta.is_file() {
        return discover_file(root);
    }
    let mut walk = Walk {
        list: CaseList::default(),
        warnings: Vec::new(),
        errors: Vec::new(),
        name: Vec::new(),
    };
    let root_index = walk.list.root(root)?;
    if groups.is_empty() {
        walk.tree(root, root_index, b"")?;
    } else {
        let mut found = false;
        for group in groups {
            let dir = root.join(group);
            if dir.is_dir() {
                found = true;
                walk.tree(&dir, root_index, format!("{group}/").as_bytes())?;
            }
        }
        if !found {
            return Err(DiscoveryError::NoGroup {
                root: root.to_path_buf(),
                groups: groups.to_vec(),
            });
        }
    }
    if !walk.errors.is_empty() {
        return Err(DiscoveryError::Unreadable(walk.errors));
    }
    Ok(Discovery {
        cases: walk.list,
        warnings: walk.warnings,
    })
}

/// One walk's state.
struct Walk {
    list: CaseList,
    warnings: Vec<String>,
    errors: Vec<String>,
    /// The name being made (reused).
    name: Vec<u8>,
}

impl Walk {
    /// Walk `dir`, naming its cases `PREFIX` + the path below `dir`; they
    /// are sorted in natural order after the cases already found.
    fn tree(&mut self, dir: &Path, root: u16, prefix: &[u8]) -> Result<(), DiscoveryError> {
        let first = self.list.len();
        // (stem, message): sorted at the end.
        let mut warnings: Vec<(Vec<u8>, String)> = Vec::new();
        let walker = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().as_bytes().starts_with(b"."));
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.errors.push(walk_error(&e));
                    continue;
                }
            };
            let path = entry.path();
            let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
                continue;
            };
            let answer = ANSWER_EXTS.iter().find(|(e, _)| *e == ext);
            if ext != INPUT_EXT && answer.is_none() {
                continue;
            }
            let kind = entry.file_type();
            if !kind.is_file() {
                if let Some(what) = not_a_file(kind) {
                    warnings.push((
                        path.as_os_str().as_bytes().to_vec(),
                        format!("{}: {what}, not a case file; skipped", path.display()),
                    ));
                }
                continue;
            }
            if let Err(e) = std::fs::File::open(path) {
                self.errors
                    .push(format!("{}: {}", path.display(), describe_io(&e)));
                continue;
            }
            let stem = stem_below(dir, path, ext);
            let stem_text = String::from_utf8_lossy(&stem).into_owned();
            match answer {
                // An answer: a warning when it has no input.
                Some(_) => {
                    if !is_file(&path.with_extension(INPUT_EXT)) {
                        warnings.push((
                            stem,
                            format!(
                                "{}: {stem_text}.{ext} has no input file ({stem_text}.in); ignored",
                                dir.display()
                            ),
                        ));
                    }
                }
                None => {
                    let found = answer_beside(path);
                    if found.len() > 1 {
                        warnings.push((
                            stem.clone(),
                            format!(
                                "{}: both {stem_text}.ans and {stem_text}.out exist; using {stem_text}.ans",
                                dir.display()
                            ),
                        ));
                    }
                    let answer = found.first().copied().unwrap_or(Answer::None);
                    if answer == Answer::None {
                        warnings.push((
                            stem.clone(),
                            format!(
                                "{}: {stem_text}.in has no answer file (.ans or .out)",
                                dir.display()
                            ),
                        ));
                    }
                    self.name.clear();
                    self.name.extend_from_slice(prefix);
                    self.name.extend_from_slice(&stem);
                    self.name.extend_from_slice(b".in");
                    self.list.push(root, &self.name, answer)?;
                }
            }
        }
        self.list.sort_from(first);
        warnings.sort_by(|a, b| natural_cmp_bytes(&a.0, &b.0).then_with(|| a.1.cmp(&b.1)));
        self.warnings.extend(warnings.into_iter().map(|(_, w)| w));
        Ok(())
    }
}

/// The answer files beside an input, preferred first.
fn answer_beside(input: &Path) -> Vec<Answer> {
    ANSWER_EXTS
        .iter()
        .filter(|(ext, _)| is_file(&input.with_extension(ext)))
        .map(|(_, answer)| *answer)
        .collect()
}

/// A regular file (after links), as the walk counts one.
fn is_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// What a non-file is called, `None` for a directory. (A FIFO would block
/// the reader forever, a device is not data.)
fn not_a_file(kind: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        None
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_socket() {
        Some("a socket")
    } else if kind.is_block_device() || kind.is_char_device() {
        Some("a device")
    } else {
        Some("not a regular file")
    }
}

/// `path` below `dir` without its extension, with `/` separators.
fn stem_below(dir: &Path, path: &Path, ext: &str) -> Vec<u8> {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    let mut name = Vec::with_capacity(rel.as_os_str().len());
    for (i, part) in rel.components().enumerate() {
        if i > 0 {
            name.push(b'/');
        }
        name.extend_from_slice(part.as_os_str().as_bytes());
    }
    name.truncate(name.len().saturating_sub(ext.len() + 1));
    name
}

fn discover_file(path: &Path) -> Result<Discovery, DiscoveryError> {
    if let Err(e) = std::fs::File::open(path) {
        return Err(DiscoveryError::Unreadable(vec![format!(
            "{}: {}",
            path.display(),
            describe_io(&e)
        )]));
    }
    let name = path
        .file_name()
        .map(|n| n.as_bytes().to_vec())
        .unwrap_or_else(|| path.as_os_str().as_bytes().to_vec());
    let is_input = path.extension().is_some_and(|e| e == INPUT_EXT);
    let answer = if is_input {
        answer_beside(path).first().copied().unwrap_or(Answer::None)
    } else {
        Answer::None
    };
    let mut warnings = Vec::new();
    if answer == Answer::None {
        warnings.push(format!(
            "{}: no answer file (.ans or .out) beside it",
            path.display()
        ));
    }
    let mut cases = CaseList::default();
    let parent = match path.file_name() {
        Some(_) => path.parent().unwrap_or(Path::new("")),
        None => Path::new(""),
    };
    let root = cases.root(parent)?;
    cases.push(root, &name, answer)?;
    Ok(Discovery { cases, warnings })
}

fn walk_error(e: &walkdir::Error) -> String {
    let path = e
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    if let Some(ancestor) = e.loop_ancestor() {
        return format!(
            "{path}: symbolic link loop (it leads back to {}); remove the link",
            ancestor.display()
        );
    }
    match e.io_error() {
        Some(io) => format!("{path}: {}", describe_io(io)),
        None => format!("{path}: {e}"),
    }
}

fn describe_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied (cannot read it)".to_string(),
        std::io::ErrorKind::NotFound => "not found".to_string(),
        _ => e.to_string(),
    }
}
