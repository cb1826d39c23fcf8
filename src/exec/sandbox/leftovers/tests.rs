use super::*;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

fn root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A pid that no process has now: a child that has exited and been reaped.
fn dead_pid() -> i32 {
    let mut child = Command::new("true").spawn().expect("true");
    let pid = child.id() as i32;
    child.wait().expect("wait");
    pid
}

fn dead_judge_dir(root: &Path, name: &str, mark: &OwnerMark) -> PathBuf {
    let dir = root.join(format!("{SCRATCH_PREFIX}{name}"));
    std::fs::create_dir_all(dir.join("w0-abc/deep")).unwrap();
    std::fs::write(dir.join("w0-abc/deep/out"), "left").unwrap();
    mark.write(&dir).unwrap();
    dir
}

#[test]
fn a_mark_reads_back_as_written() {
    let mark = OwnerMark {
        pid: 42,
        start: 123456,
        uids: Some((61256, 4, PathBuf::from("/run/judge/uids-61000-1.lock"))),
        cgroups: vec![PathBuf::from("/sys/fs/cgroup/pids/judge-42")],
    };
    assert_eq!(OwnerMark::parse(&mark.render()), Some(mark));
    assert_eq!(OwnerMark::parse("start 5\n"), None, "no pid");
    assert_eq!(OwnerMark::parse("pid x\n"), None);
    let own = OwnerMark::own();
    assert_eq!(own.pid, std::process::id() as i32);
    assert_eq!(start_time(own.pid), Some(own.start));
}

/// A live judge's directory (its lock held), one without a mark (a judge
/// just starting) and a symbolic link to a dead judge's directory are
/// never touched; the dead judge's directory itself is removed.
#[test]
fn only_a_dead_judges_own_directory_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let live = dead_judge_dir(tmp.path(), "live", &OwnerMark::own());
    let _held = lock_scratch(&live).unwrap();
    let unmarked = tmp.path().join(format!("{SCRATCH_PREFIX}starting"));
    std::fs::create_dir(&unmarked).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let dead_mark = OwnerMark {
        pid: dead_pid(),
        start: 1,
        ..OwnerMark::default()
    };
    let target = dead_judge_dir(elsewhere.path(), "target", &dead_mark);
    let link = tmp.path().join(format!("{SCRATCH_PREFIX}link"));
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let dead = dead_judge_dir(tmp.path(), "dead", &dead_mark);
    // A program closed part of it to its owner.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dead.join("w0-abc"), std::fs::Permissions::from_mode(0o000)).unwrap();

    let cleaned = clean(tmp.path());
    assert_eq!(cleaned.len(), 1, "{cleaned:?}");
    assert_eq!(cleaned[0].pid, dead_mark.pid);
    assert_eq!(cleaned[0].directory, dead);
    assert!(!dead.exists());
    assert!(live.join("w0-abc/deep/out").exists());
    assert!(unmarked.exists());
    assert!(
        target.join("w0-abc/deep/out").exists(),
        "a link was followed"
    );
    let line = cleaned[0].to_string();
    assert!(
        line.starts_with(&format!(
            "cleaned up after a judge that was killed (pid {})",
            dead_mark.pid
        )),
        "{line}"
    );
}

/// A mark naming a live process (its pid and start time) is a live judge
/// whose lock was lost: left alone.
#[test]
fn a_mark_naming_a_live_process_is_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = dead_judge_dir(tmp.path(), "alive", &OwnerMark::own());
    assert!(clean(tmp.path()).is_empty());
    assert!(dir.exists());
}

/// As root, with a writable pids cgroup: a dead judge's stray processes
/// (one in its slot's cgroup, one of its slot's user) are killed, and its
/// cgroup removed.
#[test]
fn a_dead_judges_strays_and_cgroup_are_removed_as_root() {
    let pids_root = Path::new("/sys/fs/cgroup/pids");
    if !root() || !pids_root.join("cgroup.procs").exists() {
        eprintln!("skipped: needs root and a v1 pids hierarchy");
        return;
    }
    let own_cgroup = std::fs::read_to_string("/proc/self/cgroup")
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "pids")
                .then(|| pids_root.join(path.trim_start_matches('/')))
        })
        .unwrap_or_else(|| pids_root.to_path_buf());
    let dead = dead_pid();
    let cgroup = own_cgroup.join(format!("judge-{dead}"));
    let slot = cgroup.join("slot0");
    std::fs::create_dir_all(&slot).unwrap();
    let mut in_cgroup = Command::new("sleep")
        .arg("100")
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    std::fs::write(slot.join("cgroup.procs"), in_cgroup.id().to_string()).unwrap();
    // A uid of a block no judge holds: its lock file is free.
    let lock_dir = Path::new("/run/judge");
    std::fs::create_dir_all(lock_dir).unwrap();
    let lock = lock_dir.join(format!("uids-leftover-test-{}.lock", std::process::id()));
    std::fs::write(&lock, "").unwrap();
    let uid = 64_999;
    let mut as_slot_user = Command::new("sleep")
        .arg("100")
        .stdin(Stdio::null())
        .uid(uid)
        .gid(uid)
        .process_group(0)
        .spawn()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mark = OwnerMark {
        pid: dead,
        start: 1,
        uids: Some((uid, 1, lock.clone())),
        cgroups: vec![cgroup.clone()],
    };
    let dir = dead_judge_dir(tmp.path(), "dead", &mark);
    let cleaned = clean(tmp.path());
    let _ = std::fs::remove_file(&lock);
    let status = in_cgroup.wait().unwrap();
    let status_user = as_slot_user.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    assert_eq!(status_user.signal(), Some(libc::SIGKILL));
    assert_eq!(cleaned.len(), 1, "{cleaned:?}");
    assert_eq!(cleaned[0].processes, 2, "{cleaned:?}");
    assert_eq!(cleaned[0].cgroups, vec![cgroup.clone()]);
    assert!(!cgroup.exists(), "the cgroup is left");
    assert!(!dir.exists());
}
