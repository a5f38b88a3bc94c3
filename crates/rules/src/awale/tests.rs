//! Unit tests of the Awale rules and notation: sowing, captures, feeding, the three grand-slam
//! rules, the ends of the game, repetition and every parse error.

use super::*;
use crate::game::History;

fn at(text: &str, variant: Variant) -> Awale {
    let (board, side) = text.split_once(' ').unwrap();
    Awale::parse_position(board, side, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn names(position: &Awale) -> String {
    let mut moves = <Awale as Game>::Moves::default();
    position.legal_moves(&mut moves);
    moves.iter().map(|&m| Awale::format_move(m)).collect()
}

fn after(text: &str, variant: Variant, pit: &str) -> String {
    let mut position = at(text, variant);
    let mv = position.parse_legal_move(pit).unwrap();
    position.play(mv);
    position.format_position()
}

fn parse_error(text: &str) -> String {
    let (board, side) = text.rsplit_once(' ').unwrap_or((text, ""));
    match Awale::parse_position(board, side, Variant::Standard) {
        Ok(p) => panic!("{text} parsed as {}", p.format_position()),
        Err(e) => e.to_string(),
    }
}

const ALL: &[Variant] = <Awale as Game>::VARIANTS;

#[test]
fn sowing_runs_anticlockwise_from_the_next_pit() {
    let start = Awale::start(Variant::Standard);
    assert_eq!(names(&start), "ABCDEF");
    assert_eq!(
        after("4,4,4,4,4,4/4,4,4,4,4,4/0,0 1", Variant::Standard, "F"),
        "4,4,4,4,4,0/5,5,5,5,4,4/0,0 2"
    );
    assert_eq!(
        after("4,4,4,4,4,0/5,5,5,5,4,4/0,0 2", Variant::Standard, "f"),
        "5,5,5,5,4,0/5,5,5,5,4,0/0,0 1"
    );
}

#[test]
fn a_lap_of_the_board_skips_the_origin_pit() {
    for &variant in ALL {
        // 12 seeds: one into each of the 11 other pits, then B again; A stays empty.
        assert_eq!(
            after("12,0,0,0,0,0/1,1,1,1,1,1/15,15 1", variant, "A"),
            "0,2,1,1,1,1/2,2,2,2,2,2/15,15 2"
        );
        // 17 seeds: a lap, then B..F and a, which now holds 2 and is captured.
        assert_eq!(
            after("17,0,0,0,0,0/0,1,0,0,0,0/15,15 1", variant, "A"),
            "0,2,2,2,2,2/0,2,1,1,1,1/17,15 2"
        );
        // Player two laps too, skipping its own pit d.
        assert_eq!(
            after("1,1,1,1,1,1/0,0,0,12,0,0/15,15 2", variant, "d"),
            "2,2,2,2,2,2/1,1,1,0,2,1/15,15 1"
        );
    }
}

#[test]
fn captures_chain_backwards_and_stop_at_the_first_other_count() {
    // F sows a, b, c: c = 2 and b = 3 are taken, a = 1 stops the chain (d = 5 is not reached).
    let text = "0,0,0,0,1,3/0,2,1,5,0,0/20,16 1";
    assert_eq!(
        after(text, Variant::Standard, "F"),
        "0,0,0,0,1,0/1,0,0,5,0,0/25,16 2"
    );
    // With a = 1 before, the whole chain a, b, c goes.
    assert_eq!(
        after("0,0,0,0,1,3/1,2,1,5,0,0/19,16 1", Variant::Standard, "F"),
        "0,0,0,0,1,0/0,0,0,5,0,0/26,16 2"
    );
    // The chain never crosses into the mover's own row: F = 2 stays.
    assert_eq!(
        after("0,0,0,0,2,1/1,0,3,0,0,0/20,21 1", Variant::Standard, "E"),
        "0,0,0,0,0,2/0,0,3,0,0,0/22,21 2"
    );
    // A last seed on the mover's own side captures nothing, whatever the count there.
    assert_eq!(
        after("1,1,0,0,0,0/2,2,2,2,2,2/17,17 1", Variant::Standard, "A"),
        "0,2,0,0,0,0/2,2,2,2,2,2/17,17 2"
    );
    // Player two captures in player one's row, chaining down to A.
    assert_eq!(
        after("1,2,1,0,0,0/0,0,0,0,0,2/21,21 2", Variant::Standard, "f"),
        "0,0,1,0,0,0/0,0,0,0,0,0/21,26 1"
    );
}

#[test]
fn the_game_ends_when_a_player_has_more_than_24() {
    let position = at("0,0,0,0,1,0/1,0,0,5,0,0/25,16 2", Variant::Standard);
    let outcome = position.outcome().expect("25 captured ends the game");
    assert_eq!(outcome.reason, EndReason::Captures);
    // The seeds left go to the side they lie on.
    assert_eq!(outcome.score, [26, 22]);
    assert_eq!(outcome.winner(), Some(Player::One));
    assert_eq!(position.count_moves(), 0);
    assert_eq!(names(&position), "");
    // Exactly 24 does not end it.
    assert!(
        at("0,0,0,0,1,0/1,0,0,6,0,0/24,16 2", Variant::Standard)
            .outcome()
            .is_none()
    );
}

#[test]
fn a_move_must_feed_an_empty_opponent_when_it_can() {
    for &variant in ALL {
        // Player two's row is empty: A (1 seed, to B) does not reach it, F does.
        let text = "1,0,0,0,0,1/0,0,0,0,0,0/23,23 1";
        assert_eq!(names(&at(text, variant)), "F", "{variant:?}");
        assert!(at(text, variant).parse_legal_move("A").is_err());
        assert_eq!(after(text, variant, "F"), "1,0,0,0,0,0/1,0,0,0,0,0/23,23 2");
        // No move can feed them: then every move is legal.
        let text = "1,1,0,0,0,0/0,0,0,0,0,0/23,23 1";
        assert_eq!(names(&at(text, variant)), "AB", "{variant:?}");
    }
}

#[test]
fn the_game_ends_when_the_player_to_move_has_no_move() {
    let mut position = at("1,0,0,0,0,0/0,0,0,0,0,0/24,23 1", Variant::Standard);
    assert_eq!(names(&position), "A");
    position.play(Move(0));
    let outcome = position.outcome().expect("player two has no seed");
    assert_eq!(outcome.reason, EndReason::NoMoves);
    assert_eq!(outcome.score, [25, 23]);
    assert_eq!(crate::game::perft(&position, 4), 1);
}

#[test]
fn a_24_24_finish_is_a_draw() {
    let empty = at("0,0,0,0,0,0/0,0,0,0,0,0/24,24 1", Variant::Standard);
    let outcome = empty.outcome().unwrap();
    assert_eq!(outcome.score, [24, 24]);
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.margin_for(Player::One), 0);
    // F takes a's 3 seeds, reaching 24 and leaving player two nothing: 24-24, a draw.
    for variant in [Variant::Standard, Variant::GrandSlamCapture] {
        let mut position = at("0,0,0,0,0,1/2,0,0,0,0,0/21,24 1", variant);
        position.play(Move(5));
        let outcome = position.outcome().unwrap();
        assert_eq!(
            (outcome.score, outcome.winner()),
            ([24, 24], None),
            "{variant:?}"
        );
    }
}

/// F sows a and b, which then hold 2 and 3: all player two has. A is a quiet alternative.
const GRAND_SLAM: &str = "1,0,0,0,0,2/1,2,0,0,0,0/20,22 1";

#[test]
fn standard_forbids_a_grand_slam_unless_every_move_is_one() {
    let position = at(GRAND_SLAM, Variant::Standard);
    assert_eq!(names(&position), "A");
    // With F the only move, it is legal and captures everything.
    let only = "0,0,0,0,0,2/1,2,0,0,0,0/21,22 1";
    assert_eq!(names(&at(only, Variant::Standard)), "F");
    assert_eq!(
        after(only, Variant::Standard, "F"),
        "0,0,0,0,0,0/0,0,0,0,0,0/26,22 2"
    );
}

#[test]
fn grandslam_nocapture_plays_the_grand_slam_without_capturing() {
    let position = at(GRAND_SLAM, Variant::GrandSlamNoCapture);
    assert_eq!(names(&position), "AF");
    assert_eq!(
        after(GRAND_SLAM, Variant::GrandSlamNoCapture, "F"),
        "1,0,0,0,0,0/2,3,0,0,0,0/20,22 2"
    );
    // A capture that leaves player two a seed is an ordinary capture.
    assert_eq!(
        after(
            "1,0,0,0,0,2/1,2,1,0,0,0/20,21 1",
            Variant::GrandSlamNoCapture,
            "F"
        ),
        "1,0,0,0,0,0/0,0,1,0,0,0/25,21 2"
    );
}

#[test]
fn grandslam_capture_plays_the_grand_slam_and_captures_everything() {
    let position = at(GRAND_SLAM, Variant::GrandSlamCapture);
    assert_eq!(names(&position), "AF");
    assert_eq!(
        after(GRAND_SLAM, Variant::GrandSlamCapture, "F"),
        "1,0,0,0,0,0/0,0,0,0,0,0/25,22 2"
    );
    // Feeding is checked on sowing alone, only when their row is empty: sowing into it with a
    // lap is feeding even if the lap then captures.
    let text = "0,0,0,0,0,0/0,0,0,0,0,13/17,18 2";
    assert_eq!(names(&at(text, Variant::GrandSlamCapture)), "f");
}

#[test]
fn a_repeated_position_ends_the_game_through_the_history() {
    // One seed each, six pits apart: they chase each other round the board with no capture,
    // and after twelve plies the first position comes back.
    let start = at("0,0,1,0,0,0/0,0,1,0,0,0/23,23 1", Variant::Standard);
    let mut history = History::new(start);
    let mut plies = 0;
    while history.outcome().is_none() {
        let mut moves = <Awale as Game>::Moves::default();
        history.legal_moves(&mut moves);
        history.play(moves.as_slice()[0]);
        plies += 1;
        assert!(plies < 200, "no repetition");
        // Not a repetition until the current position really occurred before.
        let earlier = &history.positions()[..history.positions().len() - 1];
        let repeated = earlier.iter().any(|p| p == history.position());
        assert_eq!(history.is_repetition(), repeated);
    }
    let outcome = history.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert_eq!(plies, 12);
    assert_eq!(history.position(), history.root());
    assert_eq!(outcome.score, history.position().points());
    assert_eq!(outcome.score.iter().sum::<u32>(), 48);
    let mut moves = <Awale as Game>::Moves::default();
    history.legal_moves(&mut moves);
    assert!(moves.is_empty(), "no move once the game is over");
    assert!(history.play_text("A").is_err() && history.play_text("a").is_err());
    assert!(history.undo());
    assert!(!history.is_repetition());
    assert!(history.outcome().is_none());
}

#[test]
fn move_notation_round_trips_and_rejects_the_rest() {
    for pit in 0..PITS as u8 {
        let text = Awale::format_move(Move(pit));
        assert_eq!(Awale::parse_move(&text), Ok(Move(pit)));
    }
    assert_eq!(Awale::format_move(Move(6)), "a");
    for text in ["g", "G", "z", "Z"] {
        let error = Awale::parse_move(text).unwrap_err().to_string();
        assert!(
            error.contains(&format!("no pit {text}")) && error.contains("A..F"),
            "{error}"
        );
    }
    for text in ["", "AB", "1", "A ", "\u{e9}", "-"] {
        let error = Awale::parse_move(text).unwrap_err().to_string();
        assert!(
            error.contains("one pit letter") && error.contains(text),
            "{text}: {error}"
        );
    }
    // A pit of the player not to move parses but is not legal.
    assert!(
        Awale::start(Variant::Standard)
            .parse_legal_move("a")
            .is_err()
    );
}

#[test]
fn position_errors_name_what_and_where() {
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,4 1");
    assert!(
        error.contains("2 parts") && error.contains("expected 3"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4/4,4,4,4,4,4,4/0,0 1");
    assert!(
        error.contains("player 1's pits") && error.contains("5 numbers"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,4,4/0,0 1");
    assert!(
        error.contains("player 2's pits") && error.contains("7 numbers"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,4/0 1");
    assert!(
        error.contains("captured seeds") && error.contains("1 number,"),
        "{error}"
    );
    let error = parse_error("4,4,x,4,4,4/4,4,4,4,4,4/0,0 1");
    assert!(
        error.contains("player 1's pits A..F, entry 3") && error.contains("'x'"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,-4,4/0,0 1");
    assert!(error.contains("player 2's pits a..f, entry 5"), "{error}");
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,49/0,0 1");
    assert!(
        error.contains("entry 6") && error.contains("'49'"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,4/0,100 1");
    assert!(error.contains("captured seeds, entry 2"), "{error}");
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,,4/0,0 1");
    assert!(error.contains("entry 5") && error.contains("''"), "{error}");
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,+4/0,0 1");
    assert!(error.contains("entry 6"), "{error}");
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,4/0,1 1");
    assert!(
        error.contains("49 seeds") && error.contains("expected 48"),
        "{error}"
    );
    let error = parse_error("4,4,4,4,4,4/4,4,4,4,4,3/0,0 1");
    assert!(error.contains("47 seeds"), "{error}");
    for side in ["0", "3", "", "one"] {
        let error = parse_error(&format!("4,4,4,4,4,4/4,4,4,4,4,4/0,0 {side}"));
        assert!(
            error.contains("side to move") && error.contains(side),
            "{error}"
        );
    }
}

#[test]
fn pretty_puts_player_two_on_top_right_to_left() {
    let text = at("1,2,3,4,5,6/7,8,9,0,1,2/0,0 1", Variant::Standard).pretty();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "2 |  2  1  0  9  8  7 | captured 0");
    assert_eq!(lines[2], "1 |  1  2  3  4  5  6 | captured 0");
}

#[test]
fn illegal_moves_are_explained() {
    let position = Awale::start(Variant::Standard);
    let why = |text: &str| position.why_illegal(Awale::parse_move(text).unwrap());
    assert_eq!(why("a"), "pit a is player 2's; player 1 moves");
    let empty =
        Awale::parse_position("0,4,4,4,4,4/4,4,4,4,4,4/4,0", "1", Variant::Standard).unwrap();
    assert_eq!(empty.why_illegal(Move(0)), "pit A is empty");
}

#[test]
fn capture_counts_what_playing_the_move_takes() {
    // Every legal move along games picked by a fixed sequence, and the grand-slam position, in
    // every variant: the seeds `capture` reports are those that playing the move adds.
    let mut checked_captures = 0;
    for &variant in ALL {
        let mut starts = vec![Awale::start(variant), at(GRAND_SLAM, variant)];
        for (game, start) in starts.drain(..).enumerate() {
            let mut position = start;
            let mut pick = game * 7 + 3;
            for _ in 0..200 {
                let mut moves = <Awale as Game>::Moves::default();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let me = position.side_to_move().index();
                for &mv in moves.iter() {
                    let mut child = position;
                    child.play(mv);
                    let taken = child.captured()[me] - position.captured()[me];
                    assert_eq!(
                        position.capture(mv),
                        taken,
                        "{}",
                        position.format_position()
                    );
                    checked_captures += (taken > 0) as u32;
                }
                pick = (pick * 31 + 17) % 1009;
                position.play(moves.as_ref()[pick % moves.len()]);
            }
        }
    }
    assert!(
        checked_captures > 20,
        "the games captured: {checked_captures}"
    );
}

#[test]
fn capture_agrees_with_play_on_random_boards_with_laps_and_grand_slams() {
    // Random boards where seeds pile up in few pits (laps of 11, 22 and more) or spread thin
    // (grand slams): the legal moves are those the feeding rule gives when each pit is sown,
    // every legal move's `capture` equals what playing it takes, and `best_capture` is the
    // most of them.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(22);
    let (mut laps, mut captures, mut slams) = (0, 0, 0);
    for round in 0..20_000 {
        let variant = ALL[round % ALL.len()];
        let on_board = rng.random_range(1..=SEEDS as usize);
        let mut pits = [0u8; PITS];
        // Few pits take the seeds on some boards, all twelve on others.
        let spread = rng.random_range(1..=PITS);
        let first = rng.random_range(0..PITS);
        for _ in 0..on_board {
            pits[(first + rng.random_range(0..spread)) % PITS] += 1;
        }
        let rest = SEEDS as usize - on_board;
        let low = rest.saturating_sub(24).min(24);
        let one = rng.random_range(low..=rest.min(24)) as u8;
        let captured = [one, rest as u8 - one];
        let side = if rng.random_bool(0.5) {
            Player::One
        } else {
            Player::Two
        };
        let position = Awale::from_parts(pits, captured, side, variant);
        let mut moves = <Awale as Game>::Moves::default();
        position.legal_moves(&mut moves);
        assert_eq!(
            moves.iter().copied().collect::<Vec<_>>(),
            legal_by_sowing(&position),
            "{}",
            position.format_position()
        );
        assert_eq!(
            position.best_capture(),
            moves
                .iter()
                .map(|&mv| position.capture(mv))
                .max()
                .unwrap_or(0),
            "{}",
            position.format_position()
        );
        for &mv in moves.iter() {
            let mut child = position;
            child.play(mv);
            let taken = child.captured()[side.index()] - captured[side.index()];
            assert_eq!(
                position.capture(mv),
                taken,
                "{}",
                position.format_position()
            );
            laps += (pits[mv.0 as usize] >= 11) as u32;
            captures += (taken > 0) as u32;
            let their_row = &child.pits()[row(side.other())];
            slams += (taken == 0 && their_row.iter().all(|&s| s == 0)) as u32;
        }
    }
    assert!(
        laps > 1000 && captures > 1000 && slams > 10,
        "{laps} {captures} {slams}"
    );
}

/// The legal moves by the feeding rule read literally: sow each pit (with its captures), and keep
/// those that leave the opponent a seed, or all of them when none does. (The grand-slam-capture
/// variant checks feeding on the sowing alone, and only when the opponent's row is empty.)
fn legal_by_sowing(position: &Awale) -> Vec<Move> {
    if position.outcome().is_some() {
        return Vec::new();
    }
    let side = position.side_to_move();
    let theirs = row(side.other());
    let own: Vec<usize> = row(side).filter(|&p| position.pits()[p] > 0).collect();
    let feeding: Vec<usize> = own
        .iter()
        .copied()
        .filter(|&pit| {
            let mut pits = position.sow(pit).pits;
            if position.variant() == Variant::GrandSlamCapture {
                // The sowing alone, before its captures.
                pits = *position.pits();
                let seeds = pits[pit] as usize;
                pits[pit] = 0;
                for k in 1..=seeds {
                    pits[landing(pit, k as u8)] += 1;
                }
            }
            pits[theirs.clone()].iter().any(|&s| s > 0)
        })
        .collect();
    let chosen = if feeding.is_empty() { own } else { feeding };
    chosen.into_iter().map(|p| Move(p as u8)).collect()
}

#[test]
fn a_lap_skips_the_pit_it_started_from() {
    assert_eq!(landing(0, 1), 1);
    assert_eq!(landing(0, 11), 11);
    assert_eq!(landing(0, 12), 1);
    assert_eq!(landing(5, 7), 0);
    assert_eq!(landing(6, 22), 5);
    assert_eq!(landing(6, 23), 7);
}

#[test]
fn the_abapa_end_is_where_no_move_can_feed_an_empty_row() {
    let position = |board: &str, side: &str| {
        Awale::parse_position(board, side, Variant::GrandSlamNoCapture).unwrap()
    };
    // Player 1 has seeds, player 2 none, and no sowing reaches a..f.
    assert!(position("1,1,0,0,1,0/0,0,0,0,0,0/21,24", "1").ends_without_moving());
    // Pit E's two seeds reach pit a: a feeding move exists.
    assert!(!position("1,1,0,0,2,0/0,0,0,0,0,0/20,24", "1").ends_without_moving());
    // The opponent has seeds: no question of feeding.
    assert!(!position("1,1,0,0,1,0/0,0,0,0,0,1/20,24", "1").ends_without_moving());
    // Player 2 to move, player 1's row empty, f's one seed reaches A.
    assert!(!position("0,0,0,0,0,0/0,0,0,0,0,1/23,24", "2").ends_without_moving());
    assert!(position("0,0,0,0,0,0/0,0,0,0,1,0/23,24", "2").ends_without_moving());
    // A game already over (no seed to move) is not this case.
    assert!(!position("0,0,0,0,0,0/0,0,0,0,1,0/23,24", "1").ends_without_moving());
}
