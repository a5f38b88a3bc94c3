//! The generalized SPRT's log-likelihood ratio: the maximum-likelihood distributions under
//! each hypothesis.

use super::elo::{NELO_SCALE, elo_to_score, mean_variance};
use super::sprt::{EloModel, SPRT_PRIOR};

// The generalized SPRT (GSPRT) used by fishtest and fastchess, after Michel Van den Bergh,
// "Comments on Normalized Elo" (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf)
// and fishtest's `LLRcalc.py`:
//
// The sample is a multinomial over cells with per-game scores a_i and empirical frequencies
// p̂_i (counts regularised with a 10⁻³ prior, N their sum). Under each hypothesis the nuisance
// parameters (the shape of the distribution) are replaced by their maximum-likelihood values
// p⁰, p¹ subject to the hypothesis, and
//
//     LLR = N · Σ_i p̂_i · (ln p¹_i − ln p⁰_i).
//
// - Logistic Elo (proposition 1.1): the constraint is a mean score Σ a_i p_i = s with
//   s = 1 / (1 + 10^(−elo/400)); the maximiser is p_i = p̂_i / (1 + θ (a_i − s)) with θ the root
//   of Σ p̂_i (a_i − s) / (1 + θ (a_i − s)) = 0 (equations 1.2 and 1.3).
// - Normalized Elo (section 4.1): the constraint is (μ − ½) / σ = t with
//   t = elo / (800 / ln 10) per game, times √2 for a pair (a pair mean has half a game's
//   variance). The maximiser is found by the fixed-point iteration of equation 4.9: with μ, σ of
//   the current p, φ_i = a_i − ½ − (t/2) σ (1 + ((a_i − μ)/σ)²), θ the root of
//   Σ p̂_i φ_i / (1 + θ φ_i) = 0, and the next p_i = p̂_i / (1 + θ φ_i), from a uniform start
//   for small t, and walking t out from 0 for larger ones (see `mle_normalized`).
// In both, the left side is strictly decreasing in θ on (−1/max φ, −1/min φ), so bisection finds
// the root; every p_i stays positive, so the logarithms are finite.

/// The GSPRT log-likelihood ratio of `elo1` over `elo0` for cell `counts` with per-game `scores`.
pub(super) fn gsprt_llr(
    counts: &[u64],
    scores: &[f64],
    model: EloModel,
    per_sample_games: f64,
    elo0: f64,
    elo1: f64,
) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let regularised: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { SPRT_PRIOR } else { c as f64 })
        .collect();
    let total: f64 = regularised.iter().sum();
    let phat: Vec<f64> = regularised.iter().map(|c| c / total).collect();
    let fit = |elo: f64| match model {
        EloModel::Logistic => mle_mean(&phat, scores, elo_to_score(elo)),
        EloModel::Normalized => {
            let t = per_sample_games.sqrt() * elo / NELO_SCALE;
            mle_normalized(&phat, scores, 0.5, t)
        }
    };
    let p0 = fit(elo0);
    let p1 = fit(elo1);
    total
        * phat
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(ph, (q0, q1))| ph * (q1.ln() - q0.ln()))
            .sum::<f64>()
}

/// The root θ of `Σ p̂_i φ_i / (1 + θ φ_i) = 0`, or `None` when `φ` does not change sign (then
/// no distribution satisfies the constraint and the caller keeps what it has).
fn solve_theta(phat: &[f64], phi: &[f64]) -> Option<f64> {
    let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(u < 0.0 && v > 0.0) {
        return None;
    }
    let f = |theta: f64| -> f64 {
        phat.iter()
            .zip(phi)
            .map(|(p, f)| p * f / (1.0 + theta * f))
            .sum()
    };
    // f runs from +∞ at lo to −∞ at hi; halve until the interval stops shrinking in f64.
    let (mut lo, mut hi) = (-1.0 / v, -1.0 / u);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let value = f(mid);
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            return Some(mid);
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution with mean score `s` (logistic model).
fn mle_mean(phat: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    match solve_theta(phat, &phi) {
        Some(theta) => tilt(phat, &phi, theta),
        None => phat.to_vec(),
    }
}

/// The maximum-likelihood distribution with `(μ − mu_ref) / σ = t` (normalized model).
///
/// The fixed-point iteration needs `φ` to change sign at its start, which from the uniform
/// distribution holds only for small `t` (below about 0.94, some 230 normalized Elo for pairs).
/// So `t` is walked out from 0 in steps of at most [`T_STEP`], each iteration starting from the
/// solution of the step before, which stays close enough to the next one.
fn mle_normalized(phat: &[f64], scores: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
    let n = phat.len();
    let mut p = vec![1.0 / n as f64; n];
    let steps = (t.abs() / T_STEP).ceil().max(1.0);
    for step in 1..=steps as u32 {
        p = mle_normalized_from(p, phat, scores, mu_ref, t * f64::from(step) / steps);
    }
    p
}

/// The largest change of `t` between two solutions in [`mle_normalized`].
const T_STEP: f64 = 0.25;

/// The fixed-point iteration of [`mle_normalized`], from `p`.
fn mle_normalized_from(
    mut p: Vec<f64>,
    phat: &[f64],
    scores: &[f64],
    mu_ref: f64,
    t: f64,
) -> Vec<f64> {
    for _ in 0..1000 {
        let (mu, var) = mean_variance(scores, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| {
                let z = (a - mu) / sigma;
                a - mu_ref - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let Some(theta) = solve_theta(phat, &phi) else {
            break;
        };
        let next = tilt(phat, &phi, theta);
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-13 {
            break;
        }
    }
    p
}

/// `p_i = p̂_i / (1 + θ φ_i)`.
fn tilt(phat: &[f64], phi: &[f64], theta: f64) -> Vec<f64> {
    phat.iter()
        .zip(phi)
        .map(|(p, f)| p / (1.0 + theta * f))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::close;
    use crate::report::stats::counts::PAIR_SCORES;

    #[test]
    fn mle_satisfies_its_constraint() {
        let phat = [0.1, 0.2, 0.3, 0.25, 0.15];
        for t in [-0.1, 0.0, 0.05, 0.2] {
            let p = mle_normalized(&phat, &PAIR_SCORES, 0.5, t);
            let (mu, var) = mean_variance(&PAIR_SCORES, &p);
            close(p.iter().sum(), 1.0, 1e-12);
            close((mu - 0.5) / var.sqrt(), t, 1e-9);
        }
        let p = mle_mean(&phat, &PAIR_SCORES, 0.6);
        close(mean_variance(&PAIR_SCORES, &p).0, 0.6, 1e-12);
        close(p.iter().sum(), 1.0, 1e-12);
    }
}
