//! What a search reports: its score and its progress, as the `info` reply carries them.

/// A search score: a heuristic estimate, or a result proven by searching to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Heuristic, in hundredths of a point of final score, for the side to move.
    Centi(i32),
    /// A proven win by this margin of final points.
    Win(u32),
    /// A proven draw.
    Draw,
    /// A proven loss by this margin of final points.
    Loss(u32),
}

impl Score {
    /// A total order on scores: proven losses below every estimate, proven wins above, a larger
    /// margin further out.
    pub fn rank(self) -> i64 {
        const PROVEN: i64 = 1 << 40;
        match self {
            Score::Centi(cp) => i64::from(cp),
            Score::Draw => 0,
            Score::Win(m) => PROVEN + i64::from(m),
            Score::Loss(m) => -PROVEN - i64::from(m),
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
        }
    }
}

impl std::str::FromStr for Score {
    type Err = String;

    /// Reads a score as protocol.md writes it, with no bound: `cp 12`, `win 4`, `draw`.
    fn from_str(text: &str) -> Result<Score, String> {
        let bad = || format!("bad score '{text}' (cp <n>, win <n>, loss <n> or draw)");
        let score: crate::engine_info::EngineScore = text.parse().map_err(|_| bad())?;
        match (score.value.score(), score.bound) {
            (Some(score), None) => Ok(score),
            _ => Err(bad()),
        }
    }
}

/// One progress report of a running search, printed by the engine as an `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Completed depth (alpha-beta) or the length of the searched line of the tree (MCTS).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The score of the best move, if known.
    pub score: Option<Score>,
    /// Whether the score is only a bound: a win (or loss) found before the whole tree was proven,
    /// so the result is certain but a win may be bigger and a loss bigger too.
    pub score_bound: bool,
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
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

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
}
