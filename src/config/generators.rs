//! BAPCtools' `generators/generators.yaml`, read as that tool reads it, into
//! a plan: every case under `data/` with where its files come from, and the
//! group settings files to write.
//!
//! The facts this module relies on (BAPCtools' `generate`):
//! - the root keys: `solution`, `version`, `generators` (a name to the files
//!   of a multi-file generator), `data`, `parallel`;
//! - `data` is a dictionary (children named by their keys, sorted; at the
//!   root in the order sample, secret, invalid_output, invalid_answer,
//!   invalid_input, valid_output, then the rest) or a list of one-key
//!   dictionaries (numbered: `NN-key`, or `NN` for an empty key; cases are
//!   numbered across the whole file, the width that of the total; test
//!   groups per directory);
//! - a case is a string (a command) or a map with `generate`, `copy`,
//!   `in`/`ans`/… content, `count` (N copies named `-1`…`-N`, each its own
//!   `{count}` and seed), `solution`, `random_salt`, `retries`; a directory
//!   is a map with `data`, `testdata.yaml` / `test_group.yaml`, `solution`,
//!   `random_salt`, `retries`, `include`;
//! - `{seed}` (and `{seed:N}`) is the low 31 bits of the SHA-512 of
//!   `random_salt`, then `:INDEX` for a count copy after the first, then the
//!   command (after `{count}` is filled in) with surrounding white space
//!   removed; `{name}` is `testcase`.
//!
//! An unknown key is an error naming the file, the case and the key.

use sha2::{Digest, Sha512};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The plan of a generators.yaml.
#[derive(Debug, Default)]
pub struct GenPlan {
    /// The problem directory.
    pub root: PathBuf,
    pub cases: Vec<GenCase>,
    /// Group settings files to write: path under `data/`, content.
    pub group_files: Vec<(PathBuf, String)>,
    /// Named multi-file generators: name (under generators/) → files.
    pub generators: BTreeMap<String, Vec<PathBuf>>,
    pub warnings: Vec<String>,
}

/// One case to make.
#[derive(Clone, Debug, PartialEq)]
pub struct GenCase {
    /// The case's path under `data/`, without extension (`secret/03-big`).
    pub path: PathBuf,
    pub source: CaseSource,
    /// The solution that writes the `.ans` when nothing else does: a path
    /// from the problem root.
    pub solution: Option<PathBuf>,
    /// Other files given inline (`ans: "…"`, `desc: …`): extension → text.
    pub inline: BTreeMap<String, String>,
    pub retries: u32,
}

/// Where a case's input comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseSource {
    /// A generator: its program (a path from the problem root) and
    /// arguments with `{seed}` and `{name}` filled in; the seed and the
    /// command as written (for reports).
    Generate {
        program: PathBuf,
        args: Vec<String>,
        seed: u32,
        command: String,
        /// The arguments with `{seed}` still in them (a retry's seed is
        /// one more).
        template: Vec<String>,
    },
    /// `copy: path`: the files `path.in`, `path.ans`, … (from the problem
    /// root).
    Copy(PathBuf),
    /// `in: "…"` given inline.
    Inline,
}

/// BAPCtools' seed of a command.
pub fn seed(salt: &str, count_index: usize, command: &str) -> u32 {
    let mut text = salt.to_string();
    if count_index > 0 {
        text.push_str(&format!(":{count_index}"));
    }
    text.push_str(command.trim());
    let digest = Sha512::digest(text.as_bytes());
    // The big-endian number modulo 2^31: its last 31 bits.
    let last = u32::from_be_bytes([digest[60], digest[61], digest[62], digest[63]]);
    last & 0x7fff_ffff
}

/// The extensions a case may give inline.
const TEXT_EXTENSIONS: [&str; 9] = [
    "in",
    "ans",
    "out",
    "hint",
    "desc",
    "interaction",
    "in.statement",
    "ans.statement",
    "yaml",
];

/// The settings a directory passes down.
#[derive(Clone, Debug, Default)]
struct Inherited {
    solution: Option<PathBuf>,
    random_salt: String,
    retries: u32,
}

struct Parser<'a> {
    file: &'a Path,
    plan: GenPlan,
    /// Numbered cases so far, and how many there are in all.
    numbered: usize,
    numbered_total: usize,
}

type Yaml = serde_norway::Value;

/// Read `generators/generators.yaml` of the problem at `root`.
pub fn load(root: &Path) -> Result<GenPlan, String> {
    let file = root.join("generators").join("generators.yaml");
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let yaml: Yaml = if text.trim().is_empty() {
        Yaml::Null
    } else {
        serde_norway::from_str(&text).map_err(|e| match e.location() {
            Some(at) => format!("{}:{}:{}: {e}", file.display(), at.line(), at.column()),
            None => format!("{}: {e}", file.display()),
        })?
    };
    parse(root, &file, &yaml)
}

/// Parse a generators.yaml given as a value (`file` names it in messages).
pub fn parse(root: &Path, file: &Path, yaml: &Yaml) -> Result<GenPlan, String> {
    let mut p = Parser {
        file,
        plan: GenPlan {
            root: root.to_path_buf(),
            ..GenPlan::default()
        },
        numbered: 0,
        numbered_total: 0,
    };
    let map = match yaml {
        Yaml::Null => return Ok(p.plan),
        Yaml::Mapping(m) => m,
        _ => return Err(p.err("", "the file must be a map (solution, generators, data, …)")),
    };
    let mut inherited = Inherited {
        retries: 1,
        ..Inherited::default()
    };
    for (key, value) in map {
        let key = key.as_str().unwrap_or("");
        match key {
            "solution" => inherited.solution = p.solution(value, "")?,
            "random_salt" => inherited.random_salt = value.as_str().unwrap_or("").to_string(),
            "retries" => inherited.retries = value.as_u64().unwrap_or(1).max(1) as u32,
            "generators" => p.generators(value)?,
            "version" | "parallel" | "data" | "gitignore_generated" => {}
            other => return Err(p.err("", &format!("unknown key {other:?} at the top level"))),
        }
    }
    p.numbered_total = count_numbered(map.get("data"));
    if let Some(data) = map.get("data") {
        p.children(Path::new(""), data, &inherited, true)?;
    }
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
                    total += count_of(value);
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
        Yaml::Mapping(m) => ["generate", "copy", "count", "retries"]
            .iter()
            .chain(TEXT_EXTENSIONS.iter())
            .any(|k| m.contains_key(*k)),
        _ => false,
    }
}

fn count_of(value: &Yaml) -> usize {
    match value.get("count") {
        Some(Yaml::Number(n)) => n.as_u64().unwrap_or(1).clamp(1, 1000) as usize,
        Some(Yaml::Sequence(list)) => list.len().max(1),
        _ => 1,
    }
}

impl Parser<'_> {
    fn err(&self, at: &str, what: &str) -> String {
        if at.is_empty() {
            format!("{}: {what}", self.file.display())
        } else {
            format!("{}: data/{at}: {what}", self.file.display())
        }
    }

    fn solution(&self, value: &Yaml, at: &str) -> Result<Option<PathBuf>, String> {
        match value {
            Yaml::Null => Ok(None),
            Yaml::String(s) => {
                let s = s.trim();
                let Some(rel) = s.strip_prefix('/') else {
                    return Err(self.err(
                        at,
                        &format!(
                            "solution {s:?}: must be a path from the problem root, starting with /"
                        ),
                    ));
                };
                Ok(Some(PathBuf::from(
                    rel.split_whitespace().next().unwrap_or(rel),
                )))
            }
            _ => Err(self.err(at, "solution: expected a path")),
        }
    }

    fn generators(&mut self, value: &Yaml) -> Result<(), String> {
        let Yaml::Mapping(map) = value else {
            return Err(self.err("", "generators: expected a map from names to their files"));
        };
        for (name, files) in map {
            let name = name.as_str().unwrap_or("").to_string();
            let Yaml::Sequence(list) = files else {
                return Err(self.err("", &format!("generators.{name}: expected a list of files")));
            };
            if list.is_empty() {
                return Err(self.err("", &format!("generators.{name}: no files")));
            }
            let files = list
                .iter()
                .map(|f| f.as_str().map(|f| PathBuf::from("generators").join(f)))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| self.err("", &format!("generators.{name}: files are strings")))?;
            self.plan.generators.insert(name, files);
        }
        Ok(())
    }

    /// The children of a directory's `data` (a map, or a numbered list).
    fn children(
        &mut self,
        dir: &Path,
        data: &Yaml,
        inherited: &Inherited,
        at_root: bool,
    ) -> Result<(), String> {
        let (items, numbered): (Vec<&Yaml>, bool) = match data {
            Yaml::Null => return Ok(()),
            Yaml::Sequence(list) => (list.iter().collect(), true),
            Yaml::Mapping(_) => (vec![data], false),
            _ => {
                return Err(self.err(&dir.display().to_string(), "data: expected a map or a list"));
            }
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
                return Err(self.err(&dir.display().to_string(), "data: list items are maps"));
            };
            let mut keys: Vec<(&str, &Yaml)> = map
                .iter()
                .map(|(k, v)| (k.as_str().unwrap_or(""), v))
                .collect();
            const ORDER: [&str; 6] = [
                "sample",
                "secret",
                "invalid_output",
                "invalid_answer",
                "invalid_input",
                "valid_output",
            ];
            if at_root {
                keys.sort_by_key(|(k, _)| {
                    (
                        ORDER.iter().position(|o| o == k).unwrap_or(999),
                        k.to_string(),
                    )
                });
            } else {
                keys.sort_by_key(|(k, _)| k.to_string());
            }
            for (key, value) in keys {
                if is_case(value) {
                    if at_root {
                        return Err(self.err(key, "a case must be inside a directory"));
                    }
                    self.case(dir, key, value, inherited, numbered)?;
                } else {
                    let name = if numbered {
                        group_number += 1;
                        numbered_name(key, group_number, groups_here)
                    } else {
                        key.to_string()
                    };
                    if name.is_empty() {
                        return Err(
                            self.err(&dir.display().to_string(), "a directory needs a name")
                        );
                    }
                    self.directory(&dir.join(&name), value, inherited)?;
                }
            }
        }
        Ok(())
    }

    fn directory(&mut self, dir: &Path, value: &Yaml, parent: &Inherited) -> Result<(), String> {
        let at = dir.display().to_string();
        let Yaml::Mapping(map) = value else {
            return Err(self.err(&at, "expected a case or a directory"));
        };
        let mut inherited = parent.clone();
        for (key, v) in map {
            let key = key.as_str().unwrap_or("");
            match key {
                "solution" => inherited.solution = self.solution(v, &at)?,
                "random_salt" => inherited.random_salt = v.as_str().unwrap_or("").to_string(),
                "retries" => inherited.retries = v.as_u64().unwrap_or(1).max(1) as u32,
                "testdata.yaml" | "test_group.yaml" => {
                    let text = match v {
                        Yaml::Null => String::new(),
                        other => serde_norway::to_string(other).unwrap_or_default(),
                    };
                    self.plan.group_files.push((dir.join(key), text));
                }
                "include" => self.plan.warnings.push(self.err(
                    &at,
                    "include: not supported yet (cases included from elsewhere are not made)",
                )),
                "data" | "type" => {}
                other => return Err(self.err(&at, &format!("unknown directory key {other:?}"))),
            }
        }
        if let Some(data) = map.get("data") {
            self.children(dir, data, &inherited, false)?;
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
    ) -> Result<(), String> {
        let at = dir.join(key).display().to_string();
        let map = match value {
            Yaml::Null => {
                return Err(self.err(
                    &at,
                    "an empty case (a case must be generated, copied or given)",
                ));
            }
            Yaml::String(command) => {
                let mut m = serde_norway::Mapping::new();
                m.insert(Yaml::from("generate"), Yaml::from(command.clone()));
                m
            }
            Yaml::Mapping(m) => m.clone(),
            _ => return Err(self.err(&at, "expected a command or a map")),
        };
        let mut inherited = parent.clone();
        let mut inline = BTreeMap::new();
        for (k, v) in &map {
            let k = k.as_str().unwrap_or("");
            match k {
                "solution" => inherited.solution = self.solution(v, &at)?,
                "random_salt" => inherited.random_salt = v.as_str().unwrap_or("").to_string(),
                "retries" => inherited.retries = v.as_u64().unwrap_or(1).max(1) as u32,
                "generate" | "copy" | "count" | "type" => {}
                ext if TEXT_EXTENSIONS.contains(&ext) => {
                    let mut text = v
                        .as_str()
                        .ok_or_else(|| self.err(&at, &format!("{ext}: expected text")))?
                        .to_string();
                    if !text.is_empty() && !text.ends_with('\n') {
                        text.push('\n');
                    }
                    inline.insert(ext.to_string(), text);
                }
                "data" | "testdata.yaml" | "test_group.yaml" | "include" => {
                    return Err(self.err(&at, &format!("a case must not have the key {k:?}")));
                }
                other => return Err(self.err(&at, &format!("unknown case key {other:?}"))),
            }
        }
        let count_values: Vec<String> = match map.get("count") {
            None => vec![String::new()],
            Some(Yaml::Number(n)) => {
                let n = n.as_u64().unwrap_or(1).clamp(1, 1000);
                (1..=n).map(|i| i.to_string()).collect()
            }
            Some(Yaml::Sequence(list)) => list
                .iter()
                .map(|v| match v {
                    Yaml::Number(n) => Ok(n.to_string()),
                    Yaml::String(s) => Ok(s.clone()),
                    _ => Err(self.err(&at, "count: list items are numbers or words")),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(self.err(&at, "count: expected a number or a list")),
        };
        let has_count = map.contains_key("count");
        let width = count_values.len().to_string().len();
        for (index, count) in count_values.iter().enumerate() {
            let mut name = if numbered {
                self.numbered += 1;
                numbered_name(key, self.numbered, self.numbered_total)
            } else {
                key.to_string()
            };
            if has_count {
                name = format!("{name}-{:0width$}", index + 1);
            }
            let name = name.strip_suffix(".in").unwrap_or(&name).to_string();
            let source = if let Some(command) = map.get("generate").and_then(|g| g.as_str()) {
                let command = if has_count {
                    command.replace("{count}", count)
                } else {
                    command.to_string()
                };
                self.generate(&command, &inherited.random_salt, index, &at)?
            } else if let Some(copy) = map.get("copy").and_then(|c| c.as_str()) {
                CaseSource::Copy(PathBuf::from("generators").join(copy.trim_end_matches(".in")))
            } else if inline.contains_key("in") {
                CaseSource::Inline
            } else {
                return Err(self.err(&at, "a case needs generate, copy or in"));
            };
            self.plan.cases.push(GenCase {
                path: dir.join(&name),
                source,
                solution: inherited.solution.clone(),
                inline: inline.clone(),
                retries: inherited.retries,
            });
        }
        Ok(())
    }

    fn generate(
        &self,
        command: &str,
        salt: &str,
        index: usize,
        at: &str,
    ) -> Result<CaseSource, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let Some((program, args)) = words.split_first() else {
            return Err(self.err(at, "generate: an empty command"));
        };
        let seeds = args
            .iter()
            .filter(|a| seed_placeholder(a).is_some())
            .count();
        if seeds > 1 {
            return Err(self.err(at, "generate: {seed} may appear at most once"));
        }
        let seed = seed(salt, index, command);
        let program = match program.strip_prefix('/') {
            Some(from_root) => PathBuf::from(from_root),
            None => PathBuf::from("generators").join(program),
        };
        let template: Vec<String> = args
            .iter()
            .map(|a| a.replace("{name}", "testcase"))
            .collect();
        Ok(CaseSource::Generate {
            program,
            args: args_with_seed(&template, seed),
            seed,
            command: command.trim().to_string(),
            template,
        })
    }
}

/// A generator's arguments with `{seed}` / `{seed:N}` filled in.
pub fn args_with_seed(template: &[String], seed: u32) -> Vec<String> {
    template
        .iter()
        .map(|a| match seed_placeholder(a) {
            Some(p) => a.replace(&p, &seed.to_string()),
            None => a.clone(),
        })
        .collect()
}

/// The `{seed}` or `{seed:N}` in a word, if any.
fn seed_placeholder(word: &str) -> Option<String> {
    let start = word.find("{seed")?;
    let end = start + word[start..].find('}')?;
    let inner = &word[start + 5..end];
    (inner.is_empty()
        || inner
            .strip_prefix(':')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())))
    .then(|| word[start..=end].to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> Result<GenPlan, String> {
        let yaml: Yaml = serde_norway::from_str(text).unwrap();
        parse(Path::new("p"), Path::new("generators.yaml"), &yaml)
    }

    fn paths(p: &GenPlan) -> Vec<String> {
        p.cases
            .iter()
            .map(|c| c.path.display().to_string())
            .collect()
    }

    #[test]
    fn seeds_are_the_low_bits_of_sha512() {
        // int(sha512(b"gen.py 5").hexdigest(), 16) % 2**31, computed apart.
        let digest = Sha512::digest(b"gen.py 5");
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let low = u32::from_str_radix(&hex[120..], 16).unwrap() & 0x7fff_ffff;
        assert_eq!(seed("", 0, "  gen.py 5 "), low);
        assert_ne!(seed("salt", 0, "gen.py 5"), low);
        assert_ne!(seed("", 1, "gen.py 5"), low);
    }

    #[test]
    fn names_counts_lists_and_order() {
        let p = plan(
            "solution: /submissions/accepted/sol.py\ndata:\n  secret:\n    data:\n      - small: gen.py {seed} 10\n      - big:\n          generate: gen.py {seed} {count}\n          count: 3\n      - '': {in: \"5\"}\n  sample:\n    data:\n      b: {copy: manual/b}\n      a: {in: '1', ans: '1'}\n",
        )
        .unwrap();
        assert_eq!(
            paths(&p),
            [
                "sample/a",
                "sample/b",
                "secret/1-small",
                "secret/2-big-1",
                "secret/3-big-2",
                "secret/4-big-3",
                "secret/5"
            ]
        );
        let CaseSource::Generate { args, seed: s, .. } = &p.cases[4].source else {
            panic!()
        };
        assert_eq!(args[1], "2", "{{count}} of the second copy");
        assert_eq!(*s, seed("", 1, "gen.py {seed} 2"));
        assert_eq!(args[0], s.to_string());
        assert_eq!(p.cases[0].inline["ans"], "1\n");
        assert_eq!(
            p.cases[0].solution,
            Some(PathBuf::from("submissions/accepted/sol.py"))
        );
    }

    #[test]
    fn unknown_keys_and_bad_shapes_are_errors_naming_them() {
        let e = plan(
            "data:\n  secret:\n    data:\n      a:\n        generate: g.py\n        sede: 3\n",
        )
        .unwrap_err();
        assert!(
            e.contains("data/secret/a: unknown case key \"sede\""),
            "{e}"
        );
        let e = plan("datta: {}\n").unwrap_err();
        assert!(e.contains("unknown key \"datta\""), "{e}");
        let e = plan("data:\n  secret:\n    data:\n      a: g.py {seed} {seed:2}\n").unwrap_err();
        assert!(e.contains("{seed} may appear at most once"), "{e}");
        let e = plan("data:\n  secret:\n    solution: sol.py\n").unwrap_err();
        assert!(e.contains("must be a path from the problem root"), "{e}");
        let e = plan("data:\n  a: g.py\n").unwrap_err();
        assert!(e.contains("a case must be inside a directory"), "{e}");
    }
}
