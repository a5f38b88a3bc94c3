//! The Avalam variant `tiebreak5` in the referee's results: a game level on points goes to the
//! player with more towers five high, and the record says so; under the standard rules the same
//! game is a draw.

use std::process::Command;

use crate::support::{REFEREE, records, scratch};

/// Yellow (to move) has a4 on a1 next to a red tower on b1, red another tower on e1: a1b1 leaves
/// one tower each, yellow's five high (b1a1 would lose: two red towers).
const ENDGAME: &str =
    "........./........./........./........./........./........./........./........./y4r..r.... 1";

/// Two games of pion against itself from the endgame, under `variant`; the records.
fn endgame_pair(variant: &str) -> Vec<serde_json::Value> {
    let dir = scratch(&format!("tiebreak-{variant}"));
    std::fs::write(dir.join("endgame.txt"), format!("{ENDGAME}\n")).unwrap();
    let out = Command::new(REFEREE)
        .current_dir(&dir)
        .args(["--game", "avalam", "--variant", variant])
        .args(["--engine", "name=a"])
        .arg(format!("cmd={}", crate::support::pion()))
        .args(["--engine", "name=b"])
        .arg(format!("cmd={}", crate::support::pion()))
        .args(["--games", "2", "--tc", "movetime=50"])
        .args(["--openings", "file=endgame.txt", "--out", "games.jsonl"])
        .output()
        .expect("the referee runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    records(&dir.join("games.jsonl"))
}

#[test]
fn level_points_go_to_the_tie_break_under_tiebreak5_only() {
    for record in endgame_pair("tiebreak5") {
        assert_eq!(record["moves"], serde_json::json!(["a1b1"]), "{record}");
        assert_eq!(
            record["result"], "1-0",
            "player 1 wins on the tie-break: {record}"
        );
        assert_eq!(record["reason"], "normal", "{record}");
        assert_eq!(record["score"], serde_json::json!([1, 1]), "{record}");
        assert_eq!(
            record["detail"], "level on points, decided by the tie-break: 1 to 0",
            "{record}"
        );
    }
    for record in endgame_pair("standard") {
        assert_eq!(record["result"], "1/2-1/2", "a draw on points: {record}");
        assert!(record.get("detail").is_none_or(|d| d.is_null()), "{record}");
    }
}
