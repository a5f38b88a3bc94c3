//! What a search reports: its score and its progress, as `info` lines carry them. [`Score`] and
//! [`EngineScore`] are the one score type of pion, the engine's and other engines' alike, with
//! one printer for machines (`Display`, the protocol's words) and one for people
//! ([`EngineScore::human`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A score's value, for the side that reported it: a heuristic estimate, a result proven by
/// searching to the end, or another engine's UGI mate score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Heuristic, in hundredths of a point of final score (centipawns for other engines).
    Centi(i32),
    /// A proven win by this margin of final points.
    Win(u32),
    /// A proven draw.
    Draw,
    /// A proven loss by this margin of final points.
    Loss(u32),
    /// UGI's mate in N moves (negative: mated); not a score of these games, only read from
    /// other engines.
    Mate(i32),
}

/// Whether a score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// A score as an engine reports it: its value and, if the engine said so, a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineScore {
    /// The value.
    pub value: Score,
    /// A bound, if the engine said so.
    pub bound: Option<Bound>,
}

/// The result a score proves for the engine that reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// It wins.
    Win,
    /// Nobody wins.
    Draw,
    /// It loses.
    Loss,
}

/// Where proven results start in [`Score::rank`]: beyond any estimate; mates beyond those.
const PROVEN: i64 = 1 << 40;

impl Score {
    /// A total order on scores: proven losses below every estimate, proven wins above, a larger
    /// margin further out, and UGI mates beyond those (a nearer mate further out).
    pub fn rank(self) -> i64 {
        match self {
            Score::Centi(cp) => i64::from(cp),
            Score::Draw => 0,
            Score::Win(m) => PROVEN + i64::from(m),
            Score::Loss(m) => -PROVEN - i64::from(m),
            Score::Mate(n) if n >= 0 => 2 * PROVEN - i64::from(n),
            Score::Mate(n) => -2 * PROVEN - i64::from(n),
        }
    }
}

/// The same score for the other side.
impl std::ops::Neg for Score {
    type Output = Score;

    fn neg(self) -> Score {
        match self {
            Score::Centi(cp) => Score::Centi(-cp),
            Score::Draw => Score::Draw,
            Score::Win(m) => Score::Loss(m),
            Score::Loss(m) => Score::Win(m),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// The protocol's words for a value: `cp 12`, `win 4`, `draw`, `loss 2`, `mate -3`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centi(cp) => write!(f, "cp {cp}"),
            Score::Win(margin) => write!(f, "win {margin}"),
            Score::Draw => write!(f, "draw"),
            Score::Loss(margin) => write!(f, "loss {margin}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl FromStr for Score {
    type Err = String;

    /// Reads a score of these games as protocol.md writes it, with no bound: `cp 12`, `win 4`,
    /// `draw`.
    fn from_str(text: &str) -> Result<Score, String> {
        let bad = || format!("bad score '{text}' (cp <n>, win <n>, loss <n> or draw)");
        match text.parse::<EngineScore>().map_err(|_| bad())? {
            EngineScore {
                value: Score::Mate(_),
                ..
            }
            | EngineScore { bound: Some(_), .. } => Err(bad()),
            EngineScore { value, bound: None } => Ok(value),
        }
    }
}

impl From<Score> for EngineScore {
    /// An exact score.
    fn from(value: Score) -> EngineScore {
        EngineScore { value, bound: None }
    }
}

impl EngineScore {
    /// `value`, exact, or with `bounded` a margin that may still grow: a win (or an estimate)
    /// by this or more is a lower bound, a loss by this or more an upper bound.
    pub fn new(value: Score, bounded: bool) -> EngineScore {
        let bound = match value {
            _ if !bounded => None,
            Score::Loss(_) => Some(Bound::Upper),
            _ => Some(Bound::Lower),
        };
        EngineScore { value, bound }
    }

    /// The score in hundredths, with proven results and mates beyond any estimate, as
    /// [`Score::rank`] orders them.
    pub fn centi(&self) -> i64 {
        self.value.rank()
    }

    /// The result this score proves: pion's `win`, `draw` and `loss` (a win that is only bounded
    /// from below is still a win), not estimates nor UGI mate scores, which other engines also
    /// give for lines that are not searched to the end.
    pub fn proven(&self) -> Option<Proven> {
        match (self.value, self.bound) {
            (Score::Win(_), None | Some(Bound::Lower)) => Some(Proven::Win),
            (Score::Loss(_), None | Some(Bound::Upper)) => Some(Proven::Loss),
            (Score::Draw, None) => Some(Proven::Draw),
            _ => None,
        }
    }

    /// The score for a person, in points: `+0.30`, `win 3`, `draw`, `loss 2`, `mate 5`, with
    /// `>=` or `<=` before a bound. The one printer for people of pion's Rust front ends.
    pub fn human(&self) -> String {
        let bound = match self.bound {
            Some(Bound::Lower) => ">=",
            Some(Bound::Upper) => "<=",
            None => "",
        };
        let value = match self.value {
            Score::Centi(c) => {
                let sign = if c < 0 { "-" } else { "+" };
                let c = c.unsigned_abs();
                format!("{sign}{}.{:02}", c / 100, c % 100)
            }
            other => other.to_string(),
        };
        format!("{bound}{value}")
    }

    /// Reads a score from the words after `score`; returns it and how many words it took.
    pub(crate) fn from_words(words: &[&str]) -> Option<(EngineScore, usize)> {
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
        let (value, mut used) = match *words.first()? {
            "cp" => (Score::Centi(i32::try_from(number(1)?).ok()?), 2),
            "mate" => (Score::Mate(i32::try_from(number(1)?).ok()?), 2),
            "win" => (Score::Win(u32::try_from(number(1)?).ok()?), 2),
            "loss" => (Score::Loss(u32::try_from(number(1)?).ok()?), 2),
            "draw" => (Score::Draw, 1),
            _ => return None,
        };
        let bound = match words.get(used) {
            Some(&"lowerbound") => Some(Bound::Lower),
            Some(&"upperbound") => Some(Bound::Upper),
            _ => None,
        };
        used += bound.is_some() as usize;
        Some((EngineScore { value, bound }, used))
    }
}

/// The protocol's words for a score: its value, then `lowerbound` or `upperbound`.
impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)?;
        match self.bound {
            Some(Bound::Lower) => write!(f, " lowerbound"),
            Some(Bound::Upper) => write!(f, " upperbound"),
            None => Ok(()),
        }
    }
}

impl FromStr for EngineScore {
    type Err = String;

    /// Parses the protocol's score text, `cp 30 lowerbound` for instance.
    fn from_str(text: &str) -> Result<EngineScore, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match EngineScore::from_words(&words) {
            Some((score, used)) if used == words.len() => Ok(score),
            _ => Err(format!("bad score '{text}'")),
        }
    }
}

impl Serialize for EngineScore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for EngineScore {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<EngineScore, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One progress report of a running search, printed by the engine as an `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Completed depth (alpha-beta) or the length of the searched line of the tree (MCTS).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The score of the best move, if known; a bound when a win (or loss) was found before the
    /// whole tree was proven, so the result is certain but its margin may be bigger.
    pub score: Option<EngineScore>,
    /// Nodes searched (alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    /// Elapsed milliseconds.
    pub time_ms: u64,
    /// Transposition table use, per mille.
    pub hashfull: Option<u32>,
    /// MCTS playouts, when the search is MCTS.
    pub playouts: Option<u64>,
    /// Endgame database probes that gave a value, when databases are loaded.
    pub tbhits: Option<u64>,
    /// The principal variation, formatted moves.
    pub pv: Vec<String>,
}

impl Info {
    /// Nodes per second (see [`nps`]).
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time_ms)
    }
}

/// Nodes per second of `nodes` in `time_ms` milliseconds, or 0 when the time is 0 (under a
/// millisecond: too short to measure, as `perft` says): the one formula of `info` and `bench`.
pub fn nps(nodes: u64, time_ms: u64) -> u64 {
    nodes.saturating_mul(1000).checked_div(time_ms).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nps_is_zero_under_a_millisecond_and_the_rate_otherwise() {
        assert_eq!(nps(749, 0), 0);
        assert_eq!(nps(749, 1), 749_000);
        assert_eq!(nps(3_000, 1_500), 2_000);
        assert_eq!(nps(u64::MAX, 1000), u64::MAX / 1000);
    }

    #[test]
    fn scores_order_proofs_beyond_estimates_and_negate() {
        let ordered = [
            Score::Loss(5),
            Score::Loss(1),
            Score::Centi(-900),
            Score::Draw,
            Score::Centi(12),
            Score::Win(1),
            Score::Win(5),
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0].rank() < pair[1].rank(), "{pair:?}");
        }
        for score in ordered {
            assert_eq!((-score).rank(), -score.rank(), "{score}");
            assert_eq!(-(-score), score);
        }
    }

    #[test]
    fn scores_read_back_what_they_print_and_refuse_the_rest() {
        for score in [
            Score::Centi(-12),
            Score::Win(4),
            Score::Draw,
            Score::Loss(0),
        ] {
            assert_eq!(score.to_string().parse::<Score>(), Ok(score));
        }
        for bad in [
            "",
            "cp",
            "cp x",
            "mate 3",
            "win -1",
            "cp 5 lowerbound",
            "draw 2",
            "tie",
        ] {
            let err = bad.parse::<Score>().unwrap_err();
            assert!(err.starts_with("bad score"), "{bad}: {err}");
        }
    }

    #[test]
    fn scores_read_and_print_the_same() {
        for text in [
            "cp 30",
            "cp -7 upperbound",
            "win 3",
            "win 5 lowerbound",
            "draw",
            "loss 2 upperbound",
            "mate -4",
        ] {
            let score: EngineScore = text.parse().unwrap();
            assert_eq!(score.to_string(), text);
            let json = serde_json::to_string(&score).unwrap();
            assert_eq!(serde_json::from_str::<EngineScore>(&json).unwrap(), score);
        }
        assert_eq!("cp".parse::<EngineScore>().unwrap_err(), "bad score 'cp'");
        assert!("win 3 extra".parse::<EngineScore>().is_err());
    }

    #[test]
    fn proven_results_are_pions_words() {
        let proven = |t: &str| t.parse::<EngineScore>().unwrap().proven();
        assert_eq!(proven("win 3"), Some(Proven::Win));
        assert_eq!(proven("win 3 lowerbound"), Some(Proven::Win));
        assert_eq!(proven("loss 1 upperbound"), Some(Proven::Loss));
        assert_eq!(proven("draw"), Some(Proven::Draw));
        assert_eq!(proven("cp 500"), None);
        assert_eq!(proven("mate 3"), None);
    }

    #[test]
    fn scores_order_wins_above_estimates() {
        let centi = |t: &str| t.parse::<EngineScore>().unwrap().centi();
        assert!(centi("win 1") > centi("cp 100000"));
        assert!(centi("mate 3") > centi("mate 5"));
        assert!(centi("loss 1") < centi("cp -100000"));
        assert!(centi("mate -2") < centi("loss 9"));
        assert_eq!(centi("draw"), 0);
    }

    #[test]
    fn human_scores_are_in_points() {
        let human = |t: &str| t.parse::<EngineScore>().unwrap().human();
        assert_eq!(human("cp 30"), "+0.30");
        assert_eq!(human("cp -205"), "-2.05");
        assert_eq!(human("win 4 lowerbound"), ">=win 4");
        assert_eq!(human("draw"), "draw");
    }
}
