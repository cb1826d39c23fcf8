use super::*;

fn plan(text: &str) -> Result<GenPlan, GenError> {
    let yaml: Yaml = serde_norway::from_str(text).unwrap();
    parse::parse(
        Path::new("p"),
        Path::new("generators"),
        Path::new("generators.yaml"),
        Some(text),
        &yaml,
    )
}

/// The one entry a plan leaves out (the rest of the file is read).
fn skipped(text: &str) -> GenError {
    let p = plan(text).unwrap();
    assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
    p.skipped[0].clone()
}

fn paths(p: &GenPlan) -> Vec<String> {
    p.cases
        .iter()
        .map(|c| c.path.display().to_string())
        .collect()
}

#[test]
fn seeds_are_the_low_bits_of_sha512() {
    // int(sha512(b"gen.py 5").hexdigest(), 16) % 2**31, by Python's hashlib.
    assert_eq!(seed("", 1, "  gen.py 5 "), 728_195_704);
    assert_eq!(seed("salt", 1, "gen.py 5"), 1_324_988_675);
    // A count value other than 1 adds `:VALUE-1` before the command.
    assert_eq!(seed("", 5, "gen.py {seed} 5"), 1_893_432_083);
}

#[test]
fn names_counts_lists_and_order() {
    let p = plan(
        "solution: /submissions/accepted/sol.py\ndata:\n  secret:\n    data:\n      - small: gen.py {seed} 10\n      - big:\n          generate: gen.py {seed} {count}\n          count: 3\n      - '': {in: \"5\"}\n  sample:\n    data:\n      b: {copy: manual/b}\n      a: {in: '1', ans: '1'}\n",
    )
    .unwrap();
    assert_eq!(
        paths(&p),
        [
            "sample/a",
            "sample/b",
            "secret/1-small",
            "secret/2-big-1",
            "secret/3-big-2",
            "secret/4-big-3",
            "secret/5"
        ]
    );
    let CaseSource::Generate { args, seed: s, .. } = &p.cases[4].source else {
        panic!()
    };
    assert_eq!(args[1], "2", "{{count}} of the second copy");
    assert_eq!(*s, seed("", 2, "gen.py {seed} 2"));
    assert_eq!(args[0], s.to_string());
    assert_eq!(p.cases[0].inline["ans"], "1\n");
    assert_eq!(
        p.cases[0].solution,
        Some(PathBuf::from("submissions/accepted/sol.py"))
    );
    assert!(!p.needs_default_solution);
}

#[test]
fn count_lists_and_ranges_name_and_seed_by_their_values() {
    let p = plan(
        "data:\n  secret:\n    data:\n      l:\n        generate: g.py {seed} {count}\n        count: [5, 10]\n      r:\n        generate: g.py {count}\n        count: 9..=10\n      t:\n        generate: g.py {seed}\n        count: 10\n",
    )
    .unwrap();
    let names = paths(&p);
    assert_eq!(
        &names[..4],
        ["secret/l-5", "secret/l-10", "secret/r-09", "secret/r-10"]
    );
    assert_eq!(names[4], "secret/t-01");
    assert_eq!(names[13], "secret/t-10");
    // The seed takes the value, not the position: `:4` for the value 5.
    assert_eq!(p.cases[0].source.seed(), Some(seed("", 5, "g.py {seed} 5")));
    assert!(p.needs_default_solution);
    for bad in [
        "count: 101",
        "count: 0",
        "count: [1, 1]",
        "count: 5..=1",
        "count: x",
    ] {
        let e = plan(&format!(
            "data:\n  secret:\n    data:\n      a:\n        generate: g.py\n        {bad}\n"
        ))
        .unwrap_err();
        assert!(e.to_string().contains("count"), "{bad}: {e}");
        assert_eq!(e.line, Some(6), "{bad}: {e}");
    }
}

#[test]
fn directories_with_retries_or_salt_are_directories() {
    let p = plan(
        "data:\n  secret:\n    retries: 3\n    random_salt: x\n    data:\n      a: g.py {seed}\n",
    )
    .unwrap();
    assert_eq!(paths(&p), ["secret/a"]);
    assert_eq!(p.cases[0].retries, 3);
    assert_eq!(p.cases[0].source.seed(), Some(seed("x", 1, "g.py {seed}")));
}

#[test]
fn commands_are_split_as_a_shell_splits_them() {
    let p = plan("data:\n  secret:\n    data:\n      a: g.py 'a b' {name}.txt\n").unwrap();
    let CaseSource::Generate { args, .. } = &p.cases[0].source else {
        panic!()
    };
    assert_eq!(args, &["a b", "testcase.txt"]);
}

#[test]
fn include_puts_earlier_cases_into_a_directory() {
    let p = plan(
        "data:\n  sample:\n    data:\n      - one: {in: '1'}\n      - two: {in: '2'}\n  secret:\n    include: [sample, lone]\n    data:\n      group:\n        data:\n          lone: {in: '3'}\n",
    )
    .unwrap();
    let included: Vec<(String, String)> = p
        .includes
        .iter()
        .map(|i| (i.path.display().to_string(), i.from.display().to_string()))
        .collect();
    assert_eq!(
        included,
        [
            ("secret/1-one".to_string(), "sample/1-one".to_string()),
            ("secret/2-two".to_string(), "sample/2-two".to_string()),
            ("secret/lone".to_string(), "secret/group/lone".to_string()),
        ]
    );
    let e = plan("data:\n  sample:\n    data:\n      a: {in: '1'}\n  secret:\n    include:\n      - nothing\n")
        .unwrap_err();
    assert_eq!(e.line, Some(7), "{e}");
    assert!(
        e.to_string()
            .contains("data/secret: include \"nothing\": no case or group before this"),
        "{e}"
    );
    let e = plan("data:\n  sample:\n    data:\n      a:\n        generate: g.py\n        count: 2\n  secret:\n    include: [a]\n")
        .unwrap_err();
    assert!(e.to_string().contains("the key is there 2 times"), "{e}");
}

#[test]
fn builtin_puzzle_commands_are_recognized() {
    let p = plan(
        "data:\n  secret:\n    data:\n      a: judge gen rotation --length 5 --seed {seed}\n      b: judge gen rotation --length 3..4 --count 2\n",
    )
    .unwrap();
    let CaseSource::Builtin {
        builtin, seed: s, ..
    } = &p.cases[0].source
    else {
        panic!("{:?}", p.cases[0].source)
    };
    assert_eq!(builtin.puzzle, "rotation");
    assert_eq!(builtin.seed, Some(u64::from(*s)));
    let CaseSource::Builtin {
        builtin, seed: s, ..
    } = &p.cases[1].source
    else {
        panic!()
    };
    assert_eq!((builtin.count, builtin.seed), (2, None));
    assert_eq!(builtin.spec(*s).seed, u64::from(*s));
    let e = skipped("data:\n  secret:\n    data:\n      a: judge gen chess --length 5\n");
    assert!(e.to_string().contains("unknown puzzle"), "{e}");
    let e = skipped("data:\n  secret:\n    data:\n      a: judge gen rotation --lenght 5\n");
    assert!(e.to_string().contains("unknown option \"--lenght\""), "{e}");
}

#[test]
fn unknown_keys_are_warnings_and_bad_shapes_errors_naming_them() {
    // An unknown key is said (file, line, entry, key) and the rest read,
    // as BAPCtools reads it.
    let p = plan(
        "data:\n  secret:\n    data:\n      a:\n        generate: g.py\n        sede: 3\n    lots: 1\nunknown_key:\n",
    )
    .unwrap();
    assert_eq!(paths(&p), ["secret/a"]);
    assert!(
        p.warnings.iter().any(|w| w
            .starts_with("generators.yaml:6: data/secret/a: unknown case key \"sede\", ignored")),
        "{:?}",
        p.warnings
    );
    assert!(
        p.warnings.iter().any(|w| w.starts_with(
            "generators.yaml:7: data/secret: unknown directory key \"lots\", ignored"
        )),
        "{:?}",
        p.warnings
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.starts_with("generators.yaml:8: unknown file key \"unknown_key\", ignored")),
        "{:?}",
        p.warnings
    );
    // What is wrong with one case leaves it out, named with its line;
    // the rest is read (BAPCtools: "Rule contained errors. SKIPPED.").
    let e = skipped("data:\n  secret:\n    data:\n      a: g.py {seed} {seed:2}\n      b: g.py\n");
    assert!(
        e.to_string().contains("{seed} may appear at most once"),
        "{e}"
    );
    assert_eq!(e.line, Some(4), "{e}");
    let e = plan("data:\n  secret:\n    solution: sol.py\n").unwrap_err();
    assert!(
        e.to_string()
            .contains("must be a path from the problem root"),
        "{e}"
    );
    // BAPCtools reads only directories at the top of data: a case there
    // is warned ("unknown key") and not made.
    let p = plan("data:\n  a: g.py\n").unwrap();
    assert!(p.cases.is_empty() && p.skipped.is_empty());
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("generators.yaml:2: data/a: a case at the top of data:")),
        "{:?}",
        p.warnings
    );
    let e = skipped("data:\n  secret:\n    data:\n      a: /bin/gen {seed}\n");
    assert!(
        e.to_string().contains("must be relative to generators/"),
        "{e}"
    );
    let e = skipped("data:\n  secret:\n    data:\n      a: g.py 'open\n");
    assert!(e.to_string().contains("no closing quotation"), "{e}");
}

#[test]
fn old_forms_are_read_as_bapctools_read_them() {
    // An empty entry: the hand-made case whose files are in data/; a
    // command that is a `.in` path: copy; `input:`: the command; the
    // old markers and keys: read past. Each said, with its line.
    let p = plan(
        "data:\n  sample:\n    type: directory\n    data:\n      - one:\n      - two: manual/two.in\n  secret:\n    visualizer: /vis.py\n    data:\n      three:\n        type: testcase\n        input: g.py {seed}\n",
    )
    .unwrap();
    assert_eq!(paths(&p), ["sample/1-one", "sample/2-two", "secret/three"]);
    assert_eq!(p.cases[0].source, CaseSource::Manual);
    assert_eq!(
        p.cases[1].source,
        CaseSource::Copy(PathBuf::from("generators/manual/two"))
    );
    assert_eq!(p.cases[2].source.command(), Some("g.py {seed}"));
    assert_eq!(p.cases[2].source.seed(), Some(seed("", 1, "g.py {seed}")));
    assert!(p.skipped.is_empty(), "{:?}", p.skipped);
    for (line, said) in [
        (3, "data/sample: type: directory: BAPCtools' old marker"),
        (
            5,
            "data/sample/one: an empty entry, BAPCtools' old form of a hand-made case",
        ),
        (
            6,
            "data/sample/two: manual/two.in: the old form of copy: manual/two",
        ),
        (8, "data/secret: visualizer: BAPCtools' old visualizer key"),
        (
            11,
            "data/secret/three: type: testcase: BAPCtools' old marker",
        ),
        (12, "data/secret/three: input: the old name of generate:"),
    ] {
        let want = format!("generators.yaml:{line}: {said}");
        assert!(
            p.warnings.iter().any(|w| w.starts_with(&want)),
            "{want}\n{:#?}",
            p.warnings
        );
    }
    // Wrong kinds of inherited values are warned and the one above kept.
    let p = plan(
        "random_salt: a\ndata:\n  secret:\n    random_salt: 5\n    retries: -1\n    solution: [x]\n    data:\n      a: g.py {seed}\n",
    )
    .unwrap();
    assert_eq!(p.cases[0].source.seed(), Some(seed("a", 1, "g.py {seed}")));
    assert_eq!(p.cases[0].retries, 1);
    assert!(p.cases[0].default_solution);
    assert_eq!(p.warnings.len(), 3, "{:#?}", p.warnings);
    // An entry left out keeps its number: the next case is still 3.
    let p = plan(
        "data:\n  secret:\n    data:\n      - a: g.py\n      - b: {generate: 7}\n      - c: g.py 2\n",
    )
    .unwrap();
    assert_eq!(paths(&p), ["secret/1-a", "secret/3-c"]);
    assert_eq!(p.skipped.len(), 1);
    assert_eq!(p.skipped[0].line, Some(5), "{}", p.skipped[0]);
}
