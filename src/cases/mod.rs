//! Finding cases on disk: walk a cases root, pair `NAME.in` with `NAME.ans`
//! (or `NAME.out`, as online-judge-tools and Kattis data name answers), sort
//! naturally (`2.in` before `10.in`), filter by glob, and split into shards.
//!
//! Orphans are warnings: an answer with no input is ignored, an input with
//! no answer is still a case (a puzzle checker needs no answer; a text
//! comparison then gives IE "no answer file"). Symbolic-link loops and
//! unreadable files are errors naming the path. This module reads names and
//! permissions, and never the contents of a case beyond the first 1 KiB
//! of a file with no newline that may be a link checked out as text
//! ([`text_link`], inside a package only).
//!
//! `discover.rs` walks, `list.rs` keeps what it found compactly (a
//! [`CaseList`]); a [`Case`] with its paths is made from the list when a
//! command needs one.

mod discover;
mod list;
pub mod text_link;

pub use discover::{PackageOf, discover, discover_groups};
pub use list::CaseList;

use crate::check::Comparison;
use crate::check::external::InputValidator;
use std::cmp::Ordering;
use std::path::PathBuf;
use std::sync::Arc;

/// One case: an input file and, usually, its answer file.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The input's path relative to the cases root, with `/` separators
    /// (`sample.in`, `big/10.in`); for a root that is a single file, its
    /// file name.
    pub name: String,
    pub input: PathBuf,
    pub answer: Option<PathBuf>,
    /// What the case's group changes (a package's testdata.yaml); `None`:
    /// the problem's own settings.
    pub settings: Option<Arc<CaseSettings>>,
}

impl Case {
    pub fn new(name: String, input: PathBuf, answer: Option<PathBuf>) -> Case {
        Case {
            name,
            input,
            answer,
            settings: None,
        }
    }
}

/// How a group (a package's `testdata.yaml` / `test_group.yaml`) judges
/// and validates its cases, where it differs from the problem.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseSettings {
    /// The comparison with the group's output validator arguments.
    pub comparison: Option<Comparison>,
    /// White-space differences are PE (`space_change_sensitive`).
    pub strict: Option<bool>,
    /// The input validators with the group's `input_validator_args`.
    pub validators: Option<Vec<InputValidator>>,
    /// Arguments every input validator gets after those: the cases'
    /// `args` (2025-09), when the validators are the package's own.
    pub validator_args: Option<Vec<String>>,
    /// The group's `output_validator_args` as written (answer validators
    /// get them after the input's path).
    pub output_args: Option<Vec<String>>,
    /// The submission's command-line arguments (2025-09 `args`), after
    /// its own.
    pub args: Option<Vec<String>>,
    /// The settings files, for messages.
    pub origin: String,
}

impl CaseSettings {
    /// The input validators of a case with these settings (`None`: its
    /// problem's `default`), each with the cases' `args` after its own
    /// arguments (2025-09: "the `input_validator_args` followed by the
    /// `args` of the testcase being validated").
    pub fn input_validators<'a>(
        settings: Option<&'a CaseSettings>,
        default: &'a [InputValidator],
    ) -> std::borrow::Cow<'a, [InputValidator]> {
        let validators = settings
            .and_then(|s| s.validators.as_deref())
            .unwrap_or(default);
        match settings.and_then(|s| s.validator_args.as_deref()) {
            Some(args) if !args.is_empty() => validators
                .iter()
                .map(|v| {
                    let mut v = v.clone();
                    v.flags.extend(args.iter().cloned());
                    v
                })
                .collect(),
            _ => std::borrow::Cow::Borrowed(validators),
        }
    }
}

/// The result of walking one cases root.
#[derive(Debug, Default)]
pub struct Discovery {
    /// In natural order of their names (within each group).
    pub cases: CaseList,
    pub warnings: Vec<String>,
}

/// Why a cases root could not be walked.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    /// The root itself does not exist.
    #[error("{}: not found", .0.display())]
    RootMissing(PathBuf),
    /// Files or directories that could not be read, each with its reason.
    #[error("{}", .0.join("\n"))]
    Unreadable(Vec<String>),
    /// A package's data directory holds none of its case groups.
    #[error("{}: no case directory ({})", .root.display(), .groups.iter().map(|g| format!("{g}/")).collect::<Vec<_>>().join(", "))]
    NoGroup { root: PathBuf, groups: Vec<String> },
    /// Beyond what a case list holds (see `list.rs`).
    #[error("{0}")]
    TooMany(String),
}

/// Natural order: runs of digits compare as numbers (`2` < `10`), the rest
/// byte by byte; ties (`01` vs `1`) are broken by the plain text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    natural_cmp_bytes(a.as_bytes(), b.as_bytes())
}

/// [`natural_cmp`] of names that need not be UTF-8.
pub fn natural_cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let (n, rest_x) = split_digits(x);
                let (m, rest_y) = split_digits(y);
                let (n_trim, m_trim) = (trim_zeros(n), trim_zeros(m));
                let order = n_trim
                    .len()
                    .cmp(&m_trim.len())
                    .then_with(|| n_trim.cmp(m_trim));
                if order != Ordering::Equal {
                    return order;
                }
                x = rest_x;
                y = rest_y;
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let n = s.iter().take_while(|b| b.is_ascii_digit()).count();
    s.split_at(n)
}

fn trim_zeros(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&b| b == b'0').count();
    &s[n.min(s.len().saturating_sub(1))..]
}

/// `--filter GLOB`: a case is kept when the glob matches its name with or
/// without the `.in`, alone or after `PROBLEM/`.
#[derive(Clone, Debug)]
pub struct Filter(globset::GlobMatcher);

impl Filter {
    pub fn new(glob: &str) -> Result<Filter, SelectionError> {
        crate::text::glob::compile(glob, false)
            .map(|g| Filter(g.compile_matcher()))
            .map_err(|reason| SelectionError::Filter {
                glob: glob.to_string(),
                reason,
            })
    }

    pub fn keeps(&self, problem: &str, case: &str) -> bool {
        let stem = case.strip_suffix(".in").unwrap_or(case);
        [
            case.to_string(),
            stem.to_string(),
            format!("{problem}/{case}"),
            format!("{problem}/{stem}"),
        ]
        .iter()
        .any(|c| self.0.is_match(c))
    }
}

/// `--partition count:K/N` or `hash:K/N` (K from 1), as cargo-nextest:
/// `count` deals cases round-robin in order, `hash` by a stable hash of
/// `problem/case`, so a case stays in its shard when others are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partition {
    Count { shard: u64, total: u64 },
    Hash { shard: u64, total: u64 },
}

/// A `--filter` or `--partition` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("--filter {glob:?}: {reason}")]
    Filter {
        glob: String,
        reason: crate::text::glob::GlobError,
    },
    #[error("--partition {0:?}: expected count:K/N or hash:K/N with 1 ≤ K ≤ N, e.g. hash:1/4")]
    Partition(String),
}

impl std::str::FromStr for Partition {
    type Err = SelectionError;

    fn from_str(text: &str) -> Result<Partition, SelectionError> {
        let bad = || SelectionError::Partition(text.to_string());
        let (kind, rest) = text.split_once(':').ok_or_else(bad)?;
        let (k, n) = rest.split_once('/').ok_or_else(bad)?;
        let shard: u64 = k.trim().parse().map_err(|_| bad())?;
        let total: u64 = n.trim().parse().map_err(|_| bad())?;
        if shard == 0 || total == 0 || shard > total {
            return Err(bad());
        }
        match kind {
            "count" => Ok(Partition::Count { shard, total }),
            "hash" => Ok(Partition::Hash { shard, total }),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Partition::Count { shard, total } => write!(f, "count:{shard}/{total}"),
            Partition::Hash { shard, total } => write!(f, "hash:{shard}/{total}"),
        }
    }
}

impl Partition {
    /// Whether the case at `index` (0-based, in the whole run's order) with
    /// this identity belongs to this shard.
    pub fn keeps(&self, index: usize, problem: &str, case: &str) -> bool {
        match *self {
            Partition::Count { shard, total } => index as u64 % total == shard - 1,
            Partition::Hash { shard, total } => {
                stable_hash(format!("{problem}/{case}").as_bytes()) % total == shard - 1
            }
        }
    }
}

/// FNV-1a, 64 bits: stable across versions and machines, unlike std's
/// hasher, so shards agree wherever they run.
fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside any package.
    fn discover(root: &std::path::Path) -> Result<Discovery, DiscoveryError> {
        super::discover(root, |_| None)
    }

    #[test]
    fn natural_order() {
        let mut names = vec![
            "10.in", "2.in", "1.in", "a10b.in", "a2b.in", "01.in", "b.in",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            [
                "01.in", "1.in", "2.in", "10.in", "a2b.in", "a10b.in", "b.in"
            ]
        );
    }

    #[test]
    fn pairs_and_orphans() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        for f in [
            "2.in",
            "2.ans",
            "10.in",
            "10.out",
            "3.in",
            "4.ans",
            "sub/1.in",
            "sub/1.ans",
            ".hidden/9.in",
            "x.txt",
        ] {
            let path = p.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "1\n").unwrap();
        }
        let d = discover(p).unwrap();
        let cases = d.cases.to_vec();
        let names: Vec<_> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["2.in", "3.in", "10.in", "sub/1.in"]);
        assert!(cases[1].answer.is_none());
        assert!(cases[2].answer.as_ref().unwrap().ends_with("10.out"));
        assert_eq!(cases[3].input, p.join("sub/1.in"));
        assert_eq!(d.warnings.len(), 2, "{:?}", d.warnings);
        assert!(d.warnings.iter().any(|w| w.contains("3.in has no answer")));
        assert!(d.warnings.iter().any(|w| w.contains("4.ans has no input")));
    }

    #[test]
    fn symlink_loop_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("a/loop")).unwrap();
        let err = discover(dir.path()).unwrap_err().to_string();
        assert!(err.contains("a/loop: symbolic link loop"), "{err}");
    }

    #[test]
    fn filter_and_partition() {
        let f = Filter::new("len1*").unwrap();
        assert!(f.keeps("rotation", "len13.in"));
        assert!(!f.keeps("rotation", "len9.in"));
        assert!(Filter::new("rotation/*").unwrap().keeps("rotation", "a.in"));
        let p: Partition = "count:2/3".parse().unwrap();
        let kept: Vec<usize> = (0..7).filter(|&i| p.keeps(i, "p", "c")).collect();
        assert_eq!(kept, [1, 4]);
        assert!("count:0/3".parse::<Partition>().is_err());
        assert!("hash:4/3".parse::<Partition>().is_err());
        let shards: Vec<Partition> = (1..=4)
            .map(|k| format!("hash:{k}/4").parse().unwrap())
            .collect();
        for i in 0..50 {
            let case = format!("{i}.in");
            assert_eq!(shards.iter().filter(|s| s.keeps(i, "p", &case)).count(), 1);
        }
    }

    #[test]
    fn a_fifo_is_named_and_skipped_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("1.in"), "1\n").unwrap();
        std::fs::write(dir.path().join("1.ans"), "1\n").unwrap();
        let fifo = std::ffi::CString::new(
            dir.path()
                .join("2.in")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let d = discover(dir.path()).unwrap();
        assert_eq!(d.cases.len(), 1);
        assert!(
            d.warnings
                .iter()
                .any(|w| w.ends_with("2.in: a FIFO, not a case file; skipped")),
            "{:?}",
            d.warnings
        );
    }
}
