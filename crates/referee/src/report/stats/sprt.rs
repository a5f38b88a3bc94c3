//! The sequential probability ratio test: its parameters, bounds, log-likelihood ratio on pairs
//! or games, and decision.

use serde::Serialize;

use super::counts::{GAME_SCORES, PAIR_SCORES, Pentanomial, Wdl};
use super::gsprt::gsprt_llr;

/// The pseudo-count given to an empty cell by the SPRT (fishtest's and fastchess's value).
pub const SPRT_PRIOR: f64 = 1e-3;

/// The largest |elo0| or |elo1| an SPRT takes.
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// How the SPRT's `elo0` and `elo1` are measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Normalized Elo (fastchess's default and fishtest's): the score edge over ½ in units of
    /// the per-game standard deviation, so bounds mean the same at any draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the bound is an expected score `1 / (1 + 10^(-elo/400))`.
    Logistic,
}

/// What the SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    #[serde(rename = "continue")]
    Continue,
    /// The LLR fell to the lower bound: A is not `elo1` stronger (H0, `elo = elo0`, accepted).
    #[serde(rename = "H0")]
    AcceptH0,
    /// The LLR reached the upper bound: A is stronger (H1, `elo = elo1`, accepted).
    #[serde(rename = "H1")]
    AcceptH1,
}

impl SprtDecision {
    /// The word used in reports: `continue`, `H0` or `H1`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
        }
    }
}

/// Why SPRT parameters were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad SPRT parameters: {0}")]
pub struct SprtError(String);

/// A sequential probability ratio test of H0 `elo = elo0` against H1 `elo = elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis (in the model's units, normalized by default).
    pub elo0: f64,
    /// The Elo difference of the alternative; larger than `elo0`.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

impl Sprt {
    /// A test with checked parameters: `elo0 < elo1`, `alpha` and `beta` in `(0, 1)` and
    /// `alpha + beta < 1` (otherwise the bounds would cross).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let fail = |m: &str| Err(SprtError(m.to_string()));
        if !(elo0.is_finite() && elo1.is_finite()) {
            return fail("elo0 and elo1 must be finite numbers");
        }
        if elo0.abs() > MAX_SPRT_ELO || elo1.abs() > MAX_SPRT_ELO {
            // Far beyond any real test, and the maximum-likelihood fit takes steps in |elo|.
            return fail(&format!(
                "elo0 and elo1 must lie within +/-{MAX_SPRT_ELO} (got {elo0} and {elo1})"
            ));
        }
        if elo0 >= elo1 {
            return fail(&format!("elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        let in_unit = |p: f64| p > 0.0 && p < 1.0;
        if !in_unit(alpha) || !in_unit(beta) {
            return fail(&format!(
                "alpha ({alpha}) and beta ({beta}) must lie strictly between 0 and 1"
            ));
        }
        if alpha + beta >= 1.0 {
            return fail(&format!(
                "alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR at which H0 is accepted: `ln(beta / (1 - alpha))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at which H1 is accepted: `ln((1 - beta) / alpha)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 over H0 on game pairs, in normalized Elo (the default).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        self.llr_with(EloModel::Normalized, pairs)
    }

    /// The log-likelihood ratio on game pairs, with bounds in the given Elo model.
    pub fn llr_with(&self, model: EloModel, pairs: &Pentanomial) -> f64 {
        gsprt_llr(
            &pairs.counts,
            &PAIR_SCORES,
            model,
            2.0,
            self.elo0,
            self.elo1,
        )
    }

    /// The log-likelihood ratio on unpaired games, in normalized Elo (the default).
    pub fn llr_trinomial(&self, games: &Wdl) -> f64 {
        self.llr_trinomial_with(EloModel::Normalized, games)
    }

    /// The log-likelihood ratio on unpaired games, with bounds in the given Elo model.
    pub fn llr_trinomial_with(&self, model: EloModel, games: &Wdl) -> f64 {
        gsprt_llr(
            &games.cells(),
            &GAME_SCORES,
            model,
            1.0,
            self.elo0,
            self.elo1,
        )
    }

    /// Whether an LLR accepts a hypothesis.
    pub fn decision(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::close;
    use crate::report::stats::elo::{NELO_SCALE, sample_moments};

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    #[test]
    fn sprt_bounds() {
        let s = sprt(0.0, 2.0);
        close(s.lower(), (0.05f64 / 0.95).ln(), 1e-15);
        close(s.upper(), (0.95f64 / 0.05).ln(), 1e-15);
        close(s.upper(), 2.944_438_979_166_44, 1e-12);
        assert_eq!(s.decision(0.0), SprtDecision::Continue);
        assert_eq!(s.decision(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decision(-3.0), SprtDecision::AcceptH0);
        assert_eq!(s.decision(s.upper()).as_str(), "H1");
        assert_eq!(s.decision(s.lower()).as_str(), "H0");
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(2.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.05, 1.0).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 2.0, 0.05, 0.05).is_err());
        let message = Sprt::new(3.0, 1.0, 0.05, 0.05).unwrap_err().to_string();
        assert!(message.contains("elo0"), "{message}");
    }

    #[test]
    fn sprt_bounds_far_beyond_any_test_are_refused() {
        assert!(Sprt::new(-10.0, 1e9, 0.05, 0.05).is_err());
        assert!(Sprt::new(-2000.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(-1000.0, 1000.0, 0.05, 0.05).is_ok());
    }

    #[test]
    fn pentanomial_llr_matches_reference() {
        let cases: [([u64; 5], f64, f64, f64, f64); 6] = [
            // counts, elo0, elo1, normalized LLR, logistic LLR
            (
                [10, 20, 30, 25, 15],
                0.0,
                5.0,
                0.232_803_231_622_900_04,
                0.269_412_527_202_881_3,
            ),
            (
                [3, 9, 40, 12, 6],
                0.0,
                2.0,
                0.079_018_777_475_003_97,
                0.122_151_233_388_834_17,
            ),
            (
                [0, 0, 0, 0, 7],
                0.0,
                2.0,
                0.056_757_454_525_417_93,
                0.040_190_700_231_637_726,
            ),
            ([0, 1, 50, 1, 0], -1.0, 1.0, 0.0, 0.0),
            (
                [300, 1000, 2100, 1100, 280],
                0.0,
                2.0,
                0.349_426_706_274_463_5,
                0.404_300_007_014_508_6,
            ),
            ([0, 0, 0, 0, 1000], 0.0, 2.0, 8.107_645_951_093_77, f64::NAN),
        ];
        for (counts, elo0, elo1, normalized, logistic) in cases {
            let s = sprt(elo0, elo1);
            let p = Pentanomial::new(counts);
            close(s.llr(&p), normalized, 1e-7);
            if !logistic.is_nan() {
                close(s.llr_with(EloModel::Logistic, &p), logistic, 1e-7);
            }
        }
        // Swapping the engines of the first case.
        let swapped = Pentanomial::new([15, 25, 30, 20, 10]);
        close(sprt(0.0, 5.0).llr(&swapped), -0.274_039_133_908_014_9, 1e-7);
    }

    #[test]
    fn pentanomial_llr_is_right_for_bounds_far_from_zero() {
        // Bounds beyond about 230 normalized Elo, where the iteration cannot start from the
        // uniform distribution. Reference values from a different method, in Python: for each
        // sigma on the constraint line mu = 1/2 + t sigma, the maximum under the three linear
        // moment constraints (Newton on the Lagrange multipliers), then maximised over sigma
        // (a 2000-point grid refined by golden section), so good to about 1e-6.
        let cases: [([u64; 5], f64, f64, f64); 5] = [
            ([13, 1, 3, 0, 3], -300.0, -100.0, 0.312_476_9),
            ([13, 1, 3, 0, 3], -300.0, -250.0, 0.512_780_3),
            ([4, 2, 8, 2, 4], 100.0, 300.0, -9.435_717_5),
            ([2, 3, 10, 30, 55], 150.0, 400.0, 8.914_236_9),
            ([13, 1, 3, 0, 3], -10.0, 10.0, -0.942_812_6),
        ];
        for (counts, elo0, elo1, expected) in cases {
            close(
                sprt(elo0, elo1).llr(&Pentanomial::new(counts)),
                expected,
                1e-5,
            );
        }
    }

    #[test]
    fn trinomial_llr_matches_reference() {
        let s = sprt(-5.0, 5.0);
        close(
            s.llr_trinomial_with(EloModel::Logistic, &Wdl::new(25, 40, 30)),
            -0.248_544_163_283_024_3,
            1e-8,
        );
        close(
            s.llr_trinomial(&Wdl::new(25, 40, 30)),
            -0.189_132_711_292_749_83,
            1e-7,
        );
        let s = sprt(0.0, 10.0);
        let games = Wdl::new(140, 300, 120);
        close(
            s.llr_trinomial_with(EloModel::Logistic, &games),
            0.740_874_497_821_710_8,
            1e-8,
        );
        close(s.llr_trinomial(&games), 0.613_035_062_718_318_9, 1e-7);
        let all_wins = Wdl::new(500, 0, 0);
        close(
            sprt(0.0, 2.0).llr_trinomial(&all_wins),
            2.869_928_484_809_875,
            1e-6,
        );
        close(
            sprt(0.0, 2.0).llr_trinomial_with(EloModel::Logistic, &all_wins),
            2.869_947_163_036_876,
            1e-6,
        );
    }

    #[test]
    fn llr_sign_follows_the_evidence_and_stays_finite() {
        let s = sprt(0.0, 2.0);
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
        assert_eq!(s.llr_trinomial(&Wdl::default()), 0.0);
        // Strong evidence for A grows the LLR past the upper bound; against, below the lower.
        let good = Pentanomial::new([400, 1600, 3600, 2000, 600]);
        let bad = good.swapped();
        assert!(s.llr(&good) > s.upper(), "{}", s.llr(&good));
        assert!(s.llr(&bad) < s.lower(), "{}", s.llr(&bad));
        assert_eq!(s.decision(s.llr(&good)), SprtDecision::AcceptH1);
        assert_eq!(s.decision(s.llr(&bad)), SprtDecision::AcceptH0);
        // Each extra WW pair adds evidence for A.
        let mut previous = f64::NEG_INFINITY;
        for ww in 0..30 {
            let llr = s.llr(&Pentanomial::new([10, 20, 30, 20, 10 + ww]));
            assert!(llr > previous);
            previous = llr;
        }
        for counts in [
            [0, 0, 0, 0, 1],
            [1, 0, 0, 0, 0],
            [0, 0, 1, 0, 0],
            [0, 0, 0, 0, 100_000],
            [100_000, 0, 0, 0, 0],
            [5, 0, 0, 0, 5],
            [0, 0, 2_000, 0, 0],
        ] {
            let p = Pentanomial::new(counts);
            for model in [EloModel::Normalized, EloModel::Logistic] {
                assert!(s.llr_with(model, &p).is_finite(), "{counts:?} {model:?}");
            }
        }
        for games in [
            Wdl::new(1, 0, 0),
            Wdl::new(0, 0, 100_000),
            Wdl::new(0, 7, 0),
        ] {
            assert!(s.llr_trinomial(&games).is_finite());
            assert!(s.llr_trinomial_with(EloModel::Logistic, &games).is_finite());
        }
        assert!(s.llr(&Pentanomial::new([0, 0, 0, 0, 100_000])) > s.upper());
        assert!(s.llr(&Pentanomial::new([100_000, 0, 0, 0, 0])) < s.lower());
    }

    #[test]
    fn llr_is_close_to_the_normal_approximation_on_many_pairs() {
        // For many pairs the GSPRT approaches N·(s1 − s0)·(2ŝ − s0 − s1) / (2·var), with the
        // hypotheses' scores s0, s1 taken at the sample's variance (fishtest's LLR_alt).
        let p = Pentanomial::new([3_000, 10_000, 21_000, 11_000, 2_800]);
        let s = sprt(0.0, 2.0);
        let (score, var) = sample_moments(&p.counts, &PAIR_SCORES);
        let sd = (2.0 * var).sqrt();
        let s0 = 0.5 + s.elo0 / NELO_SCALE * sd;
        let s1 = 0.5 + s.elo1 / NELO_SCALE * sd;
        let approx = p.pairs() as f64 * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var);
        let llr = s.llr(&p);
        assert!(
            (llr - approx).abs() < 0.02 * approx.abs().max(1.0),
            "{llr} vs {approx}"
        );
    }
}
