//! Building a configured checker or validator into something to execute:
//! [`checker_program`], its builds kept in the tools cache (`cache.rs`).

use super::cache::{cache_root, keep_built, no_build_dir, staging_dir, tool_key};
use super::jvm::{Jvm, jvm_program};
use super::{COMPILE_TIME_LIMIT, Ready, Source, ToolError};
use crate::exec::LimitHit;
use crate::exec::process::launch_build;
use crate::exec::runner::resolve_program;
use crate::exec::sandbox::Sandbox;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// **The compile seam.** Turn a configured program into an argument vector
/// to execute:
///
/// - a name: looked up on PATH;
/// - a `.c` file: `cc -O2 -std=gnu11 -I DIR -o BIN FILE -lm`; a `.cpp`,
///   `.cc`, `.cxx` or `.c++` file: `c++ -O2 -std=gnu++17 -I DIR -o BIN
///   FILE` (DIR is the source's directory, where `testlib.h` usually is);
/// - a `.py` file: `python3 FILE`; a `.sh` file that is not executable:
///   `sh FILE`; any other executable file: itself;
/// - a directory (a Kattis program): all its C++ sources compiled together,
///   else all its C sources, else its Python file to run ([`python_main`]:
///   the others beside it are its modules), else an executable `run` in it.
///
/// Binaries are cached across runs under the judge's cache directory
/// (`tools/<key>/program`), keyed by the compiler, the sources and the
/// headers beside them: a `judge check` with a `.cpp` checker compiles it
/// once, not on every call.
pub fn checker_program(source: &Source, sandbox: &Sandbox) -> Result<Ready, ToolError> {
    let path = match source {
        Source::Name(name) => {
            return Ok(Ready {
                argv: vec![resolve_program(name)?.into_os_string()],
                address_space: true,
                _keep: None,
            });
        }
        Source::Path(path) => path,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ToolError::Missing(path.clone()),
        _ => ToolError::Unreadable {
            path: path.clone(),
            reason: e.to_string(),
        },
    })?;
    if meta.is_dir() {
        return directory_program(path, sandbox);
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match Language::of_extension(ext) {
        Some(language) => compile(language, std::slice::from_ref(path), path, sandbox),
        None if ext == "java" => jvm_program(Jvm::Java, path, sandbox),
        None if ext == "kt" => jvm_program(Jvm::Kotlin, path, sandbox),
        None if ext == "py" => Ok(Ready {
            argv: vec![
                resolve_program("python3")?.into_os_string(),
                path.clone().into_os_string(),
            ],
            address_space: true,
            _keep: None,
        }),
        None if is_executable(&meta) => Ok(Ready {
            argv: vec![path.clone().into_os_string()],
            address_space: true,
            _keep: None,
        }),
        None if ext == "sh" => Ok(Ready {
            argv: vec!["/bin/sh".into(), path.clone().into_os_string()],
            address_space: true,
            _keep: None,
        }),
        None => Err(ToolError::NotRunnable(path.clone())),
    }
}

fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

/// The languages of a package's programs compiled to one native binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Language {
    C,
    Cpp,
    /// Free Pascal (`.pas`, `.pp`), and Delphi's `.dpr` in its Delphi
    /// mode (Polygon's `pas.fpc`, `delphi` types): testlib.pas is looked
    /// for as testlib.h is.
    Pascal,
    Delphi,
}

impl Language {
    fn of_extension(ext: &str) -> Option<Language> {
        match ext {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" | "C" => Some(Language::Cpp),
            "pas" | "pp" => Some(Language::Pascal),
            "dpr" => Some(Language::Delphi),
            _ => None,
        }
    }
}

/// A Kattis program directory: `build` and `run` scripts when it has them
/// (they come first, as the format says), else its sources compiled
/// together, or its one script.
fn directory_program(dir: &Path, sandbox: &Sandbox) -> Result<Ready, ToolError> {
    if dir.join("build").is_file() {
        return build_script(dir, sandbox);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ToolError::Unreadable {
            path: dir.to_path_buf(),
            reason: e.to_string(),
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let with = |language: Language| -> Vec<PathBuf> {
        files
            .iter()
            .filter(|p| {
                p.extension()
                    .and_then(|e| e.to_str())
                    .and_then(Language::of_extension)
                    == Some(language)
            })
            .cloned()
            .collect()
    };
    for language in [Language::Cpp, Language::C] {
        let sources = with(language);
        if !sources.is_empty() {
            return compile(language, &sources, dir, sandbox);
        }
    }
    let scripts: Vec<PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .cloned()
        .collect();
    if let Some(script) = python_main(&scripts) {
        return checker_program(&Source::Path(script), sandbox);
    }
    let run = dir.join("run");
    if run.is_file() {
        return checker_program(&Source::Path(run), sandbox);
    }
    Err(ToolError::UnknownLayout(dir.to_path_buf()))
}

/// The file to run of a program directory's Python sources (`files`
/// sorted): the one file, else a file whose name starts with `main`
/// (BAPCtools' rule; problemtools' is `main.`), else the one file that
/// tests `__name__ == "__main__"` (the judge's rule for a submission),
/// else the first by name, as both BAPCtools and problemtools take it.
/// The others stay beside it, importable (`from helper import …`).
fn python_main(files: &[PathBuf]) -> Option<PathBuf> {
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default()
    };
    if let Some(main) = files.iter().find(|p| name(p).starts_with("main")) {
        return Some(main.clone());
    }
    let tests_main: Vec<&PathBuf> = files
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|text| {
                text.contains("__name__ == \"__main__\"") || text.contains("__name__ == '__main__'")
            })
        })
        .collect();
    if let [one] = tests_main.as_slice() {
        return Some((*one).clone());
    }
    files.first().cloned()
}

/// A program directory with a `build` script: the directory is copied
/// into the tools cache (keyed by its files) and `build` is run there
/// once; its `run` is the program. The package itself is never written.
fn build_script(dir: &Path, sandbox: &Sandbox) -> Result<Ready, ToolError> {
    let build = |reason: String| ToolError::Build {
        what: dir.to_path_buf(),
        reason,
    };
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        if entry.file_type().is_file() {
            files.push(entry.into_path());
        }
    }
    let key = tool_key(Path::new("build"), "", &files, &[]);
    let cache = cache_root();
    let target = cache.join(&key);
    let run = target.join("run");
    if target.join(".built").is_file() && crate::exec::cache_dir::entry_intact(&target) {
        return Ok(run_script(run));
    }
    let work = std::fs::create_dir_all(&cache)
        .and_then(|()| {
            tempfile::Builder::new()
                .prefix(".build-")
                .tempdir_in(&cache)
        })
        .map_err(|e| build(format!("cannot create a build directory: {e}")))?;
    // Built in the judge's private directory, the one place a package's
    // program may write (see `exec::sandbox::tools`); what the build left
    // is then copied into the cache's staging directory, as a
    // submission's build is (no link followed, nothing but files and
    // directories).
    let out = sandbox.tool_build_dir().map_err(|e| build(e.to_string()))?;
    for file in &files {
        let rel = file.strip_prefix(dir).unwrap_or(file);
        let bytes = std::fs::read(file).map_err(|e| build(format!("{}: {e}", file.display())))?;
        out.write(&rel.to_string_lossy(), &bytes)
            .map_err(|e| build(e.to_string()))?;
        if is_executable(&std::fs::metadata(file).map_err(|e| build(e.to_string()))?) {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(out.path().join(rel), std::fs::Permissions::from_mode(0o755))
                .map_err(|e| build(e.to_string()))?;
        }
    }
    let script = out.path().join("build");
    let (program, args): (PathBuf, Vec<OsString>) =
        if is_executable(&std::fs::metadata(&script).map_err(|e| build(e.to_string()))?) {
            (script, Vec::new())
        } else {
            (PathBuf::from("/bin/sh"), vec![script.into_os_string()])
        };
    let outcome = launch_build(
        sandbox,
        0,
        &program,
        &args,
        Some(out.path()),
        COMPILE_TIME_LIMIT,
    )
    .map_err(|e| build(e.to_string()))?;
    if outcome.limit_hit.is_some() || !outcome.exit.success() {
        return Err(build(format!(
            "its build script failed ({}):\n{}",
            outcome.exit.describe(),
            String::from_utf8_lossy(&outcome.stderr_tail).trim_end()
        )));
    }
    out.collect(work.path(), &[])
        .map_err(|e| build(e.to_string()))?;
    drop(out);
    if !work.path().join("run").is_file() {
        return Err(build("its build script made no `run`".to_string()));
    }
    let _ = std::fs::write(work.path().join(".built"), b"");
    crate::exec::cache_dir::seal_entry(work.path()).map_err(|e| build(e.to_string()))?;
    let built = work.keep();
    if std::fs::rename(&built, &target).is_err() {
        let _ = std::fs::remove_dir_all(&built);
    }
    let run = if target.join(".built").is_file() {
        run
    } else {
        return Err(build(
            "the build could not be kept in the tools cache".to_string(),
        ));
    };
    Ok(run_script(run))
}

/// A `run` script as a program: itself when executable, else through sh.
fn run_script(run: PathBuf) -> Ready {
    let executable = std::fs::metadata(&run).is_ok_and(|m| is_executable(&m));
    Ready {
        argv: if executable {
            vec![run.into_os_string()]
        } else {
            vec!["/bin/sh".into(), run.into_os_string()]
        },
        address_space: true,
        _keep: None,
    }
}

/// Compile sources into a binary, kept in the tools cache.
fn compile(
    language: Language,
    sources: &[PathBuf],
    what: &Path,
    sandbox: &Sandbox,
) -> Result<Ready, ToolError> {
    let build = |reason: String| ToolError::Build {
        what: what.to_path_buf(),
        reason,
    };
    let (compiler, std) = match language {
        Language::C => ("cc", "-std=gnu11"),
        Language::Cpp => ("c++", "-std=gnu++17"),
        // fpc's own default mode for `.pas`, as a Pascal submission is
        // built (a source picks another with `{$mode …}`).
        Language::Pascal => ("fpc", ""),
        Language::Delphi => ("fpc", "-Mdelphi"),
    };
    let compiler_path = match language {
        Language::C | Language::Cpp => {
            resolve_program(compiler).map_err(|e| build(e.to_string()))?
        }
        Language::Pascal | Language::Delphi => {
            resolve_program(compiler).map_err(|_| ToolError::NotInstalled {
                what: what.to_path_buf(),
                program: compiler,
                language: "Pascal",
            })?
        }
    };
    let includes = include_dirs(what);
    let key = tool_key(&compiler_path, std, sources, &includes);
    let cache = cache_root();
    let cached = cache.join(&key).join("program");
    if cached.is_file() && crate::exec::cache_dir::entry_intact(&cache.join(&key)) {
        return Ok(Ready {
            argv: vec![cached.into_os_string()],
            address_space: true,
            _keep: None,
        });
    }
    let dir = staging_dir(&cache).map_err(|e| build(no_build_dir(e)))?;
    // Compiled in the judge's private directory (see `build_script`),
    // then copied into `dir`.
    let out = sandbox.tool_build_dir().map_err(|e| build(e.to_string()))?;
    let made = out.path().join("program");
    let mut args: Vec<OsString> = Vec::new();
    match language {
        Language::C | Language::Cpp => {
            args.extend(["-O2".into(), std.into()]);
            for include in &includes {
                args.push("-I".into());
                args.push(include.clone().into_os_string());
            }
            args.push("-o".into());
            args.push(made.clone().into());
        }
        Language::Pascal | Language::Delphi => {
            // Units (testlib.pas) and include files from the same places
            // as C's headers; the compiler's own files (`.o`, `.ppu`)
            // into the build directory, never beside the source.
            args.push("-O2".into());
            if !std.is_empty() {
                args.push(std.into());
            }
            for include in &includes {
                for flag in ["-Fu", "-Fi"] {
                    let mut arg = OsString::from(flag);
                    arg.push(include);
                    args.push(arg);
                }
            }
            let mut units = OsString::from("-FU");
            units.push(out.path());
            args.push(units);
            let mut output = OsString::from("-o");
            output.push(&made);
            args.push(output);
        }
    }
    args.extend(sources.iter().map(|s| s.clone().into_os_string()));
    if language == Language::C {
        args.push("-lm".into());
    }
    let outcome = launch_build(
        sandbox,
        0,
        &compiler_path,
        &args,
        Some(out.path()),
        COMPILE_TIME_LIMIT,
    )
    .map_err(|e| build(e.to_string()))?;
    if outcome.limit_hit.is_some() || !outcome.exit.success() || !made.is_file() {
        let why = if matches!(outcome.limit_hit, Some(LimitHit::Wall | LimitHit::Cpu)) {
            format!("timed out after {}s", COMPILE_TIME_LIMIT.as_secs())
        } else {
            outcome.exit.describe()
        };
        // fpc writes its messages on standard output.
        let errors = if outcome.stderr_tail.is_empty() {
            outcome.stdout.tail(1 << 16)
        } else {
            outcome.stderr_tail.clone()
        };
        let errors = String::from_utf8_lossy(&errors);
        let hint = if errors.contains("testlib.h") && errors.contains("No such file") {
            "\n(testlib.h is looked for beside the source, in the directories above it up to two levels, and where CPATH / CPLUS_INCLUDE_PATH point)"
        } else {
            ""
        };
        return Err(build(format!(
            "{compiler} failed ({why}):\n{}{hint}",
            errors.trim_end()
        )));
    }
    out.collect(dir.path(), &[])
        .map_err(|e| build(e.to_string()))?;
    drop(out);
    let (entry, keep) = keep_built(dir, &cache, &key, "program");
    Ok(Ready {
        argv: vec![entry.join("program").into_os_string()],
        address_space: true,
        _keep: keep,
    })
}

/// Where the compiler looks for headers (`testlib.h`, a package's
/// `validate.h`): the source's directory, then each directory above it up
/// to two levels that holds a `testlib.h` (a package's validators
/// directory, the package itself). CPATH and CPLUS_INCLUDE_PATH reach the
/// compiler too, as the judge's environment does.
fn include_dirs(what: &Path) -> Vec<PathBuf> {
    let own = if what.is_dir() {
        what.to_path_buf()
    } else {
        what.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    let mut dirs = vec![own.clone()];
    // A Polygon package keeps testlib.h among its resources in `files/`,
    // beside a `check.cpp` at its root.
    if !own.join("testlib.h").is_file() && own.join("files/testlib.h").is_file() {
        dirs.push(own.join("files"));
    }
    if !own.join("testlib.h").is_file() {
        dirs.extend(
            own.ancestors()
                .skip(1)
                .take(2)
                .filter(|d| d.join("testlib.h").is_file())
                .map(Path::to_path_buf),
        );
    }
    dirs
}
