//! One case of a generators.yaml: its keys, its `count` values and names,
//! and where its input comes from (a generator command with its seed, the
//! built-in puzzle generator, a copy, inline text, or the hand-made files
//! already in `data/`).
//!
//! What is wrong with one case leaves that case out (`GenPlan::skipped`)
//! and the rest of the file is read, as BAPCtools handles a case's
//! `ParseError` ("Rule contained errors. SKIPPED."); only a bad `count`
//! stops the file, as it stops BAPCtools (the cases after it could not be
//! numbered).

use super::builtin::BuiltinGen;
use super::command::{args_with_seed, seed_count, split_words};
use super::names::{count_values, numbered_name, valid_name};
use super::parse::{Inherited, Known, Parser};
use super::{
    CaseSource, GenCase, GenError, LINK_KEYS, SAMPLE_EXTENSIONS, TEXT_EXTENSIONS, Yaml, seed,
};
use std::collections::BTreeMap;
use std::path::Path;

/// A case's entry as read, before its name: its keys, what it inherits,
/// its inline and linked files, whether it is an empty (hand-made) entry.
pub(super) struct Entry {
    map: serde_norway::Mapping,
    inherited: Inherited,
    inline: BTreeMap<String, String>,
    links: BTreeMap<String, String>,
    manual: bool,
}

impl Parser<'_> {
    pub(super) fn case(
        &mut self,
        dir: &Path,
        key: &str,
        value: &Yaml,
        parent: &Inherited,
        numbered: bool,
    ) -> Result<(), GenError> {
        let at = dir.join(key).display().to_string();
        let values =
            count_values(value).map_err(|e| self.err(&at, Some("count"), &e.to_string()))?;
        let has_count = value.as_mapping().is_some_and(|m| m.contains_key("count"));
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
        let entry = self.entry(dir, key, value, parent, &at);
        if key.ends_with(".in") {
            let warning = self.err(
                &at,
                Some(key),
                "a case's name should not end with .in (BAPCtools says so): read without it",
            );
            self.plan.warnings.push(warning.to_string());
        }
        for &count in &values {
            // Numbered whether or not it can be made: the cases after it
            // keep their numbers (BAPCtools numbers every entry).
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
            let path = dir.join(&name);
            let twice = self.paths.insert(path.clone(), path.clone()).is_some();
            self.remember(key, Known::Case(path.clone()));
            let Ok(entry) = &entry else { continue };
            let case = if twice {
                Err(self.err(
                    &at,
                    Some(key),
                    &format!(
                        "data/{} is there twice: the second left out",
                        path.display()
                    ),
                ))
            } else {
                self.one(entry, (dir, key, &name), (count, has_count), &at)
            };
            match case {
                Ok(case) => {
                    self.plan.needs_default_solution |= case.default_solution;
                    self.plan.cases.push(case);
                }
                Err(e) => self.plan.skipped.push(e),
            }
        }
        if let Err(e) = entry {
            self.plan.skipped.push(e);
        }
        Ok(())
    }

    /// One case of an entry (one `count` value), named.
    fn one(
        &mut self,
        entry: &Entry,
        (dir, key, name): (&Path, &str, &str),
        (count, has_count): (i64, bool),
        at: &str,
    ) -> Result<GenCase, GenError> {
        if !valid_name(name) || name == "test_group" {
            return Err(self.err(at, Some(key), &format!("{name:?}: not a valid case name")));
        }
        let source = if entry.manual {
            CaseSource::Manual
        } else {
            self.source(
                &entry.map,
                &entry.inline,
                &entry.links,
                &entry.inherited,
                (count, has_count),
                at,
            )?
        };
        Ok(GenCase {
            path: dir.join(name),
            source,
            solution: entry.inherited.solution.clone(),
            default_solution: entry.inherited.default_solution,
            inline: entry.inline.clone(),
            links: entry.links.clone(),
            retries: entry.inherited.retries,
        })
    }

    /// A case's entry: its value read as a map (an empty entry, a command
    /// and the old `input:` key as BAPCtools read them), then its keys.
    fn entry(
        &mut self,
        dir: &Path,
        key: &str,
        value: &Yaml,
        parent: &Inherited,
        at: &str,
    ) -> Result<Entry, GenError> {
        let mut manual = false;
        let map = match value {
            Yaml::Null => {
                manual = true;
                self.empty_entry(at, key);
                serde_norway::Mapping::new()
            }
            Yaml::String(command) if command.trim().is_empty() => {
                return Err(self.err(at, Some(key), "an empty command"));
            }
            Yaml::String(command) => self.bare_command(command, at, key),
            Yaml::Mapping(m) => self.old_input(m, at)?,
            _ => return Err(self.err(at, Some(key), "expected a command or a map")),
        };
        let mut inherited = parent.clone();
        let mut inline = BTreeMap::new();
        let mut links = BTreeMap::new();
        let sample = dir
            .components()
            .next()
            .is_some_and(|c| c.as_os_str() == "sample");
        for (k, v) in &map {
            let k = k.as_str().unwrap_or("");
            if self.inherit(k, v, at, &mut inherited)? {
                continue;
            }
            match k {
                "generate" | "copy" | "count" => {}
                "type" => self.old_type(at, v),
                "visualizer" => self.old_visualizer(at),
                "match" => {
                    // Not silently: BAPCtools checks the input against these
                    // patterns; the judge does not (yet).
                    let warning = self.err(
                        at,
                        Some("match"),
                        "match: the input is not checked against these patterns",
                    );
                    self.plan.warnings.push(warning.to_string());
                }
                "yaml" => {
                    // A map, or its text (BAPCtools writes either).
                    let text = match v {
                        Yaml::Mapping(_) => serde_norway::to_string(v).unwrap_or_default(),
                        Yaml::String(text) if text.is_empty() || text.ends_with('\n') => {
                            text.clone()
                        }
                        Yaml::String(text) => format!("{text}\n"),
                        _ => return Err(self.err(at, Some(k), "yaml: expected a map or text")),
                    };
                    inline.insert("yaml".to_string(), text);
                }
                ext if SAMPLE_EXTENSIONS.contains(&ext) && !sample => {
                    // BAPCtools refuses the case; the key is said and
                    // ignored here (the rest of the case is made).
                    let warning = self.err(
                        at,
                        Some(k),
                        &format!(
                            "{ext}: only a sample case has a statement or download file, ignored"
                        ),
                    );
                    self.plan.warnings.push(warning.to_string());
                }
                ext if TEXT_EXTENSIONS.contains(&ext) => match v {
                    Yaml::String(text) => {
                        let mut text = text.clone();
                        if !text.is_empty() && !text.ends_with('\n') {
                            text.push('\n');
                        }
                        inline.insert(ext.to_string(), text);
                    }
                    Yaml::Mapping(m) if m.len() == 1 && m.contains_key("link") => {
                        let target = self.link(ext, m.get("link"), at)?;
                        links.insert(ext.to_string(), target);
                    }
                    _ => {
                        return Err(self.err(
                            at,
                            Some(k),
                            &format!(
                                "{ext}: expected text{}",
                                if LINK_KEYS.contains(&ext) {
                                    " or a map with only `link:` (in, ans, in.statement, …)"
                                } else {
                                    ""
                                }
                            ),
                        ));
                    }
                },
                "data" | "testdata.yaml" | "test_group.yaml" | "include" => {
                    // BAPCtools: "key … is reserved. SKIPPED."
                    let warning = self.err(
                        at,
                        Some(k),
                        &format!("{k}: a directory's key in a case, ignored"),
                    );
                    self.plan.warnings.push(warning.to_string());
                }
                // Warned and ignored, as BAPCtools does.
                other => {
                    let warning = self.err(
                        at,
                        Some(other),
                        &format!(
                            "unknown case key {other:?}, ignored (expected generate, copy, count, in, ans, …, solution, random_salt, retries)"
                        ),
                    );
                    self.plan.warnings.push(warning.to_string());
                }
            }
        }
        Ok(Entry {
            map,
            inherited,
            inline,
            links,
            manual,
        })
    }

    fn source(
        &mut self,
        map: &serde_norway::Mapping,
        inline: &BTreeMap<String, String>,
        links: &BTreeMap<String, String>,
        inherited: &Inherited,
        (count, has_count): (i64, bool),
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
                    let warning = self.err(
                        at,
                        Some("generate"),
                        "{count} in the command but no count: left as it is",
                    );
                    self.plan.warnings.push(warning.to_string());
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
            if !super::names::stays_inside(&self.plan.generators_dir, copy) {
                return Err(self.err(
                    at,
                    Some("copy"),
                    &format!(
                        "copy: {}: outside the package (judge gen reads only inside it)",
                        crate::text::whitespace::shown_name(copy)
                    ),
                ));
            }
            let copy = copy.strip_suffix(".in").unwrap_or(copy);
            return Ok(CaseSource::Copy(self.plan.generators_dir.join(copy)));
        }
        // A sample may have only its statement and download inputs
        // (BAPCtools' `required_in`).
        let given = |ext: &str| inline.contains_key(ext) || links.contains_key(ext);
        if given("in") || (given("in.statement") && given("in.download")) {
            return Ok(CaseSource::Inline);
        }
        Err(self.err(
            at,
            None,
            "a case needs generate, copy or in (a sample: or in.statement and in.download)",
        ))
    }

    /// `EXT: {link: TARGET}`: the file is TARGET's (BAPCtools links it);
    /// only the statement and download files link, to a file of their
    /// own kind (an input's to an input).
    fn link(&self, ext: &str, target: Option<&Yaml>, at: &str) -> Result<String, GenError> {
        let bad = |what: String| self.err(at, Some(ext), &format!("{ext}: link: {what}"));
        if !LINK_KEYS.contains(&ext) {
            return Err(bad(format!("only {} may be a link", LINK_KEYS.join(", "))));
        }
        let Some(target) = target.and_then(Yaml::as_str) else {
            return Err(bad(
                "expected the extension of another file of the case".to_string()
            ));
        };
        if !LINK_KEYS.contains(&target) && !["in", "ans"].contains(&target) {
            return Err(bad(format!(
                "{target:?}: expected one of in, ans, {}",
                LINK_KEYS.join(", ")
            )));
        }
        let kind = |e: &str| e.split('.').next().unwrap_or(e).to_string();
        if kind(ext) != kind(target) {
            return Err(bad(format!(
                "{target}: an {} file links only to an {} file",
                kind(ext),
                kind(ext)
            )));
        }
        Ok(target.to_string())
    }

    fn generate(
        &self,
        command: &str,
        salt: &str,
        count: i64,
        at: &str,
    ) -> Result<CaseSource, GenError> {
        let bad = |what: &str| self.err(at, Some("generate"), &format!("generate: {what}"));
        let words = split_words(command).map_err(|e| bad(&e.to_string()))?;
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
            let builtin = BuiltinGen::parse(&filled).map_err(|e| bad(&e.to_string()))?;
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
        if !super::names::stays_inside(&self.plan.generators_dir, program) {
            return Err(bad(&format!(
                "{}: outside the package (judge gen runs only its own programs)",
                crate::text::whitespace::shown_name(program)
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
