//! `judge merge`: join shard reports into one. Prints the merged report
//! (JSON by default) or writes it atomically with `--report`; the exit code
//! is the merged run's (0 all AC, 1 some other verdict, 3 an IE).

use super::{Failure, Outcome};
use crate::cli::MergeArgs;
use crate::report::{self, Format};
use std::io::Write;

pub fn merge(args: MergeArgs) -> Outcome {
    let paths: Vec<&std::path::Path> = args.reports.iter().map(|p| p.as_path()).collect();
    let merged = report::merge::merge_files(&paths, args.partial).map_err(Failure::usage)?;
    let format = args
        .format
        .or_else(|| args.report.as_deref().and_then(Format::from_extension))
        .unwrap_or(Format::Json);
    let bytes = report::render(format, &merged).map_err(|e| Failure::Internal(e.to_string()))?;
    match &args.report {
        Some(path) => report::write_atomically(path, &bytes)
            .map_err(|e| Failure::Internal(format!("cannot write {}: {e}", path.display())))?,
        None => {
            let mut out = super::stdout::Stdout;
            out.write_all(&bytes)
                .and_then(|_| out.flush())
                .map_err(|e| Failure::Internal(format!("cannot write: {e}")))?;
        }
    }
    Ok(merged.exit_code())
}
