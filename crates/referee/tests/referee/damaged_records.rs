//! Records files as damage leaves them: a record cut inside a character, a file that is not
//! records at all, an empty file, two matches in one file. Every reader (`summary`, `export`,
//! `merge`, `--resume`) either reads what is whole or refuses in one line, and a resume never
//! cuts what is not a partial record.

use std::path::{Path, PathBuf};

use crate::support::{mock, referee, scratch, stderr, summary};

/// The arguments of a 4-game Awale match between two mock engines, written to `out`.
fn match_args(cmd: &str, out: &str) -> Vec<String> {
    [
        "--game",
        "awale",
        "--engine",
        "name=a",
        cmd,
        "--engine",
        "name=b",
        cmd,
        "--games",
        "4",
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
}

fn run(dir: &Path, args: &[String]) -> std::process::Output {
    referee(dir, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A finished 4-game match in `whole.jsonl`: its directory, its engine command and its lines.
fn whole_match(name: &str) -> (PathBuf, String, Vec<String>) {
    let dir = scratch(name);
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let whole = run(&dir, &match_args(&cmd, "whole.jsonl"));
    assert!(whole.status.success(), "{}", stderr(&whole));
    let text = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
    let lines = text.lines().map(str::to_string).collect();
    (dir, cmd, lines)
}

/// The one line an error exit printed, checked to be one line.
fn one_line_error(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "expected a refusal");
    let text = stderr(out);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one line of error, got: {text}");
    lines[0].to_string()
}

#[test]
fn a_record_cut_inside_a_character_is_dropped_and_resumed() {
    let (dir, cmd, lines) = whole_match("cut-char");
    // The third record carries text beyond ASCII (as a garbage engine's output does), and the
    // run was killed in the middle of its write: inside the three bytes of a euro sign.
    let third = lines[2].replacen(
        "{\"game\":2,",
        "{\"game\":2,\"note\":\"\u{20ac}\u{fffd}\",",
        1,
    );
    let euro = third.find('\u{20ac}').unwrap();
    let mut damaged = format!("{}\n{}\n", lines[0], lines[1]).into_bytes();
    damaged.extend_from_slice(&third.as_bytes()[..euro + 1]);
    let part = dir.join("part.jsonl");
    std::fs::write(&part, &damaged).unwrap();

    let read = referee(&dir, &["summary", "part.jsonl", "--json"]);
    assert!(read.status.success(), "{}", stderr(&read));
    assert!(stderr(&read).contains("part.jsonl:3: ignoring an unfinished last record"));
    assert_eq!(summary(&read)["games"], 2, "{}", stderr(&read));
    let merged = referee(&dir, &["merge", "part.jsonl", "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let exported = referee(&dir, &["export", "part.jsonl", "--format", "pgn"]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    assert_eq!(
        String::from_utf8_lossy(&exported.stdout)
            .matches("[Result ")
            .count(),
        2
    );

    let mut args = match_args(&cmd, "part.jsonl");
    args.push("--resume".into());
    let resumed = run(&dir, &args);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let text = std::fs::read_to_string(&part).unwrap();
    assert_eq!(
        text.lines().count(),
        4,
        "the cut record was replaced: {text}"
    );
    assert!(
        text.lines()
            .take(2)
            .eq(lines.iter().take(2).map(String::as_str))
    );
}

#[test]
fn a_whole_last_record_without_its_newline_is_kept() {
    let (dir, cmd, lines) = whole_match("no-newline");
    let part = dir.join("part.jsonl");
    std::fs::write(&part, format!("{}\n{}", lines[0], lines[1])).unwrap();
    let mut args = match_args(&cmd, "part.jsonl");
    args.push("--resume".into());
    let resumed = run(&dir, &args);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let text = std::fs::read_to_string(&part).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines()
            .take(2)
            .eq(lines.iter().take(2).map(String::as_str))
    );
}

#[test]
fn resume_refuses_a_file_that_is_not_records_and_leaves_it_alone() {
    let dir = scratch("not-records");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    for (file, content) in [
        ("notes.txt", b"my notes".to_vec()),
        ("zeros.bin", vec![0u8; 1 << 20]),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, &content).unwrap();
        for resume in [true, false] {
            let mut args = match_args(&cmd, file);
            if resume {
                args.push("--resume".into());
            }
            let error = one_line_error(&run(&dir, &args));
            assert!(
                error.contains("not a game record") || error.contains("not a records file"),
                "{file}, resume {resume}: {error}"
            );
            assert_eq!(std::fs::read(&path).unwrap(), content, "{file} was changed");
        }
    }
}

#[test]
fn a_file_with_games_is_refused_without_resume_and_says_how_many() {
    let (dir, cmd, _) = whole_match("holds-games");
    let error = one_line_error(&run(&dir, &match_args(&cmd, "whole.jsonl")));
    assert!(error.contains("already holds 4 finished games"), "{error}");
}

#[test]
fn export_of_nothing_or_of_two_matches_is_refused() {
    let (dir, _, lines) = whole_match("export-bad");
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    let error = one_line_error(&referee(&dir, &["export", "empty.jsonl"]));
    assert!(error.contains("holds no game record"), "{error}");

    let avalam = lines[1].replacen("\"rules\":\"awale\"", "\"rules\":\"avalam\"", 1);
    assert_ne!(avalam, lines[1]);
    std::fs::write(dir.join("mixed.jsonl"), format!("{}\n{avalam}\n", lines[0])).unwrap();
    for words in [
        &["export", "mixed.jsonl"][..],
        &["summary", "mixed.jsonl"],
        &["merge", "mixed.jsonl"],
    ] {
        let error = one_line_error(&referee(&dir, words));
        assert!(
            error.contains("the records mix matches"),
            "{words:?}: {error}"
        );
    }
}
