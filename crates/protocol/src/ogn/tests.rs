use super::*;

fn tags() -> OgnTags {
    OgnTags {
        event: "pion referee match".into(),
        site: "?".into(),
        date: "2026.12.06".into(),
        round: "1".into(),
        south: "pion".into(),
        north: "aalina \"2\"".into(),
        extra: vec![("Termination".into(), "normal".into())],
    }
}

fn abapa(board: &str, side: &str) -> Awale {
    Awale::parse_position(board, side, Variant::GrandSlamNoCapture).unwrap()
}

#[test]
fn a_game_is_written_as_auale_writes_a_match() {
    // South's F takes b and a (2 and 2): F+4.
    let start = abapa("0,0,0,0,0,2/1,1,4,4,4,4/14,14", "1");
    let moves: Vec<String> = ["F", "c", "A"].map(String::from).to_vec();
    let comments = vec![Some("+0.30/7 {x}".to_string()), None, None];
    let text = write_ogn(
        &tags(),
        &start,
        Variant::GrandSlamNoCapture,
        &moves,
        &comments,
    )
    .unwrap();
    assert_eq!(
        text,
        "[Variant \"Oware Abapa\"]\n[Event \"pion referee match\"]\n[Site \"?\"]\n\
         [Date \"2026.12.06\"]\n[Round \"1\"]\n[South \"pion\"]\n[North \"aalina \\\"2\\\"\"]\n\
         [Result \"*\"]\n[FEN \"0-0-0-0-0-2-1-1-4-4-4-4-14-14-S\"]\n[Termination \"normal\"]\n\
         \n1. F+4 { +0.30/7 x } c 2. A\n"
    );
    let read = read_ogn(&text).unwrap();
    assert_eq!(read.moves, moves);
    assert_eq!(read.start, start);
    assert_eq!(read.comments[0].as_deref(), Some("+0.30/7 x"));
    assert_eq!(read.tag("North"), Some("aalina \"2\""));
    assert_eq!(read.tag("Result"), Some("*"));
}

/// A random game under abapa from `start`, `seed` choosing the moves.
fn random_game(start: Awale, seed: u64) -> Vec<String> {
    let mut state = seed;
    let mut history = History::new(start);
    let mut moves = Vec::new();
    while history.outcome().is_none() && moves.len() < 300 {
        let mut legal = <Awale as Game>::Moves::default();
        history.legal_moves(&mut legal);
        let legal = legal.as_slice();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(state >> 33) as usize % legal.len()];
        history.play(mv);
        moves.push(Awale::format_move(mv));
    }
    moves
}

#[test]
fn games_written_and_read_back_are_the_same_games() {
    let starts = [
        Awale::start(Variant::GrandSlamNoCapture),
        abapa("3,0,5,1,0,2/1,1,4,4,4,4/5,14", "2"),
    ];
    let mut ended_early = 0;
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..60 {
            let moves = random_game(*start, seed * 7 + i as u64);
            let text = write_ogn(&tags(), start, Variant::GrandSlamNoCapture, &moves, &[]).unwrap();
            let read = read_ogn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read.start, *start);
            // Where pion's rules play one more move after "cannot feed", the OGN game ends
            // before it, as Aualé ends it; everything before is the same game.
            let cut = read.moves.len();
            assert!(cut == moves.len() || cut + 1 == moves.len(), "{text}");
            ended_early += usize::from(cut < moves.len());
            assert_eq!(read.moves[..], moves[..cut]);
            assert!(text.lines().all(|l| l.len() < 80), "{text}");
            let result = read.tag("Result").unwrap();
            assert!(result == "*" || result.split('-').count() == 2, "{result}");
        }
    }
    assert!(
        ended_early > 0,
        "some random game ends where its mover cannot feed"
    );
}

#[test]
fn bad_files_get_one_error_naming_the_fault() {
    let cases = [
        (
            "[Variant \"Oware Abapa\"]\n\n1. a",
            "move 1 (a): illegal move a: pit a is player 2's; player 1 moves",
        ),
        (
            "[Variant \"Oware Abapa\"]\n\n1. C C",
            "move 2 (C): illegal move C: pit C is player 1's; player 2 moves",
        ),
        ("hello", "not an OGN game"),
        ("[FEN \"4-4-x\"]\n", "FEN tag: bad Oware position '4-4-x'"),
        (
            "[FEN \"4-4-4-4-4-4-4-4-4-4-4-5-0-0-S\"]\n",
            "FEN tag: bad Awale position: the pits and captures hold 49 seeds",
        ),
        (
            "[FEN \"1-1-0-0-1-0-0-0-0-0-0-0-21-24-S\"]\n\n1. A",
            "move 1 (A): the game is over: the side to move cannot feed its opponent",
        ),
    ];
    for (text, start) in cases {
        let error = read_ogn(text).unwrap_err().0;
        assert!(error.starts_with(start), "{text}: {error}");
        assert_eq!(error.lines().count(), 1);
    }
}

#[test]
fn comments_variations_numbers_and_captures_are_not_moves() {
    let text = "[Variant \"Oware Abapa\"]\n[Event \"a \\\\ b\"]\n\n1. C { a bad defence } b+2 (1... e f)\n2. E *";
    let read = read_ogn(text).unwrap();
    assert_eq!(read.moves, ["C", "b", "E"]);
    assert_eq!(read.comments[0].as_deref(), Some("a bad defence"));
    assert_eq!(read.tag("Event"), Some("a \\ b"));
}

#[test]
fn a_grand_slam_of_other_rules_is_refused() {
    // Under grandslam-capture South's F takes both of North's seeds; under abapa it takes none.
    let start = Awale::parse_position(
        "0,0,0,0,0,2/1,1,0,0,0,0/20,24",
        "1",
        Variant::GrandSlamCapture,
    )
    .unwrap();
    let error = write_ogn(
        &tags(),
        &start,
        Variant::GrandSlamCapture,
        &["F".into()],
        &[],
    )
    .unwrap_err()
    .0;
    assert!(error.starts_with("move 1 (F): a grand slam"), "{error}");
}
