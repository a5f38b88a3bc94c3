//! `referee export --format ogn`: Awale games as Aualé writes them, read back as the same
//! games; Avalam refused in one line.

use crate::support::{records, referee, scratch, stderr};

#[test]
fn exported_ogn_reads_back_as_the_same_games() {
    let dir = scratch("ogn-export");
    let pion = format!("cmd={}", crate::support::pion());
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--variant",
            "grandslam-nocapture",
            "--engine",
            "name=greedy",
            &pion,
            "option.Level=greedy",
            "--engine",
            "name=random",
            &pion,
            "option.Level=random",
            "--games",
            "6",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=2",
            "--out",
            "g.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = referee(&dir, &["export", "g.jsonl", "--format", "ogn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let games: Vec<&str> = text.split("\n\n[").collect();
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(games.len(), recs.len(), "{text}");
    for (i, record) in recs.iter().enumerate() {
        let game = if i == 0 {
            games[0].to_string()
        } else {
            format!("[{}", games[i])
        };
        let read = pion_protocol::ogn::read_ogn(&game).unwrap_or_else(|e| panic!("{e}\n{game}"));
        let played: Vec<String> = record["opening"]
            .as_array()
            .unwrap()
            .iter()
            .chain(record["moves"].as_array().unwrap())
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        // The same moves, but for the one move pion's rules play after "cannot feed".
        let cut = read.moves.len();
        assert!(cut == played.len() || cut + 1 == played.len(), "{game}");
        assert_eq!(read.moves[..], played[..cut], "{game}");
        assert_eq!(read.tag("South"), record["first"].as_str());
        assert_eq!(read.tag("North"), record["second"].as_str());
        let score = record["score"].as_array().unwrap();
        assert_eq!(
            read.tag("Result").unwrap(),
            format!("{}-{}", score[0], score[1]),
            "{game}"
        );
        assert_eq!(read.tag("Variant"), Some("Oware Abapa"));
    }
}

#[test]
fn avalam_games_are_refused_for_ogn_in_one_line() {
    let dir = scratch("ogn-avalam");
    let pion = format!("cmd={}", crate::support::pion());
    let out = referee(
        &dir,
        &[
            "--game",
            "avalam",
            "--engine",
            "name=a",
            &pion,
            "option.Level=random",
            "--engine",
            "name=b",
            &pion,
            "option.Level=random",
            "--games",
            "1",
            "--out",
            "g.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = referee(&dir, &["export", "g.jsonl", "--format", "ogn"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "game 0: OGN holds Oware (Awale) games only, and this is avalam: use --format pgn"
        ),
        "{err}"
    );
}
