//! The judge's build identity, `JUDGE_BUILD_ID`: its version and a digest
//! of everything that decides what it does (every file under `src/`,
//! `Cargo.toml`, `Cargo.lock`). The run cache keys runs, checks and
//! generated data by it (`exec::identity::JUDGE_BUILD`), so a judge built
//! from other sources never reuses a verdict an older build gave, while
//! the same sources built on another machine (a CI matrix, a shared
//! volume) share the cache.

use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut list = Vec::new();
    files(&root.join("src"), &mut list)?;
    list.push(root.join("Cargo.toml"));
    list.push(root.join("Cargo.lock"));
    list.sort();
    let mut digest = Sha256::new();
    for path in &list {
        let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy();
        // A missing Cargo.lock (a library build) is simply not part of it.
        let bytes = std::fs::read(path).unwrap_or_default();
        for part in [name.as_bytes(), &bytes] {
            digest.update((part.len() as u64).to_le_bytes());
            digest.update(part);
        }
    }
    let hex: String = digest.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rustc-env=JUDGE_BUILD_ID={version}+{hex}");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    Ok(())
}
