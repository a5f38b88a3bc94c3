//! The balanced opening books under `openings/` and `scripts/make-openings.py`, which makes
//! them: every book line is a legal opening of the documented length, no position comes twice,
//! and the script keeps exactly the openings whose score lies within its window, the same ones
//! for the same seed, and refuses bad flags with an error. The script tests need `python3` on PATH
//! and fail, naming it, without it.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::support::{pion, repo_root, require_python, scratch};
use pion_referee::run::openings::Opening;
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::Game;

/// The sizes of the books the level table plays: enough openings for its 100 pairs and some to
/// spare (Awale has only 1014 distinct positions four plies in, 299 of them within its window).
const BOOK_SIZES: [(&str, usize); 2] = [("avalam", 300), ("awale", 250)];

/// The openings of a book or of the script's output: its non-comment lines, parsed.
fn openings(text: &str) -> Vec<Opening> {
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| Opening::parse(line).unwrap_or_else(|e| panic!("'{line}': {e}")))
        .collect()
}

/// Checks that every opening replays legally with `plies` moves from the start position and
/// leads to a position of its own; returns those positions.
fn check_openings<G: Game>(book: &[Opening], plies: usize) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    for opening in book {
        assert_eq!(opening.start, "startpos");
        assert_eq!(opening.moves.len(), plies, "{opening:?}");
        let history = opening
            .history::<G>(G::Variant::default())
            .unwrap_or_else(|e| panic!("{opening:?}: {e}"));
        let position = history.position().format_position();
        assert!(
            seen.insert(position.clone()),
            "{opening:?} repeats a position"
        );
        positions.push(position);
    }
    positions
}

#[test]
fn the_books_hold_distinct_legal_four_ply_openings() {
    for (game, check) in [
        (
            "avalam",
            check_openings::<Avalam> as fn(&[Opening], usize) -> Vec<String>,
        ),
        ("awale", check_openings::<Awale>),
    ] {
        let path = repo_root().join(format!("openings/{game}-balanced.txt"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let book = openings(&text);
        let size = BOOK_SIZES.iter().find(|(name, _)| *name == game).unwrap().1;
        assert_eq!(book.len(), size, "{}", path.display());
        check(&book, 4);
    }
}

/// A script of the repository's `scripts/`.
fn script(name: &str) -> PathBuf {
    repo_root().join("scripts").join(name)
}

fn make_openings(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(script("make-openings.py"))
        .args(["--engine", &pion()])
        .args(args)
        .output()
        .expect("python3 runs")
}

/// The last score a fresh pion reports for `game` after `go depth <depth>`, in centipoints for
/// the side to move (at the end of its input pion finishes a search with a limit, then exits).
fn score(game: &str, position: &str, depth: u32) -> i32 {
    // No default endgame databases: the same scores on every machine.
    let mut child = Command::new(pion())
        .env("PION_EGTB", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("pion starts");
    let commands = format!("setoption name Game value {game}\n{position}\ngo depth {depth}\n");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(commands.as_bytes()).expect("pion reads");
    drop(stdin);
    let output = child.wait_with_output().expect("pion exits");
    let text = String::from_utf8(output.stdout).expect("pion writes UTF-8");
    assert!(text.contains("bestmove"), "{text}");
    let info = text
        .lines()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("a score");
    let words: Vec<&str> = info.split(" score ").nth(1).unwrap().split(' ').collect();
    match words[0] {
        "cp" => words[1].parse().unwrap(),
        "draw" => 0,
        other => panic!("a proven {other} four plies in: {info}"),
    }
}

#[test]
fn make_openings_keeps_the_openings_within_its_window() {
    require_python();
    for (game, depth) in [("avalam", "2"), ("awale", "6")] {
        let args = [
            "--game",
            game,
            "--count",
            "6",
            "--depth",
            depth,
            "--window",
            "20",
            "--seed",
            "5",
            "--max-tries",
            "300",
        ];
        let output = make_openings(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = String::from_utf8(output.stdout).unwrap();
        let book = openings(&text);
        assert_eq!(book.len(), 6, "{text}");
        match game {
            "avalam" => check_openings::<Avalam>(&book, 4),
            _ => check_openings::<Awale>(&book, 4),
        };

        // Every kept opening is within 20 cp of the start position's score at that depth.
        let depth: u32 = depth.parse().unwrap();
        let reference = score(game, "position startpos", depth);
        for opening in &book {
            let position = format!("position startpos moves {}", opening.moves.join(" "));
            let value = score(game, &position, depth);
            assert!(
                (value - reference).abs() <= 20,
                "{position}: {value} vs {reference}"
            );
        }

        // The window filters: the header counts more candidates than it kept (a window of 20
        // cp does not keep every random opening), and the same seed gives the same book.
        let header = text.lines().nth(1).unwrap();
        let tried: usize = header
            .split(" of ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(tried > 6, "{header}");
        assert_eq!(make_openings(&args).stdout, text.as_bytes());
    }
}

#[test]
fn make_openings_refuses_bad_flags_and_reports_a_short_book() {
    require_python();
    for (args, expected) in [
        (&["--count", "0"][..], "--count must be at least 1"),
        (&["--window", "-5"][..], "--window must not be negative"),
        (&["--game", "chess"][..], "invalid choice: 'chess'"),
    ] {
        let output = make_openings(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }

    // An engine that cannot start is one line on stderr, not a traceback.
    let output = Command::new("python3")
        .arg(script("make-openings.py"))
        .args(["--engine", "/no/such/engine", "--count", "2"])
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("make-openings: the engine '/no/such/engine' exited"),
        "{stderr}"
    );

    // Fewer tries than openings wanted: the book is short, and the script says so
    // and fails, rather than writing fewer openings silently.
    let output = make_openings(&[
        "--count",
        "3",
        "--depth",
        "1",
        "--max-tries",
        "2",
        "--seed",
        "2",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("candidates were within the window"),
        "{stderr}"
    );
}

#[test]
fn score_by_opening_bands_an_engines_points_by_its_side_of_the_opening() {
    require_python();
    let dir = scratch("score-by-opening");
    let games = dir.join("games.jsonl");
    // Pair 0: `a` wins both games of one opening; pair 1: a draw and a loss on another.
    let record = |game: u32, first: &str, second: &str, opening: &str, result: &str| {
        format!(
            r#"{{"game":{game},"pair":{},"engines":["a","b"],"first":"{first}","second":"{second}","rules":"avalam","variant":"standard","start":"startpos","opening":[{opening}],"moves":[],"result":"{result}","reason":"normal","loser":null,"score":[0,0],"times_ms":[],"seed":1,"conditions":"x","match_games":4}}"#,
            game / 2
        )
    };
    let lines = [
        record(0, "a", "b", r#""g5g4","f2g3""#, "1-0"),
        record(1, "b", "a", r#""g5g4","f2g3""#, "0-1"),
        record(2, "a", "b", r#""g5g4""#, "1/2-1/2"),
        record(3, "b", "a", r#""g5g4""#, "1-0"),
    ];
    // A blank line (an editor's trailing newline, say) is skipped.
    std::fs::write(&games, lines.join("\n") + "\n\n").unwrap();
    let run = |name: &str| {
        Command::new("python3")
            .arg(script("score-by-opening.py"))
            .arg(&games)
            .args(["--engine-name", name, "--depth", "1"])
            .args(["--engine", &pion()])
            .output()
            .expect("python3 runs")
    };

    // The bands, from pion's own scores of the two openings for the side to move: player 1
    // after two plies (`a` in game 0, `b` in game 1), player 2 after one (`b` in game 2, `a` in
    // game 3).
    let two_plies = score("avalam", "position startpos moves g5g4 f2g3", 1);
    let one_ply = score("avalam", "position startpos moves g5g4", 1);
    let band = |value: i32| (value.div_euclid(100)).clamp(-3, 3);
    let mut expected: std::collections::BTreeMap<i32, (f64, u32)> = Default::default();
    for (value, points) in [
        (two_plies, 1.0),
        (-two_plies, 1.0),
        (-one_ply, 0.5),
        (one_ply, 0.0),
    ] {
        let entry = expected.entry(band(value)).or_default();
        entry.0 += points;
        entry.1 += 1;
    }
    let output = run("a");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<(u32, String)> = text
        .lines()
        .skip(1)
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let n = words.len();
            (words[n - 2].parse().unwrap(), words[n - 1].to_string())
        })
        .collect();
    let wanted: Vec<(u32, String)> = expected
        .values()
        .map(|&(points, games)| (games, format!("{:.1}%", 100.0 * points / games as f64)))
        .collect();
    assert_eq!(rows, wanted, "{text}");

    // An engine not in the match, and a file that is not JSON lines, are one-line errors.
    let output = run("c");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no game of 'c'"));
    for (text, expected) in [
        ("not json\n", "games.jsonl:1 is not a JSON line"),
        (
            "\n[]\n",
            "games.jsonl:2 is not a game record of referee --out",
        ),
        (
            r#"{"games":4,"score":0.5}"#,
            "(a match summary? pass the .jsonl file of --out)",
        ),
    ] {
        std::fs::write(&games, text).unwrap();
        let output = run("a");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
