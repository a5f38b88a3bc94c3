//! TEMPORARY statistics, to be REPLACED by `stats.rs` at merge time.
//!
//! A plain normal approximation, good enough to drive the referee and its tests while the real
//! module (the pentanomial model as fastchess reports it, and the fishtest GSPRT) is written
//! elsewhere. [`super::summary`] is the only caller: rewire it there and delete this file.

/// An Elo estimate of the first engine against the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference (may be infinite on all-win or all-loss results).
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub elo_error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

fn phi(x: f64) -> f64 {
    // Abramowitz and Stegun 7.1.26, |error| < 1.5e-7.
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    0.5 * (1.0 + if x >= 0.0 { erf } else { -erf })
}

/// Mean and variance of a score distribution (values in 0..1, with counts).
fn moments(values: &[f64], counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

fn estimate(values: &[f64], counts: &[u64]) -> Estimate {
    let Some((mean, var, n)) = moments(values, counts) else {
        return Estimate {
            elo: 0.0,
            elo_error: 0.0,
            los: 0.5,
        };
    };
    let sd = (var / n).sqrt();
    let (lo, hi) = ((mean - 1.96 * sd).max(0.0), (mean + 1.96 * sd).min(1.0));
    Estimate {
        elo: elo_of(mean),
        elo_error: (elo_of(hi) - elo_of(lo)) / 2.0,
        los: if sd > 0.0 {
            phi((mean - 0.5) / sd)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        },
    }
}

/// Estimate from pair counts `[LL, LD, DD+WL, WD, WW]`.
pub fn pentanomial(counts: [u64; 5]) -> Estimate {
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], &counts)
}

/// Estimate from game counts.
pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Estimate {
    estimate(&[1.0, 0.5, 0.0], &[wins, draws, losses])
}

/// Log-likelihood ratio of elo1 against elo0 on pair counts, in the normal approximation; the
/// mean and variance are clamped so that lopsided counts give a finite value.
pub fn sprt_llr(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let Some((mean, var, n)) = moments(&[0.0, 0.25, 0.5, 0.75, 1.0], &counts) else {
        return 0.0;
    };
    let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (s0, s1) = (score(elo0), score(elo1));
    let mean = mean.clamp(1e-3, 1.0 - 1e-3);
    let var = var.max(1e-3);
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT bounds (lower, upper) for error rates alpha and beta.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}
