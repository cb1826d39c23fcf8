//! Helpers for integration tests: a scratch directory with a case tree, the
//! real `judge` binary run in it, and small real programs (C, C++ or sh)
//! built by the tests themselves and cached by content.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A C solution of a+b (exit 3 on input it cannot read), and one that
/// prints a-b: an accepted and a wrong answer for the packages tests write.
pub const SUM_C: &str = r#"#include <stdio.h>
int main(void) { long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 3; printf("%lld\n", a + b); return 0; }
"#;

pub const DIFFERENCE_C: &str = r#"#include <stdio.h>
int main(void) { long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 3; printf("%lld\n", a - b); return 0; }
"#;

pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            dir: tempfile::Builder::new()
                .prefix("judge-test-")
                .tempdir()
                .expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Write a file (creating directories).
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }

    /// Write an executable shell script.
    pub fn script(&self, rel: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.write(rel, format!("#!/bin/sh\n{body}\n"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// A `judge` command running in this directory.
    pub fn judge(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_judge"));
        c.current_dir(self.path())
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env("JUDGE_CACHE_DIR", shared_cache())
            // Runs are not shared across tests (the same script on the same
            // input in two tests of the sandbox may mean to see two
            // machines); tests/run_cache.rs turns the cache on.
            .env("JUDGE_NO_CACHE", "1")
            .stdin(Stdio::null());
        c
    }

    /// Run the judge here with these arguments.
    pub fn run_judge(&self, args: &[&str]) -> Ran {
        let mut cmd = self.judge();
        cmd.args(args);
        run(cmd)
    }

    /// Copy a directory tree into this scratch directory, under `rel`.
    pub fn copy_tree(&self, from: &Path, rel: &str) -> PathBuf {
        let to = self.path().join(rel);
        for entry in walkdir::WalkDir::new(from) {
            let entry = entry.unwrap();
            let target = to.join(entry.path().strip_prefix(from).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
        to
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap()
    }
}

/// What a finished command printed.
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", self.stdout, self.stderr))
    }
}

/// Start `command`, as [`run`] does, and return the child.
#[allow(dead_code)]
pub fn spawn(command: &mut Command) -> std::process::Child {
    retry_busy(|| command.spawn()).expect("start the judge")
}

/// Retry a start while the binary is "busy": a binary copied a moment ago
/// (`unprivileged_judge`) can be, when another test thread forked while it
/// was written and its child held the written descriptor until its own
/// exec. That passes at once.
fn retry_busy<T>(mut start: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let mut tries = 0;
    loop {
        match start() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

pub fn run(mut command: Command) -> Ran {
    let Output {
        status,
        stdout,
        stderr,
    } = retry_busy(|| command.output()).expect("run judge");
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Compile a C (`lang = "c"`) or C++ (`"c++"`) program once per content,
/// into the test target directory, and return the binary's path.
pub fn build(lang: &str, name: &str, source: &str) -> PathBuf {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in source.bytes().chain(lang.bytes()) {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join(format!("{name}-{hash:016x}"));
    if binary.exists() {
        return binary;
    }
    let (compiler, ext) = match lang {
        "c" => ("cc", "c"),
        "c++" => ("c++", "cpp"),
        other => panic!("unknown language {other}"),
    };
    // Tests run in parallel threads and processes: every build gets its
    // own source and output names, and the last rename wins (same bytes).
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let unique = format!(
        "{}-{}",
        std::process::id(),
        BUILDS.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    );
    let src = dir.join(format!("{name}-{hash:016x}.{unique}.{ext}"));
    std::fs::write(&src, source).unwrap();
    let tmp = dir.join(format!("{name}-{hash:016x}.{unique}.tmp"));
    let status = Command::new(compiler)
        .args(["-O2", "-o"])
        .arg(&tmp)
        .arg(&src)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(status.success(), "{compiler} failed on {name}");
    std::fs::rename(&tmp, &binary).unwrap();
    let _ = std::fs::remove_file(&src);
    binary
}

/// The A+B reference in C: T, then T pairs; one sum a line.
pub const AB_C: &str = r#"
#include <stdio.h>
int main(void) {
    long long t, a, b;
    if (scanf("%lld", &t) != 1) return 0;
    while (t-- > 0 && scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", a + b);
    return 0;
}
"#;

/// A+B that multiplies when a is 7: wrong on exactly the cases holding
/// `7 7`.
pub const WRONG_ON_SEVEN_C: &str = r#"#include <stdio.h>
int main(void){long long t,a,b;scanf("%lld",&t);while(t--&&scanf("%lld %lld",&a,&b)==2)printf("%lld\n",a==7?a*b:a+b);return 0;}"#;

/// A+B data in a Kattis-style package: one sample and two secret cases
/// (the second holds `7 7`).
pub fn ab_package_data(s: &Scratch, pkg: &str) {
    s.write(&format!("{pkg}/data/sample/1.in"), "1\n1 2\n");
    s.write(&format!("{pkg}/data/sample/1.ans"), "3\n");
    s.write(&format!("{pkg}/data/secret/1.in"), "2\n1 2\n3 4\n");
    s.write(&format!("{pkg}/data/secret/1.ans"), "3\n7\n");
    s.write(&format!("{pkg}/data/secret/2.in"), "1\n7 7\n");
    s.write(&format!("{pkg}/data/secret/2.ans"), "14\n");
}

/// A cases tree for A+B: `cases/sum/{1,2,3}.in/.ans`.
pub fn sum_cases(s: &Scratch) {
    s.write("cases/sum/1.in", "2\n1 2\n3 4\n");
    s.write("cases/sum/1.ans", "3\n7\n");
    s.write("cases/sum/2.in", "1\n7 7\n");
    s.write("cases/sum/2.ans", "14\n");
    s.write("cases/sum/10.in", "1\n-5 5\n");
    s.write("cases/sum/10.ans", "0\n");
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\ntime_limit = \"500ms\"\n",
    );
}

/// The build cache the tests share (entries are keyed by content, and
/// concurrent judges may share a cache).
pub fn shared_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache")
}

/// The repository's `examples/` directory.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// Whether a program is on PATH.
pub fn installed(program: &str) -> bool {
    judge::exec::runner::resolve_program(program).is_ok()
}

/// Processes whose command line contains `needle`, not zombies.
pub fn alive_with(needle: &str) -> Vec<i32> {
    judge::exec::procfs::with_cmdline_containing(needle)
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

/// Run a command to the end, with stdout and stderr in files, and return
/// what it printed and its own peak memory (KiB) from wait4.
pub fn run_measured(mut command: Command) -> (Ran, u64) {
    let dir = tempfile::tempdir().unwrap();
    let out = std::fs::File::create(dir.path().join("out")).unwrap();
    let err = std::fs::File::create(dir.path().join("err")).unwrap();
    let child = command.stdout(out).stderr(err).spawn().expect("spawn");
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: wait4 on our own child with valid out-pointers; std never
    // waits for it (the Child is forgotten).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    let ran = Ran {
        code,
        stdout: std::fs::read_to_string(dir.path().join("out")).unwrap_or_default(),
        stderr: std::fs::read_to_string(dir.path().join("err")).unwrap_or_default(),
    };
    (ran, usage.ru_maxrss as u64)
}

/// Entries left in a directory (a judge's private TMPDIR should end empty).
pub fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                // The build cache of a judge with no HOME (`judge-cache-UID`)
                // is kept on purpose: it is no leftover of a run.
                .filter(|name| !name.starts_with("judge-cache-"))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the report says a protection (by the start of its line) is on.
pub fn protection_on(report: &serde_json::Value, prefix: &str) -> bool {
    report["protections"]["on"].as_array().is_some_and(|a| {
        a.iter()
            .any(|p| p.as_str().is_some_and(|p| p.starts_with(prefix)))
    })
}

/// The uid the tests run an unprivileged judge as when they are root.
pub const NOBODY: u32 = 65534;

fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::metadata(path).unwrap().permissions().mode() & 0o100 != 0;
    let mode = if path.is_dir() || executable {
        0o755
    } else {
        0o644
    };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A judge command for an unprivileged user, in `s`, with its own copy of
/// the binary (the build tree may be closed to other users): as `nobody`
/// when the tests run as root, else as the tester.
pub fn unprivileged_judge(s: &Scratch) -> Command {
    use std::os::unix::process::CommandExt;
    let binary = s.path().join("bin/judge");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &binary).unwrap();
    for entry in walkdir::WalkDir::new(s.path()) {
        open_to_all(entry.unwrap().path());
    }
    let mut c = Command::new(&binary);
    c.current_dir(s.path())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("NO_COLOR", "1")
        .env("JUDGE_NO_CACHE", "1")
        .stdin(Stdio::null());
    if is_root() {
        c.uid(NOBODY).gid(NOBODY);
    }
    c
}

/// Whether the tests run as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A pseudo-terminal (posix_openpt): (master, slave), 120 columns wide.
pub fn pty() -> (std::fs::File, std::os::fd::OwnedFd) {
    // SAFETY: plain libc calls on descriptors this function owns; every
    // result is checked before use.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0, "grantpt");
        assert_eq!(libc::unlockpt(master), 0, "unlockpt");
        let mut name = [0 as libc::c_char; 256];
        assert_eq!(
            libc::ptsname_r(master, name.as_mut_ptr(), name.len()),
            0,
            "ptsname_r"
        );
        let slave = libc::open(
            name.as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        assert!(slave >= 0, "open the slave");
        let size = libc::winsize {
            ws_row: 40,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(libc::ioctl(slave, libc::TIOCSWINSZ, &size), 0, "TIOCSWINSZ");
        (
            <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(master),
            <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(slave),
        )
    }
}
