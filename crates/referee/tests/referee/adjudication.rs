//! Adjudication in real games: --draw, --resign and --adjudicate-proven end games from the
//! engines' scripted scores, and the record says which rule did.

use std::path::Path;

use serde_json::Value;

use crate::support::{records, referee, scratch, stderr, summary, ugi_mock_path};

/// A UGI mock that reports `score` on every move.
fn scripted(score: &str) -> String {
    let path = ugi_mock_path();
    format!("cmd=python3 '{}' --score '{score}'", path.display())
}

fn play(dir: &Path, scores: [&str; 2], rule: &[&str]) -> Vec<Value> {
    let (a, b) = (scripted(scores[0]), scripted(scores[1]));
    let mut args = vec![
        "--game",
        "awale",
        "--engine",
        "name=a",
        &a,
        "proto=ugi",
        "--engine",
        "name=b",
        &b,
        "proto=ugi",
        "--games",
        "2",
        "--tc",
        "depth=1",
        "--out",
        "g.jsonl",
        "--json",
    ];
    args.extend_from_slice(rule);
    let out = referee(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(summary(&out)["games"], 2);
    records(&dir.join("g.jsonl"))
}

#[test]
fn a_quiet_game_is_drawn_after_the_move_number() {
    let dir = scratch("adj-draw");
    let recs = play(
        &dir,
        ["cp 5", "cp -5"],
        &["--draw", "movenumber=3", "movecount=2", "score=10"],
    );
    for r in &recs {
        assert_eq!(r["reason"], "adjudication", "{r}");
        assert_eq!(r["rule"], "draw", "{r}");
        assert_eq!(r["result"], "1/2-1/2", "{r}");
        // Move 3 reached and four plies in a row near zero: ply 6.
        assert_eq!(r["moves"].as_array().unwrap().len(), 6, "{r}");
        assert!(
            r["detail"]
                .as_str()
                .unwrap()
                .starts_with("draw: both scores within 10"),
            "{r}"
        );
        assert_eq!(r["conditions"]["adjudication"]["draw"]["movecount"], 2);
    }
}

#[test]
fn a_losing_engine_resigns() {
    let dir = scratch("adj-resign");
    let recs = play(
        &dir,
        ["cp 700", "cp -700"],
        &["--resign", "movecount=2", "score=500"],
    );
    for r in &recs {
        assert_eq!(r["rule"], "resign", "{r}");
        // b resigns at its second move; it is not a forfeit.
        let winner = if r["first"] == "a" { "1-0" } else { "0-1" };
        assert_eq!(r["result"], winner, "{r}");
        assert!(r["loser"].is_null(), "{r}");
    }
    // Two-sided: a's own score must agree, and here it does not.
    let dir = scratch("adj-resign-two");
    let recs = play(
        &dir,
        ["cp 0", "cp -700"],
        &[
            "--resign",
            "movecount=2",
            "score=500",
            "twosided=true",
            "--maxplies",
            "12",
        ],
    );
    for r in &recs {
        assert_eq!(r["rule"], "maxplies", "{r}");
    }
}

#[test]
fn agreeing_proven_results_end_the_game_at_once() {
    let dir = scratch("adj-proven");
    let recs = play(&dir, ["win 3", "loss 3"], &["--adjudicate-proven"]);
    for r in &recs {
        assert_eq!(r["rule"], "proven", "{r}");
        assert_eq!(r["moves"].as_array().unwrap().len(), 2, "{r}");
        let winner = if r["first"] == "a" { "1-0" } else { "0-1" };
        assert_eq!(r["result"], winner, "{r}");
    }
    // Without the option the same engines play on.
    let dir = scratch("adj-proven-off");
    let recs = play(&dir, ["win 3", "loss 3"], &[]);
    assert!(recs.iter().all(|r| r["reason"] == "normal"), "{recs:?}");
}
