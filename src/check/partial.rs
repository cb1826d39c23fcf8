//! Partial credit from a checker (docs/scoring.md): a Kattis validator's
//! `score.txt` / `score_multiplier.txt`, testlib's `quitp` and `_pc`.

use super::Judgement;
use crate::score::Partial;
use crate::verdict::Verdict;
use std::path::Path;

/// A Kattis validator's partial credit from its feedback directory:
/// `score.txt` (points) or `score_multiplier.txt` (a fraction of the
/// case's points), for an accepted output only. A score file beside a
/// rejection, both files, or one that is not a single non-negative number
/// is the validator's fault: IE, named.
pub fn with_kattis_score(mut judgement: Judgement, feedback: &Path, what: &str) -> Judgement {
    let read = |name: &str| -> Result<Option<f64>, String> {
        let Some(bytes) =
            super::feedback::score_text(feedback, name, what).map_err(|e| e.to_string())?
        else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut words = text.split_whitespace();
        match (words.next().map(str::parse::<f64>), words.next()) {
            (Some(Ok(x)), None) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(format!(
                "{what} wrote {name} {:?}, which is not one non-negative number",
                text.trim()
            )),
        }
    };
    let found = read("score.txt").and_then(|points| {
        let multiplier = read("score_multiplier.txt")?;
        match (points, multiplier) {
            (Some(_), Some(_)) => Err(format!(
                "{what} wrote both score.txt and score_multiplier.txt (the format allows one)"
            )),
            (Some(p), None) => Ok(Some(Partial::Points(p))),
            (None, Some(f)) => Ok(Some(Partial::Fraction(f))),
            (None, None) => Ok(None),
        }
    });
    match found {
        Err(message) => Judgement::new(Verdict::InternalError, message),
        Ok(Some(partial)) if judgement.verdict != Verdict::Accepted => Judgement::new(
            Verdict::InternalError,
            format!(
                "{what} rejected the output but gave it {} (a score is for accepted outputs)",
                partial.describe()
            ),
        ),
        Ok(partial) => {
            judgement.partial = partial;
            judgement
        }
    }
}

/// testlib's partial credit: `quitp(x, …)` exits 7 and writes `points x
/// …`; `quitf(_pc(k), …)` writes `partially correct (k) …` (exit k, or
/// 50 + k where testlib is built for TESTSYS). `_pc(k)` is k percent of
/// the case's points; `quitp`'s x is what `points` says: a fraction (0 to
/// 1: judge.toml's and Kattis' reading, a checker cannot know how many
/// points its case is worth), x points (Polygon's reading), or x percent
/// (Polygon's `treat-points-from-checker-as-percent`). None: not a
/// partial result.
pub(super) fn testlib(
    code: i32,
    stderr: &[u8],
    what: &str,
    points: super::external::TestlibPoints,
) -> Option<Judgement> {
    use super::external::TestlibPoints;
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let (partial, rest) = if let Some(rest) = line.strip_prefix("partially correct (") {
        let (k, rest) = rest.split_once(')')?;
        let k: f64 = k.trim().parse().ok()?;
        (Partial::Fraction(k / 100.0), rest.trim())
    } else if code == 7 {
        let Some(rest) = line.strip_prefix("points ") else {
            return Some(Judgement::new(
                Verdict::InternalError,
                format!("{what} exited 7 (testlib's points) without a `points X` line: {line}"),
            ));
        };
        let (x, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        match x.parse::<f64>() {
            Ok(x) if x.is_finite() => (
                match points {
                    TestlibPoints::Fraction => Partial::Fraction(x),
                    TestlibPoints::Points => Partial::Points(x),
                    TestlibPoints::Percent => Partial::Fraction(x / 100.0),
                },
                rest.trim(),
            ),
            _ => {
                return Some(Judgement::new(
                    Verdict::InternalError,
                    format!("{what} gave points {x:?}, which is not a number"),
                ));
            }
        }
    } else {
        return None;
    };
    let bad = match partial {
        Partial::Fraction(f) if !(0.0..=1.0).contains(&f) => Some(match points {
            TestlibPoints::Percent => format!(
                "{what} gave {} percent of the test's points (treat-points-from-checker-as-percent); expected 0 to 100",
                crate::text::format::number(f * 100.0)
            ),
            _ => format!(
                "{what} gave {} of the case's points; the judge reads testlib's partial credit as 0 to 1 (quitp) or 0 to 100 percent (_pc)",
                crate::text::format::number(f)
            ),
        }),
        Partial::Points(p) if p < 0.0 => Some(format!(
            "{what} gave {} points, fewer than none",
            crate::text::format::number(p)
        )),
        _ => None,
    };
    if let Some(message) = bad {
        return Some(Judgement::new(Verdict::InternalError, message));
    }
    let mut judgement = Judgement::new(
        Verdict::Accepted,
        if rest.is_empty() {
            format!("partially correct: {}", partial.describe())
        } else {
            format!("partially correct ({}): {rest}", partial.describe())
        },
    );
    judgement.partial = Some(partial);
    Some(judgement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testlib_points_and_percentages() {
        use crate::check::external::TestlibPoints::{self, Fraction as F};
        let j = testlib(7, b"points 0.25 half of it\n", "checker c", F).unwrap();
        assert_eq!(
            (j.verdict, j.partial),
            (Verdict::Accepted, Some(Partial::Fraction(0.25)))
        );
        assert!(j.message.contains("half of it"), "{}", j.message);
        let j = testlib(90, b"partially correct (40) most\n", "checker c", F).unwrap();
        assert_eq!(j.partial, Some(Partial::Fraction(0.4)));
        let j = testlib(40, b"partially correct (40) most\n", "checker c", F).unwrap();
        assert_eq!(
            j.partial,
            Some(Partial::Fraction(0.4)),
            "exit k without TESTSYS"
        );
        assert!(testlib(0, b"ok fine\n", "checker c", F).is_none());
        assert!(testlib(1, b"wrong answer\n", "checker c", F).is_none());
        let j = testlib(7, b"points 3 too many\n", "checker c", F).unwrap();
        assert_eq!(j.verdict, Verdict::InternalError);
        assert!(j.message.contains("0 to 1"), "{}", j.message);
        let j = testlib(7, b"nothing useful\n", "checker c", F).unwrap();
        assert_eq!(j.verdict, Verdict::InternalError);
        // Polygon's readings: x points, or x percent.
        let j = testlib(7, b"points 10 all of it\n", "c", TestlibPoints::Points).unwrap();
        assert_eq!(j.partial, Some(Partial::Points(10.0)));
        let j = testlib(7, b"points 40\n", "c", TestlibPoints::Percent).unwrap();
        assert_eq!(j.partial, Some(Partial::Fraction(0.4)));
        let j = testlib(7, b"points 140\n", "c", TestlibPoints::Percent).unwrap();
        assert_eq!(j.verdict, Verdict::InternalError);
    }

    #[test]
    fn kattis_score_files() {
        let dir = tempfile::tempdir().unwrap();
        let accepted = || Judgement::new(Verdict::Accepted, "ok");
        assert_eq!(with_kattis_score(accepted(), dir.path(), "v").partial, None);
        std::fs::write(dir.path().join("score.txt"), "12.5\n").unwrap();
        assert_eq!(
            with_kattis_score(accepted(), dir.path(), "v").partial,
            Some(Partial::Points(12.5))
        );
        let rejected =
            with_kattis_score(Judgement::new(Verdict::WrongAnswer, "no"), dir.path(), "v");
        assert_eq!(rejected.verdict, Verdict::InternalError);
        std::fs::write(dir.path().join("score_multiplier.txt"), "0.5").unwrap();
        let both = with_kattis_score(accepted(), dir.path(), "v");
        assert!(both.message.contains("both"), "{}", both.message);
        std::fs::remove_file(dir.path().join("score.txt")).unwrap();
        assert_eq!(
            with_kattis_score(accepted(), dir.path(), "v").partial,
            Some(Partial::Fraction(0.5))
        );
        std::fs::write(dir.path().join("score_multiplier.txt"), "half").unwrap();
        assert_eq!(
            with_kattis_score(accepted(), dir.path(), "v").verdict,
            Verdict::InternalError
        );
    }
}
