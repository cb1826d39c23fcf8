//! The `judge` binary: parse the command line, run the command, exit with
//! its code (README "Exit codes").

use clap::Parser;

fn main() {
    let cli = judge::cli::Cli::parse();
    let code = judge::commands::main(cli);
    judge::exec::cache_dir::remove_private();
    std::process::exit(code);
}
