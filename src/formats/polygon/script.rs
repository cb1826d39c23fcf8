//! A testset's generation script, as Polygon writes it on the tests page
//! and problem.xml may carry it (the testset's `<script>`, or
//! `<generator><script>`): one line a generator run,
//!
//! - `gen 1 2 > 3`: `gen 1 2`'s standard output is test 3;
//! - `gen 5 > $`: the same, for the next free test (the smallest index no
//!   line names and no manual test holds, in the script's order, after the
//!   lines with fixed indices have taken theirs);
//! - `multigen 3 > {4-6}`, `multigen 7 > {7,8,9}`, `g > {1-2,5}`: one run
//!   writes several tests, each a file in its working directory named by
//!   the test's index (Polygon's `from-file`); braces hold numbers and
//!   ranges `a-b`, comma-separated.
//!
//! Blank lines are skipped. FreeMarker directives (`<#list …>`, `${i}`)
//! are not expanded: such a line is an error naming it. Every error names
//! problem.xml's line of the script, the script's own line and the token.

use super::testset::{Method, Test};
use super::xml::Element;
use crate::formats::error::{FormatError, Place, ScriptError};
use std::collections::BTreeMap;
use std::path::Path;

/// More tests than any testset has: a script's range or a test-count past
/// it is refused before a test is made for each.
pub const MAX_TESTS: usize = 100_000;

/// Where one script line sends its tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `> 3`: standard output, that test.
    One(usize),
    /// `> $`: standard output, the next free test.
    Next,
    /// `> {4-6}`: files named by these tests' indices.
    Many(Vec<usize>),
}

/// One line of the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based, within the script.
    pub line: usize,
    /// The generator and its arguments, as written.
    pub cmd: String,
    pub target: Target,
}

/// What a test gets from the script: its command and, for a multi-test
/// run, the file of that run that is the test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub cmd: String,
    pub from_file: Option<String>,
    pub line: usize,
}

/// Parse the script's text; `at` names where it is (`problem.xml:40`).
pub fn parse(text: &str, at: &Place) -> Result<Vec<Line>, ScriptError> {
    let mut out = Vec::new();
    // Tests named by braces so far.
    let mut many = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| ScriptError::Line {
            at: at.clone(),
            line: n,
            text: line.to_string(),
            message,
        };
        if line.contains("<#") || line.contains("</#") || line.contains("${") {
            return Err(err(
                "a FreeMarker directive: the judge reads expanded scripts only (one `generator args > target` a line)".into(),
            ));
        }
        let Some((cmd, target)) = line.rsplit_once('>') else {
            return Err(err("expected `generator args > target`: no `>`".into()));
        };
        let cmd = cmd.trim();
        let words = shlex::split(cmd).ok_or_else(|| err(format!("`{cmd}`: unbalanced quotes")))?;
        if words.is_empty() {
            return Err(err("no generator before `>`".into()));
        }
        let target = target.trim();
        let parsed = parse_target(target).map_err(|e| err(format!("target `{target}`: {e}")))?;
        if let Target::Many(list) = &parsed {
            many += list.len();
            if many > MAX_TESTS {
                return Err(err(format!(
                    "the script's ranges name more than {MAX_TESTS} tests"
                )));
            }
        }
        out.push(Line {
            line: n,
            cmd: cmd.to_string(),
            target: parsed,
        });
    }
    Ok(out)
}

fn parse_target(token: &str) -> Result<Target, String> {
    if token == "$" {
        return Ok(Target::Next);
    }
    if let Some(inner) = token.strip_prefix('{') {
        let inner = inner.strip_suffix('}').ok_or("a `{` without its `}`")?;
        let mut list = Vec::new();
        for part in inner.split(',') {
            let part = part.trim();
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (index(a.trim())?, index(b.trim())?);
                    if b < a {
                        return Err(format!("range `{part}` goes down"));
                    }
                    if b - a >= MAX_TESTS - list.len().min(MAX_TESTS) {
                        return Err(format!("range `{part}`: more than {MAX_TESTS} tests"));
                    }
                    list.extend(a..=b);
                }
                None => list.push(index(part)?),
            }
        }
        return Ok(Target::Many(list));
    }
    Ok(Target::One(index(token)?))
}

fn index(word: &str) -> Result<usize, String> {
    match word.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "`{word}` is not a test number (1, 2, …), `$` or `{{a-b,c}}`"
        )),
    }
}

/// Give each line's tests their indices: fixed ones first, then each `$`
/// the next free index. `manual` are the tests problem.xml marks manual,
/// `count` the testset's test-count. An index named twice, past `count`,
/// or a manual test's is an error naming the line.
pub fn assign(
    lines: &[Line],
    manual: &[usize],
    count: usize,
    at: &Place,
) -> Result<BTreeMap<usize, Made>, ScriptError> {
    let mut made: BTreeMap<usize, Made> = BTreeMap::new();
    let take =
        |made: &mut BTreeMap<usize, Made>, index: usize, line: &Line, from_file: Option<String>| {
            let err = |message: String| ScriptError::Test {
                at: at.clone(),
                line: line.line,
                cmd: line.cmd.clone(),
                test: index,
                message,
            };
            if index > count {
                return Err(err(format!("past the testset's test-count ({count})")));
            }
            if manual.contains(&index) {
                return Err(err("problem.xml marks it manual".into()));
            }
            if let Some(before) = made.get(&index) {
                return Err(err(format!("also made by script line {}", before.line)));
            }
            made.insert(
                index,
                Made {
                    cmd: line.cmd.clone(),
                    from_file,
                    line: line.line,
                },
            );
            Ok(())
        };
    for line in lines {
        match &line.target {
            Target::One(i) => take(&mut made, *i, line, None)?,
            Target::Many(list) => {
                for i in list {
                    take(&mut made, *i, line, Some(i.to_string()))?;
                }
            }
            Target::Next => {}
        }
    }
    let mut next = 1;
    for line in lines.iter().filter(|l| l.target == Target::Next) {
        while made.contains_key(&next) || manual.contains(&next) {
            next += 1;
        }
        take(&mut made, next, line, None)?;
    }
    Ok(made)
}

/// The testset's generation script (`<script>` in the testset, or
/// `<generator><script>`), if problem.xml has one: the commands of the
/// generated tests without a `cmd`, and, when `<tests>` lists none, the
/// tests themselves (those no line makes are manual). A `cmd` in
/// problem.xml is kept; a script line that differs from it is a warning.
/// A generated test left without a command is a warning (`judge gen`
/// cannot make it). A script that cannot be read is not used: its error
/// is returned (`judge gen` refuses it; judging reads the tests that are
/// in the package, each test of an empty `<tests>` then a manual one).
pub(super) fn apply(
    file: &Path,
    set: &Element,
    count: usize,
    tests: &mut Vec<Test>,
    warnings: &mut Vec<String>,
) -> Result<Option<ScriptError>, FormatError> {
    let script = set
        .child("script")
        .or_else(|| set.child("generator").and_then(|g| g.child("script")));
    if let Some(script) = script {
        let at = Place::line(file, script.line);
        if tests.is_empty() && count > MAX_TESTS {
            let line = set.child("test-count").map_or(set.line, |c| c.line);
            return Err(FormatError::Element {
                place: Place::line(file, line),
                element: "test-count".to_string(),
                attribute: None,
                message: format!("{count}: more than the {MAX_TESTS} tests a testset may have"),
            });
        }
        let manual: Vec<usize> = tests
            .iter()
            .filter(|t| t.method == Method::Manual)
            .map(|t| t.index)
            .collect();
        let made =
            match parse(&script.text, &at).and_then(|lines| assign(&lines, &manual, count, &at)) {
                Ok(made) => made,
                Err(e) => {
                    if tests.is_empty() {
                        tests.extend((1..=count).map(|index| manual_test(index, Method::Manual)));
                    }
                    return Ok(Some(e));
                }
            };
        if tests.is_empty() {
            tests.extend((1..=count).map(|index| {
                let method = if made.contains_key(&index) {
                    Method::Generated
                } else {
                    Method::Manual
                };
                manual_test(index, method)
            }));
        }
        for t in tests.iter_mut() {
            let Some(m) = made.get(&t.index) else {
                continue;
            };
            match &t.cmd {
                None => {
                    t.method = Method::Generated;
                    t.cmd = Some(m.cmd.clone());
                    t.from_file = m.from_file.clone();
                }
                Some(cmd) if *cmd != m.cmd || t.from_file != m.from_file => {
                    warnings.push(format!(
                        "{at}: script line {}: test {} is `{}`{} there, `{cmd}` in <tests>: problem.xml's <tests> is used",
                        m.line,
                        t.index,
                        m.cmd,
                        m.from_file
                            .as_ref()
                            .map(|f| format!(" (file {f})"))
                            .unwrap_or_default()
                    ));
                }
                Some(_) => {}
            }
        }
    }
    let bare: Vec<String> = tests
        .iter()
        .filter(|t| t.method == Method::Generated && t.cmd.is_none())
        .map(|t| t.index.to_string())
        .collect();
    if !bare.is_empty() {
        warnings.push(format!(
            "{}:{}: generated tests {} have no cmd and no <script> line makes them: judge gen cannot make them (doall.sh/doall.bat is a package program the judge does not run)",
            file.display(),
            set.line,
            bare.join(", ")
        ));
    }
    Ok(None)
}

/// A test of a script-made `<tests>`: its index and method alone.
fn manual_test(index: usize, method: Method) -> Test {
    Test {
        index,
        method,
        cmd: None,
        from_file: None,
        sample: false,
        group: None,
        points: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// problem.xml's line `n`.
    fn p(n: usize) -> Place {
        Place::line(Path::new("problem.xml"), n)
    }

    #[test]
    fn targets_fixed_next_and_multi() {
        let lines = parse(
            "gen 1 2 > 1\n\ngen 5 > $\nmultigen 10 > {4-6}\nm 3 > {7,9, 8}\ngen 6 > $\n",
            &p(1),
        )
        .unwrap();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[2].target, Target::Many(vec![4, 5, 6]));
        assert_eq!(lines[3].target, Target::Many(vec![7, 9, 8]));
        let made = assign(&lines, &[2], 10, &p(1)).unwrap();
        // `$` skips test 2 (manual) and 4-9 (fixed): 3, then 10.
        assert_eq!(made[&3].cmd, "gen 5");
        assert_eq!(made[&10].cmd, "gen 6");
        assert_eq!(made[&5].from_file.as_deref(), Some("5"));
        assert_eq!(made[&1].from_file, None);
        assert!(!made.contains_key(&2));
    }

    #[test]
    fn errors_name_the_line_and_the_token() {
        let e = parse("gen 1 > 1\ngen 2 > {5-3}\n", &p(9))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("problem.xml:9: script line 2") && e.contains("`{5-3}`"),
            "{e}"
        );
        let e = parse("gen 1 > x1\n", &p(1)).unwrap_err().to_string();
        assert!(e.contains("target `x1`"), "{e}");
        let e = parse("gen 1 2\n", &p(1)).unwrap_err().to_string();
        assert!(e.contains("no `>`"), "{e}");
        let e = parse("<#list 1..3 as i>\n", &p(1)).unwrap_err().to_string();
        assert!(e.contains("FreeMarker"), "{e}");
        let e = parse(" > 3\n", &p(1)).unwrap_err().to_string();
        assert!(e.contains("no generator"), "{e}");
        let lines = parse("gen 1 > 2\ngen 2 > {1-2}\n", &p(1)).unwrap();
        let e = assign(&lines, &[], 5, &p(1)).unwrap_err().to_string();
        assert!(
            e.contains("script line 2") && e.contains("script line 1"),
            "{e}"
        );
        let lines = parse("gen 1 > 7\n", &p(1)).unwrap();
        assert!(
            assign(&lines, &[], 5, &p(1))
                .unwrap_err()
                .to_string()
                .contains("test-count")
        );
        assert!(
            assign(&lines, &[7], 9, &p(1))
                .unwrap_err()
                .to_string()
                .contains("manual")
        );
    }
}
