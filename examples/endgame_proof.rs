//! How many plies before the end alpha-beta proves the result within a time limit, over
//! positions from its own games.
//!
//! `cargo run --release --features lab --example endgame_proof -- <avalam|awale> <games> [limit] [selfplay_nodes]`
//!
//! `limit` is milliseconds (`1000`), or nodes with an `n` suffix (`2000000n`): a node limit makes
//! the measurement the same on every machine and under any load.
//!
//! The searches use a 64 MiB table (`setoption name Hash value 64`).
//!
//! Plays `games` self-play games (alpha-beta, `selfplay_nodes` nodes per move so the games are
//! the same on every machine, from random two-ply openings), then for each game walks back from
//! the end: for k = 2, 4, 6, ... plies before the end it searches the position within the limit
//! and stops at the first k whose result is not proven in time (a forced move is played first,
//! since a search with a clock plays it at once without proving anything). Two depths are
//! reported per game: the deepest k whose result (win, draw or loss) was proven, and the deepest
//! k whose exact final margin was proven, both within the limit; then the distribution of each.

mod common;

use std::sync::atomic::AtomicBool;

use pion::search::{EngineScore, Limits, Score, SearchGame, Searcher, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::History;

/// What one search of a position proved within the limit.
#[derive(Clone, Copy, Default)]
struct Proof {
    /// Win, draw or loss known (a win or loss may be a bound on the margin).
    result: bool,
    /// The exact margin known.
    exact: bool,
}

/// What a search may spend on one position.
#[derive(Clone, Copy)]
enum Limit {
    Ms(u64),
    Nodes(u64),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Ms(ms) => write!(f, "{ms} ms"),
            Limit::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

fn proven_within<G: SearchGame>(game: &History<G>, limit: Limit) -> Proof {
    // A search with a clock plays a forced move at once, without trying to prove anything, so
    // a forced move is played here first: its result is the result of the position it leads to.
    let mut game = game.clone();
    while game.outcome().is_none() && game.position().count_moves() == 1 {
        let mut moves = G::Moves::default();
        game.legal_moves(&mut moves);
        game.play(moves.as_ref()[0]);
    }
    if game.outcome().is_some() {
        return Proof {
            result: true,
            exact: true,
        };
    }
    let game = &game;
    let stop = AtomicBool::new(false);
    // A table that one second of search does not overfill (the default 16 MiB holds ~1M
    // entries, what one second of an endgame search visits), as `setoption name Hash` gives.
    let settings = Settings {
        hash_mib: 64,
        ..Settings::default()
    };
    let mut searcher = Searcher::<G>::new(settings);
    let limits = match limit {
        Limit::Ms(ms) => Limits {
            movetime: Some(ms),
            ..Limits::default()
        },
        Limit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
    };
    let mut proof = Proof::default();
    searcher.search(game, &limits, &stop, &mut |info| {
        // Only reports made within the limit count (the search may overrun by a node check).
        let late = match limit {
            Limit::Ms(ms) => info.time_ms > ms,
            Limit::Nodes(n) => info.nodes > n,
        };
        if late {
            return;
        }
        if let Some(EngineScore {
            value: Score::Draw | Score::Win(_) | Score::Loss(_),
            bound,
        }) = info.score
        {
            proof.result = true;
            proof.exact |= bound.is_none();
        }
    });
    proof
}

fn summary(name: &str, mut depths: Vec<usize>) -> String {
    depths.sort();
    let mean = depths.iter().sum::<usize>() as f64 / depths.len().max(1) as f64;
    format!(
        "{name}: min {} median {} mean {mean:.1} max {}",
        depths.first().unwrap_or(&0),
        depths.get(depths.len() / 2).unwrap_or(&0),
        depths.last().unwrap_or(&0)
    )
}

fn run<G: SearchGame>(games: usize, limit: Limit, selfplay_nodes: u64) {
    let limits = Limits {
        nodes: Some(selfplay_nodes),
        ..Limits::default()
    };
    let (mut results, mut exacts) = (Vec::new(), Vec::new());
    let mut positions = 0;
    for g in 0..games {
        let start = common::opening::<G>(2, 1000 + g as u64);
        let (_, game) = common::play_game(start, Settings::default(), Settings::default(), &limits);
        let total = game.moves().len();
        let (mut result, mut exact) = (0, 0);
        let mut k = 2;
        while k <= total {
            let mut prefix = game.clone();
            for _ in 0..k {
                prefix.undo();
            }
            positions += 1;
            let proof = proven_within(&prefix, limit);
            if !proof.result {
                eprintln!(
                    "game {g}: not proven {k} plies before the end: {}",
                    prefix.position().format_position()
                );
                break;
            }
            result = k;
            if proof.exact && exact == k - 2 {
                exact = k;
            }
            k += 2;
        }
        println!(
            "game {g}: {total} plies, result proven {result} plies before the end, exact margin {exact}"
        );
        results.push(result);
        exacts.push(exact);
    }
    println!(
        "{}: {} games, {positions} positions searched, {limit} each; plies before the end",
        G::NAME,
        results.len()
    );
    println!("{}", summary("result proven", results));
    println!("{}", summary("exact margin proven", exacts));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: endgame_proof <avalam|awale> <games> [limit_ms|<nodes>n] [selfplay_nodes]";
    let game = args.get(1).map(String::as_str);
    let games = common::required(&args, 2, "games", usage);
    let limit = match args.get(3) {
        None => Limit::Ms(1000),
        Some(a) => match a.strip_suffix('n') {
            Some(n) => Limit::Nodes(n.parse().unwrap_or_else(|_| {
                common::usage_exit(
                    usage,
                    &format!("the limit must be ms or <nodes>n, not {a:?}"),
                )
            })),
            None => Limit::Ms(common::required(&args, 3, "the limit", usage)),
        },
    };
    let selfplay = common::arg(&args, 4, "selfplay_nodes", usage).unwrap_or(50_000);
    match game {
        Some("avalam") => run::<Avalam>(games, limit, selfplay),
        Some("awale") => run::<Awale>(games, limit, selfplay),
        other => common::usage_exit(usage, &format!("unknown game {:?}", other.unwrap_or(""))),
    }
}
