//! The older forms of generators.yaml, read as the BAPCtools that wrote
//! them read them (its `generate.py` of 2020–2023 and its `doc/generators.md`
//! of then; `bt upgrade` rewrites most of them today), each with a warning
//! naming the file, the line, the entry and the form:
//!
//! - an empty entry (`name:`): "a manual case [that] must not be modified or
//!   deleted by generator tooling. The corresponding `.in` file must be
//!   present in the `data/` directory"; its `.ans` "may be present, but may
//!   also be generated from a given solution". BAPCtools since 2023 refuses
//!   the entry ("Empty yaml entry") and its clean-up then moves those files
//!   to its trash; the judge keeps and uses them;
//! - a command that is a path ending in `.in` (`manual/3.in`): the old form
//!   of `copy: manual/3` (BAPCtools still reads it so, and warns);
//! - `input:` in a case: the old name of `generate:` (before `generate:`
//!   and `copy:`, a case's map was `{type: testcase, input: COMMAND}`);
//!   BAPCtools today reads such a map as a directory and makes nothing;
//! - `type: testcase` / `type: directory`: the old markers, read past
//!   (`bt upgrade` drops them);
//! - `visualizer:` in a directory or a case: the old visualizer, never run
//!   here (BAPCtools: a deprecated key);
//! - `invalid_inputs`, `invalid_answers`, `invalid_outputs`,
//!   `valid_outputs` at the top of `data`: the old names of the directories
//!   (BAPCtools: deprecated, SKIPPED; `bt upgrade` renames them; the
//!   names are `names::DEPRECATED_ROOT_DIRECTORIES`, which the parser reads).

use super::parse::Parser;
use super::{GenError, Yaml};

impl Parser<'_> {
    fn warn(&mut self, at: &str, key: &str, what: &str) {
        let warning = self.err(at, Some(key), what);
        self.plan.warnings.push(warning.to_string());
    }

    /// `name:` with nothing: the case's files are already in `data/`.
    pub(super) fn empty_entry(&mut self, at: &str, key: &str) {
        self.warn(
            at,
            key,
            "an empty entry, BAPCtools' old form of a hand-made case: its files in data/ are used as they are (BAPCtools since 2023 refuses the entry: give it copy:, in: or generate:)",
        );
    }

    /// A command as a case's whole value: a path ending in `.in` (one
    /// word) is the old form of `copy:`, anything else `generate:`.
    pub(super) fn bare_command(
        &mut self,
        command: &str,
        at: &str,
        key: &str,
    ) -> serde_norway::Mapping {
        let mut m = serde_norway::Mapping::new();
        match command.trim().strip_suffix(".in") {
            Some(copy) if !command.trim().contains(char::is_whitespace) => {
                self.warn(
                    at,
                    key,
                    &format!(
                        "{}: the old form of copy: {copy}, read so (BAPCtools warns the same)",
                        command.trim()
                    ),
                );
                m.insert(Yaml::from("copy"), Yaml::from(copy));
            }
            _ => {
                m.insert(Yaml::from("generate"), Yaml::from(command));
            }
        }
        m
    }

    /// A case's map with the old `input:` key read as the command it was.
    pub(super) fn old_input(
        &mut self,
        map: &serde_norway::Mapping,
        at: &str,
    ) -> Result<serde_norway::Mapping, GenError> {
        let mut map = map.clone();
        let Some(input) = map.remove("input") else {
            return Ok(map);
        };
        if map.contains_key("generate") || map.contains_key("copy") {
            self.warn(
                at,
                "input",
                "input: the old name of generate:, ignored beside generate: or copy:",
            );
            return Ok(map);
        }
        let Some(command) = input.as_str().filter(|c| !c.trim().is_empty()) else {
            return Err(self.err(at, Some("input"), "input: expected a command"));
        };
        self.warn(
            at,
            "input",
            "input: the old name of generate: (BAPCtools before 2023), read as generate:",
        );
        let command = command.to_string();
        for (k, v) in self.bare_command(&command, at, "input") {
            map.insert(k, v);
        }
        Ok(map)
    }

    /// `type: testcase` or `type: directory`: the old markers.
    pub(super) fn old_type(&mut self, at: &str, value: &Yaml) {
        let what = match value.as_str() {
            Some(t @ ("testcase" | "directory")) => format!(
                "type: {t}: BAPCtools' old marker of a {}, not needed: read past",
                if t == "testcase" { "case" } else { "directory" }
            ),
            _ => format!("type: {value:?}: not a key of generators.yaml, ignored"),
        };
        self.warn(at, "type", &what);
    }

    /// `visualizer:` below the top: BAPCtools' old visualizer key.
    pub(super) fn old_visualizer(&mut self, at: &str) {
        self.warn(
            at,
            "visualizer",
            "visualizer: BAPCtools' old visualizer key (deprecated), ignored: the judge runs no visualizer",
        );
    }
}
