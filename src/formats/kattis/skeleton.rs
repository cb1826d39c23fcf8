//! A new problem as `judge new` writes it: a Kattis 2025-09 package that
//! `judge verify` passes at once. Its files are the templates in
//! `skeleton/` (Python 3 programs: a setter edits them into their
//! problem), filled in with the problem's name and a fresh UUID:
//!
//! - `problem.yaml` (2025-09, `limits.time_limit: 1.0`; `type: interactive`
//!   with `--interactive`) and `statement/problem.en.tex` (LaTeX, which
//!   every version of the format and every tool reads; Markdown is
//!   2023-07 and later only);
//! - `generators/generators.yaml` (BAPCtools' format): the sample inline,
//!   ten secret cases from `generators/random.py` with their seeds, the
//!   answers from the accepted submission;
//! - `input_validators/validate.py` (exit 42 valid, 43 not);
//! - `submissions/accepted/solution.py` and `submissions/wrong_answer/xor.py`
//!   (right on the sample, wrong on the secret cases);
//! - with `--checker`, `output_validator/checker.py` (a custom checker);
//!   with `--interactive`, `output_validator/interactor.py`.
//!
//! The problem is A + B, the smallest that shows every part.

use super::super::tree::Tree;

/// Which kind of problem the skeleton is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Outputs compared with the answers by the default validator.
    Standard,
    /// Outputs judged by a custom output validator (a checker).
    Checker,
    /// The submission talks to an interactor.
    Interactive,
}

const PROBLEM_YAML: &str = include_str!("skeleton/problem.yaml");
const STATEMENT: &str = include_str!("skeleton/problem.en.tex");
const GENERATORS_YAML: &str = include_str!("skeleton/generators.yaml");
const GENERATOR: &str = include_str!("skeleton/random.py");
const VALIDATOR: &str = include_str!("skeleton/validate.py");
const SOLUTION: &str = include_str!("skeleton/solution.py");
const WRONG: &str = include_str!("skeleton/xor.py");
const CHECKER: &str = include_str!("skeleton/checker.py");
const INTERACTOR: &str = include_str!("skeleton/interactor.py");
const INTERACTIVE_SOLUTION: &str = include_str!("skeleton/interactive_solution.py");
const INTERACTIVE_WRONG: &str = include_str!("skeleton/interactive_xor.py");

/// The files of a new problem titled `title`, with `uuid` in its
/// problem.yaml.
pub fn skeleton(title: &str, uuid: &str, kind: Kind) -> Tree {
    let interactive = kind == Kind::Interactive;
    let mut tree = Tree::default();
    // A JSON string is a YAML double-quoted scalar: any title is safe.
    let name = serde_json::to_string(title).unwrap_or_else(|_| "\"problem\"".to_string());
    tree.put(
        super::PROBLEM_YAML,
        fill(
            PROBLEM_YAML,
            &[
                ("name", &name),
                ("uuid", uuid),
                (
                    "type",
                    if interactive {
                        "type: interactive\n"
                    } else {
                        ""
                    },
                ),
            ],
        ),
    );
    tree.put("statement/problem.en.tex", statement(title, interactive));
    let sample_answer = if interactive {
        ""
    } else {
        "          ans: \"3\\n\"\n"
    };
    tree.put(
        "generators/generators.yaml",
        fill(GENERATORS_YAML, &[("sample_answer", sample_answer)]),
    );
    tree.put("generators/random.py", GENERATOR);
    tree.put("input_validators/validate.py", VALIDATOR);
    let (solution, wrong) = if interactive {
        (INTERACTIVE_SOLUTION, INTERACTIVE_WRONG)
    } else {
        (SOLUTION, WRONG)
    };
    tree.put("submissions/accepted/solution.py", solution);
    tree.put("submissions/wrong_answer/xor.py", wrong);
    match kind {
        Kind::Standard => {}
        Kind::Checker => tree.put("output_validator/checker.py", CHECKER),
        Kind::Interactive => tree.put("output_validator/interactor.py", INTERACTOR),
    }
    tree
}

fn statement(title: &str, interactive: bool) -> String {
    let bounds = "two integers $a$ and $b$ ($0 \\le a, b \\le 10^9$)";
    let (input, output) = if interactive {
        (
            format!("The interactor sends one line with {bounds}."),
            "Print $a + b$ on one line, and flush the output.".to_string(),
        )
    } else {
        (
            format!("One line with {bounds}."),
            "One line with $a + b$.".to_string(),
        )
    };
    fill(
        STATEMENT,
        &[
            ("title", &latex_escaped(title)),
            ("input", &input),
            ("output", &output),
        ],
    )
}

/// `text` as LaTeX prints it: its special characters escaped.
fn latex_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `template` with each `{{key}}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_string(), |text, (key, value)| {
            text.replace(&format!("{{{{{key}}}}}"), value)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(tree: &Tree, rel: &str) -> String {
        match tree.files.get(std::path::Path::new(rel)) {
            Some(super::super::super::tree::Content::Bytes(b)) => {
                String::from_utf8(b.clone()).unwrap()
            }
            _ => panic!("{rel} not in the tree"),
        }
    }

    #[test]
    fn every_placeholder_is_filled_and_the_title_is_quoted() {
        for kind in [Kind::Standard, Kind::Checker, Kind::Interactive] {
            let tree = skeleton("A \"plus\": B", "0-1", kind);
            for path in tree.files.keys() {
                let t = text(&tree, &path.to_string_lossy());
                assert!(!t.contains("{{"), "{}: {t}", path.display());
            }
            let yaml = text(&tree, "problem.yaml");
            assert!(yaml.contains("name: \"A \\\"plus\\\": B\"\n"), "{yaml}");
            let parsed: serde_norway::Value = serde_norway::from_str(&yaml).unwrap();
            assert_eq!(parsed["name"].as_str(), Some("A \"plus\": B"));
            assert_eq!(
                parsed.get("type").and_then(|t| t.as_str()),
                (kind == Kind::Interactive).then_some("interactive")
            );
        }
    }

    #[test]
    fn the_title_is_escaped_for_latex() {
        assert_eq!(
            latex_escaped("A & B: 100% {x}_1"),
            "A \\& B: 100\\% \\{x\\}\\_1"
        );
        let tree = skeleton("50% off", "u", Kind::Standard);
        assert!(text(&tree, "statement/problem.en.tex").starts_with("\\problemname{50\\% off}\n"));
    }

    #[test]
    fn the_checker_and_the_interactor_come_with_their_flag() {
        let has = |kind, rel: &str| skeleton("p", "u", kind).has_under(std::path::Path::new(rel));
        assert!(!has(Kind::Standard, "output_validator"));
        assert!(has(Kind::Checker, "output_validator/checker.py"));
        assert!(has(Kind::Interactive, "output_validator/interactor.py"));
        let interactive = skeleton("p", "u", Kind::Interactive);
        assert!(!text(&interactive, "generators/generators.yaml").contains("ans:"));
        assert!(text(&interactive, "submissions/accepted/solution.py").contains("flush=True"));
    }
}
