//! Ratings of many engines from a whole result table at once, by maximum likelihood, as Ordo
//! computes them.
//!
//! The model is the logistic (Bradley-Terry) Elo model: engine `i` with strength `θ_i` scores
//! against `j` with probability `p_ij = 1 / (1 + e^(θ_j - θ_i))`, and Elo is `θ · 400 / ln 10`.
//! A draw counts as half a win and half a loss (Ordo's default), so the likelihood is
//! `Π p_ij^s_ij (1 - p_ij)^(n_ij - s_ij)` over every pair, with `s_ij` the points `i` scored
//! against `j` in `n_ij` games. Games are taken one by one: the colour-swapped pairs of a
//! tournament are not modelled as pairs here (the two-engine summary does that), which makes
//! the intervals slightly wider than a pair model would.
//!
//! The log-likelihood is concave in the strengths, so Newton's method with a step-halving line
//! search finds its maximum in a few iterations from all zeros. The 95% intervals come from the
//! observed information (the negative Hessian at the maximum): because a draw is counted as two
//! half games rather than as its own outcome, the variance of a game's score is taken as
//! `p(1 - p)`, which overstates it when there are draws, so the intervals err on the wide side.
//! The likelihood of superiority of an engine over the next one in the ranking is
//! `Φ(Δ / sd(Δ))` from the same covariance.
//!
//! A finite maximum exists only when every engine has scored against some engine in every
//! group the others can be split into (the graph "`i` scored against `j`" is strongly
//! connected). When it is not (an engine won or lost every game), one virtual draw is added to
//! every pairing that played, as BayesElo's prior of virtual draws does, and the ratings say
//! so. Engines with no path of games between them cannot be compared at all: an error.

use serde::Serialize;

use crate::report::results::ResultTable;
use crate::report::stats::{Z95, normal_cdf};

/// Elo points per unit of the natural log-strength.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Which rating is zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Zero {
    /// The first engine (the one under test in a gauntlet) is rated 0.
    First,
    /// The ratings average 0.
    Average,
}

impl Zero {
    /// Parses `first` or `average`.
    pub fn parse(text: &str) -> Result<Zero, String> {
        match text {
            "first" => Ok(Zero::First),
            "average" => Ok(Zero::Average),
            _ => Err(format!(
                "bad rating zero '{text}': expected 'first' or 'average'"
            )),
        }
    }
}

/// Why no ratings could be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingsError {
    /// Some engines are linked to the others by no game at all.
    #[error("no ratings: {0} played no game linked to {1}")]
    Disconnected(String, String),
}

/// Ratings of every engine, with their 95% intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Elo of each engine, in table order.
    pub elo: Vec<f64>,
    /// Half the width of each engine's 95% interval (0 for the engine fixed at zero).
    pub error: Vec<f64>,
    /// Engine indices from the highest rating to the lowest.
    pub ranking: Vec<usize>,
    /// For each place of the ranking but the last, the likelihood that its engine is stronger
    /// than the next one's.
    pub los_next: Vec<f64>,
    /// Which rating is zero.
    pub zero: Zero,
    /// Whether the virtual draws were needed (an engine won or lost every game).
    pub prior: bool,
    /// Covariance of the ratings, in Elo², under `zero`.
    #[serde(skip)]
    pub covariance: Vec<Vec<f64>>,
}

impl Ratings {
    /// The likelihood that engine `a` is stronger than engine `b`.
    pub fn los(&self, a: usize, b: usize) -> f64 {
        let c = &self.covariance;
        let var = c[a][a] + c[b][b] - 2.0 * c[a][b];
        let diff = self.elo[a] - self.elo[b];
        if var > 0.0 {
            normal_cdf(diff / var.sqrt())
        } else if diff == 0.0 {
            0.5
        } else if diff > 0.0 {
            1.0
        } else {
            0.0
        }
    }
}

/// Points (`s`, in halves) and games (`n`) between every two engines, as floats.
struct Counts {
    s: Vec<Vec<f64>>,
    n: Vec<Vec<f64>>,
}

impl Counts {
    fn from_table(table: &ResultTable, prior: bool) -> Counts {
        let k = table.len();
        let mut s = vec![vec![0.0; k]; k];
        let mut n = vec![vec![0.0; k]; k];
        for i in 0..k {
            for j in 0..k {
                let games = table.games_between(i, j) as f64;
                if i == j || games == 0.0 {
                    continue;
                }
                let virtual_draw = if prior { 1.0 } else { 0.0 };
                n[i][j] = games + virtual_draw;
                s[i][j] = table.points_between(i, j) + virtual_draw / 2.0;
            }
        }
        Counts { s, n }
    }

    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let mut sum = 0.0;
        for i in 0..theta.len() {
            for j in i + 1..theta.len() {
                if self.n[i][j] > 0.0 {
                    let d = theta[i] - theta[j];
                    // ln p = -ln(1 + e^-d), ln(1 - p) = -ln(1 + e^d), written to avoid overflow.
                    sum -= self.s[i][j] * softplus(-d) + self.s[j][i] * softplus(d);
                }
            }
        }
        sum
    }

    /// The gradient and the information matrix (the negative Hessian) at `theta`.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let k = theta.len();
        let mut grad = vec![0.0; k];
        let mut info = vec![vec![0.0; k]; k];
        for i in 0..k {
            for j in 0..k {
                if i == j || self.n[i][j] == 0.0 {
                    continue;
                }
                let p = logistic(theta[i] - theta[j]);
                grad[i] += self.s[i][j] - self.n[i][j] * p;
                let w = self.n[i][j] * p * (1.0 - p);
                info[i][i] += w;
                info[i][j] -= w;
            }
        }
        (grad, info)
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 { x } else { x.exp().ln_1p() }
}

/// Which engines engine 0 reaches along the edges `i -> j` for which `edge(i, j)` holds.
fn reached(k: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; k];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, seen) in seen.iter_mut().enumerate() {
            if i != j && !*seen && edge(i, j) {
                *seen = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// Whether every engine can reach every other along "scored against" edges.
fn strongly_connected(table: &ResultTable) -> bool {
    let k = table.len();
    let forward = reached(k, |i, j| table.half_points_between(i, j) > 0);
    let backward = reached(k, |i, j| table.half_points_between(j, i) > 0);
    forward.iter().chain(&backward).all(|&s| s)
}

/// The first engine not linked to engine 0 by games, if any.
fn unlinked(table: &ResultTable) -> Option<usize> {
    reached(table.len(), |i, j| table.games_between(i, j) > 0)
        .iter()
        .position(|&s| !s)
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky), or `None` if it is not.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if sum <= 0.0 {
                    return None;
                }
                l[i][i] = sum.sqrt();
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// The information matrix without engine 0's row and column (engine 0 fixed at zero).
fn reduced(info: &[Vec<f64>]) -> Vec<Vec<f64>> {
    info[1..].iter().map(|row| row[1..].to_vec()).collect()
}

/// Maximises the likelihood with engine 0 at zero; the strengths in nats.
fn maximise(counts: &Counts, k: usize) -> Vec<f64> {
    let mut theta = vec![0.0; k];
    let mut current = counts.log_likelihood(&theta);
    for _ in 0..200 {
        let (grad, info) = counts.derivatives(&theta);
        let Some(step) = solve(&reduced(&info), &grad[1..]) else {
            break;
        };
        let mut scale = 1.0;
        let mut improved = false;
        while scale > 1e-12 {
            let trial: Vec<f64> = std::iter::once(0.0)
                .chain(theta[1..].iter().zip(&step).map(|(t, d)| t + scale * d))
                .collect();
            let value = counts.log_likelihood(&trial);
            if value >= current {
                let gain = value - current;
                theta = trial;
                current = value;
                improved = gain > 1e-13 * current.abs().max(1.0);
                break;
            }
            scale /= 2.0;
        }
        let largest = step.iter().fold(0.0f64, |m, d| m.max(d.abs())) * scale;
        if !improved || largest < 1e-12 {
            break;
        }
    }
    theta
}

/// Inverts a symmetric positive definite matrix column by column.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for c in 0..n {
        let mut unit = vec![0.0; n];
        unit[c] = 1.0;
        columns.push(solve(a, &unit)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

/// Rates every engine of `table` (at least two, every one linked to the others by games).
pub fn rate(table: &ResultTable, zero: Zero) -> Result<Ratings, RatingsError> {
    let k = table.len();
    assert!(k >= 2, "ratings need two engines");
    if let Some(lonely) = unlinked(table) {
        return Err(RatingsError::Disconnected(
            table.names[lonely].clone(),
            table.names[0].clone(),
        ));
    }
    let prior = !strongly_connected(table);
    let counts = Counts::from_table(table, prior);
    let theta = maximise(&counts, k);
    let (_, info) = counts.derivatives(&theta);
    let inverse = invert(&reduced(&info)).expect("a linked table has a positive information");
    // Covariance with engine 0 fixed (its row and column zero), in Elo².
    let mut cov = vec![vec![0.0; k]; k];
    for i in 1..k {
        for j in 1..k {
            cov[i][j] = inverse[i - 1][j - 1] * ELO_PER_NAT * ELO_PER_NAT;
        }
    }
    let mut elo: Vec<f64> = theta.iter().map(|t| t * ELO_PER_NAT).collect();
    if zero == Zero::Average {
        // r - mean(r) = C r with C = I - 11ᵀ/k, so the covariance becomes C Σ C.
        let mean = elo.iter().sum::<f64>() / k as f64;
        elo.iter_mut().for_each(|e| *e -= mean);
        let row_mean: Vec<f64> = cov
            .iter()
            .map(|r| r.iter().sum::<f64>() / k as f64)
            .collect();
        let all_mean = row_mean.iter().sum::<f64>() / k as f64;
        for i in 0..k {
            for j in 0..k {
                cov[i][j] += all_mean - row_mean[i] - row_mean[j];
            }
        }
    }
    let error = (0..k).map(|i| Z95 * cov[i][i].max(0.0).sqrt()).collect();
    let mut ranking: Vec<usize> = (0..k).collect();
    ranking.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]).then(a.cmp(&b)));
    let mut ratings = Ratings {
        elo,
        error,
        ranking,
        los_next: Vec::new(),
        zero,
        prior,
        covariance: cov,
    };
    ratings.los_next = ratings
        .ranking
        .windows(2)
        .map(|w| ratings.los(w[0], w[1]))
        .collect();
    Ok(ratings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::{GameResult, score_to_elo};

    fn table(names: usize, games: &[(usize, usize, u64, u64, u64)]) -> ResultTable {
        let mut t = ResultTable::new((0..names).map(|i| format!("e{i}")).collect());
        for &(a, b, w, d, l) in games {
            for _ in 0..w {
                t.add(a, b, GameResult::Win);
            }
            for _ in 0..d {
                t.add(a, b, GameResult::Draw);
            }
            for _ in 0..l {
                t.add(a, b, GameResult::Loss);
            }
        }
        t
    }

    #[test]
    fn two_engines_get_the_logistic_elo_of_the_score() {
        // 30 wins, 40 draws, 10 losses: 50 of 80 points, a score of 0.625.
        let t = table(2, &[(0, 1, 30, 40, 10)]);
        let r = rate(&t, Zero::First).unwrap();
        assert_eq!(r.elo[0], 0.0);
        let expected = -score_to_elo(0.625);
        assert!(
            (r.elo[1] - expected).abs() < 1e-9,
            "{} {}",
            r.elo[1],
            expected
        );
        // The information of n Bernoulli games at p is n p (1 - p).
        let sd = ELO_PER_NAT / (80.0 * 0.625 * 0.375f64).sqrt();
        assert!((r.error[1] - Z95 * sd).abs() < 1e-9);
        assert_eq!(r.error[0], 0.0);
        assert_eq!(r.ranking, vec![0, 1]);
        assert!(!r.prior);
        // LOS of the better engine: Φ(Δ / sd).
        let los = normal_cdf(expected.abs() / sd);
        assert!((r.los_next[0] - los).abs() < 1e-12);
        let average = rate(&t, Zero::Average).unwrap();
        assert!((average.elo[0] + average.elo[1]).abs() < 1e-9);
        assert!((average.elo[0] - average.elo[1] + expected).abs() < 1e-9);
        assert!((average.error[0] - Z95 * sd / 2.0).abs() < 1e-9);
    }

    /// The log-likelihood written out on its own, for the brute-force check.
    fn log_likelihood(t: &ResultTable, elo: &[f64]) -> f64 {
        let mut sum = 0.0;
        for i in 0..t.len() {
            for j in 0..t.len() {
                if i != j {
                    let p = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
                    sum += t.points_between(i, j) * p.ln();
                }
            }
        }
        sum
    }

    #[test]
    fn three_engines_match_a_brute_force_maximisation() {
        let t = table(3, &[(0, 1, 12, 10, 8), (0, 2, 20, 6, 4), (1, 2, 9, 15, 6)]);
        let r = rate(&t, Zero::First).unwrap();
        // Grid search over the two free ratings, then a finer grid around the best point.
        let search = |center: (f64, f64), half: f64, step: f64| {
            let mut best = (f64::NEG_INFINITY, 0.0, 0.0);
            let steps = (2.0 * half / step) as i64;
            for a in 0..=steps {
                for b in 0..=steps {
                    let e1 = center.0 - half + a as f64 * step;
                    let e2 = center.1 - half + b as f64 * step;
                    let value = log_likelihood(&t, &[0.0, e1, e2]);
                    if value > best.0 {
                        best = (value, e1, e2);
                    }
                }
            }
            best
        };
        let coarse = search((0.0, 0.0), 600.0, 2.0);
        let best = search((coarse.1, coarse.2), 3.0, 0.01);
        assert!((r.elo[1] - best.1).abs() < 0.02, "{} {}", r.elo[1], best.1);
        assert!((r.elo[2] - best.2).abs() < 0.02, "{} {}", r.elo[2], best.2);
        assert_eq!(r.ranking, vec![0, 1, 2]);

        // Errors: the inverse of a finite-difference Hessian of the same likelihood.
        let h = 0.5;
        let at = |d1: f64, d2: f64| log_likelihood(&t, &[0.0, r.elo[1] + d1, r.elo[2] + d2]);
        let f0 = at(0.0, 0.0);
        let h11 = -(at(h, 0.0) - 2.0 * f0 + at(-h, 0.0)) / (h * h);
        let h22 = -(at(0.0, h) - 2.0 * f0 + at(0.0, -h)) / (h * h);
        let h12 = -(at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4.0 * h * h);
        let det = h11 * h22 - h12 * h12;
        let var1 = h22 / det;
        let var2 = h11 / det;
        assert!((r.error[1] - Z95 * var1.sqrt()).abs() < 0.01);
        assert!((r.error[2] - Z95 * var2.sqrt()).abs() < 0.01);
        let var_diff = var1 + var2 - 2.0 * (-h12 / det);
        let los = normal_cdf((r.elo[1] - r.elo[2]) / var_diff.sqrt());
        assert!(
            (r.los_next[1] - los).abs() < 1e-4,
            "{} {los}",
            r.los_next[1]
        );
    }

    #[test]
    fn the_average_zero_shifts_the_ratings_and_keeps_the_differences() {
        let t = table(
            4,
            &[
                (0, 1, 5, 3, 2),
                (0, 2, 7, 2, 1),
                (0, 3, 4, 4, 2),
                (1, 2, 3, 4, 3),
                (1, 3, 2, 5, 3),
                (2, 3, 1, 5, 4),
            ],
        );
        let first = rate(&t, Zero::First).unwrap();
        let average = rate(&t, Zero::Average).unwrap();
        assert!(average.elo.iter().sum::<f64>().abs() < 1e-9);
        for i in 0..4 {
            for j in 0..4 {
                let d1 = first.elo[i] - first.elo[j];
                let d2 = average.elo[i] - average.elo[j];
                assert!((d1 - d2).abs() < 1e-9);
                assert!((first.los(i, j) - average.los(i, j)).abs() < 1e-9);
            }
        }
        // The gradient is zero at the maximum: each engine's expected points equal its points.
        for i in 0..4 {
            let expected: f64 = (0..4)
                .filter(|&j| j != i)
                .map(|j| {
                    let p = 1.0 / (1.0 + 10f64.powf((first.elo[j] - first.elo[i]) / 400.0));
                    p * t.games_between(i, j) as f64
                })
                .sum();
            assert!(
                (expected - t.points(i)).abs() < 1e-7,
                "{expected} {}",
                t.points(i)
            );
        }
    }

    #[test]
    fn a_perfect_score_uses_the_virtual_draws() {
        // e0 won every game: no finite maximum without the prior.
        let t = table(3, &[(0, 1, 10, 0, 0), (0, 2, 10, 0, 0), (1, 2, 5, 2, 3)]);
        let r = rate(&t, Zero::Average).unwrap();
        assert!(r.prior);
        assert_eq!(r.ranking[0], 0);
        assert!(r.elo.iter().all(|e| e.is_finite()));
        assert!(r.error.iter().all(|e| e.is_finite() && *e > 0.0));
        // With the prior, e0 scored 10.5 of 11 against each: close to its logistic Elo.
        let two = rate(&table(2, &[(0, 1, 10, 0, 0)]), Zero::First).unwrap();
        assert!(two.prior);
        assert!((two.elo[1] + score_to_elo(10.5 / 11.0)).abs() < 1e-9);
    }

    #[test]
    fn engines_without_games_between_them_are_refused() {
        let t = table(4, &[(0, 1, 1, 1, 1), (2, 3, 1, 1, 1)]);
        assert_eq!(
            rate(&t, Zero::First).unwrap_err().to_string(),
            "no ratings: e2 played no game linked to e0"
        );
    }

    #[test]
    fn equal_engines_rate_equal() {
        let t = table(3, &[(0, 1, 2, 6, 2), (0, 2, 3, 4, 3), (1, 2, 1, 8, 1)]);
        let r = rate(&t, Zero::Average).unwrap();
        assert!(r.elo.iter().all(|e| e.abs() < 1e-9));
        assert!(r.los_next.iter().all(|l| (l - 0.5).abs() < 1e-9));
    }

    #[test]
    fn zero_parses() {
        assert_eq!(Zero::parse("first"), Ok(Zero::First));
        assert_eq!(Zero::parse("average"), Ok(Zero::Average));
        assert_eq!(
            Zero::parse("mean").unwrap_err(),
            "bad rating zero 'mean': expected 'first' or 'average'"
        );
    }
}
