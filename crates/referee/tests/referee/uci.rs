//! Engines of the Oware UCI dialect (Aualé's, Aalina's): `proto=uci`, the automatic fallback
//! from `pion` through `ugi` to `uci`, what such an engine is sent, `bestmove 0000` accepted
//! only where the side to move cannot feed, the refusal of other games and variants, and the
//! strict mock's bad behaviours (stale position, late move, `0000` out of place, no `uciok`).

use std::path::{Path, PathBuf};

use crate::support::{records, referee, require_python, scratch, stderr};

fn uci_mock(dir: &Path, args: &str) -> String {
    require_python();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/uci_mock.py");
    format!(
        "python3 '{}' --log '{}' {args}",
        path.display(),
        dir.join("uci-commands.txt").display()
    )
}

fn log_of(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("logs").join(format!("{name}.0.log"))).unwrap()
}

/// A match between pion (over its own protocol) and the mock `u` with `u_words`, Awale abapa.
fn play(dir: &Path, mock: &str, u_words: &[&str], extra: &[&str]) -> std::process::Output {
    let pion = format!("cmd={}", crate::support::pion());
    let mock = format!("cmd={mock}");
    let mut args = vec!["--game", "awale", "--variant", "grandslam-nocapture"];
    args.extend(["--engine", "name=p", &pion, "option.Level=greedy"]);
    args.extend(["--engine", "name=u", &mock]);
    args.extend_from_slice(u_words);
    args.extend(["--games", "2", "--out", "g.jsonl", "--json"]);
    args.extend_from_slice(extra);
    referee(dir, &args)
}

fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_uci_engine_plays_whole_games_in_its_dialect() {
    let dir = scratch("uci-match");
    let out = play(
        &dir,
        &uci_mock(&dir, ""),
        &["proto=uci"],
        &["--tc", "tc=5+0.1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["reason"], "normal", "{r}");
        assert!(r["moves"].as_array().unwrap().len() > 10, "{r}");
    }
    let sent = std::fs::read_to_string(dir.join("uci-commands.txt")).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines[0], "uci", "{sent}");
    assert!(
        !sent.contains("pion\n") && !sent.contains("ugi\n"),
        "{sent}"
    );
    assert!(
        !sent.contains("Variant"),
        "a UCI engine has no Variant option: {sent}"
    );
    assert!(sent.contains("ucinewgame\nisready\n"), "{sent}");
    // Positions from the start with the moves run together, the clock as wtime/btime.
    let position = lines
        .iter()
        .find(|l| l.starts_with("position startpos moves "))
        .expect("a position with moves");
    let moves = position.trim_start_matches("position startpos moves ");
    assert!(
        moves.chars().all(|c| "ABCDEFabcdef".contains(c)),
        "{position}"
    );
    let go = lines.iter().find(|l| l.starts_with("go ")).unwrap();
    assert!(
        go.starts_with("go wtime ") && go.contains(" btime ") && go.ends_with(" winc 100 binc 100"),
        "{go}"
    );
    // The engine's name and data reach the records.
    let game = recs.iter().find(|r| r["second"] == "u").unwrap();
    assert_eq!(game["ids"][1]["name"], "ucimock 1.0", "{game}");
    let data = game["data"].as_array().unwrap();
    assert_eq!(data[1]["depth"], 1, "{game}");
    assert!(log_of(&dir, "u").contains("# speaks uci"));
}

#[test]
fn auto_asks_pion_then_ugi_then_uci() {
    let dir = scratch("uci-auto");
    let out = play(&dir, &uci_mock(&dir, ""), &[], &["--tc", "depth=1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(records(&dir.join("g.jsonl")).len(), 2);
    let log = log_of(&dir, "u");
    assert!(
        log.contains("# it did not answer pion within 1000 ms: asking ugi"),
        "{log}"
    );
    assert!(
        log.contains("# it did not answer ugi within 1000 ms: asking uci"),
        "{log}"
    );
    assert!(log.contains("# speaks uci"), "{log}");
}

#[test]
fn bestmove_0000_ends_the_game_only_where_the_mover_cannot_feed() {
    // South to move has seeds, North none, and no sowing of South's reaches North's row.
    let dir = scratch("uci-zero");
    let openings = file(&dir, "o.txt", "1,1,0,0,1,0/0,0,0,0,0,0/21,24 1\n");
    let openings = format!("file={}", openings.display());
    let out = play(
        &dir,
        &uci_mock(&dir, ""),
        &["proto=uci"],
        &["--tc", "depth=2", "--openings", &openings],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&dir.join("g.jsonl"));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        // The same final score either way: 24-24, a draw; pion plays its one more move.
        assert_eq!(r["reason"], "normal", "{r}");
        assert_eq!(r["result"], "1/2-1/2", "{r}");
        let moves = r["moves"].as_array().unwrap();
        if r["first"] == "u" {
            assert!(moves.is_empty(), "{r}");
        } else {
            assert_eq!(moves.len(), 1, "{r}");
        }
    }
    // Anywhere else 0000 loses like any illegal move.
    let dir = scratch("uci-zero-out-of-place");
    let out = play(
        &dir,
        &uci_mock(&dir, "--fault zero-after=2"),
        &["proto=uci"],
        &["--tc", "depth=2"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for r in records(&dir.join("g.jsonl")) {
        assert_eq!(r["reason"], "illegal-move", "{r}");
        assert_eq!(r["loser"], "u", "{r}");
        let detail = r["detail"].as_str().unwrap();
        assert!(detail.contains("u played '0000' (no move) at "), "{detail}");
    }
}

#[test]
fn bad_uci_engines_lose_with_a_reason() {
    let dir = scratch("uci-stale");
    let out = play(
        &dir,
        &uci_mock(&dir, "--fault stale-after=1"),
        &["proto=uci"],
        &["--tc", "depth=2"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for r in records(&dir.join("g.jsonl")) {
        assert_eq!(r["reason"], "illegal-move", "{r}");
        assert!(
            r["detail"].as_str().unwrap().starts_with("u played '"),
            "{r}"
        );
    }

    let dir = scratch("uci-late");
    let out = play(
        &dir,
        &uci_mock(&dir, "--fault late-after=1"),
        &["proto=uci"],
        &["--tc", "movetime=100"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for r in records(&dir.join("g.jsonl")) {
        assert_eq!(r["reason"], "timeout", "{r}");
        assert_eq!(r["loser"], "u", "{r}");
    }

    let dir = scratch("uci-silent");
    let out = play(
        &dir,
        &uci_mock(&dir, "--silent"),
        &["proto=uci"],
        &["--startup-timeout", "1500"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("engine 'u' failed to start"), "{err}");
    assert!(
        err.contains("sent no uciok (the answer to uci) in time"),
        "{err}"
    );
}

#[test]
fn proto_uci_is_refused_at_once_for_other_games_and_variants() {
    let dir = scratch("uci-refused");
    let mock = format!("cmd={}", uci_mock(&dir, ""));
    let pion = format!("cmd={}", crate::support::pion());
    for game in [
        &["--game", "avalam"][..],
        &["--game", "awale"],
        &["--game", "awale", "--variant", "standard"],
    ] {
        let mut args = game.to_vec();
        args.extend([
            "--engine",
            "name=p",
            &pion,
            "--engine",
            "name=u",
            &mock,
            "proto=uci",
        ]);
        let out = referee(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("engine 'u' (proto=uci) speaks the Oware UCI dialect, which plays only --game awale --variant grandslam-nocapture"),
            "{err}"
        );
    }
    assert!(
        !dir.join("uci-commands.txt").exists(),
        "no engine was started"
    );
}
