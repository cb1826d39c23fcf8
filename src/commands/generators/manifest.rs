//! What `judge gen` owns: `data/.judge-gen.json` records every file it wrote
//! with the key of what made it and the hash of its bytes. A file the
//! manifest does not own, or one changed by hand since, is never replaced
//! without `--force`; `--clean` removes only owned files no entry makes.

use super::Made;
use super::confine::{Confine, plain_relative, read_no_follow};
use super::error::WriteError;
use crate::commands::Failure;
use crate::formats::generators::{DATA_EXTENSIONS, GenPlan};
use crate::report::write_atomically;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

pub(super) const MANIFEST: &str = ".judge-gen.json";

/// What `judge gen` wrote: path under `data/` → (case key, content hash).
#[derive(Default, Serialize, Deserialize)]
pub(super) struct Manifest {
    pub(super) files: BTreeMap<String, Owned>,
    /// The hash of what the data was last made from in full (the
    /// generators directory with generators.yaml, and problem.yaml).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) sources: Option<String>,
}

#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub(super) struct Owned {
    pub(super) key: String,
    pub(super) sha256: String,
}

/// What writing the cases came to.
#[derive(Default)]
pub(super) struct Summary {
    pub(super) written: usize,
    pub(super) unchanged: usize,
    pub(super) refused: Vec<String>,
}

pub(super) fn sha256(bytes: &[u8]) -> String {
    crate::exec::identity::hex(&Sha256::digest(bytes))
}

/// The manifest in `data` (a symbolic link, a FIFO or a path in it that is
/// not a plain name under `data` counts as nothing: the package wrote it).
pub(super) fn read(data: &Path) -> Manifest {
    let mut manifest: Manifest = read_no_follow(&data.join(MANIFEST))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    manifest.files.retain(|rel, _| plain_relative(rel));
    manifest
}

pub(super) fn save(data: &Path, confine: &Confine, manifest: &Manifest) -> Result<(), Failure> {
    let bytes =
        serde_json::to_vec_pretty(manifest).map_err(|e| Failure::Internal(e.to_string()))?;
    confine.make_dirs(data).map_err(Failure::usage)?;
    write_atomically(&data.join(MANIFEST), &bytes)
        .map_err(|e| Failure::Internal(format!("{}: {e}", data.join(MANIFEST).display())))
}

impl Manifest {
    /// Whether the case at `path` (no extension) was made with `key` and
    /// every file it made is still as it was made.
    pub(super) fn unchanged(&self, data: &Path, path: &Path, key: &str) -> bool {
        let input_rel = format!("{}.in", path.display());
        let prefix = format!("{}.", path.display());
        self.files.get(&input_rel).is_some_and(|o| o.key == key)
            && self
                .files
                .range(prefix.clone()..)
                .take_while(|(rel, _)| rel.starts_with(&prefix))
                .all(|(rel, o)| {
                    o.key == key
                        && read_no_follow(&data.join(rel)).is_ok_and(|b| sha256(&b) == o.sha256)
                })
    }

    /// Whether every file the manifest owns is on disk as it was written.
    pub(super) fn intact(&self, data: &Path) -> bool {
        self.files
            .iter()
            .all(|(rel, o)| read_no_follow(&data.join(rel)).is_ok_and(|b| sha256(&b) == o.sha256))
    }

    /// The files on disk of the case at `path` that the manifest owns:
    /// extension → bytes (an included case's source).
    pub(super) fn owned_files(&self, data: &Path, path: &Path) -> BTreeMap<String, Vec<u8>> {
        let prefix = format!("{}.", path.display());
        self.files
            .range(prefix.clone()..)
            .map(|(rel, _)| rel)
            .take_while(|rel| rel.starts_with(&prefix))
            .filter_map(|rel| rel.strip_prefix(&prefix).map(|ext| (rel, ext)))
            .filter(|(_, ext)| !ext.contains('/'))
            .filter_map(|(rel, ext)| Some((ext.to_string(), read_no_follow(&data.join(rel)).ok()?)))
            .collect()
    }

    /// Whether the manifest owns `rel` as it wrote it (these bytes).
    pub(super) fn owns(&self, rel: &str, bytes: &[u8]) -> bool {
        self.files
            .get(rel)
            .is_some_and(|o| o.sha256 == sha256(bytes))
    }

    /// The key a case was made with, if the manifest has it.
    pub(super) fn key_of(&self, path: &Path) -> Option<&str> {
        self.files
            .get(&format!("{}.in", path.display()))
            .map(|o| o.key.as_str())
    }

    /// Write a file under `data/` unless it is someone else's: a file the
    /// manifest does not own (or that changed since) needs `force`.
    pub(super) fn write_owned(
        &mut self,
        data: &Path,
        confine: &Confine,
        rel: &str,
        bytes: &[u8],
        key: &str,
        force: bool,
    ) -> Result<bool, WriteError> {
        let path = data.join(rel);
        let hash = sha256(bytes);
        let owned = Owned {
            key: key.to_string(),
            sha256: hash.clone(),
        };
        if !plain_relative(rel) {
            return Err(WriteError::NotPlain(rel.to_string()));
        }
        if let Some(parent) = path.parent() {
            confine.make_dirs(parent)?;
        }
        // The last component is never followed: a symbolic link there is
        // read as nothing, and the write refuses it (never through a link).
        if let Ok(existing) = read_no_follow(&path) {
            let existing_hash = sha256(&existing);
            if existing_hash == hash {
                self.files.insert(rel.to_string(), owned);
                return Ok(false);
            }
            let ours = self
                .files
                .get(rel)
                .is_some_and(|o| o.sha256 == existing_hash);
            if !ours && !force {
                return Err(WriteError::NotOwned(rel.to_string()));
            }
        }
        confine.write(&path, bytes)?;
        self.files.insert(rel.to_string(), owned);
        Ok(true)
    }
}

/// Make everything written under `data` durable at once.
pub(super) fn sync(data: &Path) {
    if let Ok(dir) = std::fs::File::open(data) {
        let _ = rustix::fs::syncfs(&dir);
    }
}

pub(super) fn write_group_files(
    plan: &GenPlan,
    data: &Path,
    confine: &Confine,
    manifest: &mut Manifest,
    force: bool,
    keep_unowned: bool,
) -> Result<(), Failure> {
    for (path, text) in &plan.group_files {
        let rel = path.display().to_string();
        match manifest.write_owned(data, confine, &rel, text.as_bytes(), "group", force) {
            Ok(_) => {}
            // `verify`/`run` generating first: a group file the judge did
            // not write is used as it is, said.
            Err(e) if keep_unowned => {
                crate::commands::stdout::say!("{e}: kept and used as it is")
            }
            Err(e) => return Err(Failure::usage(e)),
        }
    }
    Ok(())
}

/// Write every made case's files; `summary` counts them.
pub(super) fn write_cases(
    made: &[Made],
    data: &Path,
    confine: &Confine,
    manifest: &mut Manifest,
    force: bool,
    summary: &mut Summary,
) {
    for m in made {
        let Ok(files) = &m.files else { continue };
        // A hand-made case's own files stay its author's: not written,
        // not owned (only what the judge made for it is).
        let theirs = |manifest: &Manifest, rel: &str| {
            m.kind == "manual"
                && read_no_follow(&data.join(rel)).is_ok_and(|b| !manifest.owns(rel, &b))
        };
        let files: Vec<(&str, &Vec<u8>)> = files
            .iter()
            .map(|(ext, bytes)| (ext.as_str(), bytes))
            .filter(|(ext, _)| !theirs(manifest, &format!("{}.{ext}", m.path.display())))
            .collect();
        // The input first: when it is someone else's (kept), the case's
        // other files are not written either (an answer made from another
        // input would not match it).
        if let Some((_, input)) = files.iter().find(|(ext, _)| *ext == "in") {
            let rel = format!("{}.in", m.path.display());
            match manifest.write_owned(data, confine, &rel, input, &m.key, force) {
                Ok(true) => summary.written += 1,
                Ok(false) => summary.unchanged += 1,
                Err(e) => {
                    summary.refused.push(e.to_string());
                    continue;
                }
            }
        }
        for (ext, bytes) in files.iter().filter(|(ext, _)| *ext != "in") {
            let rel = format!("{}.{ext}", m.path.display());
            match manifest.write_owned(data, confine, &rel, bytes, &m.key, force) {
                Ok(true) => summary.written += 1,
                Ok(false) => summary.unchanged += 1,
                Err(e) => summary.refused.push(e.to_string()),
            }
        }
    }
}

/// `--clean`: remove the files the manifest owns that no entry makes now
/// (never a file it does not own, nor one changed by hand since).
pub(super) fn clean(plan: &GenPlan, data: &Path, confine: &Confine, manifest: &mut Manifest) {
    let made: HashSet<String> = plan
        .cases
        .iter()
        .map(|c| c.path.display().to_string())
        .chain(plan.includes.iter().map(|i| i.path.display().to_string()))
        .chain(
            plan.group_files
                .iter()
                .map(|(p, _)| p.display().to_string()),
        )
        .collect();
    let stale: Vec<String> = manifest
        .files
        .keys()
        .filter(|rel| {
            let stem = DATA_EXTENSIONS
                .iter()
                .find_map(|ext| rel.strip_suffix(&format!(".{ext}")))
                .unwrap_or(rel);
            !made.contains(stem) && !made.contains(rel.as_str())
        })
        .cloned()
        .collect();
    for rel in stale {
        let path = data.join(&rel);
        // Only a plain name under data/, in a directory inside the package
        // (the manifest is the package's file: `../../x` is never removed).
        let in_package = plain_relative(&rel)
            && path
                .parent()
                .is_some_and(|parent| confine.check(parent).is_ok());
        let ours = in_package
            && read_no_follow(&path).is_ok_and(|b| {
                manifest
                    .files
                    .get(&rel)
                    .is_some_and(|o| o.sha256 == sha256(&b))
            });
        if ours {
            let _ = std::fs::remove_file(&path);
            crate::commands::stdout::note!("removed data/{rel} (no entry makes it any more)");
        }
        manifest.files.remove(&rel);
    }
}
