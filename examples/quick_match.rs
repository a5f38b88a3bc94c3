//! In-process matches between levels, colour-swapped pairs from random openings:
//! `cargo run --release --features lab --example quick_match -- <avalam|awale> <a> <b> <pairs> <movetime_ms>`
//! where `a`/`b` are `max`, `mcts`, `divine`, `basic`, `greedy` or `random`.

mod common;

use pion::search::{Algorithm, Level, Limits, SearchGame, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;

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
                .unwrap_or_else(|| {
                    common::usage_exit(
                        "quick_match",
                        &format!(
                            "unknown player {other:?} (max, mcts, divine, basic, greedy or random)"
                        ),
                    )
                });
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
    let n = wdl.0 + wdl.1 + wdl.2;
    println!(
        "{} {a} vs {b}: +{} ={} -{} of {n}, score {:.1}%, {}",
        G::NAME,
        wdl.0,
        wdl.1,
        wdl.2,
        100.0 * (wdl.0 as f64 + 0.5 * wdl.1 as f64) / n as f64,
        common::elo_text(wdl)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: quick_match <avalam|awale> <a> <b> <pairs> <movetime_ms>";
    if args.len() != 6 {
        common::usage_exit(usage, "five arguments are needed");
    }
    let pairs = common::required(&args, 4, "pairs", usage);
    let movetime = common::required(&args, 5, "movetime_ms", usage);
    match args[1].as_str() {
        "avalam" => run::<Avalam>(&args[2], &args[3], pairs, movetime, 2),
        "awale" => run::<Awale>(&args[2], &args[3], pairs, movetime, 4),
        other => common::usage_exit(usage, &format!("unknown game {other:?}")),
    }
}
