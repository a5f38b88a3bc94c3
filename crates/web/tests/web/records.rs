//! The match viewer's data over HTTP: the referee's own summary of a records file, and one
//! clear sentence for a file that is not one.

use crate::common::{Server, pion};
use pion_referee::record::{GameRecord, Reason};
use pion_referee::report::ratings::Zero;
use pion_referee::report::summary::summarize;
use pion_referee::report::{Report, report_of};
use serde_json::Value;

/// One game of a match between `new` and `old`.
fn record(game: u64, first: &str, second: &str, result: &str, reason: Reason) -> GameRecord {
    GameRecord {
        game,
        pair: game / 2,
        round: None,
        engines: ["new".to_string(), "old".to_string()],
        first: first.to_string(),
        second: second.to_string(),
        rules: "avalam".to_string(),
        variant: "standard".to_string(),
        start: "startpos".to_string(),
        opening: vec!["a5b5".to_string()],
        moves: vec!["b5c5".to_string()],
        data: Vec::new(),
        result: result.to_string(),
        reason,
        detail: (reason != Reason::Normal).then(|| "it stopped answering".to_string()),
        rule: None,
        loser: (reason != Reason::Normal).then(|| second.to_string()),
        score: [20, 18],
        times_ms: vec![5],
        seed: 7,
        started: None,
        ids: None,
        conditions: Value::String("games=4".to_string()),
        match_games: 4,
        openings: None,
    }
}

fn jsonl(records: &[GameRecord]) -> String {
    records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect()
}

fn post(server: &Server, body: &str) -> (u16, Value) {
    let (status, body) = server.http("POST", "/api/records", body.as_bytes());
    (status, serde_json::from_str(&body).unwrap())
}

fn sample() -> Vec<GameRecord> {
    vec![
        record(0, "new", "old", "1-0", Reason::Normal),
        record(1, "old", "new", "1/2-1/2", Reason::Normal),
        record(2, "new", "old", "1-0", Reason::Timeout),
        record(3, "old", "new", "1-0", Reason::Normal),
    ]
}

#[test]
fn the_summary_is_the_referees() {
    let server = Server::start(&[pion()], &[]);
    let records = sample();
    let (status, view) = post(&server, &jsonl(&records));
    assert_eq!(status, 200, "{view}");
    let expected = summarize(&records[0].engines, &records, None);
    assert_eq!(view["kind"], "match");
    assert_eq!(view["report"], serde_json::to_value(&expected).unwrap());
    assert_eq!(view["table"], expected.table());
    assert_eq!(view["report"]["forfeits"]["timeout"], 1);
    assert_eq!(view["games"].as_array().unwrap().len(), 4);
    assert_eq!(view["games"][2]["detail"], "it stopped answering");
}

#[test]
fn a_records_file_given_on_the_command_line_is_served_as_it_grows() {
    let path = std::env::temp_dir().join(format!("pion-web-records-{}.jsonl", std::process::id()));
    let records = sample();
    // Half a last line: a referee still writing.
    let text = jsonl(&records[..2]) + &jsonl(&records[2..3])[..40];
    std::fs::write(&path, text).unwrap();
    let server = Server::start(&[pion()], &["--records", path.to_str().unwrap()]);
    let (status, body) = server.http("GET", "/api/records", b"");
    let view: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["games"].as_array().unwrap().len(), 2);
    assert!(
        view["warnings"][0]
            .as_str()
            .unwrap()
            .contains("unfinished last record"),
        "{view}"
    );
    std::fs::write(&path, jsonl(&records)).unwrap();
    let (_, body) = server.http("GET", "/api/records", b"");
    let view: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(view["games"].as_array().unwrap().len(), 4);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn files_that_are_not_records_get_one_clear_sentence() {
    let server = Server::start(&[pion()], &[]);
    let error = |body: &str| {
        let (status, view) = post(&server, body);
        assert_eq!(status, 400, "{view}");
        view["error"].as_str().unwrap().to_string()
    };
    assert!(error("not json at all\n").starts_with("the uploaded file:1: not a game record"));
    assert!(error("{\"game\": 1}\n").contains(":1: not a game record"));
    assert!(error("\n\n").contains("holds no game record"));
    let mut chess = sample();
    for game in &mut chess {
        game.rules = "chess".to_string();
    }
    assert!(error(&jsonl(&chess)).contains("game 0 is of 'chess'"));
    let mut mixed = sample();
    mixed[3].engines = ["new".to_string(), "other".to_string()];
    assert!(error(&jsonl(&mixed)).contains("the records mix matches"));
    let (status, body) = server.http("POST", "/api/records", &[0xff, 0xfe, b'\n']);
    assert_eq!(status, 400);
    assert!(
        body.contains("not a game record (not UTF-8 text)"),
        "{body}"
    );
}

#[test]
fn a_huge_records_file_is_refused_before_it_is_read() {
    let path = std::env::temp_dir().join(format!("pion-web-huge-{}.jsonl", std::process::id()));
    std::fs::File::create(&path)
        .unwrap()
        .set_len(33 * 1024 * 1024)
        .unwrap();
    let server = Server::start(&[pion()], &["--records", path.to_str().unwrap()]);
    let (status, body) = server.http("GET", "/api/records", b"");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("33 MiB: the viewer reads records files up to 32 MiB"),
        "{body}"
    );
}

#[test]
fn without_records_the_server_says_so() {
    let server = Server::start(&[pion()], &[]);
    let (status, body) = server.http("GET", "/api/records", b"");
    assert_eq!(status, 404);
    assert!(body.contains("started without --records"), "{body}");
    let (status, _) = server.http("GET", "/nothing-here.js", b"");
    assert_eq!(status, 404);
    let (status, page) = server.http("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
}

/// A 10-engine round-robin of one game a pairing, as the referee writes it.
fn tournament() -> Vec<GameRecord> {
    let names: Vec<String> = (0..10).map(|i| format!("e{i}")).collect();
    let conditions = serde_json::json!({
        "tournament": {"format": "round-robin", "rounds": 1},
        "engines": names.iter().map(|n| serde_json::json!({"name": n})).collect::<Vec<_>>(),
    });
    let mut records = Vec::new();
    for a in 0..10 {
        for b in a + 1..10 {
            let game = records.len() as u64;
            let mut r = record(game, &names[a], &names[b], "1-0", Reason::Normal);
            r.engines = [names[a].clone(), names[b].clone()];
            r.round = Some(0);
            r.opening = vec![format!("a{}", game / 2)];
            r.conditions = conditions.clone();
            r.match_games = 45;
            records.push(r);
        }
    }
    records
}

#[test]
fn a_tournament_is_shown_with_the_referees_standings() {
    let server = Server::start(&[pion()], &[]);
    let records = tournament();
    let (status, view) = post(&server, &jsonl(&records));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["kind"], "tournament");
    let mut sorted = records.clone();
    let (expected, _) = report_of(&mut sorted, None, Zero::Average).unwrap();
    assert!(matches!(expected, Report::Tournament(_)));
    // The referee's own text (standings, ratings, crosstable); the JSON numbers are the same
    // but for the last bit a JSON round trip may change.
    assert_eq!(view["table"], expected.text());
    // Every engine is in the standings, each with its 9 games.
    let rows = view["report"]["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10, "{view}");
}

#[test]
fn what_referee_summary_refuses_the_viewer_refuses_in_its_words() {
    let dir = std::env::temp_dir().join(format!("pion-web-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bad_result = sample();
    bad_result[1].result = "2-0".to_string();
    let mut twice = sample();
    twice[3].game = 2;
    let mut bad_pair = sample();
    bad_pair[2].pair = 0;
    for (name, records) in [("result", bad_result), ("twice", twice), ("pair", bad_pair)] {
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, jsonl(&records)).unwrap();
        // What `referee summary FILE` prints after "referee: error: ".
        let referee = pion_referee::report::merge(std::slice::from_ref(&path), None, Zero::Average)
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
            .expect_err(name);
        let server = Server::start(&[pion()], &["--records", path.to_str().unwrap()]);
        let (status, body) = server.http("GET", "/api/records", b"");
        assert_eq!(status, 400, "{name}: {body}");
        let view: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            view["error"],
            format!("{}: {referee}", path.display()),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
