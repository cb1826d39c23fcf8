//! A slot's launcher against the programs it starts.

use crate::exec::Limits;
use crate::exec::process::{Launch, Trust, launch};
use crate::exec::sandbox::{Sandbox, SandboxOptions};
use std::ffi::OsString;
use std::path::Path;

fn run(sandbox: &Sandbox, script: &str) -> (String, String) {
    let limits = Limits::default();
    let args = [OsString::from("-c"), OsString::from(script)];
    let out = launch(
        sandbox,
        &Launch {
            program: Path::new("/bin/sh"),
            args: &args,
            stdin: None,
            limits: &limits,
            slot: 0,
            trust: Trust::Untrusted,
            address_space: true,
            workdir: None,
            files: None,
            companions: &[],
            output_file: None,
        },
    )
    .expect("the run");
    (
        String::from_utf8_lossy(&out.stdout.bytes_lossy()).into_owned(),
        String::from_utf8_lossy(&out.stderr_tail).into_owned(),
    )
}

/// A sandbox of one slot, whose first program has run (so the slot and
/// its launcher, if any, are made).
fn one_slot() -> Sandbox {
    let sandbox = Sandbox::new(SandboxOptions {
        slots: 1,
        ..SandboxOptions::default()
    })
    .expect("a sandbox");
    let (first, _) = run(&sandbox, "echo started");
    assert_eq!(first, "started\n");
    sandbox
}

/// A program told its launcher's pid can neither signal it nor see it,
/// and `kill(-1)` does not reach it: the next case starts as usual. A
/// slot has a launcher exactly when it has a PID namespace (where there is
/// none, nothing more to show).
#[test]
fn a_program_cannot_reach_its_slots_launcher() {
    let sandbox = one_slot();
    let pid_namespace = sandbox
        .protections()
        .on
        .iter()
        .any(|p| p.starts_with("PID namespace"));
    let launcher = match sandbox.slots[0].get() {
        Some(Ok(state)) => state.launcher.as_ref(),
        _ => None,
    };
    assert_eq!(
        launcher.is_some(),
        pid_namespace,
        "a launcher where there is a PID namespace"
    );
    let Some(launcher) = launcher else {
        return;
    };
    let pid = launcher.pid;
    let (out, err) = run(
        &sandbox,
        &format!(
            "kill -KILL {pid} && echo signalled; test -e /proc/{pid}/status && echo seen; kill -KILL -1; echo done"
        ),
    );
    assert!(!out.contains("signalled"), "{out} {err}");
    assert!(!out.contains("seen"), "{out} {err}");
    // SAFETY: a null signal to a child of ours.
    assert_eq!(unsafe { libc::kill(pid, 0) }, 0, "the launcher is alive");
    let (again, err) = run(&sandbox, "echo again");
    assert_eq!(again, "again\n", "{err}");
}

/// A launcher that died (killed here, as the OOM killer or an operator
/// might) costs no case: the slot's programs are started by the judge
/// itself from then on.
#[test]
fn a_dead_launchers_slot_starts_its_programs_itself() {
    let sandbox = one_slot();
    let Some(Ok(state)) = sandbox.slots[0].get() else {
        return;
    };
    let Some(launcher) = state.launcher.as_ref() else {
        eprintln!("no launcher on this machine (no PID namespace): nothing to kill");
        return;
    };
    // SAFETY: signalling a child of ours and waiting for its end, left to
    // be reaped by the launcher's owner (WNOWAIT).
    unsafe {
        libc::kill(launcher.pid, libc::SIGKILL);
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(
            libc::P_PID,
            launcher.pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        );
    }
    for round in ["one", "two"] {
        let (out, err) = run(&sandbox, &format!("echo {round}"));
        assert_eq!(out, format!("{round}\n"), "{err}");
    }
}
