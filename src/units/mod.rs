//! Durations (`1.5s`, `500ms`, `2m`) and sizes (`256MiB`, `64MB`, `4096B`)
//! as judge.toml and the command line write them.
//!
//! A bare number is refused on purpose: `time_limit = 2` could mean seconds
//! or milliseconds, and a judge must not guess.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::time::Duration;

/// A duration written with a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span(pub Duration);

/// A byte count written with a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Size(pub u64);

/// A duration, size, process count or tolerance that cannot be read; the
/// text as written is kept for the message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    #[error("{0:?} is not a duration: expected a duration such as 1.5s, 500ms or 2m")]
    NotADuration(String),
    #[error("{0:?} has no unit: expected a duration such as 1.5s, 500ms or 2m")]
    DurationWithoutUnit(String),
    #[error("{0:?} is too long (at most 24 hours)")]
    TooLong(String),
    #[error("{0:?} is too short (at least 1ms)")]
    TooShort(String),
    #[error("{0:?} is not a size: expected a size such as 256MiB, 64MB, 512KiB or 1GiB")]
    NotASize(String),
    #[error("{0:?} has no unit: expected a size such as 256MiB, 64MB, 512KiB or 1GiB")]
    SizeWithoutUnit(String),
    #[error("{0:?} is too large (at most 1PiB)")]
    TooLarge(String),
    #[error("{0:?} is too small for a memory limit (at least 1MiB: no program starts in less)")]
    MemoryTooSmall(String),
    #[error("0 processes: at least 1 (the program itself)")]
    NoProcesses,
    #[error("{0:?} is not a whole number of processes")]
    NotAProcessCount(String),
    #[error("{0:?} is not a number (a float tolerance such as 1e-6)")]
    NotATolerance(String),
    /// The value as a number, written as Rust writes it.
    #[error("a float tolerance must be a non-negative number, not {0}")]
    NegativeTolerance(String),
    #[error("{0:?}: expected a number or a range A..B")]
    NotARange(String),
    #[error("{0:?}: the range is empty ({1} > {2})")]
    EmptyRange(String, u32, u32),
}

/// The shortest duration the judge reads anywhere: below a millisecond a
/// limit cannot be measured (and would show as 0ms).
pub const MIN_SECONDS: f64 = 0.001;
/// The longest: a day. Anything longer is a typo, and `1e300` seconds
/// would not fit a [`Duration`] at all.
pub const MAX_SECONDS: f64 = 86_400.0;

/// A number of seconds a file or a flag gave, as a duration: `None` unless
/// it is a number from [`MIN_SECONDS`] to [`MAX_SECONDS`] (NaN, infinities,
/// zero, negatives and `1e300` are all `None`, never a panic).
pub fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && (MIN_SECONDS..=MAX_SECONDS).contains(&value))
        .then(|| Duration::from_secs_f64(value))
}

/// A duration the judge computed from checked numbers (a limit times a
/// factor, rounded): held to `0..=`[`MAX_SECONDS`] so that no product of
/// them can panic; NaN is zero.
pub fn saturating_seconds(value: f64) -> Duration {
    if value.is_nan() || value <= 0.0 {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(value.min(MAX_SECONDS))
    }
}

/// A factor a file or a flag gave (a time multiplier, a margin): `None`
/// unless it is a number from `min` to 1000.
pub fn factor(value: f64, min: f64) -> Option<f64> {
    (value.is_finite() && value >= min && value <= MAX_FACTOR).then_some(value)
}

/// The largest time multiplier or margin the judge takes.
pub const MAX_FACTOR: f64 = 1000.0;

/// `12`, `10..13` or `10..=13` (inclusive), as the generators' size flags
/// and `judge gen` commands in a generators.yaml write them.
pub fn parse_range(text: &str) -> Result<std::ops::RangeInclusive<u32>, UnitError> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| UnitError::NotARange(text.to_string()))
    };
    match text.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(UnitError::EmptyRange(text.to_string(), a, b));
            }
            Ok(a..=b)
        }
        None => {
            let n = number(text)?;
            Ok(n..=n)
        }
    }
}

/// Split `12.5ms` into (`12.5`, `ms`).
fn split_number(text: &str) -> Option<(&str, &str)> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(end);
    let well_formed = !number.is_empty()
        && number.chars().filter(|&c| c == '.').count() <= 1
        && !number.starts_with('.')
        && !number.ends_with('.');
    well_formed.then_some((number, unit))
}

impl std::str::FromStr for Span {
    type Err = UnitError;

    fn from_str(text: &str) -> Result<Span, UnitError> {
        let bad = || UnitError::NotADuration(text.to_string());
        let (number, unit) = split_number(text.trim()).ok_or_else(bad)?;
        let value: f64 = number.parse().map_err(|_| bad())?;
        let seconds = match unit {
            "ms" => value / 1000.0,
            "s" => value,
            "m" | "min" => value * 60.0,
            "" => return Err(UnitError::DurationWithoutUnit(text.to_string())),
            _ => return Err(bad()),
        };
        if !seconds.is_finite() || seconds > MAX_SECONDS {
            return Err(UnitError::TooLong(text.to_string()));
        }
        // Every duration the judge reads is a limit or a step; below a
        // millisecond it cannot be measured (and would show as 0ms).
        match self::seconds(seconds) {
            Some(d) => Ok(Span(d)),
            None => Err(UnitError::TooShort(text.to_string())),
        }
    }
}

impl std::str::FromStr for Size {
    type Err = UnitError;

    fn from_str(text: &str) -> Result<Size, UnitError> {
        let bad = || UnitError::NotASize(text.to_string());
        let (number, unit) = split_number(text.trim()).ok_or_else(bad)?;
        let value: f64 = number.parse().map_err(|_| bad())?;
        let factor: f64 = match unit {
            "B" => 1.0,
            "KiB" | "K" => 1024.0,
            "MiB" | "M" => 1024.0 * 1024.0,
            "GiB" | "G" => 1024.0 * 1024.0 * 1024.0,
            "KB" | "kB" => 1e3,
            "MB" => 1e6,
            "GB" => 1e9,
            "" => return Err(UnitError::SizeWithoutUnit(text.to_string())),
            _ => return Err(bad()),
        };
        let bytes = value * factor;
        if !bytes.is_finite() || bytes > (1u64 << 50) as f64 {
            return Err(UnitError::TooLarge(text.to_string()));
        }
        Ok(Size(bytes.round() as u64))
    }
}

/// The smallest memory limit: below it no program starts (and a memory
/// cgroup cannot even be set up), so every case would be IE or RE.
pub const MIN_MEMORY: u64 = 1 << 20;

/// A memory limit: a [`Size`] of at least [`MIN_MEMORY`].
pub fn parse_memory(text: &str) -> Result<Size, UnitError> {
    let size: Size = text.parse()?;
    if size.0 < MIN_MEMORY {
        return Err(UnitError::MemoryTooSmall(text.to_string()));
    }
    Ok(size)
}

/// A process count: at least 1 (the program itself).
pub fn parse_processes(text: &str) -> Result<u32, UnitError> {
    match text.trim().parse::<u32>() {
        Ok(0) => Err(UnitError::NoProcesses),
        Ok(n) => Ok(n),
        Err(_) => Err(UnitError::NotAProcessCount(text.to_string())),
    }
}

/// A float tolerance: a finite number, not negative.
pub fn parse_tolerance(text: &str) -> Result<f64, UnitError> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| UnitError::NotATolerance(text.to_string()))?;
    check_tolerance(value)
}

fn check_tolerance(value: f64) -> Result<f64, UnitError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(UnitError::NegativeTolerance(value.to_string()))
    }
}

/// `deserialize_with` for an optional memory limit (see [`parse_memory`]);
/// an error here carries the value's line and column.
pub(crate) fn memory_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Size>, D::Error> {
    let size = Size::deserialize(d)?;
    if size.0 < MIN_MEMORY {
        return Err(serde::de::Error::custom(format!(
            "{size} is too small for a memory limit (at least 1MiB: no program starts in less)"
        )));
    }
    Ok(Some(size))
}

/// `deserialize_with` for an optional process count (at least 1).
pub(crate) fn processes<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    match u32::deserialize(d)? {
        0 => Err(serde::de::Error::custom(
            "0 processes: at least 1 (the program itself)",
        )),
        n => Ok(Some(n)),
    }
}

/// `deserialize_with` for an optional float tolerance (finite, not negative).
pub(crate) fn tolerance<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    check_tolerance(f64::deserialize(d)?)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_secs_f64() * 1000.0;
        if ms >= 1000.0 && (ms / 1000.0).fract() == 0.0 {
            write!(f, "{}s", ms / 1000.0)
        } else if ms >= 1000.0 {
            write!(f, "{}s", (ms / 10.0).round() / 100.0)
        } else {
            write!(f, "{}ms", ms.round())
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
        for (name, factor) in UNITS {
            if self.0 >= factor {
                let value = self.0 as f64 / factor as f64;
                return if value.fract() == 0.0 {
                    write!(f, "{value}{name}")
                } else {
                    write!(f, "{:.1}{name}", value)
                };
            }
        }
        write!(f, "{}B", self.0)
    }
}

/// "a duration needs a unit in quotes, e.g. \"2s\" or \"2ms\"".
fn unit_hint(what: &str, n: &str) -> String {
    let (a, b) = if what == "duration" {
        ("s", "ms")
    } else {
        ("MiB", "KiB")
    };
    format!("a {what} needs a unit in quotes, e.g. \"{n}{a}\" or \"{n}{b}\"")
}

/// Accept a string with a unit; a bare number gets a message saying why not.
fn deserialize_text<'de, D, T>(d: D, what: &str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: std::str::FromStr<Err = UnitError>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Integer(i64),
        Float(f64),
    }
    let raw = Raw::deserialize(d)?;
    match raw {
        Raw::Text(text) => text.parse().map_err(serde::de::Error::custom),
        Raw::Integer(n) => Err(serde::de::Error::custom(unit_hint(what, &n.to_string()))),
        Raw::Float(n) => Err(serde::de::Error::custom(unit_hint(what, &n.to_string()))),
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_text(d, "duration")
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_text(d, "size")
    }
}

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl Serialize for Size {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let ms = |t: &str| {
            t.parse::<Span>()
                .map(|s| s.0.as_millis())
                .map_err(|e| e.to_string())
        };
        assert_eq!(ms("1.5s"), Ok(1500));
        assert_eq!(ms("500ms"), Ok(500));
        assert_eq!(ms("2m"), Ok(120_000));
        assert_eq!(
            ms("2 sec"),
            Err(
                "\"2 sec\" is not a duration: expected a duration such as 1.5s, 500ms or 2m".into()
            )
        );
        assert_eq!(
            ms("2"),
            Err("\"2\" has no unit: expected a duration such as 1.5s, 500ms or 2m".into())
        );
        assert!(ms("1..5s").is_err());
        assert!(ms(".5s").is_err());
        assert!(ms("-1s").is_err());
        assert!(ms("99999999999s").is_err());
    }

    #[test]
    fn sizes() {
        let b = |t: &str| t.parse::<Size>().map(|s| s.0).map_err(|e| e.to_string());
        assert_eq!(b("256MiB"), Ok(256 << 20));
        assert_eq!(b("1.5GiB"), Ok(3 << 29));
        assert_eq!(b("64MB"), Ok(64_000_000));
        assert_eq!(b("10B"), Ok(10));
        assert!(b("256 megs").is_err());
        assert!(b("256").unwrap_err().contains("has no unit"));
    }

    #[test]
    fn display_round_trips() {
        for text in ["1s", "1.5s", "500ms", "256MiB", "1GiB", "4KiB", "17B"] {
            let shown = if text.ends_with('B') {
                text.parse::<Size>().unwrap().to_string()
            } else {
                text.parse::<Span>().unwrap().to_string()
            };
            assert_eq!(shown, text);
        }
    }
}
