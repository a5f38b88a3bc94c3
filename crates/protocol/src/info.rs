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
