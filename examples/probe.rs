//! Prints a self-play game's positions near the end with their move counts, for inspecting
//! endgames: `cargo run --release --features lab --example probe -- <seed> <k>...`.

mod common;

use pion::eval::avalam::partner_degrees;
use pion::search::{Limits, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::avalam::endgame::Structure;
use pion_rules::game::Game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: probe <seed> <k>...";
    let seed: u64 = common::required(&args, 1, "seed", usage);
    if args.len() < 3 {
        common::usage_exit(usage, "no k given (plies before the end)");
    }
    let limits = Limits {
        movetime: Some(30),
        ..Limits::default()
    };
    let start = common::opening::<Avalam>(2, seed);
    let (_, game) = common::play_game(start, Settings::default(), Settings::default(), &limits);
    for k in (2..args.len()).map(|i| common::required::<usize>(&args, i, "k", usage)) {
        let mut g = game.clone();
        for _ in 0..k {
            g.undo();
        }
        let p = g.position();
        let (ones, twos) = partner_degrees(p);
        let s = Structure::of(p);
        println!(
            "k {k}: {} live, {} in {} items ({} mixed)",
            s.live.count_ones(),
            s.items.count_ones(),
            s.item_count,
            s.mixed
        );
        println!(
            "k {k}: {} moves, {} towers, {} live, {} with 2+ partners\n{}\n{}",
            p.count_moves(),
            p.occupied().count_ones(),
            ones.count_ones(),
            twos.count_ones(),
            p.format_position(),
            p.pretty()
        );
    }
}
