//! `scripts/review.py` on a checked-in records file of two short Awale games (pion at depth 2
//! against the random Python engine, from a 10-seed position), valued exactly by databases built
//! here: the marked moves, the first losing moves and the summary, in JSON and text, and one
//! clear line for a bad records file or engine. It needs `python3`, and fails without it.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

use crate::common::PION;
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/review.py");
const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/review/two-games.jsonl");

/// Databases up to 10 seeds (about a second to build), shared by the tests of this file. They
/// are built afresh under cargo's target directory, so no run leaves them in the system's temp.
fn egtb() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review-egtb");
        let _ = fs::remove_dir_all(&dir);
        let out = Command::new(PION)
            .args([
                "egtb",
                "build",
                "--max-seeds",
                "10",
                "--variant",
                "standard",
            ])
            .arg("--dir")
            .arg(&dir)
            .output()
            .expect("pion runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn review(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 must be on PATH to test scripts/review.py")
}

fn review_ok(args: &[&str]) -> String {
    let out = review(args);
    assert!(
        out.status.success(),
        "review.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The failure of a run: its status is not 0 and its stderr is one line.
fn one_line_failure(out: &Output) -> String {
    assert!(!out.status.success(), "review.py should have failed");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn exact_values_mark_the_results_thrown_away() {
    let egtb = egtb().to_str().unwrap();
    let json: Value = serde_json::from_str(&review_ok(&[
        RECORDS, "--engine", PION, "--egtb", egtb, "--depth", "4", "--json",
    ]))
    .expect("one JSON object");
    let games = json["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["moves"].as_array().unwrap().len(), 171);
    assert_eq!(games[1]["moves"].as_array().unwrap().len(), 52);
    // Every position holds 10 seeds or fewer: every value is a result, proven or (where play
    // can cycle, docs/egtb.md) the databases' likeliest one, but for a few estimates where the
    // engine's search met a repetition's own value.
    let estimates: Vec<usize> = games
        .iter()
        .map(|game| {
            let moves = game["moves"].as_array().unwrap();
            moves
                .iter()
                .flat_map(|m| ["before", "after"].map(|side| m[side].as_str().unwrap()))
                .filter(|v| v.starts_with("cp"))
                .count()
        })
        .collect();
    assert_eq!(estimates, [10, 0]);
    // Game 1: the random engine's first move turns its win into a loss by 8.
    let first = &games[1]["first_losing"];
    assert_eq!(first["ply"], 1);
    assert_eq!(first["mover"], "random");
    assert_eq!(first["move"], "C");
    assert_eq!(first["before"], "win 2");
    assert_eq!(first["after"], "loss 8");
    assert_eq!(games[1]["moves"][0]["class_change"], "win->loss");
    assert_eq!(
        games[1]["moves"][0]["position"],
        "1,0,2,0,1,1/0,1,1,2,0,1/20,18 1"
    );
    assert_eq!(games[1]["moves"][0]["took"], 0);
    assert_eq!(games[1]["moves"][1]["took"], 2);
    // Game 0: pion at depth 2 gives away a win and a draw; the random engine loses for good
    // with its move c at ply 136.
    let first = &games[0]["first_losing"];
    assert_eq!(first["ply"], 136);
    assert_eq!(first["move"], "c");
    assert_eq!(first["already_lost"], false);
    let engines = &json["summary"]["engines"];
    assert_eq!(
        engines["pion"]["class_changes"],
        serde_json::json!({"win->even": 1, "draw->loss": 1})
    );
    assert_eq!(engines["pion"]["games_lost"], 0);
    assert_eq!(
        engines["random"]["class_changes"],
        serde_json::json!({"draw->loss": 1, "win->loss": 2})
    );
    assert_eq!(engines["random"]["games_lost"], 2);
    assert_eq!(json["summary"]["games_reaching_seeds"], 2);
}

#[test]
fn text_output_names_each_games_first_losing_move() {
    let egtb = egtb().to_str().unwrap();
    let text = review_ok(&[
        RECORDS,
        "--engine",
        PION,
        "--egtb",
        egtb,
        "--depth",
        "4",
        "--game-index",
        "0",
    ]);
    assert!(
        text.starts_with("game 0: pion (player 1) vs random (player 2), 1-0"),
        "{text}"
    );
    assert!(!text.contains("game 1:"), "{text}");
    assert!(
        text.contains("first losing move: ply 136 random c at 6 seeds, win 4 -> loss 8"),
        "{text}"
    );
    // Only flagged moves are listed: pion's draw thrown away at ply 121.
    let row = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("121"))
        .expect("ply 121 listed");
    assert!(row.contains("pion") && row.ends_with("draw->loss"), "{row}");
    assert!(
        !text
            .lines()
            .any(|l| l.split_whitespace().next() == Some("122"))
    );
    assert!(text.contains("summary: 1 games"), "{text}");
}

#[test]
fn estimates_without_databases_are_centipoints() {
    let json: Value = serde_json::from_str(&review_ok(&[
        RECORDS,
        "--engine",
        PION,
        "--depth",
        "1",
        "--game-index",
        "1",
        "--json",
    ]))
    .expect("one JSON object");
    let moves = json["games"][0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 52);
    assert!(moves[0]["before"].as_str().unwrap().starts_with("cp "));
    // The last move ends the game: its value after is the final result, 6 seeds up for pion.
    assert_eq!(moves[51]["after"], "win 6");
}

#[test]
fn a_bad_records_file_is_one_line() {
    let dir = crate::common::scratch("review-bad");
    let bad = dir.join("bad.jsonl");
    fs::write(&bad, "{\"game\": 0}\n").unwrap();
    let err = one_line_failure(&review(&[bad.to_str().unwrap(), "--engine", PION]));
    assert!(err.contains("bad.jsonl:1: not a game record"), "{err}");
    fs::write(&bad, "not json\n").unwrap();
    let err = one_line_failure(&review(&[bad.to_str().unwrap(), "--engine", PION]));
    assert!(err.contains("not a game record"), "{err}");
    let missing = dir.join("missing.jsonl");
    let err = one_line_failure(&review(&[missing.to_str().unwrap()]));
    assert!(err.contains("cannot read the records file"), "{err}");
    let err = one_line_failure(&review(&[RECORDS, "--game-index", "7"]));
    assert!(err.contains("no game of the indices given"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_engine_is_one_line() {
    let err = one_line_failure(&review(&[RECORDS, "--engine", "/nonexistent/pion"]));
    assert!(
        err.starts_with("review: the engine '/nonexistent/pion'"),
        "{err}"
    );
    // An engine that refuses a record's position: the random engine has no EgtbPath option.
    let err = one_line_failure(&review(&[
        RECORDS,
        "--engine",
        concat!(
            "python3 ",
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/random_engine.py"
        ),
        "--egtb",
        env!("CARGO_MANIFEST_DIR"),
    ]));
    assert!(err.starts_with("review: the engine"), "{err}");
}
