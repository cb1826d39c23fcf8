//! Compilers installed where the sandbox's users cannot reach them: rustup
//! puts `rustc` under the judge's home (`/root/.rustup`, mode 0700 as
//! root; a home the slot's mount namespace hides without root). A
//! submission's build runs in the sandbox (`submission::sandboxed`), so
//! such a compiler is exposed to it: its whole toolchain directory (the
//! sysroot, which holds the compiler, its libraries and its standard
//! library) is bound read-only, with no set-uid and no devices, into
//! `toolchains/NAME` of the scratch directory in every slot's namespace.
//! Outside the namespaces that directory stays empty, and nothing else of
//! the home shows.
//!
//! Only toolchains that find their own files from where their executable
//! lies can be moved so; today that is Rust's (rustc computes its sysroot
//! from its own path). Interpreters are staged as before
//! (`Sandbox::stage`).

use super::Sandbox;
use std::path::{Path, PathBuf};

/// One toolchain directory and where a slot's namespace shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exposed {
    /// The compiler's name as a language's command says it (`rustc`).
    pub tool: &'static str,
    /// The toolchain directory, as the judge sees it.
    pub source: PathBuf,
    /// Inside the scratch directory: where a slot's namespace shows it.
    pub target: PathBuf,
}

/// The toolchains to expose in a sandbox whose hidden places are `hide`:
/// `rustc` when the judge's PATH finds it somewhere the slot's users
/// cannot reach (as root: not readable and searchable by others) or that
/// the namespace hides. Its sysroot is asked of `rustc --print sysroot`
/// only then (a few milliseconds), so a machine with a system-wide Rust
/// pays nothing.
pub(super) fn exposures(scratch: &Path, root: bool, hide: &[PathBuf]) -> Vec<Exposed> {
    let Ok(rustc) = crate::exec::runner::resolve_program("rustc") else {
        return Vec::new();
    };
    let real = std::fs::canonicalize(&rustc).unwrap_or(rustc.clone());
    let hidden = hide
        .iter()
        .any(|h| real.starts_with(h) || rustc.starts_with(h));
    if !hidden && (!root || super::staging::reachable_by_others(&rustc)) {
        return Vec::new();
    }
    let Some(sysroot) = sysroot(&rustc) else {
        return Vec::new();
    };
    let target = scratch.join("toolchains").join("rust");
    if std::fs::create_dir_all(&target).is_err() {
        return Vec::new();
    }
    use std::os::unix::fs::PermissionsExt;
    for dir in [target.parent().unwrap_or(&target), &target] {
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
    }
    vec![Exposed {
        tool: "rustc",
        source: sysroot,
        target,
    }]
}

/// `rustc --print sysroot`, a directory holding `bin/rustc`.
fn sysroot(rustc: &Path) -> Option<PathBuf> {
    let out = std::process::Command::new(rustc)
        .args(["--print", "sysroot"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let dir = PathBuf::from(text.trim());
    (dir.is_absolute() && dir.join("bin/rustc").is_file()).then_some(dir)
}

impl Sandbox {
    /// The path a build in the sandbox runs `tool` by, when its toolchain
    /// is exposed (see the module): `toolchains/rust/bin/rustc`.
    pub fn exposed_tool(&self, tool: &str) -> Option<PathBuf> {
        let exposed = self.exposed.iter().find(|e| e.tool == tool)?;
        Some(exposed.target.join("bin").join(tool))
    }
}
