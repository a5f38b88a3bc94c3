//! The plan of a run: the games still to play, grouped in jobs that share an opening.

use std::collections::HashSet;

use crate::config::MatchConfig;
use crate::run::schedule;

/// Games still to play that share an opening: a pair of a match, or one game of a tournament.
#[derive(Clone, Debug)]
pub(super) struct Job {
    pub(super) pair: u64,
    /// The index of the opening: the pair in a match, the round in a tournament.
    pub(super) opening: u64,
    pub(super) round: Option<u64>,
    /// Each game with the engine indices of player 1 and player 2.
    pub(super) games: Vec<(u64, [usize; 2])>,
}

/// The games still to play in this run.
pub(super) fn plan_jobs(config: &MatchConfig, done: &HashSet<u64>) -> Vec<Job> {
    let shard = config.shard;
    match config.tournament {
        Some(t) => schedule::plan(t.format, config.engines.len(), t.rounds, shard)
            .into_iter()
            .filter(|g| !done.contains(&g.game))
            .map(|g| Job {
                pair: g.pair,
                opening: g.round,
                round: Some(g.round),
                games: vec![(g.game, g.players)],
            })
            .collect(),
        None => (0..config.games.div_ceil(2))
            .filter(|&p| shard.is_none_or(|s| s.owns(p)))
            .map(|p| Job {
                pair: p,
                opening: p,
                round: None,
                games: [(2 * p, [0, 1]), (2 * p + 1, [1, 0])]
                    .into_iter()
                    .filter(|&(g, _)| g < config.games && !done.contains(&g))
                    .collect(),
            })
            .filter(|job| !job.games.is_empty())
            .collect(),
    }
}
