//! Hostile file and case names (issue 27, item 9): a case file whose name
//! holds an escape sequence that sets the terminal's title (OSC), a bare
//! ESC, a newline or a right-to-left override must reach no terminal as it
//! is: not in the human report (verbose, failures, slowest, summary), the
//! progress bar, `judge list`, nor a message on stderr. Ordinary spaces
//! and letters (`é`, `漢`) are shown as they are.

mod common;
use common::*;
use std::io::Read;
use std::process::{Command, Stdio};

/// The names written on disk (each becomes `NAME.in` and `NAME.ans`).
const NAMES: &[&str] = &[
    "osc\u{1b}]0;owned\u{7}title",
    "esc\u{1b}[2Jclear",
    "new\nline",
    "rlo\u{202e}txt.exe",
    "zero\u{200b}width",
    "plain é 漢",
];

/// A judge.toml problem `p` (its cases root named with an ESC too) whose
/// every case is WA for `cat`: each name is printed in the failures.
fn scratch() -> Scratch {
    let s = Scratch::new();
    let root = "cases/p\u{1b}]2;root\u{7}";
    for name in NAMES {
        s.write(&format!("{root}/{name}.in"), "1\n");
        s.write(&format!("{root}/{name}.ans"), "2\n");
    }
    s.write(
        "judge.toml",
        "[problem.p]\ncases = \"cases/p\\u001b]2;root\\u0007\"\ncheck = \"tokens\"\n",
    );
    s
}

/// No raw control or reordering character of a name in `text`; the
/// escaped forms are there instead, and the plain name is unchanged.
fn assert_clean(text: &str, what: &str) {
    for bad in [
        "\u{1b}]",
        "\u{7}",
        "\u{1b}[2J",
        "\u{202e}",
        "\u{200b}",
        "new\nline",
    ] {
        assert!(
            !text.contains(bad),
            "{what}: a raw {bad:?} from a name reached the terminal:\n{text}"
        );
    }
}

#[test]
fn hostile_names_are_escaped_in_every_human_output() {
    let s = scratch();
    let ran = s.run_judge(&["run", "-v", "--submission", "cat"]);
    assert_eq!(ran.code, 1, "WA expected: {}", ran.stderr);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert_clean(&all, "judge run -v");
    for shown in [
        "osc\\x1b]0;owned\\x07title",
        "new\\x0aline",
        "rlo\\u{202e}txt.exe",
        "zero\\u{200b}width",
        "plain é 漢",
    ] {
        assert!(
            ran.stdout.contains(shown),
            "{shown} not shown:\n{}",
            ran.stdout
        );
    }
    let listed = s.run_judge(&["list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_clean(&format!("{}{}", listed.stdout, listed.stderr), "judge list");
    assert!(
        listed.stdout.contains("\\x1b]2;root\\x07"),
        "{}",
        listed.stdout
    );
    // A case path on the command line that does not exist: the error
    // message names it, escaped.
    let missing = s.run_judge(&["run", "--submission", "cat", "nothing\u{1b}]0;x\u{7}"]);
    assert_ne!(missing.code, 0);
    assert_clean(&format!("{}{}", missing.stdout, missing.stderr), "an error");
}

/// With stdout and stderr on a terminal (colours and the progress bar on,
/// `TERM` a colour terminal), the names are escaped all the same.
#[test]
fn hostile_names_are_escaped_on_a_colour_terminal() {
    let s = scratch();
    let (mut master, slave) = pty();
    let mut cmd: Command = s.judge();
    cmd.env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .args(["run", "-v", "--submission", "cat"])
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave.try_clone().expect("dup")));
    let mut child = cmd.spawn().expect("spawn judge");
    drop(slave);
    drop(cmd);
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            shown.extend_from_slice(&buffer[..n]);
        }
        String::from_utf8_lossy(&shown).into_owned()
    });
    let code = child.wait().expect("wait").code().unwrap_or(-1);
    let shown = reader.join().expect("reader");
    assert_eq!(code, 1, "{shown}");
    assert!(shown.contains("\u{1b}["), "colours expected on a terminal");
    // Colours are ESC [ … m; the names' own sequences must not be there.
    for bad in ["\u{1b}]", "\u{7}", "\u{1b}[2J", "\u{202e}", "\u{200b}"] {
        assert!(
            !shown.contains(bad),
            "raw {bad:?} on the terminal:\n{shown}"
        );
    }
    assert!(shown.contains("plain é 漢"), "{shown}");
}
