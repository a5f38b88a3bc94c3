//! The report of a match, computed from its game records alone.
//!
//! Because the report is a function of the set of records (not of the order they finished in,
//! nor of which machine played them), a resumed match, a merge of shards and an unsharded run
//! report the same numbers. The statistics are reached through [`Counts`] and the few functions
//! at the bottom of this file: that is the one place to rewire to `stats.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::config::SprtSpec;
use crate::record::{GameRecord, Reason};
use crate::report::stats::{self, Pentanomial, SprtDecision, Wdl};

/// The result counts the statistics are computed from, from the first engine's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games won, drawn, lost by the first engine.
    pub wdl: Wdl,
    /// Complete pairs by the first engine's points in the pair: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
    /// Games whose pair partner is not (yet) recorded.
    pub unpaired: u64,
}

/// The state of a sequential test, as reports print it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The log-likelihood ratio so far.
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
    /// What the test says so far.
    pub decision: SprtDecision,
}

/// The `--json` summary object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games recorded.
    pub games: u64,
    /// The engine whose Elo is reported, and its opponent.
    pub elo_for: String,
    /// The opponent.
    pub elo_against: String,
    /// Wins, draws, losses per engine name.
    pub engines: BTreeMap<String, Wdl>,
    /// The first engine's score, 0..1.
    pub score: Option<f64>,
    /// Elo difference first - second (null when not finite).
    pub elo: Option<f64>,
    /// Half-width of its 95% interval (null when not finite, or when the games do not vary
    /// enough to estimate it: a single pair, or every pair with the same result).
    pub elo_error: Option<f64>,
    /// The 95% interval itself, `[lower, upper]`, when there is one: it is not symmetric about
    /// `elo` (the score-to-Elo curve bends), which `elo_error` alone hides.
    pub elo_interval: Option<[f64; 2]>,
    /// Whether the estimate or its interval hit the model's limit (a score of 0% or 100%, or
    /// close to it): Elo is then only a bound.
    pub elo_clamped: bool,
    /// When every game was won (or lost), the one-sided 95% bound on the Elo difference
    /// (a lower bound, or an upper bound when all were lost), which the interval cannot give.
    pub elo_bound: Option<f64>,
    /// Likelihood that the first engine is the stronger.
    pub los: Option<f64>,
    /// Drawn games / games.
    pub draw_ratio: Option<f64>,
    /// Complete pairs `[LL, LD, DD+WL, WD, WW]` from the first engine's side.
    pub pentanomial: [u64; 5],
    /// Games without their pair partner (then the estimate is game by game).
    pub unpaired_games: u64,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<String, u64>,
    /// Forfeits by engine name, then reason.
    pub forfeits_by_engine: BTreeMap<String, BTreeMap<String, u64>>,
    /// Games cut off by `--maxplies`.
    pub adjudications: u64,
    /// The sequential test, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtState>,
}

/// The games that did not end by the rules: forfeits and adjudications.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Forfeits by reason.
    pub forfeits: BTreeMap<String, u64>,
    /// Forfeits by engine name, then reason.
    pub by_engine: BTreeMap<String, BTreeMap<String, u64>>,
    /// Adjudicated games.
    pub adjudications: u64,
}

/// Counts the forfeits and adjudications of `records`.
pub fn faults(records: &[GameRecord]) -> Faults {
    let mut faults = Faults::default();
    for record in records {
        match record.reason {
            Reason::Normal => {}
            Reason::Adjudication => faults.adjudications += 1,
            reason => {
                *faults
                    .forfeits
                    .entry(reason.as_str().to_string())
                    .or_insert(0) += 1;
                if let Some(loser) = &record.loser {
                    *faults
                        .by_engine
                        .entry(loser.clone())
                        .or_default()
                        .entry(reason.as_str().to_string())
                        .or_insert(0) += 1;
                }
            }
        }
    }
    faults
}

/// The line `Forfeits: ...` of a report.
pub fn forfeits_line(
    forfeits: &BTreeMap<String, u64>,
    by_engine: &BTreeMap<String, BTreeMap<String, u64>>,
) -> String {
    if forfeits.is_empty() {
        return "Forfeits: none\n".to_string();
    }
    let list: Vec<String> = forfeits.iter().map(|(r, n)| format!("{r} {n}")).collect();
    let who: Vec<String> = by_engine
        .iter()
        .map(|(name, reasons)| format!("{name} {}", reasons.values().sum::<u64>()))
        .collect();
    format!("Forfeits: {} (by {})\n", list.join(", "), who.join(", "))
}

/// Counts the results of `records` from the side of `engines[0]`.
pub fn counts(engines: &[String; 2], records: &[GameRecord]) -> Counts {
    let mut tally = crate::report::tally::Tally::default();
    for record in records {
        debug_assert_eq!(&record.engines, engines);
        tally.add(record);
    }
    *tally.counts()
}

/// The Elo of a progress line over the counts `c` ([`Summary::progress_elo`]).
pub fn progress_elo_of(c: &Counts) -> String {
    let (elo, bound) = elo_or_bound(c);
    progress_elo(elo, bound, c.wdl.wins > 0)
}

/// The Elo a summary reports from `c` (none for a clean sweep, which has no finite estimate)
/// and a clean sweep's one-sided bound.
fn elo_or_bound(c: &Counts) -> (Option<f64>, Option<f64>) {
    let games = c.wdl.wins + c.wdl.draws + c.wdl.losses;
    let estimate = estimate(c);
    let bound = sweep_bound(c.wdl.wins, c.wdl.draws, c.wdl.losses);
    let elo = (games > 0 && bound.is_none())
        .then_some(estimate.elo + 0.0)
        .and_then(finite);
    (elo, bound)
}

/// The Elo estimate from `c`: from pairs once one is complete, else from games.
fn estimate(c: &Counts) -> stats::EloEstimate {
    if c.pentanomial.iter().sum::<u64>() > 0 {
        Pentanomial::new(c.pentanomial).elo()
    } else {
        c.wdl.elo()
    }
}

/// The Elo of a progress line: the estimate, or a clean sweep's one-sided bound once it says
/// more than nothing (after one won game the bound is `>= -512`, true and useless: a sweep of
/// wins needs five games for a bound above 0), or `n/a`.
fn progress_elo(elo: Option<f64>, bound: Option<f64>, won: bool) -> String {
    match (elo, bound) {
        (Some(e), _) => format!("{e:+.0}"),
        (None, Some(b)) if won && b > 0.0 => format!(">= {b:+.0}"),
        (None, Some(b)) if !won && b < 0.0 => format!("<= {b:+.0}"),
        _ => "n/a".into(),
    }
}

/// The one-sided 95% Clopper-Pearson bound on Elo when all `n` games were won (or all lost):
/// the smallest per-game score `p` with `p^n >= 0.05`, turned into Elo.
fn sweep_bound(wins: u64, draws: u64, losses: u64) -> Option<f64> {
    let n = (wins + draws + losses) as f64;
    if draws > 0 || n == 0.0 || (wins > 0 && losses > 0) {
        return None;
    }
    let p = 0.05f64.powf(1.0 / n);
    let elo = stats::score_to_elo(p);
    Some(if wins > 0 { elo } else { -elo })
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The SPRT state on these counts.
pub fn sprt(spec: &SprtSpec, counts: &Counts) -> SprtState {
    let test = stats::Sprt::new(spec.elo0, spec.elo1, spec.alpha, spec.beta)
        .expect("SprtSpec::parse accepts only valid parameters");
    let llr = test.llr(&Pentanomial::new(counts.pentanomial));
    let (lower, upper) = (test.lower(), test.upper());
    let decision = test.decision(llr);
    SprtState {
        elo0: spec.elo0,
        elo1: spec.elo1,
        alpha: spec.alpha,
        beta: spec.beta,
        llr,
        lower,
        upper,
        decision,
    }
}

/// The report of the games in `records`, between `engines` (Elo for the first).
pub fn summarize(
    engines: &[String; 2],
    records: &[GameRecord],
    sprt_spec: Option<&SprtSpec>,
) -> Summary {
    let c = counts(engines, records);
    let games = records.len() as u64;
    let estimate = estimate(&c);
    let (elo, bound) = elo_or_bound(&c);
    let faults = faults(records);
    let wdl = c.wdl;
    let mut engines_map = BTreeMap::new();
    engines_map.insert(engines[0].clone(), wdl);
    engines_map.insert(
        engines[1].clone(),
        Wdl {
            wins: wdl.losses,
            draws: wdl.draws,
            losses: wdl.wins,
        },
    );
    let ratio = |x: f64| (games > 0).then(|| x / games as f64);
    Summary {
        games,
        elo_for: engines[0].clone(),
        elo_against: engines[1].clone(),
        engines: engines_map,
        score: ratio(wdl.wins as f64 + wdl.draws as f64 / 2.0),
        // A clean sweep has no finite estimate: report its bound instead (`elo_bound`).
        elo,
        elo_error: (games > 0 && bound.is_none())
            .then_some(estimate.error)
            .and_then(finite)
            .filter(|&error| error > 0.0),
        elo_interval: (games > 0 && bound.is_none() && estimate.error > 0.0)
            .then_some([estimate.lower, estimate.upper])
            .filter(|ends| ends.iter().all(|e| e.is_finite())),
        elo_clamped: games > 0 && estimate.clamped,
        elo_bound: bound,
        los: (games > 0).then_some(estimate.los).and_then(finite),
        draw_ratio: ratio(wdl.draws as f64),
        pentanomial: c.pentanomial,
        unpaired_games: c.unpaired,
        forfeits: faults.forfeits,
        forfeits_by_engine: faults.by_engine,
        adjudications: faults.adjudications,
        sprt: sprt_spec.map(|spec| sprt(spec, &c)),
    }
}

/// A share as a percentage with one decimal, or `n/a` (with no games).
fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |v| format!("{:.1}%", v * 100.0))
}

impl Summary {
    /// The Elo of a progress line: the estimate, or a clean sweep's one-sided bound once it says
    /// more than nothing, or `n/a`.
    pub fn progress_elo(&self) -> String {
        let won = self.engines.get(&self.elo_for).is_some_and(|w| w.wins > 0);
        progress_elo(self.elo, self.elo_bound, won)
    }

    /// The human table printed at the end of a match.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let (a, b) = (&self.elo_for, &self.elo_against);
        let _ = writeln!(out, "Games: {}", self.games);
        let width = a.len().max(b.len()).max(6);
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>6}  {:>6}  {:>7}",
            "Engine", "Wins", "Draws", "Losses", "Score"
        );
        for name in [a, b] {
            let w = self.engines[name];
            let played = w.wins + w.draws + w.losses;
            let score =
                (played > 0).then(|| (w.wins as f64 + w.draws as f64 / 2.0) / played as f64);
            let _ = writeln!(
                out,
                "{name:<width$}  {:>6}  {:>6}  {:>6}  {:>7}",
                w.wins,
                w.draws,
                w.losses,
                percent(score)
            );
        }
        let elo = match (self.elo, self.elo_error) {
            _ if self.elo_bound.is_some() => {
                let bound = self.elo_bound.unwrap_or_default();
                let side = if self.score.unwrap_or_default() > 0.5 {
                    ">="
                } else {
                    "<="
                };
                format!(
                    "{side} {bound:+.1} (95% one-sided: every game went one way, so there is no finite estimate)"
                )
            }
            (Some(e), Some(err)) if self.elo_clamped => format!(
                "{e:+.1} +/- {err:.1} (95%; the interval reaches the model's limit: play a closer opponent)"
            ),
            (Some(e), Some(err)) => match self.elo_interval {
                Some([lower, upper]) => {
                    format!("{e:+.1} +/- {err:.1} (95%: {lower:+.1} to {upper:+.1})")
                }
                None => format!("{e:+.1} +/- {err:.1} (95%)"),
            },
            (Some(e), None) => {
                format!("{e:+.1} (no error bar yet: too few pairs, or all with the same result)")
            }
            _ if self.games == 0 => "n/a (no games)".to_string(),
            _ => "n/a (one side scored everything or nothing)".to_string(),
        };
        let _ = writeln!(out, "Elo {a} - {b}: {elo}");
        let _ = writeln!(
            out,
            "LOS: {}   Draw ratio: {}",
            percent(self.los),
            percent(self.draw_ratio)
        );
        let _ = write!(
            out,
            "Pentanomial [LL, LD, DD+WL, WD, WW]: {:?}",
            self.pentanomial
        );
        if self.unpaired_games > 0 {
            let _ = write!(out, " (+{} unpaired games)", self.unpaired_games);
        }
        out.push('\n');
        out += &forfeits_line(&self.forfeits, &self.forfeits_by_engine);
        if self.adjudications > 0 {
            let _ = writeln!(out, "Adjudicated: {}", self.adjudications);
        }
        if let Some(s) = &self.sprt {
            let _ = writeln!(out, "{}", sprt_line(s));
        }
        out
    }
}

/// One line describing the state of a test.
pub fn sprt_line(s: &SprtState) -> String {
    let verdict = match s.decision {
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::Continue => "continue",
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {verdict}",
        s.elo0, s.elo1, s.alpha, s.beta, s.llr, s.lower, s.upper
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::testing;

    #[test]
    fn a_clean_sweep_gets_a_one_sided_bound() {
        // 0.05^(1/200) = 0.9851330, and -400 log10(1/0.9851330 - 1) = 728.51 (Python, math module).
        let bound = sweep_bound(200, 0, 0).unwrap();
        assert!((bound - 728.51).abs() < 0.01, "{bound}");
        assert_eq!(sweep_bound(0, 0, 200), Some(-bound));
        assert_eq!(sweep_bound(199, 1, 0), None);
        assert_eq!(sweep_bound(100, 0, 100), None);
        assert_eq!(sweep_bound(0, 0, 0), None);
    }

    /// Game `game` between a and b, a first in even games, ended for `reason`.
    fn record(game: u64, result: &str, reason: Reason, loser: Option<&str>) -> GameRecord {
        let (first, second) = if game.is_multiple_of(2) {
            ("a", "b")
        } else {
            ("b", "a")
        };
        GameRecord {
            reason,
            loser: loser.map(str::to_string),
            ..testing::record(game, first, second, result)
        }
    }

    #[test]
    fn a_progress_line_gives_a_sweep_bound_only_once_it_says_something() {
        let names = ["a".to_string(), "b".to_string()];
        let sweep = |n: u64, result: &str| {
            let records: Vec<GameRecord> = (0..n)
                .map(|g| {
                    // The engine named a wins (or loses) every game, whichever colour it has.
                    let a_first = g.is_multiple_of(2);
                    let r = match (result, a_first) {
                        ("win", true) | ("loss", false) => "1-0",
                        _ => "0-1",
                    };
                    record(g, r, Reason::Normal, None)
                })
                .collect();
            summarize(&names, &records, None).progress_elo()
        };
        assert_eq!(sweep(1, "win"), "n/a", "one win: the bound is -512");
        assert_eq!(sweep(4, "win"), "n/a");
        assert!(sweep(5, "win").starts_with(">= +"), "{}", sweep(5, "win"));
        assert_eq!(sweep(2, "loss"), "n/a");
        assert!(sweep(6, "loss").starts_with("<= -"), "{}", sweep(6, "loss"));
        let n = Reason::Normal;
        let one_pair = [record(0, "1-0", n, None), record(1, "1-0", n, None)];
        assert_eq!(summarize(&names, &one_pair, None).progress_elo(), "+0");
    }

    #[test]
    fn games_that_do_not_vary_get_no_error_bar() {
        let n = Reason::Normal;
        let names = ["a".to_string(), "b".to_string()];
        // One pair, won then lost: Elo 0, but nothing to measure its spread on.
        let one_pair = [record(0, "1-0", n, None), record(1, "1-0", n, None)];
        let s = summarize(&names, &one_pair, None);
        assert_eq!(s.elo, Some(0.0));
        assert_eq!(s.elo_error, None);
        assert!(s.table().contains("no error bar yet"), "{}", s.table());
        // Two pairs with different results do get one.
        let two_pairs = [
            record(0, "1-0", n, None),
            record(1, "1-0", n, None),
            record(2, "1-0", n, None),
            record(3, "0-1", n, None),
        ];
        let s = summarize(&names, &two_pairs, None);
        assert!(s.elo_error.is_some_and(|e| e > 0.0), "{:?}", s.elo_error);
        // An empty shard: no games, not a lopsided result.
        let table = summarize(&names, &[], None).table();
        assert!(table.contains("Elo a - b: n/a (no games)"), "{table}");
    }

    #[test]
    fn the_interval_is_given_with_its_ends() {
        let n = Reason::Normal;
        let names = ["a".to_string(), "b".to_string()];
        // Three pairs lost by a (LL) and three split (WL): a lopsided score, where the interval
        // in Elo is far from symmetric.
        let mut records = Vec::new();
        for pair in 0..3 {
            records.push(record(2 * pair, "0-1", n, None));
            records.push(record(2 * pair + 1, "1-0", n, None));
        }
        for pair in 3..6 {
            records.push(record(2 * pair, "1-0", n, None));
            records.push(record(2 * pair + 1, "1-0", n, None));
        }
        let s = summarize(&names, &records, None);
        let expected = crate::report::stats::Pentanomial::new([3, 0, 3, 0, 0]).elo();
        let [lower, upper] = s.elo_interval.unwrap();
        assert_eq!((lower, upper), (expected.lower, expected.upper));
        let elo = s.elo.unwrap();
        assert!(lower < elo && elo < upper, "{lower} {elo} {upper}");
        assert!(
            (elo - lower - (upper - elo)).abs() > 10.0,
            "{lower} {elo} {upper}"
        );
        assert!(
            s.table()
                .contains(&format!("(95%: {lower:+.1} to {upper:+.1})")),
            "{}",
            s.table()
        );
    }

    #[test]
    fn pairs_are_counted_from_the_first_engines_side() {
        let n = Reason::Normal;
        let records = [
            // Pair 0: a wins as player 1, a wins as player 2 (0-1 with b first): WW.
            record(0, "1-0", n, None),
            record(1, "0-1", n, None),
            // Pair 1: a wins, then draws: WD.
            record(2, "1-0", n, None),
            record(3, "1/2-1/2", n, None),
            // Pair 2: a loses on time, then wins: WL, counted with DD.
            record(4, "0-1", Reason::Timeout, Some("a")),
            record(5, "0-1", n, None),
            // Pair 3, half played: a loses.
            record(6, "0-1", n, None),
        ];
        let names = ["a".to_string(), "b".to_string()];
        let c = counts(&names, &records);
        assert_eq!(c.pentanomial, [0, 0, 1, 1, 1]);
        assert_eq!(c.unpaired, 1);
        assert_eq!(
            c.wdl,
            Wdl {
                wins: 4,
                draws: 1,
                losses: 2
            }
        );
        let s = summarize(&names, &records, None);
        assert_eq!(
            s.engines["b"],
            Wdl {
                wins: 2,
                draws: 1,
                losses: 4
            }
        );
        assert_eq!(s.forfeits["timeout"], 1);
        assert_eq!(s.forfeits_by_engine["a"]["timeout"], 1);
        assert_eq!(s.draw_ratio, Some(1.0 / 7.0));
        assert!(s.elo.unwrap() > 0.0);
        // The report does not depend on the order the games finished in.
        let mut shuffled = records.to_vec();
        shuffled.reverse();
        assert_eq!(summarize(&names, &shuffled, None), s);
    }
}
