//! `pion play --load FILE`: an Aualé game file (OGN) goes on in the terminal game; a file with an
//! illegal move is refused in one line.

use crate::common::PION;
use std::io::Write;
use std::process::{Command, Stdio};

fn play_loaded(file_text: &str, input: &str) -> std::process::Output {
    let dir = crate::common::scratch(&format!("ogn-load-{}", file_text.len()));
    let path = dir.join("game.ogn");
    std::fs::write(&path, file_text).unwrap();
    let mut child = Command::new(PION)
        .args(["play", "--level", "random", "--load"])
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // pion may refuse the file and exit before it reads its input: a closed pipe is no error.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn an_ogn_game_goes_on_from_its_last_move() {
    let game = "[Variant \"Oware Abapa\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n\
                [Round \"?\"]\n[South \"me\"]\n[North \"Aalina\"]\n[Result \"*\"]\n\n\
                1. C { opening } b 2. E *\n";
    let out = play_loaded(game, "quit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("awale against pion"), "{stdout}");
    assert!(
        stdout.contains("The moves: position 4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 moves C b E "),
        "{stdout}"
    );
    // From a FEN: North to move.
    let game = "[Variant \"Oware Abapa\"]\n[FEN \"0-0-1-0-0-12-3-0-0-0-0-0-20-12-N\"]\n\n1. a *\n";
    let out = play_loaded(game, "quit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("The moves: position 0,0,1,0,0,12/3,0,0,0,0,0/20,12 2 moves a"),
        "{stdout}"
    );
}

#[test]
fn an_ogn_file_with_an_illegal_move_is_refused_in_one_line() {
    let out = play_loaded("[Variant \"Oware Abapa\"]\n\n1. C C\n", "quit\n");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("move 2 (C): illegal move C: pit C is player 1's; player 2 moves"),
        "{stderr}"
    );
}
