//! A short match of pion against the Python example engine, through the real referee.

use std::process::Command;

use crate::support::REFEREE;

#[test]
fn pion_beats_the_python_random_engine_through_the_referee() {
    crate::support::require_python();
    let root = crate::support::repo_root();
    let dir = std::env::temp_dir().join(format!("pion-referee-pion-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let script = root.join("scripts/random_engine.py");
    for game in ["avalam", "awale"] {
        let _ = std::fs::remove_file(&out);
        let result = Command::new(REFEREE)
            .current_dir(&dir)
            .args(["--game", game, "--engine", "name=pion"])
            .arg(format!("cmd={}", crate::support::pion()))
            .args(["--engine", "name=random"])
            .arg(format!("cmd=python3 {}", script.display()))
            .args([
                "--games",
                "4",
                "--tc",
                "movetime=30",
                "--openings",
                "random-plies=2",
            ])
            .args(["--seed", "3", "--json", "--out"])
            .arg(&out)
            .output()
            .expect("the referee runs");
        assert!(
            result.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let summary: serde_json::Value =
            serde_json::from_slice(&result.stdout).expect("one JSON summary on stdout");
        assert_eq!(summary["games"], 4, "{summary}");
        assert_eq!(
            summary["forfeits"],
            serde_json::json!({}),
            "{game}: {summary}"
        );
        let pion = &summary["engines"]["pion"];
        assert!(
            pion["wins"].as_u64().unwrap() >= 3,
            "{game}: pion wins: {summary}"
        );
        let records = std::fs::read_to_string(&out).unwrap();
        assert_eq!(records.lines().count(), 4);
        for line in records.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["reason"], "normal", "{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_match_between_two_pions_has_no_forfeit() {
    let dir = std::env::temp_dir().join(format!("pion-referee-variant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pion = crate::support::pion();
    for (game, variant) in [("awale", "grandslam-capture"), ("avalam", "own-colour")] {
        let result = Command::new(REFEREE)
            .current_dir(&dir)
            .args(["--game", game, "--variant", variant, "--engine", "name=max"])
            .arg(format!("cmd={pion}"))
            .args(["--engine", "name=random", "option.Level=random"])
            .arg(format!("cmd={pion}"))
            .args(["--games", "2", "--tc", "movetime=20", "--json"])
            .output()
            .expect("the referee runs");
        assert!(
            result.status.success(),
            "{game} {variant}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let summary: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
        assert_eq!(summary["games"], 2);
        assert_eq!(summary["forfeits"], serde_json::json!({}), "{summary}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
