//! Awale's opening book: the embedded files, the moves `go` takes from them, their variety, and
//! book files that are refused.

use std::collections::{HashSet, VecDeque};
use std::process::Command;

use crate::common::Pion;
use pion::book::{Book, MARGIN_CP, embedded, for_variant, probe};
use pion::search::{Level, Settings};
use pion_rules::awale::Awale;
use pion_rules::game::Game;

use crate::common::PION;
const START: &str = "4,4,4,4,4,4/4,4,4,4,4,4/0,0 1";

#[test]
fn the_embedded_books_cover_the_default_variant_and_abapa() {
    let variants: Vec<&str> = embedded().iter().map(|b| b.variant.as_str()).collect();
    assert_eq!(variants, ["standard", "grandslam-nocapture"]);
    for book in embedded() {
        assert!(book.command.starts_with("pion book build --variant "));
        assert!(book.entries.contains_key(START), "{}", book.variant);
        assert!(book.entries.len() > 43, "plies 0 to 2 and more");
    }
}

#[test]
fn every_book_position_is_reached_from_the_start_by_book_moves() {
    for book in embedded() {
        let variant = Awale::parse_variant(&book.variant).unwrap();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([Awale::start(variant)]);
        while let Some(pos) = queue.pop_front() {
            let key = pos.format_position();
            let Some(moves) = book.entries.get(&key) else {
                continue;
            };
            if !seen.insert(key) {
                continue;
            }
            let mut legal = <Awale as Game>::Moves::default();
            pos.legal_moves(&mut legal);
            assert_eq!(moves.len(), legal.as_ref().len(), "every move is valued");
            for m in moves {
                let mut child = pos;
                child.play(pos.parse_legal_move(&m.mv).expect("a legal book move"));
                queue.push_back(child);
            }
        }
        assert_eq!(seen.len(), book.entries.len(), "{}", book.variant);
    }
}

/// The lines a `go` prints up to its `bestmove`.
fn go(setup: &[&str], go: &str) -> Vec<String> {
    let mut pion = Pion::start();
    for line in setup {
        pion.send(line);
    }
    pion.send(go);
    pion.recv_until("bestmove")
}

#[test]
fn go_answers_from_the_book_at_the_start_and_searches_without_it() {
    let book = for_variant("standard").unwrap();
    let lines = go(&["newgame awale"], "go movetime 2000");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "info string book");
    let played = lines[2].strip_prefix("bestmove ").unwrap();
    let candidates = book.candidates(START).unwrap();
    let entry = candidates
        .iter()
        .find(|m| m.mv == played)
        .expect("a book move");
    assert!(
        lines[1].starts_with(&format!("info depth {} score ", entry.depth)),
        "{lines:?}"
    );
    assert!(lines[1].ends_with(&format!(" pv {played}")), "{lines:?}");

    let lines = go(
        &["newgame awale", "setoption name OwnBook value false"],
        "go movetime 50",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(
        lines.len() > 2,
        "a search reports its iterations: {lines:?}"
    );
}

#[test]
fn the_book_is_for_timed_games_at_level_max_in_its_variant() {
    let searched = |setup: &[&str], command: &str| {
        let lines = go(setup, command);
        !lines.iter().any(|l| l == "info string book")
    };
    assert!(searched(&["newgame awale"], "go depth 3"));
    assert!(searched(&["newgame awale"], "go nodes 500"));
    assert!(searched(
        &["newgame awale", "setoption name Level value basic"],
        "go movetime 20"
    ));
    assert!(searched(
        &[
            "newgame awale",
            "setoption name Variant value grandslam-capture"
        ],
        "go movetime 20"
    ));
    assert!(!searched(
        &[
            "newgame awale",
            "setoption name Variant value grandslam-nocapture"
        ],
        "go p1time 60000 p2time 60000"
    ));
    assert!(searched(&["newgame avalam"], "go movetime 20"));
}

#[test]
fn several_seeds_vary_the_move_where_the_book_has_near_equal_moves() {
    let book = for_variant("standard").unwrap();
    let (position, moves) = book
        .entries
        .iter()
        .filter(|(key, _)| book.candidates(key).unwrap().len() >= 2)
        .min_by_key(|(key, _)| key.as_str())
        .expect("a position with near-equal moves");
    let [board, side] = position.split(' ').collect::<Vec<_>>()[..] else {
        panic!("a position");
    };
    let pos = Awale::parse_position(board, side, Default::default()).unwrap();
    let mut played = HashSet::new();
    for seed in 0..16 {
        let settings = Settings {
            seed,
            ..Settings::default()
        };
        let (mv, info) = probe(&pos, &settings).expect("a book hit");
        let entry = moves.iter().find(|m| m.mv == mv).unwrap();
        let best = moves[0].score.rank();
        assert!(entry.score.rank() >= best - i64::from(MARGIN_CP));
        assert_eq!(info.score, Some(entry.score.into()));
        played.insert(mv);
    }
    assert!(played.len() >= 2, "{played:?} at {position}");
    // The same seed plays the same move.
    let settings = Settings::default();
    assert_eq!(probe(&pos, &settings), probe(&pos, &settings));
    let off = Settings {
        own_book: false,
        ..settings
    };
    assert_eq!(probe(&pos, &off), None);
    let divine = Settings {
        level: Level::Divine,
        ..settings
    };
    assert_eq!(probe(&pos, &divine), None);
}

#[test]
fn bad_book_files_are_refused_with_the_line_at_fault() {
    let cases = [
        ("", "book: no 'variant <name>' line"),
        (
            "variant oware\n",
            "book line 1: the first line must be 'variant <name>'",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 F cp 3 d4\n",
            "book line 2: an entry is '<board> <side> : <moves>'",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,5/0,0 1 : F cp 3 d4\n",
            "book line 2: bad Awale position",
        ),
        (
            "variant standard\n# a comment\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : a cp 3 d4\n",
            "book line 3: move a: ",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp x d4\n",
            "book line 2: bad score 'cp x'",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp 3 4\n",
            "book line 2: bad depth '4'",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp 3 d4, F cp 2 d4\n",
            "book line 2: move F is listed twice",
        ),
        (
            "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp 3 d4\n\
             4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : E cp 3 d4\n",
            "book line 3: this position is already in the book",
        ),
    ];
    for (text, expected) in cases {
        let error = Book::parse(text).expect_err(text);
        assert!(error.starts_with(expected), "{error:?} for {text:?}");
        assert!(!error.contains('\n'), "one line: {error:?}");
    }
    let good = "variant standard\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp 3 d4, E win 2 d9\n";
    let book = Book::parse(good).unwrap();
    assert_eq!(
        book.candidates(START).unwrap()[0].mv,
        "E",
        "a win comes first"
    );
}

#[test]
fn book_check_reads_the_committed_files_and_refuses_a_bad_one() {
    let root = env!("CARGO_MANIFEST_DIR");
    for variant in ["standard", "grandslam-nocapture"] {
        let out = Command::new(PION)
            .args([
                "book",
                "check",
                &format!("{root}/src/book/awale-{variant}.txt"),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(&format!("book {variant}: ")), "{text}");
    }
    let bad = crate::common::scratch("bad-book").join("book.txt");
    std::fs::write(&bad, "variant standard\nnonsense\n").unwrap();
    let out = Command::new(PION)
        .args(["book", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&bad);
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8(out.stderr).unwrap();
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(
        error.contains("book line 2: an entry is '<board> <side> : <moves>'"),
        "{error}"
    );
}
