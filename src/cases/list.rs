//! A problem's cases, kept compact: a run of a million cases holds each as
//! twelve bytes and its name once, not as three heap strings. A [`Case`]
//! with its paths is made when it is needed (a job launched, a file
//! hidden), then dropped.
//!
//! Each case is its name relative to one of the list's roots (with `/`
//! separators, raw bytes: a name need not be UTF-8), which answer file
//! beside the input it has (`.ans`, `.out` or none) and which group
//! settings apply. Its input is `ROOT/NAME`, its answer the same path with
//! the answer's extension in place of `.in`.

use super::{Case, CaseSettings, DiscoveryError, natural_cmp_bytes};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The answer file beside an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    None = 0,
    /// `NAME.ans`
    Ans = 1,
    /// `NAME.out` (online-judge-tools' and some Kattis data's name)
    Out = 2,
}

impl Answer {
    pub(super) fn extension(self) -> Option<&'static str> {
        match self {
            Answer::None => None,
            Answer::Ans => Some("ans"),
            Answer::Out => Some("out"),
        }
    }

    fn from_bits(bits: u16) -> Answer {
        match bits {
            1 => Answer::Ans,
            2 => Answer::Out,
            _ => Answer::None,
        }
    }
}

/// The longest name a list holds (a path is at most 4,096 bytes on Linux).
const NAME_MAX: usize = (1 << 14) - 1;
const ANSWER_SHIFT: u32 = 14;

/// One case: twelve bytes.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where the name starts in `names`.
    start: u32,
    /// The name's length (low 14 bits) and the [`Answer`] (top 2 bits).
    len_answer: u16,
    /// Index into `roots`.
    root: u16,
    /// 0: the problem's own settings; `i + 1`: `settings[i]`.
    settings: u16,
}

impl Entry {
    fn len(self) -> usize {
        usize::from(self.len_answer) & NAME_MAX
    }

    fn answer(self) -> Answer {
        Answer::from_bits(self.len_answer >> ANSWER_SHIFT)
    }

    fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len()
    }
}

/// A problem's cases in their order (natural order within each cases root
/// or group), compact. Built by discovery; see the module's documentation.
#[derive(Clone, Debug, Default)]
pub struct CaseList {
    roots: Vec<PathBuf>,
    root_index: HashMap<PathBuf, u16>,
    settings: Vec<Arc<CaseSettings>>,
    names: Vec<u8>,
    entries: Vec<Entry>,
    /// Case files that are links checked out as text (see
    /// [`super::text_link`]): the path as listed → the file read in its
    /// place. Empty for nearly every problem.
    links: HashMap<PathBuf, PathBuf>,
}

impl CaseList {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index of `root`, added if new.
    pub(super) fn root(&mut self, root: &Path) -> Result<u16, DiscoveryError> {
        if let Some(&i) = self.root_index.get(root) {
            return Ok(i);
        }
        let i = u16::try_from(self.roots.len()).map_err(|_| {
            DiscoveryError::TooMany(format!(
                "{}: more than {} case directories in one problem's selection",
                root.display(),
                u16::MAX
            ))
        })?;
        self.roots.push(root.to_path_buf());
        self.root_index.insert(root.to_path_buf(), i);
        Ok(i)
    }

    /// Add a case named `name` under root `root` (from [`CaseList::root`]).
    pub(super) fn push(
        &mut self,
        root: u16,
        name: &[u8],
        answer: Answer,
    ) -> Result<(), DiscoveryError> {
        let too_many = |what: &str| {
            DiscoveryError::TooMany(format!(
                "{}: {what}",
                String::from_utf8_lossy(name).into_owned()
            ))
        };
        if name.len() > NAME_MAX {
            return Err(too_many("a case name longer than 16,383 bytes"));
        }
        let start = u32::try_from(self.names.len())
            .map_err(|_| too_many("the case names total more than 4 GiB"))?;
        if answer != Answer::None && !name.ends_with(b".in") {
            return Err(too_many(
                "an answer file for a name that does not end in .in",
            ));
        }
        self.names.extend_from_slice(name);
        self.entries.push(Entry {
            start,
            len_answer: name.len() as u16 | (answer as u16) << ANSWER_SHIFT,
            root,
            settings: 0,
        });
        Ok(())
    }

    fn name_bytes(&self, entry: Entry) -> &[u8] {
        &self.names[entry.range()]
    }

    /// The path of root `i`.
    pub(super) fn root_path(&self, i: u16) -> &Path {
        &self.roots[usize::from(i)]
    }

    /// Read `target` where the list names `listed` (a case file that is a
    /// link checked out as text).
    pub(super) fn link(&mut self, listed: PathBuf, target: PathBuf) {
        self.links.insert(listed, target);
    }

    /// Sort the cases from `from` on in natural order of their names.
    pub(super) fn sort_from(&mut self, from: usize) {
        let names = &self.names;
        self.entries[from..]
            .sort_unstable_by(|a, b| natural_cmp_bytes(&names[a.range()], &names[b.range()]));
    }

    /// The case at `index`, with its paths made.
    pub fn get(&self, index: usize) -> Option<Case> {
        self.entries.get(index).map(|&entry| self.make(entry))
    }

    fn make(&self, entry: Entry) -> Case {
        let name = self.name_bytes(entry);
        let input = self.roots[usize::from(entry.root)].join(OsStr::from_bytes(name));
        let answer = entry.answer().extension().map(|ext| {
            let mut path = input.clone();
            path.set_extension(ext);
            path
        });
        let followed = |path: PathBuf| match self.links.get(&path) {
            Some(target) => target.clone(),
            None => path,
        };
        Case {
            name: String::from_utf8_lossy(name).into_owned(),
            input: followed(input),
            answer: answer.map(followed),
            settings: match entry.settings {
                0 => None,
                i => self.settings.get(usize::from(i) - 1).cloned(),
            },
        }
    }

    /// The name of the case at `index` (lossy UTF-8), without making paths.
    pub fn name(&self, index: usize) -> Option<std::borrow::Cow<'_, str>> {
        let entry = *self.entries.get(index)?;
        Some(String::from_utf8_lossy(self.name_bytes(entry)))
    }

    /// Every case in order, each made as it is reached.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Case> + '_ {
        self.entries.iter().map(|&entry| self.make(entry))
    }

    /// Every case, made at once (for commands that look at each case
    /// several times: verify, limits, validate).
    pub fn to_vec(&self) -> Vec<Case> {
        self.iter().collect()
    }

    /// Keep the cases whose name `keep` says yes to (no path is made).
    pub fn retain_names(&mut self, mut keep: impl FnMut(&str) -> bool) {
        let names = &self.names;
        self.entries
            .retain(|e| keep(&String::from_utf8_lossy(&names[e.range()])));
    }

    /// Keep the cases whose input `keep` says yes to.
    pub fn retain_inputs(&mut self, mut keep: impl FnMut(&Path) -> bool) {
        let (names, roots) = (&self.names, &self.roots);
        self.entries.retain(|e| {
            keep(&roots[usize::from(e.root)].join(OsStr::from_bytes(&names[e.range()])))
        });
    }

    /// Give each case the settings `settings_for` finds for its input (a
    /// package's group settings). Asked once a directory, or once a case
    /// when `per_case` (a case may have settings of its own).
    pub fn assign_settings(
        &mut self,
        per_case: bool,
        mut settings_for: impl FnMut(&Path) -> Option<Arc<CaseSettings>>,
    ) -> Result<(), DiscoveryError> {
        let mut by_dir: HashMap<(u16, Vec<u8>), u16> = HashMap::new();
        for i in 0..self.entries.len() {
            let entry = self.entries[i];
            let name = self.name_bytes(entry);
            let dir = name
                .iter()
                .rposition(|&b| b == b'/')
                .map_or(&name[..0], |slash| &name[..slash]);
            // Asked once a directory, unless a case may have its own.
            let key = (entry.root, if per_case { name } else { dir }.to_vec());
            let slot = match by_dir.get(&key) {
                Some(&slot) => slot,
                None => {
                    let input = self.roots[usize::from(entry.root)].join(OsStr::from_bytes(name));
                    let slot = match settings_for(&input) {
                        None => 0,
                        Some(found) => self.settings_slot(found)?,
                    };
                    by_dir.insert(key, slot);
                    slot
                }
            };
            self.entries[i].settings = slot;
        }
        Ok(())
    }

    fn settings_slot(&mut self, found: Arc<CaseSettings>) -> Result<u16, DiscoveryError> {
        if let Some(i) = self.settings.iter().position(|s| Arc::ptr_eq(s, &found)) {
            return Ok(i as u16 + 1);
        }
        let slot = u16::try_from(self.settings.len() + 1)
            .ok()
            .filter(|&s| s < u16::MAX)
            .ok_or_else(|| {
                DiscoveryError::TooMany(format!(
                    "{}: more than {} groups with their own settings",
                    found.origin,
                    u16::MAX - 1
                ))
            })?;
        self.settings.push(found);
        Ok(slot)
    }

    /// Add `other`'s cases (the same problem named twice on the command
    /// line): the union, in natural order of names, each case once.
    pub fn merge(&mut self, other: CaseList) -> Result<(), DiscoveryError> {
        self.links.extend(other.links.clone());
        for entry in &other.entries {
            let root = self.root(&other.roots[usize::from(entry.root)])?;
            let settings = match entry.settings {
                0 => 0,
                i => self.settings_slot(Arc::clone(&other.settings[usize::from(i) - 1]))?,
            };
            self.push(root, &other.names[entry.range()], entry.answer())?;
            if let Some(last) = self.entries.last_mut() {
                last.settings = settings;
            }
        }
        let names = &self.names;
        self.entries.sort_by(|a, b| {
            natural_cmp_bytes(&names[a.range()], &names[b.range()]).then(a.root.cmp(&b.root))
        });
        self.entries
            .dedup_by(|a, b| a.root == b.root && names[a.range()] == names[b.range()]);
        Ok(())
    }

    /// Give back what growing left unused (a vector that doubled holds up
    /// to twice its cases).
    pub(super) fn shrink(&mut self) {
        self.names.shrink_to_fit();
        self.entries.shrink_to_fit();
    }

    /// The bytes the list holds, for the memory budget's tests.
    pub fn heap_bytes(&self) -> usize {
        self.names.capacity() + self.entries.capacity() * std::mem::size_of::<Entry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[(&str, Answer)]) -> CaseList {
        let mut list = CaseList::default();
        let root = list.root(Path::new("cases/p")).unwrap();
        for (name, answer) in names {
            list.push(root, name.as_bytes(), *answer).unwrap();
        }
        list.sort_from(0);
        list
    }

    #[test]
    fn an_entry_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 12);
    }

    #[test]
    fn cases_are_made_with_their_paths_in_natural_order() {
        let l = list(&[
            ("10.in", Answer::Ans),
            ("2.in", Answer::Out),
            ("sub/1.in", Answer::None),
        ]);
        let cases = l.to_vec();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["2.in", "10.in", "sub/1.in"]);
        assert_eq!(cases[0].input, Path::new("cases/p/2.in"));
        assert_eq!(cases[0].answer.as_deref(), Some(Path::new("cases/p/2.out")));
        assert_eq!(
            cases[1].answer.as_deref(),
            Some(Path::new("cases/p/10.ans"))
        );
        assert_eq!(cases[2].input, Path::new("cases/p/sub/1.in"));
        assert!(cases[2].answer.is_none());
        assert_eq!(l.name(1).as_deref(), Some("10.in"));
        assert!(l.get(3).is_none());
    }

    #[test]
    fn merging_keeps_each_case_once_in_order() {
        let mut a = list(&[("1.in", Answer::Ans), ("3.in", Answer::Ans)]);
        let b = list(&[("3.in", Answer::Ans), ("2.in", Answer::Ans)]);
        a.merge(b).unwrap();
        let names: Vec<String> = a.iter().map(|c| c.name).collect();
        assert_eq!(names, ["1.in", "2.in", "3.in"]);
    }

    #[test]
    fn settings_are_asked_once_a_directory() {
        let mut l = list(&[
            ("a/1.in", Answer::Ans),
            ("a/2.in", Answer::Ans),
            ("b/1.in", Answer::Ans),
        ]);
        let group = Arc::new(CaseSettings {
            comparison: None,
            strict: Some(true),
            validators: None,
            output_args: None,
            args: None,
            validator_args: None,
            origin: "a/group settings".to_string(),
        });
        let mut asked = Vec::new();
        l.assign_settings(false, |input| {
            asked.push(input.to_path_buf());
            input.starts_with("cases/p/a").then(|| Arc::clone(&group))
        })
        .unwrap();
        assert_eq!(asked.len(), 2, "{asked:?}");
        let cases = l.to_vec();
        assert!(
            cases[0]
                .settings
                .as_ref()
                .is_some_and(|s| Arc::ptr_eq(s, &group))
        );
        assert!(cases[1].settings.is_some());
        assert!(cases[2].settings.is_none());
    }

    #[test]
    fn retain_sees_names_and_inputs() {
        let cases = [("1.in", Answer::Ans), ("x/2.in", Answer::Ans)];
        let mut l = list(&cases);
        l.retain_names(|name| name.starts_with("x/"));
        assert_eq!(l.len(), 1);
        assert_eq!(l.name(0).as_deref(), Some("x/2.in"));
        // Each on a list of its own: the input is the path made from the root.
        let mut l = list(&cases);
        l.retain_inputs(|input| input.ends_with("1.in"));
        assert_eq!(l.len(), 1);
        assert_eq!(l.name(0).as_deref(), Some("1.in"));
    }

    #[test]
    fn an_answer_needs_an_input_named_dot_in() {
        let mut l = CaseList::default();
        let root = l.root(Path::new(".")).unwrap();
        assert!(l.push(root, b"x.txt", Answer::Ans).is_err());
        assert!(l.push(root, b"x.txt", Answer::None).is_ok());
    }
}
