//! The hostile zoo: programs written to hurt the judge or escape it, each
//! built by the test and run through `judge run --submission`. Where a
//! protection depends on the machine (namespaces, a separate user,
//! cgroups), the test reads the report's `protections` and checks both
//! that the protection works when it is on and that the report says so
//! plainly when it is off.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A scratch problem `sum` with one case, judged with a private TMPDIR.
struct Zoo {
    s: Scratch,
    tmp: std::path::PathBuf,
}

impl Zoo {
    fn new() -> Zoo {
        let s = Scratch::new();
        s.write("cases/sum/1.in", "2\n1 2\n3 4\n");
        s.write("cases/sum/1.ans", "3\n7\n");
        s.write(
            "judge.toml",
            "[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\ntime_limit = \"500ms\"\n",
        );
        let tmp = s.path().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        Zoo { s, tmp }
    }

    fn judge(&self, program: &Path, extra: &[&str]) -> Command {
        let mut cmd = self.s.judge();
        cmd.env("TMPDIR", &self.tmp)
            .args(["run", "--format", "json", "--submission"])
            .arg(program)
            .args(extra);
        cmd
    }

    /// Run, and check the judge left no temporary directory behind.
    fn run(&self, program: &Path, extra: &[&str]) -> (serde_json::Value, Ran) {
        let ran = run(self.judge(program, extra));
        let report = ran.json();
        assert_eq!(
            leftovers(&self.tmp),
            Vec::<String>::new(),
            "temporary files left behind"
        );
        (report, ran)
    }
}

fn only_case(report: &serde_json::Value) -> &serde_json::Value {
    &report["cases"][0]
}

fn marker(program: &Path) -> String {
    program.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn fork_bomb_is_capped_and_named() {
    let zoo = Zoo::new();
    let bomb = build(
        "c",
        "fork_bomb",
        "#include <unistd.h>\nint main(void){for(;;)fork();}",
    );
    let started = Instant::now();
    let (report, _) = zoo.run(&bomb, &[]);
    let c = only_case(&report);
    let verdict = c["verdict"].as_str().unwrap();
    assert!(verdict == "TLE" || verdict == "RE", "{c:#}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("process limit of 64"),
        "{c:#}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(
        alive_with(&marker(&bomb)),
        Vec::<i32>::new(),
        "bomb processes survived"
    );
}

#[test]
fn thread_bomb_is_capped_by_the_settable_limit() {
    let zoo = Zoo::new();
    let bomb = build(
        "c",
        "thread_bomb",
        r#"#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *spin(void *a){ (void)a; for(;;) pause(); return 0; }
int main(void){ pthread_t t; int n = 0;
  while (pthread_create(&t, 0, spin, 0) == 0) n++;
  fprintf(stderr, "made %d threads\n", n); return 1; }"#,
    );
    let (report, _) = zoo.run(&bomb, &["--processes", "16"]);
    let c = only_case(&report);
    assert_eq!(c["verdict"], "RE", "{c:#}");
    let made: usize = c["stderr"]
        .as_str()
        .and_then(|s| s.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    assert!(
        made < 16,
        "the cap of 16 tasks let {made} threads start: {c:#}"
    );
    if protection_on(&report, "cgroup") {
        // The pids cgroup counts the refusals: the verdict names the cap.
        let message = c["message"].as_str().unwrap();
        assert!(message.contains("process limit of 16"), "{c:#}");
        // And the cap is exact: the main thread and 15 more, whatever else
        // lives in the slot's cgroup (its launcher, under cgroup v1).
        assert_eq!(made, 15, "{c:#}");
    }
}

#[test]
fn escapees_die_with_their_case() {
    let zoo = Zoo::new();
    // The child leaves the group (setsid), double-forks a sleeper, then
    // kills its own parent, the main process.
    let escaper = build(
        "c",
        "escaper",
        r#"#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void){
  if (fork() == 0) {
    setsid();
    if (fork() == 0) { if (fork() == 0) for(;;) pause(); for(;;) pause(); }
    usleep(20000);
    kill(getppid(), SIGKILL);
    for(;;) pause();
  }
  printf("3\n7\n"); fflush(stdout);
  for(;;) pause();
}"#,
    );
    for sandbox in ["auto", "plain"] {
        let (report, _) = zoo.run(&escaper, &["--sandbox", sandbox]);
        let c = only_case(&report);
        assert_eq!(c["verdict"], "RE", "{sandbox}: {c:#}");
        assert_eq!(c["message"], "killed by SIGKILL (signal 9)", "{sandbox}");
        assert_eq!(
            alive_with(&marker(&escaper)),
            Vec::<i32>::new(),
            "{sandbox}: escapees survived"
        );
    }
    // A well-behaved answer with an escaped daemon left behind is still AC,
    // and the daemon still dies.
    let daemon = build(
        "c",
        "daemonizer",
        r#"#include <stdio.h>
#include <unistd.h>
int main(void){
  if (fork() == 0) { setsid(); if (fork() == 0) for(;;) pause(); return 0; }
  printf("3\n7\n"); return 0;
}"#,
    );
    let (report, _) = zoo.run(&daemon, &[]);
    assert_eq!(only_case(&report)["verdict"], "AC");
    assert_eq!(
        alive_with(&marker(&daemon)),
        Vec::<i32>::new(),
        "the daemon survived"
    );
}

#[test]
fn endless_stdout_and_stderr_leave_the_judge_flat() {
    let zoo = Zoo::new();
    let chatty = build(
        "c",
        "chatty_both",
        r#"#include <string.h>
#include <unistd.h>
int main(int argc, char **argv){
  static char buf[65536]; memset(buf, 'x', sizeof buf);
  int fd = (argc > 1) ? 2 : 1;
  for(;;) if (write(fd, buf, sizeof buf) < 0) return 1;
}"#,
    );
    let (ran, peak_kib) = run_measured(zoo.judge(&chatty, &["--output-limit", "4MiB"]));
    let report = ran.json();
    let c = only_case(&report);
    assert_eq!(c["verdict"], "OLE", "{c:#}");
    let command = format!("{} stderr", chatty.display());
    let (ran, peak_stderr_kib) = run_measured(zoo.judge(Path::new(&command), &[]));
    let report = ran.json();
    let c = only_case(&report);
    assert_eq!(c["verdict"], "TLE", "{c:#}");
    let tail = c["stderr"].as_str().unwrap();
    assert!(
        tail.len() <= 4096 && tail.len() > 1000,
        "stderr tail of {} bytes",
        tail.len()
    );
    // Gigabytes went through the pipes; the judge kept only what it must.
    assert!(
        peak_kib < 64 * 1024,
        "judge peak {peak_kib} KiB on endless stdout"
    );
    assert!(
        peak_stderr_kib < 64 * 1024,
        "judge peak {peak_stderr_kib} KiB on endless stderr"
    );
}

#[test]
fn big_allocations_are_mle_eager_or_lazy() {
    let zoo = Zoo::new();
    let eager = build(
        "c",
        "eager_4g",
        // The size comes from the input (2 × 2 GiB), so the compiler cannot
        // elide the allocation; every page is written and read back.
        r#"#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void){ int t = 0; if (scanf("%d", &t) != 1) return 2;
  size_t n = (size_t)t << 31; char *p = malloc(n);
  memset(p, t, n); long sum = 0;
  for (size_t i = 0; i < n; i += 4096) sum += ((volatile char *)p)[i];
  printf("%ld\n", sum); return 0; }"#,
    );
    let lazy = build(
        "c",
        "lazy_4g",
        r#"#include <sys/mman.h>
#include <stdio.h>
int main(void){ size_t n = (size_t)4 << 30;
  char *p = mmap(0, n, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) { perror("mmap"); return 1; }
  for (size_t i = 0; i < n; i += 4096) p[i] = 1;
  printf("%d\n", p[0]); return 0; }"#,
    );
    for program in [&eager, &lazy] {
        let (report, _) = zoo.run(
            program,
            &["--memory-limit", "256MiB", "--wall-limit", "60s"],
        );
        let c = only_case(&report);
        if program == &eager && !protection_on(&report, "cgroup") {
            // Without a cgroup the limit is the address space: malloc
            // returns NULL and this program, which does not check it,
            // crashes; the report says memory is per process.
            assert_eq!(c["verdict"], "RE", "{c:#}");
            let off = report["protections"]["off"].to_string();
            assert!(off.contains("memory is measured per process"), "{off}");
            continue;
        }
        assert_eq!(c["verdict"], "MLE", "{}: {c:#}", program.display());
        let message = c["message"].as_str().unwrap();
        assert!(message.starts_with("memory limit 256MiB"), "{c:#}");
    }
}

/// With no memory cgroup (`--sandbox plain`, or a machine without one)
/// the limit is RLIMIT_AS and a C program sees malloc fail: one that grows
/// to the limit and then aborts is MLE by its peak, not RE.
#[test]
fn growing_to_the_limit_then_aborting_is_mle_without_a_cgroup() {
    let zoo = Zoo::new();
    let grower = build(
        "c",
        "grow_then_abort",
        r#"#include <stdlib.h>
#include <string.h>
int main(void){ for (;;) { char *p = malloc(1 << 20); if (!p) abort(); memset(p, 1, 1 << 20); } }"#,
    );
    // A wall limit far above the CPU limit: on a loaded machine touching
    // 256 MiB can take seconds of wall time for a fraction of CPU time.
    let (report, _) = zoo.run(
        &grower,
        &[
            "--memory-limit",
            "256MiB",
            "--sandbox",
            "plain",
            "--wall-limit",
            "60s",
        ],
    );
    let c = only_case(&report);
    assert_eq!(c["verdict"], "MLE", "{c:#}");
    let message = c["message"].as_str().unwrap();
    assert!(message.contains("within 10% of the limit"), "{c:#}");
}

#[test]
fn deep_recursion_is_a_named_stack_overflow() {
    let zoo = Zoo::new();
    let deep = build(
        "c",
        "deep_recursion",
        r#"#include <stdio.h>
int depth(volatile char *up, long n){ volatile char pad[4096]; pad[0] = up ? up[0] : 0; return n ? depth(pad, n - 1) + 1 : 0; }
int main(void){ printf("%d\n", depth(0, 1L << 40)); return 0; }"#,
    );
    let (report, _) = zoo.run(
        &deep,
        &["--stack-limit", "8MiB", "--memory-limit", "256MiB"],
    );
    let c = only_case(&report);
    assert_eq!(c["verdict"], "RE", "{c:#}");
    let message = c["message"].as_str().unwrap();
    assert!(
        message.starts_with("killed by SIGSEGV (signal 11)"),
        "{message}"
    );
    assert!(message.contains("a stack overflow"), "{message}");
}

#[test]
fn huge_file_is_stopped_and_its_directory_removed() {
    let zoo = Zoo::new();
    let writer = build(
        "c",
        "file_filler",
        r#"#include <stdio.h>
#include <string.h>
int main(void){ static char buf[1 << 20]; memset(buf, 'z', sizeof buf);
  FILE *f = fopen("big.bin", "w"); if (!f) { perror("fopen"); return 2; }
  for (int i = 0; i < 10 * 1024; i++) if (fwrite(buf, 1, sizeof buf, f) != sizeof buf) return 3;
  return 0; }"#,
    );
    for sandbox in ["auto", "plain"] {
        let (report, _) = zoo.run(&writer, &["--sandbox", sandbox]);
        let c = only_case(&report);
        assert_eq!(c["verdict"], "RE", "{sandbox}: {c:#}");
        assert!(
            c["message"]
                .as_str()
                .unwrap()
                .contains("file-size limit of 64MiB"),
            "{c:#}"
        );
        // Zoo::run already checked that TMPDIR is empty again.
    }
}

#[test]
fn no_network() {
    let zoo = Zoo::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let caller = build(
        "c",
        "net_caller",
        r#"#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
int main(int argc, char **argv){
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(atoi(argv[1]));
  a.sin_addr.s_addr = htonl(0x7f000001);
  if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) != 0) { printf("3\n7\n"); return 0; }
  printf("connected\n"); return 0; }"#,
    );
    let command = format!("{} {port}", caller.display());
    let (report, _) = zoo.run(Path::new(&command), &[]);
    let connected = listener.accept().is_ok();
    if protection_on(&report, "network namespace") {
        assert_eq!(only_case(&report)["verdict"], "AC", "{report:#}");
        assert!(!connected, "a connection reached the host");
    } else {
        // Honest about it: the report lists what is off, and it is.
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("network"), "{off}");
        assert!(connected);
    }
}

#[test]
fn no_peeking_at_answers_or_judge_files() {
    let zoo = Zoo::new();
    let answer = std::fs::canonicalize(zoo.s.path().join("cases/sum/1.ans")).unwrap();
    let config = std::fs::canonicalize(zoo.s.path().join("judge.toml")).unwrap();
    // Prints the sums only if it can read neither the answer file (directly
    // or through the judge's /proc/PID/root) nor judge.toml.
    let peeker = build(
        "c",
        "peeker",
        r#"#include <stdio.h>
#include <unistd.h>
static int readable(const char *path){ FILE *f = fopen(path, "r"); if (!f) return 0;
  int c = fgetc(f); fclose(f); return c != EOF; }
int main(int argc, char **argv){
  char via_proc[4096];
  snprintf(via_proc, sizeof via_proc, "/proc/%d/root%s", (int)getppid(), argv[1]);
  int seen = readable(argv[1]) + 2 * readable(via_proc) + 4 * readable(argv[2]);
  if (seen) { printf("peeked %d\n", seen); return 0; }
  printf("3\n7\n"); return 0; }"#,
    );
    let command = format!(
        "{} {} {}",
        peeker.display(),
        answer.display(),
        config.display()
    );
    let (report, _) = zoo.run(Path::new(&command), &[]);
    let c = only_case(&report);
    if protection_on(&report, "mount namespace") {
        assert_eq!(c["verdict"], "AC", "the submission read judge files: {c:#}");
    } else {
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("read the cases"), "{off}");
        assert_eq!(c["verdict"], "WA", "{c:#}");
    }
}

#[test]
fn submission_cannot_signal_the_judge_as_root() {
    let zoo = Zoo::new();
    let killer = build(
        "c",
        "parent_killer",
        r#"#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void){ pid_t judge = getppid(); /* 0 in a PID namespace: the judge is outside it */
  if (judge > 0 && kill(judge, SIGKILL) == 0) return 9; printf("3\n7\n"); return 0; }"#,
    );
    let (report, _) = zoo.run(&killer, &[]);
    if protection_on(&report, "own unprivileged user") || protection_on(&report, "PID namespace") {
        assert_eq!(only_case(&report)["verdict"], "AC", "{report:#}");
    } else {
        // Neither root nor a PID namespace: the report says the judge can
        // be signalled. (Not run: the judge would die, as the report warns.)
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("can signal the judge"), "{off}");
    }
}

#[test]
fn ctrl_c_kills_everything_writes_a_partial_report_and_exits_130() {
    let zoo = Zoo::new();
    for i in 2..=9 {
        zoo.s.write(&format!("cases/sum/{i}.in"), "1\n1 1\n");
        zoo.s.write(&format!("cases/sum/{i}.ans"), "2\n");
    }
    let sleeper = build(
        "c",
        "interrupted_sleeper",
        "#include <unistd.h>\nint main(void){ if (fork() == 0) { setsid(); for(;;) pause(); } sleep(30); return 0; }",
    );
    for sandbox in ["auto", "plain"] {
        let mut cmd = zoo.s.judge();
        cmd.env("TMPDIR", &zoo.tmp)
            .args([
                "run",
                "-j",
                "2",
                "--time-limit",
                "20s",
                "--report",
                "partial.json",
                "--sandbox",
                sandbox,
            ])
            .arg("--submission")
            .arg(&sleeper)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().unwrap();
        std::thread::sleep(Duration::from_millis(700));
        let started = Instant::now();
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let status = child.wait().unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{sandbox}: slow to stop"
        );
        assert_eq!(status.code(), Some(130), "{sandbox}");
        let report: serde_json::Value = serde_json::from_str(&zoo.s.read("partial.json")).unwrap();
        assert_eq!(report["interrupted"], true);
        let verdicts: Vec<&str> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(verdicts.len(), 9);
        assert!(
            verdicts.iter().all(|v| *v == "SKIP"),
            "{sandbox}: {verdicts:?}"
        );
        assert_eq!(
            alive_with(&marker(&sleeper)),
            Vec::<i32>::new(),
            "{sandbox}: programs survived"
        );
        assert_eq!(
            leftovers(&zoo.tmp),
            Vec::<String>::new(),
            "{sandbox}: temporary files left"
        );
    }
}

#[test]
fn the_environment_is_scrubbed() {
    let zoo = Zoo::new();
    // Prints the sums only when it sees exactly the judge's five variables.
    let envy = build(
        "c",
        "env_lister",
        r#"#include <stdio.h>
#include <string.h>
extern char **environ;
int main(void){ int n = 0, ok = 1; const char *allowed[] = {"PATH=", "HOME=", "TMPDIR=", "LANG=", "ONLINE_JUDGE="};
  for (char **e = environ; *e; e++, n++) { int known = 0;
    for (int i = 0; i < 5; i++) if (!strncmp(*e, allowed[i], strlen(allowed[i]))) known = 1;
    if (!known) { printf("leak %s\n", *e); ok = 0; } }
  if (ok && n == 5) printf("3\n7\n"); return 0; }"#,
    );
    let mut cmd = zoo.judge(&envy, &[]);
    cmd.env("SECRET_TOKEN", "hunter2");
    let ran = run(cmd);
    let report = ran.json();
    assert_eq!(only_case(&report)["verdict"], "AC", "{report:#}");
}

/// As root each worker has its own PID namespace: a submission sees only
/// its own processes in /proc (and the namespace's init, which shows no
/// command line of the judge's).
#[test]
fn a_submission_sees_only_its_own_processes() {
    let zoo = Zoo::new();
    let counter = build(
        "c",
        "process_counter",
        r#"#include <dirent.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>
int main(void){ DIR *d = opendir("/proc"); struct dirent *e; int n = 0;
  while (d && (e = readdir(d))) if (isdigit((unsigned char)e->d_name[0])) n++;
  char line[256] = ""; FILE *f = fopen("/proc/1/cmdline", "r");
  if (f) { size_t k = fread(line, 1, sizeof line - 1, f); line[k] = 0; fclose(f); }
  if (n <= 3 && strstr(line, "judge-init") == line) { printf("3\n7\n"); return 0; }
  printf("saw %d processes, pid 1 is %s\n", n, line); return 0; }"#,
    );
    let (report, _) = zoo.run(&counter, &[]);
    let c = only_case(&report);
    if protection_on(&report, "PID namespace") {
        assert_eq!(c["verdict"], "AC", "{c:#}");
    } else {
        let off = report["protections"]["off"].to_string();
        assert!(off.contains("PID namespace"), "{off}");
        assert_eq!(c["verdict"], "WA", "{c:#}");
    }
}
