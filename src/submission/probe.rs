//! Whether a language's toolchain works here: a *probe build* of a tiny
//! program of ours in that language, with the language's real compile
//! command under the compile limits, before the first build of a
//! submission in it. A compiler whose name resolves is not enough: a
//! compile command that starts with `env` (Crystal's) resolves on every
//! machine, and `gcc` is there for Objective-C without `cc1obj`. A probe
//! that fails makes the language "not installed" (MISS with
//! `--allow-missing`, as docs/verify.md promises), never CE: the
//! submission was not at fault.
//!
//! The result is kept per *compiler identity*: the language, its compile
//! command, and each of its tools (the compile command's first word and
//! the named tool) as resolved on PATH, with the resolved file's real path,
//! size and modification time. A probe that built is remembered in the
//! process and on disk (`probes/<identity>` in the judge's cache
//! directory), so a machine probes a compiler once; one that failed is
//! remembered in the process only, so that installing the missing piece
//! (`cc1obj` beside an unchanged `gcc`) is seen by the next judge.
//!
//! Only languages that compile and have a probe program below are probed;
//! a language with an `interpreter` command is already tried by running
//! it, one that does not compile by resolving its run command, and a
//! language judge.toml adds has no program of ours to probe with.

use super::languages::Language;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// The probe program of a built-in language: its file name and text. Each
/// is the smallest program the language's compile command accepts; those
/// of a language with a library (`cgmp`, `javaalgs4`) use the library, so
/// that a missing library is a missing toolchain too.
pub(super) fn program(language: &str) -> Option<(&'static str, &'static str)> {
    Some(match language {
        "ada" => (
            "hello.adb",
            "procedure Hello is\nbegin\n   null;\nend Hello;\n",
        ),
        "algol68" => ("hello.a68", "print((\"hello\", newline))\n"),
        "bash" => ("hello.sh", "echo hello\n"),
        "c" => ("hello.c", "int main(void) { return 0; }\n"),
        "cgmp" => (
            "hello.c",
            "#include <gmp.h>\nint main(void) { mpz_t x; mpz_init(x); mpz_clear(x); return 0; }\n",
        ),
        "cobol" => (
            "hello.cob",
            "IDENTIFICATION DIVISION.\nPROGRAM-ID. HELLO.\nPROCEDURE DIVISION.\n    STOP RUN.\n",
        ),
        "cpp" | "cpp11" | "cpp14" | "cpp20" | "cpp23" => {
            ("hello.cpp", "int main() { return 0; }\n")
        }
        "cppgmp" => (
            "hello.cpp",
            "#include <gmpxx.h>\nint main() { mpz_class x = 1; return x == 1 ? 0 : 1; }\n",
        ),
        "crystal" => ("hello.cr", "puts \"hello\"\n"),
        "csharp" => ("hello.cs", "class Hello { static void Main() {} }\n"),
        "d" => ("hello.d", "void main() {}\n"),
        "dart" => ("hello.dart", "void main() {}\n"),
        "erlang" => (
            "hello.erl",
            "-module(hello).\n-export([main/0]).\nmain() -> ok.\n",
        ),
        "fortran" => ("hello.f90", "program hello\nend program hello\n"),
        "fsharp" => ("hello.fs", "printfn \"hello\"\n"),
        "gerbil" => ("hello.ss", "(export main)\n(def (main . args) (void))\n"),
        "go" => ("hello.go", "package main\n\nfunc main() {}\n"),
        "haskell" => ("hello.hs", "main :: IO ()\nmain = return ()\n"),
        "java" => (
            "Hello.java",
            "public class Hello { public static void main(String[] a) {} }\n",
        ),
        "javaalgs4" => (
            "Hello.java",
            "import edu.princeton.cs.algs4.StdOut;\npublic class Hello { public static void main(String[] a) { StdOut.println(); } }\n",
        ),
        "javascript" => ("hello.js", "console.log(1);\n"),
        "kotlin" => ("hello.kt", "fun main() {}\n"),
        "lisp" => ("hello.lisp", "(defun main () nil)\n"),
        "lua" => ("hello.lua", "print(1)\n"),
        "modula2" => ("hello.mod", "MODULE hello;\nBEGIN\nEND hello.\n"),
        "nim" => ("hello.nim", "echo 1\n"),
        "objectivec" => ("hello.m", "int main(void) { return 0; }\n"),
        "ocaml" => ("hello.ml", "let () = ()\n"),
        "odin" => ("hello.odin", "package main\n\nmain :: proc() {}\n"),
        "pascal" => ("hello.pas", "program hello;\nbegin\nend.\n"),
        "perl" => ("hello.pm", "1;\n"),
        "php" => ("hello.php", "<?php echo 1;\n"),
        "prolog" => ("hello.pl", "main :- true.\n"),
        "racket" => ("hello.rkt", "#lang racket/base\n1\n"),
        "ruby" => ("hello.rb", "puts 1\n"),
        "rust" => ("hello.rs", "fn main() {}\n"),
        "scala" => (
            "hello.scala",
            "object Hello { def main(a: Array[String]): Unit = {} }\n",
        ),
        "simula" => ("hello.sim", "begin\nend;\n"),
        "swift" => ("hello.swift", "print(1)\n"),
        "typescript" => ("hello.ts", "const x: number = 1;\nconsole.log(x);\n"),
        "visualbasic" => (
            "hello.vb",
            "Module Hello\n    Sub Main()\n    End Sub\nEnd Module\n",
        ),
        "zig" => ("hello.zig", "pub fn main() void {}\n"),
        "r" => ("hello.R", "x <- 1\n"),
        _ => return None,
    })
}

/// The compiler identity of `language` (see the module doc), as a hex
/// digest: `None` when one of its tools does not resolve (the tool check
/// says which).
pub(super) fn identity(language: &Language) -> Option<String> {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(language.name.as_bytes());
    part(language.compile.as_deref().unwrap_or("").as_bytes());
    let first = language
        .compile
        .as_deref()
        .and_then(shlex::split)
        .and_then(|w| w.into_iter().next());
    let mut tools: Vec<String> = language
        .required_tools()
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    tools.extend(first.filter(|w| !w.contains('{')));
    for tool in tools {
        let path = crate::exec::runner::resolve_program(&tool).ok()?;
        let real = std::fs::canonicalize(&path).unwrap_or(path);
        part(real.as_os_str().as_encoded_bytes());
        if let Ok(meta) = std::fs::metadata(&real) {
            use std::os::unix::fs::MetadataExt;
            part(&meta.size().to_le_bytes());
            part(&meta.mtime().to_le_bytes());
            part(&meta.mtime_nsec().to_le_bytes());
        }
    }
    let digest = hash.finalize();
    Some(crate::exec::identity::hex(&digest[..16]))
}

/// Why a probe build failed (remembered for the process, so shared).
#[derive(Clone, Debug, thiserror::Error)]
pub(super) enum ProbeFailure {
    #[error("no directory for it: {0}")]
    NoDirectory(#[source] Arc<std::io::Error>),
    /// The compiler refused the tiny program: `said` is its first error.
    #[error("a probe build of a tiny {title} program failed: {said}")]
    Refused { title: String, said: String },
    /// The build itself failed (the judge's error, said as it is; the
    /// build that probed returns the error itself).
    #[error("{0}")]
    Build(String),
}

/// A probe's result.
pub(super) type Probed = Result<(), ProbeFailure>;

/// The probes of this process, by identity; a cell that is being filled
/// makes the other builds of the same language wait for it (one probe,
/// however many submissions are built in parallel).
static PROBES: Mutex<Option<HashMap<String, Arc<OnceLock<Probed>>>>> = Mutex::new(None);

/// The result for `identity`: remembered in this process, else on disk in
/// `cache_dir` (a success only), else what `probe` says (and a success is
/// written down).
pub(super) fn remembered(
    identity: &str,
    cache_dir: &Path,
    probe: impl FnOnce() -> Probed,
) -> Probed {
    let cell = {
        let mut map = PROBES.lock().unwrap_or_else(|e| e.into_inner());
        map.get_or_insert_with(HashMap::new)
            .entry(identity.to_string())
            .or_default()
            .clone()
    };
    cell.get_or_init(|| {
        let mark = cache_dir.join("probes").join(identity);
        if mark.is_file() {
            return Ok(());
        }
        let probed = probe();
        if probed.is_ok() {
            // Best effort: a cache that cannot be written only costs the
            // next judge a probe.
            if let Some(dir) = mark.parent()
                && std::fs::create_dir_all(dir).is_ok()
            {
                let _ = std::fs::write(&mark, b"built\n");
            }
        }
        probed
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compiled_builtin_language_but_the_interpreted_has_a_probe() {
        for language in crate::submission::builtin_languages() {
            let wants = language.compile.is_some() && language.interpreter.is_none();
            assert_eq!(
                program(&language.name).is_some(),
                wants,
                "{}: a probe program exactly when it compiles without an interpreter command",
                language.name
            );
        }
    }

    #[test]
    fn a_failed_probe_is_not_written_down_and_a_built_one_is() {
        let dir = tempfile::tempdir().unwrap();
        let said = |p: Probed| p.map_err(|e| e.to_string());
        let failed = remembered("test-failed-identity", dir.path(), || {
            Err(ProbeFailure::Build("no".into()))
        });
        assert_eq!(said(failed), Err("no".to_string()));
        assert!(!dir.path().join("probes/test-failed-identity").exists());
        // In this process the failure is remembered: no second probe.
        let again = remembered("test-failed-identity", dir.path(), || Ok(()));
        assert_eq!(said(again), Err("no".to_string()));
        assert_eq!(
            said(remembered("test-ok-identity", dir.path(), || Ok(()))),
            Ok(())
        );
        assert!(dir.path().join("probes/test-ok-identity").is_file());
    }
}
