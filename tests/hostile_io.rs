//! Attacks on what a run is given and what it leaves, checked beyond the
//! corpus rule of `tests/attacks.rs` (never AC): the case's input file is
//! unchanged on disk after a program tried to rewrite it; a working
//! directory 30,000 levels deep is removed, and a killed judge's tree too
//! deep to remove at once never stalls a later judge; page cache one case
//! leaves charged to its slot's memory cgroup is not the next case's.

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const INPUT: &str = "2\n1 2\n3 4\n";
const ANSWER: &str = "3\n7\n";

fn hostile(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/hostile/{name}.c"));
    build("c", name, &std::fs::read_to_string(path).unwrap())
}

/// A judge of `program` on the cases of `s`, as the tester or
/// unprivileged, with TMPDIR `tmp`.
fn judge(s: &Scratch, tmp: &Path, program: &Path, unprivileged: bool, args: &[&str]) -> Command {
    let mut c = if unprivileged {
        // Where the unprivileged user can run it (a program of the
        // scratch directory is already).
        let copy = if program.starts_with(s.path()) {
            program.to_path_buf()
        } else {
            let copy = s.path().join("bin").join(program.file_name().unwrap());
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::copy(program, &copy).unwrap();
            copy
        };
        let mut c = unprivileged_judge(s);
        std::fs::set_permissions(tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        c.env("TMPDIR", tmp);
        c.args(["run", "--problem", "sum", "--check", "tokens", "cases"])
            .args(args)
            .args(["--format", "json", "--submission"])
            .arg(copy);
        return c;
    } else {
        s.judge()
    };
    c.env("TMPDIR", tmp)
        .args(["run", "--problem", "sum", "--check", "tokens", "cases"])
        .args(args)
        .args(["--format", "json", "--submission"])
        .arg(program);
    c
}

fn who(unprivileged: bool) -> &'static str {
    if unprivileged {
        "unprivileged"
    } else {
        "as the tester"
    }
}

fn verdicts(ran: &Ran) -> Vec<String> {
    ran.json()["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or("").to_string())
        .collect()
}

fn input_is_not_rewritten(unprivileged: bool) {
    let s = Scratch::new();
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    for i in 1..=2 {
        s.write(&format!("cases/{i}.in"), INPUT);
        s.write(&format!("cases/{i}.ans"), ANSWER);
    }
    // The cases are the judge's user's own, as they are for anyone who
    // runs a judge without root (a program then runs as their owner).
    if unprivileged && is_root() {
        for i in 1..=2 {
            let path = s.path().join(format!("cases/{i}.in"));
            std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
        }
    }
    let program = hostile("input_rewrite_via_fd0");
    let ran = run(judge(
        &s,
        &tmp,
        &program,
        unprivileged,
        &["-j", "1", "--time-limit", "2s"],
    ));
    let who = who(unprivileged);
    for verdict in verdicts(&ran) {
        assert!(
            verdict == "WA",
            "{who}: the rewrite worked ({verdict}): {}",
            ran.stdout
        );
    }
    for i in 1..=2 {
        assert_eq!(
            s.read(&format!("cases/{i}.in")),
            INPUT,
            "{who}: case {i} rewritten"
        );
    }
    assert_eq!(leftovers(&tmp), Vec::<String>::new(), "{who}: left behind");
}

#[test]
fn the_input_file_is_unchanged_after_a_run_that_rewrites_it_as_the_tester() {
    input_is_not_rewritten(false);
}

#[test]
fn the_input_file_is_unchanged_after_a_run_that_rewrites_it_unprivileged() {
    input_is_not_rewritten(true);
}

/// A directory removed with `rm -rf` (which removes a deep tree without
/// recursing), never with `TempDir`'s recursive removal, which a tree the
/// judge failed to remove would overflow.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = Command::new("rm").arg("-rf").arg(&self.0).status();
    }
}

/// A TMPDIR for deep trees: on tmpfs where there is one (a tree is made
/// and removed there several times faster than on a disk with `discard`).
fn deep_tmp(s: &Scratch) -> (Removed, PathBuf) {
    let base = if std::fs::metadata("/dev/shm").is_ok_and(|m| m.is_dir()) {
        tempfile::Builder::new()
            .prefix("judge-deep-")
            .tempdir_in("/dev/shm")
    } else {
        tempfile::Builder::new()
            .prefix("judge-deep-")
            .tempdir_in(s.path())
    }
    .unwrap()
    .keep();
    std::fs::set_permissions(&base, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmp = base.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    (Removed(base), tmp)
}

fn deep_workdir_is_removed(unprivileged: bool) {
    let s = Scratch::new();
    s.write("cases/1.in", INPUT);
    s.write("cases/1.ans", ANSWER);
    let (_base, tmp) = deep_tmp(&s);
    let program = hostile("deep_workdir");
    let who = who(unprivileged);
    let ran = run(judge(
        &s,
        &tmp,
        &program,
        unprivileged,
        &["--time-limit", "6s"],
    ));
    assert_eq!(ran.code, 1, "{who}: the judge's exit: {}", ran.stderr);
    let verdict = verdicts(&ran);
    assert!(
        verdict == ["WA"] || verdict == ["TLE"],
        "{who}: {verdict:?} {}",
        ran.stderr
    );
    assert!(
        !ran.stderr.contains("could not remove"),
        "{who}: {}",
        ran.stderr
    );
    assert_eq!(leftovers(&tmp), Vec::<String>::new(), "{who}: left behind");
    // The next judge has nothing to clean and starts at once.
    s.script("bin/ok.sh", "printf '3\\n7\\n'");
    let started = Instant::now();
    let ok = run(judge(
        &s,
        &tmp,
        &s.path().join("bin/ok.sh"),
        unprivileged,
        &[],
    ));
    assert_eq!(ok.json()["verdict"], "AC", "{who}: {}", ok.stderr);
    assert!(!ok.stderr.contains("cleaned up"), "{who}: {}", ok.stderr);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{who}: slow start"
    );
}

#[test]
fn a_working_directory_30000_deep_is_removed_as_the_tester() {
    deep_workdir_is_removed(false);
}

#[test]
fn a_working_directory_30000_deep_is_removed_unprivileged() {
    deep_workdir_is_removed(true);
}

/// The scratch directory of a judge killed while its tree of 200,000
/// levels was removed: the next judge spends a bounded time on it, sets it
/// aside and says so once; the judge after that does not look at it.
#[test]
fn a_killed_judges_tree_too_deep_to_remove_at_once_stalls_no_judge() {
    let s = Scratch::new();
    s.write("cases/1.in", INPUT);
    s.write("cases/1.ans", ANSWER);
    s.script("bin/ok.sh", "printf '3\\n7\\n'");
    let (_base, tmp) = deep_tmp(&s);
    // A pid that no process has now: the judge's mark names a dead judge.
    let pid = {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    // Made as the unprivileged user the judges run as (`nobody` when the
    // tests are root): the judge's own, so a later judge takes it for a
    // killed judge's, and one closed directory deep past PATH_MAX, which
    // a path-based walk cannot open up.
    let owner = is_root().then_some(NOBODY);
    let give = |fd: std::os::fd::BorrowedFd<'_>| {
        if let Some(id) = owner {
            rustix::fs::fchown(
                fd,
                Some(rustix::fs::Uid::from_raw(id)),
                Some(rustix::fs::Gid::from_raw(id)),
            )
            .unwrap();
        }
    };
    let scratch = tmp.join("judge-run-killed");
    std::fs::create_dir(&scratch).unwrap();
    let mark = scratch.join("judge.owner");
    std::fs::write(&mark, format!("pid {pid}\nstart 1\n")).unwrap();
    let mut dir = std::fs::File::open(&scratch).unwrap();
    use std::os::fd::AsFd;
    give(std::fs::File::open(&mark).unwrap().as_fd());
    give(dir.as_fd());
    for level in 0..200_000 {
        rustix::fs::mkdirat(dir.as_fd(), c"d", rustix::fs::Mode::RWXU).unwrap();
        let child: std::fs::File = rustix::fs::openat(
            dir.as_fd(),
            c"d",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
            rustix::fs::Mode::empty(),
        )
        .unwrap()
        .into();
        give(child.as_fd());
        if level == 3_000 {
            rustix::fs::fchmod(dir.as_fd(), rustix::fs::Mode::empty()).unwrap();
        }
        dir = child;
    }
    drop(dir);
    let started = Instant::now();
    let first = run(judge(&s, &tmp, &s.path().join("bin/ok.sh"), true, &[]));
    let first_took = started.elapsed();
    assert_eq!(first.json()["verdict"], "AC", "{}", first.stderr);
    let line = format!("cleaned up after a judge that was killed (pid {pid})");
    assert!(first.stderr.contains(&line), "{}", first.stderr);
    assert!(first_took < Duration::from_secs(6), "took {first_took:?}");
    let aside: Vec<String> = leftovers(&tmp);
    if !aside.is_empty() {
        // Not removed within its bound: set aside, and named.
        assert_eq!(aside, ["judge-trash-killed"], "{}", first.stderr);
        assert!(first.stderr.contains("set aside as"), "{}", first.stderr);
        let mode = std::fs::metadata(tmp.join("judge-trash-killed"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "a set-aside tree is closed to others");
    }
    let started = Instant::now();
    let second = run(judge(&s, &tmp, &s.path().join("bin/ok.sh"), true, &[]));
    assert_eq!(second.json()["verdict"], "AC", "{}", second.stderr);
    assert!(
        !second.stderr.contains("judge-run-killed"),
        "{}",
        second.stderr
    );
    assert!(!second.stderr.contains("cleaned up"), "{}", second.stderr);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the next judge stalled"
    );
    assert_eq!(leftovers(&tmp), aside, "the second judge left something");
}

/// Case 1 reads a file larger than the memory limit (its page cache is
/// charged to the slot's memory cgroup, and stays there: the file is not
/// in the working directory); case 2, on the same slot, allocates and
/// touches 56 MiB of its 64 MiB and fails (exit 1). Alone, case 2 is RE;
/// charged with case 1's cache it would hit the limit and be MLE.
const PAGE_CACHE: &str = r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int mode;
    char path[4096];
    if (scanf("%d", &mode) != 1) return 2;
    if (mode == 1) {
        if (scanf("%4095s", path) != 1) return 2;
        int fd = open(path, O_RDONLY);
        if (fd < 0) return 3;
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        static char buf[1 << 16];
        long long total = 0;
        ssize_t n;
        while ((n = read(fd, buf, sizeof buf)) > 0) total += n;
        printf("%lld\n", total >> 20);
        return 0;
    }
    size_t size = (size_t)56 << 20;
    volatile char *p = malloc(size);
    if (!p) return 4;
    long long sum = 0;
    for (size_t i = 0; i < size; i += 4096) p[i] = (char)(i >> 12);
    for (size_t i = 0; i < size; i += 4096) sum += p[i];
    printf("%lld\n", sum);
    return 1;
}
"#;

#[test]
fn page_cache_one_case_leaves_is_not_charged_to_the_next() {
    if !is_root() {
        eprintln!("skipped: a memory cgroup needs root here");
        return;
    }
    let s = Scratch::new();
    std::fs::set_permissions(s.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let big = s.path().join("big.bin");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&big).unwrap();
        let block = vec![5u8; 1 << 20];
        for _ in 0..200 {
            f.write_all(&block).unwrap();
        }
        f.sync_all().unwrap();
    }
    std::fs::set_permissions(&big, std::fs::Permissions::from_mode(0o644)).unwrap();
    s.write("cases/1.in", format!("1 {}\n", big.display()));
    s.write("cases/1.ans", "200\n");
    s.write("cases/2.in", "2\n");
    s.write("cases/2.ans", "1\n");
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let program = build("c", "page_cache_charge", PAGE_CACHE);
    let args = ["-j", "1", "--memory-limit", "64MiB", "--time-limit", "5s"];
    let ran = run(judge(&s, &tmp, &program, false, &args));
    let report = ran.json();
    let memory_cgroup = report["protections"]["on"].as_array().is_some_and(|on| {
        on.iter().any(|p| {
            p.as_str()
                .is_some_and(|p| p.starts_with("cgroup") && p.contains("memory"))
        })
    });
    if !memory_cgroup {
        eprintln!("skipped: no memory cgroup here: {}", report["protections"]);
        return;
    }
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(
        cases[0]["verdict"], "AC",
        "case 1 read its file: {:#}",
        cases[0]
    );
    assert_eq!(
        cases[1]["verdict"], "RE",
        "case 2 is charged with case 1's page cache: {:#}",
        cases[1]
    );
    // Its own 56 MiB and its runtime, not case 1's cache as well.
    let peak = cases[1]["peak_rss_kib"].as_u64().unwrap_or(u64::MAX);
    assert!(
        peak < 60 << 10,
        "case 2's peak counts case 1's page cache: {:#}",
        cases[1]
    );
}

/// As root, a TMPDIR closed to others (`mktemp -d` makes 0700) is refused
/// up front, naming the directory and what to do: the per-worker users
/// could not reach their programs there (SECURITY.md).
#[test]
fn a_closed_tmpdir_is_refused_up_front_as_root() {
    if !is_root() {
        eprintln!("a_closed_tmpdir_is_refused_up_front_as_root: not root, not run");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    sum_cases(&s);
    let closed = s.path().join("closed");
    std::fs::create_dir(&closed).unwrap();
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
    let mut c = s.judge();
    c.env("TMPDIR", &closed).args([
        "run",
        "cases/sum",
        "--problem",
        "sum",
        "--submission",
        "cat",
    ]);
    let ran = run(c);
    assert_ne!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stderr.contains("cannot be entered by other users")
            && ran.stderr.contains(&closed.display().to_string())
            && ran.stderr.contains("--sandbox plain"),
        "{}",
        ran.stderr
    );
    // Opened to others (as /tmp is), the same run goes ahead.
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let mut c = s.judge();
    c.env("TMPDIR", &closed).args([
        "run",
        "cases/sum",
        "--problem",
        "sum",
        "--submission",
        "cat",
    ]);
    let ran = run(c);
    assert!(!ran.stderr.contains("cannot be entered"), "{}", ran.stderr);
}
