//! `include:` in a directory: the cases of an earlier case or group of a
//! key (unique in the file), each put into the directory by its own name.
//! A name met twice is one case when both are the same case (a group's
//! cases and a case it included itself); else a warning, the first kept
//! (BAPCtools' `parse_directory`, step 4).

use super::parse::{Known, Parser};
use super::{GenError, Included, Yaml};
use std::path::{Path, PathBuf};

impl Parser<'_> {
    /// The line of `- NAME` or `[…NAME…]` after `include:` (a hint).
    pub(super) fn line_of_include(&self, name: &str) -> Option<usize> {
        let text = self.text?;
        let mut in_include = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.starts_with("include:") {
                in_include = true;
                if t.contains(name) {
                    return Some(i + 1);
                }
                continue;
            }
            if in_include {
                let item = t.strip_prefix("- ").map(|s| s.trim_matches(['\'', '"']));
                if item == Some(name) {
                    return Some(i + 1);
                }
                if item.is_none() {
                    in_include = false;
                }
            }
        }
        None
    }

    /// `include: [key, …]`: the cases of an earlier case or directory of
    /// that key, each into `dir` by its own name.
    pub(super) fn includes(&mut self, dir: &Path, include: &Yaml) -> Result<(), GenError> {
        let at = dir.display().to_string();
        let Yaml::Sequence(list) = include else {
            return Err(self.err(&at, Some("include"), "include: expected a list of keys"));
        };
        for item in list {
            let Some(key) = item.as_str() else {
                return Err(self.err(&at, Some("include"), "include: items are keys"));
            };
            let fail = |p: &Self, what: String| GenError {
                file: p.file.to_path_buf(),
                line: p.line_of_include(key),
                at: (!at.is_empty()).then(|| at.clone()),
                message: what,
            };
            if key.contains('/') {
                return Err(fail(
                    self,
                    format!("include {key:?}: a case or group key is expected, not a path"),
                ));
            }
            let known = match self.keys.get(key).map(Vec::as_slice) {
                None | Some([]) => {
                    return Err(fail(
                        self,
                        format!(
                            "include {key:?}: no case or group before this has the key {key:?}"
                        ),
                    ));
                }
                Some([one]) => one.clone(),
                Some(many) => {
                    return Err(fail(
                        self,
                        format!(
                            "include {key:?}: the key is there {} times (it must name one case or group)",
                            many.len()
                        ),
                    ));
                }
            };
            let originals: Vec<(PathBuf, PathBuf)> = match &known {
                Known::Case(path) => vec![(path.clone(), path.clone())],
                Known::Directory(group) => self
                    .plan
                    .cases
                    .iter()
                    .map(|c| (c.path.clone(), c.path.clone()))
                    .chain(
                        self.plan
                            .includes
                            .iter()
                            .map(|i| (i.path.clone(), i.from.clone())),
                    )
                    .filter(|(p, _)| p.starts_with(group))
                    .collect(),
            };
            for (placed, from) in originals {
                let Some(name) = placed.file_name() else {
                    continue;
                };
                let path = dir.join(name);
                if path == from {
                    continue;
                }
                // As BAPCtools: a case met again by the same name (the
                // same case through two includes) is there once; another
                // case of that name is said, and the first one kept.
                match self.paths.get(&path) {
                    Some(there) if *there == from => {}
                    Some(there) => {
                        let warning = fail(
                            self,
                            format!(
                                "include {key:?}: data/{} is data/{} already, not data/{}: kept as it is",
                                path.display(),
                                there.display(),
                                from.display()
                            ),
                        );
                        self.plan.warnings.push(warning.to_string());
                    }
                    None => {
                        self.paths.insert(path.clone(), from.clone());
                        self.plan.includes.push(Included { path, from });
                    }
                }
            }
        }
        Ok(())
    }
}
