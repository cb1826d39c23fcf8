//! `judge verify` and `judge run` on a package whose `data/` a
//! `generators/generators.yaml` makes: the data is generated first when it
//! is missing or stale, as BAPCtools' `bt run` does, and said in one line.
//! Stale: the generators directory (generators.yaml with it) or
//! problem.yaml differ from what the data was last made from, or a file
//! the manifest owns is gone or changed. Files the judge did not write are
//! never replaced here (that is `judge gen --force`): they are said and
//! used as they are. Nothing about generating refuses the package here: a
//! generators.yaml that cannot be read, an entry that cannot be made, a
//! data directory out of the package are warnings naming the file, the
//! line and the entry, and `data/` is judged as it is (`judge gen` is
//! where they are errors). A Polygon package's missing tests are built
//! into the judge's cache (`polygon::prepare_polygon`).

use super::confine::Confine;
use super::make::Made;
use super::{Options, has_generators, make_all, manifest};
use crate::commands::Failure;
use crate::config::Overrides;
use crate::formats::generators::GENERATORS_YAML;
use crate::formats::generators::GenPlan;
use crate::text::format::plural;
use sha2::{Digest, Sha256};
use std::path::Path;

/// Make `root`'s data when a generators.yaml makes it and it is missing or
/// stale, or build the tests a standard Polygon package declares and does
/// not hold (into the judge's cache); the line that says what was done
/// (`None`: nothing to make).
pub fn prepare_package(root: &Path) -> Result<Option<String>, Failure> {
    let polygon = crate::formats::polygon::is_package(root);
    if !polygon && !has_generators(root) {
        return Ok(None);
    }
    // Once a run: a command may look a package up more than once.
    static DONE: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let key = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    {
        let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
        if done.contains(&key) {
            return Ok(None);
        }
        done.push(key);
    }
    if polygon {
        return super::polygon::prepare_polygon(root);
    }
    let data = root.join("data");
    let manifest = manifest::read(&data);
    let sources = sources(root);
    if manifest.sources.as_deref() == Some(sources.as_str()) && manifest.intact(&data) {
        let line = format!("data/ is as {GENERATORS_YAML} made it: nothing regenerated");
        crate::commands::stdout::note!("{line}");
        return Ok(Some(line));
    }
    // Nothing about generating makes judging impossible: what cannot be
    // generated is warned (file, line, entry) and data/ is judged as it
    // is; `judge gen` is where it is an error.
    let plan = match crate::formats::generators::load(root) {
        Ok(plan) => plan,
        Err(e) => return Ok(Some(not_generated(&e.to_string()))),
    };
    for w in &plan.warnings {
        crate::commands::stdout::say!("warning: {w}");
    }
    for e in &plan.skipped {
        crate::commands::stdout::say!("warning: {e}: left out (judge gen fails on it)");
    }
    let made = Confine::new(root)
        .map_err(Failure::usage)
        .and_then(|confine| {
            let problem = || {
                crate::config::package_problem(root, &Overrides::default())
                    .map_err(|e| Failure::Usage(e.to_string()))
            };
            make_all(&plan, problem, None, &data, &confine, Options::default())
        });
    let (made, summary) = match made {
        Ok(made) => made,
        Err(f) => return Ok(Some(not_generated(f.message()))),
    };
    let line = made_line(&plan, &made, &summary);
    crate::commands::stdout::say!("{line}");
    Ok(Some(line))
}

/// What making the data came to, each failure and refusal said first: the
/// one line `verify` and `run` show.
fn made_line(plan: &GenPlan, made: &[Made], summary: &manifest::Summary) -> String {
    for m in made {
        if let Err(e) = &m.files {
            crate::commands::stdout::say!("data/{}: {e}", m.path.display());
        }
    }
    for r in &summary.refused {
        crate::commands::stdout::say!("{r}: kept and used as it is");
    }
    let failed = made.iter().filter(|m| m.files.is_err()).count();
    let cached = made.iter().filter(|m| m.cached).count();
    let skipped = plan.skipped.len();
    let kept = super::report::kept_from_data(made);
    format!(
        "generated data/ from {GENERATORS_YAML} first: {} case{}, {} made, {cached} unchanged, {}{failed} failed{}{}",
        made.len(),
        plural(made.len()),
        made.len() - cached - failed - kept,
        if kept == 0 {
            String::new()
        } else {
            format!("{kept} hand-made in data/, ")
        },
        if skipped == 0 {
            String::new()
        } else {
            format!(
                "; {skipped} entr{} left out",
                if skipped == 1 { "y" } else { "ies" }
            )
        },
        if summary.refused.is_empty() {
            String::new()
        } else {
            format!(
                "; {} file{} not the judge's kept (judge gen --force replaces them)",
                summary.refused.len(),
                plural(summary.refused.len())
            )
        }
    )
}

/// generators.yaml could not be read (or data/ not made from it): said,
/// and data/ judged as it is.
fn not_generated(why: &str) -> String {
    crate::commands::stdout::say!("warning: {why}");
    let line = format!(
        "data/ is judged as it is: nothing generated from {GENERATORS_YAML} (judge gen says why)"
    );
    crate::commands::stdout::say!("{line}");
    line
}

/// The hash of what a package's data is made from: every file under
/// `generators/` (names and bytes, in name order) and problem.yaml (its
/// constants reach the generators).
pub(super) fn sources(root: &Path) -> String {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    for entry in walkdir::WalkDir::new(root.join("generators"))
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            part(rel.as_os_str().as_encoded_bytes());
            part(
                &crate::exec::bounded_read::read_package_file(
                    entry.path(),
                    crate::exec::bounded_read::PACKAGE_FILE_CAP,
                )
                .unwrap_or_default(),
            );
        }
    }
    part(
        &crate::exec::bounded_read::read_package_file(
            &root.join(crate::formats::kattis::PROBLEM_YAML),
            crate::exec::bounded_read::DESCRIPTION_CAP,
        )
        .unwrap_or_default(),
    );
    crate::exec::identity::hex(&hash.finalize())
}
