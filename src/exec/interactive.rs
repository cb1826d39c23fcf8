//! Two programs talking: a submission and an interactive validator (or a
//! testlib interactor), each run by [`launch_with`] under its own limits,
//! connected through the judge, which relays every byte in both directions
//! and keeps a bounded transcript of the dialogue.
//!
//! ```text
//!   validator stdout ──▶ relay "→" ──▶ submission stdin
//!   submission stdout ──▶ relay "←" ──▶ validator stdin
//! ```
//!
//! When one side ends, the relay closes the other side's input, so a reader
//! sees end-of-file instead of waiting forever; a side that never writes
//! (both waiting to read) is ended by its own wall-clock limit. Which side
//! ended first is recorded: the verdict rules need it.
//!
//! The submission's end-of-output reaches the validator only once the
//! submission has exited (BAPCtools' relay does the same: "delay
//! submission EOF until submission dies"): a submission that closes its
//! standard output and then crashes or runs on is judged by that crash or
//! time-out, not by the validator's rejection of a dialogue cut short. The
//! validator's end-of-output reaches the submission at once (a
//! pseudo-interactive validator closes its output to say "that was all").

use super::process::{Launch, Piped, launch_with};
use super::sandbox::Sandbox;
use super::{RunError, RunOutcome};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How much of each direction the transcript keeps: the first and the last
/// this many bytes.
const KEEP: usize = 4096;

/// Who said something, or who ended first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Submission,
    Validator,
}

/// One relayed chunk: when (since the start), who wrote it, what.
#[derive(Clone, Debug)]
pub struct Message {
    pub at: Duration,
    pub from: Side,
    pub bytes: Vec<u8>,
}

/// The dialogue, bounded: the first and the last [`KEEP`] bytes of each
/// direction, and how many bytes were left out between.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    pub head: Vec<Message>,
    pub tail: Vec<Message>,
    pub omitted: u64,
    pub total: [u64; 2],
}

impl Transcript {
    fn record(&mut self, from: Side, at: Duration, bytes: &[u8]) {
        let index = from as usize;
        let before = self.total[index];
        self.total[index] += bytes.len() as u64;
        let kept_head: usize = self
            .head
            .iter()
            .filter(|m| m.from == from)
            .map(|m| m.bytes.len())
            .sum();
        if kept_head < KEEP && before < KEEP as u64 {
            let take = (KEEP - kept_head).min(bytes.len());
            self.head.push(Message {
                at,
                from,
                bytes: bytes[..take].to_vec(),
            });
            if take == bytes.len() {
                return;
            }
        }
        self.tail.push(Message {
            at,
            from,
            bytes: bytes.to_vec(),
        });
        // Keep at most KEEP bytes of this side in the tail.
        loop {
            let kept: usize = self
                .tail
                .iter()
                .filter(|m| m.from == from)
                .map(|m| m.bytes.len())
                .sum();
            if kept <= KEEP {
                break;
            }
            let Some(first) = self.tail.iter().position(|m| m.from == from) else {
                break;
            };
            let dropped = self.tail.remove(first);
            self.omitted += dropped.bytes.len() as u64;
        }
    }

    /// The dialogue as lines: each side's bytes split at its newlines,
    /// whatever the writes were (a line written in two writes, `5` then
    /// the newline, is one line), each line stamped with the time its
    /// first byte came; lines in the order they were completed, a last
    /// line with no newline at the end; the bytes not kept as one
    /// [`Speaker::Judge`] line where they were left out.
    pub fn lines(&self) -> Vec<Line> {
        let mut lines = Lines::default();
        self.head.iter().for_each(|m| lines.feed(m));
        if self.omitted > 0 {
            lines.flush();
            lines.done.push(Line {
                at: self.tail.first().map_or(0.0, |m| m.at.as_secs_f64()),
                from: Speaker::Judge,
                text: format!("[… {} bytes not kept …]", self.omitted),
            });
        }
        self.tail.iter().for_each(|m| lines.feed(m));
        lines.flush();
        lines.done
    }

    /// The last side that said anything, and when.
    pub fn last(&self) -> Option<(Side, Duration)> {
        [self.head.last(), self.tail.last()]
            .into_iter()
            .flatten()
            .max_by_key(|m| m.at)
            .map(|m| (m.from, m.at))
    }
}

/// Who said a line of a transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speaker {
    /// The validator (interactor), to the submission.
    Validator,
    /// The submission, to the validator.
    Submission,
    /// The judge's own note (bytes left out).
    Judge,
}

/// One line of a dialogue: when its first byte came (seconds since the
/// start), who wrote it, and its text (lossy UTF-8, without the newline).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub at: f64,
    pub from: Speaker,
    pub text: String,
}

impl Line {
    /// `   0.012s → text`: `→` validator to submission, `←` back,
    /// non-printing characters escaped.
    pub fn render(&self) -> String {
        let arrow = match self.from {
            Speaker::Validator | Speaker::Judge => "→",
            Speaker::Submission => "←",
        };
        let shown = crate::text::whitespace::escaped(&self.text);
        format!("{:>8.3}s {arrow} {shown}", self.at)
    }
}

/// Lines as text, each ended by a newline.
pub fn render(lines: &[Line]) -> String {
    lines.iter().map(|l| l.render() + "\n").collect()
}

/// Each side's line in the making, and the lines made.
#[derive(Default)]
struct Lines {
    open: [Option<(Duration, Vec<u8>)>; 2],
    done: Vec<Line>,
}

impl Lines {
    fn feed(&mut self, m: &Message) {
        let slot = &mut self.open[m.from as usize];
        for piece in m.bytes.split_inclusive(|b| *b == b'\n') {
            let (_, text) = slot.get_or_insert_with(|| (m.at, Vec::new()));
            match piece.strip_suffix(b"\n") {
                Some(body) => {
                    text.extend_from_slice(body);
                    if let Some((at, text)) = slot.take() {
                        self.done.push(line(m.from, at, &text));
                    }
                }
                None => text.extend_from_slice(piece),
            }
        }
    }

    /// The lines not ended yet, as they are (earlier first).
    fn flush(&mut self) {
        let mut open: Vec<(Side, Duration, Vec<u8>)> = [Side::Submission, Side::Validator]
            .into_iter()
            .filter_map(|side| {
                self.open[side as usize]
                    .take()
                    .map(|(at, text)| (side, at, text))
            })
            .collect();
        open.sort_by_key(|(_, at, _)| *at);
        for (side, at, text) in open {
            self.done.push(line(side, at, &text));
        }
    }
}

fn line(side: Side, at: Duration, text: &[u8]) -> Line {
    Line {
        at: at.as_secs_f64(),
        from: match side {
            Side::Submission => Speaker::Submission,
            Side::Validator => Speaker::Validator,
        },
        text: String::from_utf8_lossy(text).into_owned(),
    }
}

/// Both runs of an interactive case.
pub struct PairOutcome {
    pub submission: RunOutcome,
    pub validator: RunOutcome,
    /// Which ended first.
    pub first: Side,
    /// When each ended, since the start (as the relays saw its output
    /// close, or its run's own wall time).
    pub submission_ended: Duration,
    pub validator_ended: Duration,
    pub transcript: Transcript,
}

/// Whether the validator's end alone decides the case (it rejected, or
/// failed), so the submission is stopped at once: what it does after that
/// changes nothing, and left running it would spend the time limit (and
/// a run at a margin would measure that time against it).
pub type Decides<'a> = &'a (dyn Fn(&RunOutcome) -> bool + Sync);

/// Run `submission` and `validator` connected to each other; both are dead
/// when this returns. Their `stdin` fields are ignored. When the validator
/// ends first and `decides` says its end settles the case, the submission
/// is stopped (`RunOutcome::stopped`).
pub fn launch_pair(
    sandbox: &Sandbox,
    submission: &Launch<'_>,
    validator: &Launch<'_>,
    decides: Decides<'_>,
) -> Result<PairOutcome, RunError> {
    let pipe = || {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .map_err(|e| RunError::Internal(format!("cannot make a pipe: {e}")))
    };
    let (sub_in_r, sub_in_w) = pipe()?;
    let (sub_out_r, sub_out_w) = pipe()?;
    let (val_in_r, val_in_w) = pipe()?;
    let (val_out_r, val_out_w) = pipe()?;
    // Closed when the validator's end decides the case: the submission's
    // watch then stops it.
    let (stop_r, stop_w) = pipe()?;
    // Dropped when the submission's run has returned (it is dead): only
    // then does its relay close the validator's input.
    let (exited_tx, exited_rx) = std::sync::mpsc::channel::<()>();
    let start = Instant::now();
    let transcript = Mutex::new(Transcript::default());
    // When each run ended, from its own start and its measured wall time:
    // a launch returns a little after its process ended (reaping, reading
    // its cgroup), so the order of returns would not tell who ended first.
    let ended_at = |started: Instant, outcome: &Result<RunOutcome, RunError>| {
        outcome
            .as_ref()
            .map(|o| started.saturating_duration_since(start) + o.wall)
            .unwrap_or(Duration::MAX)
    };
    let (sub, sub_end, val, val_end) = std::thread::scope(|scope| {
        let transcript = &transcript;
        let from_sub = scope.spawn(move || {
            let ends = Ends {
                start,
                held_until: Some(exited_rx),
            };
            relay(sub_out_r, val_in_w, Side::Submission, ends, transcript)
        });
        let from_val = scope.spawn(move || {
            let ends = Ends {
                start,
                held_until: None,
            };
            relay(val_out_r, sub_in_w, Side::Validator, ends, transcript)
        });
        let val = scope.spawn(|| {
            let started = Instant::now();
            let outcome = launch_with(
                sandbox,
                validator,
                Piped {
                    stdin: Some(val_in_r),
                    stdout: Some(val_out_w),
                    stop: None,
                },
            );
            let end = ended_at(started, &outcome);
            // Kept open (returned) unless the validator's end decides (or
            // it could not run at all: the case is IE whatever follows).
            let stop = match &outcome {
                Ok(o) if !decides(o) => Some(stop_w),
                _ => None,
            };
            (outcome, end, stop)
        });
        let started = Instant::now();
        let sub = launch_with(
            sandbox,
            submission,
            Piped {
                stdin: Some(sub_in_r),
                stdout: Some(sub_out_w),
                stop: Some(stop_r),
            },
        );
        let sub_end = ended_at(started, &sub);
        drop(exited_tx);
        let (val, val_end, _stop) = val.join().unwrap_or_else(|_| {
            (
                Err(RunError::Internal("the validator's thread panicked".into())),
                Duration::MAX,
                None,
            )
        });
        // When each side's output closed (at its exit, as a rule): the
        // precise order, seen by the relays, and causal — a side that ends
        // because the other's output closed sees that close after it
        // happened. The estimate from the run's wall time is biased early
        // (it counts from before the spawn), so it decides only when the
        // pipe closed well after the process ended (a descendant held it).
        let closed = |h: std::thread::ScopedJoinHandle<'_, Duration>| h.join().ok();
        let (sub_closed, val_closed) = (closed(from_sub), closed(from_val));
        let sub_end = end_of(sub_closed, sub_end);
        let val_end = end_of(val_closed, val_end);
        (sub, sub_end, val, val_end)
    });
    let first = if val_end < sub_end {
        Side::Validator
    } else {
        Side::Submission
    };
    Ok(PairOutcome {
        submission: sub?,
        validator: val?,
        first,
        submission_ended: sub_end,
        validator_ended: val_end,
        transcript: transcript.into_inner().unwrap_or_else(|e| e.into_inner()),
    })
}

/// How much later than its run's wall-time estimate a side's output may
/// close and still count as its end.
const HELD_OPEN: Duration = Duration::from_millis(50);

/// A side's end: when its output closed, unless that was long after the
/// process itself ended (then the estimate from its wall time).
fn end_of(closed: Option<Duration>, estimate: Duration) -> Duration {
    match closed {
        Some(c) if c <= estimate.saturating_add(HELD_OPEN) => c,
        Some(_) | None => estimate,
    }
}

/// When a relay's times count from, and what its end-of-file waits for.
struct Ends {
    start: Instant,
    /// The writer's end-of-file is passed on (its reader's input closed)
    /// only once this channel's sender is gone (the writer has exited).
    held_until: Option<std::sync::mpsc::Receiver<()>>,
}

impl Ends {
    /// The writer's output closed: wait until it may be passed on, then
    /// say when that was (the reader sees the end then).
    fn closed(&self) -> Duration {
        if let Some(exited) = &self.held_until {
            // Nothing is ever sent: this returns when the sender is dropped.
            let _ = exited.recv();
        }
        self.start.elapsed()
    }
}

/// Copy `from` to `to` until end-of-file (the writer ended) or a failed
/// write (the reader ended: its input is then closed by dropping `to`).
/// Returns when the writer's output closed (or, when its end-of-file is
/// held until it exited, when that end was passed on), since the start.
fn relay(
    from: OwnedFd,
    to: OwnedFd,
    side: Side,
    ends: Ends,
    transcript: &Mutex<Transcript>,
) -> Duration {
    let start = ends.start;
    let mut from = std::fs::File::from(from);
    let mut to = Some(std::fs::File::from(to));
    let mut buf = vec![0u8; 64 * 1024];
    let mut drained = 0usize;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return ends.closed(),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return ends.closed(),
        };
        transcript.lock().unwrap_or_else(|e| e.into_inner()).record(
            side,
            start.elapsed(),
            &buf[..n],
        );
        // The reader gone, keep draining a while so that a writer with a
        // last word (a final newline, a flush at exit) is not blocked on a
        // full pipe; past [`DRAINED_AFTER_END`] the pipe is closed and the
        // writer gets SIGPIPE, instead of the judge relaying a flood into
        // nothing until the wall clock ends it.
        match &mut to {
            Some(out) => {
                if out.write_all(&buf[..n]).is_err() {
                    to = None;
                }
            }
            None => {
                drained += n;
                if drained > DRAINED_AFTER_END {
                    return start.elapsed();
                }
            }
        }
    }
}

/// How much a side may still write once its reader has ended.
const DRAINED_AFTER_END: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_keeps_the_head_and_the_tail() {
        let mut t = Transcript::default();
        for i in 0..2000 {
            t.record(
                Side::Validator,
                Duration::from_millis(i),
                format!("{i:04}\n").as_bytes(),
            );
        }
        t.record(Side::Submission, Duration::from_secs(3), b"answer 7\n");
        let text = render(&t.lines());
        assert!(text.contains("→ 0000"), "{text}");
        assert!(text.contains("→ 1999"), "{text}");
        assert!(text.contains("← answer 7"), "{text}");
        assert!(text.contains("bytes not kept"), "{text}");
        assert!(!text.contains("→ 1000\n"), "the middle is left out");
        assert_eq!(t.total, [9, 10_000]);
        assert_eq!(t.last().map(|(s, _)| s), Some(Side::Submission));
    }

    /// Issue 41.5: a line written in pieces (unbuffered Python writes the
    /// text, then the newline) is one line, with no empty line after it;
    /// the other side's line in between is its own.
    #[test]
    fn lines_are_split_on_newlines_not_on_writes() {
        let mut t = Transcript::default();
        let ms = Duration::from_millis;
        t.record(Side::Validator, ms(1), b"1 2\n");
        t.record(Side::Submission, ms(2), b"3");
        t.record(Side::Validator, ms(3), b"hm");
        t.record(Side::Submission, ms(4), b"\n");
        t.record(Side::Submission, ms(5), b"a\nb\n\nc");
        let lines = t.lines();
        let got: Vec<_> = lines
            .iter()
            .map(|l| (l.from, l.at, l.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Speaker::Validator, 0.001, "1 2"),
                (Speaker::Submission, 0.002, "3"),
                (Speaker::Submission, 0.005, "a"),
                (Speaker::Submission, 0.005, "b"),
                (Speaker::Submission, 0.005, ""),
                (Speaker::Validator, 0.003, "hm"),
                (Speaker::Submission, 0.005, "c"),
            ]
        );
        assert_eq!(
            render(&t.lines()).lines().take(2).collect::<Vec<_>>(),
            ["   0.001s → 1 2", "   0.002s ← 3"]
        );
    }
}
