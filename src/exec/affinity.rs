//! Each worker slot's own side kept on a core of its own; its programs
//! too when every core has a slot.
//!
//! A case is a chain of hand-offs within its slot: the worker asks the
//! slot's launcher, the launcher clones the program, the program's end
//! wakes the worker. Left to the scheduler, two slots' chains on two cores
//! often pile onto one core while the other idles, and each hand-off
//! between cores is an inter-processor wake-up (costly in a virtual
//! machine). With each slot's worker thread and launcher on a core of
//! their own, `-j 1` came from 1.27× to 1.14× of the physical floor and
//! all cores (`-j 2`) from 0.75× to 0.66× (BENCHMARKS.md, "fifth pass").
//!
//! Where the programs run:
//! - **Every core has a slot** (as many slots placed as the judge has
//!   CPUs, the default `-j`): each program, checker and interactive
//!   validator of a slot stays on the slot's core, as a DOMjudge judgehost
//!   runs one judge daemon per core. No case can then take CPU from
//!   another case's program, so a case's times are its own; a newly
//!   started program is not put on the other slot's busy core while its
//!   own idles (0.675× → 0.649× of the floor, BENCHMARKS.md "sixth pass").
//!   A multi-threaded submission or a JVM sees one CPU, as it would on
//!   such a judgehost.
//! - **Fewer slots than CPUs** (`-j 1` on two cores, say): every program,
//!   tool and build gets the CPUs the judge itself was started with
//!   (`taskset` is honoured), so one may use the cores no slot holds. The
//!   child takes them back before exec, one system call: `spawn`'s child
//!   once any thread of the judge has been placed (a thread a placed
//!   worker starts, an interactive run's validator's, has its core too),
//!   a launcher's (which may be placed) when the request says so.
//!
//! The judge places slots only when each gets a core of its own: at most as
//! many workers as allowed CPUs, and at least two CPUs. Each core is
//! claimed with an abstract socket name (see [`claim`]): two judges at
//! once never put their workers on one core (the first slot tries the
//! core the judge runs on first); a slot whose core another judge holds is
//! left to the scheduler (and the programs of every slot get the judge's
//! CPUs). `judge run --no-pin` leaves everything to the scheduler and
//! gives every program the judge's CPUs.
//! Placement is process-wide: two runs at once in one process (tests)
//! claim cores as two judges do, and may move each other's launchers,
//! which costs speed, never correctness.

use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The CPUs the judge was started with, read once before any thread is
/// placed (`None`: the kernel would not say; nothing is placed then).
static ORIGINAL: OnceLock<Option<CpuSet>> = OnceLock::new();

/// The core of each slot of the current run (empty: no placement).
static CORES: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// A thread of this process has been placed: a thread it started since
/// (an interactive run's validator and relays) has its core too, unseen by
/// [`PLACED`], so from then on every child takes the judge's CPUs back.
static EVER_PLACED: AtomicBool = AtomicBool::new(false);

/// Every CPU of the judge has a slot of the current run: programs keep
/// the core of the thread (or launcher) that starts them.
static EVERY_CORE_A_SLOT: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The core this thread is placed on: its children restore [`ORIGINAL`].
    static PLACED: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// A launcher's core (see [`follow`]), `NOT_PLACED` when it has the
/// judge's CPUs.
pub const NOT_PLACED: usize = usize::MAX;

/// The CPUs the judge was started with. The first call reads them from the
/// calling thread, which must not be placed: [`Placement::new`] makes it
/// on the thread that starts the workers, before any of them is placed.
pub fn original() -> Option<&'static CpuSet> {
    ORIGINAL
        .get_or_init(|| sched_getaffinity(None).ok())
        .as_ref()
}

/// The cores of a run's slots, released (no later launcher is placed, the
/// claims on the cores end) when dropped.
pub struct Placement {
    /// The claim on each core taken (see [`claim`]): none, nothing placed.
    claims: Vec<std::os::fd::OwnedFd>,
    /// Where the slots and their programs run, in words for the report.
    summary: String,
}

impl Placement {
    /// Give each of `workers` slots a core of its own, when there are
    /// enough (see the module doc); `enabled` false: none. A core another
    /// judge has claimed is passed over; a slot left without a core is
    /// not placed.
    pub fn new(workers: usize, enabled: bool) -> Placement {
        let cores = original().map(allowed).unwrap_or_default();
        let placed = enabled && workers >= 1 && cores.len() >= 2 && workers <= cores.len();
        let mut slots = CORES.lock().unwrap_or_else(|e| e.into_inner());
        slots.clear();
        let mut claims = Vec::new();
        if placed {
            // SAFETY: sched_getcpu has no preconditions.
            let here = unsafe { libc::sched_getcpu() };
            let order = cores_of_slots(cores.len(), &cores, usize::try_from(here).ok());
            for core in order {
                if slots.len() == workers {
                    break;
                }
                if let Some(fd) = claim(core) {
                    claims.push(fd);
                    slots.push(core);
                }
            }
        }
        let every = !claims.is_empty() && slots.len() == cores.len();
        if !claims.is_empty() {
            EVERY_CORE_A_SLOT.store(every, Ordering::SeqCst);
        }
        let n = cores.len();
        let summary = if every {
            format!("each slot and its programs on a core of its own ({n} CPUs)")
        } else if claims.len() == workers {
            format!("each slot on a core of its own; programs on the judge's {n} CPUs")
        } else if !claims.is_empty() {
            format!(
                "{} of {workers} slots on cores of their own (other cores held by another \
                 judge); programs on the judge's {n} CPUs",
                claims.len()
            )
        } else if !enabled {
            "left to the scheduler (--no-pin)".to_string()
        } else if workers > n {
            format!("left to the scheduler: {workers} workers on {n} CPUs")
        } else if n < 2 {
            "left to the scheduler: one CPU".to_string()
        } else {
            "left to the scheduler: every core held by another judge".to_string()
        };
        Placement { claims, summary }
    }

    pub fn is_placed(&self) -> bool {
        !self.claims.is_empty()
    }

    /// Where the slots and their programs run (the report's `cores`).
    pub fn summary(&self) -> &str {
        &self.summary
    }
}

impl Drop for Placement {
    fn drop(&mut self) {
        if self.is_placed() {
            CORES.lock().unwrap_or_else(|e| e.into_inner()).clear();
            EVERY_CORE_A_SLOT.store(false, Ordering::SeqCst);
        }
    }
}

/// Claim `core` for this judge: a Unix socket bound to the abstract name
/// `judge-cpu-N` (machine-wide, no file left anywhere, released by the
/// kernel when the judge closes it or dies). Two judges started side by
/// side (a CI script's shards at `-j 1`) would otherwise often read the
/// same current CPU and put their workers on one core for the whole run,
/// where the scheduler cannot separate them. `None` when another judge
/// holds it (or no socket can be made: placement is about speed, and the
/// core is then not used).
fn claim(core: usize) -> Option<std::os::fd::OwnedFd> {
    use rustix::net::{AddressFamily, SocketAddrUnix, SocketFlags, SocketType};
    let name =
        SocketAddrUnix::new_abstract_name(format!("{}-cpu-{core}", claim_domain()).as_bytes())
            .ok()?;
    let socket = rustix::net::socket_with(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC,
        None,
    )
    .ok()?;
    rustix::net::bind(&socket, &name).ok()?;
    Some(socket)
}

/// The name judges claim cores under: `judge`, or `JUDGE_CORE_CLAIMS` when
/// set. Judges coordinate only with judges of the same domain. A test that
/// asserts where programs run uses a domain of its own, so a judge that
/// another test (or another suite) runs at the same moment cannot hold its
/// cores; two groups of judges that must not share cores leave it unset.
fn claim_domain() -> String {
    match std::env::var("JUDGE_CORE_CLAIMS") {
        Ok(domain) if !domain.is_empty() && !domain.contains('\0') => domain,
        _ => "judge".to_string(),
    }
}

/// The core of each of `workers` slots: consecutive allowed cores from
/// the one the judge runs on (`here`), or from the first.
fn cores_of_slots(workers: usize, cores: &[usize], here: Option<usize>) -> Vec<usize> {
    let first = cores.iter().position(|&c| Some(c) == here).unwrap_or(0);
    (0..workers)
        .map(|i| cores[(first + i) % cores.len()])
        .collect()
}

/// The allowed CPUs in `set`, in order.
fn allowed(set: &CpuSet) -> Vec<usize> {
    (0..CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect()
}

/// The core of `slot` in the current run, if slots are placed.
fn core_of(slot: usize) -> Option<usize> {
    CORES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(slot)
        .copied()
}

/// Place the calling thread (a worker of `slot`) on its core, if slots are
/// placed. A placement that fails leaves the thread where it was.
pub fn place_this_thread(slot: usize) {
    if let Some(core) = core_of(slot) {
        place_thread_on(core);
    }
}

fn place_thread_on(core: usize) {
    let mut set = CpuSet::new();
    set.set(core);
    EVER_PLACED.store(true, Ordering::SeqCst);
    if sched_setaffinity(None, &set).is_ok() {
        PLACED.with(|p| p.set(Some(core)));
    }
}

/// Undo [`place_this_thread`] (a worker leaving the run).
pub fn release_this_thread() {
    if PLACED.with(|p| p.replace(None)).is_some()
        && let Some(set) = original()
    {
        let _ = sched_setaffinity(None, set);
    }
}

/// Put process `pid` (a slot's launcher, which starts the calling
/// worker's programs) on the calling thread's core, or back on the judge's
/// CPUs when the thread is not placed; `placed` is where it is now
/// ([`NOT_PLACED`] at first), so that a case costs an atomic load once it
/// is there. A launcher lives as long as its slot, which may serve a run
/// with placement and one without.
pub fn follow(pid: i32, placed: &AtomicUsize) {
    let here = PLACED.with(|p| p.get()).unwrap_or(NOT_PLACED);
    if placed.load(Ordering::Relaxed) == here {
        return;
    }
    let Some(target) = rustix::process::Pid::from_raw(pid) else {
        return;
    };
    let set = if here == NOT_PLACED {
        match original() {
            Some(set) => *set,
            None => return,
        }
    } else {
        let mut set = CpuSet::new();
        set.set(here);
        set
    };
    if sched_setaffinity(Some(target), &set).is_ok() {
        placed.store(here, Ordering::Relaxed);
    }
}

/// The CPUs a child of the calling thread must restore before exec: none
/// while every core has a slot (it keeps the thread's: a placed worker's
/// core, or the judge's CPUs on a thread that is not a slot's); else the
/// judge's own once any thread of the judge has been placed (the calling
/// thread may have been started by one: [`EVER_PLACED`]), else none (it
/// has them). One system call a child.
pub fn for_children() -> Option<&'static CpuSet> {
    if EVER_PLACED.load(Ordering::Relaxed) && !EVERY_CORE_A_SLOT.load(Ordering::Relaxed) {
        original()
    } else {
        None
    }
}

/// Take `set` as the CPUs the calling thread runs on: a child between
/// clone and exec (a system call on prepared data), or a lasting thread
/// of the judge that must not inherit a worker's core. A failure leaves
/// it where it was (placement is about speed, never about what a program
/// may do).
pub fn restore(set: Option<&CpuSet>) {
    if let Some(set) = set {
        let _ = sched_setaffinity(None, set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_thread_runs_on_its_core_and_its_children_get_the_judges_cpus() {
        let Some(all) = original() else {
            println!("sched_getaffinity refused: placement not tested");
            return;
        };
        let cores = allowed(all);
        if cores.len() < 2 {
            println!("one CPU: placement not tested");
            return;
        }
        let core = cores[1];
        std::thread::spawn(move || {
            assert!(
                for_children().is_none(),
                "an unplaced thread's children keep its CPUs"
            );
            place_thread_on(core);
            assert_eq!(allowed(&sched_getaffinity(None).unwrap()), vec![core]);
            let children = for_children().expect("a placed thread's children restore");
            assert_eq!(allowed(children), cores);
            let expected = cores.clone();
            std::thread::spawn(move || {
                // A thread started by a placed one (an interactive run's
                // validator thread) has its core, and its children too
                // take the judge's CPUs back.
                assert_eq!(allowed(&sched_getaffinity(None).unwrap()), vec![core]);
                restore(for_children());
                assert_eq!(allowed(&sched_getaffinity(None).unwrap()), expected);
            })
            .join()
            .unwrap();
            release_this_thread();
            assert_eq!(allowed(&sched_getaffinity(None).unwrap()), cores);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_core_claimed_by_one_judge_is_not_claimed_by_another() {
        // A core number no run of the tests places anything on.
        let core = 100_000 + std::process::id() as usize % 1000;
        let first = claim(core).expect("a free core is claimed");
        assert!(claim(core).is_none(), "held: a second claim fails");
        drop(first);
        assert!(claim(core).is_some(), "released with its descriptor");
    }

    #[test]
    fn slots_take_consecutive_cores_from_the_judges_own() {
        assert_eq!(cores_of_slots(2, &[0, 1], Some(1)), vec![1, 0]);
        assert_eq!(cores_of_slots(1, &[0, 1, 4, 5], Some(4)), vec![4]);
        assert_eq!(cores_of_slots(3, &[2, 3, 6], None), vec![2, 3, 6]);
        assert_eq!(cores_of_slots(2, &[2, 3], Some(9)), vec![2, 3]);
    }

    #[test]
    fn more_workers_than_cpus_or_disabled_places_nothing() {
        let n = original().map_or(1, |s| allowed(s).len());
        let crowded = Placement::new(n + 1, true);
        assert!(!crowded.is_placed());
        assert_eq!(
            crowded.summary(),
            format!("left to the scheduler: {} workers on {n} CPUs", n + 1)
        );
        let off = Placement::new(1, false);
        assert!(!off.is_placed());
        assert_eq!(off.summary(), "left to the scheduler (--no-pin)");
    }
}
