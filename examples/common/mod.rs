//! Helpers shared by the example tools: playing games between two settings in-process.

#![allow(dead_code)]

use std::sync::atomic::AtomicBool;

use pion::search::{Limits, SearchGame, Searcher, Settings};
use pion_rules::game::{Game, History, Player};

/// Plays one game from `start`, `one` moving first; returns the final margin for player one
/// and the history.
pub fn play_game<G: SearchGame>(
    start: History<G>,
    one: Settings,
    two: Settings,
    limits: &Limits,
) -> (i32, History<G>) {
    let stop = AtomicBool::new(false);
    let mut players = [Searcher::<G>::new(one), Searcher::<G>::new(two)];
    let mut game = start;
    while game.outcome().is_none() {
        let side = game.position().side_to_move().index();
        let mv = players[side]
            .search(&game, limits, &stop, &mut |_| {})
            .expect("a move while the game is on");
        game.play(mv);
    }
    let outcome = game.outcome().expect("over");
    (outcome.margin_for(Player::One), game)
}

/// A varied opening: `plies` random moves from the start, from a seed.
pub fn opening<G: Game>(plies: usize, seed: u64) -> History<G> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut game = History::new(G::start(G::Variant::default()));
    for _ in 0..plies {
        let mut moves = G::Moves::default();
        game.legal_moves(&mut moves);
        let list = moves.as_ref();
        if list.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(list[(state % list.len() as u64) as usize]);
    }
    game
}

/// The match result of `a` against `b` over colour-swapped pairs: (wins, draws, losses) for `a`.
pub fn match_pairs<G: SearchGame>(
    a: Settings,
    b: Settings,
    limits: &Limits,
    pairs: usize,
    opening_plies: usize,
) -> (u32, u32, u32) {
    let mut wdl = (0, 0, 0);
    for p in 0..pairs {
        let start = opening::<G>(opening_plies, p as u64 + 1);
        for swap in [false, true] {
            let (one, two) = if swap { (b, a) } else { (a, b) };
            let (margin, _) = play_game(start.clone(), one, two, limits);
            let for_a = if swap { -margin } else { margin };
            match for_a.signum() {
                1 => wdl.0 += 1,
                0 => wdl.1 += 1,
                _ => wdl.2 += 1,
            }
        }
    }
    wdl
}

/// The Elo difference with its 95% error bar from a (wins, draws, losses) count, as the referee
/// computes it (trinomial model), or a note when one side won every game and there is none.
pub fn elo_text(wdl: (u32, u32, u32)) -> String {
    let estimate =
        pion_referee::report::stats::Wdl::new(wdl.0.into(), wdl.1.into(), wdl.2.into()).elo();
    let games = wdl.0 + wdl.1 + wdl.2;
    if wdl.0 == games || wdl.2 == games {
        "no finite elo (every game went one way)".to_string()
    } else if estimate.clamped {
        format!(
            "elo {:+.0} +- {:.0} (the interval reaches the model's limit)",
            estimate.elo, estimate.error
        )
    } else {
        format!("elo {:+.0} +- {:.0}", estimate.elo, estimate.error)
    }
}

/// Exits with status 2 after printing `usage` and what is wrong: the examples' one-line answer
/// to bad arguments.
pub fn usage_exit(usage: &str, problem: &str) -> ! {
    eprintln!("{usage}: {problem}");
    std::process::exit(2);
}

/// Argument `i` parsed as a `T` (`what` names it in the error); `None` when absent.
pub fn arg<T: std::str::FromStr>(args: &[String], i: usize, what: &str, usage: &str) -> Option<T> {
    args.get(i).map(|a| {
        a.parse()
            .unwrap_or_else(|_| usage_exit(usage, &format!("{what} must be a number, not {a:?}")))
    })
}

/// Argument `i` parsed as a `T`; it must be given.
pub fn required<T: std::str::FromStr>(args: &[String], i: usize, what: &str, usage: &str) -> T {
    arg(args, i, what, usage).unwrap_or_else(|| usage_exit(usage, &format!("{what} is missing")))
}
