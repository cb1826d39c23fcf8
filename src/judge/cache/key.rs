//! A run's key, derived from the one structure the runner receives: the
//! program's identity (what the runner executes: its bytes, its files,
//! its argv, how it is contained, see `exec::Runner::identity`) and the
//! whole [`RunRequest`] (the input, the case's files and arguments, the
//! input and output file names, every limit), with the judge's build and
//! the cache's format.
//!
//! [`split`] destructures the request with no `..`: a field added to
//! `RunRequest`, `Given`, `IoFiles` or `Limits` is a compile error here
//! until it is either hashed into the key or taken out as a field a run
//! may be reused across, into [`RanUnder`] with its rule in
//! [`super::reuse::RULES`] (issue 40: the stack limit and
//! `input-file`/`output-file` were once forgotten in a hand-kept list).

use super::reuse::{RanUnder, nanos};
use crate::exec::identity::{self, Fields};
use crate::exec::{Given, IoFiles, Limits, PastOutput, RunRequest};

/// Whether a run's reusable limits are taken out of the key (a plain
/// run, reused by [`super::reuse::reusable`]) or kept in it (an
/// interactive or multi-pass case: both programs' timing shape the
/// dialogue, so it is reused under the same limits only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    AcrossLimits,
    SameLimits,
}

/// Hash every field of `request` into `key` but those `reuse` takes out,
/// which come back as the [`RanUnder`] the run is kept with; `None` when
/// a file it names cannot be read (such a run is not cached).
pub fn split(key: &mut Fields, request: &RunRequest<'_>, reuse: Reuse) -> Option<RanUnder> {
    let RunRequest {
        input,
        limits,
        // Reusable: `reuse::RULES`, "slot".
        slot: _,
        given,
    } = *request;
    let Given { files, args, io } = given;
    let IoFiles {
        input: input_file,
        output: output_file,
    } = io;
    let Limits {
        time,
        wall,
        memory,
        stack,
        output,
        past_output,
        file_size,
        processes,
        writable_workdir,
    } = limits;
    key.field("input", identity::file(input)?.as_bytes());
    match files {
        Some(files) => key.field("files", identity::content(files)?.as_bytes()),
        None => key.field("no-files", &[]),
    };
    key.field("args", &(args.len() as u64).to_le_bytes());
    for arg in args {
        key.field("arg", arg.as_bytes());
    }
    optional(key, "input-file", input_file.as_deref());
    optional(key, "output-file", output_file.as_deref());
    key.field("stack", &limit(*stack))
        .field(
            "past-output",
            match past_output {
                PastOutput::Kill => b"kill",
                PastOutput::Truncate => b"truncate",
            },
        )
        .field("file-size", &file_size.to_le_bytes())
        .field("processes", &processes.to_le_bytes())
        .field("writable-workdir", &[u8::from(*writable_workdir)]);
    let under = RanUnder {
        time_ns: nanos(*time),
        wall_ns: nanos(*wall),
        memory: *memory,
        output: *output,
    };
    if reuse == Reuse::SameLimits {
        let RanUnder {
            time_ns,
            wall_ns,
            memory,
            output,
        } = under;
        key.field("time", &time_ns.to_le_bytes())
            .field("wall", &wall_ns.to_le_bytes())
            .field("memory", &limit(memory))
            .field("output", &output.to_le_bytes());
    }
    Some(under)
}

/// A name that may be absent, told apart from every present one.
fn optional(key: &mut Fields, name: &str, value: Option<&str>) {
    match value {
        Some(value) => key.field(name, format!("some:{value}").as_bytes()),
        None => key.field(name, b"none"),
    };
}

/// An optional limit as bytes: none apart from every number.
fn limit(value: Option<u64>) -> Vec<u8> {
    match value {
        Some(v) => [&[1u8][..], &v.to_le_bytes()].concat(),
        None => vec![0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn key_of(request: &RunRequest<'_>, reuse: Reuse) -> ([u8; 32], RanUnder) {
        let mut key = Fields::new();
        let under = split(&mut key, request, reuse).expect("the input is readable");
        (key.bytes(), under)
    }

    /// Every field a user can change moves the key or the limits it is
    /// kept with; the worker's slot moves neither.
    #[test]
    fn every_field_is_in_the_key_or_kept_with_the_run() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let input = dir.path().join("1.in");
        std::fs::write(&input, "3\n").expect("written");
        let other = dir.path().join("2.in");
        std::fs::write(&other, "4\n").expect("written");
        let files = dir.path().join("1.files");
        std::fs::create_dir(&files).expect("made");
        let limits = Limits::default();
        let args = vec!["a".to_string()];
        let io = IoFiles::default();
        let base = RunRequest {
            input: &input,
            limits: &limits,
            slot: 0,
            given: Given {
                files: None,
                args: &[],
                io: &io,
            },
        };
        let (key, under) = key_of(&base, Reuse::AcrossLimits);
        let moved = |request: RunRequest<'_>, what: &str| {
            let (k, u) = key_of(&request, Reuse::AcrossLimits);
            assert!(
                k != key || u != under,
                "{what} moves neither key nor limits"
            );
            assert_eq!(u == under, k != key, "{what}: one or the other");
        };
        assert_eq!(
            key_of(&RunRequest { slot: 1, ..base }, Reuse::AcrossLimits),
            (key, under),
            "the slot"
        );
        moved(
            RunRequest {
                input: &other,
                ..base
            },
            "input",
        );
        moved(
            RunRequest {
                given: Given {
                    files: Some(&files),
                    ..base.given
                },
                ..base
            },
            "files",
        );
        moved(
            RunRequest {
                given: Given {
                    args: &args,
                    ..base.given
                },
                ..base
            },
            "args",
        );
        let to_file = IoFiles {
            input: Some("input.txt".into()),
            output: None,
        };
        moved(
            RunRequest {
                given: Given {
                    io: &to_file,
                    ..base.given
                },
                ..base
            },
            "input-file",
        );
        let from_file = IoFiles {
            input: None,
            output: Some("output.txt".into()),
        };
        moved(
            RunRequest {
                given: Given {
                    io: &from_file,
                    ..base.given
                },
                ..base
            },
            "output-file",
        );
        let changed: Vec<(&str, Limits)> = vec![
            (
                "time",
                Limits {
                    time: Duration::from_millis(300),
                    ..limits.clone()
                },
            ),
            (
                "wall",
                Limits {
                    wall: Duration::from_millis(300),
                    ..limits.clone()
                },
            ),
            (
                "memory",
                Limits {
                    memory: Some(64 << 20),
                    ..limits.clone()
                },
            ),
            (
                "stack",
                Limits {
                    stack: Some(8 << 20),
                    ..limits.clone()
                },
            ),
            (
                "output",
                Limits {
                    output: 10,
                    ..limits.clone()
                },
            ),
            (
                "past-output",
                Limits {
                    past_output: PastOutput::Truncate,
                    ..limits.clone()
                },
            ),
            (
                "file-size",
                Limits {
                    file_size: 10,
                    ..limits.clone()
                },
            ),
            (
                "processes",
                Limits {
                    processes: 1,
                    ..limits.clone()
                },
            ),
            (
                "writable-workdir",
                Limits {
                    writable_workdir: false,
                    ..limits.clone()
                },
            ),
        ];
        for (what, limits) in &changed {
            moved(RunRequest { limits, ..base }, what);
            // Kept whole, every limit is in the key.
            let (whole, _) = key_of(&base, Reuse::SameLimits);
            let (changed, _) = key_of(&RunRequest { limits, ..base }, Reuse::SameLimits);
            assert_ne!(whole, changed, "{what} kept whole");
        }
    }
}
