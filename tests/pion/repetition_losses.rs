//! `scripts/repetition_losses.py` on a game pion lost by repetition from a position the
//! databases prove at least drawn for it (`0,0,1,3,0,0/0,0,0,0,1,3/22,18 1`: bounds draw to
//! win 8), played at depth 8 with the 10-seed databases against the same search without them
//! (the one loss of `cycle_games -- 10 40 8 grandslam-nocapture`, docs/egtb.md).

use std::process::{Command, Output};

use crate::common::{PION, scratch};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/repetition_losses.py");
const RECORDS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/review/repetition-loss.jsonl"
);

fn run(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 must be on PATH to test scripts/repetition_losses.py")
}

#[test]
fn a_game_lost_by_repetition_after_a_proven_draw_is_listed() {
    let dir = scratch("repetition-losses");
    let out = Command::new(PION)
        .args(["egtb", "build", "--max-seeds", "10"])
        .args(["--variant", "grandslam-nocapture", "--dir"])
        .arg(&dir)
        .output()
        .expect("pion runs");
    assert!(out.status.success());
    let out = run(&[
        RECORDS,
        "--engine",
        PION,
        "--egtb",
        dir.to_str().unwrap(),
        "--list",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "pion: lost 1 games by repetition, 1 of them after a position the databases \
             prove drawn or won for it",
            "  game 0: ply 0 of 29: bounds draw .. win 8, likely win 4",
        ]
    );
    // Without the databases the script cannot answer: one line, and a failure.
    let empty = scratch("repetition-losses-none");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(&[RECORDS, "--engine", PION, "--egtb", empty.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("pion egtb probe"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(empty);
}
