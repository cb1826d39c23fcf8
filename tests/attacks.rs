//! The hostile-program corpus of `tests/hostile/`: one C file per attack,
//! each with a comment saying what it tries and a `// setup:` line saying
//! how the judge is started for it. Every program prints the right answer
//! only when its attack worked, so the rule is the same for all: never AC,
//! never IE, and nothing left behind. Each attack runs twice: with the
//! judge as the tests' user (root in CI: the root sandbox) and as an
//! unprivileged user (`nobody` when the tests are root: the user-namespace
//! sandbox).

mod common;
use common::*;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const INPUT: &str = "2\n1 2\n3 4\n";
const ANSWER: &str = "3\n7\n";

/// One attack of the corpus.
struct Attack {
    name: String,
    source: String,
    setup: String,
}

fn corpus() -> Vec<Attack> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut attacks: Vec<Attack> = std::fs::read_dir(&dir)
        .expect("tests/hostile")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .map(|path| {
            let source = std::fs::read_to_string(&path).unwrap();
            assert!(
                source.starts_with("// attack: "),
                "{}: must open with `// attack: what it tries`",
                path.display()
            );
            let setup = source
                .lines()
                .find_map(|l| l.strip_prefix("// setup: "))
                .unwrap_or_else(|| panic!("{}: no `// setup:` line", path.display()))
                .split_whitespace()
                .next()
                .unwrap()
                .to_string();
            Attack {
                name: path.file_stem().unwrap().to_string_lossy().into_owned(),
                source,
                setup,
            }
        })
        .collect();
    attacks.sort_by(|a, b| a.name.cmp(&b.name));
    attacks
}

/// How the judge is run for one attack, and what was made for it.
struct Stage {
    s: Scratch,
    tmp: PathBuf,
    args: Vec<String>,
    /// A file to hand to the judge as descriptor 7.
    fd7: Option<PathBuf>,
    /// A listening socket, kept open while the judge runs.
    _listener: Option<std::os::unix::net::UnixListener>,
}

fn stage(attack: &Attack) -> (Stage, String) {
    let s = Scratch::new();
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut source = attack.source.clone();
    let mut args: Vec<String> = ["run", "--problem", "sum", "--check", "tokens"]
        .map(String::from)
        .to_vec();
    let mut fd7 = None;
    let mut listener = None;
    let mut cases = 1;
    match attack.setup.as_str() {
        "files" => {
            for i in 1..=2 {
                s.write(&format!("cases/{i}.in"), INPUT);
                s.write(&format!("cases/{i}.ans"), ANSWER);
                args.push(format!("cases/{i}.in"));
            }
            cases = 0;
        }
        "symlink" => {
            let target = s.write("elsewhere/real.ans", ANSWER);
            s.write("cases/1.in", INPUT);
            std::os::unix::fs::symlink(&target, s.path().join("cases/1.ans")).unwrap();
            source = source.replace("@TARGET@", &target.display().to_string());
            cases = 0;
        }
        "fd" => fd7 = Some(s.write("secret/answer.txt", ANSWER)),
        "socket" => {
            let path = s.path().join("sock");
            let l = std::os::unix::net::UnixListener::bind(&path).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
            listener = Some(l);
            source = source.replace("@SOCKET@", &path.display().to_string());
        }
        // Three cases on one worker, in order: a channel from one case
        // to the next (the program's own rule says whether it was made).
        "ipc" | "serial" => {
            cases = 3;
            args.extend(["-j".into(), "1".into()]);
        }
        "plain" => {}
        "memory" => args.extend(["--memory-limit".into(), "64MiB".into()]),
        other => panic!("{}: unknown setup {other:?}", attack.name),
    }
    for i in 1..=cases {
        s.write(&format!("cases/{i}.in"), INPUT);
        s.write(&format!("cases/{i}.ans"), ANSWER);
    }
    if attack.setup != "files" {
        args.push("cases".into());
    }
    args.extend(
        ["--time-limit", "1s", "--format", "json", "--submission"]
            .into_iter()
            .map(String::from),
    );
    (
        Stage {
            s,
            tmp,
            args,
            fd7,
            _listener: listener,
        },
        source,
    )
}

/// Hand `file` to the judge as its descriptor 7 (not close-on-exec), as a
/// shell's `7<file` would.
fn with_fd7(command: &mut Command, file: &Path) {
    let f = std::fs::File::open(file).unwrap();
    use std::os::fd::IntoRawFd;
    let raw = f.into_raw_fd();
    // SAFETY: dup2 between fork and exec, on a descriptor we own.
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(raw, 7) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

fn check(attack: &Attack, who: &str, ran: &Ran, tmp: &Path) {
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| {
        panic!(
            "{} ({who}): no JSON report ({e}); stderr: {}",
            attack.name, ran.stderr
        )
    });
    let cases = report["cases"].as_array().expect("cases");
    assert!(!cases.is_empty(), "{} ({who}): no case ran", attack.name);
    for case in cases {
        let verdict = case["verdict"].as_str().unwrap_or("");
        assert!(
            verdict != "AC" && verdict != "IE",
            "{} ({who}): the attack got {verdict}: {case:#}\nprotections: {:#}",
            attack.name,
            report["protections"]
        );
    }
    // An IPC attack must really leave its object behind each time (its
    // program exits 3 when it cannot make it): WA on every case proves the
    // object was made and not found by the next case.
    if attack.setup == "ipc" {
        for case in cases {
            assert_eq!(
                case["verdict"], "WA",
                "{} ({who}): the attack did not make its object: {case:#}",
                attack.name
            );
        }
    }
    assert_eq!(
        leftovers(tmp),
        Vec::<String>::new(),
        "{} ({who}): temporary files left behind",
        attack.name
    );
}

fn run_attack(attack: &Attack, unprivileged: bool) {
    let (stage, source) = stage(attack);
    let program = build("c", &attack.name, &source);
    let who = if unprivileged {
        "unprivileged"
    } else {
        "as the tester"
    };
    let mut command = if unprivileged {
        // The program must be readable by the unprivileged user.
        let copy = stage.s.path().join("bin/attack");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&program, &copy).unwrap();
        let mut c = unprivileged_judge(&stage.s);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stage.tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        c.env("TMPDIR", &stage.tmp);
        c.args(&stage.args).arg(&copy);
        c
    } else {
        let mut c = stage.s.judge();
        c.env("TMPDIR", &stage.tmp);
        c.args(&stage.args).arg(&program);
        c
    };
    if let Some(file) = &stage.fd7 {
        with_fd7(&mut command, file);
    }
    let ran = run(command);
    check(attack, who, &ran, &stage.tmp);
}

#[test]
fn every_attack_fails_as_the_tester() {
    let attacks = corpus();
    assert!(attacks.len() >= 8, "the corpus shrank: {}", attacks.len());
    for attack in &attacks {
        run_attack(attack, false);
    }
}

#[test]
fn every_attack_fails_unprivileged() {
    for attack in &corpus() {
        run_attack(attack, true);
    }
}

/// A submission that leaves a `setsid` daemon (double fork) and sleeps:
/// the judge is killed with SIGKILL while it runs. Every process carries
/// the marker argument it was started with, so the test can find them.
const DAEMON: &str = r#"#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) {
            close(0); close(1); close(2);
            for (;;) sleep(1);
        }
        _exit(0);
    }
    waitpid(p, 0, 0);
    for (;;) sleep(1);
}
"#;

/// Processes whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
                .filter(|pid| {
                    std::fs::read(format!("/proc/{pid}/cmdline"))
                        .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Cgroup directories named `judge-PID` (the killed judge's), a few levels
/// under /sys/fs/cgroup.
fn judge_cgroups(pid: u32) -> Vec<PathBuf> {
    let name = format!("judge-{pid}");
    walkdir::WalkDir::new("/sys/fs/cgroup")
        .max_depth(4)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_dir() && e.file_name() == name.as_str())
        .map(|e| e.into_path())
        .collect()
}

/// Poll `done` for up to `seconds`.
fn within(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while std::time::Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    done()
}

/// Kill a judge with SIGKILL while its submission runs (and has left a
/// daemon), then run a judge again in the same TMPDIR: the second one
/// removes the first one's scratch directory and cgroups, leaves no
/// process of its runs alive, and says so on stderr. In a PID namespace
/// the daemon dies with the killed judge already (the namespace's init
/// sees the judge go).
fn killed_judge_is_cleaned_up_after(unprivileged: bool) {
    let s = Scratch::new();
    let tmp = s.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    s.write("cases/1.in", INPUT);
    s.write("cases/1.ans", ANSWER);
    let daemon = s.path().join("bin/daemon");
    std::fs::create_dir_all(daemon.parent().unwrap()).unwrap();
    std::fs::copy(build("c", "leftover_daemon", DAEMON), &daemon).unwrap();
    s.script("bin/ok.sh", "printf '3\\n7\\n'");
    let marker = format!("leftover-marker-{}-{unprivileged}", std::process::id());
    if unprivileged {
        // Copies the judge where `nobody` can run it, once: a second copy
        // could find the killed judge's binary still mapped by a process
        // that is exiting (ETXTBSY).
        drop(unprivileged_judge(&s));
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    }
    let judge = |submission: String| {
        let mut c = if unprivileged {
            let mut c = Command::new(s.path().join("bin/judge"));
            c.current_dir(s.path())
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("NO_COLOR", "1")
                .stdin(std::process::Stdio::null());
            if is_root() {
                c.uid(NOBODY).gid(NOBODY);
            }
            c
        } else {
            s.judge()
        };
        c.env("TMPDIR", &tmp)
            .args(["run", "--problem", "sum", "--check", "tokens", "cases"])
            .args(["--time-limit", "10s", "--format", "json", "--submission"])
            .arg(submission);
        c
    };
    let mut first = judge(format!("{} {marker}", daemon.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the judge");
    let killed = first.id();
    // The main process and its daemon are running (by their own name: the
    // judge and its namespace holders carry the marker in their command
    // lines too, and a kill while they start is another test's matter).
    let daemons = || {
        with_marker(&marker)
            .into_iter()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|c| c.trim() == "daemon")
            })
            .count()
    };
    let started = within(30, || daemons() >= 2);
    first.kill().expect("SIGKILL the judge");
    first.wait().expect("reap the judge");
    assert!(started, "the submission never started its daemon");
    assert!(
        !leftovers(&tmp).is_empty(),
        "a judge killed with SIGKILL left no scratch directory: nothing to test"
    );
    let died_with_judge = within(10, || with_marker(&marker).is_empty());

    let who = if unprivileged {
        "unprivileged"
    } else {
        "as the tester"
    };
    let line = format!("cleaned up after a judge that was killed (pid {killed})");
    // A scratch directory whose lock a dying process of the killed judge
    // still holds is left for a later judge (after a 2 s wait): on a loaded
    // machine dying can take longer, so judges are run until one cleans
    // up, within a minute, and exactly one says so.
    let mut notices = 0;
    let mut stderrs = String::new();
    let mut report = serde_json::Value::Null;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while notices == 0 && std::time::Instant::now() < deadline {
        let ran = run(judge(s.path().join("bin/ok.sh").display().to_string()));
        report = ran.json();
        assert_eq!(report["verdict"], "AC", "{who}: {}", ran.stderr);
        notices += ran.stderr.matches(&line).count();
        assert_eq!(
            ran.stderr.matches("cleaned up after").count(),
            ran.stderr.matches(&line).count(),
            "{who}: {}",
            ran.stderr
        );
        stderrs.push_str(&ran.stderr);
    }
    assert_eq!(notices, 1, "{who}: notices {line:?} on stderr: {stderrs}");
    assert_eq!(leftovers(&tmp), Vec::<String>::new(), "{who}: left behind");
    assert_eq!(
        judge_cgroups(killed),
        Vec::<PathBuf>::new(),
        "{who}: cgroups left"
    );
    assert!(
        within(5, || with_marker(&marker).is_empty()),
        "{who}: processes of the killed judge's run are alive: {:?}",
        with_marker(&marker)
    );
    if protection_on(&report, "PID namespace") {
        assert!(
            died_with_judge,
            "{who}: the daemon outlived its PID namespace's init"
        );
    }
}

#[test]
fn a_killed_judges_leftovers_are_cleaned_by_the_next_as_the_tester() {
    killed_judge_is_cleaned_up_after(false);
}

#[test]
fn a_killed_judges_leftovers_are_cleaned_by_the_next_unprivileged() {
    killed_judge_is_cleaned_up_after(true);
}
