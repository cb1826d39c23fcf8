//! The human report on a real terminal: the judge runs with its stdout or
//! stderr on a pseudo-terminal made here (posix_openpt), as a person's
//! shell would give it. Colours appear on a terminal, never with
//! `NO_COLOR`, never in a pipe; the progress bar names the case running
//! longest and its clock moves while nothing else happens.

mod common;
use common::*;
use std::io::Read;
use std::process::{Command, Stdio};

/// Which of the judge's outputs go to the terminal.
#[derive(Clone, Copy, PartialEq)]
enum OnTerminal {
    Stdout,
    Stderr,
}

/// Run `judge` with one output on a terminal and the other in a pipe:
/// (what the terminal showed, what the pipe got, exit code).
fn on_terminal(mut cmd: Command, which: OnTerminal) -> (String, String, i32) {
    let (mut master, slave) = pty();
    let terminal = Stdio::from(slave.try_clone().unwrap());
    match which {
        OnTerminal::Stdout => cmd.stdout(terminal).stderr(Stdio::piped()),
        OnTerminal::Stderr => cmd.stderr(terminal).stdout(Stdio::piped()),
    };
    cmd.env("TERM", "xterm-256color");
    let mut child = cmd.spawn().expect("spawn judge");
    drop(slave);
    drop(cmd); // the Command keeps its copy of the slave until dropped
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        let mut buffer = [0u8; 4096];
        // EIO once every slave descriptor is closed: the judge has exited.
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            shown.extend_from_slice(&buffer[..n]);
        }
        String::from_utf8_lossy(&shown).into_owned()
    });
    let mut piped = String::new();
    let pipe: &mut dyn Read = match which {
        OnTerminal::Stdout => child.stderr.as_mut().unwrap(),
        OnTerminal::Stderr => child.stdout.as_mut().unwrap(),
    };
    pipe.read_to_string(&mut piped).unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (reader.join().unwrap(), piped, code)
}

fn scratch() -> Scratch {
    let s = Scratch::new();
    sum_cases(&s);
    s.script(
        "sub.sh",
        r#"input=$(cat)
case "$(printf '%s\n' "$input" | sed -n 2p)" in
    "7 7") echo 15 ;;
    "-5 5") sleep 1.6; echo 0 ;;
    *) printf '%s\n' "$input" | awk 'NR > 1 { print $1 + $2 }' ;;
esac"#,
    );
    s
}

fn judge(s: &Scratch, extra: &[&str]) -> Command {
    let mut cmd = s.judge();
    cmd.env_remove("NO_COLOR")
        .args(["run", "-j", "2", "--submission", "./sub.sh"])
        .args(extra);
    cmd
}

#[test]
fn colours_on_a_terminal_only_and_never_with_no_color() {
    let s = scratch();
    // Not the slow case: colours need no waiting.
    let judge = |extra: &[&str]| judge(&s, &[&["--filter", "[12]"], extra].concat());
    let (shown, _, code) = on_terminal(judge(&[]), OnTerminal::Stdout);
    assert_eq!(code, 1, "{shown}");
    assert!(
        shown.contains("\u{1b}["),
        "colours on a terminal: {shown:?}"
    );
    assert!(shown.contains("Summary:"), "{shown}");

    let mut cmd = judge(&[]);
    cmd.env("NO_COLOR", "1");
    let (shown, _, _) = on_terminal(cmd, OnTerminal::Stdout);
    assert!(shown.contains("Summary:"), "{shown}");
    assert!(!shown.contains('\u{1b}'), "NO_COLOR: {shown:?}");

    // An empty NO_COLOR does not count (no-color.org).
    let mut cmd = judge(&["-q"]);
    cmd.env("NO_COLOR", "");
    let (shown, _, _) = on_terminal(cmd, OnTerminal::Stdout);
    assert!(shown.contains("\u{1b}["), "{shown:?}");
    assert_eq!(shown.trim_end().lines().count(), 1, "-q: {shown:?}");

    let ran = run(judge(&[]));
    assert!(ran.stdout.contains("Summary:"));
    assert!(!ran.stdout.contains('\u{1b}'), "a pipe: {:?}", ran.stdout);
    assert!(
        !ran.stderr.contains('\u{1b}'),
        "no bar in a pipe: {:?}",
        ran.stderr
    );
}

#[test]
fn the_bar_names_the_case_running_longest_and_its_clock_moves() {
    let s = scratch();
    let (bar, report, code) = on_terminal(judge(&s, &[]), OnTerminal::Stderr);
    assert_eq!(code, 1, "{report}");
    // The report itself is plain: stdout is a pipe.
    assert!(!report.contains('\u{1b}'), "{report:?}");
    assert!(
        report.contains("WA   [") && report.contains("sum/2.in"),
        "{report}"
    );
    assert!(bar.contains("running sum/10.in ("), "{bar:?}");
    // Counts per verdict beside the bar.
    assert!(bar.contains("AC") && bar.contains("WA"), "{bar:?}");
    // The clock of the running case moved while no case started or ended.
    let mut clocks: Vec<&str> = bar
        .split("running sum/10.in (")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .collect();
    clocks.dedup();
    assert!(clocks.len() >= 3, "the clock did not move: {clocks:?}");
}
