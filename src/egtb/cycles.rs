//! Cycle positions the databases prove, and games played from them: the test set of "no lost
//! cycles" (`tests/egtb_cycles.rs`, `examples/cycle_games.rs`).
//!
//! A board whose bounds differ (`lo < hi`) can be played until a position repeats, and under
//! pion's rule the repetition is scored on whichever board repeats. The side to move can still
//! force `lo` seeds of the `k` on the board by play that ends. With captures of `24 - lo` for it
//! and `24 - k + lo` for the opponent, `lo` seeds is exactly a draw: the databases prove the
//! side to move at least a draw, and any repetition that gives it less is a loss the databases
//! saw coming.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::code::Entry;
use super::file::{FileError, write_layer};
use super::index::{Boards, layer_size};
use super::layer::Layer;
use super::solve::{Quiet, solve, solve_layer};
use crate::search::{Limits, Searcher, Settings};
use pion_rules::awale::{Awale, Move, Variant};
use pion_rules::game::{Game, History, Player};

/// Builds the layers `0..=max_seeds` of `variant` into `dir`; with `marks` false every
/// cycling board is written as settled at its likeliest share (the engine then takes every
/// value as exact, as format 1 did).
pub fn build_into(
    dir: &Path,
    variant: Variant,
    max_seeds: usize,
    marks: bool,
) -> Result<Vec<Layer>, FileError> {
    let mut layers: Vec<Layer> = Vec::new();
    for k in 0..=max_seeds {
        let layer = solve_layer(k, variant, &layers, 2, &Quiet);
        if marks {
            write_layer(dir, variant, k, &layer)?;
        } else {
            let values: Vec<Entry> = (0..layer.len())
                .map(|i| Entry::settled(layer.entry(i).likely))
                .collect();
            write_layer(dir, variant, k, &Layer::from_entries(k, &values))?;
        }
        layers.push(layer);
    }
    Ok(layers)
}

/// Up to `count` positions of `seeds` seeds (spread over the layer) that cycle and that the
/// databases prove at least drawn for the side to move, with the bound `lo` of each.
pub fn proven_cycles(
    layers: &[Layer],
    variant: Variant,
    seeds: usize,
    count: usize,
) -> Vec<(Awale, u8)> {
    let entries = solve(seeds, variant, &layers[..seeds], 2, &Quiet);
    // Where the likeliest share promises more than play that ends proves: the boards on which
    // trusting it is a risk.
    let cycling: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].lo < entries[i].likely)
        .collect();
    let step = (cycling.len() / count.max(1)).max(1);
    let boards: Vec<[u8; 12]> = Boards::new(seeds, 0, layer_size(seeds)).collect();
    cycling
        .iter()
        .step_by(step)
        .take(count)
        .map(|&i| {
            let l = entries[i].lo;
            let captured = [24 - l, 24 - seeds as u8 + l];
            let position = Awale::from_parts(boards[i], captured, Player::One, variant);
            (position, l)
        })
        .collect()
}

/// Plays a game from `start`: `player` (to move first) with the databases `dir` against
/// `opponent`'s settings without databases, both at fixed `depth`, until the game ends or
/// `max_plies`. Returns the points of the player, then of the opponent, and whether it ended
/// by repetition (`None`: cut at `max_plies`).
pub fn play_out(
    start: Awale,
    dir: &Path,
    depth: u32,
    max_plies: usize,
) -> Option<([u32; 2], bool)> {
    let mut game = History::new(start);
    let settings = Settings {
        hash_mib: 4,
        own_book: false,
        ..Settings::default()
    };
    let mut searchers = [
        Searcher::<Awale>::new(settings),
        Searcher::<Awale>::new(settings),
    ];
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let me = start.side_to_move();
    for _ in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            let score = outcome.score;
            let repetition = matches!(outcome.reason, pion_rules::game::EndReason::Repetition);
            return Some(([score[me.index()], score[me.other().index()]], repetition));
        }
        let mine = game.position().side_to_move() == me;
        if mine {
            super::install(Some(dir)).expect("the databases");
        } else {
            super::install(None).expect("none");
        }
        let searcher = &mut searchers[usize::from(!mine)];
        let mv: Move = searcher.search(&game, &limits, &stop, &mut |_| {})?;
        game.play(mv);
    }
    super::install(None).expect("none");
    None
}
