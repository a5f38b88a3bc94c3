//! Matches between mock engines (tests/engines/mock_engine.py) that behave: the records and
//! their pairs, the report, concurrency, the logs, SPRT, --maxplies and an openings file, and the
//! time controls the engines are sent.

use crate::support::{mock, records, referee, scratch, stderr, summary};

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
