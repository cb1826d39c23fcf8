//! Cases `include:`d into a second directory: made after every other case
//! from the original's files as written, validated again with the new
//! directory's settings, and written there as copies (BAPCtools makes
//! symbolic links; copies keep every file owned by the manifest and need no
//! link support from whatever reads the package).

use super::context::Ctx;
use super::error::CaseError;
use super::make::Made;
use super::validate::validate;
use crate::formats::generators::Included;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Make every included case (after the others were written).
pub(super) fn make_included(ctx: &Ctx<'_>, made: &[Made]) -> Vec<Made> {
    use rayon::prelude::*;
    let originals: HashMap<&PathBuf, &Made> = made.iter().map(|m| (&m.path, m)).collect();
    ctx.plan
        .includes
        .par_iter()
        .map(|inc| make_one(ctx, inc, originals.get(&inc.from).copied()))
        .collect()
}

fn make_one(ctx: &Ctx<'_>, inc: &Included, original: Option<&Made>) -> Made {
    let start = Instant::now();
    let mut made = Made {
        path: inc.path.clone(),
        kind: "include",
        command: original.and_then(|o| o.command.clone()),
        seed: original.and_then(|o| o.seed),
        from: Some(inc.from.clone()),
        key: String::new(),
        files: Ok(BTreeMap::new()),
        cached: false,
        validation: "not run",
        time: Duration::ZERO,
    };
    let Some(original) = original.filter(|o| o.files.is_ok()) else {
        made.files = Err(CaseError::IncludedNotMade {
            from: inc.from.clone(),
        });
        return made;
    };
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(b"include");
    part(original.key.as_bytes());
    ctx.validators_key(&mut part);
    made.key = crate::exec::identity::hex(&hash.finalize());
    if ctx.manifest.unchanged(ctx.data, &inc.path, &made.key) {
        made.cached = true;
        made.time = start.elapsed();
        return made;
    }
    // A hand-made case's files are its author's, never the manifest's.
    let mut files = match (&original.files, original.kind) {
        (Ok(files), "manual") => files.clone(),
        _ => ctx.manifest.owned_files(ctx.data, &inc.from),
    };
    // A case included into invalid_input/ is an input alone: the format
    // has no answer there.
    if inc.path.starts_with("invalid_input") {
        files.remove("ans");
    }
    if !files.contains_key("in") {
        made.files = Err(CaseError::IncludedNoInput {
            from: inc.from.clone(),
        });
        return made;
    }
    let slot = rayon::current_thread_index().unwrap_or(0);
    let (validation, files) = validate(ctx, &inc.path, files, slot);
    made.validation = validation;
    made.files = files;
    made.time = start.elapsed();
    made
}
