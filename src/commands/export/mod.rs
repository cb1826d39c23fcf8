//! `judge export PACKAGE --to FORMAT OUT`: a package (Kattis legacy,
//! 2023-07 or 2025-09, DOMjudge, Polygon, or a judge.toml problem) written in the
//! format a contest system imports. The steps: which target, refuse an
//! existing OUT, read the source, gather the target's files (`kattis`,
//! `domjudge`, with `groups` for the group files), name on stderr what the
//! target cannot say, write it all beside OUT and rename it into place.

use crate::cli::{ExportArgs, ExportFormat, KattisVersion};
use crate::commands::stdout::{note, say};
use crate::commands::{Failure, Outcome};
use crate::formats::kattis::write::{self as kattis, Source};
use crate::formats::kattis::{self as package, FormatVersion};
use crate::formats::polygon::stage as polygon_source;
use crate::formats::{Notes, domjudge, kattis::stage as toml_source, tree};
use crate::verdict::ExitCode;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Kattis(FormatVersion),
    DomJudge,
}

pub fn export(config: Option<&Path>, args: ExportArgs) -> Outcome {
    let target = target(&args)?;
    tree::refuse_existing(&args.out, args.force).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut staged = None;
    let mut notes = Notes::new();
    let root = source_root(config, &args.package, &mut staged, &mut notes)?;
    let src = read_source(&root)?;
    let files = match target {
        Target::Kattis(version) => kattis::write(&src, version, &mut notes),
        Target::DomJudge => domjudge::write(&src, &mut notes),
    }
    .map_err(|e| Failure::Usage(e.to_string()))?;
    let zip = target == Target::DomJudge
        && args
            .out
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("zip"));
    tree::place(&files, &args.out, args.force, zip).map_err(|e| Failure::Usage(e.to_string()))?;
    report(&args, target, files.files.len(), &notes);
    Ok(ExitCode::Ok)
}

fn target(args: &ExportArgs) -> Result<Target, Failure> {
    Ok(match args.to {
        ExportFormat::Kattis => Target::Kattis(match args.version {
            KattisVersion::Legacy => FormatVersion::Legacy,
            KattisVersion::V2023_07 => FormatVersion::V2023_07,
            KattisVersion::V2025_09 => FormatVersion::V2025_09,
        }),
        ExportFormat::Domjudge => Target::DomJudge,
        ExportFormat::Polygon => {
            return Err(Failure::Usage(
                "--to polygon: not supported yet; the judge writes kattis (2025-09, 2023-07, legacy) and domjudge packages".to_string(),
            ));
        }
    })
}

/// The source's package directory: PACKAGE itself, or a judge.toml
/// problem staged as a 2025-09 package (kept in `staged`).
fn source_root(
    config: Option<&Path>,
    name: &str,
    staged: &mut Option<tempfile::TempDir>,
    notes: &mut Notes,
) -> Result<PathBuf, Failure> {
    let path = Path::new(name);
    if crate::formats::polygon::is_package(path) {
        let problem = crate::config::package_problem(path, &crate::config::Overrides::default())
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let dir = polygon_source::stage(path, &problem, notes)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let root = dir.path().join(polygon_problem_name(path));
        *staged = Some(dir);
        return Ok(root);
    }
    if package::is_package(path) {
        return Ok(path.to_path_buf());
    }
    let overrides = crate::config::Overrides::default();
    let config = crate::commands::load_config(config, &overrides)?;
    let problem = config.as_ref().and_then(|c| c.problem(name));
    let Some(problem) = problem else {
        return Err(Failure::Usage(format!(
            "{name}: neither a package directory (it has no {}) nor a problem of judge.toml",
            package::PROBLEM_YAML
        )));
    };
    let dir = toml_source::stage(problem, notes).map_err(|e| Failure::Usage(e.to_string()))?;
    let root = dir.path().join(&problem.name);
    *staged = Some(dir);
    Ok(root)
}

/// The name the Polygon reader gives a package: its directory's.
fn polygon_problem_name(path: &Path) -> String {
    std::fs::canonicalize(path)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_string())
}

fn read_source(root: &Path) -> Result<Source, Failure> {
    let package = package::load(root).map_err(|e| Failure::Usage(e.to_string()))?;
    let file = root.join(package::PROBLEM_YAML);
    let text = crate::exec::bounded_read::read_package_text(
        &file,
        crate::exec::bounded_read::DESCRIPTION_CAP,
    )
    .map_err(|e| Failure::Usage(format!("{}: cannot read: {e}", file.display())))?;
    let yaml = match serde_norway::from_str::<serde_norway::Value>(crate::text::without_bom(&text))
    {
        Ok(serde_norway::Value::Mapping(m)) => m,
        _ => serde_norway::Mapping::new(),
    };
    Ok(Source {
        package,
        root: root.to_path_buf(),
        yaml,
    })
}

fn report(args: &ExportArgs, target: Target, files: usize, notes: &Notes) {
    for line in notes {
        say!("judge: export: not carried as is: {line}");
    }
    let what = match target {
        Target::Kattis(v) => format!("a Kattis {} package", v.name()),
        Target::DomJudge => "a DOMjudge package".to_string(),
    };
    note!(
        "wrote {} ({what}, {}{})",
        args.out.display(),
        format!("{files} file{}", crate::text::format::plural(files)),
        if notes.is_empty() {
            String::new()
        } else {
            format!("; {} not carried as is, listed above", notes.len())
        }
    );
}
