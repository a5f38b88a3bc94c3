//! Unit tests of the Avalam rules and notation: the own-colour variant's cases, scoring, the end
//! of the game, and every parse error.

use super::notation::parse_cell;
use super::*;
use crate::game::perft;

/// The board of the own-colour cases: yellow 2 on c5, red 3 on c3, red 2 on d5, yellow 3 on
/// d4, red 1 on e4, yellow 1 on e3; yellow to move.
fn own_colour_board(variant: Variant) -> Avalam {
    let mut board = Avalam::empty(variant);
    for (name, height, top) in [
        ("c5", 2, Player::One),
        ("c3", 3, Player::Two),
        ("d5", 2, Player::Two),
        ("d4", 3, Player::One),
        ("e4", 1, Player::Two),
        ("e3", 1, Player::One),
    ] {
        board.set_tower(parse_cell(name).unwrap(), height, top);
    }
    board
}

fn mv(text: &str) -> Move {
    Avalam::parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn names(position: &Avalam) -> Vec<String> {
    let mut moves = <Avalam as Game>::Moves::default();
    position.legal_moves(&mut moves);
    moves.iter().map(|&m| Avalam::format_move(m)).collect()
}

fn parse_error(board: &str, side: &str) -> String {
    match Avalam::parse_position(board, side, Variant::Standard) {
        Ok(p) => panic!("{board} {side} parsed as {}", p.format_position()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_own_colour_board_is_the_one_described() {
    let board = own_colour_board(Variant::OwnColour);
    assert_eq!(
        board.format_position(),
        "........./........./........./........./..y2r2...../...y3r..../..r3.y..../........./......... 1"
    );
}

#[test]
fn own_colour_off_board_cells_do_not_parse() {
    for text in ["c5c0", "c0c5", "j5c5", "c5j5", "c5z9", "@5c5"] {
        let error = Avalam::parse_move(text).unwrap_err().to_string();
        assert!(error.starts_with("no cell"), "{text}: {error}");
    }
    // A 3-character row is not a cell either: the move is the wrong length.
    let error = Avalam::parse_move("c5c10").unwrap_err().to_string();
    assert!(error.contains("two cells"), "{error}");
    // Move values that no string produces (padding bits, past the board) are simply illegal.
    let board = own_colour_board(Variant::OwnColour);
    for (from, to) in [
        (9u8, 19u8),
        (cell(2, 4) as u8, 9),
        (200, 201),
        (cell(2, 4) as u8, 127),
    ] {
        assert!(!board.is_legal(Move { from, to }), "{from} {to}");
    }
}

#[test]
fn own_colour_illegal_moves() {
    let board = own_colour_board(Variant::OwnColour);
    for (text, why) in [
        ("c5c5", "the same cell twice"),
        ("d4d4", "the same cell twice"),
        ("d3d4", "an empty source"),
        ("c5b5", "an empty destination"),
        ("e4e3", "a stack that is not yours"),
        ("c3d4", "a stack that is not yours"),
        ("c5e4", "a destination that is not adjacent"),
        ("e3d4", "a destination of your own colour"),
        ("c5d4", "a destination of your own colour"),
        ("d4c3", "a result taller than 5"),
    ] {
        assert!(!board.is_legal(mv(text)), "{text} is illegal: {why}");
        let error = board.parse_legal_move(text).unwrap_err().to_string();
        assert!(error.contains(text), "{error}");
    }
    assert!(board.is_legal(mv("d4d5")), "d4 onto d5 is legal");
}

#[test]
fn own_colour_legal_moves_are_exactly_these_in_cell_order() {
    let board = own_colour_board(Variant::OwnColour);
    assert_eq!(names(&board), ["e3e4", "d4e4", "d4d5", "c5d5"]);
    assert_eq!(board.count_moves(), 4);
    let mut after = board;
    after.play(mv("d4d5"));
    assert_eq!(after.tower(parse_cell("d5").unwrap()), (5, Player::One));
    assert_eq!(after.tower(parse_cell("d4").unwrap()).0, 0);
    assert_eq!(after.side_to_move(), Player::Two);
    // Red's turn: only red stacks onto yellow ones; the 5-high tower is out of reach.
    assert_eq!(names(&after), ["e4e3"]);
}

#[test]
fn the_standard_rules_allow_any_colour_on_the_same_board() {
    let board = own_colour_board(Variant::Standard);
    for text in ["e4e3", "e3d4", "e3e4", "d4d5", "c5d4", "d5d4", "d5c5"] {
        assert!(board.is_legal(mv(text)), "{text}");
    }
    for text in ["c5c5", "d3d4", "c5b5", "c5e4", "d4c3", "c3d4"] {
        assert!(
            Avalam::parse_move(text).map_or(true, |m| !board.is_legal(m)),
            "{text}"
        );
    }
    assert_eq!(names(&board).len(), board.count_moves());
}

#[test]
fn start_position_moves_are_sorted_and_symmetric() {
    let start = Avalam::start(Variant::Standard);
    let mut moves = <Avalam as Game>::Moves::default();
    start.legal_moves(&mut moves);
    assert_eq!(moves.len(), 292);
    let keys: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    for &(from, to) in &keys {
        assert!(
            keys.contains(&(to, from)),
            "the standard rules are symmetric"
        );
    }
    let own = Avalam::start(Variant::OwnColour);
    assert_eq!(own.count_moves(), names(&own).len());
    assert!(own.count_moves() < 292, "own-colour moves are a subset");
}

#[test]
fn an_emptied_cell_stays_empty() {
    let mut position = Avalam::start(Variant::Standard);
    position.play(mv("e4e3"));
    let e4 = parse_cell("e4").unwrap() as u8;
    let mut moves = <Avalam as Game>::Moves::default();
    position.legal_moves(&mut moves);
    assert!(moves.iter().all(|m| m.from != e4 && m.to != e4));
    assert_eq!(position.tower(e4 as u32).0, 0);
    assert_eq!(position.tower(parse_cell("e3").unwrap()), (2, Player::Two));
}

#[test]
fn the_game_ends_when_nobody_can_move_and_every_tower_is_a_point() {
    // A 5-high yellow tower, and two red singles apart from everything: no move for anyone.
    let position = Avalam::parse_position(
        "y5......../........./..r....../........./........./........./........./........./r........",
        "1",
        Variant::Standard,
    )
    .unwrap();
    let outcome = position.outcome().expect("no move exists");
    assert_eq!(outcome.reason, EndReason::NoMoves);
    assert_eq!(outcome.score, [1, 2]);
    assert_eq!(outcome.winner(), Some(Player::Two));
    assert_eq!(perft(&position, 3), 1, "a finished game is one leaf");
    // Two 3-high towers side by side cannot merge (6 > 5): a draw at 1-1.
    let draw = Avalam::parse_position(
        "y3r3......./........./........./........./........./........./........./........./.........",
        "2",
        Variant::Standard,
    )
    .unwrap();
    assert_eq!(
        draw.outcome().map(|o| (o.score, o.winner())),
        Some(([1, 1], None))
    );
}

#[test]
fn a_game_that_runs_out_of_moves_for_one_side_runs_out_for_both() {
    // Own-colour moves pair a yellow and a red tower, and each can go onto the other: when the
    // side to move has none, neither has any, so the game never needs a pass.
    let mut board = Avalam::parse_position(
        "yr......./........./........./........./........./........./........./........./.........",
        "1",
        Variant::OwnColour,
    )
    .unwrap();
    assert_eq!(names(&board), ["a9b9"]);
    board.set_side(Player::Two);
    assert_eq!(names(&board), ["b9a9"]);
    board.play(mv("b9a9"));
    assert!(board.outcome().is_some());
    assert_eq!(board.outcome().unwrap().score, [0, 1]);
}

#[test]
fn closed_form_perft_2_agrees_with_playing_each_move() {
    let mut position = Avalam::start(Variant::Standard);
    // Down a game to its end, through the "15 pairs or fewer" fallback.
    for ply in 0.. {
        assert_eq!(
            position.count_moves_after_each(),
            count_moves_after_each_by_children(&position),
            "{}",
            position.format_position()
        );
        let mut moves = <Avalam as Game>::Moves::default();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            assert!(ply > 20);
            break;
        }
        position.play(moves.as_slice()[(ply * 37) % moves.len()]);
    }
    assert_eq!(perft(&Avalam::start(Variant::Standard), 2), 81_488);
}

#[test]
fn position_errors_name_what_and_where() {
    let start = START;
    let error = parse_error("..yr...../.yryr....", "1");
    assert!(
        error.contains("2 rows") && error.contains("expected 9"),
        "{error}"
    );
    let error = parse_error(&start.replacen("....ryry.", "....ryry", 1), "1");
    assert!(error.contains("row 2 has 8 cells"), "{error}");
    let error = parse_error(&start.replacen("....ryry.", "....ryry..", 1), "1");
    assert!(error.contains("row 2 has more than 9 cells"), "{error}");
    let error = parse_error(&start.replacen("..yr.....", "..yx.....", 1), "1");
    assert!(
        error.contains("row 9, column d") && error.contains("'x'"),
        "{error}"
    );
    let error = parse_error(&start.replacen(".....ry..", "y6....ry..", 1), "1");
    assert!(
        error.contains("row 1, column a") && error.contains("height 6"),
        "{error}"
    );
    let error = parse_error(&start.replacen(".....ry..", "....r9ry..", 1), "1");
    assert!(
        error.contains("row 1, column e") && error.contains("height 9"),
        "{error}"
    );
    let error = parse_error(&start.replacen(".....ry..", ".2....ry..", 1), "1");
    assert!(
        error.contains("row 1, column a") && error.contains("empty cell"),
        "{error}"
    );
    let error = parse_error(&start.replacen(".....ry..", "y1....ry..", 1), "1");
    assert!(error.contains("height 1"), "{error}");
    let error = parse_error(&start.replacen(".....ry..", ".....ry.\u{e9}", 1), "1");
    assert!(error.contains("row 1, column i"), "{error}");
    for side in ["0", "3", "", "12", "y"] {
        let error = parse_error(start, side);
        assert!(
            error.contains("side to move") && error.contains(side),
            "{error}"
        );
    }
}

#[test]
fn move_errors_name_what_and_where() {
    for text in ["", "e4", "e4e", "e4e5e6", "e4-e5", "\u{e9}4e5"] {
        let error = Avalam::parse_move(text).unwrap_err().to_string();
        assert!(
            error.contains("two cells") && error.contains(text),
            "{text}: {error}"
        );
    }
    let error = Avalam::parse_move("e4k5").unwrap_err().to_string();
    assert!(error.contains("k5") && error.contains("columns"), "{error}");
    let error = Avalam::parse_move("e0e5").unwrap_err().to_string();
    assert!(error.contains("e0") && error.contains("rows"), "{error}");
    let error = Avalam::parse_move("E4E5").unwrap_err().to_string();
    assert!(error.contains("E4"), "{error}");
}

#[test]
fn every_cell_name_round_trips() {
    for row in 0..9 {
        for col in 0..9 {
            let sq = cell(col, row);
            assert_eq!(parse_cell(&notation::cell_name(sq)), Ok(sq));
        }
    }
    assert_eq!(notation::cell_name(cell(4, 3)), "e4");
}

#[test]
fn pretty_shows_every_row_and_the_columns() {
    let text = Avalam::start(Variant::Standard).pretty();
    assert_eq!(text.lines().count(), 10);
    assert!(text.starts_with("9 |  .  . y1 r1  ."), "{text}");
    assert!(text.ends_with("a  b  c  d  e  f  g  h  i"), "{text}");
}

#[test]
fn illegal_moves_are_explained() {
    let position = Avalam::start(Variant::Standard);
    let why = |p: &Avalam, text: &str| p.why_illegal(Avalam::parse_move(text).unwrap());
    assert_eq!(why(&position, "a1b1"), "a1 is empty");
    assert_eq!(why(&position, "a5a6"), "a6 is empty");
    assert_eq!(why(&position, "a5a5"), "a5 is both source and destination");
    assert_eq!(why(&position, "a5c5"), "c5 is not next to a5");
    let tall = "........./........./........./........./........./........./........./........./y3r3.......";
    let tall = Avalam::parse_position(tall, "1", Variant::Standard).unwrap();
    assert_eq!(why(&tall, "a1b1"), "the tower would be 6 high (at most 5)");
    let own = Avalam::parse_position(
        tall.format_position().split(' ').next().unwrap(),
        "1",
        Variant::OwnColour,
    )
    .unwrap();
    assert_eq!(why(&own, "b1a1"), "the tower would be 6 high (at most 5)");
}

#[test]
fn tiebreak5_moves_as_standard_and_decides_level_points_by_towers_five_high() {
    assert_eq!(Avalam::parse_variant("tiebreak5"), Some(Variant::TieBreak5));
    assert_eq!(Avalam::variant_name(Variant::TieBreak5), "tiebreak5");
    let (standard, tiebreak) = (
        Avalam::start(Variant::Standard),
        Avalam::start(Variant::TieBreak5),
    );
    assert_eq!(names(&standard), names(&tiebreak));
    for depth in 1..=3 {
        assert_eq!(perft(&standard, depth), perft(&tiebreak, depth), "{depth}");
    }
    assert_eq!(standard.tiebreak(), None);
    assert_eq!(tiebreak.tiebreak(), Some([0, 0]));
    // One tower each at the end; yellow's is five high.
    let board = "........./........./........./........./........./........./........./........./y4r..r....";
    for (variant, winner) in [
        (Variant::Standard, None),
        (Variant::TieBreak5, Some(Player::One)),
        (Variant::OwnColour, None),
    ] {
        let mut pos = Avalam::parse_position(board, "1", variant).unwrap();
        pos.play(mv("a1b1"));
        let outcome = pos.outcome().expect("no move is left");
        assert_eq!(outcome.score, [1, 1]);
        assert_eq!(outcome.winner(), winner, "{variant:?}");
        assert_eq!(outcome.decided_by_tiebreak(), winner.is_some());
    }
    // Red five high as well: level again, a draw; points still come first.
    let mut level = Avalam::parse_position(board, "1", Variant::TieBreak5).unwrap();
    level.set_tower(parse_cell("i9").unwrap(), 5, Player::Two);
    level.set_tower(parse_cell("g9").unwrap(), 1, Player::One);
    level.play(mv("a1b1"));
    let outcome = level.outcome().unwrap();
    assert_eq!((outcome.score, outcome.tiebreak), ([2, 2], Some([1, 1])));
    assert_eq!(outcome.winner(), None);
    let mut ahead = Avalam::parse_position(board, "1", Variant::TieBreak5).unwrap();
    ahead.set_tower(parse_cell("i9").unwrap(), 1, Player::Two);
    ahead.play(mv("a1b1"));
    assert_eq!(ahead.outcome().unwrap().winner(), Some(Player::Two));
}
