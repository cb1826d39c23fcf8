//! Words and numbers as every message and report writes them, in one place
//! so they cannot drift apart.

use std::time::Duration;

/// The plural ending of a count: `format!("{n} case{}", plural(n))`.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_numbers() {
        assert_eq!(plural(1), "");
        assert_eq!(plural(0), "s");
        assert_eq!(plural(2), "s");
        assert_eq!(millis(Duration::from_nanos(12_345_678)), 12.346);
        assert_eq!(millis(Duration::ZERO), 0.0);
        assert_eq!(percent(87.0, 100.0), "87%");
        assert_eq!(percent(1.0, 0.0), "0%");
    }
}
