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
        "ipc" => {
            cases = 3;
            args.extend(["-j".into(), "1".into()]);
        }
        "plain" => {}
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
