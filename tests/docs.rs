//! The documentation runs: every command shown in README.md, docs/*.md and
//! examples/README.md is run here, so the docs cannot drift from the tool.
//!
//! How a page is read:
//!
//! - A fenced block marked ```` ```sh ```` holds commands that run. Each
//!   line is one command, run with `sh -c` (so `&&`, `|` and `>` work;
//!   a line's `cd` does not carry over to the next line). Blank lines and
//!   lines starting with `#` are skipped.
//! - A block's first line may be `# in: DIR`: its commands run in DIR,
//!   relative to the repository's root; without it, in the root.
//! - A command must exit 0, unless it ends with a comment `# exit N`.
//! - A ```` ```text ```` block that directly follows a `sh` block (blank
//!   lines between are allowed) lists lines that must each appear, trimmed,
//!   somewhere in what that block's commands printed (stdout and stderr
//!   together). Leave out what varies between runs (times, memory); a line
//!   that is only `…` or `...` is skipped.
//! - Commands that must not run here are fenced with another info string:
//!   ```` ```sh-norun ```` for `cargo run`/`cargo test` (this test runs
//!   inside `cargo test`), `cargo install` (it would write ~/.cargo/bin),
//!   and anything that needs root, a network or a tool the machine may not
//!   have (Chromium); ```` ```text ```` for output, ```` ```toml ````,
//!   ```` ```yaml ````, ```` ```json ```` and so on for files. Nothing in a
//!   `sh-norun` block is checked, so keep such blocks few.
//!
//! Each page runs in its own copy of the repository's user-facing material
//! (`cases/`, `examples/`, `solutions/`, `judge.toml`), its blocks in
//! order in that one copy (so a `judge gen` and then a `judge verify` see
//! the same files). The binary under test is first on PATH as `judge` (a
//! symbolic link in a `bin/` beside the copy), with its own build cache and
//! TMPDIR in the scratch directory, so no other judge running on the
//! machine is touched, and `NO_COLOR` set.
//!
//! The page checks too: README.md stays under 300 lines and links every
//! guide page, every guide page is linked and opens (before any other
//! code block) with a `sh` example, and every relative link to a file
//! (with its `#anchor`, if any) points at something that exists.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The guide's pages, in the order README.md lists them. A page added to
/// docs/ without a test here fails `every_page_is_tested`.
const PAGES: &[&str] = &[
    "running.md",
    "languages.md",
    "verify.md",
    "config.md",
    "packages.md",
    "new-problem.md",
    "generation.md",
    "interactive.md",
    "scoring.md",
    "reports.md",
    "cache.md",
    "sandbox.md",
    "puzzles.md",
];

/// How long one command may take before it counts as hung.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One fenced block: its info string, first line number and lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match open.take() {
                Some(b) => out.push(b),
                None => {
                    open = Some(Block {
                        info: rest.trim().to_string(),
                        line: i + 1,
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(b) = open.as_mut() {
            b.lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// Whether only blank lines lie between two blocks.
fn adjacent(text: &str, first: &Block, second: &Block) -> bool {
    let end = first.line + first.lines.len() + 1; // the closing fence's line
    text.lines()
        .skip(end)
        .take(second.line - end - 1)
        .all(|l| l.trim().is_empty())
}

/// A command's expected exit code: `# exit N` at its end, else 0.
fn expected_exit(line: &str) -> i32 {
    if let Some(at) = line.rfind("# exit ")
        && let Ok(code) = line[at + "# exit ".len()..].trim().parse()
    {
        return code;
    }
    0
}

/// A copy of what the docs' commands use, with `judge` first on PATH.
struct Copy {
    _scratch: Scratch,
    root: PathBuf,
    path_var: String,
    cache: PathBuf,
    tmp: PathBuf,
}

fn copy_repo() -> Copy {
    let s = Scratch::new();
    // The sandbox runs programs as other users (as root: one per slot);
    // they must reach the copy and the TMPDIR inside this 0700 directory.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(s.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let repo = s.path().join("repo");
    for dir in ["cases", "examples", "solutions"] {
        s.copy_tree(&root().join(dir), &format!("repo/{dir}"));
    }
    std::fs::copy(root().join("judge.toml"), repo.join("judge.toml")).unwrap();
    // Scripts keep their modes (copy_tree's fs::copy keeps permissions).
    let bin = s.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_judge"), bin.join("judge")).unwrap();
    let cache = s.path().join("cache");
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path_var = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Copy {
        _scratch: s,
        root: repo,
        path_var,
        cache,
        tmp,
    }
}

/// Run one line with `sh -c` in `dir`; its exit code and output.
fn run_line(copy: &Copy, dir: &Path, line: &str) -> (i32, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", &copy.path_var)
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .env("JUDGE_CACHE_DIR", &copy.cache)
        .env("TMPDIR", &copy.tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sh");
    // Read both pipes on threads so a chatty command cannot block.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > COMMAND_TIMEOUT {
            child.kill().ok();
            child.wait().ok();
            panic!("`{line}` ran over {COMMAND_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut text = String::from_utf8_lossy(&out.join().unwrap()).into_owned();
    text.push_str(&String::from_utf8_lossy(&err.join().unwrap()));
    (status.code().unwrap_or(-1), text)
}

/// Run every `sh` block of one page, in order, in a fresh copy; return
/// the failures.
fn run_page(rel: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    let all = blocks(&text);
    let copy = copy_repo();
    let mut failures = Vec::new();
    for (i, block) in all.iter().enumerate() {
        if block.info != "sh" {
            continue;
        }
        let mut dir = copy.root.clone();
        let mut printed = String::new();
        for (k, line) in block.lines.iter().enumerate() {
            let line = line.trim();
            if k == 0
                && let Some(d) = line.strip_prefix("# in:")
            {
                dir = copy.root.join(d.trim());
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let started = Instant::now();
            let (code, output) = run_line(&copy, &dir, line);
            eprintln!(
                "{rel}:{}: `{line}` exit {code} ({:.1}s)",
                block.line,
                started.elapsed().as_secs_f64()
            );
            let want = expected_exit(line);
            if code != want {
                failures.push(format!(
                    "{rel}:{}: `{line}` exited {code}, the docs say {want}:\n{output}",
                    block.line
                ));
            }
            printed.push_str(&output);
        }
        if let Some(next) = all.get(i + 1)
            && next.info == "text"
            && adjacent(&text, block, next)
        {
            for want in &next.lines {
                let want = want.trim();
                if want.is_empty() || want == "…" || want == "..." {
                    continue;
                }
                if !printed.contains(want) {
                    failures.push(format!(
                        "{rel}:{}: the output shown is not printed: {want:?}\nprinted:\n{printed}",
                        next.line
                    ));
                }
            }
        }
    }
    failures
}

fn check_page(rel: &str) {
    let failures = run_page(rel);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_commands_run() {
    check_page("README.md");
}

#[test]
fn examples_readme_commands_run() {
    check_page("examples/README.md");
}

macro_rules! pages {
    ($($test:ident: $page:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_page(concat!("docs/", $page));
            }
        )*
    };
}

pages! {
    running_commands_run: "running.md",
    languages_commands_run: "languages.md",
    verify_commands_run: "verify.md",
    config_commands_run: "config.md",
    packages_commands_run: "packages.md",
    new_problem_commands_run: "new-problem.md",
    generation_commands_run: "generation.md",
    interactive_commands_run: "interactive.md",
    scoring_commands_run: "scoring.md",
    reports_commands_run: "reports.md",
    cache_commands_run: "cache.md",
    sandbox_commands_run: "sandbox.md",
    puzzles_commands_run: "puzzles.md",
}

#[test]
fn every_page_is_tested_linked_and_opens_with_an_example() {
    let mut found: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = PAGES.iter().map(|p| p.to_string()).collect();
    listed.sort();
    assert_eq!(
        found, listed,
        "docs/*.md and PAGES (and the tests above) differ"
    );

    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines; the guide is docs/"
    );
    for page in PAGES {
        assert!(
            readme.contains(&format!("](docs/{page})")),
            "README.md does not link docs/{page}"
        );
        let text = std::fs::read_to_string(root().join("docs").join(page)).unwrap();
        let first = blocks(&text).into_iter().next();
        assert!(
            first.as_ref().is_some_and(|b| b.info == "sh"),
            "docs/{page} does not open with a `sh` example"
        );
    }
    // The two commands stay the first thing the README shows.
    let first = blocks(&readme).into_iter().next().unwrap();
    let shown: Vec<&str> = first
        .lines
        .iter()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(
        shown,
        ["cargo run --release -- run", "cargo test --release"]
    );
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces
/// made hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn relative_links_point_at_something() {
    let mut pages: Vec<PathBuf> = vec![
        root().join("README.md"),
        root().join("examples/README.md"),
        root().join("SECURITY.md"),
    ];
    pages.extend(PAGES.iter().map(|p| root().join("docs").join(p)));
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            rest = &rest[end..];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, frag) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target, None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let name = page.strip_prefix(root()).unwrap().display().to_string();
            if !path.exists() {
                broken.push(format!("{name}: {target} (no such file)"));
                continue;
            }
            if let Some(frag) = frag {
                let linked = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&linked).iter().any(|a| a == frag) {
                    broken.push(format!("{name}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
