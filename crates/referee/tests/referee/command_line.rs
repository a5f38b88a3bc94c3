//! The command line: bad flags are usage errors, and an engine that cannot start or an output
//! file that cannot be written is one error line.

use std::process::Command;

use crate::support::{REFEREE, assert_all_gone, mock, referee, scratch, stderr};

#[test]
fn bad_flags_are_usage_errors() {
    let dir = scratch("flags");
    let cmd = format!("cmd={}", mock(&dir, &[]));
    let base = [
        "--game",
        "awale",
        "--engine",
        "name=a",
        cmd.as_str(),
        "--engine",
        "name=b",
        cmd.as_str(),
    ];
    let cases: Vec<Vec<&str>> = vec![
        vec!["--tc", "bogus=3"],
        vec!["--tc", "tc=ten"],
        vec!["--openings", "random-plies=x"],
        vec!["--shard", "3/2"],
        vec!["--sprt", "elo0=5", "elo1=0"],
        vec!["--no-such-flag"],
        vec!["--variant", "nope"],
        vec!["--concurrency", "0"],
        vec!["--tc", "movetime=0"],
        vec!["--tc", "nodes=0"],
        vec!["--tc", "depth=0"],
        vec!["--tc", "tc=1e20+0"],
        vec!["--tc", "tc=10+1e9"],
        vec!["--hang-timeout", "0"],
        // Values whose arithmetic would wrap, and so forfeit correct engines on time.
        vec!["--tc", "movetime=18446744073709551615"],
        vec!["--timemargin", "9223372036854775807"],
        vec!["--quit-timeout", "18446744073709551615"],
        // Deeper than the protocol allows: every pion game would be a protocol error.
        vec!["--tc", "depth=65"],
    ];
    for extra in cases {
        let mut args = base.to_vec();
        args.extend(&extra);
        let out = referee(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // Openings the game cannot give: refused before any game, rather than every game started
    // from whatever shorter opening came out.
    let mut args = base.to_vec();
    args.extend(["--openings", "random-plies=1000"]);
    let out = referee(&dir, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("use fewer plies"), "{}", stderr(&out));
    for args in [
        vec!["--game", "awale", "--engine", "name=a", cmd.as_str()],
        vec![
            "--game",
            "awale",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            cmd.as_str(),
        ],
        vec![
            "--game",
            "awale",
            "--engine",
            "name=a",
            cmd.as_str(),
            "--engine",
            "name=a",
            cmd.as_str(),
        ],
        vec![
            "--game",
            "chess",
            "--engine",
            "name=a",
            cmd.as_str(),
            "--engine",
            "name=b",
            cmd.as_str(),
        ],
    ] {
        let out = referee(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let help = Command::new(REFEREE).arg("--help").output().unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    for flag in [
        "--engine",
        "--tc",
        "--timemargin",
        "--openings",
        "--sprt",
        "--shard",
        "--resume",
        "--maxplies",
        "--startup-timeout",
        "--isready-timeout",
        "Example",
    ] {
        assert!(text.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn an_engine_that_cannot_start_is_one_error_line() {
    let dir = scratch("nostart");
    let good = format!("cmd={}", mock(&dir, &[]));
    let dead = format!("cmd={}", mock(&dir, &["exit-at-start"]));
    for bad in [dead.as_str(), "cmd=/nonexistent/engine --flag"] {
        let out = referee(
            &dir,
            &[
                "--game",
                "avalam",
                "--engine",
                "name=good",
                &good,
                "--engine",
                "name=bad",
                bad,
                "--games",
                "2",
            ],
        );
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("'bad'"), "{err}");
    }
}

#[test]
fn an_out_file_that_cannot_be_written_is_one_error_line() {
    let dir = scratch("badout");
    let good = format!("cmd={}", mock(&dir, &[]));
    let out = referee(
        &dir,
        &[
            "--game",
            "awale",
            "--engine",
            "name=a",
            &good,
            "--engine",
            "name=b",
            &good,
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--out",
            "no/such/dir/games.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("cannot open no/such/dir/games.jsonl"), "{err}");
    assert_all_gone(&dir);
}
