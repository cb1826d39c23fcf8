//! The files a Kattis output validator (or interactor) leaves in its
//! feedback directory, read as the package program's word and no more:
//! `judgemessage.txt`, `teammessage.txt`, `score.txt`,
//! `score_multiplier.txt`. Each through [`crate::exec::bounded_read`]:
//! only a regular file (not a link: the validator wrote it), opened
//! without blocking, read up to a cap.
//!
//! The decisions (SECURITY.md, "Hostile packages"):
//! - a feedback file that is a link, a FIFO, a device or a directory is
//!   the validator's fault: IE, naming the file and what it is;
//! - a message file past [`MESSAGE_CAP`] is cut there, with a note in the
//!   message (only one line of it is ever shown, so a long message is
//!   no misbehaviour worth failing the case for);
//! - a score file past [`SCORE_CAP`] is IE naming the cap: a score is one
//!   number, so a long one is not a score.
//!
//! A missing file is no file, as before.

use crate::exec::bounded_read::{BoundedReadError, Links, read_regular};
use crate::units::Size;
use std::path::Path;

/// The most of `judgemessage.txt` / `teammessage.txt` read (1 MiB).
pub const MESSAGE_CAP: u64 = 1 << 20;
/// The most of `score.txt` / `score_multiplier.txt` read (4 KiB).
pub const SCORE_CAP: u64 = 4 << 10;

/// Why a feedback file is the validator's fault: each the whole IE
/// message, naming the program (`what`) and the file.
#[derive(Debug, thiserror::Error)]
pub enum FeedbackError {
    #[error("{what} left {name} as {kind}; the judge reads feedback files only as regular files")]
    NotRegular {
        what: String,
        name: String,
        kind: &'static str,
    },
    #[error("{what}: cannot read {name}: {source}")]
    Io {
        what: String,
        name: String,
        source: std::io::Error,
    },
    #[error(
        "{what} wrote {name} of more than {} (the judge's cap for a score file), which is not one number",
        Size(SCORE_CAP)
    )]
    ScoreTooLong { what: String, name: String },
}

/// A feedback file as read: its bytes (at most the cap) and whether it
/// was cut. `Ok(None)`: there is none.
pub struct Feedback {
    pub bytes: Vec<u8>,
    pub cut: bool,
}

/// Read `name` in the feedback directory `dir` with `cap`; `what` names
/// the package program in an error ("the output validator …"). The error
/// is the whole IE message.
pub fn read(
    dir: &Path,
    name: &str,
    cap: u64,
    what: &str,
) -> Result<Option<Feedback>, FeedbackError> {
    match read_regular(&dir.join(name), cap, Links::Refuse) {
        Ok(read) => Ok(Some(Feedback {
            bytes: read.bytes,
            cut: read.cut,
        })),
        Err(BoundedReadError::Missing) => Ok(None),
        Err(BoundedReadError::NotRegular(kind)) => Err(FeedbackError::NotRegular {
            what: what.to_string(),
            name: name.to_string(),
            kind,
        }),
        Err(BoundedReadError::Io(source)) => Err(FeedbackError::Io {
            what: what.to_string(),
            name: name.to_string(),
            source,
        }),
    }
}

/// A message file's first (or, `last`, last) meaningful line as
/// [`super::external::said`] shows it, with a note when the file was cut.
pub fn message(
    dir: &Path,
    name: &str,
    what: &str,
    last: bool,
) -> Result<Option<String>, FeedbackError> {
    let Some(file) = read(dir, name, MESSAGE_CAP, what)? else {
        return Ok(None);
    };
    let line = if last {
        super::external::said_last(&file.bytes)
    } else {
        super::external::said(&file.bytes)
    };
    Ok(line.map(|line| {
        if file.cut {
            format!(
                "{line} ({name} cut: only its first {} read)",
                Size(MESSAGE_CAP)
            )
        } else {
            line
        }
    }))
}

/// `judgemessage.txt`, else `teammessage.txt` (the first that says
/// something).
pub fn judge_or_team_message(
    dir: &Path,
    what: &str,
    last: bool,
) -> Result<Option<String>, FeedbackError> {
    match message(dir, "judgemessage.txt", what, last)? {
        Some(m) => Ok(Some(m)),
        None => message(dir, "teammessage.txt", what, last),
    }
}

/// A score file: at most [`SCORE_CAP`] bytes, or IE naming the cap.
pub fn score_text(dir: &Path, name: &str, what: &str) -> Result<Option<Vec<u8>>, FeedbackError> {
    let Some(file) = read(dir, name, SCORE_CAP, what)? else {
        return Ok(None);
    };
    if file.cut {
        return Err(FeedbackError::ScoreTooLong {
            what: what.to_string(),
            name: name.to_string(),
        });
    }
    Ok(Some(file.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hostile_feedback_file_is_named_and_a_long_message_cut() {
        let dir = tempfile::tempdir().unwrap();
        let what = "the output validator";
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("judgemessage.txt")).unwrap();
        assert_eq!(
            judge_or_team_message(dir.path(), what, false)
                .unwrap_err()
                .to_string(),
            "the output validator left judgemessage.txt as a symbolic link; the judge reads feedback files only as regular files"
        );
        std::fs::remove_file(dir.path().join("judgemessage.txt")).unwrap();
        assert!(matches!(
            judge_or_team_message(dir.path(), what, false),
            Ok(None)
        ));
        let mut long = b"too long\n".to_vec();
        long.resize(MESSAGE_CAP as usize + 10, b'x');
        std::fs::write(dir.path().join("teammessage.txt"), &long).unwrap();
        assert_eq!(
            judge_or_team_message(dir.path(), what, false)
                .unwrap()
                .unwrap(),
            "too long … (teammessage.txt cut: only its first 1MiB read)"
        );
        std::fs::write(dir.path().join("score.txt"), vec![b'1'; 5000]).unwrap();
        let e = score_text(dir.path(), "score.txt", what).unwrap_err();
        assert!(e.to_string().contains("score.txt of more than 4KiB"), "{e}");
    }
}
