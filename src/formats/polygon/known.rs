//! What problem.xml may hold, as Polygon writes it: every element and
//! attribute the judge knows, whether it acts on it or not. Anything else
//! is a warning naming problem.xml's line (never a refusal: a newer
//! Polygon may add things). Known things the judge does not act on
//! (statements, tags, stresses, the checker's and validators' own tests,
//! Windows binaries…) pass quietly; known things that would change how a
//! package is judged and that the judge does not do (`run-count` above 1,
//! points from the checker, an interactor's `<runs>`, properties other
//! than `tests-wellformed`) are warnings naming them.

use super::xml::Element;
use std::path::Path;

/// An element's known attributes and children, by the element's path
/// from the root (`problem/judging/testset`).
struct Shape {
    path: &'static str,
    attrs: &'static [&'static str],
    children: &'static [&'static str],
}

/// A program (`<source>`, `<binary>`, `<copy>`): its path and type.
const PROGRAM: &[&str] = &["path", "type"];

const SHAPES: &[Shape] = &[
    Shape {
        path: "problem",
        attrs: &["revision", "short-name", "url"],
        children: &[
            "names",
            "statements",
            "tutorials",
            "judging",
            "files",
            "assets",
            "properties",
            "stresses",
            "tags",
            "materials",
            "documents",
        ],
    },
    Shape {
        path: "problem/names",
        attrs: &[],
        children: &["name"],
    },
    Shape {
        path: "problem/names/name",
        attrs: &["language", "value"],
        children: &[],
    },
    Shape {
        path: "problem/statements",
        attrs: &[],
        children: &["statement"],
    },
    Shape {
        path: "problem/statements/statement",
        attrs: &["charset", "language", "mathjax", "path", "type"],
        children: &[],
    },
    Shape {
        path: "problem/tutorials",
        attrs: &[],
        children: &["tutorial"],
    },
    Shape {
        path: "problem/tutorials/tutorial",
        attrs: &["charset", "language", "mathjax", "path", "type"],
        children: &[],
    },
    Shape {
        path: "problem/judging",
        attrs: &[
            "cpu-name",
            "cpu-speed",
            "input-file",
            "output-file",
            "run-count",
            "treat-points-from-checker-as-percent",
        ],
        children: &["testset"],
    },
    Shape {
        path: "problem/judging/testset",
        attrs: &["name"],
        children: &[
            "time-limit",
            "memory-limit",
            "test-count",
            "input-path-pattern",
            "output-path-pattern",
            "answer-path-pattern",
            "tests",
            "groups",
            "script",
            "generator",
        ],
    },
    Shape {
        path: "problem/judging/testset/tests",
        attrs: &[],
        children: &["test"],
    },
    Shape {
        path: "problem/judging/testset/tests/test",
        attrs: &[
            "method",
            "cmd",
            "sample",
            "group",
            "points",
            "from-file",
            "description",
            "verdict",
        ],
        children: &[],
    },
    Shape {
        path: "problem/judging/testset/groups",
        attrs: &[],
        children: &["group"],
    },
    Shape {
        path: "problem/judging/testset/groups/group",
        attrs: &["name", "points", "points-policy", "feedback-policy"],
        children: &["dependencies"],
    },
    Shape {
        path: "problem/judging/testset/groups/group/dependencies",
        attrs: &[],
        children: &["dependency"],
    },
    Shape {
        path: "problem/judging/testset/groups/group/dependencies/dependency",
        attrs: &["group"],
        children: &[],
    },
    Shape {
        path: "problem/judging/testset/generator",
        attrs: &[],
        children: &["script"],
    },
    Shape {
        path: "problem/files",
        attrs: &[],
        children: &["resources", "attachments", "executables"],
    },
    Shape {
        path: "problem/files/resources",
        attrs: &[],
        children: &["file"],
    },
    Shape {
        path: "problem/files/resources/file",
        attrs: &["path", "type", "for-types", "main"],
        children: &["assets"],
    },
    Shape {
        path: "problem/files/attachments",
        attrs: &[],
        children: &["file"],
    },
    Shape {
        path: "problem/files/attachments/file",
        attrs: &["path", "type"],
        children: &[],
    },
    Shape {
        path: "problem/files/executables",
        attrs: &[],
        children: &["executable"],
    },
    Shape {
        path: "problem/files/executables/executable",
        attrs: &[],
        children: &["source", "binary"],
    },
    Shape {
        path: "problem/assets",
        attrs: &[],
        children: &["checker", "interactor", "validators", "solutions"],
    },
    Shape {
        path: "problem/assets/checker",
        attrs: &["name", "type"],
        children: &["source", "binary", "copy", "testset"],
    },
    Shape {
        path: "problem/assets/interactor",
        attrs: &[],
        children: &["source", "binary", "runs"],
    },
    Shape {
        path: "problem/assets/validators",
        attrs: &[],
        children: &["validator"],
    },
    Shape {
        path: "problem/assets/validators/validator",
        attrs: &[],
        children: &["source", "binary", "testset"],
    },
    Shape {
        path: "problem/assets/solutions",
        attrs: &[],
        children: &["solution"],
    },
    Shape {
        path: "problem/assets/solutions/solution",
        attrs: &["tag", "note"],
        children: &["source", "binary", "extra-tags"],
    },
    Shape {
        path: "problem/properties",
        attrs: &[],
        children: &["property"],
    },
    Shape {
        path: "problem/properties/property",
        attrs: &["name", "value"],
        children: &[],
    },
    Shape {
        path: "problem/stresses",
        attrs: &[],
        children: &["stress-count", "stress-path-pattern", "list"],
    },
    Shape {
        path: "problem/stresses/list",
        attrs: &[],
        children: &["stress"],
    },
    Shape {
        path: "problem/stresses/list/stress",
        attrs: &["index", "path"],
        children: &[],
    },
    Shape {
        path: "problem/tags",
        attrs: &[],
        children: &["tag"],
    },
    Shape {
        path: "problem/tags/tag",
        attrs: &["value"],
        children: &[],
    },
];

/// Elements whose insides the judge never reads: anything in them passes
/// (statements' resources, the checker's and validators' own tests, an
/// interactor's runs, extra materials, solution extra tags).
const OPAQUE: &[&str] = &[
    "problem/files/resources/file/assets",
    "problem/assets/checker/testset",
    "problem/assets/validators/validator/testset",
    "problem/assets/interactor/runs",
    "problem/assets/solutions/solution/extra-tags",
    "problem/materials",
    "problem/documents",
    "problem/judging/testset/script",
    "problem/judging/testset/generator/script",
];

/// Programs: `<source>`, `<binary>`, `<copy>`, where a shape lists them.
const PROGRAMS: &[&str] = &["source", "binary", "copy"];

/// Warn about every element and attribute of `root` not in Polygon's
/// problem.xml as the judge knows it, and about known things that change
/// judging and that the judge does not do.
pub(super) fn check(file: &Path, root: &Element, warnings: &mut Vec<String>) {
    let before = warnings.len();
    walk(file, root, root.name.clone(), warnings);
    // A file of a million unknown elements is one warning's worth of
    // news, not a million (every later step goes over the warnings).
    let added = warnings.len() - before;
    if added > MAX_WARNINGS {
        warnings.truncate(before + MAX_WARNINGS);
        warnings.push(format!(
            "{}: … and {} more elements or attributes the judge does not know; ignored",
            file.display(),
            added - MAX_WARNINGS
        ));
    }
    if let Some(judging) = root.child("judging")
        && let Some(runs) = judging.attr("run-count")
        && runs.trim() != "1"
    {
        warnings.push(format!(
            "{}:{}: <judging run-count=\"{runs}\">: each test is run once by the judge (Polygon's several runs of a multi-run problem are not done)",
            file.display(),
            judging.line
        ));
    }
    if let Some(runs) = root
        .child("assets")
        .and_then(|a| a.child("interactor"))
        .and_then(|i| i.child("runs"))
    {
        warnings.push(format!(
            "{}:{}: <interactor><runs>: the interactor is run once per test (multi-run interaction is not done)",
            file.display(),
            runs.line
        ));
    }
    for p in root
        .child("properties")
        .into_iter()
        .flat_map(|p| p.all("property"))
    {
        let name = p.attr("name").unwrap_or("");
        if name != "tests-wellformed" {
            warnings.push(format!(
                "{}:{}: <property name=\"{name}\">: not acted on by the judge",
                file.display(),
                p.line
            ));
        }
    }
}

/// The most unknown elements and attributes named one by one.
const MAX_WARNINGS: usize = 20;

fn walk(file: &Path, e: &Element, path: String, warnings: &mut Vec<String>) {
    if OPAQUE.contains(&path.as_str()) {
        return;
    }
    if PROGRAMS.contains(&e.name.as_str()) {
        for (k, _) in &e.attrs {
            if !PROGRAM.contains(&k.as_str()) {
                unknown_attr(file, e, k, warnings);
            }
        }
        return;
    }
    let Some(shape) = SHAPES.iter().find(|s| s.path == path) else {
        return;
    };
    for (k, _) in &e.attrs {
        if !shape.attrs.contains(&k.as_str()) {
            unknown_attr(file, e, k, warnings);
        }
    }
    for c in &e.children {
        if shape.children.contains(&c.name.as_str()) {
            walk(file, c, format!("{path}/{}", c.name), warnings);
        } else {
            unknown_element(file, c, warnings);
        }
    }
}

fn unknown_element(file: &Path, e: &Element, warnings: &mut Vec<String>) {
    warnings.push(format!(
        "{}:{}: <{}>: not an element of Polygon's problem.xml the judge knows; ignored",
        file.display(),
        e.line,
        e.name
    ));
}

fn unknown_attr(file: &Path, e: &Element, attr: &str, warnings: &mut Vec<String>) {
    warnings.push(format!(
        "{}:{}: <{} {attr}=…>: not an attribute the judge knows; ignored",
        file.display(),
        e.line,
        e.name
    ));
}
