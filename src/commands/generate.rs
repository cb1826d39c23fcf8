//! `judge gen`: make cases of a chosen difficulty with a puzzle's generator
//! and write them with their answers. Never overwrites without `--force`;
//! every file is written atomically.

use super::{Failure, Outcome, load_config, puzzle_named};
use crate::cli::{Difficulty, GenArgs};
use crate::config::Overrides;
use crate::puzzles::GenSpec;
use crate::report::write_atomically;
use crate::text::format::plural;
use crate::verdict::ExitCode;
use std::path::{Path, PathBuf};

pub fn generate(config_path: Option<&Path>, args: GenArgs) -> Outcome {
    if crate::formats::polygon::is_package(Path::new(&args.problem)) {
        return super::generators::generate_polygon(Path::new(&args.problem));
    }
    if super::generators::has_generators(Path::new(&args.problem)) {
        return super::generators::generate_package(Path::new(&args.problem), &args);
    }
    let config = load_config(config_path, &Overrides::default())?;
    if let Some(outcome) = config
        .as_ref()
        .and_then(|c| super::generators::generate_problem(c, &args.problem, &args))
    {
        return outcome;
    }
    if args.format.is_some() || args.report.is_some() {
        return Err(Failure::Usage(format!(
            "--format and --report apply to a {} (a package, or a judge.toml problem with `generators`)",
            crate::formats::generators::FILE_NAME
        )));
    }
    let (puzzle, _) = puzzle_named(&args.problem, config.as_ref())?;
    check_args(&args)?;
    let stem = stem(&args)?;
    let spec = spec(&args.difficulty, args.count, args.seed, args.impossible);
    let cases = puzzle.generate(&spec).map_err(Failure::usage)?;
    let files = files(puzzle, &cases, &args, &stem);
    if !args.force {
        refuse_existing(&files)?;
    }
    write_files(&files, &args)?;
    super::stdout::note!(
        "wrote {} case{} of {} (seed {}) to {} in {} file{}",
        cases.len(),
        plural(cases.len()),
        puzzle.name(),
        args.seed,
        args.out.display(),
        files.len(),
        plural(files.len())
    );
    Ok(ExitCode::Ok)
}

fn check_args(args: &GenArgs) -> Result<(), Failure> {
    if args.count == 0 {
        return Err(Failure::Usage("--count 0: nothing to generate".to_string()));
    }
    if args.count > 1_000_000 {
        return Err(Failure::Usage(
            "--count: at most 1,000,000 cases at a time".to_string(),
        ));
    }
    Ok(())
}

/// The files' name: `--name`, or `gen-SEED`.
fn stem(args: &GenArgs) -> Result<String, Failure> {
    let stem = args
        .name
        .clone()
        .unwrap_or_else(|| format!("gen-{}", args.seed));
    if stem.is_empty() || stem.contains('/') {
        return Err(Failure::Usage(format!(
            "--name {stem:?}: a file name without '/' is needed"
        )));
    }
    Ok(stem)
}

/// The files to write, (path, bytes): one input and answer for all the
/// cases, or a pair a case (`--split`, or a single-case puzzle).
fn files(
    puzzle: &'static dyn crate::puzzles::Puzzle,
    cases: &[crate::puzzles::GeneratedCase],
    args: &GenArgs,
    stem: &str,
) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    if args.split || !puzzle.multi_case() {
        let width = cases.len().to_string().len().max(3);
        for (i, case) in cases.iter().enumerate() {
            let (input, answer) = puzzle.assemble(std::slice::from_ref(case));
            let name = format!("{stem}-{:0width$}", i + 1);
            files.push((args.out.join(format!("{name}.in")), input));
            files.push((args.out.join(format!("{name}.ans")), answer));
        }
    } else {
        let (input, answer) = puzzle.assemble(cases);
        files.push((args.out.join(format!("{stem}.in")), input));
        files.push((args.out.join(format!("{stem}.ans")), answer));
    }
    files
}

/// Without `--force`, nothing that exists is replaced.
fn refuse_existing(files: &[(PathBuf, Vec<u8>)]) -> Result<(), Failure> {
    let existing = existing(files.iter().map(|(p, _)| p.as_path()));
    if existing.is_empty() {
        return Ok(());
    }
    let shown = existing
        .iter()
        .take(3)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let more = if existing.len() > 3 {
        format!(" and {} more", existing.len() - 3)
    } else {
        String::new()
    };
    Err(Failure::Usage(format!(
        "{shown}{more} already exist{}: use --force to overwrite, or --name/--out to write elsewhere",
        if existing.len() == 1 { "s" } else { "" }
    )))
}

/// Write every file atomically; without `--force`, a file that appears
/// between the check and this write is still not replaced.
fn write_files(files: &[(PathBuf, Vec<u8>)], args: &GenArgs) -> Result<(), Failure> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::Usage(format!("{}: cannot create: {e}", args.out.display())))?;
    for (path, bytes) in files {
        let written = if args.force {
            write_atomically(path, bytes)
        } else {
            crate::report::write_new_atomically(path, bytes)
        };
        written.map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Failure::Usage(format!(
                "{}: appeared while the cases were written; not replaced (use --force to overwrite)",
                path.display()
            )),
            _ => Failure::Internal(format!("{}: cannot write: {e}", path.display())),
        })?;
    }
    Ok(())
}

/// What to generate: `count` cases from `seed`, of this difficulty.
pub(super) fn spec(difficulty: &Difficulty, count: usize, seed: u64, impossible: bool) -> GenSpec {
    GenSpec {
        count,
        seed,
        length: difficulty.length.clone(),
        n: difficulty.n.clone(),
        moves: difficulty.moves.clone(),
        turns: difficulty.turns.clone(),
        impossible,
    }
}

/// The paths that name an existing directory entry of any kind. A dangling
/// symbolic link counts (`exists()` follows links and would miss it, and
/// the atomic rename would then replace the link without `--force`).
fn existing<'p>(paths: impl Iterator<Item = &'p Path>) -> Vec<String> {
    paths
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .map(|p| p.display().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dangling_symlink_counts_as_existing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let link = dir.path().join("gen-1.in");
        let file = dir.path().join("gen-1.ans");
        let free = dir.path().join("gen-2.in");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).expect("a symlink");
        std::fs::write(&file, b"x").expect("a file");
        let found = existing([link.as_path(), file.as_path(), free.as_path()].into_iter());
        assert_eq!(
            found,
            vec![link.display().to_string(), file.display().to_string()]
        );
    }
}
