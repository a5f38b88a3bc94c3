//! Match statistics: the Elo difference between two engines, its 95% interval, the likelihood of
//! superiority (LOS), the draw ratio and the sequential probability ratio test (SPRT).
//!
//! Everything is computed from counts, from engine A's point of view, in two models:
//! - the *pentanomial* model, when games are played in pairs (same opening, colours swapped): a
//!   pair scores 0, ½, 1, 1½ or 2 points for A, and the five counts are the sample. Pairing
//!   removes most of the opening's influence from the variance, so this is the model to report
//!   whenever games are paired;
//! - the *trinomial* model (wins, draws, losses game by game) when they are not.
//!
//! The Elo, interval and LOS formulas are the ones fastchess prints (`elo_pentanomial.cpp`,
//! `elo_wdl.cpp`): the mean score per game `s` and the variance of one sample (a pair or a game)
//! around it give the interval `s ± 1.96·sqrt(var / n)`, and each end is turned into Elo with
//! `-400·log10(1/s - 1)`; the reported error is half the width of that Elo interval, and
//! `LOS = Φ((s - ½) / sqrt(var / n))`.
//!
//! Lopsided results are kept finite on purpose, because a referee prints these numbers after
//! every pair and an all-wins start is common against a weak engine:
//! - every score that is turned into Elo (the estimate and both interval ends) is clamped into
//!   `[SCORE_EPSILON, 1 - SCORE_EPSILON]`, so `|elo| <= max_elo()` (about 1600); the estimate
//!   then carries `clamped = true`, meaning "at least this much", not a measurement;
//! - with zero variance (every sample identical: all wins, all draws, one pair) the interval has
//!   zero width and the LOS is 0, ½ or 1 by the sign of `s - ½`;
//! - with no games at all the estimate is 0 with the widest interval `±max_elo()`, LOS ½ and
//!   `clamped = true`;
//! - the SPRT adds a small prior (`SPRT_PRIOR`, 10⁻³, as fishtest and fastchess do) to every empty
//!   cell before estimating, so the log-likelihood ratio stays finite with no draws or no losses,
//!   and it is exactly 0 before the first game.

mod counts;
mod elo;
mod gsprt;
mod sprt;

pub use counts::{GameResult, Pentanomial, Wdl};
pub use elo::{
    EloEstimate, SCORE_EPSILON, Z95, elo_to_score, erf, max_elo, normal_cdf, score_to_elo,
};
pub use sprt::{EloModel, MAX_SPRT_ELO, SPRT_PRIOR, Sprt, SprtDecision, SprtError};

// Reference values in the tests were computed once with Python 3.11 and the standard library only
// (math.erf, math.log10), written independently of this module:
// - Elo, interval, LOS and nElo from the closed forms in the module comment;
// - trinomial logistic LLRs by golden-section maximisation of Σ p̂ ln p over the one free
//   parameter (the draw probability) under each hypothesis's mean-score constraint, which
//   needs no Lagrange multiplier at all (the same values also came out of a Newton solve);
// - pentanomial and normalized LLRs by the Van den Bergh equations solved with Newton's
//   method for θ instead of the bisection used here.

/// Asserts that `actual` is within `tolerance` of `expected`.
#[cfg(test)]
fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "expected {expected}, got {actual} (tolerance {tolerance})"
    );
}
