//! The package readers fed hostile values (issue 37, "no panic on any
//! value"): a Polygon problem.xml, a Kattis package (problem.yaml, the
//! groups' testdata.yaml / test_group.yaml, domjudge-problem.ini,
//! submissions.yaml), a generators.yaml and judge.toml, each written into a
//! real package directory and read through the entry point the CLI uses.
//! The files start valid and are damaged byte by byte, or have one of
//! their values (an attribute, an element's text, a YAML or TOML value, a
//! key) replaced by a hostile one: widths like `%065536d`, NaN, infinities,
//! negatives, `1e400`, 2^64, empty, RTL marks, combining characters,
//! U+FFFF, NUL, huge counts, deep nesting, aliases. Each read must give a
//! package or an error with a message, never a panic, in bounded time and
//! memory.

use judge::config::{Config, Overrides};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous: a package is read in milliseconds; this catches hangs and
/// blow-ups in the size of a number (a loop to 10^18) on a loaded machine.
const BOUND: Duration = Duration::from_secs(10);

/// Address space for the whole test binary: an allocation the size of a
/// hostile number fails (and aborts the binary: a failure) instead of
/// taking the machine's memory.
const MEMORY_CAP: u64 = 4 << 30;

fn cap_memory() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let old = getrlimit(Resource::As);
        let cap = old.maximum.map_or(MEMORY_CAP, |m| m.min(MEMORY_CAP));
        let _ = setrlimit(
            Resource::As,
            Rlimit {
                current: Some(cap),
                maximum: old.maximum,
            },
        );
    });
}

/// Run `f` on its own thread and fail when it panics or has not returned
/// within [`BOUND`] (a hung reader is left running: the test has failed).
fn timed<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    cap_memory();
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(BOUND) {
        Ok(value) => {
            let _ = handle.join();
            let took = started.elapsed();
            assert!(took < BOUND, "{what} took {took:?}");
            value
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let why = handle.join().err().map_or_else(String::new, |e| {
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            });
            panic!("{what} panicked: {why}");
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not return within {BOUND:?}"),
    }
}

// ---------------------------------------------------------------------------
// Byte mutations (as tests/fuzz_parsers.rs damages a file).

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    DuplicateLine(usize),
    Crlf,
    Bom,
    Nul(usize),
    HugeToken(usize, usize),
    LongNumber(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        Just(Mutation::Crlf),
        Just(Mutation::Bom),
        any::<usize>().prop_map(Mutation::Nul),
        (any::<usize>(), 1000usize..100_000).prop_map(|(p, n)| Mutation::HugeToken(p, n)),
        any::<usize>().prop_map(Mutation::LongNumber),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(mut data: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let at = |p: usize, data: &Vec<u8>| {
            if data.is_empty() {
                0
            } else {
                p % (data.len() + 1)
            }
        };
        match m {
            Mutation::Flip(p, b) if !data.is_empty() => {
                let i = p % data.len();
                data[i] = *b;
            }
            Mutation::Flip(..) => {}
            Mutation::Insert(p, bytes) => {
                let i = at(*p, &data);
                data.splice(i..i, bytes.iter().copied());
            }
            Mutation::Delete(p, n) => {
                let i = at(*p, &data);
                let end = (i + n).min(data.len());
                data.drain(i..end);
            }
            Mutation::DuplicateLine(p) => {
                let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
                if !lines.is_empty() {
                    let line = lines[p % lines.len()].to_vec();
                    data.extend_from_slice(&line);
                    data.push(b'\n');
                }
            }
            Mutation::Crlf => {
                data = data
                    .iter()
                    .flat_map(|&b| {
                        if b == b'\n' {
                            vec![b'\r', b'\n']
                        } else {
                            vec![b]
                        }
                    })
                    .collect();
            }
            Mutation::Bom => data.splice(0..0, [0xef, 0xbb, 0xbf]).for_each(drop),
            Mutation::Nul(p) => {
                let i = at(*p, &data);
                data.insert(i, 0);
            }
            Mutation::HugeToken(p, n) => {
                let i = at(*p, &data);
                data.splice(i..i, std::iter::repeat_n(b'7', *n));
            }
            Mutation::LongNumber(p) => {
                let i = at(*p, &data);
                data.splice(
                    i..i,
                    " 1".bytes()
                        .chain(std::iter::repeat_n(b'0', 400))
                        .chain(*b" "),
                );
            }
            Mutation::Truncate(p) => {
                let i = at(*p, &data);
                data.truncate(i);
            }
        }
    }
    data
}

// ---------------------------------------------------------------------------
// Value mutations: one value of the file replaced by a hostile one.

/// Values hostile to any reader of a number, a size, a time, a path, a
/// pattern, a name or a word list.
fn hostile_values() -> Vec<String> {
    let mut v: Vec<String> = [
        "%065536d",
        "tests/%065536d",
        "tests/%99999999999d",
        "tests/%0184467440737095516160d",
        "tests/%d%d%d",
        "tests/%",
        "tests/%-5d",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "infinity",
        "-1",
        "-0",
        "0",
        "0.0",
        "1e400",
        "-1e400",
        "1e-400",
        "1e18",
        "1e30",
        "18446744073709551616",
        "18446744073709551615",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "4294967296",
        "4294967295",
        "99999999999999999999",
        "0x10",
        "1_000",
        "+1",
        ".5",
        "1.5",
        "",
        " ",
        "\u{200f}1\u{200e}",
        "\u{202e}1000",
        "1\u{0301}",
        "e\u{0301}\u{0301}\u{0301}",
        "\u{ffff}",
        "\u{feff}1",
        "\u{fffd}",
        "\0",
        "1\u{0}2",
        "../../../../etc/passwd",
        "/etc/passwd",
        "a/../../b",
        "\\\\server\\share",
        "99999999999999999999s",
        "1e30GiB",
        "-5MiB",
        "true",
        "null",
        "gen > {1-18446744073709551615}",
        "gen > {1-4000000000}",
        "gen > {1-1000000000000}",
        "gen > 18446744073709551615",
        "gen > $\ngen > $",
        "1..=18446744073709551615",
        "-9223372036854775808..=9223372036854775807",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("a".repeat(100_000));
    v.push("9".repeat(5_000));
    v.push("%".repeat(10_000));
    v.push("%0".to_string() + &"9".repeat(1000) + "d");
    v
}

/// Values only YAML gives meaning to.
fn hostile_yaml_values() -> Vec<String> {
    let mut v: Vec<String> = [
        ".nan",
        ".NaN",
        ".inf",
        "-.inf",
        "[1, 2]",
        "[]",
        "{}",
        "{a: 1, b: [1, {c: .nan}]}",
        "~",
        "!!binary AAAA",
        "!!float 1e400",
        "!!int 18446744073709551616",
        "!custom 1",
        "*undefined",
        "&anchor 1",
        "0o17",
        "1:30",
        "'1'",
        "\"\\0\"",
        "\"\\uFFFF\"",
        "|\n  text\n  more",
        ">-\n  folded",
        "- 1\n- 2",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "? complex\n: key",
        "<<: *undefined",
        "2001-12-14t21:59:43.10-05:00",
        "yes",
        "NO",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000)));
    v.push(format!("{}1{}", "{a: ".repeat(2_000), "}".repeat(2_000)));
    v.push(format!("\"{}\"", "x".repeat(200_000)));
    v
}

/// Keys a reader may not expect.
fn hostile_keys() -> Vec<String> {
    [
        "\u{200f}time_limit",
        "time_limit\u{0301}",
        "<<",
        "? [a, b]",
        "1",
        "~",
        "''",
        "\"\\0\"",
        "\u{ffff}",
        "data",
        "include",
        "count",
        "max_score",
        "score",
        "../secret",
        "/abs",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[derive(Clone, Debug)]
enum Change {
    /// The `slot`-th value becomes `hostile_values()[which]` (or YAML's own).
    Value { slot: usize, which: usize },
    /// The `slot`-th key (YAML) becomes `hostile_keys()[which]`.
    Key { slot: usize, which: usize },
    /// The `slot`-th value's line is repeated `times` times.
    Repeat { slot: usize, times: usize },
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        6 => (any::<usize>(), any::<usize>()).prop_map(|(slot, which)| Change::Value { slot, which }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(slot, which)| Change::Key { slot, which }),
        1 => (any::<usize>(), 2usize..2000).prop_map(|(slot, times)| Change::Repeat { slot, times }),
    ]
}

/// Where a value stands in an XML text: attribute values and element
/// text, each with the attribute's or the element's name.
fn xml_slots(text: &str) -> Vec<(usize, usize, String)> {
    let mut slots = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' && i > 0 && b[i - 1] == b'=' {
            if let Some(len) = text[i + 1..].find('"') {
                let before = &text[..i - 1];
                let name = before
                    .rsplit(|c: char| c.is_whitespace())
                    .next()
                    .unwrap_or("");
                slots.push((i + 1, i + 1 + len, name.to_string()));
                i += len + 2;
                continue;
            }
        } else if b[i] == b'>'
            && let Some(len) = text[i + 1..].find('<')
        {
            let inner = &text[i + 1..i + 1 + len];
            if !inner.trim().is_empty() {
                let open = text[..i].rfind('<').map_or(0, |o| o + 1);
                let name = text[open..i].split_whitespace().next().unwrap_or("");
                slots.push((i + 1, i + 1 + len, name.to_string()));
            }
        }
        i += 1;
    }
    slots
}

/// The values the readers act on (limits, patterns, counts, the script,
/// tests' and groups' attributes, paths).
const XML_TARGETS: [&str; 17] = [
    "time-limit",
    "memory-limit",
    "test-count",
    "input-path-pattern",
    "answer-path-pattern",
    "script",
    "points",
    "group",
    "method",
    "cmd",
    "from-file",
    "path",
    "name",
    "points-policy",
    "tag",
    "input-file",
    "output-file",
];

fn xml_escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
}

/// `targeted`: only the slots of [`XML_TARGETS`].
fn change_xml(text: &str, changes: &[Change], targeted: bool) -> String {
    let mut text = text.to_string();
    let values = hostile_values();
    for c in changes {
        let slots: Vec<(usize, usize)> = xml_slots(&text)
            .into_iter()
            .filter(|(_, _, name)| !targeted || XML_TARGETS.contains(&name.as_str()))
            .map(|(a, b, _)| (a, b))
            .collect();
        if slots.is_empty() {
            return text;
        }
        match c {
            Change::Value { slot, which } | Change::Key { slot, which } => {
                let (a, b) = slots[slot % slots.len()];
                let value = &values[which % values.len()];
                // Raw now and then: a value that breaks the XML itself.
                let value = if which % 7 == 0 {
                    value.clone()
                } else {
                    xml_escape(value)
                };
                text.replace_range(a..b, &value);
            }
            Change::Repeat { slot, times } => {
                // The element holding the slot, repeated (many tests,
                // many groups).
                let (a, _) = slots[slot % slots.len()];
                let start = text[..a].rfind('\n').map_or(0, |i| i + 1);
                let end = text[a..].find('\n').map_or(text.len(), |i| a + i + 1);
                let line = text[start..end].to_string();
                text.insert_str(end, &line.repeat(*times));
            }
        }
    }
    text
}

/// A byte range of a text.
type Span = (usize, usize);

/// Where values and keys stand in a YAML (or TOML, or INI) text: after
/// `key: ` / `key = ` to the end of the line, and a list item's text.
fn yaml_slots(text: &str) -> (Vec<Span>, Vec<Span>) {
    let mut values = Vec::new();
    let mut keys = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        let rest = &body[indent..];
        if rest.starts_with('#') || rest.is_empty() {
            offset += line.len();
            continue;
        }
        let sep = rest
            .find(": ")
            .map(|i| (i, 2))
            .or_else(|| rest.find(" = ").map(|i| (i, 3)))
            .or_else(|| rest.find('=').map(|i| (i, 1)));
        if let Some(item) = rest.strip_prefix("- ")
            && sep.is_none()
        {
            values.push((offset + indent + 2, offset + indent + 2 + item.len()));
        } else if let Some((i, n)) = sep {
            let key_start = offset + indent + rest.strip_prefix("- ").map_or(0, |_| 2);
            keys.push((key_start, offset + indent + i));
            values.push((offset + indent + i + n, offset + body.len()));
        } else if let Some(key) = rest.strip_suffix(':') {
            keys.push((offset + indent, offset + indent + key.len()));
        }
        offset += line.len();
    }
    (values, keys)
}

/// Replace values (`quote`: how a value is written: raw, single- or
/// double-quoted YAML or TOML basic string).
fn change_yaml(text: &str, changes: &[Change], toml: bool) -> String {
    let mut text = text.to_string();
    let mut values = hostile_values();
    if !toml {
        values.extend(hostile_yaml_values());
    }
    let keys = hostile_keys();
    for c in changes {
        let (value_slots, key_slots) = yaml_slots(&text);
        match c {
            Change::Value { slot, which } if !value_slots.is_empty() => {
                let (a, b) = value_slots[slot % value_slots.len()];
                let value = &values[which % values.len()];
                let written = match (which / values.len()) % 3 {
                    0 => value.clone(),
                    1 if !toml => format!("'{}'", value.replace('\'', "''")),
                    _ => format!(
                        "\"{}\"",
                        value
                            .replace('\\', "\\\\")
                            .replace('"', "\\\"")
                            .replace('\n', "\\n")
                            .replace('\0', "\\u0000")
                    ),
                };
                text.replace_range(a..b, &written);
            }
            Change::Key { slot, which } if !key_slots.is_empty() => {
                let (a, b) = key_slots[slot % key_slots.len()];
                text.replace_range(a..b, &keys[which % keys.len()]);
            }
            Change::Repeat { slot, times } if !value_slots.is_empty() => {
                let (a, _) = value_slots[slot % value_slots.len()];
                let start = text[..a].rfind('\n').map_or(0, |i| i + 1);
                let end = text[a..].find('\n').map_or(text.len(), |i| a + i + 1);
                let line = text[start..end].to_string();
                text.insert_str(end, &line.repeat(*times));
            }
            _ => {}
        }
    }
    text
}

// ---------------------------------------------------------------------------
// Packages.

fn write(root: &Path, rel: &str, contents: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// The directory of links a Polygon package's view is (in the judge's
/// cache directory), removed after the test.
fn polygon_view(root: &Path) -> Option<PathBuf> {
    use sha2::{Digest, Sha256};
    let real = std::fs::canonicalize(root).ok()?;
    let digest = Sha256::digest(real.as_os_str().as_encoded_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    Some(judge::exec::cache_dir().join("polygon").join(hex))
}

const PROBLEM_XML: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="sum" url="https://polygon.example/p/sum">
    <names>
        <name language="english" value="Sum"/>
    </names>
    <judging cpu-name="Intel" cpu-speed="3600" input-file="" output-file="">
        <testset name="tests">
            <time-limit>1000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>4</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true" group="0" points="0"/>
                <test method="manual" group="1" points="20"/>
                <test cmd="gen 1000000" method="generated" group="1" points="30"/>
                <test method="manual" group="2" points="30"/>
            </tests>
            <groups>
                <group feedback-policy="complete" name="0" points="0" points-policy="complete-group"/>
                <group feedback-policy="icpc" name="1" points="50" points-policy="complete-group">
                    <dependencies>
                        <dependency group="0"/>
                    </dependencies>
                </group>
                <group feedback-policy="points" name="2" points-policy="each-test">
                    <dependencies>
                        <dependency group="1"/>
                    </dependencies>
                </group>
            </groups>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/testlib.h" type="h.g++"/>
        </resources>
        <executables>
            <executable>
                <source path="files/gen.cpp" type="cpp.g++17"/>
            </executable>
        </executables>
    </files>
    <assets>
        <checker name="std::wcmp.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
        </checker>
        <validators>
            <validator>
                <source path="files/val.cpp" type="cpp.g++17"/>
            </validator>
        </validators>
        <solutions>
            <solution tag="main">
                <source path="solutions/sum.cpp" type="cpp.g++17"/>
            </solution>
            <solution tag="wrong-answer">
                <source path="solutions/small.cpp" type="cpp.g++17"/>
            </solution>
        </solutions>
    </assets>
</problem>
"#;

/// A testset made by its script (no `<tests>`).
const PROBLEM_XML_SCRIPT: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<problem short-name="gen">
    <judging input-file="input.txt" output-file="output.txt">
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>6</test-count>
            <input-path-pattern>tests/%d</input-path-pattern>
            <answer-path-pattern>tests/%d.a</answer-path-pattern>
            <script>gen 1 &gt; 1
gen 2 &gt; $
multigen 3 &gt; {3-5}
gen 9 &gt; 6</script>
        </testset>
    </judging>
    <assets>
        <checker name="std::ncmp.cpp"/>
        <interactor>
            <source path="files/interactor.cpp" type="cpp.g++17"/>
        </interactor>
    </assets>
</problem>
"#;

fn polygon_package(root: &Path, xml: &[u8]) {
    write(root, "problem.xml", xml);
    for (i, (input, answer)) in [("1 2", "3"), ("2 2", "4"), ("5 5", "10"), ("0 0", "0")]
        .iter()
        .enumerate()
    {
        write(root, &format!("tests/{:02}", i + 1), input);
        write(root, &format!("tests/{:02}.a", i + 1), answer);
        write(root, &format!("tests/{}", i + 1), input);
        write(root, &format!("tests/{}.a", i + 1), answer);
    }
    write(root, "files/check.cpp", "int main(){}\n");
    write(root, "files/interactor.cpp", "int main(){}\n");
    write(root, "solutions/sum.cpp", "int main(){}\n");
}

/// Read a Polygon package both ways; the messages of the errors.
fn read_polygon(xml: Vec<u8>) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    polygon_package(&root, &xml);
    let view = polygon_view(&root);
    let r = root.clone();
    let described = timed("polygon::describe", move || {
        judge::formats::polygon::describe(&r)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let r = root.clone();
    let problem = timed("polygon::model", move || {
        judge::formats::polygon::model(&r)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let r = root.clone();
    let through_cli = timed("package_problem (polygon)", move || {
        judge::config::package_problem(&r, &Overrides::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    if let Some(view) = view {
        let _ = std::fs::remove_dir_all(view);
    }
    for e in [&described, &problem, &through_cli] {
        if let Err(e) = e {
            assert!(!e.trim().is_empty(), "an error without a message");
            assert!(
                e.contains("problem.xml"),
                "an error not naming problem.xml: {e}"
            );
        }
    }
    described?;
    problem
}

/// Kattis packages: a 2023-07 one with testdata.yaml and
/// domjudge-problem.ini (read as no problem.yaml time limit is given) and a
/// 2025-09 scoring one with test_group.yaml and submissions.yaml.
const KATTIS_FILES: [(&str, &str); 9] = [
    (
        "old/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum\ntype: pass-fail\nvalidation: custom\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 512\n  output: 16\n  validation_time: 30\n  time_multipliers:\n    ac_to_time_limit: 2.0\n    time_limit_to_tle: 1.5\n  validation_passes: 2\n",
    ),
    (
        "old/data/secret/testdata.yaml",
        "input_validator_args:\n  val: --max 100\noutput_validator_args: case_sensitive\n",
    ),
    (
        "old/domjudge-problem.ini",
        "name = 'Sum'\ntimelimit = '2.5'\ncolor = '#ff0000'\n",
    ),
    (
        "old/submissions/submissions.yaml",
        "accepted/sum.py:\n  permitted: [AC]\n",
    ),
    (
        "new/problem.yaml",
        "problem_format_version: 2025-09\ntype: scoring\nname: Echo\nuuid: 1\nallow_file_writing: false\nconstants:\n  max_n: 100\n  eps: 1e-6\nlimits:\n  time_limit: 1\n  time_resolution: 0.5\n  memory: 1024\n  output: 8\n  time_multipliers:\n    ac_to_time_limit: 2\n    time_limit_to_tle: 1.5\n",
    ),
    (
        "new/data/secret/g1/test_group.yaml",
        "max_score: 40\nscore_aggregation: min\nargs: [--n, '{{max_n}}']\ninput_validator_args: [--max, '{{max_n}}']\n",
    ),
    (
        "new/data/secret/g2/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: secret/g1\noutput_validator_args:\n  - float_tolerance\n  - 1e-6\n",
    ),
    (
        "new/data/secret/test_group.yaml",
        "score_aggregation: sum\nstatic_validation: false\n",
    ),
    (
        "new/submissions/submissions.yaml",
        "accepted/echo.py:\n  score: 100\n  language: python3\n  entrypoint: echo.py\nwrong_answer/small.py:\n  score: [60, 80]\n  permitted: [AC, WA]\n  required: [WA]\n  secret/g2:\n    score: 30\n    permitted: [AC, WA]\n",
    ),
];

fn kattis_packages(root: &Path, replace: Option<(usize, &[u8])>) {
    for (i, (rel, text)) in KATTIS_FILES.iter().enumerate() {
        match replace {
            Some((j, bytes)) if j == i => write(root, rel, bytes),
            _ => write(root, rel, text),
        }
    }
    for p in ["old", "new"] {
        for (case, input, answer) in [
            ("sample/1", "1 2\n", "3\n"),
            ("secret/g1/1", "1 1\n", "2\n"),
            ("secret/g1/2", "2 2\n", "4\n"),
            ("secret/g2/1", "3 3\n", "6\n"),
        ] {
            write(root, &format!("{p}/data/{case}.in"), input);
            write(root, &format!("{p}/data/{case}.ans"), answer);
        }
    }
    write(root, "old/submissions/accepted/sum.py", "print(3)\n");
    write(root, "old/input_validators/val/val.py", "print()\n");
    write(root, "old/output_validator/check.py", "print()\n");
    write(root, "new/submissions/accepted/echo.py", "print(1)\n");
    write(root, "new/submissions/wrong_answer/small.py", "print(0)\n");
}

/// Read the package holding file `which` (through `kattis::load` and the
/// CLI's entry point).
fn read_kattis(which: usize, bytes: Vec<u8>) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    kattis_packages(dir.path(), Some((which, &bytes)));
    let package = dir
        .path()
        .join(KATTIS_FILES[which].0.split('/').next().unwrap());
    let p = package.clone();
    let loaded = timed("kattis::load", move || {
        judge::formats::kattis::load(&p)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let p = package.clone();
    let problem = timed("package_problem (kattis)", move || {
        judge::config::package_problem(&p, &Overrides::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    for e in [&loaded, &problem] {
        if let Err(e) = e {
            assert!(!e.trim().is_empty(), "an error without a message");
            assert!(
                e.contains(&dir.path().display().to_string()),
                "an error naming no file of the package: {e}"
            );
        }
    }
    loaded?;
    problem
}

const GENERATORS_YAML: &str = "# a package's generators.yaml
solution: /submissions/accepted/sum.py
random_salt: abc
retries: 3
version: 2025-04
generators:
  multi:
    - multi.py
    - lib.py
data:
  sample:
    data:
      - '':
          in: \"1 2\"
          ans: \"3\"
      - handmade:
          copy: manual/handmade
  secret:
    test_group.yaml:
      max_score: 100
    include:
      - handmade
    data:
      - edge_zero: edge.py zero
      - edge_max: edge.py max {seed:7}
      - random:
          generate: random.cpp {seed} {count}00000000
          count: 4
      - listed:
          generate: random.cpp {count}
          count: [3, 5, 9]
      - ranged:
          generate: random.cpp {count}
          count: '-2..=2'
      - multi:
          generate: multi {name} {seed}
      - matched:
          generate: edge.py equal
          match: '3'
  invalid_input:
    data:
      bad:
        in: \"x\"
";

fn read_generators(text: Vec<u8>) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    write(&root, "generators/generators.yaml", &text);
    write(&root, "generators/manual/handmade.in", "1 1\n");
    write(&root, "generators/manual/handmade.ans", "2\n");
    write(&root, "generators/edge.py", "print(1)\n");
    write(&root, "generators/random.cpp", "int main(){}\n");
    write(&root, "generators/multi.py", "print(1)\n");
    write(&root, "generators/lib.py", "\n");
    write(&root, "submissions/accepted/sum.py", "print(3)\n");
    write(
        &root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: G\n",
    );
    let r = root.clone();
    let result = timed("generators::load", move || {
        judge::formats::generators::load(&r)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    if let Err(e) = &result {
        assert!(!e.trim().is_empty(), "an error without a message");
        assert!(
            e.contains("generators.yaml"),
            "an error not naming generators.yaml: {e}"
        );
    }
    result
}

fn parse_judge_toml(text: String) -> Result<(), String> {
    timed("judge.toml", move || {
        Config::parse(&text, Path::new("judge.toml"), &Overrides::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

// ---------------------------------------------------------------------------
// The properties.

/// `cases` each (PROPTEST_CASES=N for a longer hunt).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn polygon_values(script in any::<bool>(), changes in proptest::collection::vec(change(), 1..4)) {
        let seed = if script { PROBLEM_XML_SCRIPT } else { PROBLEM_XML };
        let _ = read_polygon(change_xml(seed, &changes, false).into_bytes());
    }

    #[test]
    fn polygon_values_where_read(script in any::<bool>(), changes in proptest::collection::vec(change(), 1..3)) {
        let seed = if script { PROBLEM_XML_SCRIPT } else { PROBLEM_XML };
        let _ = read_polygon(change_xml(seed, &changes, true).into_bytes());
    }

    #[test]
    fn polygon_bytes(script in any::<bool>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let seed = if script { PROBLEM_XML_SCRIPT } else { PROBLEM_XML };
        let _ = read_polygon(apply(seed.as_bytes().to_vec(), &mutations));
    }

    #[test]
    fn kattis_values(which in 0usize..KATTIS_FILES.len(), changes in proptest::collection::vec(change(), 1..4)) {
        let text = change_yaml(KATTIS_FILES[which].1, &changes, false);
        let _ = read_kattis(which, text.into_bytes());
    }

    #[test]
    fn kattis_bytes(which in 0usize..KATTIS_FILES.len(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let _ = read_kattis(which, apply(KATTIS_FILES[which].1.as_bytes().to_vec(), &mutations));
    }

    #[test]
    fn generators_values(changes in proptest::collection::vec(change(), 1..4)) {
        let _ = read_generators(change_yaml(GENERATORS_YAML, &changes, false).into_bytes());
    }

    #[test]
    fn generators_bytes(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let _ = read_generators(apply(GENERATORS_YAML.as_bytes().to_vec(), &mutations));
    }

    #[test]
    fn judge_toml_values(changes in proptest::collection::vec(change(), 1..4)) {
        let text = change_yaml(include_str!("../judge.toml"), &changes, true);
        if let Err(e) = parse_judge_toml(text) {
            prop_assert!(e.starts_with("judge.toml"), "error without the file: {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// The seeds are valid: mutations start from a package that reads.

#[test]
fn the_seeds_read() {
    read_polygon(PROBLEM_XML.as_bytes().to_vec()).unwrap();
    read_polygon(PROBLEM_XML_SCRIPT.as_bytes().to_vec()).unwrap();
    for (i, (_, text)) in KATTIS_FILES.iter().enumerate() {
        read_kattis(i, text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{i}: {e}"));
    }
    read_generators(GENERATORS_YAML.as_bytes().to_vec()).unwrap();
    parse_judge_toml(include_str!("../judge.toml").to_string()).unwrap();
}

#[test]
fn the_slots_are_found() {
    assert!(xml_slots(PROBLEM_XML).len() > 40);
    let (values, keys) = yaml_slots(KATTIS_FILES[0].1);
    assert!(values.len() >= 9 && keys.len() >= 10, "{values:?} {keys:?}");
    let (values, _) = yaml_slots(KATTIS_FILES[2].1);
    assert_eq!(values.len(), 3);
}

// ---------------------------------------------------------------------------
// Deep nesting and aliases, each reader.

#[test]
fn deep_xml_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let deep = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let xml = PROBLEM_XML.replace("<names>", &format!("<names>{deep}"));
    assert!(read_polygon(xml.into_bytes()).is_err());
    let xml = format!(
        "{}{}",
        "<problem>".repeat(depth),
        "</problem>".repeat(depth)
    );
    assert!(read_polygon(xml.into_bytes()).is_err());
    let unclosed = format!("<problem><judging>{}", "<x>".repeat(depth));
    assert!(read_polygon(unclosed.into_bytes()).is_err());
}

/// A YAML file of aliases that expand to 10^9 values.
fn billion_laughs() -> String {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
    let mut prev = "a";
    for n in names {
        text.push_str(&format!(
            "{n}: &{n} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
        prev = n;
    }
    text
}

#[test]
fn yaml_aliases_and_nesting_are_bounded_in_every_package_file() {
    let laughs = billion_laughs();
    let depth = 100_000;
    let deep_flow = format!("a: {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    let deep_map = format!("a: {}1{}\n", "{a: ".repeat(depth), "}".repeat(depth));
    let deep_block: String = (0..2_000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    // As a value of a key the reader reads.
    let in_limits = format!(
        "problem_format_version: 2025-09\nname: x\nlimits:\n  time_limit: &t [{}]\n  memory: *t\n",
        "1,".repeat(1000)
    );
    for text in [&laughs, &deep_flow, &deep_map, &deep_block, &in_limits] {
        for (which, (file, _)) in KATTIS_FILES.iter().enumerate() {
            if file.ends_with(".ini") {
                continue;
            }
            let _ = read_kattis(which, text.as_bytes().to_vec());
        }
        let _ = read_generators(text.as_bytes().to_vec());
    }
    // The aliases where a case is expected.
    let gen_laughs = format!("{laughs}data:\n  secret:\n    data:\n      - x: *i\n");
    let _ = read_generators(gen_laughs.into_bytes());
}

#[test]
fn judge_toml_hostile_values() {
    for value in [
        "nan",
        "+inf",
        "-inf",
        "\"99999999999999999999s\"",
        "\"1e30GiB\"",
        "\"1e400s\"",
        "\"NaNs\"",
        "\"-1s\"",
        "\"infMiB\"",
        "18446744073709551615",
        "1e400",
        "\"%065536d\"",
        "\"\u{200f}1s\"",
        "\"\\u0000\"",
    ] {
        for key in [
            "time_limit",
            "memory_limit",
            "output_limit",
            "wall_limit",
            "stack_limit",
            "compile_time_limit",
            "processes",
            "float_tolerance",
            "jobs",
        ] {
            for text in [
                format!("{key} = {value}\n[problem.sum]\ncases = \"cases/sum\"\n"),
                format!("[problem.sum]\ncases = \"cases/sum\"\n{key} = {value}\n"),
            ] {
                if let Err(e) = parse_judge_toml(text) {
                    assert!(e.starts_with("judge.toml"), "error without the file: {e}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Regressions: values these tests found.

/// A package with `problem.xml`'s `from` replaced by `to`.
fn polygon_with(from: &str, to: &str) -> Result<(), String> {
    assert!(PROBLEM_XML.contains(from) || PROBLEM_XML_SCRIPT.contains(from));
    let seed = if PROBLEM_XML.contains(from) {
        PROBLEM_XML
    } else {
        PROBLEM_XML_SCRIPT
    };
    read_polygon(seed.replacen(from, to, 1).into_bytes())
}

#[test]
fn a_path_pattern_wider_than_any_file_name_is_an_error() {
    for pattern in [
        "tests/%065536d",
        "tests/%99999999999d",
        "tests/%0184467440737095516160d",
    ] {
        let e = polygon_with(
            "<input-path-pattern>tests/%02d</input-path-pattern>",
            &format!("<input-path-pattern>{pattern}</input-path-pattern>"),
        )
        .unwrap_err();
        assert!(e.contains(pattern) && e.contains("problem.xml"), "{e}");
    }
    let e = polygon_with(
        "<answer-path-pattern>tests/%02d.a</answer-path-pattern>",
        "<answer-path-pattern>tests/%065536d.a</answer-path-pattern>",
    )
    .unwrap_err();
    assert!(e.contains("tests/%065536d.a"), "{e}");
}

#[test]
fn a_huge_test_count_with_a_script_is_an_error_not_an_allocation() {
    for count in [
        "1000000000000",
        "18446744073709551615",
        "4000000000",
        "100001",
    ] {
        let e = polygon_with(
            "<test-count>6</test-count>",
            &format!("<test-count>{count}</test-count>"),
        )
        .unwrap_err();
        assert!(
            e.contains("problem.xml:7") && e.contains("test-count") && e.contains(count),
            "{e}"
        );
    }
}

#[test]
fn a_script_range_of_billions_of_tests_is_an_error_not_an_allocation() {
    // A script that cannot be read is `judge gen`'s error and judging's
    // warning (issue 43): never an allocation either way.
    let script_error = |from: &str, to: &str| -> String {
        let dir = tempfile::tempdir().unwrap();
        polygon_package(
            dir.path(),
            PROBLEM_XML_SCRIPT.replacen(from, to, 1).as_bytes(),
        );
        let (desc, _) = judge::formats::polygon::describe(dir.path()).unwrap();
        polygon_with(from, to).unwrap();
        desc.testset
            .script_error
            .expect("a script error")
            .to_string()
    };
    for range in [
        "{1-18446744073709551615}",
        "{1-4000000000}",
        "{3-5,1-100001}",
    ] {
        let e = script_error("{3-5}", range);
        assert!(
            e.contains("problem.xml:10") && e.contains(range) && e.contains("100000"),
            "{e}"
        );
    }
    let lines = "m &gt; {1-90000}\n".repeat(1000);
    let e = script_error("multigen 3 &gt; {3-5}", &lines);
    assert!(e.contains("more than 100000 tests"), "{e}");
}

#[test]
fn points_that_are_not_a_score_are_an_error_not_nan_of_nan() {
    for points in ["NaN", "inf", "-inf", "-1", "1e308", "1e10"] {
        let e = polygon_with(
            r#"group="2" points="30""#,
            &format!(r#"group="2" points="{points}""#),
        )
        .unwrap_err();
        assert!(
            e.contains("problem.xml") && e.contains("test 4: points") && e.contains("out of range"),
            "{e}"
        );
        let e = polygon_with(
            r#"name="1" points="50""#,
            &format!(r#"name="1" points="{points}""#),
        )
        .unwrap_err();
        assert!(
            e.contains("problem.xml") && e.contains("group \"1\": points"),
            "{e}"
        );
    }
    polygon_with(r#"group="2" points="30""#, r#"group="2" points="1e9""#).unwrap();
}

#[test]
fn a_max_score_past_1e9_is_an_error_not_a_total_of_inf() {
    // KATTIS_FILES[5] is new/data/secret/g1/test_group.yaml.
    for score in ["1e308", "1e10", "-1", ".nan", ".inf"] {
        let text = KATTIS_FILES[5]
            .1
            .replace("max_score: 40", &format!("max_score: {score}"));
        let e = read_kattis(5, text.into_bytes()).unwrap_err();
        assert!(
            e.contains("test_group.yaml") && e.contains("max_score") && e.contains("out of range"),
            "{score}: {e}"
        );
    }
}
