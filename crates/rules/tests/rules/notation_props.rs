//! Property tests of the notation parsers of both games: random strings and mutated valid
//! strings never make a parser panic, and whatever parses round-trips through the formatter.

use pion_rules::avalam::{self, Avalam};
use pion_rules::awale::{self, Awale};
use pion_rules::game::Game;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Splits `<board> <side>` at the last space; a string without one is all board.
fn split(text: &str) -> (&str, &str) {
    text.rsplit_once(' ').unwrap_or((text, ""))
}

/// An error is one printable line that is not empty.
fn check_error(error: &str) {
    assert!(
        !error.is_empty() && !error.chars().any(char::is_control) && error.chars().count() < 200,
        "{error:?}"
    );
}

/// Parses with every variant; a position that parses must format and parse back to itself.
fn check_position<G: Game>(text: &str, variants: &[G::Variant]) {
    let (board, side) = split(text);
    for &variant in variants {
        match G::parse_position(board, side, variant) {
            Err(error) => check_error(&error.to_string()),
            Ok(position) => {
                let formatted = position.format_position();
                let (b, s) = split(&formatted);
                let again = G::parse_position(b, s, variant).expect("a formatted position parses");
                assert_eq!(format!("{again:?}"), format!("{position:?}"), "{text}");
                assert_eq!(again.hash(), position.hash());
                assert_eq!(again.format_position(), formatted);
                let mut moves = G::Moves::default();
                position.legal_moves(&mut moves);
                assert_eq!(moves.as_ref().len(), position.count_moves());
            }
        }
    }
}

/// A move that parses formats back to the very same text (the move notation is canonical).
fn check_move<G: Game>(text: &str) {
    if let Ok(mv) = G::parse_move(text) {
        assert_eq!(G::format_move(mv), text);
    } else {
        check_error(&G::parse_move(text).unwrap_err().to_string());
    }
}

fn check_all(text: &str) {
    check_position::<Avalam>(
        text,
        &[avalam::Variant::Standard, avalam::Variant::OwnColour],
    );
    check_position::<Awale>(
        text,
        &[
            awale::Variant::Standard,
            awale::Variant::GrandSlamNoCapture,
            awale::Variant::GrandSlamCapture,
        ],
    );
    check_move::<Avalam>(text);
    check_move::<Awale>(text);
}

/// A position reached by `plies` random moves from the start, as text.
fn played<G: Game>(seed: u64, plies: usize) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = G::start(G::Variant::default());
    for _ in 0..plies {
        let mut moves = G::Moves::default();
        position.legal_moves(&mut moves);
        let moves = moves.as_ref();
        if moves.is_empty() {
            break;
        }
        position.play(moves[rng.random_range(0..moves.len())]);
    }
    position.format_position()
}

/// One edit of a string: delete, insert, replace or duplicate a character.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
    Duplicate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Characters that matter to the parsers, plus a few that do not belong anywhere.
    let c = prop_oneof![
        4 => proptest::sample::select(
            ".yrYR0123456789/, -+abcdefghijABCDEFGHz\u{e9}\u{1F600}\t\n\0".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), c.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), c).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Duplicate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len();
        match *e {
            Edit::Delete(i) if n > 0 => {
                chars.remove(i % n);
            }
            Edit::Insert(i, c) => chars.insert(i % (n + 1), c),
            Edit::Replace(i, c) if n > 0 => chars[i % n] = c,
            Edit::Duplicate(i) if n > 0 => {
                let c = chars[i % n];
                chars.insert(i % n, c);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        check_all(&text);
    }

    #[test]
    fn strings_of_notation_characters_never_panic(
        text in "[.yr0-9/, ABCDEFabcdefghij]{0,110}"
    ) {
        check_all(&text);
    }

    #[test]
    fn short_strings_never_panic(text in "[a-jA-J0-9\u{e9} ]{0,5}") {
        check_all(&text);
    }

    #[test]
    fn mutated_avalam_positions_never_panic(
        seed in any::<u64>(),
        plies in 0usize..60,
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let text = played::<Avalam>(seed, plies);
        check_all(&text);
        check_all(&apply(&text, &edits));
    }

    #[test]
    fn mutated_awale_positions_never_panic(
        seed in any::<u64>(),
        plies in 0usize..120,
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let text = played::<Awale>(seed, plies);
        check_all(&text);
        check_all(&apply(&text, &edits));
    }

    #[test]
    fn mutated_moves_never_panic(
        from in 0u32..9, row in 0u32..9, to in 0u32..9, row2 in 0u32..9, pit in 0usize..12,
        edits in proptest::collection::vec(edit(), 1..3),
    ) {
        let cells = b"abcdefghi";
        let avalam = format!(
            "{}{}{}{}", cells[from as usize] as char, row + 1, cells[to as usize] as char, row2 + 1
        );
        prop_assert!(Avalam::parse_move(&avalam).is_ok());
        check_all(&apply(&avalam, &edits));
        let awale = Awale::format_move(awale::Move(pit as u8));
        prop_assert!(Awale::parse_move(&awale).is_ok());
        check_all(&apply(&awale, &edits));
    }
}

/// Avalam position strings are canonical: whatever parses is exactly what the formatter writes.
#[test]
fn avalam_positions_that_parse_are_canonical() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..3000 {
        let mut text = played::<Avalam>(rng.random(), rng.random_range(0..40));
        // Replace one character by another notation character: often still a valid position.
        let i = rng.random_range(0..text.len());
        let c = b".yr2345"[rng.random_range(0..7)] as char;
        text.replace_range(i..i + 1, &c.to_string());
        let (board, side) = split(&text);
        if let Ok(position) = Avalam::parse_position(board, side, avalam::Variant::Standard) {
            assert_eq!(position.format_position(), text);
        }
    }
}
