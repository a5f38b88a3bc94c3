//! The minimal engines of docs/writing-an-engine.md play complete referee matches against pion:
//! every game is played out, none is forfeited.

use crate::common::{PION, scratch};
use std::fs;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const GAMES: usize = 6;

/// Plays `GAMES` Awale games of `engine` (a referee `cmd=`) against pion's `greedy` level and
/// checks that every game ended normally; the logs are shown when one did not.
fn match_against_pion(name: &str, engine: &str, dir: &Path) {
    match_against_pion_at(
        &["--game", "awale", "--tc", "movetime=1000"],
        name,
        engine,
        dir,
    );
}

/// The same, with the game and time control of `setup` (referee flags).
fn match_against_pion_at(setup: &[&str], name: &str, engine: &str, dir: &Path) {
    let out = dir.join("games.jsonl");
    let output = Command::new(crate::common::binary("referee"))
        .current_dir(ROOT)
        .args(setup)
        .args(["--engine", &format!("name={name}"), engine])
        .args(["--engine", "name=pion"])
        .arg(format!("cmd={}", PION))
        .arg("option.Level=greedy")
        .args(["--games", &GAMES.to_string()])
        .args(["--openings", "random-plies=4", "--json", "--out"])
        .arg(&out)
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .output()
        .expect("the referee runs");
    let logs = || {
        fs::read_dir(dir.join("logs"))
            .map(|entries| {
                entries
                    .filter_map(|e| fs::read_to_string(e.ok()?.path()).ok())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default()
    };
    assert!(
        output.status.success(),
        "the referee failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        logs()
    );
    let records = fs::read_to_string(&out).expect("the referee wrote its records");
    let records: Vec<serde_json::Value> = records
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect();
    assert_eq!(records.len(), GAMES, "every game was played");
    for record in &records {
        assert_eq!(
            record["reason"],
            "normal",
            "{name} lost a game by forfeit: {record}\n{}",
            logs()
        );
        assert!(
            record["moves"].as_array().is_some_and(|m| m.len() > 4),
            "a game played out: {record}"
        );
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the summary is one JSON object");
    assert_eq!(summary["games"], GAMES, "{summary}");
    assert_eq!(summary["forfeits"], serde_json::json!({}), "{summary}");
}

#[test]
fn the_minimal_python_engine_plays_a_match() {
    let dir = scratch("bot-guide-python");
    match_against_pion("minimal", "cmd=python3 examples/engines/minimal.py", &dir);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_minimal_c_engine_compiles_and_plays_a_match() {
    let dir = scratch("bot-guide-c");
    let binary = dir.join("minimal");
    let compiler = if Command::new("cc").arg("--version").output().is_ok() {
        "cc"
    } else {
        "gcc"
    };
    let built = Command::new(compiler)
        .current_dir(ROOT)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
        .arg(&binary)
        .arg("examples/engines/minimal.c")
        .output()
        .unwrap_or_else(|e| panic!("{compiler} runs: {e}"));
    assert!(
        built.status.success(),
        "minimal.c does not compile cleanly:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    match_against_pion("minimal-c", &format!("cmd={}", binary.display()), &dir);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_java_engine_compiles_with_javac_alone_and_plays_a_match() {
    let dir = scratch("bot-guide-java");
    let classes = dir.join("classes");
    let built = Command::new("javac")
        .current_dir(ROOT)
        .args(["-Xlint:all", "-Werror", "-d"])
        .arg(&classes)
        .arg("examples/engines/AvalamEngine.java")
        .output()
        .unwrap_or_else(|e| panic!("javac runs (.ci/run installs a JDK): {e}"));
    assert!(
        built.status.success(),
        "AvalamEngine.java does not compile cleanly:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    for bot in ["alphabeta", "greedy"] {
        let engine = format!(
            "cmd=java -cp {} AvalamEngine --bot {bot}",
            classes.display()
        );
        let setup = [
            "--game",
            "avalam",
            "--variant",
            "tiebreak5",
            "--tc",
            "tc=5+0.1",
        ];
        match_against_pion_at(&setup, &format!("java-{bot}"), &engine, &dir);
        let _ = fs::remove_file(dir.join("games.jsonl"));
    }
    let _ = fs::remove_dir_all(&dir);
}
