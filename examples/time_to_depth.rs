//! Time to each depth from the start position of both games:
//! `cargo run --release --features lab --example time_to_depth -- [avalam_depth] [awale_depth]`.

mod common;

use std::sync::atomic::AtomicBool;

use pion::search::{Limits, SearchGame, Searcher, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::History;

fn run<G: SearchGame>(depth: u32) {
    let game = History::new(G::start(G::Variant::default()));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    Searcher::<G>::new(Settings::default()).search(&game, &limits, &stop, &mut |i| {
        println!(
            "{} depth {} time {} ms nodes {} nps {} score {:?} pv {}",
            G::NAME,
            i.depth,
            i.time_ms,
            i.nodes,
            i.nps(),
            i.score,
            i.pv.join(" ")
        );
    });
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: time_to_depth [avalam_depth] [awale_depth]";
    run::<Avalam>(common::arg(&args, 1, "avalam_depth", usage).unwrap_or(5));
    run::<Awale>(common::arg(&args, 2, "awale_depth", usage).unwrap_or(16));
}
