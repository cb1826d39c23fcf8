//! A case of an empty entry (`name:`), BAPCtools' old form of a hand-made
//! case: its files are in `data/` already and are used as they are. Only
//! what is missing is made (an answer, by the solution), and an answer the
//! judge made before is made again (the solution may have changed); the
//! author's files are never written, owned by the manifest or removed.

use super::context::Ctx;
use super::error::CaseError;
use super::make::with_ext;
use crate::formats::generators::{DATA_EXTENSIONS, GenCase};
use std::collections::BTreeMap;

impl Ctx<'_> {
    /// The author's files of a hand-made case: extension → bytes (a file
    /// the manifest owns as it wrote it is not theirs).
    pub(super) fn manual_files(
        &self,
        case: &GenCase,
    ) -> Result<BTreeMap<String, Vec<u8>>, CaseError> {
        let base = self.data.join(&case.path);
        let mut files = BTreeMap::new();
        for ext in DATA_EXTENSIONS {
            let file = with_ext(&base, ext);
            if std::fs::symlink_metadata(&file).is_err() {
                continue;
            }
            let bytes = self.confine.read(&file)?;
            let rel = format!("{}.{ext}", case.path.display());
            if !self.manifest.owns(&rel, &bytes) {
                files.insert(ext.to_string(), bytes);
            }
        }
        if !files.contains_key("in") {
            return Err(CaseError::NoManualInput {
                case: case.path.clone(),
            });
        }
        Ok(files)
    }

    /// What a hand-made case is made from, for its key.
    pub(super) fn manual_key(&self, case: &GenCase, part: &mut dyn FnMut(&[u8])) {
        part(b"manual");
        for (ext, bytes) in self.manual_files(case).unwrap_or_default() {
            part(ext.as_bytes());
            part(&bytes);
        }
    }
}
