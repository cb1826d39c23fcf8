//! How BAPCtools names and counts cases: which values are cases, the
//! `count` values, the numbering of list items, valid names.

use super::{TEXT_EXTENSIONS, Yaml};
use std::collections::HashSet;
use std::path::Path;

/// Cases in list-form `data` anywhere in the file (they are numbered
/// together).
pub(super) fn count_numbered(data: Option<&Yaml>) -> usize {
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

/// Whether a value is a case (not a directory): an empty entry, a
/// command, or a map with a key only a case has. `input` is the old name
/// of `generate` (BAPCtools' `is_testcase` before 2023 tested it).
pub(super) fn is_case(value: &Yaml) -> bool {
    match value {
        Yaml::Null | Yaml::String(_) => true,
        Yaml::Mapping(m) => ["generate", "copy", "count", "match", "input"]
            .iter()
            .chain(TEXT_EXTENSIONS.iter())
            .any(|k| m.contains_key(*k)),
        _ => false,
    }
}

/// The old names of the top directories, and their names now.
pub(super) const DEPRECATED_ROOT_DIRECTORIES: [(&str, &str); 4] = [
    ("invalid_inputs", "invalid_input"),
    ("invalid_answers", "invalid_answer"),
    ("invalid_outputs", "invalid_output"),
    ("valid_outputs", "valid_output"),
];

/// A case's `count` values: `[1]` without one; `N` (1 to 100) is 1…N, a
/// list its values (distinct integers), `"A..=B"` A…B (at most 100).
pub(super) fn count_values(value: &Yaml) -> Result<Vec<i64>, CountError> {
    let wrong = |message: String| CountError { message };
    let values: Vec<i64> = match value.get("count") {
        None => return Ok(vec![1]),
        Some(Yaml::Number(n)) => match n.as_i64() {
            Some(n) if (1..=100).contains(&n) => (1..=n).collect(),
            _ => return Err(wrong(format!("count {n}: must be between 1 and 100"))),
        },
        Some(Yaml::Sequence(list)) => {
            let mut seen = HashSet::new();
            let mut values = Vec::new();
            if list.len() > 100 {
                return Err(wrong(format!(
                    "count: {} values; between 1 and 100 are allowed",
                    list.len()
                )));
            }
            for item in list {
                let v = item.as_i64().ok_or_else(|| {
                    wrong(format!("count: found {item:?} but expected an integer"))
                })?;
                if !seen.insert(v) {
                    return Err(wrong(format!("count: the value {v} is there twice")));
                }
                values.push(v);
            }
            values
        }
        Some(Yaml::String(s)) => {
            let (lo, hi) = s
                .split_once("..=")
                .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
                .ok_or_else(|| wrong(format!("count {s:?}: expected a range like '-4..=5'")))?;
            if lo > hi {
                return Err(wrong(format!("count {s:?}: the range is empty")));
            }
            // Counted before it is made: `i64::MIN..=i64::MAX` would not fit
            // in memory.
            if hi.checked_sub(lo).is_none_or(|span| span >= 100) {
                return Err(wrong(format!(
                    "count {s:?}: out of range (expected between 1 and 100 values)"
                )));
            }
            (lo..=hi).collect()
        }
        Some(other) => {
            return Err(wrong(format!(
                "count {other:?}: expected a number, a list or a range A..=B"
            )));
        }
    };
    if values.is_empty() || values.len() > 100 {
        return Err(wrong(format!(
            "count: {} values; between 1 and 100 are allowed",
            values.len()
        )));
    }
    Ok(values)
}

/// A case's `count` that is not a number, a list or a range of 1 to 100
/// values: what is wrong, naming the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(super) struct CountError {
    pub message: String,
}

/// Whether a name is a valid case or group name (BAPCtools' file name
/// rule: a letter, digit or `_`, then letters, digits, `_`, `.`, `-`).
pub(super) fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && name.len() <= 255
}

/// Whether `text`, a path generators.yaml gives from `base` (the
/// generators directory, from the package root; `""` for the root),
/// stays inside the package when read as written: not absolute, and no
/// `..` that climbs above the root (or above `base` when `base` is itself
/// absolute, a judge.toml's generators.yaml outside its directory). Where
/// it leads once symbolic links are followed is checked when it is read.
pub(super) fn stays_inside(base: &Path, text: &str) -> bool {
    use std::path::Component;
    let path = Path::new(text);
    if text.is_empty() || path.has_root() {
        return false;
    }
    let floor = if base.has_root() {
        base.components().count()
    } else {
        0
    };
    let mut depth: Vec<Component<'_>> = base
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if depth.iter().any(|c| matches!(c, Component::ParentDir)) && floor == 0 {
        return false;
    }
    for c in path.components() {
        match c {
            Component::Normal(_) => depth.push(c),
            Component::CurDir => {}
            Component::ParentDir if depth.len() > floor => {
                depth.pop();
            }
            _ => return false,
        }
    }
    true
}

/// `NN-key` (or `NN`) numbered among `total`, zero-padded to its width.
pub(super) fn numbered_name(key: &str, number: usize, total: usize) -> String {
    let width = total.max(1).to_string().len();
    if key.is_empty() {
        format!("{number:0width$}")
    } else {
        format!("{number:0width$}-{key}")
    }
}
