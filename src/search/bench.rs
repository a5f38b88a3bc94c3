//! `bench`: alpha-beta on fixed positions of both games to fixed depths. The node count is a
//! signature of the search (it changes only when the search does), the speed a benchmark.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Limits, SearchGame, Searcher, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::{Game, History};

/// Default depths: about a second in all on a laptop core.
pub const AVALAM_DEPTH: u32 = 4;
/// Default Awale depth.
pub const AWALE_DEPTH: u32 = 14;

/// Nodes and time of one game's share of the bench.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameBench {
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
}

impl GameBench {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// The result of a bench run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchReport {
    /// Avalam's share.
    pub avalam: GameBench,
    /// Awale's share.
    pub awale: GameBench,
}

impl BenchReport {
    /// Total nodes.
    pub fn nodes(&self) -> u64 {
        self.avalam.nodes + self.awale.nodes
    }

    /// Total milliseconds.
    pub fn time_ms(&self) -> u64 {
        self.avalam.time_ms + self.awale.time_ms
    }

    /// Overall nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes() * 1000 / self.time_ms().max(1)
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bench nodes {} time {} nps {}",
            self.nodes(),
            self.time_ms(),
            self.nps()
        )
    }
}

/// A position reached from the start by a fixed rule: at ply `i`, play legal move number
/// `(i * 7 + salt) % count`. Deterministic, and varied enough to leave the opening.
pub fn walk<G: Game>(plies: usize, salt: usize) -> History<G> {
    let mut game = History::new(G::start(G::Variant::default()));
    for i in 0..plies {
        let mut moves = G::Moves::default();
        game.legal_moves(&mut moves);
        let list = moves.as_ref();
        if list.is_empty() {
            break;
        }
        game.play(list[(i * 7 + salt) % list.len()]);
    }
    game
}

/// The bench positions of a game: the start and three walks into the game.
pub fn positions<G: Game>() -> Vec<History<G>> {
    vec![walk(0, 0), walk(6, 1), walk(14, 3), walk(24, 5)]
}

fn bench_game<G: SearchGame>(depth: u32, stop: &AtomicBool) -> Option<GameBench> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut result = GameBench::default();
    for game in positions::<G>() {
        let mut searcher = Searcher::<G>::new(Settings::default());
        let mut nodes = 0;
        let start = Instant::now();
        searcher.search(&game, &limits, stop, &mut |info| nodes = info.nodes);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        result.time_ms += start.elapsed().as_millis() as u64;
        result.nodes += nodes;
    }
    Some(result)
}

/// Runs the bench; `depth` replaces both games' default depths.
pub fn bench(depth: Option<u32>) -> BenchReport {
    bench_until(depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`bench`] that gives up (`None`) once `stop` is set.
pub fn bench_until(depth: Option<u32>, stop: &AtomicBool) -> Option<BenchReport> {
    Some(BenchReport {
        avalam: bench_game::<Avalam>(depth.unwrap_or(AVALAM_DEPTH), stop)?,
        awale: bench_game::<Awale>(depth.unwrap_or(AWALE_DEPTH), stop)?,
    })
}
