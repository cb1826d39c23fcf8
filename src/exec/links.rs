//! The one rule for symbolic links in a tree the judge reads for someone
//! else (a package, a folder of cases): every link leads inside the tree,
//! or to what every user of the machine may read.
//!
//! The judge reads a package's files as its own user (root in CI): a link
//! from `data/secret/1.ans` or a `testdata.yaml` to `/etc/shadow` or
//! `~/.ssh/id_rsa` would be read and quoted in a verdict, a warning or a
//! log, copied into an export, or handed to a submission as a case's
//! files. A store of test data outside the package (`data -> ../store`) is
//! followed when every user may read it (each directory on the way
//! searchable by others, each file and directory in it readable by
//! others), and a link inside such a store must stay inside the store: a
//! package can never make the judge read for it what its author could
//! not.
//!
//! The walk covers the whole tree, at any depth (the case walk has no
//! depth bound either), bounded by count: a tree past [`MAX_ENTRIES`] is
//! refused, never half checked. A link or a directory that cannot be
//! resolved or read (a path past `PATH_MAX`, a loop, a directory the judge
//! cannot list) is refused too: what the check cannot see, the judge does
//! not read. A link whose target does not exist is passed over: every
//! write the judge makes refuses a link ([`super::beneath`]), and a read of
//! one fails as a missing file (BAPCtools packages link headers outside
//! themselves, dangling on every machine but the setter's).

use std::path::{Path, PathBuf};

/// The most entries the check walks in a tree (and in a store a link leads
/// to): a package is never this large.
pub const MAX_ENTRIES: usize = 1_000_000;

/// A symbolic link (or a tree) the rule refuses: each names the tree
/// (`root`), the link as it is inside it, where it leads, what is closed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(
        "{}: more than {MAX_ENTRIES} files and directories: refused (its links could not all be checked)",
        .root.display()
    )]
    TooMany { root: PathBuf },
    #[error(
        "{}: {}: cannot be checked ({source}): refused (the judge reads only what its link check has seen)",
        .root.display(),
        .source.path().map(|p| shown(.root, p)).unwrap_or_default()
    )]
    Unchecked {
        root: PathBuf,
        source: walkdir::Error,
    },
    #[error(
        "{}: {} is a symbolic link that cannot be resolved ({source}): refused (a link the judge cannot follow to its end may lead outside the package)",
        .root.display(),
        shown(.root, .link)
    )]
    Unresolvable {
        root: PathBuf,
        link: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{}: {} is a symbolic link that leads outside the package, to {}, and {} is not readable by every user: refused (the judge reads a package's files as its own user; copy the files into the package, or make them readable by all: chmod -R o+rX)",
        .root.display(),
        shown(.root, .link),
        crate::text::whitespace::shown_path(.target),
        crate::text::whitespace::shown_path(.closed)
    )]
    Outside {
        root: PathBuf,
        link: PathBuf,
        target: PathBuf,
        /// The first place on the way, or in it, that not every user may
        /// read.
        closed: PathBuf,
    },
}

/// `p` as messages show it: relative to `root` when under it.
fn shown(root: &Path, p: &Path) -> String {
    crate::text::whitespace::shown_path(p.strip_prefix(root).unwrap_or(p))
}

/// `Ok` when every symbolic link under `root` follows the rule; the error
/// names the link, where it leads, and what is closed.
pub fn links_stay_inside(root: &Path) -> Result<(), LinkError> {
    let Ok(real_root) = std::fs::canonicalize(root) else {
        return Ok(());
    };
    let walk = walkdir::WalkDir::new(root).follow_links(false).into_iter();
    for (seen, entry) in walk.enumerate() {
        if seen >= MAX_ENTRIES {
            return Err(LinkError::TooMany {
                root: root.to_path_buf(),
            });
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(source) => {
                return Err(LinkError::Unchecked {
                    root: root.to_path_buf(),
                    source,
                });
            }
        };
        if entry.path_is_symlink() {
            link_allowed(root, &real_root, entry.path())?;
        }
    }
    Ok(())
}

/// `Ok` when the symbolic link `link` (under `root`, whose canonical form
/// is `real_root`) follows the rule: dangling, leading inside, or to what
/// every user may read. The error names the link.
pub fn link_allowed(root: &Path, real_root: &Path, link: &Path) -> Result<(), LinkError> {
    let target = match std::fs::canonicalize(link) {
        Ok(target) => target,
        // Dangling: nothing to read there (and nothing is written through
        // a link).
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(LinkError::Unresolvable {
                root: root.to_path_buf(),
                link: link.to_path_buf(),
                source,
            });
        }
    };
    if target.starts_with(real_root) {
        return Ok(());
    }
    readable_by_everyone(&target).map_err(|closed| LinkError::Outside {
        root: root.to_path_buf(),
        link: link.to_path_buf(),
        target,
        closed,
    })
}

/// `Ok` when every user may read `target` (a real path): each directory
/// above it searchable by others, it readable by others, and, for a
/// directory, everything in it the same, with every link in it leading
/// inside it. `Err` names the first place closed.
fn readable_by_everyone(target: &Path) -> Result<(), PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| {
        std::fs::symlink_metadata(p)
            .map(|m| m.permissions().mode())
            .ok()
    };
    for dir in target.ancestors().skip(1) {
        if mode(dir).is_none_or(|m| m & 0o001 == 0) {
            return Err(dir.to_path_buf());
        }
    }
    let open =
        |p: &Path, dir: bool| mode(p).is_some_and(|m| m & 0o004 != 0 && (!dir || m & 0o001 != 0));
    if !target.is_dir() {
        return if open(target, false) {
            Ok(())
        } else {
            Err(target.to_path_buf())
        };
    }
    let inside = walkdir::WalkDir::new(target)
        .follow_links(false)
        .into_iter();
    for (seen, entry) in inside.enumerate() {
        if seen >= MAX_ENTRIES {
            return Err(target.to_path_buf());
        }
        let Ok(entry) = entry else {
            return Err(target.to_path_buf());
        };
        let path = entry.path();
        if entry.path_is_symlink() {
            // A link in a store stays in the store: its own mode says
            // nothing of what it leads to (`store/x -> /etc`).
            match std::fs::canonicalize(path) {
                Ok(to) if to.starts_with(target) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                _ => return Err(path.to_path_buf()),
            }
        }
        if !open(path, entry.file_type().is_dir()) {
            return Err(path.to_path_buf());
        }
    }
    Ok(())
}

/// Every entry under `root`, symbolic links followed, each directory
/// walked once (by device and inode): a tree whose levels each link twice
/// to the next would make a following walk exponential in its depth
/// (2^40 paths for 40 levels). Entries that cannot be read are left out
/// (the link check, [`links_stay_inside`], refuses such a package).
pub fn walk_once(root: &Path) -> impl Iterator<Item = walkdir::DirEntry> {
    use std::os::unix::fs::MetadataExt;
    let mut seen = std::collections::HashSet::new();
    let mut walk = walkdir::WalkDir::new(root).follow_links(true).into_iter();
    std::iter::from_fn(move || {
        loop {
            let entry = match walk.next()? {
                Ok(entry) => entry,
                Err(_) => continue,
            };
            if entry.file_type().is_dir() {
                let id = entry.metadata().map(|m| (m.dev(), m.ino()));
                if id.is_ok_and(|id| !seen.insert(id)) {
                    walk.skip_current_dir();
                    continue;
                }
            }
            return Some(entry);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn a_store_is_followed_but_not_a_link_out_of_it() {
        let store = tempfile::tempdir().expect("a directory");
        let package = tempfile::tempdir().expect("a directory");
        for d in [store.path(), package.path()] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::write(store.path().join("1.in"), "1\n").unwrap();
        std::fs::set_permissions(
            store.path().join("1.in"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        symlink(store.path(), package.path().join("data")).unwrap();
        // Only when the store's parents are open to all (a tempdir's are).
        let open_above = store
            .path()
            .ancestors()
            .skip(1)
            .all(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
        if open_above {
            links_stay_inside(package.path()).expect("a store open to all");
        }
        symlink("/etc", store.path().join("x")).unwrap();
        let e = links_stay_inside(package.path()).unwrap_err();
        assert!(e.to_string().contains("leads outside the package"), "{e}");
    }

    #[test]
    fn a_link_that_cannot_be_resolved_is_refused_and_a_dangling_one_passed() {
        let package = tempfile::tempdir().expect("a directory");
        symlink("gone", package.path().join("dangling")).unwrap();
        links_stay_inside(package.path()).expect("dangling: passed over");
        symlink("loop", package.path().join("loop")).unwrap();
        let e = links_stay_inside(package.path()).unwrap_err();
        assert!(e.to_string().contains("cannot be resolved"), "{e}");
    }
}
