//! One test per forfeit class, against a faulty mock engine (tests/engines/mock_engine.py
//! --fault): crashes, time losses, illegal moves, protocol errors; and the faults that must not
//! forfeit (a ponder word, a long info line, an engine that ignores quit, stderr noise). Time
//! limits are far shorter than the fault, so the outcomes do not depend on the machine's speed.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::support::{mock, records, referee, scratch, stderr, summary};

/// A match of `games` between a good mock `good` and a faulty one `bad`, `good` first.
fn faulty_match(name: &str, faults: &[&str], extra: &[&str]) -> (Vec<Value>, Output, PathBuf) {
    let dir = scratch(name);
    let good = format!("cmd={}", mock(&dir, &[]));
    let bad = format!("cmd={}", mock(&dir, faults));
    let mut args = vec![
        "--game",
        "awale",
        "--engine",
        "name=good",
        &good,
        "tc=depth=1",
        "--engine",
        "name=bad",
        &bad,
        "--games",
        "2",
        "--out",
        "games.jsonl",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = referee(&dir, &args);
    assert!(out.status.success(), "referee failed: {}", stderr(&out));
    let recs = records(&dir.join("games.jsonl"));
    assert_eq!(recs.len(), 2);
    assert_eq!(summary(&out)["games"], 2);
    (recs, out, dir)
}

fn assert_forfeit(record: &Value, reason: &str, loser: &str) {
    assert_eq!(record["reason"], reason, "record: {record}");
    assert_eq!(record["loser"], loser, "record: {record}");
    let expected = if record["first"] == loser {
        "0-1"
    } else {
        "1-0"
    };
    assert_eq!(record["result"], expected, "record: {record}");
}

#[test]
fn crash_mid_game_loses_and_the_engine_is_restarted() {
    let (recs, out, dir) = faulty_match("crash", &["crash-after=2"], &[]);
    for r in &recs {
        assert_forfeit(r, "crash", "bad");
    }
    assert_eq!(summary(&out)["forfeits"]["crash"], 2);
    // One process for each game: the crashed one was replaced.
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap();
    assert_eq!(pids.lines().count(), 1 + 2);
}

#[test]
fn an_engine_that_closes_its_output_is_told_apart_from_one_that_exits() {
    let (recs, _, _) = faulty_match("close-stdout", &["close-stdout-after=2"], &[]);
    let forfeits: Vec<&Value> = recs.iter().filter(|r| r["loser"] == "bad").collect();
    assert!(!forfeits.is_empty(), "{recs:?}");
    for r in forfeits {
        assert_forfeit(r, "crash", "bad");
        let detail = r["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("closed its output while the referee waited"),
            "{detail}"
        );
    }
    let (recs, _, _) = faulty_match("exits", &["crash-after=2"], &[]);
    let detail = recs[0]["detail"].as_str().unwrap_or_default().to_string();
    assert!(
        detail.contains("exited while the referee waited"),
        "{detail}"
    );
}

#[test]
fn an_engine_that_exits_while_its_child_holds_its_output_crashes() {
    // The grandchild keeps the pipe open, so no end of output comes: the exit itself must be
    // noticed, not the 60 s hang deadline (which would make this a timeout).
    let (recs, _, _) = faulty_match("crash-child", &["spawn-child", "crash-after=2"], &[]);
    for r in &recs {
        assert_forfeit(r, "crash", "bad");
    }
}

#[test]
fn an_engine_that_exits_while_its_child_answers_quickly_crashes() {
    // The started process exits after two moves and its child answers every later `go` within
    // 10 ms: the exit must be noticed although lines keep coming, not only after a silence.
    let (recs, _, _) = faulty_match("detached", &["detach-after=2"], &[]);
    for r in &recs {
        assert_forfeit(r, "crash", "bad");
    }
}

#[test]
fn a_ponder_move_after_bestmove_is_ignored_and_other_extra_words_lose() {
    let (recs, out, _) = faulty_match("ponder", &["ponder"], &[]);
    assert!(recs.iter().all(|r| r["reason"] == "normal"), "{recs:?}");
    assert_eq!(
        summary(&out)["forfeits"].as_object().map(|f| f.len()),
        Some(0)
    );
    let (recs, _, _) = faulty_match("extra-token", &["extra-token-after=1"], &[]);
    for r in &recs {
        assert_forfeit(r, "protocol-error", "bad");
        assert!(
            r["detail"].as_str().unwrap().contains("exactly one move"),
            "{r}"
        );
    }
}

#[test]
fn hang_on_go_loses_on_time() {
    let (recs, _, _) = faulty_match(
        "hang-go",
        &["hang-go-after=1"],
        &["--tc", "movetime=50", "--timemargin", "100"],
    );
    for r in &recs {
        assert_forfeit(r, "timeout", "bad");
    }
}

#[test]
fn stuck_depth_search_loses_on_the_hang_deadline() {
    let (recs, _, _) = faulty_match(
        "stuck",
        &["hang-go-after=0"],
        &["--tc", "depth=2", "--hang-timeout", "300"],
    );
    for r in &recs {
        assert_forfeit(r, "timeout", "bad");
        assert!(r["detail"].as_str().unwrap().contains("stuck"), "{r}");
    }
}

#[test]
fn exceeding_the_clock_loses_on_time() {
    let (recs, _, _) = faulty_match(
        "slow",
        &["slow-after=0"],
        &["--tc", "tc=0.3+0", "--timemargin", "50"],
    );
    for r in &recs {
        assert_forfeit(r, "timeout", "bad");
    }
}

#[test]
fn no_readyok_loses_on_time() {
    let (recs, _, _) = faulty_match(
        "isready",
        &["hang-isready-after=1"],
        &["--isready-timeout", "1000"],
    );
    for r in &recs {
        assert_forfeit(r, "timeout", "bad");
        assert!(r["detail"].as_str().unwrap().contains("readyok"), "{r}");
    }
}

#[test]
fn no_pionok_after_a_restart_loses_on_time() {
    let dir = scratch("pion-state");
    let state = dir.join("starts");
    let hang = format!("hang-pion-from=2 --state '{}'", state.display());
    let (recs, _, _) = faulty_match(
        "pion",
        &["crash-after=1", &hang],
        &["--startup-timeout", "1500"],
    );
    assert_forfeit(&recs[0], "crash", "bad");
    assert_forfeit(&recs[1], "timeout", "bad");
    assert!(
        recs[1]["detail"].as_str().unwrap().contains("pionok"),
        "{}",
        recs[1]
    );
}

#[test]
fn illegal_move_loses() {
    let (recs, _, _) = faulty_match("illegal", &["illegal-after=1"], &[]);
    for r in &recs {
        assert_forfeit(r, "illegal-move", "bad");
        assert!(
            r["detail"].as_str().unwrap().contains("illegal move"),
            "{r}"
        );
    }
}

#[test]
fn malformed_move_loses() {
    let (recs, _, _) = faulty_match("malformed", &["malformed-after=0"], &[]);
    for r in &recs {
        assert_forfeit(r, "illegal-move", "bad");
        assert!(r["detail"].as_str().unwrap().contains("zz99"), "{r}");
    }
}

#[test]
fn garbage_instead_of_bestmove_is_a_protocol_error() {
    let (recs, out, _) = faulty_match("garbage", &["garbage-after=1"], &[]);
    for r in &recs {
        assert_forfeit(r, "protocol-error", "bad");
    }
    assert_eq!(
        summary(&out)["forfeits_by_engine"]["bad"]["protocol-error"],
        2
    );
}

#[test]
fn an_info_line_longer_than_the_line_limit_is_skipped_whole() {
    let (recs, out, _) = faulty_match("long-info", &["long-info"], &[]);
    for r in &recs {
        assert_eq!(r["reason"], "normal", "record: {r}");
    }
    assert_eq!(summary(&out)["games"], 2);
}

#[test]
fn a_second_bestmove_for_one_go_is_a_protocol_error() {
    let (recs, _, _) = faulty_match("two-bestmoves", &["two-bestmoves-after=0"], &[]);
    for r in &recs {
        assert_forfeit(r, "protocol-error", "bad");
        let detail = r["detail"].as_str().unwrap();
        assert!(detail.contains("while not asked to move"), "record: {r}");
    }
}

#[test]
fn an_engine_ignoring_quit_and_its_children_are_killed() {
    // assert_all_gone (inside `referee`) checks the engine and its `sleep` grandchild by pid.
    let (recs, _, dir) = faulty_match(
        "ignore-quit",
        &["ignore-quit", "spawn-child"],
        &["--quit-timeout", "200"],
    );
    for r in &recs {
        assert_eq!(r["reason"], "normal");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("pids"))
            .unwrap()
            .lines()
            .count(),
        3
    );
}

#[test]
fn stderr_goes_to_the_log_not_the_terminal() {
    let (recs, out, dir) = faulty_match("stderr", &["stderr-spam"], &[]);
    for r in &recs {
        assert_eq!(r["reason"], "normal");
    }
    assert!(
        stderr(&out).len() < 1000,
        "the referee's stderr got the engine's noise"
    );
    let log = std::fs::metadata(dir.join("logs/bad.0.log")).unwrap().len();
    assert!(log > 200_000, "log holds the engine's stderr ({log} bytes)");
}
