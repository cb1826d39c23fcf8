//! `judge merge`: join shard reports into one. Prints the merged report
//! (JSON by default) or writes it atomically with `--report`; the exit code
//! is the merged run's (0 all AC, 1 some other verdict, 3 an IE).
//!
//! The steps: read the shards (their cases spooled, checked to be one
//! run's), open the output (a temporary file: a merge that fails midway,
//! say on a case in two shards, prints nothing), stream the merged run into
//! the format's reporter, then publish the output.

use super::{Failure, Outcome};
use crate::cli::MergeArgs;
use crate::report::merge::{MergeError, Merger};
use crate::report::{FileSink, Format, machine_reporter};

pub fn merge(args: MergeArgs) -> Outcome {
    let paths: Vec<&std::path::Path> = args.reports.iter().map(|p| p.as_path()).collect();
    let merger = Merger::open(&paths, args.partial).map_err(Failure::usage)?;
    let format = args
        .format
        .or_else(|| args.report.as_deref().and_then(Format::from_extension))
        .filter(|f| *f != Format::Human)
        .unwrap_or(Format::Json);
    let sink = match &args.report {
        Some(path) => {
            crate::report::check_target(path).map_err(Failure::usage)?;
            FileSink::beside(path)
        }
        None => FileSink::temporary(),
    }
    .map_err(|e| Failure::Internal(format!("cannot make a temporary file: {e}")))?;
    let Some(mut reporter) = machine_reporter(format, Box::new(sink.clone())) else {
        return Err(Failure::Internal(format!("no writer for {format:?}")));
    };
    let merged = merger.run(reporter.as_mut()).map_err(|e| match e {
        MergeError::Write(e) => Failure::Internal(format!("cannot write the merged report: {e}")),
        other => Failure::usage(other),
    })?;
    drop(reporter);
    match &args.report {
        Some(path) => sink
            .commit(path)
            .map_err(|e| Failure::Internal(format!("cannot write {}: {e}", path.display())))?,
        None => sink
            .copy_to(&mut super::stdout::Stdout)
            .map_err(|e| Failure::Internal(format!("cannot write: {e}")))?,
    }
    Ok(merged.exit_code())
}
