//! What the benches share: writing their files and compiling their C.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};

/// Write a file, making its directory.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `cc -O2 -o OUT SRC`.
pub fn compile(src: &Path, out: &Path) {
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(out)
        .arg(src)
        .status()
        .unwrap();
    assert!(ok.success(), "cannot build {}", src.display());
}

/// Run `program ARGS` in `dir` with its output discarded (and the judge's
/// build cache in `dir/cache`); it must succeed.
pub fn run(dir: &Path, program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .env("JUDGE_CACHE_DIR", dir.join("cache"))
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{program} {args:?} failed");
}
