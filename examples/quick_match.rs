//! In-process matches between levels, colour-swapped pairs from random openings:
//! `cargo run --release --example quick_match -- <avalam|awale> <a> <b> <pairs> <movetime_ms>`
//! where `a`/`b` are `max`, `mcts`, `divine`, `basic`, `greedy` or `random`.

mod common;

use pion::avalam::Avalam;
use pion::awale::Awale;
use pion::search::{Algorithm, Level, Limits, SearchGame, Settings};

fn settings(name: &str) -> Settings {
    let mut s = Settings::default();
    match name {
        "max" => {}
        "mcts" => s.algorithm = Algorithm::Mcts,
        other => {
            s.level = Level::ALL
                .iter()
                .find(|(_, n)| *n == other)
                .map(|&(l, _)| l)
                .unwrap_or_else(|| panic!("unknown player {other}"));
        }
    }
    s
}

fn run<G: SearchGame>(a: &str, b: &str, pairs: usize, movetime: u64, plies: usize) {
    let limits = Limits {
        movetime: Some(movetime),
        ..Limits::default()
    };
    let wdl = common::match_pairs::<G>(settings(a), settings(b), &limits, pairs, plies);
    let (elo, err) = common::elo(wdl);
    let n = wdl.0 + wdl.1 + wdl.2;
    println!(
        "{} {a} vs {b}: +{} ={} -{} of {n}, score {:.1}%, elo {elo:+.0} +- {err:.0}",
        G::NAME,
        wdl.0,
        wdl.1,
        wdl.2,
        100.0 * (wdl.0 as f64 + 0.5 * wdl.1 as f64) / n as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        eprintln!("usage: quick_match <avalam|awale> <a> <b> <pairs> <movetime_ms>");
        std::process::exit(2);
    }
    let pairs = args[4].parse().expect("pairs is a number");
    let movetime = args[5].parse().expect("movetime is a number of ms");
    match args[1].as_str() {
        "avalam" => run::<Avalam>(&args[2], &args[3], pairs, movetime, 2),
        "awale" => run::<Awale>(&args[2], &args[3], pairs, movetime, 4),
        other => panic!("unknown game {other}"),
    }
}
