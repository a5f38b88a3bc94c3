//! A match's records file: --resume reaches the totals of an unbroken run and refuses the
//! records of other conditions, shards merge into the unsharded report, and two runs never write
//! one file.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{
    REFEREE, assert_all_gone, mock, records, referee, scratch, signal, spawn_referee, stderr,
    strings, summary,
};

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
        strings(&args)
    };
    let first = spawn_referee(&dir, &args(false));
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
    signal(first.id(), libc::SIGINT);
    assert_eq!(first.wait_with_output().unwrap().status.code(), Some(130));
    assert_all_gone(&dir);
}
