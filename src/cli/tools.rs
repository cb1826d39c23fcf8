//! The arguments of the commands around judging: `judge export`, `judge
//! completions`, `judge man`.

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `judge.1` and one `judge-COMMAND.1` per command into this
    /// directory (made if missing; a page already there is kept unless
    /// `--force`) instead of printing `judge.1`.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Replace pages that are already in DIR.
    #[arg(long, requires = "out_dir")]
    pub force: bool,
}

/// The formats `judge export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Kattis,
    Domjudge,
    Polygon,
}

/// The Kattis package format versions `judge export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KattisVersion {
    Legacy,
    #[value(name = "2023-07")]
    V2023_07,
    #[value(name = "2025-09")]
    V2025_09,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A package directory (Kattis, DOMjudge), or a judge.toml problem's name.
    #[arg(value_name = "PACKAGE|PROBLEM")]
    pub package: String,

    /// The format to write.
    #[arg(long, value_enum, default_value = "kattis", value_name = "FORMAT")]
    pub to: ExportFormat,

    /// The Kattis format version (with --to kattis).
    #[arg(long, value_enum, default_value = "2025-09", value_name = "VERSION")]
    pub version: KattisVersion,

    /// Where to write: a directory, or for domjudge a file ending in .zip.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,

    /// Replace OUT if it exists (the new package is written beside it, then
    /// renamed into place).
    #[arg(long)]
    pub force: bool,
}

/// `judge new PROBLEM`: a new problem package.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The problem's directory (must not exist, or be empty); its last
    /// component is the problem's short name.
    #[arg(value_name = "PROBLEM")]
    pub dir: PathBuf,

    /// The problem's title (default: its short name).
    #[arg(long, value_name = "TITLE")]
    pub name: Option<String>,

    /// An interactive problem: an interactor talks to the submission.
    #[arg(long, conflicts_with = "checker")]
    pub interactive: bool,

    /// Outputs judged by a custom output validator (a checker), not by
    /// comparison with the answers.
    #[arg(long)]
    pub checker: bool,
}
