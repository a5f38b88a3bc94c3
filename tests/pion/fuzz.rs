//! A fuzz-style run of the real binary: random and mutated lines, every reply well formed.

use crate::common::Pion;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const SEEDS: &[&str] = &[
    "pion",
    "isready",
    "newgame awale",
    "newgame avalam",
    "position startpos moves a5b5 b5c5",
    "position 4,4,4,4,4,4/4,4,4,4,4,4/0,0 2 moves a",
    "legal",
    "play a5b5",
    "play C",
    "undo",
    "status",
    "show",
    "go depth 2",
    "go nodes 500",
    "stop",
    "setoption name Hash value 8",
    "setoption name Variant value own-colour",
    "setoption name Level value random",
    "perft 2",
    "query result",
    "ugi",
];

/// Whether a reply line has one of the documented shapes.
fn well_formed(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "id ",
        "game ",
        "option name ",
        "info ",
        "bestmove ",
        "legal",
        "status ",
        "board ",
        "position ",
        "perft depth ",
        "response ",
        "error ",
    ];
    const WHOLE: &[&str] = &["pionok", "ugiok", "readyok"];
    // The board picture lines of `show`.
    let picture = line.starts_with(|c: char| c.is_ascii_digit() || c == ' ');
    WHOLE.contains(&line) || STARTS.iter().any(|s| line.starts_with(s)) || picture
}

fn mutate(rng: &mut Xoshiro256PlusPlus, line: &str) -> String {
    let mut bytes: Vec<char> = line.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=bytes.len());
        match rng.random_range(0..4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, char::from(rng.random_range(0x20u8..0x7f))),
            2 => bytes.insert(at, ' '),
            _ => bytes.insert(
                at,
                char::from_u32(rng.random_range(0..0x3000)).unwrap_or('?'),
            ),
        }
    }
    bytes
        .into_iter()
        .filter(|&c| c != '\n' && c != '\r')
        .collect()
}

/// Random and mutated valid lines: every reply is well formed and the engine stays responsive.
#[test]
fn fuzzed_input_keeps_the_engine_well_formed_and_responsive() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut pion = Pion::start();
    for round in 0..600 {
        let base = SEEDS[rng.random_range(0..SEEDS.len())];
        let line = if rng.random_bool(0.5) {
            base.to_string()
        } else {
            mutate(&mut rng, base)
        };
        pion.send(&line);
        if round % 10 == 0 {
            pion.send("stop");
            pion.send("isready");
            loop {
                let reply = pion.recv();
                assert!(
                    well_formed(&reply),
                    "after {line:?}: malformed reply {reply:?}"
                );
                if reply == "readyok" {
                    break;
                }
            }
        }
    }
    pion.send("stop");
    pion.send("quit");
    while let Some(reply) = pion.recv_within(std::time::Duration::from_secs(10)) {
        assert!(well_formed(&reply), "malformed reply {reply:?}");
    }
    assert!(pion.wait_success());
}
