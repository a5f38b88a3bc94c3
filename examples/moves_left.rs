//! How many plies are left in self-play games, by how much is on the board: the data behind the
//! clock's guess of the moves still to play (`Profile::moves_to_go`).
//!
//! `cargo run --release --features lab --example moves_left -- <avalam|awale> <games> <selfplay_nodes>`
//!
//! Plays `games` self-play games (alpha-beta at `selfplay_nodes` nodes per move, from random
//! two-ply openings), then prints, for each count of towers (Avalam) or seeds on the board
//! (Awale), how many positions had it and the 10th, 50th and 90th percentiles of the plies left
//! to the end of their game.

mod common;

use std::collections::BTreeMap;

use pion::search::{Limits, SearchGame, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::{History, Player};

/// Plies left to the end, for each position of each game, keyed by `amount(position)`.
fn plies_left<G: SearchGame>(
    games: u64,
    nodes: u64,
    amount: impl Fn(&G) -> u32,
) -> BTreeMap<u32, Vec<u32>> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut table: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for g in 0..games {
        let start = common::opening::<G>(2, 500 + g);
        let (_, mut game): (_, History<G>) =
            common::play_game(start, Settings::default(), Settings::default(), &limits);
        for left in 0.. {
            table.entry(amount(game.position())).or_default().push(left);
            if !game.undo() {
                break;
            }
        }
    }
    table
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: moves_left <avalam|awale> <games> <selfplay_nodes>";
    let game: String = common::required(&args, 1, "game", usage);
    let games: u64 = common::required(&args, 2, "games", usage);
    let nodes: u64 = common::required(&args, 3, "selfplay_nodes", usage);
    let (what, table) = match game.as_str() {
        "avalam" => (
            "towers",
            plies_left::<Avalam>(games, nodes, |p| p.occupied().count_ones()),
        ),
        "awale" => (
            "seeds",
            plies_left::<Awale>(games, nodes, |p| {
                p.seeds_on_side(Player::One) + p.seeds_on_side(Player::Two)
            }),
        ),
        _ => common::usage_exit(usage, &format!("unknown game '{game}'")),
    };
    println!("{what:>6}  positions  plies left: p10  median  p90");
    for (amount, mut left) in table {
        left.sort_unstable();
        let at = |q: usize| left[(left.len() - 1) * q / 100];
        println!(
            "{amount:>6}  {:>9}  {:>15}  {:>6}  {:>3}",
            left.len(),
            at(10),
            at(50),
            at(90)
        );
    }
}
