//! Engines that speak UGI: the automatic fallback from `pion` to `ugi` (an engine that rejects
//! `pion`, one that ignores it), what a UGI engine is sent, `proto=` fixed either way, and pion
//! itself played as a UGI engine.

use std::path::Path;

use crate::support::{mock, records, referee, scratch, stderr, summary, ugi_mock_path};

fn ugi_mock(dir: &Path, args: &str) -> String {
    let path = ugi_mock_path();
    format!(
        "python3 '{}' --log '{}' {args}",
        path.display(),
        dir.join("ugi-commands.txt").display()
    )
}

fn log_of(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("logs").join(format!("{name}.0.log"))).unwrap()
}

/// A match of two games between a pion-speaking mock `p` and `u`, whose `--engine` words
/// are `cmd=<ugi>` and `ugi_words`.
fn play(dir: &Path, ugi: &str, ugi_words: &[&str], extra: &[&str]) -> std::process::Output {
    let pion_side = format!("cmd={}", mock(dir, &[]));
    let ugi_side = format!("cmd={ugi}");
    let mut args = vec!["--game", "awale", "--engine", "name=p", &pion_side];
    args.extend(["--engine", "name=u", &ugi_side]);
    args.extend_from_slice(ugi_words);
    args.extend(["--games", "2", "--out", "g.jsonl", "--json"]);
    args.extend_from_slice(extra);
    referee(dir, &args)
}

#[test]
fn an_engine_that_rejects_pion_is_played_over_ugi() {
    let dir = scratch("ugi-reject");
    let out = play(
        &dir,
        &ugi_mock(&dir, "--on-pion error"),
        &[],
        &["--tc", "tc=5+0.1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["reason"], "normal", "{r}");
    }
    assert_eq!(summary(&out)["games"], 2);
    let log = log_of(&dir, "u");
    assert!(
        log.contains("# it answered pion with 'Unknown command: pion': asking ugi"),
        "{log}"
    );
    assert!(log.contains("# speaks ugi"), "{log}");
    // The game is the Game option, each game starts with uginewgame, clocks go as UGI has them.
    let sent = std::fs::read_to_string(dir.join("ugi-commands.txt")).unwrap();
    assert!(sent.contains("setoption name Game value awale\n"), "{sent}");
    assert!(sent.contains("uginewgame\n"), "{sent}");
    assert!(!sent.contains("newgame awale"), "{sent}");
    assert!(sent.contains("go p1time "), "{sent}");
    assert!(
        sent.contains(" p2time ") && sent.contains(" p1inc 100 p2inc 100"),
        "{sent}"
    );
    // The engine's name and its data reach the records.
    let ugi_game = recs.iter().find(|r| r["second"] == "u").unwrap();
    assert_eq!(ugi_game["ids"][1]["name"], "ugimock", "{ugi_game}");
    let data = ugi_game["data"].as_array().unwrap();
    assert_eq!(data[1]["score"], "cp 0", "{ugi_game}");
    assert_eq!(data[1]["depth"], 3, "{ugi_game}");
}

#[test]
fn an_engine_silent_on_pion_is_asked_ugi_after_a_second() {
    let dir = scratch("ugi-silent");
    let out = play(
        &dir,
        &ugi_mock(&dir, "--on-pion silent"),
        &[],
        &["--tc", "depth=1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(records(&dir.join("g.jsonl")).len(), 2);
    let log = log_of(&dir, "u");
    assert!(
        log.contains("# it did not answer pion within 1000 ms: asking ugi"),
        "{log}"
    );
    assert!(log_of(&dir, "p").contains("# speaks pion"));
}

#[test]
fn a_fixed_protocol_is_the_only_one_asked() {
    let dir = scratch("ugi-fixed");
    let ugi = ugi_mock(&dir, "--on-pion error");
    let out = play(&dir, &ugi, &["proto=ugi"], &["--tc", "depth=1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!log_of(&dir, "u").contains("> pion"));

    let dir = scratch("ugi-as-pion");
    let silent = ugi_mock(&dir, "--on-pion silent");
    let out = play(
        &dir,
        &silent,
        &["proto=pion"],
        &["--startup-timeout", "1500"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("engine 'u' failed to start"), "{err}");
    assert!(
        err.contains("sent no pionok (the answer to pion) in time"),
        "{err}"
    );
}

#[test]
fn pion_plays_as_a_ugi_engine() {
    let dir = scratch("ugi-pion");
    let pion = format!("cmd={}", crate::support::pion());
    // The other side is pion too, over its own protocol: the mock knows no variants.
    let other = pion.clone();
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--variant",
            "grandslam-capture",
            "--engine",
            "name=pion",
            &pion,
            "proto=ugi",
            "option.Level=random",
            "--engine",
            "name=m",
            &other,
            "option.Level=random",
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--out",
            "g.jsonl",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert!(recs.iter().all(|r| r["reason"] == "normal"), "{recs:?}");
    let log = log_of(&dir, "pion");
    assert!(log.contains("> ugi\n"), "{log}");
    assert!(!log.contains("> pion\n"), "{log}");
    assert!(log.contains("< ugiok"), "{log}");
    assert!(log.contains("> setoption name Game value awale"), "{log}");
    assert!(
        log.contains("> setoption name Variant value grandslam-capture"),
        "{log}"
    );
    let pion_game = recs.iter().find(|r| r["first"] == "pion").unwrap();
    assert_eq!(pion_game["ids"][0]["name"], "pion");
    assert!(pion_game["ids"][0]["version"].is_string(), "{pion_game}");
}
