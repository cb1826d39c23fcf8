//! Words and numbers as every message and report writes them, in one place
//! so they cannot drift apart.

use std::time::Duration;

/// The plural ending of a count: `format!("{n} case{}", plural(n))`.
/// How many terminal columns a text takes (a wide character two, a
/// combining mark none), not how many characters it has.
pub fn columns(text: &str) -> usize {
    console::measure_text_width(text)
}

/// `text` padded with spaces on the right to `width` terminal columns
/// ([`columns`]); a longer text as it is. `format!("{:<w$}")` pads by
/// characters, which misaligns a table holding wide characters.
pub fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_string();
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(columns(text)),
    ));
    out
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A duration in milliseconds, rounded to the microsecond (reports keep
/// three decimals: `cpu_ms: 12.345`).
pub fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// A share as a whole percentage, for messages ("87%"); 0 of 0 is 0%.
pub fn percent(part: f64, whole: f64) -> String {
    if whole <= 0.0 {
        return "0%".to_string();
    }
    format!("{:.0}%", part / whole * 100.0)
}

/// A number as reports write it: an integer without decimals, else up to
/// six significant decimals.
pub fn number(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if (x - x.round()).abs() < 1e-9 {
        return format!("{}", x.round() as i64);
    }
    let text = format!("{x:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A score out of its maximum (`70/100`, or with `sep` ` / `), or the
/// score alone when unbounded.
pub fn out_of(score: f64, max: Option<f64>, sep: &str) -> String {
    match max {
        Some(max) => format!("{}{sep}{}", number(score), number(max)),
        None => number(score),
    }
}

/// A key no version of a file's format has, as every reader says it:
/// ``unknown key `time_limt` (did you mean `time_limit`?)``, the
/// suggestion the nearest of `known` by Jaro-Winkler when it is close
/// (≥ 0.8, as clap suggests flags), else nothing. Distinct from a known
/// key the judge does not act on, which each reader names in its own
/// words ("not acted on").
pub fn unknown_key(key: &str, known: &[&str]) -> String {
    let pairs: Vec<(&str, String)> = known.iter().map(|k| (*k, k.to_string())).collect();
    unknown_key_among(key, &pairs)
}

/// [`unknown_key`] where a candidate is compared by one name and shown by
/// another: a top-level `time_limt` is compared with `time_limit` and
/// answered with where that key lives, `limits.time_limit`.
pub fn unknown_key_among(key: &str, known: &[(&str, String)]) -> String {
    let best = known
        .iter()
        .map(|(compared, shown)| (strsim::jaro_winkler(key, compared), shown))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, near)) => format!("unknown key `{key}` (did you mean `{near}`?)"),
        None => format!("unknown key `{key}`"),
    }
}

/// Bytes in lower-case hex: every digest the judge writes as a name.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_counts_terminal_columns_not_characters() {
        // 漢字 is two characters in four columns; é with a combining mark
        // is two characters in one.
        assert_eq!(pad("漢字", 6), "漢字  ");
        assert_eq!(pad("e\u{301}", 3), "e\u{301}  ");
        assert_eq!(pad("abc", 6), "abc   ");
        assert_eq!(pad("abcdefg", 3), "abcdefg");
        let rows = ["a.py", "漢字.py", "e\u{301}.py"].map(|n| format!("{}|", pad(n, 8)));
        assert!(rows.iter().all(|r| columns(r) == 9), "{rows:?}");
    }

    #[test]
    fn an_unknown_key_is_said_with_the_nearest_known_one() {
        assert_eq!(
            unknown_key("time_limt", &["name", "time_limit", "memory"]),
            "unknown key `time_limt` (did you mean `time_limit`?)"
        );
        assert_eq!(
            unknown_key("zzz", &["name", "time_limit"]),
            "unknown key `zzz`"
        );
    }

    #[test]
    fn words_and_numbers() {
        assert_eq!(plural(1), "");
        assert_eq!(plural(0), "s");
        assert_eq!(plural(2), "s");
        assert_eq!(millis(Duration::from_nanos(12_345_678)), 12.346);
        assert_eq!(millis(Duration::ZERO), 0.0);
        assert_eq!(percent(87.0, 100.0), "87%");
        assert_eq!(percent(1.0, 0.0), "0%");
        assert_eq!(number(30.0), "30");
        assert_eq!(number(2.0 / 3.0), "0.666667");
        assert_eq!(out_of(70.0, Some(100.0), "/"), "70/100");
        assert_eq!(out_of(12.5, None, "/"), "12.5");
    }
}
