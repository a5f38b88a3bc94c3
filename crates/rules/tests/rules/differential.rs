//! Differential tests: the fast rules core against the slow reference implementations in
//! `tests/rules/reference/`, on perft counts from the start and on random games with a fixed seed, from
//! the start and from random custom positions.

use crate::reference;

use std::collections::HashMap;

use pion_rules::avalam::{self, Avalam};
use pion_rules::awale::{self, Awale};
use pion_rules::game::{
    EndReason, Game, History, Player, count_moves_after_each_by_children, perft,
};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::avalam as ref_avalam;
use reference::awale as ref_awale;

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Parses a `<board> <side>` string the way the protocol hands it to `parse_position`.
fn reparse<G: Game>(text: &str, variant: G::Variant) -> G {
    let (board, side) = text.split_once(' ').expect("board and side");
    G::parse_position(board, side, variant)
        .unwrap_or_else(|e| panic!("{text} does not parse back: {e}"))
}

/// The checks every game shares: notation round trips of the position and of each legal move,
/// the hash against one recomputed from scratch, and the move count.
fn check_common<G: Game>(position: &G) -> Vec<String> {
    let text = position.format_position();
    let again: G = reparse(&text, position.variant());
    assert_eq!(format!("{again:?}"), format!("{position:?}"), "{text}");
    assert_eq!(
        again.hash(),
        position.hash(),
        "incremental hash differs from scratch: {text}"
    );
    assert_eq!(again.format_position(), text);
    let mut moves = G::Moves::default();
    position.legal_moves(&mut moves);
    assert_eq!(
        position.count_moves(),
        moves.as_ref().len(),
        "count_moves: {text}"
    );
    moves
        .as_ref()
        .iter()
        .map(|&mv| {
            let name = G::format_move(mv);
            assert_eq!(G::parse_move(&name), Ok(mv), "move {name} round trip");
            assert!(position.is_legal(mv));
            name
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Avalam

fn avalam_variant(own_colour: bool) -> avalam::Variant {
    if own_colour {
        avalam::Variant::OwnColour
    } else {
        avalam::Variant::Standard
    }
}

/// Compares the fast and the reference position in every observable way.
fn check_avalam(fast: &Avalam, slow: &ref_avalam::Avalam, rng: &mut Xoshiro256PlusPlus) {
    let text = fast.format_position();
    assert_eq!(text, slow.format(), "the two positions differ");
    let side = if slow.side == 0 {
        Player::One
    } else {
        Player::Two
    };
    assert_eq!(fast.side_to_move(), side);
    let fast_moves = check_common(fast);
    let slow_moves: Vec<String> = slow
        .moves()
        .into_iter()
        .map(ref_avalam::format_move)
        .collect();
    assert_eq!(fast_moves, slow_moves, "legal moves (in order) of {text}");
    assert_eq!(fast.points(), slow.points(), "points of {text}");
    let fast_outcome = fast.outcome().map(|o| {
        assert_eq!(o.reason, EndReason::NoMoves);
        o.score
    });
    assert_eq!(fast_outcome, slow.outcome(), "outcome of {text}");
    // Random from/to pairs, mostly illegal: is_legal must agree with the reference on them too.
    for _ in 0..8 {
        let from = (rng.random_range(0..9usize), rng.random_range(0..9usize));
        let to = (
            (from.0 + rng.random_range(0..3usize))
                .saturating_sub(1)
                .min(8),
            (from.1 + rng.random_range(0..3usize))
                .saturating_sub(1)
                .min(8),
        );
        let name = ref_avalam::format_move((from, to));
        let mv = Avalam::parse_move(&name).expect("a cell pair parses");
        assert_eq!(fast.is_legal(mv), slow.legal(from, to), "{name} in {text}");
    }
    assert_eq!(
        fast.count_moves_after_each(),
        count_moves_after_each_by_children(fast),
        "closed-form perft 2 of {text}"
    );
}

/// A board with any layout of towers 1..5 high, at a random density.
fn random_avalam(rng: &mut Xoshiro256PlusPlus, own_colour: bool) -> ref_avalam::Avalam {
    let mut board = ref_avalam::Avalam::empty(own_colour);
    let density = rng.random_range(0.05..1.0f64);
    let tall = rng.random_range(0.0..1.0f64);
    for row in 0..9 {
        for col in 0..9 {
            if rng.random_bool(density) {
                let height = if rng.random_bool(tall) {
                    rng.random_range(1..=5u8)
                } else {
                    1
                };
                board.put(col, row, height, rng.random_range(0..2u8));
            }
        }
    }
    board.side = rng.random_range(0..2u8);
    board
}

/// Plays random moves on both implementations, checking at every ply.
fn avalam_playout(
    mut slow: ref_avalam::Avalam,
    rng: &mut Xoshiro256PlusPlus,
) -> (usize, Option<[u32; 2]>) {
    let mut fast: Avalam = reparse(&slow.format(), avalam_variant(slow.own_colour));
    let mut plies = 0;
    loop {
        check_avalam(&fast, &slow, rng);
        let moves = slow.moves();
        if moves.is_empty() {
            return (plies, slow.outcome());
        }
        let m = moves[rng.random_range(0..moves.len())];
        let mv = Avalam::parse_move(&ref_avalam::format_move(m)).unwrap();
        slow.play(m);
        fast.play(mv);
        plies += 1;
    }
}

#[test]
fn avalam_perft_matches_reference() {
    for own_colour in [false, true] {
        let fast = Avalam::start(avalam_variant(own_colour));
        let slow = ref_avalam::Avalam::start(own_colour);
        assert_eq!(fast.format_position(), slow.format());
        for depth in 1..=3 {
            assert_eq!(
                perft(&fast, depth),
                slow.perft(depth),
                "own_colour {own_colour} depth {depth}"
            );
        }
    }
    // Depth 4 is too slow for the reference; the closed form and plain counting must agree.
    let start = Avalam::start(avalam::Variant::Standard);
    let mut moves = <Avalam as Game>::Moves::default();
    start.legal_moves(&mut moves);
    let by_children: u64 = moves
        .as_ref()
        .iter()
        .map(|&mv| {
            let mut child = start;
            child.play(mv);
            let mut replies = <Avalam as Game>::Moves::default();
            child.legal_moves(&mut replies);
            replies
                .as_ref()
                .iter()
                .map(|&reply| {
                    let mut grandchild = child;
                    grandchild.play(reply);
                    count_moves_after_each_by_children(&grandchild)
                })
                .sum::<u64>()
        })
        .sum();
    assert_eq!(perft(&start, 4), by_children);
}

#[test]
fn avalam_random_games_match_reference() {
    let mut rng = rng(0xA7A1);
    for own_colour in [false, true] {
        let mut finished = 0;
        let mut draws = 0;
        let mut plies = 0;
        for _ in 0..400 {
            let (n, outcome) = avalam_playout(ref_avalam::Avalam::start(own_colour), &mut rng);
            plies += n;
            let score = outcome.expect("a playout ends with an outcome");
            finished += 1;
            draws += usize::from(score[0] == score[1]);
        }
        assert_eq!(finished, 400);
        assert!(
            plies > 400 * 20,
            "games are long enough to exercise the rules: {plies}"
        );
        assert!(draws < 400, "not every game is a draw");
    }
}

#[test]
fn avalam_random_custom_boards_match_reference() {
    let mut rng = rng(0xB0A4D);
    for i in 0..1500 {
        let own_colour = i % 2 == 1;
        let board = random_avalam(&mut rng, own_colour);
        avalam_playout(board, &mut rng);
    }
}

#[test]
fn avalam_closed_form_perft_2_matches_children_on_random_positions() {
    let mut rng = rng(0xC105ED);
    let mut both_paths = [0usize; 2];
    for _ in 0..4000 {
        let board = random_avalam(&mut rng, false);
        let fast: Avalam = reparse(&board.format(), avalam::Variant::Standard);
        let expected = count_moves_after_each_by_children(&fast);
        assert_eq!(
            fast.count_moves_after_each(),
            expected,
            "{}",
            board.format()
        );
        assert_eq!(perft(&fast, 2), expected);
        both_paths[usize::from(fast.count_moves() > 30)] += 1;
        if rng.random_bool(0.02) {
            assert_eq!(expected, board.perft(2), "{}", board.format());
            // The reference is slow: depth 3 only where the tree is small.
            if fast.count_moves() < 100 {
                assert_eq!(perft(&fast, 3), board.perft(3), "{}", board.format());
            }
        }
    }
    assert!(both_paths.iter().all(|&n| n > 100), "{both_paths:?}");
}

#[test]
fn avalam_closed_form_perft_2_counts_a_lone_tower() {
    // a1 has no neighbour at all, among more than 15 pairs: the closed form must not count
    // partners below zero for it (a debug build panicked on 'pion perft --depth 5').
    let board = "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./y....ry.. 1";
    let (cells, side) = board.split_once(' ').unwrap();
    let fast = Avalam::parse_position(cells, side, avalam::Variant::Standard).unwrap();
    assert_eq!(
        fast.count_moves_after_each(),
        count_moves_after_each_by_children(&fast)
    );
}

// ---------------------------------------------------------------------------------------------
// Awale

fn awale_rule(variant: awale::Variant) -> ref_awale::GrandSlam {
    match variant {
        awale::Variant::Standard => ref_awale::GrandSlam::Forbidden,
        awale::Variant::GrandSlamNoCapture => ref_awale::GrandSlam::NoCapture,
        awale::Variant::GrandSlamCapture => ref_awale::GrandSlam::Capture,
    }
}

const AWALE_VARIANTS: &[awale::Variant] = <Awale as Game>::VARIANTS;

fn reason(end: ref_awale::End) -> EndReason {
    match end {
        ref_awale::End::Captures => EndReason::Captures,
        ref_awale::End::NoMoves => EndReason::NoMoves,
        ref_awale::End::Repetition => EndReason::Repetition,
    }
}

fn check_awale(fast: &History<Awale>, slow: &ref_awale::Game) {
    let position = fast.position();
    let text = position.format_position();
    assert_eq!(text, slow.position.format(), "the two positions differ");
    let by_rules = check_common(position);
    let slow_by_rules: Vec<String> = slow
        .position
        .moves()
        .into_iter()
        .map(ref_awale::format_move)
        .collect();
    assert_eq!(by_rules, slow_by_rules, "legal moves of {text}");
    let mut moves = <Awale as Game>::Moves::default();
    fast.legal_moves(&mut moves);
    let in_game: Vec<String> = moves
        .as_ref()
        .iter()
        .map(|&m| Awale::format_move(m))
        .collect();
    let slow_in_game: Vec<String> = slow
        .moves()
        .into_iter()
        .map(ref_awale::format_move)
        .collect();
    assert_eq!(in_game, slow_in_game, "legal moves in the game at {text}");
    assert_eq!(
        position.points(),
        slow.position.points(),
        "points of {text}"
    );
    let fast_outcome = fast.outcome().map(|o| (o.score, o.reason));
    let slow_outcome = slow.outcome().map(|(score, end)| (score, reason(end)));
    assert_eq!(fast_outcome, slow_outcome, "outcome of {text}");
    let by_rules_outcome = position.outcome().map(|o| (o.score, o.reason));
    let slow_by_rules_outcome = slow.position.outcome().map(|(s, e)| (s, reason(e)));
    assert_eq!(
        by_rules_outcome, slow_by_rules_outcome,
        "outcome by the rules of {text}"
    );
    assert_eq!(
        perft(position, 2),
        slow.position.perft(2),
        "perft 2 of {text}"
    );
}

/// Plays random moves on both, through the history (so repetitions end the game).
fn awale_playout(
    start: ref_awale::Awale,
    variant: awale::Variant,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<EndReason> {
    let mut fast = History::new(reparse::<Awale>(&start.format(), variant));
    let mut slow = ref_awale::Game::new(start);
    for _ in 0..600 {
        check_awale(&fast, &slow);
        let moves = slow.moves();
        if moves.is_empty() {
            return slow.outcome().map(|(_, end)| reason(end));
        }
        let pit = moves[rng.random_range(0..moves.len())];
        fast.play_text(&ref_awale::format_move(pit))
            .expect("a legal move plays");
        slow.play(pit);
    }
    None
}

/// Random seeds on random pits (some rows left empty), random captures, random side.
fn random_awale(rng: &mut Xoshiro256PlusPlus, rule: ref_awale::GrandSlam) -> ref_awale::Awale {
    let taken = rng.random_range(0..=46u32);
    let first = rng.random_range(0..=taken);
    let mut pits = [0u32; 12];
    let allowed: Vec<usize> = if rng.random_bool(0.3) {
        (0..12).filter(|_| rng.random_bool(0.4)).collect()
    } else {
        (0..12).collect()
    };
    let allowed = if allowed.is_empty() {
        vec![rng.random_range(0..12)]
    } else {
        allowed
    };
    for _ in 0..48 - taken {
        pits[allowed[rng.random_range(0..allowed.len())]] += 1;
    }
    ref_awale::Awale {
        pits,
        captured: [first, taken - first],
        side: rng.random_range(0..2),
        rule,
    }
}

#[test]
fn awale_perft_matches_reference() {
    for &variant in AWALE_VARIANTS {
        let fast = Awale::start(variant);
        let slow = ref_awale::Awale::start(awale_rule(variant));
        for depth in 1..=8 {
            assert_eq!(
                perft(&fast, depth),
                slow.perft(depth),
                "{variant:?} depth {depth}"
            );
        }
    }
}

#[test]
fn awale_random_games_match_reference() {
    let mut rng = rng(0xA3A1E);
    for &variant in AWALE_VARIANTS {
        let mut reasons = HashMap::new();
        for _ in 0..1000 {
            let start = ref_awale::Awale::start(awale_rule(variant));
            let end = awale_playout(start, variant, &mut rng);
            *reasons.entry(format!("{end:?}")).or_insert(0) += 1;
        }
        // Random games end in all three ways; a rule that never fires is not being tested.
        for end in ["Some(Captures)", "Some(NoMoves)", "Some(Repetition)"] {
            assert!(reasons.contains_key(end), "{variant:?}: {reasons:?}");
        }
    }
}

#[test]
fn awale_random_positions_match_reference() {
    let mut rng = rng(0x5EED5);
    for i in 0..3000 {
        let variant = AWALE_VARIANTS[i % AWALE_VARIANTS.len()];
        let start = random_awale(&mut rng, awale_rule(variant));
        awale_playout(start, variant, &mut rng);
    }
}

// ---------------------------------------------------------------------------------------------
// Hashing

/// Walks the tree `depth` plies deep and checks that every position reached by two move orders
/// has one hash, and that different positions have different hashes. Returns the number of
/// transpositions met.
fn transpositions<G: Game>(root: &G, depth: u32, seen: &mut HashMap<String, u64>) -> usize {
    let text = root.format_position();
    let mut found = 0;
    match seen.get(&text) {
        Some(&hash) => {
            assert_eq!(
                hash,
                root.hash(),
                "transposed move orders give two hashes: {text}"
            );
            found += 1;
        }
        None => {
            seen.insert(text, root.hash());
        }
    }
    if depth > 0 {
        let mut moves = G::Moves::default();
        root.legal_moves(&mut moves);
        for &mv in moves.as_ref() {
            let mut child = *root;
            child.play(mv);
            found += transpositions(&child, depth - 1, seen);
        }
    }
    found
}

fn assert_hashes_distinct(seen: &HashMap<String, u64>) {
    let mut hashes: Vec<u64> = seen.values().copied().collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(
        hashes.len(),
        seen.len(),
        "two different positions share a hash"
    );
}

#[test]
fn avalam_transposed_move_orders_give_one_hash() {
    let mut rng = rng(0x7A05);
    let mut found = 0;
    let mut trees = 0;
    for own_colour in [false, true] {
        while trees < 12 * (1 + usize::from(own_colour)) {
            // Walk to a position with few moves, so that a 3-ply tree stays small.
            let mut slow = ref_avalam::Avalam::start(own_colour);
            let mut fast = Avalam::start(avalam_variant(own_colour));
            while fast.count_moves() > 40 {
                let moves = slow.moves();
                let m = moves[rng.random_range(0..moves.len())];
                slow.play(m);
                fast.play(Avalam::parse_move(&ref_avalam::format_move(m)).unwrap());
            }
            let mut seen = HashMap::new();
            found += transpositions(&fast, 3, &mut seen);
            assert_hashes_distinct(&seen);
            trees += 1;
        }
    }
    assert!(found > 1000, "few transpositions met: {found}");
}

#[test]
fn awale_transposed_move_orders_give_one_hash() {
    let mut rng = rng(0x7A06);
    let mut found = 0;
    for &variant in AWALE_VARIANTS {
        let mut seen = HashMap::new();
        found += transpositions(&Awale::start(variant), 6, &mut seen);
        assert_hashes_distinct(&seen);
        for _ in 0..20 {
            let start = random_awale(&mut rng, awale_rule(variant));
            let mut seen = HashMap::new();
            found += transpositions(&reparse::<Awale>(&start.format(), variant), 5, &mut seen);
            assert_hashes_distinct(&seen);
        }
    }
    assert!(found > 100, "few transpositions met: {found}");
}

#[test]
fn hashes_depend_on_the_side_to_move_and_the_variant_does_not_leak_into_them() {
    let one = Avalam::start(avalam::Variant::Standard);
    let two: Avalam = reparse(
        &one.format_position().replace(" 1", " 2"),
        avalam::Variant::Standard,
    );
    assert_ne!(one.hash(), two.hash());
    let own: Avalam = reparse(&one.format_position(), avalam::Variant::OwnColour);
    assert_eq!(own.format_position(), one.format_position());
    let a = Awale::start(awale::Variant::Standard);
    let b: Awale = reparse("4,4,4,4,4,4/4,4,4,4,4,4/0,0 2", awale::Variant::Standard);
    assert_ne!(a.hash(), b.hash());
}
