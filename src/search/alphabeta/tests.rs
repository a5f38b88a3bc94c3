use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::search::{EngineScore, Limits, Score};
use crate::search::{Exact, MoveCodes};
use pion_rules::avalam::{self, Avalam};
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::repeats;
use pion_rules::game::{Game, Player};

/// Exact final margin for the side to move, by memoised minimax (the slow reference).
fn margin(pos: &Avalam, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return outcome.margin_for(pos.side_to_move());
    }
    if let Some(&m) = memo.get(&pos.hash()) {
        return m;
    }
    let mut moves = <Avalam as Game>::Moves::default();
    pos.legal_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play(mv);
            -margin(&child, memo)
        })
        .max()
        .expect("a move");
    memo.insert(pos.hash(), best);
    best
}

/// A 4x3 block of low towers: too big for the first iterations to prove, small enough
/// for the reference.
fn block(rng: &mut Xoshiro256PlusPlus, fill: u32) -> Avalam {
    let mut pos = Avalam::empty(avalam::Variant::Standard);
    for row in 3..6 {
        for col in 2..6 {
            if rng.random_range(0..10) < fill {
                let top = if rng.random_bool(0.5) {
                    Player::One
                } else {
                    Player::Two
                };
                pos.set_tower(avalam::cell(col, row), rng.random_range(1..3), top);
            }
        }
    }
    pos
}

/// Whether a reported score is true of a position whose exact margin is `m`.
fn consistent(score: EngineScore, m: i32) -> bool {
    match (score.value, score.bound.is_some()) {
        (Score::Win(w), false) => m == w as i32,
        (Score::Win(w), true) => m >= w as i32,
        (Score::Loss(l), false) => m == -(l as i32),
        (Score::Loss(l), true) => m <= -(l as i32),
        (Score::Draw, false) => m == 0,
        _ => false,
    }
}

#[test]
fn solving_proves_the_exact_margin_and_a_move_that_keeps_it() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut memo = HashMap::new();
    let (mut wins, mut losses, mut draws, mut bounds) = (0, 0, 0, 0);
    for _ in 0..30 {
        let pos = block(&mut rng, 8);
        if pos.outcome().is_some() {
            continue;
        }
        let truth = margin(&pos, &mut memo);
        let game = History::new(pos);
        let stop = AtomicBool::new(false);
        let clock = Watch::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
        let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
        let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
        let mut reports = Vec::new();
        let (mv, last) = search
            .solve_root(&pos, u64::MAX / 2, 0, &mut |i| reports.push(i.clone()))
            .expect("no cap, no clock: solved");
        let at = pos.format_position();
        for info in &reports {
            let score = info.score.expect("every report has a score");
            assert!(consistent(score, truth), "{score:?} {truth} {at}");
            bounds += score.bound.is_some() as u32;
        }
        assert!(last.score.is_some_and(|s| s.bound.is_none()), "{at}");
        assert_eq!(last, *reports.last().unwrap());
        let mv = mv.expect("the exact margin comes with the move that reaches it");
        let mut child = pos;
        child.play(mv);
        assert_eq!(-margin(&child, &mut memo), truth, "{at}");
        match truth.signum() {
            1 => wins += 1,
            -1 => losses += 1,
            _ => draws += 1,
        }
    }
    assert!(
        wins > 2 && losses > 2 && draws > 2,
        "{wins} {losses} {draws}"
    );
    assert!(
        bounds > 3,
        "win/loss bounds come before the margin: {bounds}"
    );
}

#[test]
fn at_a_drawn_root_the_swindle_keeps_the_draw_and_leaves_the_fewest_safe_replies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let mut memo = HashMap::new();
    let (mut drawn, mut moved) = (0, 0);
    while drawn < 10 {
        let pos = block(&mut rng, 6);
        if pos.outcome().is_some() || margin(&pos, &mut memo) != 0 {
            continue;
        }
        let mut moves = <Avalam as Game>::Moves::default();
        pos.legal_moves(&mut moves);
        pos.prune_equivalent(&mut moves);
        // Each drawing move with its share of safe replies, by the reference.
        let mut shares = Vec::new();
        for &mv in moves.iter() {
            let mut child = pos;
            child.play(mv);
            if margin(&child, &mut memo) != 0 {
                continue;
            }
            let mut answers = <Avalam as Game>::Moves::default();
            child.legal_moves(&mut answers);
            if answers.is_empty() {
                // The move ends the game: nothing left for the opponent to get wrong.
                continue;
            }
            let safe = answers
                .iter()
                .filter(|&&a| {
                    let mut next = child;
                    next.play(a);
                    margin(&next, &mut memo) <= 0
                })
                .count();
            shares.push((mv, safe as f64 / answers.len() as f64));
        }
        if shares.is_empty() {
            continue;
        }
        drawn += 1;
        let least = shares.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        let default = shares[0].0;
        let game = History::new(pos);
        let stop = AtomicBool::new(false);
        let clock = Watch::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
        let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
        let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
        let mv = search.swindle(&pos, default, 0, 1);
        let share = shares.iter().find(|s| s.0 == mv).map(|s| s.1);
        assert_eq!(share, Some(least), "{}", pos.format_position());
        moved += (mv != default) as u32;
    }
    assert!(moved > 1, "the swindle changed the move in {moved} of 10");
}

#[test]
fn a_capped_attempt_gives_up_and_the_search_goes_on() {
    let pos = Avalam::start(avalam::Variant::Standard);
    let game = History::new(pos);
    let stop = AtomicBool::new(false);
    let clock = Watch::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
    let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
    let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
    let mut reports = 0;
    assert!(
        search
            .solve_root(&pos, 50, 0, &mut |_| reports += 1)
            .is_none()
    );
    assert_eq!(reports, 0, "nothing was proven");
    assert!(!search.aborted, "the cap does not abort the search");
    let v = search.negamax(&pos, 2, 0, -INFINITY, INFINITY);
    assert!(!search.aborted && search.pv_len[0] > 0, "{v}");
}

/// The final margin for the side to move at the last position of `path`, every line played out
/// under the rules (a repetition since the last capture ends the game); `None` past `budget`
/// nodes (lines through cycles grow exponentially). `cycles` is set when a line repeats.
fn played_out(path: &mut Vec<Awale>, budget: &mut u64, cycles: &mut bool) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    let pos = *path.last().unwrap();
    if repeats(&pos, &path[..path.len() - 1]) {
        *cycles = true;
        return Some(pos.margin());
    }
    if pos.outcome().is_some() {
        return Some(pos.margin());
    }
    let mut moves = <Awale as Game>::Moves::default();
    pos.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for &mv in moves.iter() {
        let mut child = pos;
        child.play(mv);
        path.push(child);
        let v = played_out(path, budget, cycles);
        path.pop();
        best = best.max(-v?);
    }
    Some(best)
}

#[test]
fn proven_awale_scores_hold_under_the_repetition_rule() {
    // Games of two or three seeds on the board, searched move after move with one table as in a
    // game, so that values stored under one history are probed under the next. Twenty games:
    // which lines end in a repetition depends on the evaluation, and the test needs some.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut proven, mut repeated) = (0, 0);
    for _ in 0..20 {
        let on_board = rng.random_range(2..=4u8);
        let mut pits = [0u8; 12];
        for _ in 0..on_board {
            pits[rng.random_range(0..12)] += 1;
        }
        let first = rng.random_range(21..=24u8).min(48 - on_board - 21);
        let captured = [first, 48 - on_board - first];
        let side = if rng.random_bool(0.5) {
            Player::One
        } else {
            Player::Two
        };
        let mut game = History::new(Awale::from_parts(pits, captured, side, Variant::Standard));
        let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Awale::MOVE_SLOTS));
        while game.outcome().is_none() && game.moves().len() < 30 {
            let limits = Limits {
                depth: Some(60),
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let pos = *game.position();
            let clock = Watch::new(&limits, pos.side_to_move(), 0, 1, &stop);
            let request = Request {
                game: &game,
                limits: &limits,
                clock: &clock,
                fallback: Awale::decode_move(1),
            };
            let choice = search(&request, &mut tt, &mut heur, &mut |_| {});
            let score = choice.info.score.expect("a score");
            let (mut budget, mut cycles) = (300_000, false);
            let truth = played_out(&mut game.positions().to_vec(), &mut budget, &mut cycles);
            if let Some(truth) = truth
                && !matches!(score.value, Score::Centi(_))
            {
                let at = format!("{} after {:?}", game.root().format_position(), game.moves());
                assert!(consistent(score, truth), "{score:?} but {truth}: {at}");
                let exact = score.bound.is_none();
                proven += exact as u32;
                repeated += (cycles && exact) as u32;
            }
            game.play(choice.best);
        }
    }
    assert!(
        proven >= 20 && repeated >= 3,
        "{proven} proven, {repeated} by repetition"
    );
}

/// Minimax to `depth`, then (with `quiesce`) the captures alone until none is left, the static
/// value standing in for the quiet moves: the reference of the quiescence search.
fn minimax_then_captures(pos: &Awale, depth: i32, quiesce: bool) -> i32 {
    let stand = match pos.horizon() {
        crate::search::Horizon::Exact(margin) => return value::terminal(margin),
        crate::search::Horizon::Heuristic(v) => value::heuristic(v),
        crate::search::Horizon::Bounded { likely, .. } => value::terminal(likely),
    };
    if depth <= 0 && !quiesce {
        return stand;
    }
    let mut moves = <Awale as Game>::Moves::default();
    pos.legal_moves(&mut moves);
    let children = moves
        .iter()
        .filter(|&&mv| depth > 0 || pos.capture(mv) > 0)
        .map(|&mv| {
            let mut child = *pos;
            child.play(mv);
            -minimax_then_captures(&child, depth - 1, quiesce)
        });
    if depth > 0 {
        children.max().expect("a move")
    } else {
        children.fold(stand, i32::max)
    }
}

#[test]
fn awale_quiescence_plays_out_every_capture_before_the_static_value() {
    // Middlegame positions (more seeds than any database holds), searched one and two plies
    // deep with a full window: no reduction applies there, so the value is the reference's.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let (mut checked, mut differ_from_static) = (0, 0);
    while checked < 150 {
        let mut pos = Awale::start(Variant::Standard);
        for _ in 0..rng.random_range(6..40) {
            let mut moves = <Awale as Game>::Moves::default();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves.as_ref()[rng.random_range(0..moves.len())]);
        }
        let on_board: u32 = pos.pits().iter().map(|&s| s as u32).sum();
        if pos.outcome().is_some() || on_board <= 30 {
            continue;
        }
        for depth in 1..=2 {
            let game = History::new(pos);
            let stop = AtomicBool::new(false);
            let clock = Watch::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
            let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Awale::MOVE_SLOTS));
            let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
            let v = search.negamax(&pos, depth, 0, -INFINITY, INFINITY);
            let reference = minimax_then_captures(&pos, depth, true);
            assert_eq!(v, reference, "depth {depth}: {}", pos.format_position());
            differ_from_static += (reference != minimax_then_captures(&pos, depth, false)) as u32;
            checked += 1;
        }
    }
    assert!(
        differ_from_static > 20,
        "captures past the horizon changed {differ_from_static} of {checked} values"
    );
}

#[test]
fn an_aspiration_window_widens_only_on_the_side_it_failed_until_it_is_open() {
    use super::driver::widened;
    // Inside the window: the value is exact, nothing to search again.
    assert_eq!(widened(-25, 25, 10, 25), None);
    // Failing low moves the floor below the value, four times as far; the ceiling stays.
    assert_eq!(widened(-25, 25, -25, 25), Some((-125, 25, 100)));
    assert_eq!(widened(-25, 25, -40, 25), Some((-140, 25, 100)));
    // Failing high moves the ceiling the same way; the floor stays.
    assert_eq!(widened(-25, 25, 25, 25), Some((-25, 125, 100)));
    // A side already open cannot fail: the value is exact (a full-window search).
    assert_eq!(widened(-INFINITY, 25, -300, 25), None);
    assert_eq!(widened(-INFINITY, INFINITY, -300, 25), None);
    // Widening ends with the window open on the side that keeps failing: a proven win seen
    // from a heuristic window is searched again up to INFINITY, in a few steps.
    let (mut alpha, mut beta, mut delta) = (-25, 25, 25);
    let win = value::WIN + 3 * value::MARGIN_UNIT;
    let mut steps = 0;
    while let Some(window) = widened(alpha, beta, win.min(beta), delta) {
        (alpha, beta, delta) = window;
        steps += 1;
        assert_eq!(alpha, -25, "the floor never moves on a fail high");
        if beta > win {
            break;
        }
    }
    assert!(beta > win && steps <= 8, "beta {beta} after {steps} steps");
}
