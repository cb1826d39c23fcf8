//! Running one program on one input under limits → one [`RunOutcome`].
//!
//! This layer knows processes, limits and measurements; it knows nothing of
//! verdicts, answers or puzzles. [`Runner`] is the seam (as hyperfine's
//! `Executor`): the real [`runner::ProcessRunner`] spawns a contained
//! process, [`builtin::BuiltinRunner`] calls a built-in solver in process,
//! and tests of the orchestration and the reporters use a fake.

pub mod affinity;
pub mod atomic;
pub mod beneath;
pub mod bounded_read;
pub mod builtin;
pub mod cache_dir;
pub mod captured;
pub mod identity;
pub mod interactive;
pub mod interrupt;
pub mod links;
mod output_file;
pub mod process;
pub mod procfs;
pub mod runner;
pub mod sandbox;
pub mod signals;
pub mod spawn;
mod watch;

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// Every limit a run is held to. One place sets them all before `exec`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system). Enforced by RLIMIT_CPU, judged by rusage.
    pub time: Duration,
    /// Wall-clock time, after which the whole process group is killed.
    pub wall: Duration,
    /// Address space (RLIMIT_AS), or the cgroup memory limit when cgroups are used.
    pub memory: Option<u64>,
    /// Stack size (RLIMIT_STACK); contest judges set it to the memory limit.
    pub stack: Option<u64>,
    /// Bytes of standard output kept; what one byte more does is
    /// [`Limits::past_output`].
    pub output: u64,
    /// What standard output past [`Limits::output`] does.
    pub past_output: PastOutput,
    /// Largest file the program may write (RLIMIT_FSIZE).
    pub file_size: u64,
    /// Processes and threads the run may have at once.
    pub processes: u32,
    /// A submission may create files in its working directory (which is
    /// its HOME and TMPDIR too). `false` for a DOMjudge package's: its
    /// judgehost runs them in a directory their user cannot write
    /// (`testcase_run.sh`; its `test-write-file.c` expects the `fopen` to
    /// fail). As root the directory is then the judge's, mode 0755; with
    /// no slot users (the program is the judge's user) it stays writable.
    pub writable_workdir: bool,
}

/// What a program's standard output past its limit does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PastOutput {
    /// The program is killed at once: OLE (the judge's rule; problemtools
    /// kills too, with a file-size limit, which it calls a run-time error).
    #[default]
    Kill,
    /// The rest is dropped and the program runs on, as DOMjudge's runguard
    /// (`--streamsize`) does: a time-out is then TLE, a crash RE, and only
    /// a program that ends well is OLE (DOMjudge's order of verdicts).
    Truncate,
}

/// The limits a program gets when nothing sets them (README "judge.toml"),
/// defined here once: `Limits::default()` and the configuration both use
/// them.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);
pub const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
pub const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;
pub const DEFAULT_PROCESSES: u32 = 64;

/// The memory of a submission's build (every process of it, by its
/// cgroup): a compiler's need with room to spare.
pub const BUILD_MEMORY: u64 = 2 << 30;

impl Limits {
    /// The limits of a build (a compiler, an interpreter's check, a
    /// setter's build script): `time` of CPU and of wall clock, no address
    /// space limit (compilers reserve much: rustc, LLVM), 1 MiB of output,
    /// 1 GiB files, 512 processes and threads (parallel builds).
    pub fn build(time: Duration) -> Limits {
        Limits {
            time,
            wall: time,
            memory: None,
            stack: None,
            output: 1 << 20,
            past_output: PastOutput::Kill,
            file_size: 1 << 30,
            processes: 512,
            writable_workdir: true,
        }
    }

    /// The limits of a submission's build, an untrusted run: those of
    /// [`Limits::build`] and [`BUILD_MEMORY`] of memory, which only a
    /// memory cgroup enforces (see `process::launch_untrusted_build`).
    pub fn untrusted_build(time: Duration) -> Limits {
        Limits {
            memory: Some(BUILD_MEMORY),
            ..Limits::build(time)
        }
    }

    /// The wall-clock limit that goes with a CPU limit unless one is set:
    /// 2 × CPU + 1 s (room for I/O and a busy machine, none for sleepers).
    pub fn default_wall(time: Duration) -> Duration {
        time * 2 + Duration::from_secs(1)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: DEFAULT_TIME_LIMIT,
            wall: Limits::default_wall(DEFAULT_TIME_LIMIT),
            memory: Some(DEFAULT_MEMORY_LIMIT),
            stack: Some(DEFAULT_MEMORY_LIMIT),
            output: DEFAULT_OUTPUT_LIMIT,
            past_output: PastOutput::Kill,
            file_size: DEFAULT_OUTPUT_LIMIT,
            processes: DEFAULT_PROCESSES,
            writable_workdir: true,
        }
    }
}

/// How the program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
}

impl Exit {
    pub fn success(self) -> bool {
        self == Exit::Code(0)
    }

    /// `exit code 3` or `SIGSEGV (signal 11)`.
    pub fn describe(self) -> String {
        match self {
            Exit::Code(code) => format!("exit code {code}"),
            Exit::Signal(sig) => match signals::name(sig) {
                Some(name) => format!("{name} (signal {sig})"),
                None => format!("signal {sig}"),
            },
        }
    }
}

/// Which limit ended the run, when the judge ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LimitHit {
    /// CPU time: SIGXCPU/SIGKILL from RLIMIT_CPU.
    Cpu,
    /// Wall-clock time: killed by the judge's timer.
    Wall,
    /// Memory: the cgroup's out-of-memory killer, or an allocation that
    /// failed under RLIMIT_AS (see `memory_evidence`).
    Memory,
    /// Standard output passed the output limit: killed by the judge.
    Output,
    /// A file passed RLIMIT_FSIZE (SIGXFSZ).
    FileSize,
    /// The process cap refused a fork or a thread.
    Processes,
}

/// Where the peak-memory figure of a run came from (the JSON report's
/// `memory_source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemorySource {
    /// `ru_maxrss` from wait4: the largest resident set of the program and
    /// the descendants it waited for.
    Rusage,
    /// The cgroup's peak (`memory.max_usage_in_bytes` / `memory.peak`):
    /// every process of the run together.
    Cgroup,
    /// Not measured (a built-in solver runs inside the judge process).
    None,
}

/// One record back from a run, with named fields (isolate's meta file).
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub exit: Exit,
    /// User + system CPU time.
    pub cpu: Duration,
    /// Whose CPU time `cpu` is.
    pub cpu_source: CpuSource,
    pub wall: Duration,
    pub peak_rss_kib: Option<u64>,
    pub memory_source: MemorySource,
    /// Standard output, at most `Limits::output` bytes (spooled to a
    /// file past [`captured::SPILL`]).
    pub stdout: captured::Output,
    /// The last [`STDERR_TAIL`] bytes of standard error.
    pub stderr_tail: Vec<u8>,
    /// The limit that ended the run, if the judge ended it.
    pub limit_hit: Option<LimitHit>,
    /// Why the judge believes memory was the cause of a crash (an
    /// allocation failure message, the cgroup's OOM count), if it does.
    pub memory_evidence: Option<String>,
    /// The process cap was reached (the cgroup refused a fork, the run had
    /// as many processes as allowed, or a fork failed for want of them).
    pub process_cap_hit: bool,
    /// Stopped by the judge because its interactive partner's end decided
    /// the case (`Piped::stop`): killed, but for no fault of its own.
    pub stopped: bool,
}

/// Why a program cannot be run as given: its command line, where it is,
/// what the sandbox lets it see.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    #[error("cannot split {0:?} into words (unbalanced quotes?)")]
    Unsplittable(String),
    #[error("the submission command is empty")]
    Empty,
    #[error("program not found: {0}")]
    NotFound(String),
    #[error("program not found on PATH: {0}")]
    NotOnPath(String),
    #[error("{0} is not an executable file (chmod +x it, or run it through its interpreter)")]
    NotExecutable(String),
    /// It could not be copied where the sandbox's users can reach it.
    #[error("cannot copy {} for the sandbox user: {reason}", .path.display())]
    Stage {
        path: std::path::PathBuf,
        reason: sandbox::CopyError,
    },
}

/// What measured a run's CPU time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CpuSource {
    /// The run's cgroup: every process it started, reaped or not.
    Cgroup,
    /// The run's process group, from /proc while it ran, and the main
    /// process with the children it reaped (a process that left the group
    /// is not counted).
    #[default]
    ProcessGroup,
    /// The judge's own thread (a built-in solver).
    InProcess,
}

impl CpuSource {
    /// For messages: "every process of the run (cgroup)".
    pub fn describe(self) -> &'static str {
        match self {
            CpuSource::Cgroup => "every process of the run, counted by its cgroup",
            CpuSource::ProcessGroup => {
                "the run's process group and the children it reaped, from /proc"
            }
            CpuSource::InProcess => "the solver's thread",
        }
    }
}

/// How much of standard error a run keeps (its end).
pub const STDERR_TAIL: usize = 4096;

/// What to run a program on.
#[derive(Clone, Copy, Debug)]
pub struct RunRequest<'a> {
    pub input: &'a Path,
    pub limits: &'a Limits,
    /// The worker running it (0-based): a sandbox gives each worker its own
    /// user id and cgroup.
    pub slot: usize,
    /// What the test case gives the program beside its input.
    pub given: Given<'a>,
}

/// What a test case gives the submission beside its standard input
/// (2025-09 "Input"): files for its working directory (`NAME.files/`),
/// copied there before it starts, and command-line arguments (`args` of
/// the case's `NAME.yaml` or its group's settings), after the program's
/// own.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given<'a> {
    pub files: Option<&'a Path>,
    pub args: &'a [String],
    /// The problem's file names for input and output instead of the
    /// standard streams (Polygon's `input-file`/`output-file`).
    pub io: &'a IoFiles,
}

/// A problem whose program reads its input from a file and writes its
/// output to a file in its working directory (`input.txt`,
/// `output.txt`) instead of the standard streams: the input is copied
/// there as that name (standard input is then empty), and the output file
/// is read after the run in place of standard output, held to the output
/// limit. Each name is one plain file name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IoFiles {
    pub input: Option<String>,
    pub output: Option<String>,
}

/// The empty [`IoFiles`]: the standard streams.
pub static STANDARD_STREAMS: IoFiles = IoFiles {
    input: None,
    output: None,
};

impl Default for &IoFiles {
    fn default() -> Self {
        &STANDARD_STREAMS
    }
}

/// Why a run produced no outcome.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The judge's own failure (cannot fork, cannot read the input, a
    /// built-in solver refused the input): the case is IE.
    #[error("{0}")]
    Internal(String),
    /// The judge was interrupted (Ctrl-C) while the case ran.
    #[error("interrupted")]
    Interrupted,
}

/// Runs a program on an input. Implementations are shared by all workers.
pub trait Runner: Send + Sync {
    fn run(&self, request: &RunRequest<'_>) -> Result<RunOutcome, RunError>;

    /// What this runner executes under `limits`, as content (see
    /// [`identity`]): a digest that changes whenever the program, its
    /// files, its arguments or the way it is contained change. `None`:
    /// its runs are never cached (a built-in solver runs in process, and
    /// is faster than a look-up).
    fn identity(&self, limits: &Limits) -> Option<String> {
        let _ = limits;
        None
    }

    /// Run connected to an interactive validator (`partner`, a trusted
    /// program; `decides` says when its end alone settles the case): see
    /// [`interactive::launch_pair`]. A runner that is not a
    /// process (a built-in solver) cannot.
    fn run_interactive(
        &self,
        request: &RunRequest<'_>,
        partner: &process::Launch<'_>,
        decides: interactive::Decides<'_>,
    ) -> Result<interactive::PairOutcome, RunError> {
        let _ = (request, partner, decides);
        Err(RunError::Internal(
            "this program cannot take part in an interactive run (a built-in solver)".into(),
        ))
    }
}

pub use cache_dir::cache_dir;
