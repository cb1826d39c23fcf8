//! One file per subcommand: each turns parsed arguments into work across the
//! layers and returns an exit code, as a short list of named steps. Shared
//! steps have their own files: `prepare` (configuration, programs,
//! checkers), `select` (problems and cases), `sandbox` (the judging
//! sandbox and what it hides), `output` (where reports go), `failure` (how
//! a command ends).

pub mod cache;
pub mod export;
pub mod failure;
pub mod generate;
pub mod generators;
pub mod limits;
pub mod list;
pub mod manual;
pub mod merge;
pub mod new;
pub mod output;
pub mod prepare;
pub mod puzzle;
pub mod run;
pub mod sandbox;
pub mod select;
pub mod stdout;
pub mod stress;
pub mod submissions;
pub mod validate;
pub mod verify;

pub use failure::{Failure, Outcome};
pub use prepare::{load_config, overrides, prepare_checkers, puzzle_named, submission_program};
pub use sandbox::judging_sandbox;
pub use select::{Selected, is_under, select};

use crate::cli::{Cli, Command};

/// Run a parsed command line; returns the process exit code.
pub fn main(cli: Cli) -> i32 {
    let config_path = cli.config.clone();
    stdout::set_quiet(cli.quiet);
    let result = match cli.command {
        Command::Run(mut args) => {
            (args.quiet, args.verbose) = (cli.quiet, cli.verbose);
            run::run(config_path.as_deref(), args)
        }
        Command::Solve(args) => puzzle::solve(config_path.as_deref(), args),
        Command::Check(args) => puzzle::check(config_path.as_deref(), args),
        Command::Gen(args) => generate::generate(config_path.as_deref(), args),
        Command::Validate(args) => validate::validate(config_path.as_deref(), args),
        Command::Stats(args) => puzzle::stats(config_path.as_deref(), args),
        Command::List => list::list(config_path.as_deref()),
        Command::Merge(args) => merge::merge(args),
        Command::Verify(mut args) => {
            (args.quiet, args.verbose) = (cli.quiet, cli.verbose);
            verify::verify(config_path.as_deref(), args)
        }
        Command::Limits(args) => limits::limits(config_path.as_deref(), args),
        Command::Stress(args) => stress::stress(config_path.as_deref(), args),
        Command::Export(args) => export::export(config_path.as_deref(), args),
        Command::New(args) => new::new(args),
        Command::Completions(args) => manual::completions(args),
        Command::Man(args) => manual::man(args),
        Command::Cache(args) => cache::cache(args),
    };
    match result {
        Ok(code) => code.code(),
        Err(failure) => {
            let kind = match failure {
                Failure::Usage(_) => "error",
                Failure::Internal(_) => "internal error",
                Failure::Interrupted => "stopped",
            };
            crate::commands::stdout::say!("judge: {kind}: {}", failure.message());
            failure.exit_code().code()
        }
    }
}
