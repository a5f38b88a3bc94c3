//! The Elo scale, the normal distribution, and an estimate (Elo, interval, LOS, normalized Elo)
//! from a mean score and the variance of one sample.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Scores are clamped into `[SCORE_EPSILON, 1 - SCORE_EPSILON]` before becoming Elo.
pub const SCORE_EPSILON: f64 = 1e-4;

/// `800 / ln 10`: the slope of the logistic Elo curve at a score of ½, times 4. Normalized Elo is
/// a score difference in standard deviations, expressed in these units.
pub(super) const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The largest Elo difference this module reports (the Elo of a `1 - SCORE_EPSILON` score).
pub fn max_elo() -> f64 {
    score_to_elo(1.0 - SCORE_EPSILON)
}

/// The logistic Elo difference that gives an expected score `score` (in `(0, 1)`).
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a player `elo` logistic Elo points stronger than its opponent.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to double precision (the standard library has none).
///
/// Uses the everywhere-convergent series `erf x = 2/√π · e^(-x²) · Σ 2ⁿ x^(2n+1) / (2n+1)!!`,
/// whose terms are all positive (no cancellation); past |x| = 6, erf is ±1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return x.signum();
    }
    let mut term = a;
    let mut sum = a;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= 2.0 * a * a / (2.0 * n + 1.0);
        sum += term;
    }
    let value = 2.0 / std::f64::consts::PI.sqrt() * (-a * a).exp() * sum;
    value.min(1.0).copysign(x)
}

/// The standard normal cumulative distribution function Φ.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}
/// What an estimate says about the Elo difference of A over B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Number of samples behind it (pairs in the pentanomial model, games in the trinomial one).
    pub samples: u64,
    /// A's mean score per game, in `[0, 1]` (½ with no games).
    pub score: f64,
    /// The Elo difference (positive when A is stronger).
    pub elo: f64,
    /// Half the width of the 95% interval, as fastchess prints it after `+/-`.
    pub error: f64,
    /// The lower end of the 95% Elo interval.
    pub lower: f64,
    /// The upper end of the 95% Elo interval.
    pub upper: f64,
    /// Likelihood of superiority: the probability, in `[0, 1]`, that A is the stronger.
    pub los: f64,
    /// Normalized Elo (the unit of the SPRT bounds): the score edge in standard deviations.
    pub nelo: f64,
    /// Half the width of the 95% interval of the normalized Elo.
    pub nelo_error: f64,
    /// Whether a score hit the clamp (or there were no games): `elo`, `lower` or `upper` is then
    /// a limit of what this module reports, not a measurement.
    pub clamped: bool,
}

/// Builds an estimate from the mean score per game and the variance of one sample.
///
/// `per_sample_games` is 2 for pairs and 1 for games: normalized Elo divides by the standard
/// deviation of one game, which for a pair is `sqrt(2·var)` of the pair mean.
pub(super) fn estimate(
    samples: u64,
    score: f64,
    variance: f64,
    per_sample_games: f64,
) -> EloEstimate {
    let limit = max_elo();
    if samples == 0 {
        return EloEstimate {
            samples,
            score: 0.5,
            elo: 0.0,
            error: limit,
            lower: -limit,
            upper: limit,
            los: 0.5,
            nelo: 0.0,
            nelo_error: limit,
            clamped: true,
        };
    }
    let n = samples as f64;
    let variance = variance.max(0.0);
    let half_width = Z95 * (variance / n).sqrt();
    let mut clamped = false;
    let mut to_elo = |s: f64| {
        let c = s.clamp(SCORE_EPSILON, 1.0 - SCORE_EPSILON);
        clamped |= c != s;
        score_to_elo(c)
    };
    let elo = to_elo(score);
    let lower = to_elo(score - half_width);
    let upper = to_elo(score + half_width);
    let edge = score - 0.5;
    let (los, nelo) = if variance > 0.0 {
        let sd = (variance / n).sqrt();
        let nelo = edge / (per_sample_games * variance).sqrt() * NELO_SCALE;
        (normal_cdf(edge / sd), nelo)
    } else if edge == 0.0 {
        (0.5, 0.0)
    } else {
        // Every sample identical and one-sided: certainty, and an unbounded normalized Elo.
        clamped = true;
        (if edge > 0.0 { 1.0 } else { 0.0 }, limit.copysign(edge))
    };
    EloEstimate {
        samples,
        score,
        elo,
        error: (upper - lower) / 2.0,
        lower,
        upper,
        los,
        nelo,
        // The interval ends are s ± z·sqrt(var/n); divided by sqrt(k·var) the variance cancels.
        nelo_error: Z95 * NELO_SCALE / (per_sample_games * n).sqrt(),
        clamped,
    }
}

/// Mean and variance of a discrete distribution with values `scores` and weights `probs`.
pub(super) fn mean_variance(scores: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}
/// Mean score and variance of one sample, from cell counts (½ and 0 with no samples).
pub(super) fn sample_moments(counts: &[u64], scores: &[f64]) -> (f64, f64) {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return (0.5, 0.0);
    }
    let probs: Vec<f64> = counts.iter().map(|&c| c as f64 / total as f64).collect();
    mean_variance(scores, &probs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::{Pentanomial, Wdl, close};

    #[test]
    fn erf_matches_known_values() {
        // Values of erf from Abramowitz & Stegun table 7.1 and Python's math.erf.
        close(erf(0.0), 0.0, 0.0);
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-15);
        close(erf(1.0), 0.842_700_792_949_714_9, 1e-15);
        close(erf(-2.0), -0.995_322_265_018_952_7, 1e-15);
        close(erf(3.5), 0.999_999_256_901_627_7, 1e-14);
        close(erf(10.0), 1.0, 0.0);
        close(normal_cdf(Z95), 0.975, 1e-12);
    }

    #[test]
    fn elo_by_hand() {
        // 3 wins and 1 loss: score 3/4, Elo = 400·log10(3) = 190.848...
        close(Wdl::new(3, 0, 1).elo().elo, 400.0 * 3f64.log10(), 1e-12);
        // Pairs 1.5 and 0.5 in equal numbers: score ½, Elo 0.
        close(Pentanomial::new([0, 7, 0, 7, 0]).elo().elo, 0.0, 1e-12);
    }
}
