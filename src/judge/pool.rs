//! The worker pool: rayon workers take jobs in order from a shared
//! counter; the calling thread receives their results, streams events, and
//! settles each case in case order into the [`Digest`] and the
//! `CaseSettled` event.
//!
//! Memory: a case is held only until every case before it has settled (a
//! reorder window about as wide as the cases in flight), unless the caller
//! asks to keep every result (`RunOptions::keep_cases`) or a problem is
//! scored: its graders need every case of a program before any case's
//! final verdict (a `break` or a failed prerequisite turns later cases into
//! SKIP), so such a run settles its cases when the last one is in; they
//! wait on disk meanwhile ([`Held`]).

use super::held::Held;
use super::job::{recheck_sample, run_job, skipped};
use super::scoring::Failures;
use super::{CaseResult, Digest, Event, Plan, Report, Reporter, RunInfo, RunOptions};
use crate::exec::affinity;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Run the plan, streaming events to `reporter`.
pub fn run(
    plan: &Plan,
    info: RunInfo,
    options: &RunOptions,
    reporter: &mut dyn Reporter,
) -> std::io::Result<Report> {
    let started = Instant::now();
    let threads = if options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.jobs
    };
    let workers = threads.min(plan.jobs.len().max(1));
    // Each slot's worker and launcher on a core of their own (read before
    // any worker exists: see `exec::affinity`).
    let placement = affinity::Placement::new(workers, !options.unpinned);
    let info = RunInfo {
        total: plan.jobs.len(),
        jobs: threads,
        cores: placement.summary().to_string(),
        ..info
    };
    reporter.event(&Event::Started(&info))?;
    recheck_sample(plan);
    let mut settle = Settle::new(plan, options, reporter);
    work(plan, options, workers, &mut settle)?;
    drop(placement);
    let interrupted = options.is_interrupted();
    let scores = settle.finish(plan, interrupted)?;
    let mut report = Report::from_digest(
        info,
        std::mem::take(&mut settle.digest),
        std::mem::take(&mut settle.cases),
        interrupted,
        started.elapsed(),
    );
    report.set_scores(scores);
    if let Some(cache) = plan.cache.as_deref() {
        let (rechecked, disagreements) = cache.recheck.found();
        let (checks_ran, checks_reused) = cache.checks();
        report.cache = Some(super::CacheUse {
            ran: report.digest.ran,
            reused: report.digest.reused,
            rechecked,
            checks_ran,
            checks_reused,
            disagreements,
        });
    }
    settle.reporter.event(&Event::Finished(&report))?;
    Ok(report)
}

/// Start the workers and receive their results until every job is done
/// (or, after `--fail-fast` or an interrupt, every launched one).
fn work(
    plan: &Plan,
    options: &RunOptions,
    workers: usize,
    settle: &mut Settle<'_>,
) -> std::io::Result<()> {
    let total = plan.jobs.len();
    // As many threads as workers: a worker's slot is its thread's index,
    // which must be one of the placed slots.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("judge-worker-{i}"))
        .build()
        .map_err(std::io::Error::other)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failures = &Failures::default();
    let inbox = &Inbox::new(workers);
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let (next, stop) = (&next, &stop);
            scope.spawn(move |_| {
                // Left even if the worker panics: the calling thread stops waiting.
                let _leave = Leave(inbox);
                worker(plan, options, failures, next, stop, inbox);
            });
        }
        // Closed when this loop ends, panic or not: a worker waiting for
        // room then stops instead of waiting for ever.
        let _close = Close(inbox);
        let mut done = 0;
        while let Some(batch) = inbox.receive() {
            for message in batch {
                if let Some((position, result)) = message.finished {
                    done += 1;
                    settle.finished(position, *result, done, total);
                }
                if let Some(position) = message.started {
                    settle.started(plan, position);
                }
            }
        }
    });
    Ok(())
}

/// One worker: take the next job, run it (or skip it when a scoring rule
/// says it will not count), send the result; stop on `--fail-fast` or an
/// interrupt.
///
/// A case's result travels with the start of the next case, in one message
/// (one hand-off a case, not two; the [`Inbox`] gathers them further).
/// Neither waits: the result is sent as soon as the next job is taken, the
/// start before the job runs, and the last result alone.
fn worker(
    plan: &Plan,
    options: &RunOptions,
    failures: &Failures,
    next: &AtomicUsize,
    stop: &AtomicBool,
    inbox: &Inbox,
) {
    let mut finished = None;
    let slot = rayon::current_thread_index().unwrap_or(0);
    affinity::place_this_thread(slot);
    loop {
        if stop.load(Ordering::SeqCst) || options.is_interrupted() {
            break;
        }
        let position = next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = plan.jobs.get(position) else {
            break;
        };
        let message = Message {
            finished: finished.take(),
            started: Some(position),
        };
        if !inbox.send(message) {
            break;
        }
        let result = match failures.stopping(plan, &job, options.fail_fast) {
            Some(why) => skipped(plan, &job, &why),
            None => run_job(plan, &job, slot),
        };
        failures.note(plan, &job, &result);
        // On a scoring problem --fail-fast works per group
        // (`stopped_by_rules`): the other groups still score.
        if options.fail_fast
            && plan.problems[job.problem].scoring.is_none()
            && !result.verdict.is_accepted()
            && result.verdict != Verdict::Skipped
        {
            stop.store(true, Ordering::SeqCst);
        }
        finished = Some((position, Box::new(result)));
    }
    affinity::release_this_thread();
    if finished.is_some() {
        // The last result; if no one takes it any more, nothing is lost
        // that anyone would read.
        let _ = inbox.send(Message {
            finished,
            started: None,
        });
    }
}

/// The SKIP of a case that was never launched.
fn not_run(plan: &Plan, position: usize, why: &str) -> Option<CaseResult> {
    plan.jobs.get(position).map(|job| skipped(plan, &job, why))
}

/// What a worker tells the calling thread: a case it finished, then the
/// case it starts.
struct Message {
    finished: Option<(usize, Box<CaseResult>)>,
    started: Option<usize>,
}

/// How long the calling thread lets messages gather while cases stream
/// in: the longest a result or a start waits to be reported.
const BATCH: Duration = Duration::from_millis(10);

/// The workers' messages to the calling thread, in batches. While cases
/// stream in, the calling thread looks every [`BATCH`] and takes all that
/// came (a worker does not wake it: each wake-up is a hand-off between
/// threads that costs the worker about as much as a system call of the
/// sandbox, and on a busy core preempts it); once a look finds nothing it
/// sleeps until a worker's next message wakes it, or the last worker
/// leaves.
struct Inbox {
    state: Mutex<InboxState>,
    wake: Condvar,
    /// Workers waiting for room (see [`BACKLOG`]).
    drained: Condvar,
}

/// The most messages the inbox holds before a worker waits for the calling
/// thread to take them.
const BACKLOG: usize = 1024;

/// A worker's presence in the [`Inbox`]: it leaves when this is dropped.
struct Leave<'a>(&'a Inbox);

/// The calling thread's hold on the [`Inbox`]: closed when this is
/// dropped.
struct Close<'a>(&'a Inbox);

impl Drop for Close<'_> {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.drained.notify_all();
    }
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.workers -= 1;
        self.0.wake.notify_one();
    }
}

struct InboxState {
    messages: Vec<Message>,
    /// The calling thread sleeps until woken (not for a while).
    asleep: bool,
    workers: usize,
    /// No one takes messages any more (the calling thread stopped).
    closed: bool,
}

impl Inbox {
    fn new(workers: usize) -> Inbox {
        Inbox {
            state: Mutex::new(InboxState {
                messages: Vec::new(),
                asleep: false,
                workers,
                closed: false,
            }),
            wake: Condvar::new(),
            drained: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, InboxState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// False when no one takes messages any more: the worker stops.
    fn send(&self, message: Message) -> bool {
        let mut state = self.lock();
        // Bounded: workers faster than the reporter (an in-process solver,
        // a slow report sink) wait for the calling thread instead of
        // queueing results without end.
        while state.messages.len() >= BACKLOG && !state.closed {
            state.asleep = false;
            self.wake.notify_one();
            state = self.drained.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        if state.closed {
            return false;
        }
        state.messages.push(message);
        if state.asleep {
            state.asleep = false;
            self.wake.notify_one();
        }
        true
    }

    /// The messages that came, in order; `None` once every worker has left
    /// and every message is taken.
    fn receive(&self) -> Option<Vec<Message>> {
        let mut state = self.lock();
        let mut looked = false;
        loop {
            if !state.messages.is_empty() {
                self.drained.notify_all();
                return Some(std::mem::take(&mut state.messages));
            }
            if state.workers == 0 {
                return None;
            }
            if looked {
                state.asleep = true;
                state = self.wake.wait(state).unwrap_or_else(|e| e.into_inner());
                state.asleep = false;
            } else {
                state = self
                    .wake
                    .wait_timeout(state, BATCH)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                looked = true;
            }
        }
    }
}

/// The receiving side: events as they come, and each case settled once,
/// in case order.
struct Settle<'r> {
    reporter: &'r mut dyn Reporter,
    /// The first error of the reporter; the run goes on (the workers must
    /// finish) and the error is returned at the end.
    error: Option<std::io::Error>,
    digest: Digest,
    /// Every settled case, when kept.
    cases: Vec<CaseResult>,
    keep: bool,
    /// The position of the next case to settle.
    next: usize,
    /// Results that finished before an earlier case.
    pending: BTreeMap<usize, CaseResult>,
    /// A scored run's results, every one, settled at the end.
    held: Option<Held>,
}

impl<'r> Settle<'r> {
    fn new(plan: &Plan, options: &RunOptions, reporter: &'r mut dyn Reporter) -> Settle<'r> {
        let scored = plan.problems.iter().any(|p| p.scoring.is_some());
        Settle {
            reporter,
            error: None,
            digest: Digest::default(),
            cases: Vec::new(),
            keep: options.keep_cases,
            next: 0,
            pending: BTreeMap::new(),
            held: scored.then(|| Held::new(plan.jobs.len())),
        }
    }

    fn send(&mut self, event: &Event<'_>) {
        if self.error.is_none()
            && let Err(e) = self.reporter.event(event)
        {
            self.error = Some(e);
        }
    }

    fn started(&mut self, plan: &Plan, position: usize) {
        let Some((index, problem, case)) = plan.jobs.name(position) else {
            return;
        };
        self.send(&Event::CaseStarted {
            index,
            problem: &plan.problems[problem].name,
            case: &case,
        });
    }

    fn finished(&mut self, position: usize, result: CaseResult, done: usize, total: usize) {
        self.send(&Event::CaseFinished {
            result: &result,
            done,
            total,
        });
        if let Some(held) = &mut self.held {
            held.put(position, result);
            return;
        }
        if position != self.next {
            self.pending.insert(position, result);
            return;
        }
        self.settle(result);
        while let Some(result) = self.pending.remove(&self.next) {
            self.settle(result);
        }
    }

    /// The next case in case order is final.
    fn settle(&mut self, result: CaseResult) {
        self.next += 1;
        self.digest.add(&result);
        self.send(&Event::CaseSettled(&result));
        if self.keep {
            self.cases.push(result);
        }
    }

    /// Settle what is left in case order: the held results of a scored run
    /// (scored first), the cases never launched (SKIP, with the reason).
    fn finish(
        &mut self,
        plan: &Plan,
        interrupted: bool,
    ) -> std::io::Result<Vec<crate::score::ScoreReport>> {
        let why = if interrupted {
            "not run: the judge was interrupted"
        } else {
            "not run: --fail-fast stopped after the first failure"
        };
        let mut scores = Vec::new();
        if let Some(held) = self.held.take() {
            let mut graded = held.grade(plan);
            scores = std::mem::take(&mut graded.reports);
            let drained = held.drain(|position, result| {
                match result.or_else(|| not_run(plan, position, why)) {
                    Some(result) => self.settle(graded.apply(position, result)),
                    None => self.next += 1,
                }
            });
            // A result that cannot be read back fails the run: the cases
            // after it ran, and must not be reported as never run.
            drained?;
        }
        while self.next < plan.jobs.len() {
            let result = self
                .pending
                .remove(&self.next)
                .or_else(|| not_run(plan, self.next, why));
            match result {
                Some(result) => self.settle(result),
                None => self.next += 1,
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(scores),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(position: usize) -> Message {
        Message {
            finished: None,
            started: Some(position),
        }
    }

    /// The calling thread gone (its reporter panicked): a worker waiting
    /// for room is told to stop, not left waiting for ever.
    #[test]
    fn a_worker_waiting_for_room_stops_when_the_inbox_closes() {
        let inbox = Inbox::new(1);
        for position in 0..BACKLOG {
            assert!(inbox.send(start(position)));
        }
        std::thread::scope(|scope| {
            let sender = scope.spawn(|| inbox.send(start(BACKLOG)));
            std::thread::sleep(Duration::from_millis(50));
            assert!(!sender.is_finished(), "the full inbox made it wait");
            drop(Close(&inbox));
            assert!(!sender.join().unwrap(), "told to stop");
        });
        assert!(!inbox.send(start(0)), "a closed inbox takes nothing");
    }

    #[test]
    fn a_worker_waits_for_room_when_the_inbox_is_full() {
        let inbox = Inbox::new(1);
        std::thread::scope(|scope| {
            let sender = scope.spawn(|| {
                let _leave = Leave(&inbox);
                for position in 0..BACKLOG + 10 {
                    inbox.send(start(position));
                }
            });
            // The worker fills the inbox, then waits: nothing is taken yet.
            let deadline = Instant::now() + Duration::from_secs(10);
            while inbox.lock().messages.len() < BACKLOG && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(inbox.lock().messages.len(), BACKLOG);
            assert!(
                !sender.is_finished(),
                "the worker went on past a full inbox"
            );
            // Taking the messages lets it finish; every one arrives, in order.
            let mut got = Vec::new();
            while let Some(batch) = inbox.receive() {
                got.extend(batch.into_iter().filter_map(|m| m.started));
            }
            assert_eq!(got, (0..BACKLOG + 10).collect::<Vec<_>>());
        });
    }
}
