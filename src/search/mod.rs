//! The searches: what the engine calls to pick a move, and the types it reports with.
//!
//! The engine owns one [`Searcher`] per game and runs it on its own thread; the search polls the
//! shared stop flag and reports progress through a callback, so it never prints.

pub mod alphabeta;
pub mod bench;
pub mod levels;
pub mod mcts;
pub mod time;
pub mod tt;
pub mod value;

use std::sync::atomic::AtomicBool;

pub use pion_protocol::{EngineScore, Info, Score};
use pion_rules::game::{Game, History};

/// Which algorithm `Level max` uses (the `Search` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// Iterative-deepening alpha-beta.
    #[default]
    AlphaBeta,
    /// UCT Monte Carlo tree search with random playouts.
    Mcts,
}

/// Playing strength (the `Level` option): yardstick bots and full strength.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// The move that maximises the immediate score.
    Greedy,
    /// The original project's plain alpha-beta bot.
    Basic,
    /// A rung between `basic` and `divine`.
    Medium,
    /// The original project's stronger bot.
    Divine,
    /// Everything pion has.
    #[default]
    Max,
}

impl Level {
    /// Every level with its protocol name.
    pub const ALL: [(Level, &'static str); 6] = [
        (Level::Random, "random"),
        (Level::Greedy, "greedy"),
        (Level::Basic, "basic"),
        (Level::Medium, "medium"),
        (Level::Divine, "divine"),
        (Level::Max, "max"),
    ];
}

/// The deepest search anyone may ask for, in plies: the protocol's.
pub const MAX_DEPTH: u32 = pion_protocol::MAX_DEPTH;

/// The settings that shape a search; set through protocol options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The algorithm for `Level max`.
    pub algorithm: Algorithm,
    /// The playing level.
    pub level: Level,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// The random seed: equal settings and seed give equal play.
    pub seed: u64,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead_ms: u64,
    /// Fixed depth of the `basic` and `divine` levels (`None`: their own default).
    pub level_depth: Option<u32>,
    /// MCTS exploration constant, in hundredths (141 = 1.41).
    pub mcts_exploration: u32,
    /// Whether `go` plays from the opening book where it can (the `OwnBook` option).
    pub own_book: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::AlphaBeta,
            level: Level::Max,
            hash_mib: 16,
            seed: 0,
            move_overhead_ms: 10,
            level_depth: None,
            mcts_exploration: 141,
            own_book: true,
        }
    }
}

/// A player's clock as `go` gives it: remaining time and increment per player, in ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time of player one and two.
    pub time: [u64; 2],
    /// Increment of player one and two.
    pub inc: [u64; 2],
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
}

/// What ends a search (the `go` parameters); an empty set means "until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (playouts for MCTS).
    pub nodes: Option<u64>,
    /// Exact time for this move in ms.
    pub movetime: Option<u64>,
    /// Clocks, from which the time manager derives a budget.
    pub clock: Option<Clock>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
}

/// A compact code for each move, for the transposition table and the move-ordering tables.
pub trait MoveCodes: Game {
    /// One more than the largest [`MoveCodes::encode_move`] code (code 0 means "no move").
    const MOVE_SLOTS: usize;
    /// A code in `1..MOVE_SLOTS` for a move.
    fn encode_move(mv: Self::Move) -> u16;
    /// The inverse of [`MoveCodes::encode_move`].
    fn decode_move(code: u16) -> Self::Move;
}

/// How the search is shaped for a game: which of its techniques the game has been measured
/// for, and the clock's guess of how long the game will last.
pub trait Profile: Game {
    /// How many moves the side to move is expected still to play, for sharing a clock when
    /// `go` gives no `movestogo` (or more than the game is expected to last).
    fn moves_to_go(&self) -> u64 {
        time::DEFAULT_MOVES_TO_GO
    }
    /// Whether alpha-beta searches late quiet moves one ply shallower first (LMR).
    const LATE_MOVE_REDUCTIONS: bool = true;
    /// From this remaining depth on, late quiet moves are first searched two plies shallower
    /// rather than one; `None`: always one.
    const DEEP_REDUCTION_DEPTH: Option<i32> = None;
    /// Whether a node with proven bounds that do not settle the window ([`Exact::settle`]),
    /// in a search whose root has none, is a leaf at its likeliest value
    /// ([`Horizon::Bounded`]); a search whose root has bounds searches on through such nodes,
    /// to its horizon. `false`: always searched on.
    const BOUNDS_AS_LEAVES: bool = false;
    /// Whether the horizon plays out noisy moves (those [`Evaluate::order_score`] scores above
    /// zero) before trusting the static value: a quiescence search.
    const QUIESCENCE: bool = false;
    /// Forward pruning one and two plies above the horizon (see [`Frontier`]); `None` turns it
    /// off, for games whose evaluation has not been measured for it.
    const FRONTIER: Option<Frontier> = None;
    /// The half-width of each iteration's first window around the previous iteration's value
    /// (aspiration windows), in the evaluation's units; a window that fails is widened on the
    /// side it failed. `None`: every iteration searches the full window.
    const ASPIRATION: Option<i32> = None;
    /// Whether alpha-beta tries to solve the root late in a game (a null-window search to the
    /// end of every line). Worth it where every line ends within a few dozen plies.
    const SOLVES_ENDGAMES: bool = true;
}

/// What the game's structure proves without search: exact values, bounds, and moves that are
/// provably no better than another.
pub trait Exact: Game {
    /// The exact final margin for the side to move and the plies left, when the game's
    /// structure settles it without search (a proven leaf).
    fn exact_value(&self) -> Option<(i32, u32)> {
        None
    }
    /// Removes moves that are provably no better than another move kept in the list.
    fn prune_equivalent(&self, moves: &mut Self::Moves) {
        let _ = moves;
    }
    /// At the root only: removes moves that give away what the game's exact knowledge proves
    /// the position worth, where the search alone might not see it (at least one move stays).
    /// `repeats` says whether a child repeats a position of the game (and so ends it).
    fn prune_root(&self, moves: &mut Self::Moves, repeats: &dyn Fn(&Self) -> bool) {
        let _ = (moves, repeats);
    }
    /// What interior nodes of the search ask, given the legal moves (at least one): proven
    /// bounds `(low, high)` on the final margin for the side to move, equal when
    /// [`Exact::exact_value`] settles the position (the search cuts off where they settle its
    /// window), after [`Exact::prune_equivalent`]. A game may share the work between the two.
    fn settle(&self, moves: &mut Self::Moves) -> Option<(i32, i32)> {
        self.prune_equivalent(moves);
        self.exact_value().map(|(margin, _)| (margin, margin))
    }
}

/// What the alpha-beta search needs from a game beyond its rules: a static evaluation and a
/// cheap move-ordering score, with the move codes, the search profile and the exact knowledge
/// of the traits it extends. Implemented in each game's `eval` module; the search is
/// monomorphised over it.
pub trait Evaluate: MoveCodes + Profile + Exact {
    /// The position's value for the side to move, in hundredths of a point of final margin.
    fn evaluate(&self) -> i32;
    /// A cheap guess of how good `mv` is, for ordering (higher first; 0 for quiet moves).
    fn order_score(&self, mv: Self::Move) -> i32;
    /// The value of a node at the search horizon: exact when the game is over or settled
    /// without search ([`Exact::exact_value`]), heuristic otherwise. A game may override it to
    /// share work between the three ([`default_horizon`] asks each in turn).
    fn horizon(&self) -> Horizon {
        default_horizon(self)
    }
}

/// What a node at the search horizon is worth (see [`Evaluate::horizon`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// The final margin for the side to move, proven.
    Exact(i32),
    /// A static estimate, as [`Evaluate::evaluate`] gives it.
    Heuristic(i32),
    /// Proven bounds on the final margin for the side to move, `low < high`, and the likeliest
    /// margin between them: the search scores the likeliest margin like a proven result, so
    /// that it ranks with the exact leaves around it, but counts it as a heuristic leaf: a
    /// root value resting on it is never exact.
    Bounded {
        /// The least final margin the side to move can force.
        low: i32,
        /// The most final margin the opponent lets it have.
        high: i32,
        /// The likeliest final margin.
        likely: i32,
    },
}

/// [`Evaluate::horizon`] from its parts: the structural exact value, the end of the game, and
/// the static evaluation, in that order.
pub fn default_horizon<G: Evaluate>(pos: &G) -> Horizon {
    if let Some((margin, _)) = pos.exact_value() {
        Horizon::Exact(margin)
    } else if pos.outcome().is_some() {
        Horizon::Exact(pos.margin())
    } else {
        Horizon::Heuristic(pos.evaluate())
    }
}

/// Margins of the forward pruning next to the horizon, in the evaluation's units, for remaining
/// depths 1 and 2 (index 0 and 1). They bound how much one move can change the static value: a
/// node whose static value stands `reverse` above beta fails high at once (reverse futility), and
/// a move is skipped when the static value plus its margin cannot reach alpha (futility). Noisy
/// moves (those [`Evaluate::order_score`] ranks above 0) get the `noisy` margin, quiet ones the
/// `quiet` one.
#[derive(Clone, Copy, Debug)]
pub struct Frontier {
    /// Reverse futility margins.
    pub reverse: [i32; 2],
    /// Futility margins of noisy moves.
    pub noisy: [i32; 2],
    /// Futility margins of quiet moves.
    pub quiet: [i32; 2],
}

/// Everything a game needs to be searched at every level.
pub trait SearchGame: Evaluate + levels::LevelEval {}

impl<G: Evaluate + levels::LevelEval> SearchGame for G {}

/// The persistent search state of one game (transposition table, history tables).
pub struct Searcher<G: Game> {
    settings: Settings,
    table: tt::Table,
    heuristics: alphabeta::Heuristics,
    _game: std::marker::PhantomData<G>,
}

impl<G: SearchGame> Searcher<G> {
    /// A searcher with these settings.
    pub fn new(settings: Settings) -> Self {
        Searcher {
            settings,
            table: tt::Table::new(settings.hash_mib),
            heuristics: alphabeta::Heuristics::new(G::MOVE_SLOTS),
            _game: std::marker::PhantomData,
        }
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings (resizing the table when `Hash` changed).
    pub fn set_settings(&mut self, settings: Settings) {
        if settings.hash_mib != self.settings.hash_mib {
            // The old table goes first: two large tables at once could exhaust the memory.
            self.table = tt::Table::new(1);
            self.table = tt::Table::new(settings.hash_mib);
        }
        self.settings = settings;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.heuristics.clear();
    }

    /// Searches the current position of `game` within `limits` until done or `stop` is set, and
    /// returns the best move (`None` when the game is over). Calls `report` with progress.
    pub fn search(
        &mut self,
        game: &History<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Option<G::Move> {
        let clock = time::Watch::new(
            limits,
            game.position().side_to_move(),
            self.settings.move_overhead_ms,
            game.position().moves_to_go(),
            stop,
        );
        let best = self.choose(game, limits, &clock, report);
        if limits.infinite {
            clock.wait_for_stop();
        }
        best
    }

    fn choose(
        &mut self,
        game: &History<G>,
        limits: &Limits,
        clock: &time::Watch<'_>,
        report: &mut dyn FnMut(&Info),
    ) -> Option<G::Move> {
        if game.outcome().is_some() {
            return None;
        }
        let mut moves = G::Moves::default();
        game.legal_moves(&mut moves);
        let first = *moves.as_ref().first()?;
        let s = self.settings;
        match s.level {
            Level::Random => Some(levels::random(&moves, s.seed, game, report)),
            Level::Greedy => Some(levels::greedy(game.position(), &moves, s.seed, report)),
            Level::Basic | Level::Medium | Level::Divine => Some(levels::yardstick(
                game,
                s.level,
                limits.depth.or(s.level_depth),
                s.seed,
                clock,
                report,
            )),
            Level::Max => match s.algorithm {
                Algorithm::AlphaBeta => {
                    let request = alphabeta::Request {
                        game,
                        limits,
                        clock,
                        fallback: first,
                    };
                    let outcome =
                        alphabeta::search(&request, &mut self.table, &mut self.heuristics, report);
                    Some(outcome.best)
                }
                Algorithm::Mcts => Some(mcts::search(game, limits, &s, clock, first, report)),
            },
        }
    }
}
