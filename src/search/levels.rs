//! The yardstick levels: `random`, `greedy`, and the original projects' `basic` and `divine`
//! bots, kept faithful to their descriptions rather than tuned: they are yardsticks; `medium`
//! is a rung between `basic` and `divine` (docs/engine.md, "The ladder").
//!
//! `basic`, `medium` and `divine` are plain fixed-depth alpha-beta (no table, no ordering) over
//! an evaluation from the bot's own point of view. Every root move tying for the best value is
//! found exactly (each is searched with a window just below the best so far) and one is drawn
//! at random, from a generator seeded by the `Seed` option and the position.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::time::Watch;
use super::{Info, Level};
use pion_rules::game::{Game, History, Player};

/// The evaluations of the yardstick levels, from `me`'s point of view, terminal positions
/// included (each game's `eval` module documents its formulas).
pub trait LevelEval: Game {
    /// The `basic` bot's depth.
    const BASIC_DEPTH: u32;
    /// The `divine` bot's depth.
    const DIVINE_DEPTH: u32;
    /// The `medium` bot's depth.
    const MEDIUM_DEPTH: u32;
    /// The `basic` evaluation.
    fn basic_value(&self, me: Player) -> i32;
    /// The `divine` evaluation.
    fn divine_value(&self, me: Player) -> i32;
    /// The `medium` evaluation.
    fn medium_value(&self, me: Player) -> i32;
    /// The immediate score of a move for the `greedy` level (higher is better).
    fn greedy_value(&self, mv: Self::Move) -> i32;
}

/// The tie-breaking generator for a search: the seed mixed with the position.
pub fn rng_for<G: Game>(seed: u64, pos: &G) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ pos.hash())
}

fn report_choice<G: Game>(
    mv: G::Move,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    clock: Option<&Watch<'_>>,
    report: &mut dyn FnMut(&Info),
) {
    report(&Info {
        depth,
        seldepth,
        nodes,
        time_ms: clock.map_or(0, |c| c.elapsed_ms()),
        pv: vec![G::format_move(mv)],
        ..Info::default()
    });
}

/// A uniformly random legal move.
pub fn random<G: Game>(
    moves: &G::Moves,
    seed: u64,
    game: &History<G>,
    report: &mut dyn FnMut(&Info),
) -> G::Move {
    let list = moves.as_ref();
    let mv = list[rng_for(seed, game.position()).random_range(0..list.len())];
    report_choice::<G>(mv, 0, 0, list.len() as u64, None, report);
    mv
}

/// One of the moves with the best immediate score, at random.
pub fn greedy<G: LevelEval>(
    pos: &G,
    moves: &G::Moves,
    seed: u64,
    report: &mut dyn FnMut(&Info),
) -> G::Move {
    let list = moves.as_ref();
    let values: Vec<i32> = list.iter().map(|&mv| pos.greedy_value(mv)).collect();
    let best = values.iter().copied().max().unwrap_or(0);
    let ties: Vec<G::Move> = list
        .iter()
        .zip(&values)
        .filter(|&(_, &v)| v == best)
        .map(|(&mv, _)| mv)
        .collect();
    let mv = ties[rng_for(seed, pos).random_range(0..ties.len())];
    report_choice::<G>(mv, 1, 1, list.len() as u64, None, report);
    mv
}

struct Plain<'a, 'b, G: LevelEval> {
    me: Player,
    level: Level,
    nodes: u64,
    clock: &'a Watch<'b>,
    aborted: bool,
    _game: std::marker::PhantomData<G>,
}

impl<G: LevelEval> Plain<'_, '_, G> {
    fn value(&self, pos: &G) -> i32 {
        match self.level {
            Level::Divine => pos.divine_value(self.me),
            Level::Medium => pos.medium_value(self.me),
            _ => pos.basic_value(self.me),
        }
    }

    /// Minimax with alpha-beta, values from `me`'s point of view.
    fn minimax(&mut self, pos: &G, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.clock.must_stop(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 0 || pos.outcome().is_some() {
            return self.value(pos);
        }
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        let maximising = pos.side_to_move() == self.me;
        for &mv in moves.as_ref() {
            let mut child = *pos;
            child.play(mv);
            let v = self.minimax(&child, depth - 1, alpha, beta);
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if maximising { alpha } else { beta }
    }
}

/// The `basic`, `medium` or `divine` bot's move (`depth` overrides the level's own depth). Returns the
/// best move found so far when stopped, or the first legal move if none was searched.
pub fn yardstick<G: LevelEval>(
    game: &History<G>,
    level: Level,
    depth: Option<u32>,
    seed: u64,
    clock: &Watch<'_>,
    report: &mut dyn FnMut(&Info),
) -> G::Move {
    let depth = depth
        .unwrap_or(match level {
            Level::Divine => G::DIVINE_DEPTH,
            Level::Medium => G::MEDIUM_DEPTH,
            _ => G::BASIC_DEPTH,
        })
        .max(1);
    let root = *game.position();
    let mut moves = G::Moves::default();
    game.legal_moves(&mut moves);
    let mut search = Plain::<G> {
        me: root.side_to_move(),
        level,
        nodes: 0,
        clock,
        aborted: false,
        _game: std::marker::PhantomData,
    };
    const WIDE: i32 = i32::MAX / 2;
    let mut best = -WIDE;
    let mut ties: Vec<G::Move> = Vec::new();
    for &mv in moves.as_ref() {
        let mut child = root;
        child.play(mv);
        let v = search.minimax(&child, depth - 1, best - 1, WIDE);
        if search.aborted {
            break;
        }
        if v > best {
            best = v;
            ties.clear();
        }
        if v == best {
            ties.push(mv);
        }
    }
    let mv = if ties.is_empty() {
        moves.as_ref()[0]
    } else {
        ties[rng_for(seed, &root).random_range(0..ties.len())]
    };
    // A search cut short completed no depth: it reports depth 0, and the depth it was at as
    // its seldepth.
    let completed = if search.aborted { 0 } else { depth };
    report_choice::<G>(mv, completed, depth, search.nodes, Some(clock), report);
    mv
}
