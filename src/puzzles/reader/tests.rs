//! The readers on hand-made bytes: positions, error messages, number
//! parsing, the spacing and plain-text rules, and line splitting.

use super::*;

#[test]
fn tokens_track_lines_and_columns() {
    let mut t = Tokens::new(b"  ab c\n\n  d\r\ne");
    let a = t.next().unwrap();
    assert_eq!((a.bytes, a.pos), (&b"ab"[..], Pos { line: 1, column: 3 }));
    assert_eq!(t.next().unwrap().pos, Pos { line: 1, column: 6 });
    assert_eq!(t.next().unwrap().pos, Pos { line: 3, column: 3 });
    let e = t.next().unwrap();
    assert_eq!((e.bytes, e.pos), (&b"e"[..], Pos { line: 4, column: 1 }));
    assert!(t.next().is_none());
    assert!(t.at_end());
}

#[test]
fn expect_at_end_names_the_position() {
    let mut t = Tokens::new(b"x\n");
    t.next();
    let err = t.expect("the centre digit").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 1: expected the centre digit, found the end of the file"
    );
}

#[test]
fn parse_uint_rejects_huge_and_malformed() {
    let big = "9".repeat(400);
    let tok = Token {
        bytes: big.as_bytes(),
        pos: Pos { line: 1, column: 1 },
    };
    let err = tok.parse_uint(15, false).unwrap_err();
    assert!(err.message().contains("too large"), "{err}");
    assert!(err.message().contains("(400 bytes)"), "{err}");
    let tok = Token {
        bytes: b"-3",
        pos: Pos::default(),
    };
    assert!(tok.parse_uint(15, false).is_err());
    let tok = Token {
        bytes: b"07",
        pos: Pos::default(),
    };
    assert!(tok.parse_uint(15, false).is_err());
    assert_eq!(tok.parse_uint(15, true), Ok(7));
}

#[test]
fn parse_in_names_the_range() {
    let tok = |b: &'static [u8]| Token {
        bytes: b,
        pos: Pos { line: 2, column: 3 },
    };
    assert_eq!(tok(b"4").parse_in(1, 4, "a row"), Ok(4));
    let e = tok(b"5").parse_in(1, 4, "a row").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 3: found \"5\", expected a row from 1 to 4 (this one is too large)"
    );
    let e = tok(b"0").parse_in(1, 4, "a row").unwrap_err();
    assert_eq!(e.message(), "found \"0\", expected a row from 1 to 4");
    assert!(
        tok(b"01")
            .parse_in(0, 4, "a row")
            .unwrap_err()
            .reason
            .contains("leading zeros")
    );
    assert!(tok(b"+1").parse_in(0, 4, "a row").is_err());
    let big = "9".repeat(400);
    let t = Token {
        bytes: big.as_bytes(),
        pos: Pos::default(),
    };
    assert!(
        t.parse_in(0, u64::MAX, "n")
            .unwrap_err()
            .reason
            .contains("too large")
    );
}

#[test]
fn single_spaced_fields_reject_other_spacing() {
    let fields = |b: &'static [u8]| -> Result<Vec<(&[u8], usize)>, FormatError> {
        let line = Line {
            bytes: b,
            number: 7,
        };
        line.single_spaced_fields()
            .map(|f| f.map(|t| (t.bytes, t.pos.column)))
            .collect()
    };
    assert_eq!(
        fields(b"1 22 3").unwrap(),
        vec![(&b"1"[..], 1), (&b"22"[..], 3), (&b"3"[..], 6)]
    );
    assert_eq!(fields(b"").unwrap(), vec![]);
    let e = fields(b" 1").unwrap_err();
    assert_eq!(
        (e.pos, e.reason.as_str()),
        (
            Some(Pos { line: 7, column: 1 }),
            "the line starts with white space"
        )
    );
    let e = fields(b"1 ").unwrap_err();
    assert_eq!(
        (e.pos.unwrap().column, e.reason.as_str()),
        (2, "the line ends with a space")
    );
    let e = fields(b"1  2").unwrap_err();
    assert_eq!(e.pos.unwrap().column, 3);
    assert!(e.reason.contains("found two"), "{e}");
    let e = fields(b"1\t2").unwrap_err();
    assert_eq!(e.pos.unwrap().column, 2);
}

#[test]
fn quote_escapes_and_cuts() {
    assert_eq!(quote(b"a\"b\xff\r"), "\"a\\\"b\\xff\\r\"");
    let long = quote(&[b'x'; 30]);
    assert!(long.ends_with("\"… (30 bytes)"), "{long}");
}

#[test]
fn plain_text_rules() {
    assert!(check_plain_text(b"1 2\n0\n").is_ok());
    assert!(check_plain_text(b"").is_ok());
    let e = check_plain_text(b"1 2\r\n").unwrap_err();
    assert_eq!(e.pos, Some(Pos { line: 1, column: 4 }));
    let e = check_plain_text(b"1\n2").unwrap_err();
    assert!(e.reason.contains("no newline"), "{e}");
    let e = check_plain_text(b"1\n\xff\n").unwrap_err();
    assert!(e.reason.contains("not valid UTF-8"), "{e}");
    let e = check_plain_text("1\né\n".as_bytes()).unwrap_err();
    assert!(e.reason.contains("non-ASCII"), "{e}");
    let e = check_plain_text(b"\xef\xbb\xbf1\n").unwrap_err();
    assert!(e.reason.contains("byte-order mark"), "{e}");
    let e = check_plain_text(b"1\0\n").unwrap_err();
    assert!(e.reason.contains("control byte 0x00"), "{e}");
}

#[test]
fn lines_split_like_a_text_editor() {
    let got: Vec<_> = lines(b"a\n\nb\n").map(|l| (l.number, l.bytes)).collect();
    assert_eq!(got, vec![(1, &b"a"[..]), (2, &b""[..]), (3, &b"b"[..])]);
    assert_eq!(lines(b"").count(), 0);
    assert_eq!(lines(b"x").count(), 1);
    let line = lines(b"  1\t 22\n").next().unwrap();
    let toks: Vec<_> = line.tokens().map(|t| (t.bytes, t.pos.column)).collect();
    assert_eq!(toks, vec![(&b"1"[..], 3), (&b"22"[..], 6)]);
}
