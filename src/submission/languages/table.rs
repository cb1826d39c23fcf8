//! The built-in languages: every language of the CLICS languages table
//! (the problem package format's appendix), under its code, with its file
//! extensions, the usual compile and run commands (as Kattis' problemtools
//! and DOMjudge's compile scripts run them, written for the judge's
//! placeholders), and the Debian package of its toolchain; then the
//! languages DOMjudge's examples use beyond the table (AWK, R).
//!
//! An extension two languages share goes to the first that names it, as
//! the CLICS table settles it (`.pl` is Prolog, `.m` Objective-C, `.py`
//! Python 3, `.fs` F#); [`super::by_content`] then reads a `.py` or `.pl`
//! file (a `#!…python2` line, Perl code), and the others are chosen by
//! name (`--language octave`, `language: perl` in submissions.yaml).

use super::Language;

/// One row of the table.
struct Row {
    name: &'static str,
    title: &'static str,
    extensions: &'static [&'static str],
    compile: &'static str,
    run: &'static str,
    /// The program checked before a build, when it is not the first word
    /// of the compile command (`sh -c …`, `env …`).
    tool: &'static str,
    /// The Debian 12 package of the toolchain ("" for none).
    package: &'static str,
    /// False where the runtime reserves far more address space than it
    /// uses (a JVM, Mono, GHC's runtime, SBCL, the BEAM).
    address_space: bool,
}

const fn row(
    name: &'static str,
    title: &'static str,
    extensions: &'static [&'static str],
    compile: &'static str,
    run: &'static str,
    package: &'static str,
) -> Row {
    Row {
        name,
        title,
        extensions,
        compile,
        run,
        tool: "",
        package,
        address_space: true,
    }
}

/// Python's syntax check, which writes nothing beside the source.
const PYTHON_CHECK: &str = "{interpreter} -c 'import sys; compile(open(sys.argv[1], \"rb\").read(), sys.argv[1], \"exec\")' {src}";

/// The JVM options of every JVM language (see the module above).
const JAVA_RUN: &str = "java -XX:+UseSerialGC -Xss64m -Xmx{heap_mib}m -cp {dir} {main}";

#[rustfmt::skip]
const ROWS: &[Row] = &[
    row("ada", "Ada", &["adb", "ads"],
        "gnatmake -q -O2 -gnatwn -D {dir} -o {bin} {src}", "{bin}", "gnat"),
    row("algol68", "Algol 68", &["a68"],
        "a68g --check {src}", "a68g --nowarnings {src}", "algol68g"),
    row("apl", "APL", &["apl"], "", "apl --script -f {src}", ""),
    row("bash", "Bash", &["sh", "bash"], "bash -n {src}", "bash {src}", "bash"),
    row("c", "C", &["c"], "gcc -O2 -std=gnu11 -o {bin} {files} -lm", "{bin}", "gcc"),
    row("cgmp", "C with GMP", &[],
        "gcc -O2 -std=gnu11 -o {bin} {files} -lm -lgmp", "{bin}", "libgmp-dev"),
    row("cobol", "COBOL", &["cob", "cbl"], "cobc -x -free -O2 -o {bin} {src}", "{bin}", "gnucobol3"),
    row("cpp", "C++", &["cpp", "cc", "cxx", "c++", "C"],
        "g++ -O2 -std=gnu++17 -o {bin} {files}", "{bin}", "g++"),
    // C++ in a dialect of its own, by name only (a Polygon solution's
    // type, `cpp.g++11` … `cpp.gcc14-64-msys2-g++23`).
    row("cpp11", "C++11", &[], "g++ -O2 -std=gnu++11 -o {bin} {files}", "{bin}", "g++"),
    row("cpp14", "C++14", &[], "g++ -O2 -std=gnu++14 -o {bin} {files}", "{bin}", "g++"),
    row("cpp20", "C++20", &[], "g++ -O2 -std=gnu++20 -o {bin} {files}", "{bin}", "g++"),
    row("cpp23", "C++23", &[], "g++ -O2 -std=gnu++23 -o {bin} {files}", "{bin}", "g++"),
    row("cppgmp", "C++ with GMP", &[],
        "g++ -O2 -std=gnu++17 -o {bin} {files} -lgmpxx -lgmp", "{bin}", "libgmp-dev"),
    Row { tool: "crystal",
        ..row("crystal", "Crystal", &["cr"],
              "env CRYSTAL_CACHE_DIR={dir}/.crystal crystal build --release --no-debug -o {bin} {src}",
              "{bin}", "crystal") },
    Row { address_space: false,
        ..row("csharp", "C#", &["cs"],
              "mcs -out:{bin}.exe -optimize+ -r:System.Numerics {files}", "mono {bin}.exe", "mono-mcs") },
    row("d", "D", &["d"], "gdc -O2 -o {bin} {files}", "{bin}", "gdc"),
    row("dart", "Dart", &["dart"], "dart compile exe -o {bin} {src}", "{bin}", ""),
    Row { address_space: false,
        ..row("elixir", "Elixir", &["ex", "exs"], "", "elixir {src}", "elixir") },
    Row { address_space: false,
        ..row("erlang", "Erlang", &["erl"], "erlc -o {dir} {files}",
              "erl -noshell -pa {dir} -s {main} main -s init stop", "erlang-nox") },
    row("forth", "Forth", &["fth", "4th", "forth", "frt"], "", "gforth {src} -e bye", "gforth"),
    row("fortran", "Fortran", &["f90", "f95", "f03", "f08", "f"],
        "gfortran -O2 -o {bin} {files}", "{bin}", "gfortran"),
    Row { address_space: false,
        ..row("fsharp", "F#", &["fs"],
              "fsharpc --nologo --out:{bin}.exe --optimize+ {files}", "mono {bin}.exe", "") },
    row("gerbil", "Gerbil", &["ss"], "gxc -exe -o {bin} {src}", "{bin}", ""),
    Row { tool: "go",
        ..row("go", "Go", &["go"],
              "env GOCACHE={dir}/.gocache GOPATH={dir}/.gopath CGO_ENABLED=0 GO111MODULE=off go build -o {bin} {files}",
              "{bin}", "golang-go") },
    // GHC's runtime reserves a terabyte of address space; its heap is
    // held to the limit by `-M` instead.
    Row { address_space: false,
        ..row("haskell", "Haskell", &["hs", "lhs"],
              "ghc -O2 -rtsopts -outputdir {dir}/.ghc -o {bin} {files}",
              "{bin} +RTS -M{memory_mib}m -K64m -RTS", "ghc") },
    Row { address_space: false,
        ..row("java", "Java", &["java"], "javac -encoding UTF-8 -d {dir} {files}", JAVA_RUN,
              "default-jdk-headless") },
    Row { address_space: false,
        ..row("javaalgs4", "Java with Algs4", &[],
              "javac -encoding UTF-8 -cp {dir}:/usr/share/java/algs4.jar -d {dir} {files}",
              "java -XX:+UseSerialGC -Xss64m -Xmx{heap_mib}m -cp {dir}:/usr/share/java/algs4.jar {main}",
              "") },
    // `.mjs`: an ES module (DOMjudge's multi-file example uses them);
    // every file's syntax is checked, as DOMjudge checks them all.
    Row { tool: "node",
        ..row("javascript", "JavaScript", &["js", "mjs"],
              "sh -c 'for f do node --check \"$f\" || exit 1; done' node-check {files}",
              "node {src}", "nodejs") },
    Row { address_space: false,
        ..row("julia", "Julia", &["jl"], "", "julia --startup-file=no {src}", "") },
    Row { address_space: false,
        ..row("kotlin", "Kotlin", &["kt"], "kotlinc -d {dir} {files}",
              "kotlin -J-XX:+UseSerialGC -J-Xss64m -J-Xmx{heap_mib}m -cp {dir} {main}", "kotlin") },
    // SBCL reserves its whole dynamic space (gigabytes) up front.
    Row { address_space: false,
        ..row("lisp", "Common Lisp", &["lisp", "cl"],
              "sbcl --noinform --non-interactive --no-sysinit --no-userinit --eval '(if (null (compile-file \"{src}\")) (sb-ext:exit :code 43))'",
              "sbcl --script {dir}/{main}.fasl", "sbcl") },
    row("lua", "Lua", &["lua"], "luac5.4 -p {files}", "lua5.4 {src}", "lua5.4"),
    row("modula2", "Modula-2", &["mod", "def"], "gm2 -O2 -fiso -o {bin} {src}", "{bin}", "gm2"),
    row("nim", "Nim", &["nim"],
        "nim compile --hints:off --verbosity:0 -d:release --nimcache:{dir}/.nimcache -o:{bin} {src}",
        "{bin}", "nim"),
    Row { tool: "gcc",
        ..row("objectivec", "Objective-C", &["m"], "gcc -x objective-c -O2 -o {bin} {files} -lobjc",
              "{bin}", "gobjc") },
    row("ocaml", "OCaml", &["ml"], "ocamlopt -I +unix -I +str -o {bin} unix.cmxa str.cmxa {files}", "{bin}", "ocaml-nox"),
    row("octave", "Octave", &[], "", "octave-cli --no-gui --norc --quiet {src}", "octave"),
    row("odin", "Odin", &["odin"], "odin build {src} -file -o:speed -out:{bin}", "{bin}", ""),
    row("pascal", "Pascal", &["pas", "pp", "p"], "fpc -O2 -o{bin} {src}", "{bin}", "fpc"),
    row("perl", "Perl", &["pm"], "perl -c {src}", "perl {src}", "perl"),
    row("php", "PHP", &["php"], "php -l {src}",
        "php -n -d display_errors=stderr -d html_errors=0 -d memory_limit={memory_mib}M {src}",
        "php-cli"),
    row("prolog", "Prolog", &["pl", "plg"],
        "swipl -O -q -g main -t halt -o {bin} -c {files}", "{bin}", "swi-prolog-nox"),
    Row { ..row("python2", "Python 2", &["py2"], PYTHON_CHECK, "{interpreter} {src}", "") },
    row("python3", "Python 3", &["py", "py3"], PYTHON_CHECK, "{interpreter} {src}", "python3"),
    row("python3numpy", "Python 3 with NumPy", &[], PYTHON_CHECK, "{interpreter} {src}",
        "python3-numpy"),
    row("pypy3", "PyPy 3", &[], PYTHON_CHECK, "{interpreter} {src}", "pypy3"),
    Row { address_space: false,
        ..row("racket", "Racket", &["rkt"], "raco make {src}", "racket {src}", "racket") },
    row("ruby", "Ruby", &["rb"], "ruby -c {src}", "ruby {src}", "ruby"),
    row("rust", "Rust", &["rs"], "rustc -O --edition 2021 -o {bin} {src}", "{bin}", "rustc"),
    Row { address_space: false,
        ..row("scala", "Scala", &["scala", "sc"], "scalac -encoding UTF-8 -d {dir} {files}",
              "scala -J-XX:+UseSerialGC -J-Xss64m -J-Xmx{heap_mib}m -classpath {dir} {main}", "scala") },
    row("simula", "Simula", &["sim"], "cim -o {bin} {src}", "{bin}", ""),
    row("smalltalk", "Smalltalk", &["st"], "", "gst {src}", ""),
    row("snobol", "Snobol", &["sno"], "", "snobol4 -b {src}", ""),
    row("swift", "Swift", &["swift"], "swiftc -O -o {bin} {files}", "{bin}", ""),
    Row { tool: "tsc",
        ..row("typescript", "TypeScript", &["ts"],
              "tsc --outDir {dir} --target es2020 --module commonjs {files}",
              "node {dir}/{main}.js", "node-typescript") },
    Row { address_space: false,
        ..row("visualbasic", "Visual Basic", &["vb"], "vbnc -nologo -out:{bin}.exe {files}",
              "mono {bin}.exe", "") },
    row("zig", "Zig", &["zig"], "zig build-exe -O ReleaseSafe -femit-bin={bin} {src}", "{bin}", ""),
    // Beyond the CLICS table: DOMjudge's examples have these.
    row("awk", "AWK", &["awk"], "", "awk -f {src}", "gawk"),
    // R's check parses the file (DOMjudge's syntax-error example is CE).
    row("r", "R", &["R", "r"], "Rscript -e 'invisible(parse(commandArgs(TRUE)[1]))' {src}",
        "Rscript {src}", "r-base-core"),
];

/// The built-in languages (docs/languages.md).
pub fn builtin_languages() -> Vec<Language> {
    ROWS.iter()
        .map(|r| {
            let python = match r.name {
                "python3" | "python3numpy" => Some("python3"),
                "python2" => Some("python2"),
                "pypy3" => Some("pypy3"),
                _ => None,
            };
            Language {
                name: r.name.to_string(),
                title: r.title.to_string(),
                extensions: r.extensions.iter().map(|e| e.to_string()).collect(),
                compile: (!r.compile.is_empty()).then(|| r.compile.to_string()),
                run: r.run.to_string(),
                interpreter: python.map(python_interpreter),
                address_space: r.address_space,
                tool: (!r.tool.is_empty()).then(|| r.tool.to_string()),
                package: (!r.package.is_empty()).then(|| r.package.to_string()),
            }
        })
        .collect()
}

/// What Python's interpreter command prints: its real executable, so that
/// a run in the scrubbed environment of a submission does not depend on
/// pyenv shims and the judge's `HOME`.
fn python_interpreter(command: &str) -> String {
    format!("{command} -c 'import sys; print(sys.executable)'")
}
