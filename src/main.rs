//! The `judge` binary: parse the command line, run the command, exit with
//! its code (README "Exit codes").

use clap::Parser;

fn main() {
    let cli = judge::cli::Cli::parse();
    std::process::exit(judge::commands::main(cli));
}
