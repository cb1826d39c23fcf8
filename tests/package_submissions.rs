//! Submissions as contest packages hold them: a C++ submission including a
//! header from the package's `include/cpp/`, multi-file C++, Python and
//! Java directories, single-file Java (a class named after its file), and
//! a directory whose main file no rule can pick (named, not run).

mod common;
use common::*;

fn package(s: &Scratch) {
    s.write(
        "p/problem.yaml",
        "name: Plus one\nlimits:\n  time_limit: 4\n",
    );
    s.write("p/data/sample/1.in", "1\n");
    s.write("p/data/sample/1.ans", "2\n");
    s.write("p/data/secret/1.in", "41\n");
    s.write("p/data/secret/1.ans", "42\n");
}

fn verify(s: &Scratch) -> Ran {
    let mut cmd = s.judge();
    cmd.args(["verify", "p"]);
    run(cmd)
}

fn agrees(ran: &Ran, name: &str) -> bool {
    ran.stdout
        .lines()
        .any(|l| l.contains(name) && l.trim_start().starts_with("ok"))
}

#[test]
fn include_and_multi_file_c_and_python() {
    let s = Scratch::new();
    package(&s);
    // include/cpp/plus.h is copied beside every C++ submission.
    s.write(
        "p/include/cpp/plus.h",
        "inline int plus_one(int x) { return x + 1; }\n",
    );
    s.write(
        "p/submissions/accepted/inc.cpp",
        "#include <cstdio>\n#include \"plus.h\"\nint main(){int x; std::scanf(\"%d\",&x); std::printf(\"%d\\n\", plus_one(x));}\n",
    );
    // Two C files compiled together.
    s.write(
        "p/submissions/accepted/two/main.c",
        "#include <stdio.h>\nint inc(int);\nint main(void){int x; scanf(\"%d\",&x); printf(\"%d\\n\", inc(x)); return 0;}\n",
    );
    s.write(
        "p/submissions/accepted/two/inc.c",
        "int inc(int x) { return x + 1; }\n",
    );
    // Two C++ files and a header.
    s.write("p/submissions/accepted/cpp/inc.h", "int inc(int x);\n");
    s.write(
        "p/submissions/accepted/cpp/main.cpp",
        "#include <iostream>\n#include \"inc.h\"\nint main(){int x; std::cin >> x; std::cout << inc(x) << \"\\n\";}\n",
    );
    s.write(
        "p/submissions/accepted/cpp/inc.cpp",
        "#include \"inc.h\"\nint inc(int x) { return x + 1; }\n",
    );
    // Python importing its second file.
    s.write(
        "p/submissions/accepted/py/sol.py",
        "import helper\nif __name__ == \"__main__\":\n    print(helper.inc(int(input())))\n",
    );
    s.write(
        "p/submissions/accepted/py/helper.py",
        "def inc(x):\n    return x + 1\n",
    );
    // Two C files that both define main: one program, which the linker
    // refuses (CE); a C directory whose main no line shows (a macro): the
    // compiler builds it all the same.
    s.write(
        "p/submissions/compile_error/twice/a.c",
        "int main(void){return 0;}\n",
    );
    s.write(
        "p/submissions/compile_error/twice/b.c",
        "int main(void){return 1;}\n",
    );
    s.write(
        "p/submissions/accepted/macro/x.c",
        "#include <stdio.h>\n#define ENTRY ma##in\nint inc(int);\nint ENTRY(void){int x; scanf(\"%d\",&x); printf(\"%d\\n\", inc(x)); return 0;}\n",
    );
    s.write(
        "p/submissions/accepted/macro/y.c",
        "int inc(int x) { return x + 1; }\n",
    );
    // Two Python files, no entry point: a build that cannot start, CE on
    // every case, named (the spec: the entry point defaults to the
    // languages table's; DOMjudge's multi-file examples expect CE).
    s.write("p/submissions/accepted/lost/a.py", "print(1)\n");
    s.write("p/submissions/accepted/lost/b.py", "print(2)\n");
    let ran = verify(&s);
    let out = format!("{}\n{}", ran.stdout, ran.stderr);
    assert!(agrees(&ran, "accepted/inc.cpp"), "{out}");
    assert!(agrees(&ran, "accepted/two"), "{out}");
    assert!(agrees(&ran, "accepted/cpp"), "{out}");
    assert!(agrees(&ran, "compile_error/twice"), "{out}");
    assert!(agrees(&ran, "accepted/macro"), "{out}");
    if installed("python3") {
        assert!(agrees(&ran, "accepted/py"), "{out}");
    } else {
        println!("not run: python3 is not installed (a multi-file Python submission)");
    }
    assert!(
        out.contains("2 python3 sources and no rule picks the main one (a.py, b.py)"),
        "{out}"
    );
    assert!(
        ran.stdout.contains("FAIL  accepted/lost") && ran.stdout.contains("CE 2"),
        "{out}"
    );
    assert_ne!(
        ran.code, 0,
        "a submission that cannot be built fails verify: {out}"
    );
    // DOMjudge's submissions.json names the entry point: then it runs.
    s.write(
        "p/submissions.json",
        "{\"submissions/accepted/lost/\": {\"entry_point\": \"b.py\"}}\n",
    );
    s.write(
        "p/submissions/accepted/lost/b.py",
        "print(int(input()) + 1)\n",
    );
    if installed("python3") {
        let ran = verify(&s);
        assert!(agrees(&ran, "accepted/lost"), "{}", ran.stdout);
    }
    std::fs::remove_file(s.path().join("p/submissions.json")).unwrap();

    // Without the include directory the C++ submission does not compile.
    std::fs::remove_dir_all(s.path().join("p/include")).unwrap();
    std::fs::remove_dir_all(s.path().join("p/submissions/accepted/lost")).unwrap();
    let ran = verify(&s);
    assert!(
        ran.stdout.contains("accepted/inc.cpp") && ran.stdout.contains("CE"),
        "{}",
        ran.stdout
    );
}

#[test]
fn java_single_file_and_multi_file() {
    if !installed("javac") || !installed("java") {
        println!("not run: javac/java are not installed (Java submissions)");
        return;
    }
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/submissions/accepted/PlusOne.java",
        "import java.util.Scanner;\npublic class PlusOne { public static void main(String[] a) { System.out.println(new Scanner(System.in).nextInt() + 1); } }\n",
    );
    s.write(
        "p/submissions/accepted/multi/Main.java",
        "import java.util.Scanner;\npublic class Main { public static void main(String[] a) { System.out.println(Helper.inc(new Scanner(System.in).nextInt())); } }\n",
    );
    s.write(
        "p/submissions/accepted/multi/Helper.java",
        "public class Helper { static int inc(int x) { return x + 1; } }\n",
    );
    // A heap far past the limit: the JVM's own OutOfMemoryError, a
    // run-time error as Kattis counts it.
    s.write(
        "p/submissions/run_time_error/Hog.java",
        "import java.util.*;\npublic class Hog { public static void main(String[] a) { List<long[]> l = new ArrayList<>(); while (true) l.add(new long[1 << 20]); } }\n",
    );
    // A directory of classes with two mains and no entrypoint, and one
    // with none: the sources make no program, CE (DOMjudge's compile
    // script fails on no main; the spec's entrypoint settles two).
    for (dir, class) in [("two_mains", "A"), ("two_mains", "B"), ("no_main", "C")] {
        let main = if dir == "two_mains" {
            "public static void main(String[] a) { System.out.println(1); }"
        } else {
            "static int f() { return 1; }"
        };
        s.write(
            &format!("p/submissions/compile_error/{dir}/{class}.java"),
            format!("public class {class} {{ {main} }}\n"),
        );
    }
    s.write("p/submissions/compile_error/no_main/D.java", "class D {}\n");
    // A lone class whose only `main` returns a value (DOMjudge's own
    // `mainclass-missing`), as a file and as a one-file directory: its
    // class is known, so it is run, and the JVM refuses it: RE (DOMjudge's
    // current copy of the example is in run_time_error/).
    let int_main = "public class main { int main() { System.out.println(1); return 0; } }\n";
    s.write("p/submissions/run_time_error/main.java", int_main);
    s.write("p/submissions/run_time_error/one/main.java", int_main);
    // Read as Java, not as text: a comment naming a main, a tab before
    // `main`; of two real mains, the one in Main.java.
    s.write(
        "p/submissions/accepted/words/Sol.java",
        "import java.util.Scanner;\npublic class Sol { public static void\tmain(String[] a) { System.out.println(Util.inc(new Scanner(System.in).nextInt())); } }\n",
    );
    s.write(
        "p/submissions/accepted/words/Util.java",
        "/* not the entry: public static void main(String[] a) */\nclass Util { static int inc(int x) { return x + 1; } }\n",
    );
    s.write(
        "p/submissions/accepted/two_named/Main.java",
        "import java.util.Scanner;\npublic class Main { public static void main(String[] a) { System.out.println(new Scanner(System.in).nextInt() + 1); } }\n",
    );
    s.write(
        "p/submissions/accepted/two_named/Debug.java",
        "public class Debug { public static void main(String[] a) { System.out.println(\"debug\"); } }\n",
    );
    s.write(
        "p/problem.yaml",
        "name: Plus one\nlimits:\n  time_limit: 4\n  memory: 256\n",
    );
    let ran = verify(&s);
    let out = format!("{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, 0, "{out}");
    assert!(agrees(&ran, "accepted/PlusOne.java"), "{out}");
    assert!(agrees(&ran, "accepted/multi"), "{out}");
    assert!(agrees(&ran, "run_time_error/Hog.java"), "{out}");
    assert!(agrees(&ran, "compile_error/two_mains"), "{out}");
    assert!(agrees(&ran, "accepted/words"), "{out}");
    assert!(agrees(&ran, "accepted/two_named"), "{out}");
    assert!(agrees(&ran, "compile_error/no_main"), "{out}");
    assert!(agrees(&ran, "run_time_error/main.java"), "{out}");
    assert!(agrees(&ran, "run_time_error/one"), "{out}");
    let mut cmd = s.judge();
    cmd.args(["run", "p", "--format", "json", "--submission"])
        .arg(s.path().join("p/submissions/compile_error/two_mains"));
    let report = run(cmd).json();
    let message = report["cases"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("2 java sources declare a main (A.java, B.java)"),
        "the CE names both: {report:#}"
    );

    // The same as an unprivileged user (RLIMIT_AS is not used for a JVM).
    if is_root() {
        let mut cmd = unprivileged_judge(&s);
        cmd.args(["verify", "p"]);
        let ran = run(cmd);
        let out = format!("{}\n{}", ran.stdout, ran.stderr);
        assert!(agrees(&ran, "accepted/PlusOne.java"), "unprivileged: {out}");
    }
}

/// A directory of sources in a language the judge does not build is named
/// as such (not "no source file"), and `--allow-missing` forgives it as it
/// forgives a single file of such a language; `.mjs` is JavaScript.
#[test]
fn a_directory_in_an_unknown_language_is_a_missing_tool() {
    let s = Scratch::new();
    package(&s);
    s.write(
        "p/submissions/accepted/c.c",
        "#include <stdio.h>\nint main(){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x+1);}\n",
    );
    // V: a language of no CLICS table (awk once served here; the judge
    // knows it now).
    s.write("p/submissions/accepted/vlang/plus.v", "fn main() {}\n");
    s.write("p/submissions/accepted/vlang/notes.txt", "x\n");
    let ran = verify(&s);
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("no language of the judge's builds its files (.txt .v;"),
        "{}",
        ran.stdout
    );
    let mut cmd = s.judge();
    cmd.args(["verify", "p", "--allow-missing"]);
    let forgiven = run(cmd);
    assert_eq!(forgiven.code, 0, "{}\n{}", forgiven.stdout, forgiven.stderr);
    if !installed("node") {
        println!("not run: node is not installed (the .mjs submission)");
        return;
    }
    std::fs::remove_dir_all(s.path().join("p/submissions/accepted/vlang")).unwrap();
    s.write(
        "p/submissions/accepted/plus.mjs",
        "import { readFileSync } from 'fs';\nconsole.log(Number(readFileSync(0, 'utf8').trim()) + 1);\n",
    );
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(agrees(&ran, "accepted/plus.mjs"), "{}", ran.stdout);
}

/// BAPCtools' convention: `X.disabled` and `X.template` are set aside by
/// their author (its `util.glob`), not submissions of no language. They are
/// named in a warning and not run; verify still passes on the rest.
#[test]
fn disabled_and_template_files_are_set_aside_and_named() {
    let s = Scratch::new();
    package(&s);
    s.write("p/submissions/accepted/ok.py", "print(int(input()) + 1)\n");
    s.write(
        "p/submissions/accepted/old.kt.disabled",
        "fun main() { println(readLine()!!.toInt() + 1) }\n",
    );
    s.write("p/submissions/accepted/skel.py.template", "# fill in\n");
    let ran = verify(&s);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert!(agrees(&ran, "accepted/ok.py"), "{}", ran.stdout);
    let all = format!("{}{}", ran.stdout, ran.stderr);
    for name in ["old.kt.disabled", "skel.py.template"] {
        assert!(
            all.contains(&format!("{name}: a `")) && all.contains("set aside by its author"),
            "{name} not named as set aside:\n{all}"
        );
        assert!(
            !ran.stdout.contains(&format!("MISS  accepted/{name}")),
            "{all}"
        );
    }
}
