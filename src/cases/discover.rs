//! Walking a cases root: each `NAME.in` is a case, its answer `NAME.ans`
//! (or `NAME.out`) found beside it by a look-up, not by holding every file
//! of the tree to pair them: the walk streams, and what it keeps is the
//! compact [`CaseList`] (a walk of a million pairs holds about 20 MiB).
//!
//! Orphans are warnings: an answer with no input is ignored, an input with
//! no answer is still a case. Warnings are sorted by name, so they do not
//! depend on the order the file system lists a directory in, and a walk
//! keeps the first [`WARNINGS_KEPT`] by name and counts the rest: a million
//! inputs without answers (a puzzle needs none) are one line, not a
//! million held and printed.

use super::list::{Answer, CaseList};
use super::{Discovery, DiscoveryError, natural_cmp_bytes};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

const INPUT_EXT: &str = "in";
/// The answer extensions, preferred first.
const ANSWER_EXTS: [(&str, Answer); 2] = [("ans", Answer::Ans), ("out", Answer::Out)];
/// The warnings one walk shows; the rest are counted.
pub const WARNINGS_KEPT: usize = 100;

/// Which package a directory's files belong to, if any (the nearest
/// directory above it that is one). The formats layer knows what makes a
/// package (`formats::package_of`); `cases` only asks.
pub type PackageOf = fn(&Path) -> Option<PathBuf>;

/// Walk `root` (a directory, or one `.in` file) and find its cases.
pub fn discover(root: &Path, package_of: PackageOf) -> Result<Discovery, DiscoveryError> {
    discover_groups(root, &[], package_of)
}

/// Walk the `groups` subdirectories of `root` in that order (a package's
/// `sample` then `secret`), naming each case `GROUP/NAME`; a missing group
/// is skipped, but at least one must exist. No groups: walk `root`.
pub fn discover_groups(
    root: &Path,
    groups: &[String],
    package_of: PackageOf,
) -> Result<Discovery, DiscoveryError> {
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
        package_of,
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
    walk.list.shrink();
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
    package_of: PackageOf,
}

impl Walk {
    /// Walk `dir`, naming its cases `PREFIX` + the path below `dir`; they
    /// are sorted in natural order after the cases already found.
    fn tree(&mut self, dir: &Path, root: u16, prefix: &[u8]) -> Result<(), DiscoveryError> {
        let first = self.list.len();
        let mut warnings = Warnings::default();
        // In a package's data, a `.out` beside an `.ans` is the output
        // shown in the statement (2023-07 and later), not a second answer:
        // nothing to warn about.
        let package = (self.package_of)(dir);
        let in_package = package.is_some();
        let mut walker = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().as_bytes().starts_with(b"."));
        // Each directory is walked once: links that reach one again (a
        // package of levels each linking twice to the next) would make the
        // walk exponential in the depth.
        let mut seen_dirs = std::collections::HashSet::new();
        while let Some(entry) = walker.next() {
            if let Ok(e) = &entry
                && e.file_type().is_dir()
                && let Ok(meta) = e.metadata()
            {
                use std::os::unix::fs::MetadataExt;
                if !seen_dirs.insert((meta.dev(), meta.ino())) {
                    self.errors
                        .push(second_visit(e.path(), dir, (meta.dev(), meta.ino())));
                    walker.skip_current_dir();
                    continue;
                }
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    // A dangling symbolic link to a file the judge never
                    // reads is passed over (a package's `2.in.download ->
                    // 2.in` before `judge gen` made `2.in`, a missing
                    // image); any other (a case's file, a `.yaml` of
                    // settings, a group's directory) is an error.
                    if let Some(link) = dangling(&e)
                        && never_read(&link)
                    {
                        continue;
                    }
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
                    warnings.note(
                        stem_below(dir, path, ext),
                        format!("{}: {what}, not a case file; skipped", path.display()),
                    );
                }
                continue;
            }
            if let Err(e) = readable(path) {
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
                        warnings.note(
                            stem,
                            format!(
                                "{}: {stem_text}.{ext} has no input file ({stem_text}.in); ignored",
                                dir.display()
                            ),
                        );
                    }
                }
                None => {
                    let found = answer_beside(path);
                    if found.len() > 1 && !in_package {
                        warnings.note(
                            stem.clone(),
                            format!(
                                "{}: both {stem_text}.ans and {stem_text}.out exist; using {stem_text}.ans",
                                dir.display()
                            ),
                        );
                    }
                    let answer = found.first().copied().unwrap_or(Answer::None);
                    if answer == Answer::None {
                        warnings.note(
                            stem.clone(),
                            format!(
                                "{}: {stem_text}.in has no answer file (.ans or .out)",
                                dir.display()
                            ),
                        );
                    }
                    // A case file that is a link checked out as text is
                    // read at its target, as a link would be.
                    if let Some(package) = &package {
                        let answer_path = answer.extension().map(|e| path.with_extension(e));
                        for file in std::iter::once(path.to_path_buf()).chain(answer_path) {
                            match super::text_link::resolve(&file, package) {
                                Ok(Some(target)) if target.is_file() => {
                                    let listed = self.listed_path(root, prefix, dir, &file);
                                    self.list.link(listed, target);
                                }
                                Ok(_) => {}
                                Err(e) => self.errors.push(e.to_string()),
                            }
                        }
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
        self.warnings.extend(warnings.finish(dir));
        Ok(())
    }
}

impl Walk {
    /// The path a case file of `dir` has as the list makes it: the root's
    /// path joined with the case's name (`PREFIX` + the path below `dir`).
    fn listed_path(&self, root: u16, prefix: &[u8], dir: &Path, file: &Path) -> PathBuf {
        let below = file.strip_prefix(dir).unwrap_or(file);
        let mut name = prefix.to_vec();
        name.extend_from_slice(below.as_os_str().as_bytes());
        self.list
            .root_path(root)
            .join(std::ffi::OsStr::from_bytes(&name))
    }
}

/// A warning and the name it is sorted by.
#[derive(PartialEq, Eq)]
struct Noted(Vec<u8>, String);

impl Ord for Noted {
    fn cmp(&self, other: &Noted) -> std::cmp::Ordering {
        natural_cmp_bytes(&self.0, &other.0).then_with(|| self.1.cmp(&other.1))
    }
}

impl PartialOrd for Noted {
    fn partial_cmp(&self, other: &Noted) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A walk's warnings: the first [`WARNINGS_KEPT`] by name, and how many
/// more there were.
#[derive(Default)]
struct Warnings {
    /// The kept ones; the greatest on top, to be dropped for a lesser one.
    kept: std::collections::BinaryHeap<Noted>,
    more: usize,
}

impl Warnings {
    fn note(&mut self, name: Vec<u8>, message: String) {
        self.kept.push(Noted(name, message));
        if self.kept.len() > WARNINGS_KEPT {
            self.kept.pop();
            self.more += 1;
        }
    }

    fn finish(self, dir: &Path) -> Vec<String> {
        let mut all: Vec<String> = self
            .kept
            .into_sorted_vec()
            .into_iter()
            .map(|n| n.1)
            .collect();
        if self.more > 0 {
            all.push(format!(
                "{}: {} more warnings like these (the first {WARNINGS_KEPT} by name are shown)",
                dir.display(),
                self.more
            ));
        }
        all
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

/// Whether the judge may read `path` (its effective identity asked, as an
/// open would be: one `faccessat` where an open and a close were two
/// system calls a file).
fn readable(path: &Path) -> std::io::Result<()> {
    use rustix::fs::{Access, AtFlags, CWD, accessat};
    accessat(CWD, path, Access::READ_OK, AtFlags::EACCESS).map_err(std::io::Error::from)
}

fn discover_file(path: &Path) -> Result<Discovery, DiscoveryError> {
    if let Err(e) = readable(path) {
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

/// The path of a symbolic link whose target does not exist, if that is
/// what the walk failed on.
fn dangling(e: &walkdir::Error) -> Option<std::path::PathBuf> {
    let path = e.path()?;
    let missing = e
        .io_error()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound);
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    (missing && link).then(|| path.to_path_buf())
}

/// A file of a case the judge never reads: what the statement shows or
/// offers for download, illustrations, descriptions.
fn never_read(path: &Path) -> bool {
    const SHOWN: [&str; 10] = [
        "download",
        "statement",
        "interaction",
        "png",
        "jpg",
        "jpeg",
        "svg",
        "pdf",
        "hint",
        "desc",
    ];
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|ext| SHOWN.contains(&ext))
}

/// The error for a directory the walk reached before: a loop when it is
/// one of the directories `path` lies in (naming the link to remove), else
/// a directory reached twice through links.
fn second_visit(path: &Path, root: &Path, id: (u64, u64)) -> String {
    use std::os::unix::fs::MetadataExt;
    let same = |p: &Path| std::fs::metadata(p).is_ok_and(|m| (m.dev(), m.ino()) == id);
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let below_root = |p: &Path| p.starts_with(root);
    let ancestor = path.ancestors().skip(1).find(|p| same(p));
    let link = path
        .ancestors()
        .take_while(|p| below_root(p))
        .find(|p| is_link(p));
    match (ancestor, link) {
        (Some(ancestor), Some(link)) => format!(
            "{}: symbolic link loop (it leads back to {}); remove the link",
            link.display(),
            ancestor.display()
        ),
        _ => format!(
            "{}: a directory reached a second time through a symbolic link; walked once",
            path.display()
        ),
    }
}

fn walk_error(e: &walkdir::Error) -> String {
    let path = e
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    if let Some(link) = dangling(e) {
        let target = std::fs::read_link(&link)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return format!("{path}: a symbolic link to {target}, which does not exist");
    }
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

#[cfg(test)]
mod tests;
