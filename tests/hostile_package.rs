//! What a submission can reach of the package, the project, the
//! validator's files and the judge's user's home (SECURITY.md): the
//! hostile programs of `tests/hostile/package/`, each run with the judge
//! as the tests' user (root in CI) and as an unprivileged user (`nobody`
//! when the tests are root: the user-namespace sandbox). Each prints the
//! right answer only when its attack worked: never AC, never IE.
//!
//! `HOSTILE_PACKAGE_JUDGE=/path/to/judge` runs another judge binary
//! instead (to show the attacks winning against an older judge).

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn hostile(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile/package")
        .join(format!("{name}.c"));
    let source = std::fs::read_to_string(&path).unwrap();
    assert!(source.starts_with("// attack: "), "{}", path.display());
    source
}

/// A home directory outside /tmp (which the sandbox makes read-only
/// anyway): in the test target's own temporary directory, removed with
/// `s` (a symbolic link `s/home` names it).
fn home_of(s: &Scratch) -> PathBuf {
    let link = s.path().join("home");
    if let Ok(real) = std::fs::read_link(&link) {
        return real;
    }
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("homes");
    std::fs::create_dir_all(&base).unwrap();
    let real = tempfile::Builder::new()
        .prefix("home-")
        .tempdir_in(&base)
        .unwrap()
        .keep();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    real
}

/// Removes a test's home directory when the test ends.
struct Home(PathBuf);
impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// TMPDIR (sticky, open to all) and HOME (the judge's user's) for `s`.
fn places(s: &Scratch, unprivileged: bool) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let tmp = s.path().join("tmp");
    let home = home_of(s);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    if unprivileged && is_root() {
        std::os::unix::fs::chown(&home, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    (tmp, home)
}

/// The judge, as the tester or unprivileged, with TMPDIR and HOME in `s`
/// and the build cache in HOME (`~/.cache/judge`).
fn judge(s: &Scratch, unprivileged: bool) -> Command {
    let (tmp, home) = (s.path().join("tmp"), home_of(s));
    let mut c = if unprivileged {
        let mut c = unprivileged_judge(s);
        // unprivileged_judge opened every file to all: HOME is the
        // judge's user's own again (and 0700 as a home usually is).
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        if is_root() {
            std::os::unix::fs::chown(&home, Some(NOBODY), Some(NOBODY)).unwrap();
        }
        c.env("PATH", "/usr/local/bin:/usr/bin:/bin");
        c
    } else {
        let mut c = s.judge();
        c.env_remove("JUDGE_CACHE_DIR").env_remove("XDG_CACHE_HOME");
        c
    };
    if let Some(other) = std::env::var_os("HOSTILE_PACKAGE_JUDGE") {
        let mut o = Command::new(other);
        o.current_dir(s.path()).env_clear();
        for (k, v) in c.get_envs() {
            if let Some(v) = v {
                o.env(k, v);
            }
        }
        if unprivileged && is_root() {
            use std::os::unix::process::CommandExt;
            o.uid(NOBODY).gid(NOBODY);
        }
        c = o;
        if !unprivileged {
            c.env("PATH", std::env::var_os("PATH").unwrap_or_default());
        }
    }
    c.env("TMPDIR", tmp).env("HOME", home).env("NO_COLOR", "1");
    c
}

fn never_ac(ran: &Ran, what: &str) {
    let report: serde_json::Value = serde_json::from_str(&ran.stdout)
        .unwrap_or_else(|e| panic!("{what}: no JSON report ({e}); stderr: {}", ran.stderr));
    let cases = report["cases"].as_array().expect("cases");
    assert!(!cases.is_empty(), "{what}: no case ran: {}", ran.stderr);
    for case in cases {
        let verdict = case["verdict"].as_str().unwrap_or("");
        assert!(
            verdict != "AC" && verdict != "IE",
            "{what}: the attack got {verdict}: {case:#}\nprotections: {:#}\nstderr: {}",
            report["protections"],
            ran.stderr
        );
    }
}

fn verdicts(ran: &Ran) -> Vec<String> {
    ran.json()["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("no cases: {}", ran.stderr))
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect()
}

/// Item 3: a package's accepted solution, from a submission of its own
/// `submissions/wrong_answer/` (and TMPDIR inside the package's parent).
fn package_solutions(unprivileged: bool) {
    let s = Scratch::new();
    let (tmp, home) = places(&s, unprivileged);
    let _home = Home(home);
    s.write("pkg/problem.yaml", "name: Sum\n");
    ab_package_data(&s, "pkg");
    s.write("pkg/submissions/accepted/good.c", AB_C);
    let good = s.path().join("pkg/submissions/accepted/good");
    std::fs::copy(build("c", "ab", AB_C), &good).unwrap();
    let pkg = s.path().join("pkg");
    let source = hostile("run_accepted")
        .replace("@PKG@", &pkg.display().to_string())
        .replace("@SCRATCH@", &tmp.display().to_string());
    s.write("pkg/submissions/wrong_answer/hostile.c", source);
    // The accepted solution itself is judged AC from where it lies: a
    // submission inside its package is copied out for its runs.
    let mut c = judge(&s, unprivileged);
    c.args(["run", "pkg", "--format", "json", "--submission"])
        .arg("pkg/submissions/accepted/good.c");
    let ran = run(c);
    assert_eq!(verdicts(&ran), ["AC", "AC", "AC"], "{}", ran.stderr);
    let mut c = judge(&s, unprivileged);
    c.args(["run", "pkg", "--format", "json", "--submission"])
        .arg("pkg/submissions/wrong_answer/hostile.c");
    never_ac(&run(c), "run_accepted");
}

#[test]
fn a_submission_cannot_run_its_packages_solutions_as_the_tester() {
    package_solutions(false);
}

#[test]
fn a_submission_cannot_run_its_packages_solutions_unprivileged() {
    package_solutions(true);
}

/// Item 3: judge.toml's `solution = "python3 sol/ref.py"`: the script.
fn reference_script(unprivileged: bool) {
    if !installed("python3") {
        return;
    }
    let s = Scratch::new();
    let _home = Home(places(&s, unprivileged).1);
    sum_cases(&s);
    s.write(
        "judge.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ncheck = \"tokens\"\nsolution = \"python3 sol/ref.py\"\n",
    );
    s.write(
        "sol/ref.py",
        "import sys\nt, *r = map(int, sys.stdin.read().split())\nprint('\\n'.join(str(r[2*i] + r[2*i+1]) for i in range(t)))\n",
    );
    let source = hostile("run_reference").replace("@ROOT@", &s.path().display().to_string());
    s.write("attack/hostile.c", source);
    // The reference itself still runs (it is copied out of the project).
    let mut c = judge(&s, unprivileged);
    c.args(["run", "cases/sum", "--format", "json"]);
    let ran = run(c);
    assert_eq!(verdicts(&ran), ["AC", "AC", "AC"], "{}", ran.stderr);
    let mut c = judge(&s, unprivileged);
    c.args(["run", "cases/sum", "--format", "json", "--submission"])
        .arg("attack/hostile.c");
    never_ac(&run(c), "run_reference");
}

#[test]
fn a_submission_cannot_run_the_reference_script_as_the_tester() {
    reference_script(false);
}

#[test]
fn a_submission_cannot_run_the_reference_script_unprivileged() {
    reference_script(true);
}

/// Item 4: a validator that keeps its secret in its feedback directory
/// and its working directory, and allows one guess.
const SECRET_VALIDATOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    char path[4096]; int secret, g;
    if (!in || fscanf(in, "%d", &secret) != 1) return 1;
    snprintf(path, sizeof path, "%ssecret.txt", argv[3]);
    FILE *f = fopen(path, "w"); if (!f) return 1; fprintf(f, "%d\n", secret); fclose(f);
    f = fopen("secret.txt", "w"); if (f) { fprintf(f, "%d\n", secret); fclose(f); }
    printf("ready\n"); fflush(stdout);
    if (scanf("%d", &g) != 1) return 43;
    return g == secret ? 42 : 43;
}"#;

fn feedback_directory(unprivileged: bool) {
    let s = Scratch::new();
    let (tmp, home) = places(&s, unprivileged);
    let _home = Home(home);
    s.write(
        "g/problem.yaml",
        "name: Guess\ntype: interactive\nlimits:\n  time_limit: 1\n",
    );
    for (i, secret) in [(1, 481), (2, 77), (3, 913)] {
        s.write(&format!("g/data/secret/{i}.in"), format!("{secret}\n"));
        s.write(&format!("g/data/secret/{i}.ans"), "\n");
    }
    s.write("g/output_validator/validate.c", SECRET_VALIDATOR_C);
    let source = hostile("read_feedback").replace("@TMP@", &tmp.display().to_string());
    s.write("attack/peek.c", source);
    let mut c = judge(&s, unprivileged);
    c.args([
        "run",
        "g",
        "--format",
        "json",
        "--submission",
        "attack/peek.c",
    ]);
    never_ac(&run(c), "read_feedback");
}

#[test]
fn a_submission_cannot_read_the_validators_feedback_as_the_tester() {
    feedback_directory(false);
}

#[test]
fn a_submission_cannot_read_the_validators_feedback_unprivileged() {
    feedback_directory(true);
}

/// Item 5: HOME and the build cache in it, out of the sandbox's reach.
fn home_and_cache(unprivileged: bool) {
    let s = Scratch::new();
    let (_, home) = places(&s, unprivileged);
    let _home = Home(home.clone());
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
    s.write("honest/ab.c", AB_C);
    std::fs::write(home.join(".bashrc"), "# mine\n").unwrap();
    let source = hostile("poison_home").replace("@HOME@", &home.display().to_string());
    s.write("attack/poison.c", source);
    let args = ["run", "--problem", "sum", "--check", "tokens", "cases"];
    // The honest build first, so that the cache holds an entry to poison.
    let mut c = judge(&s, unprivileged);
    c.args(args)
        .args(["--format", "json", "--submission", "honest/ab.c"]);
    let ran = run(c);
    assert_eq!(verdicts(&ran), ["AC"], "{}", ran.stderr);
    let mut c = judge(&s, unprivileged);
    c.args(args)
        .args(["--format", "json", "--submission", "attack/poison.c"]);
    never_ac(&run(c), "poison_home");
    assert_eq!(
        std::fs::read_to_string(home.join(".bashrc")).unwrap(),
        "# mine\n",
        "~/.bashrc was changed"
    );
    assert!(
        !home.join(".cache/judge/planted").exists(),
        "a file was planted in the build cache"
    );
    let mut c = judge(&s, unprivileged);
    c.args(args)
        .args(["--format", "json", "--submission", "honest/ab.c"]);
    let ran = run(c);
    assert_eq!(
        verdicts(&ran),
        ["AC"],
        "the cache was poisoned: {}",
        ran.stderr
    );
}

#[test]
fn a_submission_cannot_touch_home_or_the_cache_as_the_tester() {
    home_and_cache(false);
}

#[test]
fn a_submission_cannot_touch_home_or_the_cache_unprivileged() {
    home_and_cache(true);
}

/// Item 5: a cache directory that others could write (0777), or that
/// another user made first, is refused with a message naming it; the run
/// builds in a private cache and is still right. An entry whose artifact
/// was swapped is built again.
#[test]
fn a_cache_others_could_write_is_refused_and_a_swapped_entry_rebuilt() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    s.write("cases/1.in", "2\n1 2\n3 4\n");
    s.write("cases/1.ans", "3\n7\n");
    s.write("honest/ab.c", AB_C);
    let cache = s.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    let judge_with = |cache: &Path| {
        let mut c = s.judge();
        if let Some(other) = std::env::var_os("HOSTILE_PACKAGE_JUDGE") {
            c = Command::new(other);
            c.current_dir(s.path()).env("NO_COLOR", "1");
        }
        c.env("JUDGE_CACHE_DIR", cache).args([
            "run",
            "--problem",
            "sum",
            "--check",
            "tokens",
            "cases",
            "--format",
            "json",
            "--submission",
            "honest/ab.c",
        ]);
        run(c)
    };
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let ran = judge_with(&cache);
    assert_eq!(verdicts(&ran), ["AC"], "{}", ran.stderr);
    assert!(
        ran.stderr.contains(&format!(
            "the cache directory {} (builds and runs) is not used",
            cache.display()
        )) && ran.stderr.contains("writable by others"),
        "{}",
        ran.stderr
    );
    assert!(
        !cache.join("compile").exists(),
        "the refused cache was written"
    );
    if is_root() {
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::chown(&cache, Some(NOBODY), Some(NOBODY)).unwrap();
        let ran = judge_with(&cache);
        assert_eq!(verdicts(&ran), ["AC"], "{}", ran.stderr);
        assert!(
            ran.stderr.contains("belongs to uid 65534"),
            "{}",
            ran.stderr
        );
        assert!(
            !cache.join("compile").exists(),
            "another user's cache was written"
        );
    }
    // A cache of the judge's own: used; then its built program swapped
    // for a wrong one: the entry is dropped and built again.
    let own = s.path().join("own");
    let ran = judge_with(&own);
    assert_eq!(verdicts(&ran), ["AC"], "{}", ran.stderr);
    let entries: Vec<PathBuf> = std::fs::read_dir(own.join("compile"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let wrong = build("c", "wrong_on_seven", WRONG_ON_SEVEN_C);
    let mut swapped = 0;
    for file in walkdir::WalkDir::new(&entries[0]).into_iter().flatten() {
        let mode = file.metadata().unwrap().permissions().mode();
        if file.file_type().is_file() && mode & 0o111 != 0 {
            std::fs::copy(&wrong, file.path()).unwrap();
            swapped += 1;
        }
    }
    assert!(swapped > 0, "no built program in the entry");
    s.write("cases/2.in", "1\n7 7\n");
    s.write("cases/2.ans", "14\n");
    let ran = judge_with(&own);
    assert_eq!(verdicts(&ran), ["AC", "AC"], "{}", ran.stderr);
    assert!(
        ran.stderr.contains("was changed since it was built"),
        "{}",
        ran.stderr
    );
}
