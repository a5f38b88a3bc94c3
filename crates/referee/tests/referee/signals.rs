//! Signals: SIGINT and SIGTERM end the referee with the finished games kept, no forfeit
//! recorded, and no engine process left behind.

use crate::support::{
    assert_all_gone, children_of, mock, records, scratch, signal, signal_unless_gone,
    spawn_referee, stderr, summary, wait_for_exit, wait_for_records,
};

#[test]
fn ctrl_c_keeps_finished_games_and_kills_the_engines() {
    let dir = scratch("ctrlc");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let mut child = spawn_referee(
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
            "1000",
            "--tc",
            "depth=1",
            "--out",
            "games.jsonl",
            "--json",
        ],
    );
    let file = dir.join("games.jsonl");
    wait_for_records(&file, 2);
    signal(child.id(), libc::SIGINT);
    wait_for_exit(&mut child);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
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
    let cmd = format!("cmd={}", crate::support::pion());
    let child = spawn_referee(
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
        ],
    );
    let file = dir.join("games.jsonl");
    wait_for_records(&file, 4);
    // As Slurm's scancel or systemd do: the referee and its engines at once (the engines run
    // in process groups of their own, so each is signalled by its pid).
    let engines = children_of(child.id());
    assert!(engines.len() >= 2, "the engines are running: {engines:?}");
    signal(child.id(), libc::SIGTERM);
    for pid in engines {
        signal_unless_gone(pid, libc::SIGTERM);
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
