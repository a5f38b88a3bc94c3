//! How many plies before the end alpha-beta proves the result within a time limit, over
//! positions from its own games.
//!
//! `cargo run --release --example endgame_proof -- <avalam|awale> <games> [limit_ms] [selfplay_ms]`
//!
//! Plays `games` self-play games (alpha-beta, `selfplay_ms` per move, from random two-ply
//! openings), then for each game walks back from the end: for k = 2, 4, 6, ... plies before the
//! end it searches the position with `limit_ms` and stops at the first k whose result is not
//! proven in time. It prints, per game, the deepest k proven, then the distribution.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pion::avalam::Avalam;
use pion::awale::Awale;
use pion::game::History;
use pion::search::{Limits, Score, SearchGame, Searcher, Settings};

fn proven_within<G: SearchGame>(game: &History<G>, limit_ms: u64) -> Option<(Score, u64)> {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<G>::new(Settings::default());
    let limits = Limits {
        movetime: Some(limit_ms),
        ..Limits::default()
    };
    let mut proof = None;
    let start = Instant::now();
    searcher.search(game, &limits, &stop, &mut |info| {
        if let Some(score @ (Score::Draw | Score::Win(_) | Score::Loss(_))) = info.score {
            // A win/loss score can be a lower bound before the full proof; the search stops by
            // itself only once the whole tree is solved.
            proof = Some((score, info.time_ms));
        }
    });
    let elapsed = start.elapsed().as_millis() as u64;
    // Solved means: a decided score and the search ended on its own before the limit.
    proof.filter(|_| elapsed < limit_ms.saturating_sub(Settings::default().move_overhead_ms))
}

fn run<G: SearchGame>(games: usize, limit_ms: u64, selfplay_ms: u64) {
    let limits = Limits {
        movetime: Some(selfplay_ms),
        ..Limits::default()
    };
    let mut depths = Vec::new();
    let mut positions = 0;
    for g in 0..games {
        let start = common::opening::<G>(2, 1000 + g as u64);
        let (_, game) = common::play_game(start, Settings::default(), Settings::default(), &limits);
        let total = game.moves().len();
        let mut best = 0;
        let mut k = 2;
        while k <= total {
            let mut prefix = game.clone();
            for _ in 0..k {
                prefix.undo();
            }
            positions += 1;
            match proven_within(&prefix, limit_ms) {
                Some((score, ms)) => {
                    best = k;
                    eprintln!("game {g} k {k}: {score:?} in {ms} ms");
                }
                None => break,
            }
            k += 2;
        }
        println!("game {g}: {total} plies, proven {best} plies before the end");
        depths.push(best);
    }
    depths.sort();
    let mean = depths.iter().sum::<usize>() as f64 / depths.len().max(1) as f64;
    println!(
        "{}: {} games, {positions} positions searched, proven plies before end: min {} median {} mean {mean:.1} max {}",
        G::NAME,
        depths.len(),
        depths.first().unwrap_or(&0),
        depths.get(depths.len() / 2).unwrap_or(&0),
        depths.last().unwrap_or(&0)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: endgame_proof <avalam|awale> <games> [limit_ms] [selfplay_ms]");
        std::process::exit(2);
    }
    let games = args[2].parse().expect("games is a number");
    let limit = args
        .get(3)
        .map_or(1000, |a| a.parse().expect("limit in ms"));
    let selfplay = args.get(4).map_or(50, |a| a.parse().expect("self-play ms"));
    match args[1].as_str() {
        "avalam" => run::<Avalam>(games, limit, selfplay),
        "awale" => run::<Awale>(games, limit, selfplay),
        other => panic!("unknown game {other}"),
    }
}
