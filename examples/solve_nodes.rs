//! Nodes the search needs to prove endgame results, over a fixed set of positions: a noise-free
//! measure of the solver (wall time depends on the machine and its load, node counts do not).
//!
//! `cargo run --release --features lab --example solve_nodes -- <positions file> [cap_nodes]`
//!
//! Each line of the file is an Avalam position as `format_position` writes it (`<board> <side>`;
//! `#` starts a comment). Each position is searched from an empty 64 MiB table with a node limit
//! of `cap_nodes` (20 M by default); the example prints the nodes searched when the result (win,
//! draw or loss) was first proven and when the exact margin was, then the totals, counting a
//! position not proven within the cap as `cap_nodes`.
//!
//! `cargo run --release --features lab --example solve_nodes -- --dump <games> <selfplay_nodes> <k>...` prints
//! the positions `k` plies before the end of the self-play games that `endgame_proof` plays (the
//! same openings), to make such a file.

mod common;

use std::sync::atomic::AtomicBool;

use pion::search::{EngineScore, Limits, Score, Searcher, Settings};
use pion_rules::avalam::{Avalam, Variant};
use pion_rules::game::{Game, History};

fn dump(games: usize, selfplay_nodes: u64, ks: &[usize]) {
    let limits = Limits {
        nodes: Some(selfplay_nodes),
        ..Limits::default()
    };
    for g in 0..games {
        let start = common::opening::<Avalam>(2, 1000 + g as u64);
        let (_, game) = common::play_game(start, Settings::default(), Settings::default(), &limits);
        for &k in ks {
            let mut prefix = game.clone();
            for _ in 0..k {
                prefix.undo();
            }
            println!(
                "{} # game {g}, {k} plies before the end",
                prefix.position().format_position()
            );
        }
    }
}

/// Nodes to the first proven result and to the exact margin, if within the cap.
fn solve(pos: Avalam, cap: u64) -> (Option<u64>, Option<u64>) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Avalam>::new(Settings {
        hash_mib: 64,
        ..Settings::default()
    });
    let limits = Limits {
        nodes: Some(cap),
        ..Limits::default()
    };
    let (mut result, mut exact) = (None, None);
    searcher.search(&History::new(pos), &limits, &stop, &mut |info| {
        if info.nodes > cap {
            return;
        }
        if let Some(EngineScore {
            value: Score::Draw | Score::Win(_) | Score::Loss(_),
            bound,
        }) = info.score
        {
            result = result.or(Some(info.nodes));
            if bound.is_none() {
                exact = exact.or(Some(info.nodes));
            }
        }
    });
    (result, exact)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: solve_nodes <positions file> [cap_nodes] | solve_nodes --dump <games> <selfplay_nodes> <k>...";
    if args.get(1).map(String::as_str) == Some("--dump") {
        let games = common::required(&args, 2, "games", usage);
        let nodes = common::required(&args, 3, "selfplay_nodes", usage);
        let ks: Vec<usize> = (4..args.len())
            .map(|i| common::required(&args, i, "k", usage))
            .collect();
        dump(games, nodes, &ks);
        return;
    }
    let Some(file) = args.get(1) else {
        common::usage_exit(usage, "the positions file is missing");
    };
    let cap = common::arg(&args, 2, "cap_nodes", usage).unwrap_or(20_000_000);
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| common::usage_exit(usage, &format!("cannot read {file}: {e}")));
    let (mut result_total, mut exact_total, mut results, mut exacts, mut count) = (0, 0, 0, 0, 0);
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let (Some(board), Some(side)) = (words.next(), words.next()) else {
            continue;
        };
        let pos = Avalam::parse_position(board, side, Variant::Standard)
            .unwrap_or_else(|e| common::usage_exit(usage, &format!("{file}: {e}")));
        let (result, exact) = solve(pos, cap);
        let show = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
        println!("{line}: result {} exact {}", show(result), show(exact));
        count += 1;
        results += result.is_some() as u32;
        exacts += exact.is_some() as u32;
        result_total += result.unwrap_or(cap);
        exact_total += exact.unwrap_or(cap);
    }
    println!(
        "{count} positions, cap {cap}: result proven {results} ({result_total} nodes), exact {exacts} ({exact_total} nodes)"
    );
}
