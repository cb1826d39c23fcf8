//! `judge completions SHELL` and `judge man`: the shell completion script
//! and the manual pages, made from the same clap definitions as `--help`
//! (clap_complete, clap_mangen), so they cannot disagree with it.

use super::stdout::{Stdout, note};
use super::{Failure, Outcome};
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::verdict::ExitCode;
use clap::CommandFactory;
use std::io::Write;

/// Print the completion script for `args.shell`.
pub fn completions(args: CompletionsArgs) -> Outcome {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "judge", &mut script);
    Stdout
        .write_all(&script)
        .map_err(|e| Failure::Internal(format!("cannot write the script: {e}")))?;
    Ok(ExitCode::Ok)
}

/// Print `judge.1`, or write it and one page per command into a directory.
pub fn man(args: ManArgs) -> Outcome {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let Some(dir) = args.out_dir else {
        let page = render(command.clone())?;
        Stdout
            .write_all(&page)
            .map_err(|e| Failure::Internal(format!("cannot write the page: {e}")))?;
        return Ok(ExitCode::Ok);
    };
    std::fs::create_dir_all(&dir).map_err(|e| {
        Failure::Usage(format!("{}: cannot make the directory: {e}", dir.display()))
    })?;
    let mut pages = vec![("judge.1".to_string(), render(command.clone())?)];
    for sub in command.get_subcommands() {
        // clap_mangen names a subcommand's page by its display name,
        // `judge-run`, set by `build` above.
        let page = clap_mangen::Man::new(sub.clone());
        pages.push((page.get_filename(), render(sub.clone())?));
    }
    let mut kept = Vec::new();
    for (name, bytes) in &pages {
        let path = dir.join(name);
        let written = if args.force {
            crate::report::write_atomically(&path, bytes)
        } else {
            crate::report::write_new_atomically(&path, bytes)
        };
        match written {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => kept.push(name.clone()),
            Err(e) => {
                return Err(Failure::Usage(format!(
                    "{}: cannot write: {e}",
                    path.display()
                )));
            }
        }
    }
    if !kept.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: {} already there, kept (--force replaces them)",
            dir.display(),
            kept.join(", ")
        )));
    }
    note!("wrote {} manual pages to {}", pages.len(), dir.display());
    Ok(ExitCode::Ok)
}

fn render(command: clap::Command) -> Result<Vec<u8>, Failure> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| Failure::Internal(format!("cannot render the manual page: {e}")))?;
    Ok(page)
}
