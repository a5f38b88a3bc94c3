//! `bench`: alpha-beta on fixed positions of both games to fixed depths. The node count is a
//! signature of the search (it changes only when the search does), the speed a benchmark.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Limits, SearchGame, Searcher, Settings};
use pion_protocol::{Command, Start, parse_command};
use pion_rules::GameKind;
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
    /// Nodes per second (0 under a millisecond).
    pub fn nps(&self) -> u64 {
        pion_protocol::nps(self.nodes, self.time_ms)
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

    /// Overall nodes per second (0 under a millisecond).
    pub fn nps(&self) -> u64 {
        pion_protocol::nps(self.nodes(), self.time_ms())
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

/// The bench positions of both games: one a line, with its game and a comment (the file says how).
const POSITIONS: &str = include_str!("bench/positions.txt");

/// One line of the positions file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The game.
    pub game: GameKind,
    /// Where the moves start from.
    pub start: Start,
    /// The moves played from it.
    pub moves: Vec<String>,
    /// What the position is, after `#`.
    pub comment: String,
}

impl BenchPosition {
    /// The game reached, with its history; why not, if the start or a move is not legal.
    pub fn history<G: Game>(&self) -> Result<History<G>, String> {
        if self.game != G::KIND {
            return Err(format!("a position of {}, not {}", self.game, G::NAME));
        }
        let variant = G::Variant::default();
        let root = match &self.start {
            Start::StartPos => G::start(variant),
            Start::Notation { board, side, .. } => {
                G::parse_position(board, side, variant).map_err(|e| e.to_string())?
            }
        };
        let mut history = History::new(root);
        for (i, text) in self.moves.iter().enumerate() {
            history
                .play_text(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        Ok(history)
    }
}

/// Reads a positions file: blank lines and lines that start with `#` are skipped.
pub fn parse_positions(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let (body, comment) = line.split_once('#').unwrap_or((line, ""));
        let Some((game, rest)) = body.trim().split_once(char::is_whitespace) else {
            if body.trim().is_empty() {
                continue;
            }
            return Err(format!(
                "line {}: a game and a position are needed",
                number + 1
            ));
        };
        let game = GameKind::from_name(game)
            .ok_or_else(|| format!("line {}: unknown game '{game}'", number + 1))?;
        let Ok(Command::Position { start, moves }) = parse_command(&format!("position {rest}"))
        else {
            return Err(format!(
                "line {}: not a position: '{}'",
                number + 1,
                rest.trim()
            ));
        };
        positions.push(BenchPosition {
            game,
            start,
            moves,
            comment: comment.trim().to_string(),
        });
    }
    Ok(positions)
}

/// Every position of the bench file, in its order.
pub fn all_positions() -> Vec<BenchPosition> {
    parse_positions(POSITIONS).unwrap_or_else(|e| panic!("src/search/bench/positions.txt: {e}"))
}

/// The bench positions of one game, in the file's order.
pub fn positions<G: Game>() -> Vec<History<G>> {
    all_positions()
        .iter()
        .filter(|p| p.game == G::KIND)
        .map(|p| {
            p.history()
                .unwrap_or_else(|e| panic!("src/search/bench/positions.txt: {e}"))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::with_game;

    #[test]
    fn the_positions_file_parses_and_every_position_is_a_game_in_progress() {
        let positions = all_positions();
        for game in GameKind::ALL {
            assert!(positions.iter().any(|p| p.game == game), "{game}");
        }
        for position in &positions {
            let over = with_game!(position.game, G => position.history::<G>().map(|h| h.outcome().is_some()));
            assert_eq!(over, Ok(false), "{position:?}");
            assert!(!position.comment.is_empty(), "{position:?}");
        }
        assert_eq!(
            super::positions::<Avalam>().len() + super::positions::<Awale>().len(),
            positions.len()
        );
    }

    #[test]
    fn a_bad_line_is_an_error_that_names_it() {
        let error = |text: &str| {
            parse_positions(text)
                .and_then(|p| p[0].history::<Avalam>().map(|_| ()))
                .unwrap_err()
        };
        assert_eq!(
            error("# a comment\nchess startpos"),
            "line 2: unknown game 'chess'"
        );
        assert_eq!(error("avalam"), "line 1: a game and a position are needed");
        assert_eq!(
            error("avalam startpos e4e5"),
            "line 1: not a position: 'startpos e4e5'"
        );
        assert!(error("avalam startpos moves a1a1").starts_with("move 1 (a1a1): "));
        assert_eq!(error("awale startpos"), "a position of awale, not avalam");
    }
}
