//! How a source is staged for its build: its files read and named
//! ([`read_files`]), the compile step's placeholders ([`CompileStep`],
//! `Places`: `{src}`, `{bin}`, `{dir}`, `{files}`, `{main}`,
//! `{interpreter}`), and which files a run needs beside it.

use super::languages::{self, Language};
use super::{BuildError, Source};
use std::path::{Path, PathBuf};

pub(super) fn split(command: &str) -> Result<Vec<String>, BuildError> {
    shlex::split(command)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| BuildError::Internal(format!("{command:?} is not a command line")))
}

/// Whether a built program needs its whole build directory at run time:
/// several files (an interpreted submission imports the others), or a run
/// command naming `{dir}` (a JVM's class path).
pub(super) fn needs_dir(language: &Language, files: &[StagedFile]) -> bool {
    files.len() > 1 || language.run.contains("{dir}")
}

/// What a compile step needs to know of its build.
pub(super) struct CompileStep<'a> {
    pub(super) language: &'a Language,
    pub(super) main: &'a str,
    pub(super) files: &'a [StagedFile],
    pub(super) interpreter: Option<&'a Path>,
    pub(super) shown: &'a str,
}

impl CompileStep<'_> {
    /// The placeholders' values for sources staged in `dir`.
    pub(super) fn places(&self, dir: &Path) -> Places {
        let main_bytes = self
            .files
            .iter()
            .find(|(rel, _)| *rel == self.main)
            .map(|(_, b)| b.as_slice())
            .unwrap_or_default();
        let mut places = Places::new(dir, self.main, self.language, main_bytes);
        let language = self.language;
        places.files = self
            .files
            .iter()
            .filter(|(rel, _)| {
                Path::new(rel)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| language.extensions.iter().any(|l| l == e))
                    || *rel == self.main
            })
            .map(|(rel, _)| dir.join(rel).to_string_lossy().into_owned())
            .collect();
        places.interpreter = self.interpreter.map(Path::to_path_buf);
        places
    }

    /// The compile command for sources staged in `dir`, when the language
    /// has one.
    pub(super) fn words(&self, dir: &Path) -> Result<Option<Vec<String>>, BuildError> {
        let Some(compile) = &self.language.compile else {
            return Ok(None);
        };
        let places = self.places(dir);
        let words: Vec<String> = split(compile)?
            .iter()
            .flat_map(|w| places.expand(w))
            .collect();
        if words.is_empty() {
            return Err(BuildError::Internal(format!(
                "{compile:?} is not a command line"
            )));
        }
        Ok(Some(words))
    }

    /// The compiler `tool` is not installed.
    pub(super) fn missing(&self, tool: &str) -> BuildError {
        BuildError::MissingTool {
            path: self.shown.to_string(),
            language: self.language.name.clone(),
            title: self.language.title.clone(),
            role: "compiler",
            tool: tool.to_string(),
            package: self.language.package.clone(),
        }
    }
}

/// The values of a template's placeholders (see [`languages`]).
pub(super) struct Places {
    pub(super) src: String,
    pub(super) bin: String,
    pub(super) dir: String,
    pub(super) main: String,
    /// Every source file of the language (`{files}`), absolute.
    pub(super) files: Vec<String>,
    pub(super) interpreter: Option<PathBuf>,
}

impl Places {
    pub(super) fn new(
        dir: &Path,
        main_rel: &str,
        language: &Language,
        main_bytes: &[u8],
    ) -> Places {
        let stem = Path::new(main_rel)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program".to_string());
        let src = dir.join(main_rel).to_string_lossy().into_owned();
        Places {
            files: vec![src.clone()],
            src,
            bin: dir.join(stem).to_string_lossy().into_owned(),
            dir: dir.to_string_lossy().into_owned(),
            main: languages::main_name(&language.name, main_rel, main_bytes),
            interpreter: None,
        }
    }

    /// A template word with its placeholders filled in: `{files}` alone is
    /// one word per file. `{memory_mib}` is left for the run.
    pub(super) fn expand(&self, word: &str) -> Vec<String> {
        if word == "{files}" {
            return self.files.clone();
        }
        let mut out = word
            .replace("{src}", &self.src)
            .replace("{bin}", &self.bin)
            .replace("{dir}", &self.dir)
            .replace("{main}", &self.main);
        if let Some(i) = &self.interpreter {
            out = out.replace("{interpreter}", &i.to_string_lossy());
        }
        vec![out]
    }
}

/// A file as it is staged for a build: its relative name and bytes.
pub(super) type StagedFile = (String, Vec<u8>);

/// A directory submission's own files, as staged in `dir`, to be copied
/// into its working directory: the 2025-09 format has a submission run in
/// a directory holding "the submitted files", and DOMjudge's multi-file
/// shell example sources `./secondary.sh` from there. A single file needs
/// no copy (its run's directory then stays empty, to be reused).
pub(super) fn working_files(own: &[StagedFile], dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    if own.len() < 2 {
        return Vec::new();
    }
    own.iter()
        .map(|(rel, _)| (dir.join(rel), PathBuf::from(rel)))
        .collect()
}

/// The most of one source file a build reads: sources are kilobytes (a
/// contest system caps them at 256 KiB); a 12 GiB sparse "source" must not
/// become 12 GiB of the judge's memory.
pub const SOURCE_CAP: u64 = 64 << 20;

/// A source's files as they are staged: (relative name, bytes), the
/// sources first and then the include files they do not replace, the
/// main file's name, and how many of the files are the submission's own
/// (the rest are included). A single file of a forced language
/// (`--language`) gets the language's extension, which compilers go by.
pub(super) fn read_files(source: &Source) -> Result<(String, Vec<StagedFile>, usize), BuildError> {
    let root = source.root();
    let read = |path: &Path| {
        // A file that is a link checked out as text is read at its target.
        let path = source
            .links
            .iter()
            .find(|(found, _)| found == path)
            .map_or(path, |(_, target)| target.as_path());
        match std::fs::metadata(path) {
            Ok(meta) if meta.len() > SOURCE_CAP => {
                return Err(BuildError::SourceTooLarge(format!(
                    "{}: {} bytes, more than the {} MiB the judge builds from one source file",
                    path.display(),
                    meta.len(),
                    SOURCE_CAP >> 20
                )));
            }
            _ => {}
        }
        crate::exec::bounded_read::read_package_file(path, SOURCE_CAP)
            .map_err(|e| BuildError::Internal(format!("cannot read {}: {e}", path.display())))
    };
    let language = &source.language;
    let mut main = source.main.to_string_lossy().into_owned();
    let ext = source.main.extension().and_then(|e| e.to_str());
    let renamed = match language.extensions.first() {
        Some(first)
            if source.files.len() == 1
                && !ext.is_some_and(|e| language.extensions.iter().any(|l| l == e)) =>
        {
            let stem = source
                .main
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "source".to_string());
            Some(format!("{stem}.{first}"))
        }
        _ => None,
    };
    let mut files = Vec::new();
    for rel in &source.files {
        let bytes = read(&root.join(rel))?;
        let mut name = rel.to_string_lossy().into_owned();
        if let Some(new) = &renamed
            && name == main
        {
            name = new.clone();
        }
        files.push((name, bytes));
    }
    if let Some(new) = renamed {
        main = new;
    }
    let substituted = |bytes: Vec<u8>| match &source.constants {
        Some(c) => c.substitute(&bytes).into_owned(),
        None => bytes,
    };
    for (_, bytes) in files.iter_mut() {
        *bytes = substituted(std::mem::take(bytes));
    }
    let mut own = files.len();
    for dir in &source.includes {
        for entry in walkdir::WalkDir::new(dir).follow_links(true).max_depth(8) {
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap_or(entry.path())
                .to_string_lossy()
                .into_owned();
            // The spec: included files are copied "overwriting files
            // from the submission in the case of name collision".
            if let Some(i) = files[..own].iter().position(|(name, _)| *name == rel) {
                files.remove(i);
                own -= 1;
            } else if files[own..].iter().any(|(name, _)| *name == rel) {
                continue;
            }
            files.push((rel, substituted(read(entry.path())?)));
        }
    }
    Ok((main, files, own))
}
