//! The `referee` binary against mock engines (tests/engines/mock_engine.py): normal matches,
//! one test per forfeit class, resume, shards and merge, SPRT, bad flags, and no process left
//! behind. Time limits here are either generous (for engines that behave) or far shorter than
//! the fault (for engines that do not), so the outcomes do not depend on the machine's speed.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;

use support::{
    REFEREE, assert_all_gone, children_of, mock, records, referee, scratch, stderr, summary,
    wait_for_records,
};

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
fn normal_match_is_recorded_in_consistent_pairs() {
    let dir = scratch("normal");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "avalam",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "6",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=3",
            "--seed",
            "5",
            "--out",
            "games.jsonl",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("games.jsonl"));
    assert_eq!(recs.len(), 6);
    let (mut wins_a, mut draws) = (0, 0);
    for r in &recs {
        for key in [
            "first", "second", "opening", "moves", "result", "reason", "loser", "score",
            "times_ms", "game", "pair",
        ] {
            assert!(r.get(key).is_some(), "missing {key} in {r}");
        }
        assert_eq!(r["reason"], "normal");
        assert!(r["loser"].is_null());
        assert_eq!(r["opening"].as_array().unwrap().len(), 3);
        assert_eq!(
            r["moves"].as_array().unwrap().len(),
            r["times_ms"].as_array().unwrap().len()
        );
        let score: Vec<u64> = r["score"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let expected = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => "1-0",
            std::cmp::Ordering::Less => "0-1",
            std::cmp::Ordering::Equal => "1/2-1/2",
        };
        assert_eq!(r["result"], expected, "result agrees with the score: {r}");
        match (r["result"].as_str().unwrap(), r["first"] == "a") {
            ("1/2-1/2", _) => draws += 1,
            ("1-0", true) | ("0-1", false) => wins_a += 1,
            _ => {}
        }
    }
    for pair in recs.chunks(2) {
        assert_eq!(pair[0]["pair"], pair[1]["pair"]);
        assert_eq!(
            pair[0]["opening"], pair[1]["opening"],
            "same opening within a pair"
        );
        assert_eq!(
            pair[0]["first"], pair[1]["second"],
            "colours swap within a pair"
        );
        assert_eq!(pair[0]["first"], "a");
    }
    let s = summary(&out);
    assert_eq!(s["games"], 6);
    assert_eq!(s["engines"]["a"]["wins"], wins_a);
    assert_eq!(s["engines"]["a"]["draws"], draws);
    assert_eq!(s["engines"]["b"]["losses"], wins_a);
    let penta: u64 = s["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(penta, 3);
    assert!(s["forfeits"].as_object().unwrap().is_empty());
}

#[test]
fn human_table_without_json() {
    let dir = scratch("table");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game", "awale", "--engine", "name=a", &cmd, "--engine", "name=b", &cmd, "--games",
            "2", "--tc", "depth=1",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in ["Games: 2", "Elo a - b", "LOS", "Pentanomial", "Forfeits"] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
}

#[test]
fn concurrency_two_plays_every_game_once() {
    let dir = scratch("concurrency");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "8",
            "--concurrency",
            "2",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=2",
            "--out",
            "games.jsonl",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut games: Vec<u64> = records(&dir.join("games.jsonl"))
        .iter()
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    games.sort();
    assert_eq!(games, (0..8).collect::<Vec<_>>());
    assert!(dir.join("logs/a.0.log").exists() && dir.join("logs/a.1.log").exists());
    assert_eq!(summary(&out)["games"], 8);
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
    // 10 ms: the exit was noticed only after 25 ms without a line, so these games went on as
    // if nothing had happened.
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
fn logs_keep_the_last_info_line_of_each_search_unless_asked_for_all() {
    for (all, expected) in [(false, vec![5]), (true, vec![1, 2, 3, 4, 5])] {
        let dir = scratch(&format!("log-info-{all}"));
        let cmd = format!("cmd={}", mock(&dir, &["deepening"]));
        let mut args = vec![
            "--game", "awale", "--engine", "name=a", &cmd, "--engine", "name=b", &cmd, "--games",
            "2", "--tc", "depth=1",
        ];
        if all {
            args.push("--log-all-info");
        }
        let out = referee(&dir, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let log = std::fs::read_to_string(dir.join("logs/a.0.log")).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        let mut searches = 0;
        for (i, line) in lines.iter().enumerate() {
            if !line.contains(" < bestmove ") {
                continue;
            }
            searches += 1;
            // The info lines read since the last line of another kind, in order.
            let depths: Vec<u32> = lines[..i]
                .iter()
                .rev()
                .take_while(|l| l.contains(" < info "))
                .map(|l| l.split_whitespace().nth(4).unwrap().parse().unwrap())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            assert_eq!(depths, expected, "all {all}: before line {i} of {log}");
        }
        assert!(searches > 10, "{log}");
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

#[test]
fn an_engine_that_cannot_start_is_one_error_line() {
    let dir = scratch("nostart");
    let good = format!("cmd={}", mock(&dir, &[]));
    let dead = format!("cmd={}", mock(&dir, &["exit-at-start"]));
    for bad in [dead.as_str(), "cmd=/nonexistent/engine --flag"] {
        let out = referee(
            &dir,
            &[
                "--game",
                "avalam",
                "--engine",
                "name=good",
                &good,
                "--engine",
                "name=bad",
                bad,
                "--games",
                "2",
            ],
        );
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("'bad'"), "{err}");
    }
}

#[test]
fn resume_reaches_the_same_totals() {
    let dir = scratch("resume");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let args = |out: &'static str| -> Vec<String> {
        [
            "--game",
            "awale",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "6",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=2",
            "--out",
            out,
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let whole_args = args("whole.jsonl");
    let whole = referee(
        &dir,
        &whole_args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(whole.status.success(), "{}", stderr(&whole));

    // An interrupted run: three games and half of a fourth line.
    let text = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        dir.join("part.jsonl"),
        format!("{}\n{}\n{}\n{{\"game\":3,", lines[0], lines[1], lines[2]),
    )
    .unwrap();
    let mut part_args = args("part.jsonl");
    let refused = referee(
        &dir,
        &part_args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(
        refused.status.code(),
        Some(1),
        "an existing file needs --resume"
    );
    part_args.push("--resume".into());
    let resumed = referee(
        &dir,
        &part_args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(summary(&resumed), summary(&whole));
    let recs = records(&dir.join("part.jsonl"));
    assert_eq!(recs.len(), 6);

    // A different seed would give other openings: the file does not belong to that match.
    let mut other = args("part.jsonl");
    other.extend(["--resume".to_string(), "--seed".into(), "99".into()]);
    let mismatch = referee(&dir, &other.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(mismatch.status.code(), Some(1));
    assert!(stderr(&mismatch).contains("other conditions"));

    // So does a match under another time control: records of two matches never mix.
    let mut other = args("part.jsonl");
    let tc = other
        .iter()
        .position(|a| a == "--tc")
        .expect("the match sets --tc");
    other[tc + 1] = "movetime=7".into();
    other.push("--resume".to_string());
    let mismatch = referee(&dir, &other.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(mismatch.status.code(), Some(1));
    assert!(
        stderr(&mismatch).contains("other conditions"),
        "{}",
        stderr(&mismatch)
    );
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    let dir = scratch("shards");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    // The match (or a shard of it) in `game` from `openings`.
    let play = |game: &str, openings: &str, extra: &[&str]| {
        let mut args = vec![
            "--game",
            game,
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "7",
            "--tc",
            "depth=1",
            "--openings",
            openings,
            "--seed",
            "3",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = referee(&dir, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        out
    };
    let run = |extra: &[&str]| play("avalam", "random-plies=2", extra);
    let whole = run(&["--out", "whole.jsonl"]);
    run(&["--shard", "1/2", "--out", "s1.jsonl"]);
    run(&["--shard", "2/2", "--out", "s2.jsonl"]);
    let pairs = |f: &str| -> Vec<u64> {
        records(&dir.join(f))
            .iter()
            .map(|r| r["pair"].as_u64().unwrap())
            .collect()
    };
    assert!(pairs("s1.jsonl").iter().all(|p| p % 2 == 0));
    assert!(pairs("s2.jsonl").iter().all(|p| p % 2 == 1));
    let merged = referee(&dir, &["merge", "s2.jsonl", "s1.jsonl", "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(summary(&merged), summary(&whole));
    assert_eq!(
        summary(&merged)["unpaired_games"],
        1,
        "7 games: the last pair has one game"
    );
    // The same games were played, move for move.
    let strip = |f: &str| {
        let mut v: Vec<(u64, Value)> = records(&dir.join(f))
            .into_iter()
            .map(|r| (r["game"].as_u64().unwrap(), r["moves"].clone()))
            .collect();
        v.sort_by_key(|(g, _)| *g);
        v
    };
    let mut sharded = strip("s1.jsonl");
    sharded.extend(strip("s2.jsonl"));
    sharded.sort_by_key(|(g, _)| *g);
    assert_eq!(sharded, strip("whole.jsonl"));

    // A merge that lacks a shard still reports, and says games are missing.
    let partial = referee(&dir, &["merge", "s1.jsonl", "--json"]);
    assert!(partial.status.success());
    assert!(
        stderr(&partial).contains("of the match's 7 games"),
        "{}",
        stderr(&partial)
    );
    assert!(!stderr(&merged).contains("of the match's"));

    // Shards of another game, or of other openings, are not part of this match.
    let refused = |shard: &str, why: &str| {
        let out = referee(&dir, &["merge", "s1.jsonl", shard, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{shard}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{shard}: {}", stderr(&out));
    };
    let other = |file: &str, game: &str, openings: &str| {
        play(game, openings, &["--shard", "2/2", "--out", file]);
    };
    other("awale.jsonl", "awale", "random-plies=2");
    refused(
        "awale.jsonl",
        "game 0 is avalam (standard), game 2 is awale",
    );
    other("none.jsonl", "avalam", "none");
    refused(
        "none.jsonl",
        "openings 'random-plies=2' and, in game 2, 'none'",
    );
}

#[test]
fn two_runs_never_write_one_file() {
    let dir = scratch("lock");
    let slow = format!("cmd={}", mock(&dir, &["slow-after=0"]));
    let args = |resume: bool| {
        let mut args = vec![
            "--game",
            "awale",
            "--engine",
            "name=a",
            &slow,
            "--engine",
            "name=b",
            &slow,
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--out",
            "games.jsonl",
        ];
        if resume {
            args.push("--resume");
        }
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let mut first = Command::new(REFEREE)
        .args(args(false))
        .args(["--log-dir", "logs"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first run holds the file from its start, before any game is recorded in it.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !dir.join("games.jsonl").exists() {
        assert!(
            Instant::now() < deadline,
            "the first run never opened its file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for resume in [false, true] {
        // Refused before it starts an engine.
        let second = Command::new(REFEREE)
            .args(args(resume))
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(second.status.code(), Some(1));
        let err = stderr(&second);
        assert!(
            err.contains("being written by another referee run"),
            "{err}"
        );
    }
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(first.id() as i32, libc::SIGINT);
    }
    assert_eq!(first.wait().unwrap().code(), Some(130));
    assert_all_gone(&dir);
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let (dir, good) = {
        let dir = scratch("sprt");
        let good = format!("cmd={}", mock(&dir, &[]));
        (dir, good)
    };
    let bad = format!("cmd={}", mock(&dir, &["illegal-after=0"]));
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=good",
            &good,
            "--engine",
            "name=bad",
            &bad,
            "--games",
            "400",
            "--tc",
            "depth=1",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
            "--out",
            "games.jsonl",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let s = summary(&out);
    assert_eq!(s["sprt"]["decision"], "H1");
    assert!(s["sprt"]["llr"].as_f64().unwrap().is_finite());
    let games = s["games"].as_u64().unwrap();
    assert!(
        games < 400 && games.is_multiple_of(2),
        "stopped after a whole pair, early: {games}"
    );
    assert_eq!(records(&dir.join("games.jsonl")).len() as u64, games);
    // It stopped at the first decision: without the last pair the test was still undecided.
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let earlier: Vec<&str> = lines.lines().take(games as usize - 2).collect();
    std::fs::write(dir.join("earlier.jsonl"), earlier.join("\n") + "\n").unwrap();
    let merged = referee(
        &dir,
        &[
            "merge",
            "earlier.jsonl",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "--json",
        ],
    );
    assert_eq!(summary(&merged)["sprt"]["decision"], "continue");
    assert!(
        stderr(&out).contains("LLR"),
        "the test is printed after each pair"
    );
}

#[test]
fn maxplies_adjudicates_and_openings_file_is_followed() {
    let dir = scratch("maxplies");
    std::fs::write(
        dir.join("book.txt"),
        "# two openings\nstartpos moves A\n4,4,4,4,4,4/4,4,4,4,4,4/0,0 2 moves a\n",
    )
    .unwrap();
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "4",
            "--tc",
            "depth=1",
            "--maxplies",
            "5",
            "--maxplies-rule",
            "draw",
            "--openings",
            "file=book.txt",
            "--out",
            "games.jsonl",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("games.jsonl"));
    for r in &recs {
        assert_eq!(r["reason"], "adjudication", "{r}");
        assert_eq!(r["result"], "1/2-1/2");
        assert_eq!(r["moves"].as_array().unwrap().len(), 5);
    }
    assert_eq!(recs[0]["opening"], serde_json::json!(["A"]));
    assert_eq!(recs[2]["start"], "4,4,4,4,4,4/4,4,4,4,4,4/0,0 2");
    assert_eq!(summary(&out)["adjudications"], 4);
    // Two pairs, two openings: no opening played twice, no note about it.
    assert!(
        !stderr(&out).contains("openings are played"),
        "{}",
        stderr(&out)
    );
    let again = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "6",
            "--tc",
            "depth=1",
            "--maxplies",
            "5",
            "--openings",
            "file=book.txt",
        ],
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("note: 3 pairs from 2 openings: openings are played up to 2 times"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn clocks_and_per_engine_time_controls_reach_the_engines() {
    let dir = scratch("clock");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "avalam",
            "--engine",
            "name=a",
            &cmd,
            "tc=depth=1",
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "2",
            "--tc",
            "tc=40/30+0.5",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let a = std::fs::read_to_string(dir.join("logs/a.0.log")).unwrap();
    let b = std::fs::read_to_string(dir.join("logs/b.0.log")).unwrap();
    assert!(a.contains("> go depth 1") && !a.contains("p1time"));
    assert!(
        b.contains("> go p1time 30000 p2time 30000 p1inc 500 p2inc 500 movestogo 40"),
        "{b}"
    );
}

#[test]
fn bad_flags_are_usage_errors() {
    let dir = scratch("flags");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let base = [
        "--game",
        "awale",
        "--engine",
        "name=a",
        cmd.as_str(),
        "--engine",
        "name=b",
        cmd.as_str(),
    ];
    let cases: Vec<Vec<&str>> = vec![
        vec!["--tc", "bogus=3"],
        vec!["--tc", "tc=ten"],
        vec!["--openings", "random-plies=x"],
        vec!["--shard", "3/2"],
        vec!["--sprt", "elo0=5", "elo1=0"],
        vec!["--no-such-flag"],
        vec!["--variant", "nope"],
        vec!["--concurrency", "0"],
        vec!["--tc", "movetime=0"],
        vec!["--tc", "nodes=0"],
        vec!["--tc", "depth=0"],
        vec!["--tc", "tc=1e20+0"],
        vec!["--tc", "tc=10+1e9"],
        vec!["--hang-timeout", "0"],
        // Values whose arithmetic would wrap, and so forfeit correct engines on time.
        vec!["--tc", "movetime=18446744073709551615"],
        vec!["--timemargin", "9223372036854775807"],
        vec!["--quit-timeout", "18446744073709551615"],
        // Deeper than the protocol allows: every pion game would be a protocol error.
        vec!["--tc", "depth=65"],
    ];
    for extra in cases {
        let mut args = base.to_vec();
        args.extend(&extra);
        let out = referee(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // Openings the game cannot give: refused before any game, rather than every game started
    // from whatever shorter opening came out.
    let mut args = base.to_vec();
    args.extend(["--openings", "random-plies=1000"]);
    let out = referee(&dir, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("use fewer plies"), "{}", stderr(&out));
    for args in [
        vec!["--game", "awale", "--engine", "name=a", cmd.as_str()],
        vec![
            "--game",
            "awale",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            cmd.as_str(),
        ],
        vec![
            "--game",
            "awale",
            "--engine",
            "name=a",
            cmd.as_str(),
            "--engine",
            "name=a",
            cmd.as_str(),
        ],
        vec![
            "--game",
            "chess",
            "--engine",
            "name=a",
            cmd.as_str(),
            "--engine",
            "name=b",
            cmd.as_str(),
        ],
    ] {
        let out = referee(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let help = Command::new(REFEREE).arg("--help").output().unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    for flag in [
        "--engine",
        "--tc",
        "--timemargin",
        "--openings",
        "--sprt",
        "--shard",
        "--resume",
        "--maxplies",
        "--startup-timeout",
        "--isready-timeout",
        "Example",
    ] {
        assert!(text.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn ctrl_c_keeps_finished_games_and_kills_the_engines() {
    let dir = scratch("ctrlc");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let mut child = Command::new(REFEREE)
        .args([
            "--game",
            "avalam",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "1000",
            "--tc",
            "depth=1",
            "--out",
            "games.jsonl",
            "--json",
            "--log-dir",
            "logs",
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let file = dir.join("games.jsonl");
    wait_for_records(&file, 2);
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let give_up = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < give_up,
            "the referee did not stop on SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(130));
    let s = summary(&out);
    let kept = records(&file).len() as u64;
    assert!((2..1000).contains(&kept));
    assert_eq!(s["games"], kept);
    assert_all_gone(&dir);
}

#[test]
fn sigterm_to_the_referee_and_its_engines_records_no_forfeit() {
    let dir = scratch("sigterm-group");
    // Searching engines: the signal finds the referee waiting for a bestmove.
    let cmd = format!("cmd={}", support::pion());
    let child = Command::new(REFEREE)
        .args([
            "--game",
            "awale",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--games",
            "1000",
            "--tc",
            "movetime=20",
            // Only the signal may end a game early: a loaded machine (the tests run side by
            // side) must not make a late answer a time forfeit here.
            "--timemargin",
            "2000",
            "--concurrency",
            "2",
            "--out",
            "games.jsonl",
            "--json",
            "--log-dir",
            "logs",
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let file = dir.join("games.jsonl");
    wait_for_records(&file, 4);
    // As Slurm's scancel or systemd do: the referee and its engines at once (the engines run
    // in process groups of their own, so each is signalled by its pid).
    let referee_pid = child.id() as i32;
    let mut pids = vec![referee_pid];
    pids.extend(children_of(referee_pid));
    assert!(pids.len() >= 3, "the engines are running: {pids:?}");
    for pid in pids {
        // SAFETY: signalling our own child and its children.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let recs = records(&file);
    assert!(recs.len() >= 4);
    for r in &recs {
        assert_eq!(
            r["reason"], "normal",
            "an engine killed by the signal forfeited: {r}"
        );
    }
    assert_all_gone(&dir);
}

#[test]
fn an_out_file_that_cannot_be_written_is_one_error_line() {
    let dir = scratch("badout");
    let good = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=a",
            &good,
            "--engine",
            "name=b",
            &good,
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--out",
            "no/such/dir/games.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("cannot open no/such/dir/games.jsonl"), "{err}");
    assert_all_gone(&dir);
}
