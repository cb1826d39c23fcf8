//! The command line as a user meets it: configuration errors, listing,
//! filtering, sharding and merging, report formats, exit codes.

mod common;
use common::*;

#[test]
fn config_errors_name_the_key_and_line_and_exit_2() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "judge.toml",
        "[problem.sum]\ncheck = \"tokens\"\ntime_limit = \"2 sec\"\n",
    );
    let ran = s.run_judge(&["run", "--submission", "true"]);
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr.trim(),
        "judge: error: judge.toml:3:14: \"2 sec\" is not a duration: expected a duration such as 1.5s, 500ms or 2m (key `time_limit`)"
    );
    s.write("judge.toml", "[problem.sum]\nchek = \"tokens\"\n");
    let mut cmd = s.judge();
    cmd.arg("list");
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("judge.toml:2:1: unknown field `chek`"),
        "{}",
        ran.stderr
    );
}

#[test]
fn flags_override_the_file_and_config_picks_another_file() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write(
        "other.toml",
        "[problem.sum]\ncases = \"cases/sum\"\ntime_limit = \"3s\"\nmemory_limit = \"64MiB\"\n",
    );
    let ran = s.run_judge(&["--config", "other.toml", "list"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let row = ran.stdout.lines().find(|l| l.starts_with("sum")).unwrap();
    assert!(
        row.contains("3s") && row.contains("64MiB") && row.contains(" 3 "),
        "{row}"
    );
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args([
        "--config",
        "other.toml",
        "run",
        "--format",
        "json",
        "--time-limit",
        "250ms",
        "--submission",
    ])
    .arg(&ab);
    let report = run(cmd).json();
    assert_eq!(report["cases"][0]["time_limit_ms"], 250.0);
}

#[test]
fn filter_selects_cases_by_glob() {
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--filter", "1*", "--submission"])
        .arg(&ab);
    let report = run(cmd).json();
    let names: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["case"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["1.in", "10.in"]);
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    let s = Scratch::new();
    sum_cases(&s);
    for i in 20..40 {
        s.write(&format!("cases/sum/{i}.in"), format!("1\n{i} {i}\n"));
        s.write(
            &format!("cases/sum/{i}.ans"),
            format!("{}\n", if i == 33 { 0 } else { 2 * i }),
        );
    }
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "json", "--submission"])
        .arg(&ab);
    let whole = run(cmd).json();
    for kind in ["count", "hash"] {
        let mut files = Vec::new();
        for k in 1..=4 {
            let file = format!("{kind}-{k}.json");
            let mut cmd = s.judge();
            cmd.args([
                "run",
                "-q",
                "--partition",
                &format!("{kind}:{k}/4"),
                "--report",
                &file,
                "--submission",
            ])
            .arg(&ab);
            let ran = run(cmd);
            assert!(
                ran.code == 0 || ran.code == 1,
                "{}{}",
                ran.stdout,
                ran.stderr
            );
            files.push(file);
        }
        let mut cmd = s.judge();
        cmd.arg("merge").args(&files);
        let merged = run(cmd);
        assert_eq!(merged.code, 1, "the merged run has a WA");
        let merged = merged.json();
        let strip = |v: &serde_json::Value| -> Vec<(String, String, String)> {
            v["cases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c["problem"].as_str().unwrap().to_string(),
                        c["case"].as_str().unwrap().to_string(),
                        c["verdict"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        };
        assert_eq!(strip(&merged), strip(&whole), "{kind} shards");
        assert_eq!(merged["verdict"], whole["verdict"]);
        assert_eq!(merged["summary"], whole["summary"]);
        // A shard whose report lost a case (cut short, or a failing case
        // taken out) does not merge into a run that looks whole.
        let mut cut: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(s.path().join(&files[0])).unwrap())
                .unwrap();
        let mut kept = cut["cases"].as_array().unwrap().clone();
        kept.pop();
        cut["cases"] = kept.into();
        s.write(&files[0], cut.to_string());
        let mut cmd = s.judge();
        cmd.arg("merge").args(&files);
        let refused = run(cmd);
        assert_eq!(refused.code, 2, "{}", refused.stderr);
        assert!(
            refused.stderr.contains("but their run has"),
            "{}",
            refused.stderr
        );
        if kind == "count" {
            // 1,100 shards (the whole run's cases dealt round) merge with
            // no more than 256 descriptors allowed: runs merge 64 at a
            // time as they are read.
            let mut many = Vec::new();
            for k in 1..=1100usize {
                let mut shard = whole.clone();
                shard["partition"] = format!("count:{k}/1100").into();
                let cases: Vec<serde_json::Value> = whole["cases"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .skip(k - 1)
                    .step_by(1100)
                    .cloned()
                    .collect();
                shard["cases"] = cases.into();
                let file = format!("many-{k}.json");
                s.write(&file, shard.to_string());
                many.push(file);
            }
            let mut cmd = s.judge();
            cmd.arg("merge").args(&many);
            // SAFETY: setrlimit in the child before exec, nothing else.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                    let limit = libc::rlimit {
                        rlim_cur: 256,
                        rlim_max: 256,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            let ran = run(cmd);
            assert_eq!(ran.code, 1, "{}", ran.stderr);
            assert_eq!(strip(&ran.json()), strip(&whole), "1,100 shards");
        }
    }
    // A shard given twice is an error naming both files.
    let ran = s.run_judge(&["merge", "count-1.json", "count-1.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("count-1.json and count-1.json are both shard count:1/4"),
        "{}",
        ran.stderr
    );
    // Missing shards (a CI job that died) are an error, or with --partial
    // a warning in the merged report; shards of two partitions never mix.
    let ran = s.run_judge(&["merge", "count-1.json", "count-3.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("shards count:2/4, count:4/4 missing"),
        "{}",
        ran.stderr
    );
    let ran = s.run_judge(&["merge", "--partial", "count-1.json", "count-3.json"]);
    let partial = ran.json();
    assert!(
        partial["warnings"]
            .to_string()
            .contains("incomplete: shards count:2/4, count:4/4 missing"),
        "{partial:#}"
    );
    let ran = s.run_judge(&["merge", "count-1.json", "hash-2.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("different --partition settings"),
        "{}",
        ran.stderr
    );
    // Two whole runs share every case: the merge stops at the first one
    // found twice, after it began streaming, and prints nothing of its
    // half-made report; a --report target is left as it was.
    let text = serde_json::to_string(&whole).unwrap();
    s.write("run-a.json", &text);
    s.write("run-b.json", &text);
    let ran = s.run_judge(&["merge", "run-a.json", "run-b.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("is in both run-a.json and run-b.json"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stdout, "", "a failed merge printed part of a report");
    s.write("merged.json", "before\n");
    let ran = s.run_judge(&[
        "merge",
        "run-a.json",
        "run-b.json",
        "--report",
        "merged.json",
    ]);
    assert_eq!(ran.code, 2);
    assert_eq!(s.read("merged.json"), "before\n");
    // Malformed JSON names the file, line and column.
    s.write("bad.json", "{\n  \"verdict\": \n");
    let ran = s.run_judge(&["merge", "bad.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("bad.json: line 3, column 0"),
        "{}",
        ran.stderr
    );
}

#[test]
fn ndjson_streams_events_and_junit_is_xml() {
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "--format", "ndjson", "-j", "1", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    let events: Vec<serde_json::Value> = ran
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "started",
            "case-started",
            "case-finished",
            "case-started",
            "case-finished",
            "case-started",
            "case-finished",
            "finished"
        ]
    );
    assert_eq!(events[0]["total"], 3);
    assert_eq!(events[2]["verdict"], "AC");
    assert_eq!(events[7]["verdict"], "AC");
    let mut cmd = s.judge();
    cmd.args(["run", "--report", "out.xml", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 0);
    let xml = s.read("out.xml");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains("<testsuite name=\"sum\" tests=\"3\""), "{xml}");
}

#[test]
fn report_is_written_atomically_and_a_write_failure_is_ie_with_verdicts_kept() {
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "--report", "r.json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 0);
    assert!(
        ran.stdout.contains("AC: 3/3 accepted"),
        "human report on stdout: {}",
        ran.stdout
    );
    let report: serde_json::Value = serde_json::from_str(&s.read("r.json")).unwrap();
    assert_eq!(report["verdict"], "AC");
    let leftovers: Vec<_> = std::fs::read_dir(s.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary report files left behind");
    // A report into a directory that does not exist is refused before
    // anything runs.
    let mut cmd = s.judge();
    cmd.args(["run", "--report", "no/such/dir/r.json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert_eq!(ran.stdout, "");
    assert!(
        ran.stderr
            .contains("--report no/such/dir/r.json: the directory no/such/dir does not exist"),
        "{}",
        ran.stderr
    );
    // The report is written into a temporary file beside its target as
    // the cases settle: one whose directory takes no new file (/proc) is
    // refused before anything runs, naming the file and the reason.
    let mut cmd = s.judge();
    cmd.args(["run", "--report", "/proc/r.json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert_eq!(ran.stdout, "");
    assert!(
        ran.stderr
            .contains("--report /proc/r.json: cannot write beside it"),
        "{}",
        ran.stderr
    );
}

#[test]
fn fail_fast_stops_launching_and_marks_the_rest() {
    let s = Scratch::new();
    sum_cases(&s);
    let fail = s.script("fail.sh", "exit 1");
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "--format",
        "json",
        "-j",
        "1",
        "--fail-fast",
        "--submission",
    ])
    .arg(&fail);
    let ran = run(cmd);
    assert_eq!(ran.code, 1);
    let report = ran.json();
    let verdicts: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["RE", "SKIP", "SKIP"]);
    assert_eq!(report["verdict"], "RE");
}

#[test]
fn orphans_are_warnings_and_an_input_without_answer_is_ie_for_text_checks() {
    let s = Scratch::new();
    sum_cases(&s);
    s.write("cases/sum/5.in", "1\n1 1\n");
    s.write("cases/sum/6.ans", "2\n");
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "--submission"]).arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 3, "an IE is an internal error: {}", ran.stdout);
    assert!(
        ran.stdout
            .contains("warning: cases/sum: 5.in has no answer file"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("warning: cases/sum: 6.ans has no input file"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("IE   sum/5.in"), "{}", ran.stdout);
}

#[test]
fn symlink_loop_in_cases_is_an_error_naming_the_path() {
    let s = Scratch::new();
    sum_cases(&s);
    std::os::unix::fs::symlink("..", s.path().join("cases/sum/loop")).unwrap();
    let ran = s.run_judge(&["run", "--submission", "true"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("cases/sum/loop: symbolic link loop (it leads back to cases/sum)"),
        "{}",
        ran.stderr
    );
}

#[test]
fn reference_solution_runs_without_submission_and_missing_reference_is_usage() {
    let s = Scratch::new();
    sum_cases(&s);
    let mut cmd = s.judge();
    cmd.arg("run");
    let ran = run(cmd);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("has no reference to run"),
        "{}",
        ran.stderr
    );
    let ab = build("c", "ab", AB_C);
    s.write(
        "judge.toml",
        format!(
            "[problem.sum]\ncheck = \"tokens\"\nsolution = \"{}\"\n",
            ab.display()
        ),
    );
    let ran = s.run_judge(&["run", "-q"]);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert_eq!(
        ran.stdout.lines().count(),
        1,
        "-q prints one line: {}",
        ran.stdout
    );
    assert!(ran.stdout.starts_with("AC: 3/3 accepted"), "{}", ran.stdout);
}

#[test]
fn a_bare_folder_outside_judge_toml_is_a_generic_problem() {
    let s = Scratch::new();
    s.write("data/1.in", "1\n2 3\n");
    s.write("data/1.ans", "5\n");
    s.write("data/2.in", "1\n7 7\n");
    s.write("data/2.ans", "14\n");
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "data", "--format", "json", "--submission"])
        .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr.contains(
            "data: no judge.toml or problem package; judged as problem \"data\", outputs compared as tokens"
        ),
        "{}",
        ran.stderr
    );
    let report = ran.json();
    assert_eq!(report["problems"][0]["name"], "data");
    assert_eq!(report["summary"]["AC"], 2);
    // A wrong program is judged by the same comparison.
    let wrong = build("c", "wrong_on_seven", WRONG_ON_SEVEN_C);
    let mut cmd = s.judge();
    cmd.args(["run", "data", "-q", "--submission"]).arg(&wrong);
    assert_eq!(run(cmd).code, 1);
    let mut cmd = s.judge();
    cmd.args([
        "run",
        "data",
        "--problem",
        "ab",
        "--check",
        "exact",
        "--submission",
    ])
    .arg(&ab);
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
}

#[test]
fn reports_are_readable_like_any_created_file() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let mut cmd = s.judge();
    cmd.args(["run", "-q", "--report", "r.json", "--submission"])
        .arg(&ab);
    assert_eq!(run(cmd).code, 0);
    let mode = std::fs::metadata(s.path().join("r.json"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    // SAFETY: reading our own umask by setting and restoring it.
    let umask = unsafe {
        let old = libc::umask(0o022);
        libc::umask(old);
        old
    } as u32;
    assert_eq!(mode, 0o666 & !umask, "mode {mode:o}");
}

/// A reader that stops reading is not an error: the judge finishes its
/// work, still writes the `--report` file, and exits with its own code
/// (`judge list` used to panic, `judge run` to stop with an IE).
#[test]
fn a_closed_stdout_stops_output_not_work() {
    let s = Scratch::new();
    sum_cases(&s);
    let ab = build("c", "ab", AB_C);
    let closed = |args: &[&str]| {
        let mut cmd = s.judge();
        cmd.args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().expect("spawn judge");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = closed(&["list"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (code, stderr) = closed(&[
        "run",
        "-v",
        "--report",
        "r.json",
        "--submission",
        ab.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("internal error"), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&s.read("r.json")).unwrap();
    assert_eq!(report["summary"]["AC"], 3);
}

/// `-q` and `-v` are every command's (issue 29: `judge merge … -q` was an
/// unexpected argument), and a compile error's failures heading counts
/// cases as the summary does.
#[test]
fn quiet_and_verbose_work_everywhere_and_ce_counts_add_up() {
    let s = Scratch::new();
    sum_cases(&s);
    let mut cmd = s.judge();
    cmd.args(["run", "--report", "r.json", "-q", "--submission"])
        .arg(build("c", "ab", AB_C));
    let ran = run(cmd);
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    for args in [
        &["merge", "r.json", "-q"][..],
        &["-v", "merge", "r.json"],
        &["list", "-q"],
        &["list", "-v"],
    ] {
        let ran = s.run_judge(args);
        assert_eq!(ran.code, 0, "{args:?}: {}{}", ran.stdout, ran.stderr);
    }
    s.write("broken.c", "int main( { return 0; }\n");
    let mut cmd = s.judge();
    cmd.env("NO_COLOR", "1")
        .args(["run", "--submission", "broken.c"]);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    let cases = ran.stdout.matches("CE").count();
    assert!(cases > 0, "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("Failures (3 of 3 cases, a compile error shown once):"),
        "{}",
        ran.stdout
    );
}
