//! The live progress bar on stderr: done/total, elapsed, counts per
//! verdict, and the case that has been running longest with its time,
//! redrawn on a steady tick so a long case's clock moves while no other
//! event comes. Lines printed while it is shown go above it.
//!
//! Only drawn on a terminal (the caller decides); it never holds results.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A running case is named once it has run this long.
const NAMED_AFTER: Duration = Duration::from_millis(300);
/// Characters of a running case's name shown.
const NAME_WIDTH: usize = 40;
const TICK: Duration = Duration::from_millis(100);

/// Cases running now: index → (name, start).
type Running = Arc<Mutex<HashMap<usize, (String, Instant)>>>;

pub struct Progress {
    bar: ProgressBar,
    running: Running,
}

impl Progress {
    pub fn new() -> Progress {
        Progress::with_target(ProgressDrawTarget::stderr())
    }

    fn with_target(target: ProgressDrawTarget) -> Progress {
        let running: Running = Arc::default();
        let shared = Arc::clone(&running);
        let style = ProgressStyle::with_template(
            "{spinner} [{bar:28}] {pos}/{len} {elapsed:>4} {msg}{running}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
        .with_key(
            "running",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                if let Some(text) = longest_running(&shared) {
                    let _ = w.write_str(&text);
                }
            },
        );
        let bar = ProgressBar::with_draw_target(Some(0), target);
        bar.set_style(style);
        bar.enable_steady_tick(TICK);
        Progress { bar, running }
    }

    pub fn set_total(&self, total: usize) {
        self.bar.set_length(total as u64);
    }

    pub fn case_started(&self, index: usize, name: String) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(index, (name, Instant::now()));
    }

    /// A case finished: one step, and the counts text beside the bar.
    pub fn case_finished(&self, index: usize, counts: String) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&index);
        self.bar.set_message(counts);
        self.bar.inc(1);
    }

    /// Run `f` with the bar hidden (to print a line above it).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// `  · running sum/big.in (2.4s)` for the case running longest, once it
/// has run a moment; nothing otherwise.
fn longest_running(running: &Running) -> Option<String> {
    let running = running.lock().unwrap_or_else(PoisonError::into_inner);
    let (name, since) = running.values().min_by_key(|(_, since)| *since)?;
    let elapsed = since.elapsed();
    if elapsed < NAMED_AFTER {
        return None;
    }
    let mut text = String::from("  · running ");
    let chars = name.chars().count();
    if chars > NAME_WIDTH {
        text.push('…');
        text.extend(name.chars().skip(chars - NAME_WIDTH + 1));
    } else {
        text.push_str(name);
    }
    let _ = write!(text, " ({:.1}s)", elapsed.as_secs_f64());
    if running.len() > 1 {
        let _ = write!(text, " +{} more", running.len() - 1);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_case_running_longest_once_it_has_run_a_while() {
        let running: Running = Arc::default();
        assert_eq!(longest_running(&running), None);
        let now = Instant::now();
        running
            .lock()
            .unwrap()
            .insert(1, ("p/fresh.in".into(), now));
        assert_eq!(longest_running(&running), None, "too fresh to name");
        running
            .lock()
            .unwrap()
            .insert(2, ("p/slow.in".into(), now - Duration::from_millis(2500)));
        let text = longest_running(&running).unwrap();
        assert!(text.starts_with("  · running p/slow.in (2.5s"), "{text}");
        assert!(text.ends_with("+1 more"), "{text}");
        let long = format!("p/{}.in", "x".repeat(60));
        running.lock().unwrap().clear();
        running
            .lock()
            .unwrap()
            .insert(3, (long, now - Duration::from_secs(1)));
        let text = longest_running(&running).unwrap();
        assert!(text.contains("running …xxx"), "{text}");
        assert!(
            text.contains("x.in (1.0s)") || text.contains("x.in (1.1s)"),
            "{text}"
        );
    }
}
