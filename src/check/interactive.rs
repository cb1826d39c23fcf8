//! Interactive and multi-pass problems: the submission runs connected to an
//! interactive validator (Kattis/CLICS, `VALIDATOR input answer
//! feedback_dir [flags]`, 42 accept, 43 reject) or a testlib interactor
//! (`INTERACTOR input tout [answer]`, exit 0/1/2/3), possibly in several
//! passes, and this module decides the verdict from how both ended.
//!
//! The verdict rules (CLICS):
//! - the validator failing (a crash, its own limits, an undefined exit
//!   code) is IE, never the submission's fault;
//! - the validator rejecting *before* the submission ended is WA, whatever
//!   the submission does after (a broken pipe, a time-out);
//! - else the submission's own failure (TLE by CPU or by the wall clock
//!   when it waits forever, MLE, RE) is its verdict;
//! - else the validator's decision: reject WA, accept AC.
//!
//! Multi-pass: after an accepting pass, a `nextpass.in` in the feedback
//! directory (kept between passes) asks for another run of the submission
//! with that input, up to the problem's number of passes; each pass has
//! the full time limit, the case's time and memory are its slowest
//! pass's, and the validator's `input_file` is the pass's own input. A
//! validator asking for more passes than allowed is IE.

use super::external::{ExternalChecker, Protocol, said};
use super::next_pass::copy_next_pass;
use super::tool::{Tool, ToolContext};
use super::{Judgement, classify_run};
use crate::exec::interactive::{PairOutcome, Side};
use crate::exec::process::{Launch, Trust};
use crate::exec::{Exit, Given, LimitHit, Limits, RunError, RunOutcome, RunRequest, Runner};
use crate::verdict::Verdict;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a problem's submissions are run with the judge's program.
#[derive(Clone, Debug, PartialEq)]
pub struct Interaction {
    pub tool: Tool,
    pub protocol: Protocol,
    /// The validator's own CPU time for one pass (its wall clock follows
    /// the submission's).
    pub time_limit: Duration,
    /// Kattis: arguments after the feedback directory.
    pub flags: Vec<String>,
    /// Connected to the submission (interactive), or run after it on its
    /// output (multi-pass only).
    pub interactive: bool,
    /// At most this many passes (1 unless multi-pass).
    pub passes: u32,
    /// A testlib checker run after an accepting interactor on what the
    /// interactor wrote to `tout` (the Polygon model: the interactor
    /// talks, the checker judges); its verdict is the case's.
    pub checker: Option<Box<ExternalChecker>>,
}

/// What an interactive case gave.
pub struct Interacted {
    pub judgement: Judgement,
    /// The submission's run of the deciding pass, if it ran, with the
    /// largest time and memory of all its passes ([`Slowest`]).
    pub outcome: Option<RunOutcome>,
    pub passes: u32,
    /// The validator of the deciding pass ran and rejected (whatever the
    /// verdict: the submission may have failed first).
    validator_rejected: bool,
}

impl Interacted {
    /// The judge's own failure (or the validator's): IE.
    fn internal(message: String) -> Interacted {
        Interacted {
            judgement: Judgement::new(Verdict::InternalError, message),
            outcome: None,
            passes: 0,
            validator_rejected: false,
        }
    }

    fn interrupted() -> Interacted {
        Interacted {
            judgement: Judgement::new(Verdict::Skipped, "not run: the judge was interrupted"),
            outcome: None,
            passes: 0,
            validator_rejected: false,
        }
    }
}

/// Run one case: every pass until one decides.
pub fn run_case(
    interaction: &Interaction,
    runner: &dyn Runner,
    context: ToolContext<'_>,
    (input, answer, given): (&Path, Option<&Path>, Given<'_>),
    limits: &Limits,
) -> Interacted {
    let ie = Interacted::internal;
    let what = format!("validator {}", interaction.tool.display);
    let ready = match interaction.tool.prepare(context.sandbox) {
        Ok(r) => r.argv.clone(),
        Err(e) => return ie(e.to_string()),
    };
    // The validator's feedback directory is in the judge's private
    // directory, which no slot's namespace shows: without root the
    // submission runs as the judge's user, and a directory in TMPDIR
    // (read-only, but readable) would give it the validator's state.
    let dir = match tempfile::Builder::new()
        .prefix("judge-interact-")
        .tempdir_in(context.sandbox.private_dir())
    {
        Ok(d) => d,
        Err(e) => return ie(format!("cannot create a feedback directory: {e}")),
    };
    let feedback = dir.path().join("feedback");
    if let Err(e) = std::fs::create_dir(&feedback) {
        return ie(format!("cannot create a feedback directory: {e}"));
    }
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let input = absolute(input);
    let answer = answer.map_or_else(|| PathBuf::from("/dev/null"), absolute);
    let mut pass_input = input.clone();
    let mut slowest = Slowest::default();
    for pass in 1..=interaction.passes.max(1) {
        let _ = std::fs::remove_file(feedback.join("nextpass.in"));
        let mut decided = if interaction.interactive {
            interactive_pass(
                interaction,
                &ready,
                runner,
                context,
                (&pass_input, &answer, &feedback, given),
                limits,
                &what,
            )
        } else {
            plain_pass(
                interaction,
                runner,
                context,
                (&pass_input, &answer, &feedback, given),
                limits,
                &what,
            )
        };
        decided.passes = pass;
        slowest.fold(&mut decided.outcome);
        let next = feedback.join("nextpass.in");
        // The spec: "It is a judge error to create the nextpass.in file
        // and exit with any other code than 42" (a rejection with a next
        // pass asked for), whatever the submission did (it may have
        // crashed before the validator rejected). Any other end of the
        // validator but 42 is a judge error already.
        if interaction.passes > 1 && decided.validator_rejected && next.is_file() {
            let mut error = ie(format!(
                "{what} wrote nextpass.in on pass {pass} and rejected (only an accepting pass may ask for another)"
            ));
            error.passes = pass;
            return error;
        }
        if decided.judgement.verdict != Verdict::Accepted
            || interaction.passes <= 1
            || !next.is_file()
        {
            if interaction.passes > 1 && decided.judgement.verdict == Verdict::Accepted {
                decided.judgement.message = format!(
                    "{} ({pass} pass{})",
                    decided.judgement.message,
                    if pass == 1 { "" } else { "es" }
                );
            }
            // The validator's score files, after its last pass (they persist
            // across passes).
            if interaction.protocol == Protocol::Kattis
                && matches!(
                    decided.judgement.verdict,
                    Verdict::Accepted | Verdict::WrongAnswer
                )
            {
                decided.judgement =
                    super::partial::with_kattis_score(decided.judgement, &feedback, &what);
            }
            return decided;
        }
        if pass == interaction.passes {
            let mut error = ie(format!(
                "{what} asked for pass {} (nextpass.in) but the problem allows {} (limits.validation_passes)",
                pass + 1,
                interaction.passes
            ));
            error.passes = pass;
            return error;
        }
        // The next input, where the submission's sandbox can read it.
        let copy = dir.path().join(format!("pass-{}.in", pass + 1));
        if let Err(e) = copy_next_pass(&next, &copy) {
            return ie(format!("{what}'s nextpass.in: {e}"));
        }
        pass_input = copy;
    }
    ie("no pass ran".to_string())
}

/// The largest time and memory of the passes run so far. Each pass is held
/// to the limits on its own (2025-09: "The time and memory limit apply for
/// each invocation separately"), and the case reports its slowest pass, as
/// BAPCtools does (the largest duration of its passes): a multi-pass case
/// whose first pass took 1.5 s and second 0.05 s took 1.5 s, for the report
/// and for `judge limits`' margins.
#[derive(Default)]
struct Slowest {
    cpu: Duration,
    wall: Duration,
    peak_rss_kib: Option<u64>,
}

impl Slowest {
    /// Take in this pass's run and give it the largest of every pass's.
    fn fold(&mut self, outcome: &mut Option<RunOutcome>) {
        let Some(o) = outcome else { return };
        self.cpu = self.cpu.max(o.cpu);
        self.wall = self.wall.max(o.wall);
        self.peak_rss_kib = self.peak_rss_kib.max(o.peak_rss_kib);
        o.cpu = self.cpu;
        o.wall = self.wall;
        o.peak_rss_kib = self.peak_rss_kib;
    }
}

/// (this pass's input, the answer, the feedback dir, what the case gives
/// the submission beside its input). A validator's
/// `input_file` is this pass's input: the spec's
/// "the `.in` input data file given on standard input to the program whose
/// results are being validated", which from the second pass on is the
/// previous pass's `nextpass.in` (the spec's output visualizer alone keeps
/// the case's `.in`; BAPCtools does the same).
type Files<'a> = (&'a Path, &'a Path, &'a Path, Given<'a>);

/// One interactive pass: both programs connected.
fn interactive_pass(
    interaction: &Interaction,
    ready: &[OsString],
    runner: &dyn Runner,
    context: ToolContext<'_>,
    (input, answer, feedback, given): Files<'_>,
    limits: &Limits,
    what: &str,
) -> Interacted {
    let ie = Interacted::internal;
    let Some((program, mut args)) = interaction.tool.command_line(ready) else {
        return ie(format!("{what}: nothing to run"));
    };
    let tout = feedback.join("tout");
    match interaction.protocol {
        Protocol::Kattis => {
            let mut dir = feedback.as_os_str().to_os_string();
            dir.push("/");
            args.extend([input.into(), answer.into(), dir]);
            args.extend(interaction.flags.iter().map(OsString::from));
        }
        Protocol::Testlib => {
            args.extend([input.into(), tout.clone().into(), answer.into()]);
        }
    }
    // The validator lives as long as the submission may, and then its own
    // time on top.
    let validator_limits = Limits {
        time: limits.wall + interaction.time_limit,
        wall: limits.wall + interaction.time_limit,
        ..super::tool::tool_limits(interaction.time_limit)
    };
    // A JVM's interactor is not run under RLIMIT_AS (see `tool::Ready`).
    let address_space = interaction
        .tool
        .prepare(context.sandbox)
        .map_or(true, |r| r.address_space);
    let partner = Launch {
        program: Path::new(program),
        args: &args,
        stdin: None,
        limits: &validator_limits,
        slot: context.slot,
        trust: Trust::Trusted,
        address_space,
        workdir: None,
        files: None,
        companions: &[],
        output_file: None,
    };
    let request = RunRequest {
        input,
        limits,
        slot: context.slot,
        given,
    };
    // Any end of the validator but its acceptance settles the case (a
    // rejection is WA whatever the submission does after; a crash, a
    // time-out or an undefined code is IE): the submission is stopped.
    let accepts = interaction.protocol.accepts();
    let decides = move |v: &RunOutcome| v.limit_hit.is_some() || v.exit != Exit::Code(accepts);
    let pair = match runner.run_interactive(&request, &partner, &decides) {
        Ok(p) => p,
        Err(RunError::Interrupted) => {
            return Interacted::interrupted();
        }
        Err(RunError::Internal(m)) => return ie(m),
    };
    let mut judgement = decide(interaction, &pair, limits, feedback, what);
    if judgement.verdict == Verdict::Accepted
        && let Some(checker) = &interaction.checker
    {
        // The interactor wrote tout: a regular file of at most the
        // output limit, or the interactor's fault.
        use crate::exec::bounded_read::{Links, read_regular};
        judgement = match read_regular(&tout, limits.output, Links::Refuse) {
            Ok(written) if !written.cut => checker.check(
                context,
                input,
                Some(answer),
                crate::text::stream::Text::Bytes(&written.bytes),
            ),
            Ok(_) => Judgement::new(
                Verdict::InternalError,
                format!(
                    "{what} accepted, but its tout is larger than the output limit of {}, the most the judge reads of it",
                    crate::units::Size(limits.output)
                ),
            ),
            Err(e) => Judgement::new(
                Verdict::InternalError,
                format!("{what} accepted, but its tout cannot be read for the checker: {e}"),
            ),
        };
    }
    if judgement.verdict != Verdict::Accepted {
        judgement.transcript = Some(pair.transcript.lines());
    }
    let validator_rejected = pair.validator.limit_hit.is_none()
        && matches!(pair.validator.exit, Exit::Code(c) if interaction.protocol.rejects(c));
    Interacted {
        judgement,
        outcome: Some(pair.submission),
        passes: 0,
        validator_rejected,
    }
}

/// The verdict of an interactive pass (see the module's rules).
fn decide(
    interaction: &Interaction,
    pair: &PairOutcome,
    limits: &Limits,
    feedback: &Path,
    what: &str,
) -> Judgement {
    let v = &pair.validator;
    let message = match super::feedback::judge_or_team_message(feedback, what, true) {
        Ok(m) => m.or_else(|| said(&v.stderr_tail)),
        Err(refused) => return Judgement::new(Verdict::InternalError, refused.to_string()),
    };
    let with = |default: &str| message.clone().unwrap_or_else(|| default.to_string());
    let code = match (v.exit, v.limit_hit) {
        (_, Some(LimitHit::Wall | LimitHit::Cpu)) => {
            // The submission ran out of time first, and the validator was
            // still working through what it had been sent (a submission
            // that floods it with queries and never reads the replies, as
            // DOMjudge's `boolfind-test-loop.cc`): the submission's
            // time-out decides, as in DOMjudge, which reads the
            // submission's time-out before the validator's result.
            if let Some(mut failed) = classify_run(&pair.submission, limits)
                && failed.verdict == Verdict::TimeLimit
                && pair.submission_ended <= pair.validator_ended
            {
                failed.message = format!(
                    "{}; the validator, still answering what the submission had sent, was stopped at its own limit ({:.1}s after the submission's)",
                    failed.message,
                    interaction.time_limit.as_secs_f64()
                );
                return failed;
            }
            return Judgement::new(
                Verdict::InternalError,
                format!(
                    "{what} did not end within {:.1}s of its own",
                    interaction.time_limit.as_secs_f64()
                ),
            );
        }
        (Exit::Code(c), _) => c,
        (Exit::Signal(_), _) => {
            return Judgement::new(
                Verdict::InternalError,
                format!(
                    "{what} crashed: {}{}",
                    v.exit.describe(),
                    said(&v.stderr_tail)
                        .map(|s| format!(": {s}"))
                        .unwrap_or_default()
                ),
            );
        }
    };
    let accepted = code == interaction.protocol.accepts();
    let rejected = interaction.protocol.rejects(code);
    if !accepted && !rejected {
        return Judgement::new(
            Verdict::InternalError,
            format!(
                "{what} answered exit code {code}, which the {} protocol does not define{}",
                interaction.protocol.name(),
                message.map(|m| format!(": {m}")).unwrap_or_default()
            ),
        );
    }
    let wrong = if interaction.protocol == Protocol::Testlib && code == 2 {
        Verdict::PresentationError
    } else {
        Verdict::WrongAnswer
    };
    if rejected && validator_ended_first(pair) {
        return Judgement::new(wrong, with("the validator rejected the dialogue"));
    }
    if let Some(mut failed) = classify_run(&pair.submission, limits) {
        let waited = failed.verdict == Verdict::TimeLimit
            && pair.submission.limit_hit == Some(LimitHit::Wall);
        if waited && pair.transcript.last().is_none() {
            failed.message = format!(
                "{}; neither side wrote anything, so both were waiting to read (does the submission flush its output?)",
                failed.message
            );
        }
        // The validator had ended (and accepted: a rejection first is WA
        // above): the submission ran on by itself.
        let after_validator = pair.validator_ended + Duration::from_millis(50)
            < pair.submission_ended
            && pair.validator.exit == Exit::Code(interaction.protocol.accepts());
        if after_validator {
            failed.message = format!(
                "{}; the validator had accepted and ended at {:.3}s, and the submission went on{}",
                failed.message,
                pair.validator_ended.as_secs_f64(),
                if pair.submission.exit == Exit::Signal(libc::SIGPIPE) {
                    " writing to it (more than 1MiB after its end; its output was closed)"
                } else {
                    " running instead of ending"
                }
            );
            return failed;
        }
        if waited && let Some((side, at)) = pair.transcript.last() {
            failed.message = format!(
                "{}; the last message was the {}'s at {:.3}s: the submission was waiting {}",
                failed.message,
                match side {
                    Side::Validator => "validator",
                    Side::Submission => "submission",
                },
                at.as_secs_f64(),
                match side {
                    Side::Validator =>
                        "with the validator's last word unanswered (reading more than it was sent, or its answer not flushed)",
                    Side::Submission =>
                        "for a reply the validator never sent (the validator waited for more: an unfinished line?)",
                }
            );
        }
        return failed;
    }
    if rejected {
        return Judgement::new(wrong, with("the validator rejected the dialogue"));
    }
    Judgement::new(
        Verdict::Accepted,
        with("the validator accepted the dialogue"),
    )
}

/// Whether the validator ended before the submission, on the evidence: a
/// submission the judge stopped once the validator's end decided, or dead
/// of SIGPIPE wrote into a validator already gone; one the
/// judge killed for a limit ended the dialogue itself (the validator then
/// reads end-of-file and rejects a moment later), so the validator counts
/// as first only if it ended clearly (50 ms) before the kill; else the
/// order in which the relays saw each side's output close.
fn validator_ended_first(pair: &PairOutcome) -> bool {
    // Stopped by the judge because the validator had ended and decided.
    if pair.submission.stopped || pair.submission.exit == Exit::Signal(libc::SIGPIPE) {
        return true;
    }
    if pair.submission.limit_hit.is_some() {
        return pair.validator_ended + Duration::from_millis(50) < pair.submission_ended;
    }
    pair.first == Side::Validator
}

/// One multi-pass pass without interaction: the submission runs on the
/// pass's input, then the validator judges its output.
fn plain_pass(
    interaction: &Interaction,
    runner: &dyn Runner,
    context: ToolContext<'_>,
    (input, answer, feedback, given): Files<'_>,
    limits: &Limits,
    what: &str,
) -> Interacted {
    let ie = Interacted::internal;
    let outcome = match runner.run(&RunRequest {
        input,
        limits,
        slot: context.slot,
        given,
    }) {
        Ok(o) => o,
        Err(RunError::Interrupted) => {
            return Interacted::interrupted();
        }
        Err(RunError::Internal(m)) => return ie(m),
    };
    if let Some(failed) = classify_run(&outcome, limits) {
        return Interacted {
            judgement: failed,
            outcome: Some(outcome),
            passes: 0,
            validator_rejected: false,
        };
    }
    let output_path = feedback.with_file_name("output");
    let written = std::fs::File::create(&output_path).and_then(|mut file| {
        outcome
            .stdout
            .write_to(&mut std::io::BufWriter::new(&mut file))
    });
    if let Err(e) = written {
        return ie(format!("cannot write the output for the validator: {e}"));
    }
    let mut dir = feedback.as_os_str().to_os_string();
    dir.push("/");
    let mut args: Vec<OsString> = vec![input.into(), answer.into(), dir];
    args.extend(interaction.flags.iter().map(OsString::from));
    let tool_limits = super::tool::tool_limits(interaction.time_limit);
    let judged = match interaction
        .tool
        .run(context, &args, Some(&output_path), &tool_limits)
    {
        Ok(o) => o,
        Err(e) => return ie(format!("{what}: {e}")),
    };
    let message = match super::feedback::judge_or_team_message(feedback, what, true) {
        Ok(m) => m.or_else(|| said(&judged.stderr_tail)),
        Err(refused) => return ie(refused.to_string()),
    };
    let judgement = match (judged.exit, judged.limit_hit) {
        (Exit::Code(42), None) => Judgement::new(
            Verdict::Accepted,
            message.unwrap_or_else(|| "the output validator accepted".into()),
        ),
        (Exit::Code(43), None) => Judgement::new(
            Verdict::WrongAnswer,
            message.unwrap_or_else(|| "the output validator rejected".into()),
        ),
        (exit, hit) => Judgement::new(
            Verdict::InternalError,
            format!(
                "{what} ended with {}{}",
                match hit {
                    Some(h) => format!("its {:?} limit hit", h),
                    None => exit.describe(),
                },
                message.map(|m| format!(": {m}")).unwrap_or_default()
            ),
        ),
    };
    Interacted {
        validator_rejected: judgement.verdict == Verdict::WrongAnswer,
        judgement,
        outcome: Some(outcome),
        passes: 0,
    }
}
