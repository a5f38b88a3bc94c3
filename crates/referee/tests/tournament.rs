//! Tournaments: round-robin and gauntlet plans, broken engines in a round-robin at
//! --concurrency 3, an engine that cannot start, SIGTERM and resume, shards and merge, and the
//! one-line refusals of tournament arguments.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::Value;

mod support;

use support::{
    assert_all_gone, children_of, engine, records, referee, run, scratch, signal, spawn_referee,
    stderr, strings, summary, wait_for_records,
};

/// Four engines: a good one and three broken ones.
fn four_engines(dir: &Path) -> Vec<String> {
    let mut args = Vec::new();
    args.extend(engine(dir, "good", &[]));
    args.extend(engine(dir, "crasher", &["crash-after=2"]));
    args.extend(engine(dir, "hanger", &["hang-go-after=3"]));
    args.extend(engine(dir, "cheater", &["illegal-after=4"]));
    args
}

#[test]
fn a_round_robin_with_broken_engines_loses_no_game() {
    let dir = scratch("rr-broken");
    let mut args = strings(&[
        "--game",
        "awale",
        "--tournament",
        "round-robin",
        "--rounds",
        "2",
    ]);
    args.extend(four_engines(&dir));
    args.extend(strings(&[
        "--concurrency",
        "3",
        "--tc",
        "movetime=50",
        "--timemargin",
        "300",
        "--out",
        "games.jsonl",
        "--json",
    ]));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("games.jsonl"));
    // 6 pairings, 2 rounds, 2 colours: every game once.
    assert_eq!(recs.len(), 24);
    let games: HashSet<u64> = recs.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    assert_eq!(games, (0..24).collect());
    let mut openings = BTreeMap::new();
    for r in &recs {
        assert_eq!(r["pair"].as_u64().unwrap(), r["game"].as_u64().unwrap() / 2);
        // Round r of every pairing starts from the same opening (here: the start position).
        let round = r["round"].as_u64().unwrap();
        let opening = (r["start"].clone(), r["opening"].clone());
        assert_eq!(*openings.entry(round).or_insert(opening.clone()), opening);
        assert!(r["started"].as_str().unwrap().ends_with('Z'), "{r}");
        assert_eq!(r["conditions"]["tournament"]["format"], "round-robin");
    }
    let mut forfeits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in recs.iter().filter(|r| !r["loser"].is_null()) {
        let loser = r["loser"].as_str().unwrap().to_string();
        forfeits
            .entry(loser)
            .or_default()
            .push(format!("{} {}", r["reason"], r["detail"]));
    }
    let only = |name: &str, reason: &str| {
        let list = forfeits.get(name).cloned().unwrap_or_default();
        assert!(!list.is_empty(), "{name}: {forfeits:#?}");
        assert!(
            list.iter().all(|f| f.starts_with(reason)),
            "{name}: {forfeits:#?}"
        );
    };
    only("crasher", "\"crash\"");
    only("hanger", "\"timeout\"");
    only("cheater", "\"illegal-move\"");
    assert!(!forfeits.contains_key("good"), "{forfeits:#?}");
    // A crashed engine is started again for its next game.
    let crasher_logs = std::fs::read_dir(dir.join("logs"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("crasher")
        })
        .count();
    let starts: usize = std::fs::read_dir(dir.join("logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|log| log.matches("# started pid").count())
        .sum();
    assert!(crasher_logs >= 1 && starts > 4, "{crasher_logs} {starts}");

    let s = summary(&out);
    assert_eq!(s["games"], 24);
    let rows = s["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["name"], "good", "{s}");
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 24.0);
    assert!(rows.iter().all(|r| r["games"] == 12));
    assert!(rows.iter().all(|r| r["elo"].is_number()), "{s}");
}

#[test]
fn the_text_report_has_the_standings_and_the_crosstable() {
    let dir = scratch("rr-text");
    let mut args = strings(&["--game", "awale", "--rounds", "1", "--tc", "depth=1"]);
    for name in ["a", "b", "c"] {
        args.extend(engine(&dir, name, &[]));
    }
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Tournament (round-robin): 6 of 6 games\n"),
        "{text}"
    );
    assert!(text.contains("Rank  Name"), "{text}");
    assert!(
        text.contains("logistic Elo by maximum likelihood, draws as half a win"),
        "{text}"
    );
    assert!(text.contains("Crosstable"), "{text}");
    assert!(text.contains("Forfeits: none"), "{text}");
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let dir = scratch("gauntlet");
    let mut args = strings(&[
        "--game",
        "awale",
        "--tournament",
        "gauntlet",
        "--rounds",
        "2",
    ]);
    for name in ["me", "x", "y", "z"] {
        args.extend(engine(&dir, name, &[]));
    }
    args.extend(strings(&[
        "--tc",
        "depth=1",
        "--out",
        "g.jsonl",
        "--json",
        "--concurrency",
        "2",
    ]));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(recs.len(), 12);
    for r in &recs {
        assert!(r["first"] == "me" || r["second"] == "me", "{r}");
    }
    let s = summary(&out);
    let me = s["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "me")
        .unwrap()
        .clone();
    assert_eq!(me["games"], 12);
    // The others never met: their crosstable cells are empty.
    let cross = &s["standings"]["crosstable"];
    let nulls = cross
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|c| c.is_null())
        .count();
    assert_eq!(
        nulls,
        4 + 6,
        "the diagonal and the three pairs that did not meet: {cross}"
    );
}

#[test]
fn an_engine_that_cannot_start_refuses_the_tournament_before_any_game() {
    let dir = scratch("rr-nostart");
    let mut args = strings(&["--game", "awale", "--out", "g.jsonl"]);
    args.extend(engine(&dir, "a", &[]));
    args.extend(engine(&dir, "b", &[]));
    args.extend(strings(&["--engine", "name=ghost", "cmd=/no/such/engine"]));
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("engine 'ghost': cannot start '/no/such/engine'"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("g.jsonl")).unwrap(), "");
}

#[test]
fn sigterm_leaves_no_process_and_resume_completes_the_tournament() {
    let dir = scratch("rr-sigterm");
    let mut args = strings(&["--game", "awale", "--rounds", "3", "--concurrency", "3"]);
    args.extend(four_engines(&dir));
    args.extend(strings(&[
        "--tc",
        "movetime=30",
        "--timemargin",
        "300",
        "--out",
        "games.jsonl",
        "--json",
    ]));
    let child = spawn_referee(&dir, &args);
    let file = dir.join("games.jsonl");
    wait_for_records(&file, 3);
    let engines = children_of(child.id());
    assert!(!engines.is_empty(), "engines are running");
    signal(child.id(), libc::SIGTERM);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_all_gone(&dir);
    let kept = records(&file).len();
    assert!((3..36).contains(&kept), "{kept}");

    args.push("--resume".into());
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&file);
    assert_eq!(recs.len(), 36);
    let games: HashSet<u64> = recs.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    assert_eq!(games.len(), 36);
    assert_eq!(summary(&out)["games"], 36);
}

#[test]
fn shards_merge_into_the_unsharded_standings() {
    let dir = scratch("rr-shards");
    let play = |extra: &[&str]| {
        let mut args = strings(&[
            "--game",
            "awale",
            "--rounds",
            "2",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=2",
            "--seed",
            "5",
        ]);
        for name in ["a", "b", "c"] {
            args.extend(engine(&dir, name, &[]));
        }
        args.extend(strings(extra));
        let out = run(&dir, &args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    play(&["--out", "whole.jsonl"]);
    play(&["--out", "s1.jsonl", "--shard", "1/2"]);
    play(&["--out", "s2.jsonl", "--shard", "2/2"]);
    let merged = referee(&dir, &["merge", "s1.jsonl", "s2.jsonl", "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let whole = referee(&dir, &["summary", "whole.jsonl", "--json"]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let (m, w) = (summary(&merged), summary(&whole));
    assert_eq!(m["games"], 12);
    assert_eq!(m["standings"], w["standings"]);
    let part = referee(&dir, &["merge", "s1.jsonl", "--json"]);
    assert!(
        stderr(&part).contains("of the tournament's 12 games"),
        "{}",
        stderr(&part)
    );
}

#[test]
fn a_resume_under_other_conditions_names_the_field_and_both_values() {
    let dir = scratch("rr-conditions");
    let args = |tc: &str| {
        let mut args = strings(&[
            "--game", "awale", "--rounds", "1", "--tc", tc, "--out", "g.jsonl",
        ]);
        for name in ["a", "b", "c"] {
            args.extend(engine(&dir, name, &[]));
        }
        args
    };
    assert!(run(&dir, &args("depth=1")).status.success());
    let mut again = args("depth=2");
    again.push("--resume".into());
    let out = run(&dir, &again);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(r#"conditions.tc: "depth=1" against "depth=2""#),
        "{err}"
    );
}

#[test]
fn tournament_arguments_are_refused_in_one_line() {
    let dir = scratch("rr-args");
    let three = |extra: &[&str]| {
        let mut args = strings(&["--game", "awale"]);
        for name in ["a", "b", "c"] {
            args.extend(engine(&dir, name, &[]));
        }
        args.extend(strings(extra));
        args
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            three(&["--sprt", "elo0=0", "elo1=5"]),
            "--sprt tests one engine against another",
        ),
        (three(&["--games", "10"]), "--games sizes a match"),
        (
            three(&["--tournament", "swiss"]),
            "bad --tournament 'swiss'",
        ),
        (three(&["--rounds", "0"]), "--rounds"),
        (
            three(&["--each", "colour=red"]),
            "bad --engine key 'colour'",
        ),
        (three(&["--each", "proto=xboard"]), "bad proto 'xboard'"),
        (
            three(&["--draw", "movecount=2"]),
            "bad --draw: missing movenumber",
        ),
        (
            three(&["--resign", "movecount=2", "score=x"]),
            "bad --resign 'score=x'",
        ),
        (
            three(&["--rating-zero", "median"]),
            "bad rating zero 'median'",
        ),
        (
            strings(&[
                "--game", "awale", "--engine", "name=a", "cmd=true", "--engine", "name=b",
                "cmd=true", "--rounds", "2",
            ]),
            "--rounds sizes a tournament",
        ),
    ];
    for (args, expected) in cases {
        let out = run(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn json_standings_have_ratings_with_the_chosen_zero() {
    let dir = scratch("rr-zero");
    let mut args = strings(&[
        "--game", "awale", "--rounds", "2", "--tc", "depth=1", "--json",
    ]);
    for name in ["a", "b", "c"] {
        args.extend(engine(&dir, name, &[]));
    }
    args.extend(strings(&["--rating-zero", "first", "--out", "g.jsonl"]));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let s = summary(&out);
    assert_eq!(s["standings"]["zero"], "first");
    let a: &Value = s["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "a")
        .unwrap();
    assert_eq!(a["elo"], 0.0);
    let average = referee(&dir, &["summary", "g.jsonl", "--json"]);
    let rows = summary(&average)["standings"]["rows"].clone();
    let sum: f64 = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["elo"].as_f64().unwrap())
        .sum();
    assert!(sum.abs() < 1e-6, "{rows}");
}
