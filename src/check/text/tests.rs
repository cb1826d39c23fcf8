use super::*;
use Verdict::*;

fn check(exp: &str, found: &str, mode: TextMode, strict: bool) -> (Verdict, String) {
    let f = compare(exp.as_bytes(), found.as_bytes(), mode, strict);
    (f.verdict, f.message)
}

#[test]
fn a_byte_order_mark_is_skipped_and_named_where_it_matters() {
    let float = TextMode::Tokens(FloatTolerance::new(Some(1e-6), None));
    for mode in [TextMode::Tokens(None), float, TextMode::Lines] {
        assert_eq!(
            check("3\n", "\u{feff}3\n", mode, false).0,
            Accepted,
            "{mode:?}"
        );
        assert_eq!(
            check("\u{feff}3\n", "3\n", mode, false).0,
            Accepted,
            "{mode:?}"
        );
        assert_eq!(check("\u{feff}3\n", "\u{feff}3\n", mode, false).0, Accepted);
    }
    assert_eq!(
        check("0.5\n", "\u{feff}0.5000001\n", float, false).0,
        Accepted
    );
    let (v, m) = check("3\n", "\u{feff}3\n", TextMode::Exact, false);
    assert_eq!(v, PresentationError);
    assert_eq!(
        m,
        "the output starts with a UTF-8 byte order mark (EF BB BF); the answer does not"
    );
    let (v, m) = check("\u{feff}3\n", "3\n", TextMode::Exact, false);
    assert_eq!(v, PresentationError);
    assert!(m.starts_with("the answer starts with"), "{m}");
    assert_eq!(
        check("\u{feff}3\n", "\u{feff}3\n", TextMode::Exact, false).0,
        Accepted
    );
    assert_eq!(
        check("3\n", "\u{feff}4\n", TextMode::Exact, false).0,
        WrongAnswer
    );
}

#[test]
fn exact_mode() {
    assert_eq!(check("1 2\n", "1 2\n", TextMode::Exact, false).0, Accepted);
    let (v, m) = check("1 2\n", "1  2\n", TextMode::Exact, false);
    assert_eq!(v, PresentationError);
    assert_eq!(
        m,
        "white space differs on line 1: expected \"1·2\", found \"1··2\""
    );
    let (v, m) = check("1 2\n", "1 3\n", TextMode::Exact, false);
    assert_eq!(v, WrongAnswer);
    assert_eq!(m, "output line 1, token 2: expected \"2\", found \"3\"");
}

#[test]
fn lines_mode_ignores_trailing_space_and_final_newline() {
    assert_eq!(
        check("a b\nc\n", "a b  \nc", TextMode::Lines, false).0,
        Accepted
    );
    assert_eq!(
        check("a b\nc\n", "a b\nc\n\n\n", TextMode::Lines, false).0,
        Accepted
    );
    assert_eq!(
        check("a b\nc\n", "a  b\nc\n", TextMode::Lines, false).0,
        PresentationError
    );
    assert_eq!(
        check("a b\nc\n", "a b\n\nc\n", TextMode::Lines, false).0,
        PresentationError
    );
    let (v, m) = check("a b\nc\n", "a b \nc\n", TextMode::Lines, true);
    assert_eq!(v, PresentationError);
    assert_eq!(
        m,
        "white space differs on line 1: expected \"a·b\", found \"a·b·\""
    );
    let (v, m) = check("a b\nc\n", "a b\nc", TextMode::Lines, true);
    assert_eq!(v, PresentationError);
    assert_eq!(
        m,
        "white space differs on line 2: expected \"c\", found \"c⏎\""
    );
}

/// Folded case: a case-only difference passes, and a real one is
/// quoted as written, not lower-cased.
#[test]
fn folded_tokens_quote_the_text_as_written() {
    let ok = compare_folding(
        Text::Bytes(b"Hello World!\n"),
        Text::Bytes(b"hello WORLD!\n"),
        TextMode::Tokens(None),
        false,
        true,
    );
    assert_eq!(ok.verdict, Verdict::Accepted);
    let wa = compare_folding(
        Text::Bytes(b"Hello World!\n"),
        Text::Bytes(b"hello World?\n"),
        TextMode::Tokens(None),
        false,
        true,
    );
    assert_eq!(wa.verdict, Verdict::WrongAnswer);
    assert!(
        wa.message.contains("expected \"World!\", found \"World?\""),
        "{}",
        wa.message
    );
    let strict = compare(b"Hello\n", b"hello\n", TextMode::Tokens(None), false);
    assert_eq!(strict.verdict, Verdict::WrongAnswer);
}

#[test]
fn tokens_mode_lenient_and_strict() {
    let tokens = TextMode::Tokens(None);
    assert_eq!(check("1 2\n3\n", "1\n2 3", tokens, false).0, Accepted);
    assert_eq!(
        check("1 2\n3\n", "1\n2 3", tokens, true).0,
        PresentationError
    );
    assert_eq!(check("1 2\n3\n", "1 2\n3\n", tokens, true).0, Accepted);
    let (v, m) = check("1 2\n3\n", "1 2\n", tokens, false);
    assert_eq!(v, WrongAnswer);
    assert_eq!(
        m,
        "output ends after 2 tokens; expected \"3\" (answer line 2)"
    );
    let (v, m) = check("1\n", "1\n2\n", tokens, false);
    assert_eq!(v, WrongAnswer);
    assert_eq!(m, "extra output at line 2: \"2\" (the answer has 1 token)");
    let (_, m) = check("x\ny z\n", "x\ny w\n", tokens, false);
    assert_eq!(m, "output line 2, token 2: expected \"z\", found \"w\"");
}

#[test]
fn float_tolerance() {
    let tol = TextMode::Tokens(FloatTolerance::new(Some(1e-6), Some(1e-6)));
    assert_eq!(check("1.0000000\n", "1.0000004\n", tol, false).0, Accepted);
    assert_eq!(
        check("1000000\n", "1000000.5\n", tol, false).0,
        Accepted,
        "relative"
    );
    let (v, m) = check("1.0\n", "1.1\n", tol, false);
    assert_eq!(v, WrongAnswer);
    assert!(m.contains("beyond the tolerance"), "{m}");
    assert_eq!(
        check("nan\n", "nan\n", tol, false).0,
        Accepted,
        "equal strings"
    );
    assert_eq!(check("inf\n", "1e400\n", tol, false).0, WrongAnswer);
    assert_eq!(
        check("1.0\n", "1.0000001\n", tol, true).0,
        Accepted,
        "strict: layout only"
    );
    assert_eq!(
        check("1.0\n", "1.0000001\n", TextMode::Tokens(None), false).0,
        WrongAnswer
    );
}

#[test]
fn binary_and_huge_tokens_do_not_panic() {
    let huge = "9".repeat(1 << 20);
    let f = compare(b"1\n", huge.as_bytes(), TextMode::Tokens(None), false);
    assert_eq!(f.verdict, WrongAnswer);
    assert!(f.message.contains("(1048576 bytes)"), "{}", f.message);
    let f = compare(b"1\n", b"\xff\xfe\n", TextMode::Lines, true);
    assert_eq!(f.verdict, WrongAnswer);
    assert!(f.message.contains("\\xff"), "{}", f.message);
}

#[test]
fn long_tokens_are_quoted_where_they_differ() {
    let exp = format!("{}\n", "a".repeat(150));
    let got = format!("{}b\n", "a".repeat(149));
    let (v, m) = check(&exp, &got, TextMode::Tokens(None), false);
    assert_eq!(v, WrongAnswer);
    assert_eq!(
        m,
        "output line 1, token 1: expected …\"aaaaaaaaa\" (150 bytes, the first difference at byte 150), \
         found …\"aaaaaaaab\" (150 bytes, the first difference at byte 150)"
    );
}
