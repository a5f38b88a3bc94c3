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

use std::ops::{Add, AddAssign};

use serde::Serialize;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Scores are clamped into `[SCORE_EPSILON, 1 - SCORE_EPSILON]` before becoming Elo.
pub const SCORE_EPSILON: f64 = 1e-4;

/// The pseudo-count given to an empty cell by the SPRT (fishtest's and fastchess's value).
pub const SPRT_PRIOR: f64 = 1e-3;

/// `800 / ln 10`: the slope of the logistic Elo curve at a score of ½, times 4. Normalized Elo is
/// a score difference in standard deviations, expressed in these units.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Scores (per game, in `[0, 1]`) of the five pentanomial cells.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Scores of the three trinomial cells, ordered loss, draw, win.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

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

/// The result of one game for engine A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A won.
    Win,
    /// Neither won.
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// The same game seen from the other engine.
    pub fn swapped(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }

    /// A's points in half-points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
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
fn estimate(samples: u64, score: f64, variance: f64, per_sample_games: f64) -> EloEstimate {
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
fn mean_variance(scores: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}

/// Game-by-game counts: A's wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Wdl {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts from their three numbers.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Records one game.
    pub fn record(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's points (a win is 1, a draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same counts from B's point of view.
    pub fn swapped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Fraction of games drawn (0 with no games).
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.draws, self.games())
    }

    /// The counts ordered as the model's cells: loss, draw, win.
    fn cells(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Elo, 95% interval and LOS in the trinomial model (for games that are not paired).
    pub fn elo(&self) -> EloEstimate {
        let (score, variance) = sample_moments(&self.cells(), &GAME_SCORES);
        estimate(self.games(), score, variance, 1.0)
    }
}

impl Add for Wdl {
    type Output = Wdl;
    fn add(self, other: Wdl) -> Wdl {
        Wdl::new(
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
        )
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        *self = *self + other;
    }
}

/// Counts of game pairs by A's pair score, in half-points 0..=4:
/// `[LL, LD, DD + WL, WD, WW]`, the order fastchess prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// `counts[k]` is the number of pairs in which A scored `k` half-points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts from the five numbers `[LL, LD, DD + WL, WD, WW]`.
    pub fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Records a pair from the results of its two games (either order).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Number of games (two per pair).
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// The same counts from B's point of view.
    pub fn swapped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// Fraction of pairs that scored 1 for each side (DD or WL), as fastchess's pentanomial
    /// "DR" reports it (0 with no pairs). Game-level draws are [`Wdl::draw_ratio`].
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.counts[2], self.pairs())
    }

    /// Elo, 95% interval and LOS in the pentanomial model, as fastchess reports them.
    pub fn elo(&self) -> EloEstimate {
        let (score, variance) = sample_moments(&self.counts, &PAIR_SCORES);
        estimate(self.pairs(), score, variance, 2.0)
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;
    fn add(self, other: Pentanomial) -> Pentanomial {
        let mut counts = self.counts;
        for (c, o) in counts.iter_mut().zip(other.counts) {
            *c += o;
        }
        Pentanomial { counts }
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        *self = *self + other;
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Mean score and variance of one sample, from cell counts (½ and 0 with no samples).
fn sample_moments(counts: &[u64], scores: &[f64]) -> (f64, f64) {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return (0.5, 0.0);
    }
    let probs: Vec<f64> = counts.iter().map(|&c| c as f64 / total as f64).collect();
    mean_variance(scores, &probs)
}

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
fn gsprt_llr(
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

/// The largest |elo0| or |elo1| an SPRT takes.
pub const MAX_SPRT_ELO: f64 = 1000.0;

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

    // Reference values below were computed once with Python 3.11 and the standard library only
    // (math.erf, math.log10), written independently of this file:
    // - Elo, interval, LOS and nElo from the closed forms in the module comment;
    // - trinomial logistic LLRs by golden-section maximisation of Σ p̂ ln p over the one free
    //   parameter (the draw probability) under each hypothesis's mean-score constraint, which
    //   needs no Lagrange multiplier at all (the same values also came out of a Newton solve);
    // - pentanomial and normalized LLRs by the Van den Bergh equations solved with Newton's
    //   method for θ instead of the bisection used here.

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "expected {expected}, got {actual} (tolerance {tolerance})"
        );
    }

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
    fn pentanomial_elo_matches_fastchess_formulas() {
        let e = Pentanomial::new([10, 20, 30, 25, 15]).elo();
        assert_eq!(e.samples, 100);
        close(e.score, 0.5375, 1e-12);
        close(e.elo, 26.106_692_605_036_62, 1e-9);
        close(e.error, 41.104_012_059_701_6, 1e-9);
        close(e.lower, -14.630_927_454_962_531, 1e-9);
        close(e.upper, 67.577_096_664_440_67, 1e-9);
        close(e.los, 0.895_344_257_947_340_5, 1e-9);
        close(e.nelo, 30.843_418_102_874_622, 1e-9);
        assert!(!e.clamped);

        let e = Pentanomial::new([3, 9, 40, 12, 6]).elo();
        close(e.elo, 22.365_989_102_603_92, 1e-9);
        close(e.error, 36.635_501_810_241_43, 1e-9);
        close(e.los, 0.885_776_037_564_799_8, 1e-9);
        close(e.nelo, 35.364_618_275_496_22, 1e-9);
    }

    #[test]
    fn trinomial_elo_matches_fastchess_formulas() {
        let e = Wdl::new(25, 40, 30).elo();
        close(e.score, 0.473_684_210_526_315_76, 1e-12);
        close(e.elo, -18.302_996_224_270_057, 1e-9);
        close(e.error, 53.604_245_089_691_93, 1e-9);
        close(e.lower, -72.345_958_245_911_32, 1e-9);
        close(e.upper, 34.862_531_933_472_54, 1e-9);
        close(e.los, 0.249_577_914_528_539_4, 1e-9);
        close(e.nelo, -24.090_323_433_126_823, 1e-9);

        let e = Wdl::new(140, 300, 120).elo();
        close(e.elo, 12.413_693_495_987_452, 1e-9);
        close(e.error, 19.626_431_180_918_924, 1e-9);
        close(e.los, 0.892_891_798_243_295_8, 1e-9);
    }

    #[test]
    fn elo_by_hand() {
        // 3 wins and 1 loss: score 3/4, Elo = 400·log10(3) = 190.848...
        close(Wdl::new(3, 0, 1).elo().elo, 400.0 * 3f64.log10(), 1e-12);
        // Pairs 1.5 and 0.5 in equal numbers: score ½, Elo 0.
        close(Pentanomial::new([0, 7, 0, 7, 0]).elo().elo, 0.0, 1e-12);
    }

    #[test]
    fn equal_wins_and_losses_give_zero_elo_and_half_los() {
        for e in [
            Wdl::new(17, 5, 17).elo(),
            Pentanomial::new([4, 9, 30, 9, 4]).elo(),
            Pentanomial::new([0, 1, 50, 1, 0]).elo(),
        ] {
            close(e.elo, 0.0, 1e-12);
            close(e.los, 0.5, 1e-12);
            close(e.lower, -e.upper, 1e-9);
        }
        // The pure-draw-ish sample from the reference: ±9.262 Elo.
        close(
            Pentanomial::new([0, 1, 50, 1, 0]).elo().error,
            9.262_045_500_248_036,
            1e-9,
        );
    }

    #[test]
    fn swapping_engines_mirrors_everything() {
        let cases = [[10, 20, 30, 25, 15], [1, 0, 0, 0, 0], [3, 9, 40, 12, 6]];
        for counts in cases {
            let p = Pentanomial::new(counts);
            let (a, b) = (p.elo(), p.swapped().elo());
            close(a.elo, -b.elo, 1e-9);
            close(a.lower, -b.upper, 1e-9);
            close(a.error, b.error, 1e-9);
            close(a.los, 1.0 - b.los, 1e-12);
            assert_eq!(p.swapped().swapped(), p);
        }
        let w = Wdl::new(12, 7, 3);
        close(w.elo().elo, -w.swapped().elo().elo, 1e-9);
        close(w.elo().los, 1.0 - w.swapped().elo().los, 1e-12);
    }

    #[test]
    fn more_wins_means_more_elo_and_more_los() {
        let mut previous = Pentanomial::new([5, 5, 5, 5, 5]).elo();
        for extra in 1..20 {
            let e = Pentanomial::new([5, 5, 5, 5, 5 + extra]).elo();
            assert!(e.elo > previous.elo && e.los > previous.los);
            previous = e;
        }
        // More of the same results narrow the interval.
        let small = Pentanomial::new([1, 2, 3, 2, 1]).elo();
        let large = Pentanomial::new([100, 200, 300, 200, 100]).elo();
        assert!(large.error < small.error);
        close(small.elo, large.elo, 1e-12);
    }

    #[test]
    fn lopsided_results_stay_finite_and_flagged() {
        let cases = [
            Pentanomial::new([0, 0, 0, 0, 50]).elo(),
            Pentanomial::new([50, 0, 0, 0, 0]).elo(),
            Pentanomial::new([0, 0, 0, 0, 1]).elo(),
            Pentanomial::new([0, 0, 0, 1, 40]).elo(),
            Pentanomial::default().elo(),
            Wdl::new(1, 0, 0).elo(),
            Wdl::new(0, 0, 9).elo(),
            Wdl::default().elo(),
        ];
        for e in cases {
            for x in [
                e.elo,
                e.error,
                e.lower,
                e.upper,
                e.los,
                e.nelo,
                e.nelo_error,
            ] {
                assert!(x.is_finite(), "{e:?}");
            }
            assert!(e.elo.abs() <= max_elo() && e.lower <= e.elo && e.elo <= e.upper);
            assert!(e.clamped, "{e:?}");
        }
        let all_wins = Pentanomial::new([0, 0, 0, 0, 50]).elo();
        close(all_wins.elo, max_elo(), 1e-9);
        assert_eq!(all_wins.los, 1.0);
        let none = Wdl::default().elo();
        assert_eq!((none.elo, none.los, none.error), (0.0, 0.5, max_elo()));
        // One drawn pair: nothing is clamped, the interval is empty and the LOS undecided.
        let one = Pentanomial::new([0, 0, 1, 0, 0]).elo();
        assert_eq!(
            (one.elo, one.error, one.los, one.clamped),
            (0.0, 0.0, 0.5, false)
        );
        close(max_elo(), 400.0 * 9999f64.log10(), 1e-9);
    }

    #[test]
    fn counting_games_and_pairs() {
        let mut p = Pentanomial::default();
        p.add_pair(GameResult::Win, GameResult::Loss);
        p.add_pair(GameResult::Draw, GameResult::Draw);
        p.add_pair(GameResult::Win, GameResult::Draw);
        p.add_pair(GameResult::Loss, GameResult::Loss);
        assert_eq!(p.counts, [1, 0, 2, 1, 0]);
        assert_eq!((p.pairs(), p.games()), (4, 8));
        close(p.draw_ratio(), 0.5, 0.0);
        let mut w = Wdl::default();
        for r in [
            GameResult::Win,
            GameResult::Draw,
            GameResult::Draw,
            GameResult::Loss,
        ] {
            w.record(r);
            w.record(r.swapped());
        }
        assert_eq!(w, Wdl::new(2, 4, 2));
        close(w.draw_ratio(), 0.5, 0.0);
        close(w.points(), 4.0, 0.0);
        assert_eq!(Wdl::default().draw_ratio(), 0.0);
        assert_eq!(p + p, Pentanomial::new([2, 0, 4, 2, 0]));
        assert_eq!(w + w.swapped(), Wdl::new(4, 8, 4));
    }

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
