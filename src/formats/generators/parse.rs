//! The walk over a generators.yaml: directories, cases, counts, includes.

use super::names::{
    DEPRECATED_ROOT_DIRECTORIES, count_numbered, is_case, numbered_name, valid_name,
};
use super::{GenError, GenPlan, Yaml};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The most tries a case's generator is given (`retries`).
const MAX_RETRIES: u64 = 1000;

/// The settings a directory passes down.
#[derive(Clone, Debug, Default)]
pub(super) struct Inherited {
    pub(super) solution: Option<PathBuf>,
    /// No `solution` key on the way here.
    pub(super) default_solution: bool,
    pub(super) random_salt: String,
    pub(super) retries: u32,
}

/// What a yaml key names, for `include:`.
#[derive(Clone, Debug)]
pub(super) enum Known {
    Case(PathBuf),
    Directory(PathBuf),
}

pub(super) struct Parser<'a> {
    pub(super) file: &'a Path,
    pub(super) text: Option<&'a str>,
    pub(super) plan: GenPlan,
    /// Numbered cases so far, and how many there are in all.
    pub(super) numbered: usize,
    pub(super) numbered_total: usize,
    /// Every key seen so far → what it named.
    pub(super) keys: HashMap<String, Vec<Known>>,
    /// Every case path (made or included) → the case it is.
    pub(super) paths: HashMap<PathBuf, PathBuf>,
}

const ROOT_ORDER: [&str; 6] = [
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
];

pub(super) fn parse(
    root: &Path,
    generators_dir: &Path,
    file: &Path,
    text: Option<&str>,
    yaml: &Yaml,
) -> Result<GenPlan, GenError> {
    let mut p = Parser {
        file,
        text,
        plan: GenPlan {
            root: root.to_path_buf(),
            generators_dir: generators_dir.to_path_buf(),
            ..GenPlan::default()
        },
        numbered: 0,
        numbered_total: 0,
        keys: HashMap::new(),
        paths: HashMap::new(),
    };
    let map = match yaml {
        Yaml::Null => return Ok(p.plan),
        Yaml::Mapping(m) => m,
        _ => {
            return Err(p.err(
                "",
                None,
                "the file must be a map (solution, generators, data, …)",
            ));
        }
    };
    for (key, value) in map {
        match key.as_str().unwrap_or("") {
            "generators" => p.generators(value)?,
            "version" => {}
            old @ ("parallel" | "gitignore_generated" | "visualizer") => p
                .plan
                .warnings
                .push(p.message(old, &format!("{old}: a deprecated key, ignored"))),
            _ => {}
        }
    }
    p.numbered_total = count_numbered(map.get("data"));
    let top = Inherited {
        retries: 1,
        default_solution: true,
        ..Inherited::default()
    };
    p.directory(Path::new(""), map, &top)?;
    // A warning of a case made for several count values is said once.
    let mut seen = std::collections::HashSet::new();
    p.plan.warnings.retain(|w| seen.insert(w.clone()));
    Ok(p.plan)
}
impl Parser<'_> {
    /// The line of the first `key:` in the file (a hint for messages).
    pub(super) fn line_of(&self, key: &str) -> Option<usize> {
        let text = self.text?;
        text.lines()
            .position(|line| {
                let t = line.trim_start();
                let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
                [
                    format!("{key}:"),
                    format!("'{key}':"),
                    format!("\"{key}\":"),
                ]
                .iter()
                .any(|k| t.starts_with(k.as_str()))
            })
            .map(|i| i + 1)
    }

    /// The line of `key:` inside the entry `at` (`secret/group/case`):
    /// each name of the path found in turn, then the key after it; else
    /// the entry's line; else the first `key:` in the file.
    pub(super) fn line_in(&self, at: &str, key: &str) -> Option<usize> {
        let text = self.text?;
        let lines: Vec<&str> = text.lines().collect();
        let starts = |line: &str, name: &str| {
            let t = line.trim_start();
            let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
            [
                format!("{name}:"),
                format!("'{name}':"),
                format!("\"{name}\":"),
            ]
            .iter()
            .any(|k| t.starts_with(k.as_str()))
        };
        let mut from = 0;
        for name in at.split('/').filter(|n| !n.is_empty()) {
            if let Some(i) = lines.iter().skip(from).position(|l| starts(l, name)) {
                from += i + 1;
            }
        }
        // The key inside the entry (the lines after it indented deeper
        // than its name); else the entry's own line (a command or a flow
        // map `{in: …}` on it), else the first `key:`.
        let end = match from.checked_sub(1).and_then(|i| lines.get(i)) {
            Some(entry) if !at.is_empty() => {
                let indent = |l: &str| l.len() - l.trim_start().len();
                // The name's column: after a list item's `- `.
                let t = entry.trim_start();
                let name = indent(entry)
                    + t.strip_prefix('-')
                        .map_or(0, |r| 1 + r.len() - r.trim_start().len());
                lines
                    .iter()
                    .skip(from)
                    .position(|l| {
                        let t = l.trim_start();
                        !t.is_empty() && !t.starts_with('#') && indent(l) <= name
                    })
                    .map_or(lines.len(), |i| from + i)
            }
            _ => lines.len(),
        };
        lines
            .iter()
            .take(end)
            .skip(from)
            .position(|l| starts(l, key))
            .map(|i| from + i + 1)
            .or_else(|| (from > 0 && !at.is_empty()).then_some(from))
            .or_else(|| self.line_of(key))
    }

    pub(super) fn err(&self, at: &str, line_key: Option<&str>, what: &str) -> GenError {
        GenError {
            file: self.file.to_path_buf(),
            line: line_key.and_then(|k| self.line_in(at, k)),
            at: (!at.is_empty()).then(|| at.to_string()),
            message: what.to_string(),
        }
    }

    /// A warning's text: the file, the line of `key`, what.
    pub(super) fn message(&self, key: &str, what: &str) -> String {
        self.err("", Some(key), what).to_string()
    }

    fn solution(&self, value: &Yaml, at: &str) -> Result<Option<PathBuf>, GenError> {
        match value {
            Yaml::Null => Ok(None),
            Yaml::String(s) => {
                let s = s.trim();
                let Some(rel) = s.strip_prefix('/') else {
                    return Err(self.err(
                        at,
                        Some("solution"),
                        &format!(
                            "solution {s:?}: must be a path from the problem root, starting with /"
                        ),
                    ));
                };
                let rel = rel.split_whitespace().next().unwrap_or(rel);
                if !super::names::stays_inside(Path::new(""), rel) {
                    return Err(self.err(
                        at,
                        Some("solution"),
                        &format!(
                            "solution {}: outside the package (judge gen runs only its own programs)",
                            crate::text::whitespace::shown_name(s)
                        ),
                    ));
                }
                Ok(Some(PathBuf::from(rel)))
            }
            _ => Err(self.err(at, Some("solution"), "solution: expected a path")),
        }
    }

    /// The keys every directory and case pass down. A value of the wrong
    /// kind is warned and the one from above kept, as BAPCtools'
    /// `YamlParser.extract` does ("incompatible value … SKIPPED"); a
    /// solution that is no path from the problem root, or leads outside
    /// the package, is an error.
    pub(super) fn inherit(
        &mut self,
        key: &str,
        value: &Yaml,
        at: &str,
        into: &mut Inherited,
    ) -> Result<bool, GenError> {
        let kept = |p: &Self, what: &str| {
            p.err(
                at,
                Some(key),
                &format!("{key}: {what}: ignored, the one above applies"),
            )
            .to_string()
        };
        match key {
            "solution" => match value {
                Yaml::Null | Yaml::String(_) => {
                    into.solution = self.solution(value, at)?;
                    into.default_solution = false;
                }
                _ => {
                    let warning = kept(self, "expected a path");
                    self.plan.warnings.push(warning);
                }
            },
            "random_salt" => match value {
                Yaml::Null => {}
                Yaml::String(s) => into.random_salt = s.clone(),
                _ => {
                    let warning = kept(self, "expected text");
                    self.plan.warnings.push(warning);
                }
            },
            "retries" => match value {
                Yaml::Null => {}
                v => match v.as_u64().filter(|n| *n >= 1) {
                    Some(n) if n <= MAX_RETRIES => into.retries = n as u32,
                    Some(n) => {
                        into.retries = MAX_RETRIES as u32;
                        let warning = self
                            .err(
                                at,
                                Some(key),
                                &format!("retries: {n}: more than the judge's {MAX_RETRIES}, {MAX_RETRIES} used"),
                            )
                            .to_string();
                        self.plan.warnings.push(warning);
                    }
                    None => {
                        let warning = kept(
                            self,
                            &format!("{}: expected a whole number above 0", shown(v)),
                        );
                        self.plan.warnings.push(warning);
                    }
                },
            },
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The root's `generators:` map. A bad name or list is warned and that
    /// generator left out (BAPCtools: "key … is invalid. SKIPPED", "missing
    /// dependencies. SKIPPED"); a file outside the package is an error.
    fn generators(&mut self, value: &Yaml) -> Result<(), GenError> {
        let Yaml::Mapping(map) = value else {
            let warning = self.message(
                "generators",
                "generators: expected a map from names to their files, ignored",
            );
            self.plan.warnings.push(warning);
            return Ok(());
        };
        for (name, files) in map {
            let name = name.as_str().unwrap_or("").to_string();
            let bad = |p: &Self, what: &str| {
                p.err("", Some(&name), &format!("generators.{name}: {what}"))
            };
            let files = match files {
                _ if name.is_empty() || name.starts_with('/') || !valid_name(&name) => {
                    Err("not a valid generator name")
                }
                Yaml::Sequence(list) if list.is_empty() => Err("no files"),
                Yaml::Sequence(list) => list
                    .iter()
                    .map(|f| f.as_str())
                    .collect::<Option<Vec<_>>>()
                    .ok_or("files are strings"),
                _ => Err("expected a list of files"),
            };
            let files = match files {
                Ok(files) => files,
                Err(what) => {
                    let warning = bad(self, &format!("{what}: left out")).to_string();
                    self.plan.warnings.push(warning);
                    continue;
                }
            };
            if let Some(out) = files
                .iter()
                .find(|f| !super::names::stays_inside(&self.plan.generators_dir, f))
            {
                return Err(bad(
                    self,
                    &format!(
                        "{}: outside the package (judge gen reads only inside it)",
                        crate::text::whitespace::shown_name(out)
                    ),
                ));
            }
            let files: Vec<PathBuf> = files
                .iter()
                .map(|f| self.plan.generators_dir.join(f))
                .collect();
            let program = self.plan.generators_dir.join(&name);
            self.plan.generators.insert(program, files);
        }
        Ok(())
    }

    /// A directory: its keys, its children, then its includes.
    fn directory(
        &mut self,
        dir: &Path,
        map: &serde_norway::Mapping,
        parent: &Inherited,
    ) -> Result<(), GenError> {
        let at = dir.display().to_string();
        let root = dir.as_os_str().is_empty();
        let mut inherited = parent.clone();
        for (key, v) in map {
            let key = key.as_str().unwrap_or("");
            if self.inherit(key, v, &at, &mut inherited)? {
                continue;
            }
            match key {
                "testdata.yaml" | "test_group.yaml" => match v {
                    Yaml::Mapping(m) if !m.is_empty() => {
                        let text = serde_norway::to_string(v).unwrap_or_default();
                        self.plan.group_files.push((dir.join(key), text));
                    }
                    Yaml::Mapping(_) | Yaml::Null => {}
                    // That file is left out, the directory's cases made.
                    _ => {
                        let error = self.err(
                            &at,
                            Some(key),
                            &format!(
                                "{key}: expected a map: data/{} is not written",
                                dir.join(key).display()
                            ),
                        );
                        self.plan.skipped.push(error);
                    }
                },
                "data" | "include" => {}
                "type" => self.old_type(&at, v),
                "generators" | "version" | "parallel" | "gitignore_generated" | "visualizer"
                    if root => {}
                "visualizer" => self.old_visualizer(&at),
                // BAPCtools warns about an unknown key and reads the rest
                // (its `identity` test problem has `unknown_key:` to
                // test exactly that).
                other => {
                    let what = if root { "file" } else { "directory" };
                    let warning = self.err(
                        &at,
                        Some(other),
                        &format!(
                            "unknown {what} key {other:?}, ignored (expected data, include, test_group.yaml, solution, random_salt, retries{})",
                            if root { ", generators, version" } else { "" }
                        ),
                    );
                    self.plan.warnings.push(warning.to_string());
                }
            }
        }
        if let Some(data) = map.get("data") {
            self.children(dir, data, &inherited)?;
        }
        if let Some(include) = map.get("include") {
            self.includes(dir, include)?;
        }
        Ok(())
    }

    /// The children of a directory's `data` (a map, or a numbered list).
    fn children(&mut self, dir: &Path, data: &Yaml, inherited: &Inherited) -> Result<(), GenError> {
        let at = dir.display().to_string();
        let at_root = dir.as_os_str().is_empty();
        let (items, numbered): (Vec<&Yaml>, bool) = match data {
            Yaml::Null => return Ok(()),
            Yaml::Sequence(list) => (list.iter().collect(), true),
            Yaml::Mapping(_) => (vec![data], false),
            _ => return Err(self.err(&at, Some("data"), "data: expected a map or a list")),
        };
        let groups_here = items
            .iter()
            .filter_map(|i| i.as_mapping())
            .flat_map(|m| m.values())
            .filter(|v| !is_case(v))
            .count();
        let mut group_number = 0;
        for item in items {
            let Yaml::Mapping(map) = item else {
                return Err(self.err(&at, Some("data"), "data: list items are maps"));
            };
            if numbered && map.len() != 1 {
                return Err(self.err(
                    &at,
                    Some("data"),
                    "a list item must hold exactly one named case or group (indent its keys one more level)",
                ));
            }
            let mut keys: Vec<(&str, &Yaml)> = map
                .iter()
                .map(|(k, v)| (k.as_str().unwrap_or(""), v))
                .collect();
            if at_root {
                keys.sort_by_key(|(k, _)| {
                    (
                        ROOT_ORDER.iter().position(|o| o == k).unwrap_or(999),
                        k.to_string(),
                    )
                });
            } else {
                keys.sort_by_key(|(k, _)| k.to_string());
            }
            for (key, value) in keys {
                if !numbered && key.is_empty() {
                    return Err(self.err(
                        &at,
                        None,
                        "a case or group of a map needs a name (only list items may have an empty key)",
                    ));
                }
                if at_root {
                    if let Some((_, now)) =
                        DEPRECATED_ROOT_DIRECTORIES.iter().find(|(o, _)| *o == key)
                    {
                        // BAPCtools: "key … is deprecated, use … instead. SKIPPED."
                        let warning = self.err(
                            key,
                            Some(key),
                            &format!("{key}: the old name of {now} (BAPCtools: deprecated, skipped), not made: name it {now}"),
                        );
                        self.plan.warnings.push(warning.to_string());
                        continue;
                    }
                    if is_case(value) {
                        // BAPCtools reads only directories there: "found
                        // unknown … key".
                        let warning = self.err(
                            key,
                            Some(key),
                            "a case at the top of data: (a case must be inside a directory: sample, secret, …), not made",
                        );
                        self.plan.warnings.push(warning.to_string());
                        continue;
                    }
                }
                if is_case(value) {
                    self.case(dir, key, value, inherited, numbered)?;
                } else {
                    let name = if numbered {
                        group_number += 1;
                        numbered_name(key, group_number, groups_here)
                    } else {
                        key.to_string()
                    };
                    let path = dir.join(&name);
                    let Yaml::Mapping(map) = value else {
                        return Err(self.err(
                            &path.display().to_string(),
                            Some(key),
                            "expected a case or a directory",
                        ));
                    };
                    if !valid_name(&name) {
                        return Err(self.err(
                            &at,
                            Some(key),
                            &format!("{name:?}: not a valid name"),
                        ));
                    }
                    self.remember(key, Known::Directory(path.clone()));
                    self.directory(&path, map, inherited)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn remember(&mut self, key: &str, known: Known) {
        self.keys.entry(key.to_string()).or_default().push(known);
    }
}

/// A yaml value as written, for a message (`-3`, `x`, `[1, 2]`).
fn shown(value: &Yaml) -> String {
    serde_norway::to_string(value)
        .map(|t| t.trim().to_string())
        .unwrap_or_else(|_| format!("{value:?}"))
}
