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
        let Some(bytes) = super::feedback::score_text(feedback, name, what)? else {
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
/// 50 + k where testlib is built for TESTSYS). The judge reads `quitp`'s x
/// as a fraction of the case's points (0 to 1) and `_pc(k)` as k percent:
/// a checker cannot know how many points its case is worth. None: not a
/// partial result.
pub(super) fn testlib(code: i32, stderr: &[u8], what: &str) -> Option<Judgement> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let (fraction, rest) = if let Some(rest) = line.strip_prefix("partially correct (") {
        let (k, rest) = rest.split_once(')')?;
        let k: f64 = k.trim().parse().ok()?;
        (k / 100.0, rest.trim())
    } else if code == 7 {
        let Some(rest) = line.strip_prefix("points ") else {
            return Some(Judgement::new(
                Verdict::InternalError,
                format!("{what} exited 7 (testlib's points) without a `points X` line: {line}"),
            ));
        };
        let (x, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        match x.parse::<f64>() {
            Ok(x) if x.is_finite() => (x, rest.trim()),
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
    if !(0.0..=1.0).contains(&fraction) {
        return Some(Judgement::new(
            Verdict::InternalError,
            format!(
                "{what} gave {} of the case's points; the judge reads testlib's partial credit as 0 to 1 (quitp) or 0 to 100 percent (_pc)",
                crate::text::format::number(fraction)
            ),
        ));
    }
    let mut judgement = Judgement::new(
        Verdict::Accepted,
        if rest.is_empty() {
            format!(
                "partially correct: {}",
                Partial::Fraction(fraction).describe()
            )
        } else {
            format!(
                "partially correct ({}): {rest}",
                Partial::Fraction(fraction).describe()
            )
        },
    );
    judgement.partial = Some(Partial::Fraction(fraction));
    Some(judgement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testlib_points_and_percentages() {
        let j = testlib(7, b"points 0.25 half of it\n", "checker c").unwrap();
        assert_eq!(
            (j.verdict, j.partial),
            (Verdict::Accepted, Some(Partial::Fraction(0.25)))
        );
        assert!(j.message.contains("half of it"), "{}", j.message);
        let j = testlib(90, b"partially correct (40) most\n", "checker c").unwrap();
        assert_eq!(j.partial, Some(Partial::Fraction(0.4)));
        let j = testlib(40, b"partially correct (40) most\n", "checker c").unwrap();
        assert_eq!(
            j.partial,
            Some(Partial::Fraction(0.4)),
            "exit k without TESTSYS"
        );
        assert!(testlib(0, b"ok fine\n", "checker c").is_none());
        assert!(testlib(1, b"wrong answer\n", "checker c").is_none());
        let j = testlib(7, b"points 3 too many\n", "checker c").unwrap();
        assert_eq!(j.verdict, Verdict::InternalError);
        assert!(j.message.contains("0 to 1"), "{}", j.message);
        let j = testlib(7, b"nothing useful\n", "checker c").unwrap();
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
