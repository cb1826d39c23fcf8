//! The walk over a generators.yaml: directories, cases, counts, includes.

use super::builtin::BuiltinGen;
use super::command::{args_with_seed, seed_count, split_words};
use super::{CaseSource, GenCase, GenError, GenPlan, Included, TEXT_EXTENSIONS, Yaml, seed};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The settings a directory passes down.
#[derive(Clone, Debug, Default)]
struct Inherited {
    solution: Option<PathBuf>,
    /// No `solution` key on the way here.
    default_solution: bool,
    random_salt: String,
    retries: u32,
}

/// What a yaml key names, for `include:`.
#[derive(Clone, Debug)]
enum Known {
    Case(PathBuf),
    Directory(PathBuf),
}

struct Parser<'a> {
    file: &'a Path,
    text: Option<&'a str>,
    plan: GenPlan,
    /// Numbered cases so far, and how many there are in all.
    numbered: usize,
    numbered_total: usize,
    /// Every key seen so far → what it named.
    keys: HashMap<String, Vec<Known>>,
    /// Every case path (made or included).
    paths: HashSet<PathBuf>,
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
        paths: HashSet::new(),
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
    Ok(p.plan)
}

/// Cases in list-form `data` anywhere in the file (they are numbered
/// together).
fn count_numbered(data: Option<&Yaml>) -> usize {
    let Some(data) = data else { return 0 };
    let (items, numbered): (Vec<&Yaml>, bool) = match data {
        Yaml::Sequence(list) => (list.iter().collect(), true),
        Yaml::Mapping(_) => (vec![data], false),
        _ => return 0,
    };
    let mut total = 0;
    for item in items {
        let Yaml::Mapping(map) = item else { continue };
        for value in map.values() {
            if is_case(value) {
                if numbered {
                    total += count_values(value).map_or(1, |v| v.len());
                }
            } else if let Yaml::Mapping(dir) = value {
                total += count_numbered(dir.get("data"));
            }
        }
    }
    total
}

/// Whether a value is a case (not a directory).
fn is_case(value: &Yaml) -> bool {
    match value {
        Yaml::Null | Yaml::String(_) => true,
        Yaml::Mapping(m) => ["generate", "copy", "count", "match"]
            .iter()
            .chain(TEXT_EXTENSIONS.iter())
            .any(|k| m.contains_key(*k)),
        _ => false,
    }
}

/// A case's `count` values: `[1]` without one; `N` (1 to 100) is 1…N, a
/// list its values (distinct integers), `"A..=B"` A…B (at most 100).
fn count_values(value: &Yaml) -> Result<Vec<i64>, String> {
    let values: Vec<i64> = match value.get("count") {
        None => return Ok(vec![1]),
        Some(Yaml::Number(n)) => match n.as_i64() {
            Some(n) if (1..=100).contains(&n) => (1..=n).collect(),
            _ => return Err(format!("count {n}: must be between 1 and 100")),
        },
        Some(Yaml::Sequence(list)) => {
            let mut seen = HashSet::new();
            let mut values = Vec::new();
            for item in list {
                let v = item
                    .as_i64()
                    .ok_or_else(|| format!("count: found {item:?} but expected an integer"))?;
                if !seen.insert(v) {
                    return Err(format!("count: the value {v} is there twice"));
                }
                values.push(v);
            }
            values
        }
        Some(Yaml::String(s)) => {
            let (lo, hi) = s
                .split_once("..=")
                .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
                .ok_or_else(|| format!("count {s:?}: expected a range like '-4..=5'"))?;
            if lo > hi {
                return Err(format!("count {s:?}: the range is empty"));
            }
            (lo..=hi).collect()
        }
        Some(other) => {
            return Err(format!(
                "count {other:?}: expected a number, a list or a range A..=B"
            ));
        }
    };
    if values.is_empty() || values.len() > 100 {
        return Err(format!(
            "count: {} values; between 1 and 100 are allowed",
            values.len()
        ));
    }
    Ok(values)
}

/// Whether a name is a valid case or group name (BAPCtools' file name
/// rule: a letter, digit or `_`, then letters, digits, `_`, `.`, `-`).
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && name.len() <= 255
}

impl Parser<'_> {
    /// The line of the first `key:` in the file (a hint for messages).
    fn line_of(&self, key: &str) -> Option<usize> {
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

    /// The line of `- NAME` or `[…NAME…]` after `include:` (a hint).
    fn line_of_include(&self, name: &str) -> Option<usize> {
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

    fn err(&self, at: &str, line_key: Option<&str>, what: &str) -> GenError {
        GenError {
            file: self.file.to_path_buf(),
            line: line_key.and_then(|k| self.line_of(k)),
            at: (!at.is_empty()).then(|| at.to_string()),
            message: what.to_string(),
        }
    }

    /// A warning's text: the file, the line of `key`, what.
    fn message(&self, key: &str, what: &str) -> String {
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
                Ok(Some(PathBuf::from(
                    rel.split_whitespace().next().unwrap_or(rel),
                )))
            }
            _ => Err(self.err(at, Some("solution"), "solution: expected a path")),
        }
    }

    /// The keys every directory and case pass down.
    fn inherit(
        &self,
        key: &str,
        value: &Yaml,
        at: &str,
        into: &mut Inherited,
    ) -> Result<bool, GenError> {
        match key {
            "solution" => {
                into.solution = self.solution(value, at)?;
                into.default_solution = false;
            }
            "random_salt" => {
                into.random_salt = match value {
                    Yaml::Null => String::new(),
                    Yaml::String(s) => s.clone(),
                    _ => return Err(self.err(at, Some(key), "random_salt: expected text")),
                }
            }
            "retries" => {
                into.retries = match value {
                    Yaml::Null => 1,
                    v => v
                        .as_u64()
                        .map(|n| n.max(1) as u32)
                        .ok_or_else(|| self.err(at, Some(key), "retries: expected a number"))?,
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn generators(&mut self, value: &Yaml) -> Result<(), GenError> {
        let Yaml::Mapping(map) = value else {
            return Err(self.err(
                "",
                Some("generators"),
                "generators: expected a map from names to their files",
            ));
        };
        for (name, files) in map {
            let name = name.as_str().unwrap_or("").to_string();
            let bad = |what: &str| self.err("", Some(&name), &format!("generators.{name}: {what}"));
            if name.is_empty() || name.starts_with('/') || !valid_name(&name) {
                return Err(bad("not a valid generator name"));
            }
            let Yaml::Sequence(list) = files else {
                return Err(bad("expected a list of files"));
            };
            if list.is_empty() {
                return Err(bad("no files"));
            }
            let files = list
                .iter()
                .map(|f| f.as_str().map(|f| self.plan.generators_dir.join(f)))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| bad("files are strings"))?;
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
                    _ => return Err(self.err(&at, Some(key), &format!("{key}: expected a map"))),
                },
                "data" | "type" | "include" => {}
                "generators" | "version" | "parallel" | "gitignore_generated" | "visualizer"
                    if root => {}
                other => {
                    return Err(self.err(
                        &at,
                        Some(other),
                        &format!(
                            "unknown directory key {other:?} (expected data, include, test_group.yaml, solution, random_salt, retries)"
                        ),
                    ));
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
                if is_case(value) {
                    if at_root {
                        return Err(self.err(key, Some(key), "a case must be inside a directory"));
                    }
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

    fn remember(&mut self, key: &str, known: Known) {
        self.keys.entry(key.to_string()).or_default().push(known);
    }

    /// `include: [key, …]`: the cases of an earlier case or directory of
    /// that key, each into `dir` by its own name.
    fn includes(&mut self, dir: &Path, include: &Yaml) -> Result<(), GenError> {
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
                if !self.paths.insert(path.clone()) {
                    return Err(fail(
                        self,
                        format!("include {key:?}: data/{} is there already", path.display()),
                    ));
                }
                self.plan.includes.push(Included { path, from });
            }
        }
        Ok(())
    }

    fn case(
        &mut self,
        dir: &Path,
        key: &str,
        value: &Yaml,
        parent: &Inherited,
        numbered: bool,
    ) -> Result<(), GenError> {
        let at = dir.join(key).display().to_string();
        let map = match value {
            Yaml::Null => {
                return Err(self.err(
                    &at,
                    Some(key),
                    "an empty case (a case must be generated, copied or given)",
                ));
            }
            Yaml::String(command) if command.trim().is_empty() => {
                return Err(self.err(&at, Some(key), "an empty command"));
            }
            Yaml::String(command) => {
                let mut m = serde_norway::Mapping::new();
                match command.trim().strip_suffix(".in") {
                    // The old form of `copy:`.
                    Some(copy) if !command.trim().contains(' ') => {
                        m.insert(Yaml::from("copy"), Yaml::from(copy));
                    }
                    _ => {
                        m.insert(Yaml::from("generate"), Yaml::from(command.clone()));
                    }
                }
                m
            }
            Yaml::Mapping(m) => m.clone(),
            _ => return Err(self.err(&at, Some(key), "expected a command or a map")),
        };
        let mut inherited = parent.clone();
        let mut inline = BTreeMap::new();
        for (k, v) in &map {
            let k = k.as_str().unwrap_or("");
            if self.inherit(k, v, &at, &mut inherited)? {
                continue;
            }
            match k {
                "generate" | "copy" | "count" | "type" | "match" => {}
                "yaml" => {
                    let text = match v {
                        Yaml::Mapping(_) => serde_norway::to_string(v).unwrap_or_default(),
                        _ => return Err(self.err(&at, Some(k), "yaml: expected a map")),
                    };
                    inline.insert("yaml".to_string(), text);
                }
                ext if TEXT_EXTENSIONS.contains(&ext) => {
                    let mut text = v
                        .as_str()
                        .ok_or_else(|| self.err(&at, Some(k), &format!("{ext}: expected text")))?
                        .to_string();
                    if !text.is_empty() && !text.ends_with('\n') {
                        text.push('\n');
                    }
                    inline.insert(ext.to_string(), text);
                }
                "data" | "testdata.yaml" | "test_group.yaml" | "include" => {
                    return Err(self.err(
                        &at,
                        Some(k),
                        &format!("a case must not have the key {k:?} (it is a directory's)"),
                    ));
                }
                other => {
                    return Err(self.err(
                        &at,
                        Some(other),
                        &format!(
                            "unknown case key {other:?} (expected generate, copy, count, in, ans, …, solution, random_salt, retries)"
                        ),
                    ));
                }
            }
        }
        let values = count_values(&Yaml::Mapping(map.clone()))
            .map_err(|e| self.err(&at, Some("count"), &e))?;
        let has_count = map.contains_key("count");
        let consecutive = values
            .iter()
            .max()
            .zip(values.iter().min())
            .is_some_and(|(hi, lo)| hi - lo == values.len() as i64 - 1);
        let padding = if consecutive {
            values
                .iter()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1)
        } else {
            0
        };
        for &count in &values {
            let mut name = if numbered {
                self.numbered += 1;
                numbered_name(key, self.numbered, self.numbered_total)
            } else {
                key.to_string()
            };
            if has_count {
                name = format!("{name}-{count:0padding$}");
            }
            let name = name.strip_suffix(".in").unwrap_or(&name).to_string();
            if !valid_name(&name) || name == "test_group" {
                return Err(self.err(&at, Some(key), &format!("{name:?}: not a valid case name")));
            }
            let source = self.source(&map, &inline, &inherited, count, has_count, &at)?;
            let path = dir.join(&name);
            if !self.paths.insert(path.clone()) {
                return Err(self.err(
                    &at,
                    Some(key),
                    &format!("data/{} is there twice", path.display()),
                ));
            }
            self.remember(key, Known::Case(path.clone()));
            self.plan.needs_default_solution |= inherited.default_solution;
            self.plan.cases.push(GenCase {
                path,
                source,
                solution: inherited.solution.clone(),
                default_solution: inherited.default_solution,
                inline: inline.clone(),
                retries: inherited.retries,
            });
        }
        Ok(())
    }

    fn source(
        &mut self,
        map: &serde_norway::Mapping,
        inline: &BTreeMap<String, String>,
        inherited: &Inherited,
        count: i64,
        has_count: bool,
        at: &str,
    ) -> Result<CaseSource, GenError> {
        if let Some(generate) = map.get("generate") {
            let command = generate
                .as_str()
                .ok_or_else(|| self.err(at, Some("generate"), "generate: expected a command"))?;
            let command = if command.contains("{count}") {
                if has_count {
                    command.replace("{count}", &count.to_string())
                } else {
                    self.plan.warnings.push(self.message(
                        "generate",
                        &format!("data/{at}: {{count}} in the command but no count: left as it is"),
                    ));
                    command.to_string()
                }
            } else {
                command.to_string()
            };
            return self.generate(&command, &inherited.random_salt, count, at);
        }
        if let Some(copy) = map.get("copy") {
            let copy = copy
                .as_str()
                .ok_or_else(|| self.err(at, Some("copy"), "copy: expected a path"))?;
            if copy.starts_with('/') {
                return Err(self.err(
                    at,
                    Some("copy"),
                    "copy: a path relative to generators/ is expected",
                ));
            }
            let copy = copy.strip_suffix(".in").unwrap_or(copy);
            return Ok(CaseSource::Copy(self.plan.generators_dir.join(copy)));
        }
        if inline.contains_key("in") {
            return Ok(CaseSource::Inline);
        }
        Err(self.err(at, None, "a case needs generate, copy or in"))
    }

    fn generate(
        &self,
        command: &str,
        salt: &str,
        count: i64,
        at: &str,
    ) -> Result<CaseSource, GenError> {
        let bad = |what: &str| self.err(at, Some("generate"), &format!("generate: {what}"));
        let words = split_words(command).map_err(|e| bad(&e))?;
        let Some((program, args)) = words.split_first() else {
            return Err(bad("an empty command"));
        };
        if args.iter().map(|a| seed_count(a)).sum::<usize>() > 1 {
            return Err(bad("{seed} may appear at most once"));
        }
        let seed = seed(salt, count, command);
        let template: Vec<String> = args
            .iter()
            .map(|a| a.replace("{name}", "testcase"))
            .collect();
        if BuiltinGen::is_builtin(&words) {
            let mut filled = vec![program.clone()];
            filled.extend(args_with_seed(&template, seed));
            let builtin = BuiltinGen::parse(&filled).map_err(|e| bad(&e))?;
            return Ok(CaseSource::Builtin {
                builtin,
                seed,
                command: command.trim().to_string(),
            });
        }
        if program.starts_with('/') {
            return Err(bad(&format!(
                "{program}: the program must be relative to generators/ (BAPCtools refuses an absolute one)"
            )));
        }
        Ok(CaseSource::Generate {
            program: self.plan.generators_dir.join(program),
            args: args_with_seed(&template, seed),
            seed,
            command: command.trim().to_string(),
            template,
        })
    }
}

/// `NN-key` (or `NN`) numbered among `total`, zero-padded to its width.
fn numbered_name(key: &str, number: usize, total: usize) -> String {
    let width = total.max(1).to_string().len();
    if key.is_empty() {
        format!("{number:0width$}")
    } else {
        format!("{number:0width$}-{key}")
    }
}
