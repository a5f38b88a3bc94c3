//! `referee export` (PGN and text) and `referee summary` on a records file, and the records of
//! an earlier version (conditions as text, no engine data) still read, merged and resumed.

use std::path::Path;

use crate::support::{mock, records, referee, run, scratch, stderr, strings, summary};

fn recorded_match(dir: &Path) {
    let cmd = format!("cmd={}", mock(dir, &["deepening"]));
    let out = referee(
        dir,
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
            "2",
            "--tc",
            "depth=1",
            "--openings",
            "random-plies=2",
            "--out",
            "g.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn pgn_export_has_tags_moves_and_engine_data() {
    let dir = scratch("export-pgn");
    recorded_match(&dir);
    let out = referee(&dir, &["export", "g.jsonl", "--format", "pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        pgn.matches("[Event \"pion referee match\"]").count(),
        2,
        "{pgn}"
    );
    for tag in [
        "[Player1 \"a\"]",
        "[Player1 \"b\"]",
        "[Game \"avalam\"]",
        "[Variant \"standard\"]",
        "[SetUp \"1\"]",
        "[Termination \"normal\"]",
    ] {
        assert!(pgn.contains(tag), "{tag}: {pgn}");
    }
    // The start position in pion's notation, the opening marked as book, engine data in comments.
    assert!(pgn.contains("[FEN \"..yr...../.yryr..../"), "{pgn}");
    assert!(pgn.contains("1. ") && pgn.contains("{book}"), "{pgn}");
    assert!(
        pgn.contains("{d5 100000n "),
        "no score, depth 5, the last node count: {pgn}"
    );
    let recs = records(&dir.join("g.jsonl"));
    let first_move = recs[0]["moves"][0].as_str().unwrap();
    assert!(pgn.contains(first_move), "{pgn}");
    assert!(
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .all(|l| l.len() <= 80)
    );

    let text = referee(&dir, &["export", "g.jsonl", "--format", "text"]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with("Game 0 (round 1): a - b, avalam standard, "),
        "{text}"
    );
    assert!(
        text.contains("book") && text.contains("depth 5, nodes 100000"),
        "{text}"
    );
    assert!(text.contains("Result: "), "{text}");

    let bad = referee(&dir, &["export", "g.jsonl", "--format", "csv"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr(&bad).lines().count(), 1, "{}", stderr(&bad));
    let missing = referee(&dir, &["export", "nothing.jsonl"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("cannot read records file nothing.jsonl"));
}

#[test]
fn summary_reports_one_file_as_merge_does() {
    let dir = scratch("export-summary");
    recorded_match(&dir);
    let a = referee(&dir, &["summary", "g.jsonl", "--json"]);
    let b = referee(&dir, &["merge", "g.jsonl", "--json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(summary(&a), summary(&b));
    assert_eq!(summary(&a)["games"], 2);
}

#[test]
fn records_of_an_earlier_version_still_resume_and_merge() {
    let dir = scratch("export-old");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let args = |games: &str| {
        strings(&[
            "--game", "awale", "--engine", "name=a", &cmd, "--engine", "name=b", &cmd, "--games",
            games, "--tc", "depth=1", "--out", "g.jsonl", "--json",
        ])
    };
    let run = |words: &[String]| run(&dir, words);
    assert!(run(&args("4")).status.success());
    // Rewrite the first two records as an earlier version wrote them: conditions as one line of
    // text, none of the new fields; drop the other two, to be played by a resume.
    let old_conditions = "games 4 tc Depth(1) margin 100ms variant standard maxplies None Score seed 1 | a: tc None options [] | b: tc None options []";
    let text: Vec<String> = records(&dir.join("g.jsonl"))
        .into_iter()
        .filter(|r| r["game"].as_u64().unwrap() < 2)
        .map(|mut r| {
            let o = r.as_object_mut().unwrap();
            for key in ["data", "ids", "started", "round", "rule"] {
                o.remove(key);
            }
            o.insert("conditions".into(), old_conditions.into());
            serde_json::to_string(&r).unwrap() + "\n"
        })
        .collect();
    std::fs::write(dir.join("g.jsonl"), text.concat()).unwrap();
    let mut resume = args("4");
    resume.push("--resume".into());
    let out = run(&resume);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(recs.len(), 4);
    assert!(
        recs.iter().all(|r| r["conditions"] == old_conditions),
        "one match, one form"
    );
    let merged = referee(&dir, &["merge", "g.jsonl", "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(summary(&merged)["games"], 4);
    // Another time control is refused, naming the field.
    let mut other = args("4");
    other[11] = "depth=2".into();
    other.push("--resume".into());
    let out = run(&other);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("differ")
            || stderr(&out).contains("conditions: \"games 4 tc Depth(1)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_export_read_only_in_part_ends_quietly() {
    let dir = scratch("export-pipe");
    recorded_match(&dir);
    // Enough games to fill the pipe long before the reader stops.
    let first = records(&dir.join("g.jsonl")).remove(0);
    let many: String = (0..400)
        .map(|g| {
            let mut r = first.clone();
            r["game"] = g.into();
            r["pair"] = (g / 2).into();
            serde_json::to_string(&r).unwrap() + "\n"
        })
        .collect();
    std::fs::write(dir.join("many.jsonl"), many).unwrap();
    let mut child = std::process::Command::new(crate::support::REFEREE)
        .args(["export", "many.jsonl"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut head).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}
