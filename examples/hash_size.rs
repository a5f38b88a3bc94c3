//! Transposition table sizes for Awale: every `step`-th position of a few games (from ply 8), each
//! searched to a fixed depth with one searcher per game and size, as an engine searches a game
//! (the table keeps what earlier moves stored). Nodes do not depend on the machine; the time does.
//!
//! `cargo run --release --features lab --example hash_size -- [depth] [step] [sizes in MiB...]`
//! (default: depth 18, every 6th ply, 16 64 128 256), on `examples/positions/awale_games.txt`.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pion::search::{Limits, Searcher, Settings};
use pion_rules::awale::Awale;
use pion_rules::game::{Game, History};

const GAMES: &str = include_str!("positions/awale_games.txt");

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: hash_size [depth] [step] [sizes in MiB...]";
    let depth = common::arg(&args, 1, "depth", usage).unwrap_or(18);
    let step: usize = common::arg(&args, 2, "step", usage).unwrap_or(6);
    let mut sizes: Vec<usize> = Vec::new();
    for i in 3..args.len() {
        sizes.push(common::arg(&args, i, "size", usage).expect("a size"));
    }
    if sizes.is_empty() {
        sizes = vec![16, 64, 128, 256];
    }
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for &mib in &sizes {
        let (mut nodes, mut searches, mut full) = (0u64, 0u64, 0u64);
        let started = Instant::now();
        for line in GAMES.lines().filter(|l| !l.starts_with('#')) {
            let settings = Settings {
                hash_mib: mib,
                ..Settings::default()
            };
            let mut searcher = Searcher::<Awale>::new(settings);
            let mut game = History::new(Awale::start(Default::default()));
            for (ply, mv) in line.split_whitespace().enumerate() {
                if ply >= 8 && ply % step == 0 && game.outcome().is_none() {
                    let mut last = None;
                    searcher.search(&game, &limits, &stop, &mut |i| last = Some(i.clone()));
                    let info = last.expect("a report");
                    nodes += info.nodes;
                    full += info.hashfull.unwrap_or(0) as u64;
                    searches += 1;
                }
                game.play_text(mv).expect("a legal move");
            }
        }
        println!(
            "Hash {mib:>4} MiB: {searches} searches to depth {depth}, {nodes} nodes, {} ms, mean hashfull {}",
            started.elapsed().as_millis(),
            full / searches.max(1)
        );
    }
}
