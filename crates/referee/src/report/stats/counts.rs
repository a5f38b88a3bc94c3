//! What a match counts: game results, game-by-game wins, draws and losses (the trinomial
//! model) and game pairs by A's pair score (the pentanomial model).

use std::ops::{Add, AddAssign};

use serde::Serialize;

use super::elo::{EloEstimate, estimate, sample_moments};

/// Scores (per game, in `[0, 1]`) of the five pentanomial cells.
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Scores of the three trinomial cells, ordered loss, draw, win.
pub(super) const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

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
    pub(super) fn cells(&self) -> [u64; 3] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::{close, max_elo};

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
}
