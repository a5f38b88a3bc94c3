//! Behaviour of the searches through the `Searcher` interface the engine uses.

use std::sync::atomic::{AtomicBool, Ordering};

use pion::search::{Algorithm, Info, Level, Limits, Score, SearchGame, Searcher, Settings};
use pion_rules::avalam::{self, Avalam};
use pion_rules::awale::{self, Awale};
use pion_rules::game::{Game, History, Player};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Runs a search and returns the move and the last report.
fn run<G: SearchGame>(
    settings: Settings,
    game: &History<G>,
    limits: &Limits,
) -> (Option<G::Move>, Option<Info>) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<G>::new(settings);
    let mut last = None;
    let mv = searcher.search(game, limits, &stop, &mut |info| last = Some(info.clone()));
    (mv, last)
}

/// The exact final margin for the side to move, by full minimax: the slow reference.
fn solve_avalam(pos: &Avalam) -> i32 {
    pion_rules::game::minimax_margin(pos)
}

fn expected_score(margin: i32) -> Score {
    match margin.signum() {
        1 => Score::Win(margin as u32),
        0 => Score::Draw,
        _ => Score::Loss((-margin) as u32),
    }
}

fn random_endgame(rng: &mut Xoshiro256PlusPlus) -> Avalam {
    let mut pos = Avalam::empty(avalam::Variant::Standard);
    for row in 3..6 {
        for col in 3..6 {
            if rng.random_range(0..10) < 8 {
                let top = if rng.random_bool(0.5) {
                    Player::One
                } else {
                    Player::Two
                };
                pos.set_tower(avalam::cell(col, row), rng.random_range(1..3), top);
            }
        }
    }
    if rng.random_bool(0.5) {
        pos.set_side(Player::Two);
    }
    pos
}

#[test]
fn avalam_endgames_are_solved_exactly() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut decided = 0;
    for _ in 0..30 {
        let pos = random_endgame(&mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        let margin = solve_avalam(&pos);
        let game = History::new(pos);
        let (mv, info) = run(Settings::default(), &game, &Limits::default());
        let mv = mv.expect("a move");
        let info = info.expect("a report");
        assert_eq!(
            info.score,
            Some(expected_score(margin).into()),
            "{}",
            pos.format_position()
        );
        // The move played keeps the proven margin.
        let mut child = pos;
        child.play(mv);
        assert_eq!(-solve_avalam(&child), margin, "{}", pos.format_position());
        decided += (margin != 0) as u32;
    }
    assert!(decided > 5, "the sample holds won and lost positions");
}

/// Sparse boards with taller towers: many one-move components (items) next to larger ones.
fn random_sparse_endgame(rng: &mut Xoshiro256PlusPlus) -> Avalam {
    let mut pos = Avalam::empty(avalam::Variant::Standard);
    for _ in 0..rng.random_range(4..11) {
        let (col, row) = (rng.random_range(0..5), rng.random_range(0..5));
        let top = if rng.random_bool(0.5) {
            Player::One
        } else {
            Player::Two
        };
        pos.set_tower(
            avalam::cell(col, row),
            [1, 1, 2, 2, 3, 4][rng.random_range(0..6)],
            top,
        );
    }
    if rng.random_bool(0.5) {
        pos.set_side(Player::Two);
    }
    pos
}

#[test]
fn avalam_endgames_with_items_are_solved_exactly_and_the_margin_is_kept() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mut searched = 0;
    while searched < 40 {
        let pos = random_sparse_endgame(&mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        searched += 1;
        let margin = solve_avalam(&pos);
        let game = History::new(pos);
        let (mv, info) = run(Settings::default(), &game, &Limits::default());
        let info = info.expect("a report");
        assert_eq!(
            info.score,
            Some(expected_score(margin).into()),
            "{}",
            pos.format_position()
        );
        let mut child = pos;
        child.play(mv.expect("a move"));
        assert_eq!(-solve_avalam(&child), margin, "{}", pos.format_position());
    }
}

#[test]
fn awale_capture_to_win_is_found_and_reported_with_its_margin() {
    // 23-23 captured; one to move with one seed in F, two has one seed in a: F captures a
    // (2 seeds) and wins 25-23.
    let mut pits = [0u8; 12];
    pits[5] = 1;
    pits[6] = 1;
    let pos = Awale::from_parts(pits, [23, 23], Player::One, awale::Variant::Standard);
    let (mv, info) = run(Settings::default(), &History::new(pos), &Limits::default());
    assert_eq!(mv, Some(awale::Move(5)));
    assert_eq!(info.unwrap().score, Some(Score::Win(2).into()));
}

#[test]
fn a_finished_game_has_no_move() {
    let pos = Avalam::empty(avalam::Variant::Standard);
    assert_eq!(
        run(Settings::default(), &History::new(pos), &depth(3)).0,
        None
    );
    // Awale: one seed each, 23-23 captured; forced play circles until a position repeats.
    let mut pits = [0u8; 12];
    pits[0] = 1;
    pits[6] = 1;
    let pos = Awale::from_parts(pits, [23, 23], Player::One, awale::Variant::Standard);
    let mut game = History::new(pos);
    while game.outcome().is_none() {
        assert!(run(Settings::default(), &game, &depth(4)).0.is_some());
        let mut moves = <Awale as Game>::Moves::default();
        game.legal_moves(&mut moves);
        game.play(moves.as_ref()[0]);
    }
    assert_eq!(
        game.outcome().unwrap().reason,
        pion_rules::game::EndReason::Repetition
    );
    assert_eq!(run(Settings::default(), &game, &depth(4)).0, None);
}

fn all_settings() -> Vec<Settings> {
    let mut out = Vec::new();
    for &(level, _) in Level::ALL.iter() {
        out.push(Settings {
            level,
            ..Settings::default()
        });
    }
    out.push(Settings {
        algorithm: Algorithm::Mcts,
        ..Settings::default()
    });
    out
}

fn stopped_search_returns_a_legal_move<G: SearchGame>() {
    for settings in all_settings() {
        for game in pion::search::bench::positions::<G>() {
            let stop = AtomicBool::new(true);
            let mut searcher = Searcher::<G>::new(settings);
            let mv = searcher
                .search(&game, &Limits::default(), &stop, &mut |_| {})
                .expect("the game is on");
            assert!(game.position().is_legal(mv), "{settings:?}");
        }
    }
}

#[test]
fn stop_set_before_the_search_still_gives_a_legal_move() {
    stopped_search_returns_a_legal_move::<Avalam>();
    stopped_search_returns_a_legal_move::<Awale>();
}

#[test]
fn infinite_waits_for_stop_even_when_solved() {
    let mut pits = [0u8; 12];
    pits[5] = 1;
    pits[6] = 1;
    let pos = Awale::from_parts(pits, [23, 23], Player::One, awale::Variant::Standard);
    let game = History::new(pos);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Awale>::new(Settings::default());
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.store(true, Ordering::SeqCst);
        });
        let mv = searcher.search(&game, &limits, &stop, &mut |_| {});
        assert!(stop.load(Ordering::SeqCst), "returned before stop");
        assert_eq!(mv, Some(awale::Move(5)));
    });
}

fn deterministic<G: SearchGame>(settings: Settings, limits: Limits) {
    for game in pion::search::bench::positions::<G>() {
        let (m1, i1) = run(settings, &game, &limits);
        let (m2, i2) = run(settings, &game, &limits);
        assert_eq!(m1, m2);
        assert_eq!(i1.unwrap().nodes, i2.unwrap().nodes);
    }
}

#[test]
fn searches_are_deterministic_at_fixed_depth_or_nodes() {
    deterministic::<Avalam>(Settings::default(), depth(3));
    deterministic::<Awale>(Settings::default(), depth(9));
    let mcts = Settings {
        algorithm: Algorithm::Mcts,
        seed: 99,
        ..Settings::default()
    };
    let nodes = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    deterministic::<Avalam>(mcts, nodes);
    deterministic::<Awale>(mcts, nodes);
    let divine = Settings {
        level: Level::Divine,
        level_depth: Some(2),
        seed: 5,
        ..Settings::default()
    };
    deterministic::<Avalam>(divine, Limits::default());
}

#[test]
fn node_limit_is_honoured() {
    let game = History::new(Avalam::start(avalam::Variant::Standard));
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Avalam>::new(Settings::default());
    let mut nodes = 0;
    let mv = searcher.search(&game, &limits, &stop, &mut |i| nodes = i.nodes);
    assert!(game.position().is_legal(mv.unwrap()));
    assert!(nodes <= 5000, "{nodes}");
}

/// Plays `n` games (alternating colours) of `a` against `b`; returns the wins of `a`.
fn wins<G: SearchGame>(a: Settings, b: Settings, limits: &Limits, n: usize) -> usize {
    let stop = AtomicBool::new(false);
    let mut won = 0;
    for g in 0..n {
        let mut b = b;
        b.seed = g as u64;
        let mut players = [Searcher::<G>::new(a), Searcher::<G>::new(b)];
        let a_side = if g % 2 == 0 { Player::One } else { Player::Two };
        if a_side == Player::Two {
            players.swap(0, 1);
        }
        let mut game = History::new(G::start(G::Variant::default()));
        while game.outcome().is_none() {
            let side = game.position().side_to_move().index();
            let mv = players[side]
                .search(&game, limits, &stop, &mut |_| {})
                .unwrap();
            game.play(mv);
        }
        won += (game.outcome().unwrap().winner() == Some(a_side)) as usize;
    }
    won
}

#[test]
fn max_beats_random() {
    let random = Settings {
        level: Level::Random,
        ..Settings::default()
    };
    assert!(wins::<Avalam>(Settings::default(), random, &depth(2), 10) >= 9);
    assert!(wins::<Awale>(Settings::default(), random, &depth(4), 10) >= 9);
}

#[test]
fn greedy_takes_the_capture() {
    let greedy = Settings {
        level: Level::Greedy,
        ..Settings::default()
    };
    let pits = [4u8, 4, 4, 4, 4, 5, 4, 4, 2, 1, 1, 4];
    let pos = Awale::from_parts(pits, [7, 0], Player::One, awale::Variant::Standard);
    assert_eq!(
        run(greedy, &History::new(pos), &depth(1)).0,
        Some(awale::Move(5))
    );
}

#[test]
fn basic_medium_and_divine_take_the_tower() {
    use Player::{One as Y, Two as R};
    // Yellow to move: c1 yellow covering b1 red wins 2-0; b1 onto c1 or i9 alone loses a point.
    let mut pos = Avalam::empty(avalam::Variant::Standard);
    pos.set_tower(avalam::cell(1, 0), 1, R);
    pos.set_tower(avalam::cell(2, 0), 1, Y);
    pos.set_tower(avalam::cell(8, 8), 1, Y);
    pos.set_side(Y);
    for level in [Level::Basic, Level::Medium, Level::Divine] {
        let s = Settings {
            level,
            ..Settings::default()
        };
        let (mv, _) = run(s, &History::new(pos), &Limits::default());
        assert_eq!(Avalam::format_move(mv.unwrap()), "c1b1", "{level:?}");
    }
}

#[test]
fn basic_medium_and_divine_search_to_the_go_depth_and_say_when_cut_short() {
    let game = History::new(Avalam::start(avalam::Variant::Standard));
    for level in [Level::Basic, Level::Medium, Level::Divine] {
        let s = Settings {
            level,
            ..Settings::default()
        };
        let (_, one) = run(s, &game, &depth(1));
        let (_, two) = run(s, &game, &depth(2));
        let (one, two) = (one.unwrap(), two.unwrap());
        assert_eq!((one.depth, two.depth), (1, 2), "{level:?}");
        assert!(two.nodes > one.nodes * 10, "{level:?}: {one:?} {two:?}");
        let capped = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let (mv, info) = run(s, &game, &capped);
        let info = info.unwrap();
        assert!(game.position().is_legal(mv.unwrap()));
        // The level's depth is far from done after 1000 nodes: no depth was completed.
        let own = if level == Level::Medium { 2 } else { 4 };
        assert_eq!((info.depth, info.seldepth), (0, own), "{level:?}");
    }
}

/// MCTS under a depth limit: the searched line (each move tried at least as often as its
/// parent has moves) grows to that length, and a line that reaches the end of the game sooner
/// ends the search too. Returns the last report.
fn mcts_to_depth<G: SearchGame>(game: &History<G>, depth: u32, expected: u32) -> Info {
    let mcts = Settings {
        algorithm: Algorithm::Mcts,
        ..Settings::default()
    };
    let (mv, info) = run(mcts, game, &self::depth(depth));
    let info = info.unwrap();
    assert!(game.position().is_legal(mv.unwrap()));
    assert_eq!(info.depth, expected, "{info:?}");
    assert!(info.pv.len() as u32 >= expected, "{info:?}");
    info
}

#[test]
fn mcts_honours_the_depth_limit() {
    let avalam = History::new(Avalam::start(avalam::Variant::Standard));
    // Depth 1: every root move tried, and the chosen one at least as often as there are moves.
    let info = mcts_to_depth(&avalam, 1, 1);
    assert!(info.nodes >= 292, "{info:?}");
    let awale = History::new(Awale::start(awale::Variant::Standard));
    mcts_to_depth(&awale, 6, 6);
    // Two towers left: one move ends the game, so no line is longer than one ply.
    let mut pos = Avalam::empty(avalam::Variant::Standard);
    pos.set_tower(avalam::cell(0, 0), 1, Player::One);
    pos.set_tower(avalam::cell(1, 0), 1, Player::Two);
    mcts_to_depth(&History::new(pos), 9, 1);
    // A full tree cannot deepen the line: the search ends there rather than run forever.
    let small = Settings {
        algorithm: Algorithm::Mcts,
        hash_mib: 1,
        ..Settings::default()
    };
    let (mv, info) = run(small, &avalam, &depth(40));
    let info = info.unwrap();
    assert!(avalam.position().is_legal(mv.unwrap()));
    assert!(info.depth < 40 && info.hashfull > Some(900), "{info:?}");
}

#[test]
fn mcts_stopped_before_a_playout_reports_its_move() {
    let mcts = Settings {
        algorithm: Algorithm::Mcts,
        ..Settings::default()
    };
    let avalam = History::new(Avalam::start(avalam::Variant::Standard));
    let none = Limits {
        nodes: Some(0),
        ..Limits::default()
    };
    let (mv, info) = run(mcts, &avalam, &none);
    let info = info.unwrap();
    assert_eq!(info.score, None, "no estimate without a playout: {info:?}");
    assert_eq!(info.pv, [Avalam::format_move(mv.unwrap())]);
}

#[test]
fn the_last_info_line_shows_the_move_played() {
    // Under a node limit the last iteration is cut short, and may still change the move.
    for nodes in (5_000..=150_000).step_by(5_000) {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let game = History::new(Avalam::start(avalam::Variant::Standard));
        let (mv, info) = run(Settings::default(), &game, &limits);
        let info = info.unwrap();
        assert_eq!(
            info.pv.first().map(String::as_str),
            Some(Avalam::format_move(mv.unwrap()).as_str()),
            "nodes {nodes}: {info:?}"
        );
        let game = History::new(Awale::start(awale::Variant::Standard));
        let (mv, info) = run(Settings::default(), &game, &limits);
        let info = info.unwrap();
        assert_eq!(
            info.pv.first().map(String::as_str),
            Some(Awale::format_move(mv.unwrap()).as_str()),
            "nodes {nodes}: {info:?}"
        );
    }
}

#[test]
fn searchers_can_move_to_a_search_thread() {
    fn send<T: Send>() {}
    send::<Searcher<Avalam>>();
    send::<Searcher<Awale>>();
}

#[test]
fn the_mcts_line_stops_where_the_search_has_no_preference() {
    // 600 playouts over Avalam's 292 first moves: the replies below the chosen move were tried
    // once each at most, so none of them is a preferred line (it printed the first legal one).
    let mcts = Settings {
        algorithm: Algorithm::Mcts,
        ..Settings::default()
    };
    let avalam = History::new(Avalam::start(avalam::Variant::Standard));
    let limits = Limits {
        nodes: Some(600),
        ..Limits::default()
    };
    let (mv, info) = run(mcts, &avalam, &limits);
    let info = info.unwrap();
    assert_eq!(info.pv, [Avalam::format_move(mv.unwrap())], "{info:?}");
}

#[test]
fn avalam_tiebreak5_endgames_are_solved_with_the_tie_break() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
    let (mut searched, mut on_tiebreak) = (0, 0);
    while searched < 60 {
        let standard = random_sparse_endgame(&mut rng);
        let text = standard.format_position();
        let (board, side) = text.split_once(' ').unwrap();
        let pos = Avalam::parse_position(board, side, avalam::Variant::TieBreak5).unwrap();
        if pos.outcome().is_some() {
            continue;
        }
        searched += 1;
        let value = pion_rules::game::minimax_result(&pos);
        let expected = match value {
            1 => Score::Win(0),
            -1 => Score::Loss(0),
            0 => Score::Draw,
            v => expected_score(v / pion_rules::game::POINT),
        };
        on_tiebreak += (value.abs() == 1) as u32;
        let game = History::new(pos);
        let (mv, info) = run(Settings::default(), &game, &Limits::default());
        assert_eq!(
            info.expect("a report").score,
            Some(expected.into()),
            "{text}"
        );
        let mut child = pos;
        child.play(mv.expect("a move"));
        assert_eq!(
            -pion_rules::game::minimax_result(&child),
            value,
            "the move keeps the value: {text}"
        );
    }
    assert!(
        on_tiebreak >= 3,
        "the sample holds games the tie-break decides: {on_tiebreak}"
    );
}
